"""`cartwise eval shopsim`: the ShopSimulator tasks through `run_agent`, against a bare search.

One agent over a temporary home holding only the ShopSim listings (one platform, `shopsim`,
read through `eval/data/shopsim_listings.yml`), their vectors through the embedding cache of
the configured home (the first run embeds 21k titles; later ones embed nothing). The tasks
are split dev/test by a hash of their id and sampled in a seeded order
(`eval/shopsim_tasks.py`); both splits are reports. Writes the Markdown report and a JSON
twin.
"""

from __future__ import annotations

import asyncio
import time
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cartwise.commands.common import clean_errors
from cartwise.commands.eval import eval_app
from cartwise.commands.eval_dialogue import eval_agent
from cartwise.settings import get_settings

if TYPE_CHECKING:
    from rich.progress import TaskID

    from cartwise.agent.deps import AgentDeps
    from cartwise.eval.shopsim import Mode, ShopSimAgent

DEFAULT_DATA_DIR = Path("../shared/data")
DEFAULT_SAMPLE = 200
"""Tasks per split by default: at the measured 0.3–0.5 s per task (single turn and scripted
conversation alike, on two busy cores) a run of both splits takes about three minutes."""


def register(app: typer.Typer) -> None:
    """The subcommand lives on the shared `eval` group, registered by `commands.eval`."""
    eval_app.command("shopsim")(eval_shopsim)


def listings_mapping() -> Path:
    return Path(str(resources.files("cartwise.eval").joinpath("data/shopsim_listings.yml")))


def shopsim_agent(deps: AgentDeps) -> ShopSimAgent:
    from cartwise.agent.run import run_agent
    from cartwise.eval.shopsim import ShopSimAgent, Shown

    async def run_turn(user: str, thread: str, message: str) -> dict[str, Any]:
        result = await run_agent(deps, user=user, thread=thread, message=message)
        return result.model_dump(mode="json")

    def bare_search(text: str, k: int) -> list[Shown]:
        hits = deps.recall.search(text, k=k, profile="")
        return [Shown(h.product.item_id, h.product.price_base) for h in hits.results]

    return ShopSimAgent(
        run_turn=run_turn, bare_search=bare_search, depth=deps.settings.agent_max_picks
    )


def eval_shopsim(
    multi_turn: Annotated[
        bool,
        typer.Option(
            "--multi-turn", help="Open with instruction_simple; a scripted shopper answers."
        ),
    ] = False,
    split: Annotated[str, typer.Option(help="dev, test or both (both are reports).")] = "both",
    sample_size: Annotated[
        int,
        typer.Option("--sample", min=0, help="Tasks per split, in the seeded order (0: all)."),
    ] = DEFAULT_SAMPLE,
    seed: Annotated[int, typer.Option(help="Seed of the sample order.")] = 22,
    limit: Annotated[
        int | None, typer.Option(min=1, help="Only the first N sampled tasks of each split.")
    ] = None,
    data: Annotated[Path, typer.Option(help="The shared data folder.")] = DEFAULT_DATA_DIR,
    out: Annotated[
        Path | None,
        typer.Option(help="Markdown report (default docs/reports/shopsim[_multi].md)."),
    ] = None,
    details: Annotated[
        Path | None,
        typer.Option(
            help="Also write every task with what was said and the start of each reply "
            "(task text: keep it outside the repository)."
        ),
    ] = None,
) -> None:
    """Run ShopSim tasks through the agent and a bare search; report target shown and budget."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from cartwise.errors import InvalidInput
    from cartwise.eval.shopsim import evaluate_shopsim, render_markdown
    from cartwise.eval.shopsim_tasks import SPLITS, load_tasks, sample

    console = Console(stderr=True)
    mode: Mode = "multi" if multi_turn else "single"
    with clean_errors():
        if split not in (*SPLITS, "both"):
            raise InvalidInput(f"--split must be dev, test or both, not {split!r}")
        listings = data / "shopsim" / "products.jsonl"
        tasks_file = data / "shopsim" / "tasks_dev.jsonl"
        for needed in (listings, tasks_file):
            if not needed.is_file():
                raise InvalidInput(f"{needed} is absent: the ShopSim data lives in {data}")
        every = load_tasks(tasks_file)
        if multi_turn:  # a conversation needs a vague opening to start from
            every = [t for t in every if t.instruction_simple]
        chosen = SPLITS if split == "both" else tuple(s for s in SPLITS if s == split)
        sets = {s: sample(every, s, sample_size or None, seed=seed)[:limit] for s in chosen}
        started = time.perf_counter()
        reports = []
        with eval_agent(get_settings(), catalog_file=listings, mapping=listings_mapping()) as deps:
            indexed = time.perf_counter() - started
            console.print(f"indexed {deps.recall.count()} listings in {indexed:.0f} s")
            agent = shopsim_agent(deps)
            columns = (
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
            )
            with Progress(*columns, console=console) as progress:
                for name, tasks in sets.items():
                    bar = progress.add_task(f"shopsim {mode} {name}", total=len(tasks))

                    def advance(bar: TaskID = bar) -> None:
                        progress.advance(bar)

                    run = evaluate_shopsim(agent, tasks, mode=mode, split=name, advance=advance)
                    reports.append(asyncio.run(run))
    body = render_markdown(reports, depth=agent.depth)
    typer.echo(body)
    target = out or Path(f"docs/reports/shopsim{'_multi' if multi_turn else ''}.md")
    header = _title(mode, sample_size, seed, len(every), indexed)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(header + body, encoding="utf-8")
        payload = "[" + ",\n".join(r.public_json() for r in reports) + "]\n"
        target.with_suffix(".json").write_text(payload, encoding="utf-8")
        if details is not None:
            full = "[" + ",\n".join(r.model_dump_json(indent=1) for r in reports) + "]\n"
            details.write_text(full, encoding="utf-8")
    except OSError as exc:
        typer.echo(f"error: cannot write {exc.filename}: {exc.strerror}", err=True)
        raise typer.Exit(code=2) from None
    typer.echo(f"wrote {target} and {target.with_suffix('.json')}", err=True)


def _title(mode: str, sample_size: int, seed: int, total: int, indexed: float) -> str:
    from cartwise.eval.shopsim import ATTRIBUTES_PER_REPLY, MAX_SHOPPER_REPLIES
    from cartwise.eval.shopsim_tasks import APPROXIMATE_TOLERANCE

    scope = " with an `instruction_simple`" if mode == "multi" else ""
    sampled = f"the first {sample_size} of each split" if sample_size else "every task"
    lines = [
        f"# ShopSim, {'multi-turn' if mode == 'multi' else 'single turn'}",
        "",
        "`cartwise eval shopsim"
        + (" --multi-turn" if mode == "multi" else "")
        + "`: ShopSimulator's real Taobao tasks (`../shared/data/shopsim/tasks_dev.jsonl`, "
        f"{total} tasks{scope}) over its 21k real listings indexed as one platform (rules engine, "
        f"bundled e5; indexing took {indexed:.0f} s from the embedding cache). Split dev/test "
        f"by a hash of the task id, fixed before any run; {sampled} in the order of a hash "
        f"seeded with {seed}. Both splits are reports: nothing is tuned on either.",
        "",
        "- **target shown**: the target listing (or an offer grouped under a product) is "
        "among the products the reply shows; the bare search is the same text through the "
        "catalog's hybrid search at the same depth, with no reading of the message.",
        "- **stated budget**: the budget the instruction states, read by the harness "
        "(`eval/shopsim_tasks.py`): a ceiling or a range counts as is, an approximate amount "
        f"(左右, 上下, 出头…) allows {APPROXIMATE_TOLERANCE:.0%} above; tasks stating none "
        "and replies showing nothing are left out of that column. **upstream bound**: the "
        "benchmark's own `price_upper`. Prices are the listing's lowest variant price.",
    ]
    if mode == "multi":
        lines.append(
            "- **scripted shopper**: opens with `instruction_simple` (only the tasks that "
            "have one); after a reply without the target it says the next "
            f"{ATTRIBUTES_PER_REPLY} task attributes not yet said (要A，B的), then the variant "
            f"(要X的), at most {MAX_SHOPPER_REPLIES} answers; it answers a question and a "
            "wrong list alike (it never reads the reply) and the conversation stops when the "
            "target is shown. The agent is judged on its last reply; the bare search on "
            "the whole script joined (all the shopper would say, whatever the agent did) and "
            "on the opening alone."
        )
    return "\n".join(lines) + "\n\n"
