"""`cartwise eval understanding`: dev-set scores and real-text coverage of the engine."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cartwise.commands.eval import eval_app
from cartwise.errors import CartwiseError
from cartwise.settings import get_settings

DEFAULT_DATA_DIR = Path("../shared/data")


def register(app: typer.Typer) -> None:
    """The subcommand lives on the shared `eval` group, registered by `commands.eval`."""
    eval_app.command("understanding")(eval_understanding)


def eval_understanding(
    data: Annotated[
        Path, typer.Option(help="The shared data folder (coverage checks skip when absent).")
    ] = DEFAULT_DATA_DIR,
    dev_set: Annotated[
        Path | None, typer.Option(help="A dev set in the same format (default: the packaged one).")
    ] = None,
    split: Annotated[
        str, typer.Option(help="Packaged split: dev (tuned on) or test (never tuned on).")
    ] = "dev",
    out: Annotated[
        Path | None,
        typer.Option(help="Report path (default: CARTWISE_HOME/reports/understanding.md)."),
    ] = None,
) -> None:
    """Per-field precision/recall, dedup_key F1, polarity errors and coverage, as Markdown."""
    from cartwise.eval.understanding import evaluate_understanding, write_report
    from cartwise.eval.understanding_dataset import load_dev_set
    from cartwise.understanding import create_engine

    settings = get_settings()
    try:
        cases = load_dev_set(dev_set, split=split)
        engine = create_engine(settings)
        report = evaluate_understanding(engine, data_dir=data, cases=cases)
        path = write_report(report, out or settings.home / "reports" / "understanding.md")
    except CartwiseError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(code=2) from None
    except OSError as exc:
        typer.echo(f"error: cannot read or write {exc.filename}: {exc.strerror}", err=True)
        raise typer.Exit(code=2) from None
    scores = report.scores
    typer.echo(
        f"{scores.engine}: polarity accuracy {scores.polarity_accuracy:.3f}, "
        f"dedup_key F1 {scores.dedup_key_f1:.3f}, slot accuracy {scores.slot_accuracy:.3f} "
        f"({scores.cases} cases)"
    )
    poisoning = scores.poisoning
    if poisoning.statements:
        typer.echo(
            f"poisoning: {len(poisoning.poisoned)}/{poisoning.statements} statements that are not "
            f"the shopper's own became their hard dislike; controls kept "
            f"{poisoning.controls_kept}/{poisoning.controls}"
        )
    for item in report.coverage:
        if item.eligible:
            typer.echo(f"{item.name}: {item.covered}/{item.eligible} = {item.share:.3f}")
        else:
            typer.echo(f"{item.name}: no eligible text in the data")
    if report.prefeval is not None:
        pe = report.prefeval
        typer.echo(
            f"prefeval curator: precision {pe.precision:.3f}, recall {pe.recall:.3f} "
            f"({pe.statements} labelled statements)"
        )
    for reason in report.skipped:
        typer.echo(f"skipped: {reason}")
    typer.echo(f"report: {path}")
