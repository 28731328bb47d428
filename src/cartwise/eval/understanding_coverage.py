"""Coverage of the understanding engine on real text in `../shared/data` (read in place).

- WebShop (`nlu/webshop/human_goals.json`): instructions that state a price ceiling
  ("... and price lower than 40.00 dollars") → is that ceiling parsed exactly (budget_max and
  USD)? An instruction states a price when it matches `PRICE_CEILING`.
PrefEval is scored for correctness against hand labels in `statement_labels`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

from pydantic import BaseModel, Field

from cartwise.errors import InvalidInput
from cartwise.memory.session_state import SessionPrefState
from cartwise.understanding.base import Engine
from cartwise.understanding.reading import Conversation

PRICE_CEILING = re.compile(r"price (?:lower|less) than \$?(\d+(?:\.\d+)?) dollars?")
MAX_EXAMPLES = 20


class Coverage(BaseModel):
    """How many eligible texts the engine handled."""

    name: str
    eligible: int = 0
    covered: int = 0
    misses: list[str] = Field(default_factory=list)
    """Up to MAX_EXAMPLES texts the engine missed (for the report)."""

    @property
    def share(self) -> float:
        return self.covered / self.eligible if self.eligible else 0.0

    def record(self, text: str, ok: bool) -> None:
        self.eligible += 1
        if ok:
            self.covered += 1
        elif len(self.misses) < MAX_EXAMPLES:
            self.misses.append(text)


def _default_engine(engine: Engine | None) -> Engine:
    if engine is not None:
        return engine
    from cartwise.settings import get_settings
    from cartwise.understanding import create_engine

    return create_engine(get_settings().model_copy(update={"engine": "rules"}))


def _read_json(path: Path) -> object:
    try:
        return json.loads(path.read_text("utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise InvalidInput(f"cannot read {path}: {exc}") from exc


def webshop_budget_coverage(path: Path, engine: Engine | None = None) -> Coverage:
    """Share of WebShop instructions stating "price lower than X dollars" whose ceiling the
    engine parses exactly (budget_max == X, budget_currency == USD)."""
    goals = _read_json(path)
    if not isinstance(goals, list):
        raise InvalidInput(f"{path}: expected a JSON list of instructions")
    texts = [g if isinstance(g, str) else str(g.get("instruction", "")) for g in goals]
    return budget_coverage(texts, _default_engine(engine))


def budget_coverage(texts: Iterable[str], engine: Engine) -> Coverage:
    """The WebShop check over any instruction texts."""
    coverage = Coverage(name="webshop price ceiling")
    session = SessionPrefState(thread="coverage")
    for text in texts:
        stated = PRICE_CEILING.search(text.lower())
        if not stated:
            continue
        slots = engine.read(text, Conversation(session=session)).slots
        read = slots.get("budget_max")
        coverage.record(
            text,
            read is not None
            and float(read) == float(stated.group(1))
            and slots.get("budget_currency") == "USD",
        )
    return coverage
