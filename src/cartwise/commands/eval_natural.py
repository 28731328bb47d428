"""`cartwise eval natural`: the natural conversation sets through `run_agent`, check by check.

Sets: `shared-dev` (`../shared/data/eval/natural_dev.jsonl`, written outside the project;
skipped when absent), and our own `dev` and `test` splits (the test split is a report, never
tuned on). One process, one agent over a temporary home holding only the ingested demo
catalog and the configured embedder (the bundled e5 by default); a fresh user per
conversation. Writes the Markdown report and a JSON twin.
"""

from __future__ import annotations

import asyncio
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
    from cartwise.eval.natural import RunTurn

DEFAULT_DATA_DIR = Path("../shared/data")
SHARED_SET = Path("eval/natural_dev.jsonl")
SET_NAMES = ("shared-dev", "dev", "test")


def register(app: typer.Typer) -> None:
    """The subcommand lives on the shared `eval` group, registered by `commands.eval`."""
    eval_app.command("natural")(eval_natural)


def run_turn_of(deps: AgentDeps) -> RunTurn:
    from cartwise.agent.run import run_agent

    async def run_turn(user: str, thread: str, message: str) -> dict[str, Any]:
        result = await run_agent(deps, user=user, thread=thread, message=message)
        output = result.model_dump(mode="json")
        # A turn's result carries its own slice of memory; the checks judge all of it.
        output["memory"]["long_term"] = [
            entry.model_dump(mode="json") for entry in deps.preferences.list(user)
        ]
        return output

    return run_turn


def eval_natural(
    sets: Annotated[
        str, typer.Option(help="Comma-separated: shared-dev, dev, test (default all three).")
    ] = ",".join(SET_NAMES),
    data: Annotated[
        Path, typer.Option(help="The shared data folder (shared-dev skips when absent).")
    ] = DEFAULT_DATA_DIR,
    set_file: Annotated[
        Path | None, typer.Option(help="Run this file (same format) instead of the named sets.")
    ] = None,
    catalog: Annotated[
        Path | None, typer.Option(help="Index this JSON-lines catalog instead of the demo one.")
    ] = None,
    limit: Annotated[
        int | None, typer.Option(min=1, help="Only the first N conversations of each set.")
    ] = None,
    out: Annotated[Path, typer.Option(help="Markdown report; the JSON goes beside it.")] = Path(
        "docs/reports/natural.md"
    ),
    failures: Annotated[int, typer.Option(min=0, help="Print up to N failed checks per set.")] = 15,
) -> None:
    """Run the natural conversation sets and report pass rates by kind, language and key."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from cartwise.errors import InvalidInput
    from cartwise.eval.natural import evaluate_natural, render_markdown
    from cartwise.eval.natural_set import load_natural, own_set_path

    console = Console(stderr=True)
    with clean_errors():
        chosen: dict[str, Path] = {}
        if set_file is not None:
            chosen[set_file.stem] = set_file
        else:
            for name in (n.strip() for n in sets.split(",") if n.strip()):
                if name not in SET_NAMES:
                    raise InvalidInput(f"unknown set {name!r}; choose from {', '.join(SET_NAMES)}")
                if name == "shared-dev":
                    shared = data / SHARED_SET
                    if not shared.is_file():
                        console.print(f"skipping shared-dev: {shared} is absent")
                        continue
                    chosen[name] = shared
                else:
                    chosen[name] = own_set_path("dev" if name == "dev" else "test")
        loaded = {name: load_natural(path)[:limit] for name, path in chosen.items()}
        if not loaded:
            raise InvalidInput("no conversation set to run")
        reports = []
        with eval_agent(get_settings(), catalog_file=catalog) as deps:
            run_turn = run_turn_of(deps)
            columns = (
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
            )
            with Progress(*columns, console=console, transient=False) as progress:
                for name, conversations in loaded.items():
                    task = progress.add_task(f"natural {name}", total=len(conversations))

                    def advance(task: TaskID = task) -> None:
                        progress.advance(task)

                    run = evaluate_natural(run_turn, conversations, name=name, advance=advance)
                    reports.append(asyncio.run(run))
    markdown = render_markdown(reports)
    typer.echo(render_markdown(reports, failures=failures))
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(_title() + markdown, encoding="utf-8")
        payload = "[" + ",\n".join(r.model_dump_json(indent=1) for r in reports) + "]\n"
        out.with_suffix(".json").write_text(payload, encoding="utf-8")
    except OSError as exc:
        typer.echo(f"error: cannot write {exc.filename}: {exc.strerror}", err=True)
        raise typer.Exit(code=2) from None
    typer.echo(f"wrote {out} and {out.with_suffix('.json')}", err=True)


def _title() -> str:
    return (
        "# Natural conversation sets\n\n"
        "`cartwise eval natural`: every conversation through `run_agent` with a fresh user "
        "(rules engine, bundled e5, a home holding only the demo catalog). A conversation "
        "passes only when every key of every check object holds; keys as defined in "
        "`../shared/data/eval/natural_dev.README.md`. `shared-dev` was written outside the "
        "project (a development set); `dev` and `test` are ours "
        "(`src/cartwise/eval/data/natural.README.md`) — `test` is never tuned on.\n\n"
    )
