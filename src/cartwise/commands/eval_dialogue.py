"""`cartwise eval dialogue`: the multi-turn conversation set, pass rates per capability, and
precision/recall of "not carried" on the labelled requests.

One agent serves the whole run: SQLite stores in a temporary home, the rules engine, and the
demo catalog indexed once with the configured embedder (its product vectors cached in the
configured home, so a second run embeds nothing). `--slice` indexes only the product types the
conversations name, for a bundled-model run when embedding the whole catalog would take too
long.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cartwise.commands.common import clean_errors
from cartwise.commands.eval import eval_app
from cartwise.settings import Settings, get_settings

if TYPE_CHECKING:
    from cartwise.agent.deps import AgentDeps
    from cartwise.embedding.base import Embedder
    from cartwise.eval.dialogue import DialogueAgent
    from cartwise.eval.dialogue_set import Split

SPLITS: tuple[Split, ...] = ("dev", "test")


def register(app: typer.Typer) -> None:
    """The subcommand lives on the shared `eval` group, registered by `commands.eval`."""
    eval_app.command("dialogue")(eval_dialogue)


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
    settings: Settings,
    *,
    embedder: Embedder | None = None,
    slice_types: set[str] | None = None,
    catalog_file: Path | None = None,
    mapping: Path | None = None,
) -> Iterator[AgentDeps]:
    """An agent over a fresh temporary home with the demo catalog (or its `slice_types`, or
    the JSON-lines `catalog_file` instead, read through the column `mapping` when given)
    indexed once. Product vectors go through the
    embedding cache of the configured home (product texts only: no user text is written to
    disk)."""
    from cartwise.agent.deps import create_deps
    from cartwise.catalog.demo import ensure_catalog
    from cartwise.catalog.pipeline import ingest_file
    from cartwise.embedding import create_embedder
    from cartwise.embedding.cache import CachedEmbedder, cache_path

    model = embedder or create_embedder(settings.embedder, settings)
    documents = CachedEmbedder(model, cache_path(settings.home))
    try:
        with tempfile.TemporaryDirectory(prefix="cartwise-dialogue-") as home:
            scoped = settings.model_copy(
                update={"cartwise_home": Path(home), "store_backend": "sqlite", "engine": "rules"}
            )
            deps = create_deps(scoped, embedder=model)
            try:
                source = catalog_file
                if source is None and slice_types is not None:
                    source = _demo_slice(slice_types, Path(home))
                if source is None:
                    ensure_catalog(scoped, deps.recall, documents, progress=False)
                else:
                    ingest_file(
                        source,
                        settings=scoped,
                        service=deps.recall,
                        embedder=documents,
                        fmt="jsonl",
                        mapping=mapping,
                        progress=False,
                    )
                yield deps
            finally:
                deps.close()
    finally:
        documents.close()


def dialogue_agent(deps: AgentDeps) -> DialogueAgent:
    """The agent as the evaluation sees it: `run_agent`'s JSON, listings, long-term memory."""
    from cartwise.agent.run import run_agent
    from cartwise.eval.dialogue import DialogueAgent

    async def run_turn(user: str, thread: str, message: str) -> dict[str, Any]:
        result = await run_agent(deps, user=user, thread=thread, message=message)
        return result.model_dump(mode="json")

    return DialogueAgent(
        run_turn=run_turn,
        listing=deps.recall.get,
        long_term=lambda user: [(e.polarity.value, e.slug) for e in deps.preferences.list(user)],
        fx_to_base=deps.settings.fx_to_base,
        embedder=deps.embedder.name,
        listings=deps.recall.index.iter_products,
    )


def first_turn_not_carried(deps: AgentDeps, text: str) -> bool:
    """The agent's verdict on `text` as the first message of a fresh thread."""
    from cartwise.agent.run import run_agent

    thread = f"scope-{uuid.uuid4().hex[:8]}"
    result = asyncio.run(run_agent(deps, user=thread, thread=thread, message=text))
    return result.catalog_gap is not None


def best_similarity(deps: AgentDeps, text: str) -> float | None:
    """The best hit's query similarity for the planner's search phrase, as a turn sees it
    (the planner's domain as the filter, no personalization)."""
    from cartwise.agent.nodes.profile import search_filters
    from cartwise.memory.session_state import SessionPrefState
    from cartwise.understanding.reading import Conversation

    plan = deps.engine.read(text, Conversation(session=SessionPrefState(thread="scope")))
    query = plan.query.strip()
    if not query:
        return None
    filters = search_filters(plan, plan.domain).model_copy(update={"brands": []})
    hits = deps.recall.search(query, k=5, filters=filters, profile="")
    if not hits.results and filters.domains:
        hits = deps.recall.search(query, k=5, profile="")
    return max((h.score_query for h in hits.results), default=None)


def eval_dialogue(
    split: Annotated[
        str, typer.Option(help="dev, test or both (the test split is never used to tune).")
    ] = "both",
    limit: Annotated[
        int | None, typer.Option(min=1, help="Only the first N conversations of each split.")
    ] = None,
    out: Annotated[Path | None, typer.Option(help="Also write the Markdown tables here.")] = None,
    failures: Annotated[int, typer.Option(min=0, help="Print up to N failed checks.")] = 20,
    calibrate: Annotated[
        bool, typer.Option(help="Also sweep the relevance floor alone on the dev requests.")
    ] = False,
    catalog_slice: Annotated[
        bool,
        typer.Option("--slice", help="Index only the product types the conversations name."),
    ] = False,
) -> None:
    """Run every conversation through the agent and report pass rates per capability."""
    from cartwise.errors import InvalidInput
    from cartwise.eval import catalog_scope
    from cartwise.eval.dialogue import dialogue_types, evaluate_dialogue, render_markdown
    from cartwise.eval.dialogue_set import dialogue_path, load_conversations

    with clean_errors():
        if split not in (*SPLITS, "both"):
            raise InvalidInput(f"--split must be dev, test or both, not {split!r}")
        chosen = SPLITS if split == "both" else tuple(s for s in SPLITS if s == split)
        every = [c for s in SPLITS for c in load_conversations(dialogue_path(s))]
        sets = {s: load_conversations(dialogue_path(s))[:limit] for s in chosen}
        slice_types = dialogue_types(every) if catalog_slice else None
        reports = []
        with eval_agent(get_settings(), slice_types=slice_types) as deps:
            agent = dialogue_agent(deps)
            for name, conversations in sets.items():

                def progress(done: int, total: int, name: str = name) -> None:
                    if done % 20 == 0 or done == total:
                        typer.echo(f"{name}: {done}/{total}", err=True)

                reports.append(
                    evaluate_dialogue(agent, conversations, split=name, progress=progress)
                )
            # The labelled requests need the whole catalog: a slice lacks most carried types.
            scope = (
                []
                if catalog_slice
                else [
                    catalog_scope.evaluate(
                        catalog_scope.load_requests(catalog_scope.scope_path(name)),
                        lambda text: first_turn_not_carried(deps, text),
                        split=name,
                    )
                    for name in chosen
                ]
            )
            sweep = (
                catalog_scope.calibrate(
                    catalog_scope.load_requests(catalog_scope.scope_path("dev")),
                    lambda text: best_similarity(deps, text),
                )
                if calibrate and not catalog_slice
                else []
            )
    table = render_markdown(reports)
    if scope:
        table += "\n" + catalog_scope.render_markdown(scope, sweep)
    typer.echo(table)
    for report in reports:
        for failure in report.failures[:failures]:
            typer.echo(
                f"FAIL {report.split} {failure.conversation}#{failure.turn} "
                f"[{failure.capability}] {failure.message!r}: {failure.detail}"
            )
    for score in scope:
        for mistake in score.mistakes[:failures]:
            typer.echo(f"SCOPE {score.split} {mistake}")
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(table, encoding="utf-8")
        for report in reports:
            out.with_name(f"{out.stem}_{report.split}.json").write_text(
                report.model_dump_json(indent=2), encoding="utf-8"
            )
