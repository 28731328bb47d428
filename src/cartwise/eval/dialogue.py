"""`cartwise eval dialogue`: run the multi-turn set through the agent and check each turn.

The evaluation sees the agent only through `DialogueAgent` — one turn in, the turn's JSON
result out (the `cartwise ask --json` object), plus read access to listings and long-term
memory — so it judges what a client would see. The command wires it to `run_agent` with one
agent (stores, index, model) shared by every conversation; each conversation gets its own
shopper and thread, so nothing leaks between them.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections import defaultdict
from collections.abc import Awaitable, Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field

from cartwise.catalog.product import Product
from cartwise.catalog.taxonomy import types_named_in
from cartwise.eval.dialogue_checks import (
    PRODUCT_TYPE_WORDS,
    Check,
    ShownProduct,
    TurnContext,
    TurnView,
    check_turn,
    is_of_type,
)
from cartwise.eval.dialogue_set import Conversation


@dataclass(frozen=True)
class DialogueAgent:
    """The agent as the evaluation uses it."""

    run_turn: Callable[[str, str, str], Awaitable[dict[str, Any]]]
    """(user, thread, message) → the turn's result as JSON."""
    listing: Callable[[str], Product | None]
    """`platform:item_id` → the full listing (its category and attributes)."""
    long_term: Callable[[str], list[tuple[str, str]]]
    """user → (polarity, slug) of every long-term preference."""
    fx_to_base: dict[str, float]
    embedder: str
    listings: Callable[[], Iterable[Product]]
    """Every listing of the catalog (read once, to know what is cheapest per type)."""


class CapabilityScore(BaseModel):
    passed: int = 0
    total: int = 0

    @property
    def rate(self) -> float:
        return self.passed / self.total if self.total else 0.0


class Failure(BaseModel):
    conversation: str
    turn: int
    message: str
    capability: str
    detail: str


class DialogueReport(BaseModel):
    """Pass rates of one split, per capability and per whole conversation."""

    split: str
    embedder: str
    conversations: int = 0
    conversations_passed: int = 0
    turns: int = 0
    seconds: float = 0.0
    capabilities: dict[str, CapabilityScore] = Field(default_factory=dict)
    failures: list[Failure] = Field(default_factory=list)


class CheapestByType:
    """The cheapest in-stock price of each product type of the set (by the harness's own
    words for types) per brand, over the whole catalog."""

    def __init__(self, listings: Iterable[Product]) -> None:
        self._cheapest: dict[str, dict[str, float]] = {}
        for product in listings:
            if not product.in_stock:
                continue
            for slug in PRODUCT_TYPE_WORDS:
                if is_of_type(product, slug):
                    brands = self._cheapest.setdefault(slug, {})
                    brand = product.brand.casefold()
                    brands[brand] = min(brands.get(brand, product.price_base), product.price_base)

    def cheaper_exists(
        self, slug: str, price_base: float, refused_brands: Collection[str] = ()
    ) -> bool:
        """Whether a listing of the type is below `price_base`, of a brand not refused (the
        shopper who said "anything except Decathlon" is not offered the cheaper Decathlon)."""
        refused = {b.casefold() for b in refused_brands}
        return any(
            price < price_base
            for brand, price in self._cheapest.get(slug, {}).items()
            if brand not in refused
        )


def dialogue_types(conversations: Sequence[Conversation]) -> set[str]:
    """The taxonomy's product types the conversations name (what a catalog slice must hold)."""
    return {t.slug for c in conversations for turn in c.turns for t in types_named_in(turn.say)}


async def run_conversation(
    agent: DialogueAgent, conversation: Conversation, cheapest: CheapestByType
) -> list[tuple[int, str, list[Check]]]:
    user, thread = f"eval-{uuid.uuid4().hex[:8]}", f"t-{uuid.uuid4().hex[:8]}"
    results: list[TurnView] = []
    types: list[str | None] = []
    cache: dict[str, Product | None] = {}

    def lookup(product: ShownProduct) -> Product | None:
        key = f"{product.platform}:{product.item_id}"
        if key not in cache:
            cache[key] = agent.listing(key)
        return cache[key]

    outcome: list[tuple[int, str, list[Check]]] = []
    for index, turn in enumerate(conversation.turns):
        before = agent.long_term(user)
        result = TurnView.model_validate(await agent.run_turn(user, thread, turn.say))
        context = TurnContext(
            message=turn.say,
            result=result,
            earlier=list(results),
            earlier_types=list(types),
            memory_before=before,
            lookup=lookup,
            fx_to_base=agent.fx_to_base,
            cheaper_exists=cheapest.cheaper_exists,
        )
        outcome.append((index, turn.say, check_turn(turn.expect, context)))
        results.append(result)
        types.append(turn.expect.type)
    return outcome


def evaluate_dialogue(
    agent: DialogueAgent,
    conversations: Sequence[Conversation],
    *,
    split: str,
    progress: Callable[[int, int], None] | None = None,
) -> DialogueReport:
    report = DialogueReport(split=split, embedder=agent.embedder)
    scores: dict[str, CapabilityScore] = defaultdict(CapabilityScore)
    started = time.perf_counter()
    cheapest = CheapestByType(agent.listings())
    for done, conversation in enumerate(conversations, start=1):
        outcome = asyncio.run(run_conversation(agent, conversation, cheapest))
        all_passed = True
        for index, message, checks in outcome:
            report.turns += 1
            for check in checks:
                score = scores[check.capability]
                score.total += 1
                score.passed += check.passed
                if not check.passed:
                    all_passed = False
                    report.failures.append(
                        Failure(
                            conversation=conversation.id,
                            turn=index,
                            message=message,
                            capability=check.capability,
                            detail=check.detail,
                        )
                    )
        report.conversations += 1
        report.conversations_passed += all_passed
        if progress is not None:
            progress(done, len(conversations))
    report.capabilities = dict(sorted(scores.items()))
    report.seconds = round(time.perf_counter() - started, 1)
    return report


def render_markdown(reports: Sequence[DialogueReport]) -> str:
    """The per-capability table (splits side by side)."""
    names = sorted({c for r in reports for c in r.capabilities})
    header = "| capability | " + " | ".join(f"{r.split} pass rate" for r in reports) + " |"
    lines = [header, "|---|" + "---:|" * len(reports)]
    for name in names:
        cells = []
        for r in reports:
            s = r.capabilities.get(name)
            cells.append(f"{s.rate:.1%} ({s.passed}/{s.total})" if s else "–")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    cells = [
        f"{r.conversations_passed / max(r.conversations, 1):.1%} "
        f"({r.conversations_passed}/{r.conversations})"
        for r in reports
    ]
    lines.append("| **whole conversations** | " + " | ".join(cells) + " |")
    lines.append("")
    for r in reports:
        lines.append(
            f"- {r.split}: {r.conversations} conversations, {r.turns} turns, "
            f"{r.seconds:.0f} s, embedder {r.embedder}"
        )
    return "\n".join(lines) + "\n"
