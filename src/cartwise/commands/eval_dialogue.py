"""`cartwise eval dialogue`: the multi-turn conversation set, pass rates per capability."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cartwise.commands.common import clean_errors
from cartwise.commands.eval import eval_app
from cartwise.settings import get_settings

SPLITS = ("dev", "test")


def register(app: typer.Typer) -> None:
    """The subcommand lives on the shared `eval` group, registered by `commands.eval`."""
    eval_app.command("dialogue")(eval_dialogue)


def eval_dialogue(
    split: Annotated[
        str, typer.Option(help="dev, test or both (the test split is never used to tune).")
    ] = "both",
    limit: Annotated[
        int | None, typer.Option(min=1, help="Only the first N conversations of each split.")
    ] = None,
    out: Annotated[Path | None, typer.Option(help="Also write the Markdown table here.")] = None,
    failures: Annotated[int, typer.Option(min=0, help="Print up to N failed checks.")] = 20,
    calibrate: Annotated[
        bool, typer.Option(help="Also print the relevance-floor sweep on the dev requests.")
    ] = False,
) -> None:
    """Run every conversation through the agent and report pass rates per capability."""
    from cartwise.errors import InvalidInput
    from cartwise.eval import catalog_scope
    from cartwise.eval.dialogue import eval_agent, evaluate_dialogue, render_markdown
    from cartwise.eval.dialogue_set import dialogue_path, load_conversations

    with clean_errors():
        if split not in (*SPLITS, "both"):
            raise InvalidInput(f"--split must be dev, test or both, not {split!r}")
        chosen = SPLITS if split == "both" else (split,)
        sets = {s: load_conversations(dialogue_path(s))[:limit] for s in chosen}  # type: ignore[arg-type]
        reports = []
        with eval_agent(get_settings()) as deps:
            for name, conversations in sets.items():

                def progress(done: int, total: int, name: str = name) -> None:
                    if done % 20 == 0 or done == total:
                        typer.echo(f"{name}: {done}/{total}", err=True)

                reports.append(
                    evaluate_dialogue(deps, conversations, split=name, progress=progress)
                )
            scope = [
                catalog_scope.evaluate(
                    deps, catalog_scope.load_requests(catalog_scope.scope_path(name)), split=name
                )
                for name in chosen
            ]
            sweep = (
                catalog_scope.calibrate(
                    deps, catalog_scope.load_requests(catalog_scope.scope_path("dev"))
                )
                if calibrate
                else []
            )
    table = render_markdown(reports) + "\n" + catalog_scope.render_markdown(scope, sweep)
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
