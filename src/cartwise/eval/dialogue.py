"""`cartwise eval dialogue`: run the multi-turn set through `run_agent` and check each turn.

One agent (stores, index, model) is opened for the whole run and shared by every
conversation; each conversation gets its own shopper and thread, so nothing leaks between
them. The run uses the rules engine, SQLite stores in a temporary CARTWISE_HOME and the demo
catalog with the configured embedder (the bundled e5 model and its shipped vectors by
default).
"""

from __future__ import annotations

import asyncio
import gzip
import json
import tempfile
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from pydantic import BaseModel, Field

from cartwise.agent.deps import AgentDeps, create_deps
from cartwise.agent.result import ProductOut, TurnResult
from cartwise.agent.run import run_agent
from cartwise.catalog.product import Product
from cartwise.catalog.taxonomy import types_named_in
from cartwise.eval.dialogue_checks import Check, TurnContext, check_turn
from cartwise.eval.dialogue_set import Conversation
from cartwise.recall.embedders.base import Embedder
from cartwise.settings import Settings


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


def dialogue_types(conversations: Sequence[Conversation]) -> set[str]:
    """The taxonomy's product types the conversations name (what a slice must hold)."""
    return {t.slug for c in conversations for turn in c.turns for t in types_named_in(turn.say)}


def _demo_slice(types: set[str], folder: Path) -> Path:
    """The demo catalog's offers of these product types, as a JSON-lines file."""
    from cartwise.catalog.demo import demo_catalog_path

    target = folder / "demo_slice.jsonl"
    with (
        gzip.open(demo_catalog_path(), "rt", encoding="utf-8") as source,
        target.open("w", encoding="utf-8") as sink,
    ):
        for line in source:
            if line.strip() and json.loads(line).get("product_type") in types:
                sink.write(line)
    return target


@contextmanager
def eval_agent(
    settings: Settings, *, embedder: Embedder | None = None, slice_types: set[str] | None = None
) -> Iterator[AgentDeps]:
    """An agent over a fresh temporary home (SQLite stores, rules engine) with the demo
    catalog indexed once — or only its offers of `slice_types`, when embedding the whole
    catalog would take too long. Product vectors go through the embedding cache of the
    configured home, so a second run embeds nothing (product texts only: no user text is
    written to disk)."""
    from cartwise.catalog.demo import ensure_catalog
    from cartwise.catalog.pipeline import ingest_file
    from cartwise.recall.embedders import create_embedder
    from cartwise.recall.embedders.cache import CachedEmbedder, cache_path

    model = embedder or create_embedder(settings.embedder, settings)
    documents = CachedEmbedder(model, cache_path(settings.home))
    try:
        with tempfile.TemporaryDirectory(prefix="cartwise-dialogue-") as home:
            scoped = settings.model_copy(
                update={"cartwise_home": Path(home), "store_backend": "sqlite", "engine": "rules"}
            )
            deps = create_deps(scoped, embedder=model)
            try:
                if slice_types is None:
                    ensure_catalog(scoped, deps.recall, documents, progress=False)
                else:
                    ingest_file(
                        _demo_slice(slice_types, Path(home)),
                        settings=scoped,
                        service=deps.recall,
                        embedder=documents,
                        fmt="jsonl",
                        progress=False,
                    )
                yield deps
            finally:
                deps.close()
    finally:
        documents.close()


async def run_conversation(
    deps: AgentDeps, conversation: Conversation
) -> list[tuple[int, str, list[Check]]]:
    user, thread = f"eval-{uuid.uuid4().hex[:8]}", f"t-{uuid.uuid4().hex[:8]}"
    results: list[TurnResult] = []
    types: list[str | None] = []
    cache: dict[str, Product | None] = {}

    def lookup(product: ProductOut) -> Product | None:
        key = f"{product.platform}:{product.item_id}"
        if key not in cache:
            cache[key] = deps.recall.get(key)
        return cache[key]

    outcome: list[tuple[int, str, list[Check]]] = []
    for index, turn in enumerate(conversation.turns):
        before = [(e.polarity.value, e.slug) for e in deps.preferences.list(user)]
        result = await run_agent(deps, user=user, thread=thread, message=turn.say)
        context = TurnContext(
            message=turn.say,
            result=result,
            earlier=list(results),
            earlier_types=list(types),
            memory_before=before,
            lookup=lookup,
            fx_to_base=deps.settings.fx_to_base,
        )
        outcome.append((index, turn.say, check_turn(turn.expect, context)))
        results.append(result)
        types.append(turn.expect.type)
    return outcome


def evaluate_dialogue(
    deps: AgentDeps,
    conversations: Sequence[Conversation],
    *,
    split: str,
    progress: Callable[[int, int], None] | None = None,
) -> DialogueReport:
    report = DialogueReport(split=split, embedder=deps.embedder.name)
    scores: dict[str, CapabilityScore] = defaultdict(CapabilityScore)
    started = time.perf_counter()
    for done, conversation in enumerate(conversations, start=1):
        outcome = asyncio.run(run_conversation(deps, conversation))
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
    """The per-capability table (dev and test side by side) and a sample of failures."""
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
