"""The multi-turn dialogue set: conversations of turns, each with declarative expectations.

Written by `scripts/make_dialogue_set.py` before any tuning; `dialogue_test.jsonl` is never
used to tune. The keys of `Expectation` are documented in that script and in
docs/reports/dialogue.md.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cartwise.errors import InvalidInput

Split = Literal["dev", "test"]
QuestionKind = Literal["none", "size", "budget", "product_type"]


class Expectation(BaseModel):
    """What a good assistant does on one turn; a missing key is not checked."""

    model_config = ConfigDict(extra="forbid")

    products: Literal["some", "none"] | None = None
    type: str | None = None
    """Every shown product is of this product type (a key of `PRODUCT_TYPE_WORDS`)."""
    max_price: tuple[float, str] | None = None
    """Budget ceiling (amount, currency): every shown product costs at most this."""
    exclude_brands: list[str] = Field(default_factory=list)
    size: str | None = None
    excludes_term: str | None = None
    """No shown product mentions this long-term dislike (by the stored entry's keywords)."""
    sort: Literal["price_asc", "price_desc"] | None = None
    no_repeat: bool = False
    cheaper: bool = False
    cheapest_first: bool = False
    question: QuestionKind | None = None
    open_questions: int | None = None
    small_talk: bool = False
    not_carried: bool | None = None
    memory_has: list[tuple[str, str]] = Field(default_factory=list)
    memory_unchanged_long: bool = False
    mentions_shown: list[int] = Field(default_factory=list)
    currency: str | None = None


class Turn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    say: str
    expect: Expectation = Field(default_factory=Expectation)


class Conversation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    family: str
    language: Literal["zh", "en"]
    turns: list[Turn]


def dialogue_path(split: Split) -> Path:
    return Path(str(resources.files("cartwise.eval").joinpath(f"data/dialogue_{split}.jsonl")))


def load_conversations(path: Path) -> list[Conversation]:
    """Every conversation of a JSON-lines file; InvalidInput names the first bad line."""
    conversations: list[Conversation] = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InvalidInput(f"cannot read the dialogue set {path}: {exc.strerror}") from exc
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            conversations.append(Conversation.model_validate_json(line))
        except ValidationError as exc:
            raise InvalidInput(
                f"{path}:{number}: not a conversation ({exc.error_count()} errors)"
            ) from None
    return conversations
