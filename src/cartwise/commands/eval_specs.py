"""`cartwise eval specs`: the spec parsers' precision/recall on the hand-labelled sets."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cartwise.commands.eval import eval_app
from cartwise.errors import CartwiseError
from cartwise.settings import get_settings

DEFAULT_CATALOGS = Path("../shared/data/catalogs")


def register(app: typer.Typer) -> None:
    """The subcommand lives on the shared `eval` group, registered by `commands.eval`."""
    eval_app.command("specs")(eval_specs)


def eval_specs(
    catalogs: Annotated[
        Path,
        typer.Option(help="The shared catalogs folder (listings there skip when absent)."),
    ] = DEFAULT_CATALOGS,
    split: Annotated[
        str, typer.Option(help="dev (tuned on), test (never tuned on) or both.")
    ] = "both",
    timed_listings: Annotated[
        int | None,
        typer.Option(min=1, help="Time the parser on this many demo listings (default: all)."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(help="Report path (default: CARTWISE_HOME/reports/specs.md)."),
    ] = None,
) -> None:
    """Listing and request spec parsing, per attribute and kind, with the quantulum3 baseline."""
    from cartwise.eval.specs import evaluate_specs, write_report
    from cartwise.eval.specs_data import SPLITS

    chosen = [s for s in SPLITS if split in (s, "both")]
    if not chosen:
        typer.echo(f"error: --split must be dev, test or both, not {split!r}", err=True)
        raise typer.Exit(code=2)
    try:
        report = evaluate_specs(catalogs, splits=chosen, timed_listings=timed_listings)
        path = write_report(report, out or get_settings().home / "reports" / "specs.md")
    except CartwiseError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(code=2) from None
    except OSError as exc:
        typer.echo(f"error: cannot read or write {exc.filename}: {exc.strerror}", err=True)
        raise typer.Exit(code=2) from None
    for group in (report.listings, report.requests):
        for scores in group:
            total = scores.overall()
            typer.echo(
                f"{scores.name}: precision {total.precision:.3f}, recall {total.recall:.3f} "
                f"({scores.items} items, {total.labelled} labelled values)"
            )
    for own, other in zip(
        report.listing_numbers_own, report.listing_numbers_quantulum, strict=True
    ):
        a, b = own.overall(), other.overall()
        typer.echo(
            f"numbers {own.name}: own P {a.precision:.3f} R {a.recall:.3f}; "
            f"quantulum3 P {b.precision:.3f} R {b.recall:.3f}"
        )
    if report.per_listing_us is not None:
        typer.echo(f"cost: {report.per_listing_us:.0f} µs per listing")
    for reason in report.skipped:
        typer.echo(f"skipped: {reason}")
    typer.echo(f"report: {path}")
