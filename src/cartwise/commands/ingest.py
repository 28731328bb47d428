"""`cartwise ingest PATH`: load a catalog file into the index (or `--demo`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import closing
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, cast

import typer

from cartwise.catalog.formats import FORMATS, Format
from cartwise.commands.common import clean_errors, price_recording
from cartwise.errors import IngestError, InvalidInput
from cartwise.settings import get_settings

if TYPE_CHECKING:
    from cartwise.catalog.ingest import IngestReport

MAX_ERRORS_SHOWN = 50


def register(app: typer.Typer) -> None:
    app.command("ingest")(ingest)


def resolve_mapping(value: str) -> Path:
    """A mapping file path, or the name of a bundled mapping (`bigbasket`, `homedepot`)."""
    path = Path(value)
    if path.is_file():
        return path
    bundled = resources.files("cartwise.catalog").joinpath(f"mappings/{value}.yml")
    if bundled.is_file():
        return Path(str(bundled))
    raise IngestError(value, "no such mapping file or bundled mapping (bigbasket, homedepot)")


def ingest(
    path: Annotated[
        Path | None, typer.Argument(help="Catalog file (.jsonl, .csv, .json, .gz).")
    ] = None,
    platform: Annotated[
        str | None, typer.Option(help="Platform id (default: from the file).")
    ] = None,
    fmt: Annotated[
        str, typer.Option("--format", help=f"auto or one of {', '.join(FORMATS)}.")
    ] = "auto",
    mapping: Annotated[
        str | None, typer.Option(help="Column-mapping YAML/JSON, or bigbasket / homedepot.")
    ] = None,
    currency: Annotated[
        str | None, typer.Option(help="Currency of prices that name none (e.g. GBP).")
    ] = None,
    demo: Annotated[bool, typer.Option("--demo", help="Index the bundled demo catalog.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Upsert a catalog by (platform, item_id); bad rows are reported with line numbers."""

    def show(report: IngestReport) -> None:
        if as_json:
            typer.echo(json.dumps(report.model_dump(), ensure_ascii=False))
        else:
            _print_report(report)

    with clean_errors():
        report = _run(path, platform, fmt, mapping, currency, demo, show)
    if report.ingested == 0 and report.skipped > 0:
        # Every row was refused: a script running this must not carry on as if it worked.
        raise typer.Exit(1)


def _run(
    path: Path | None,
    platform: str | None,
    fmt: str,
    mapping: str | None,
    currency: str | None,
    demo: bool,
    show: Callable[[IngestReport], None],
) -> IngestReport:
    """The ingest, its report shown as soon as it is done: before the price recorder closes,
    which lets the alert webhook's queued posts finish (up to 10 s for a webhook that does
    not answer), so the report never waits on a shopper's webhook."""
    if demo == (path is not None):
        raise InvalidInput("give either PATH or --demo")
    if fmt != "auto" and fmt not in FORMATS:
        raise InvalidInput(f"unknown format {fmt!r}: use auto, {', '.join(FORMATS)}")
    from cartwise.catalog.demo import ingest_demo
    from cartwise.catalog.pipeline import ingest_file
    from cartwise.embedding import create_embedder
    from cartwise.recall.service import RecallService

    settings = get_settings()
    mapping_path = resolve_mapping(mapping) if mapping else None
    embedder = create_embedder(settings.embedder, settings)
    service = RecallService.open(settings, embedder)
    with closing(service), price_recording(settings, demo=path is None) as prices:
        if path is None:
            report = ingest_demo(settings, service, embedder, prices=prices)
        else:
            report = ingest_file(
                path,
                settings=settings,
                service=service,
                embedder=embedder,
                platform=platform,
                fmt=None if fmt == "auto" else cast(Format, fmt),
                mapping=mapping_path,
                currency=currency,
                prices=prices,
            )
        show(report)
        return report


def _print_report(report: IngestReport) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(
        f"[bold]{report.path}[/bold] ({report.format}): {report.ingested} products upserted "
        f"into {', '.join(report.platforms) or 'no platform'}; {report.rows} rows read, "
        f"{report.skipped} skipped, {report.duplicates} duplicates; "
        f"{report.embedded} embedded, {report.cached} from cache; "
        f"{report.price_points} price points, {report.alerts} alerts raised; "
        f"{report.seconds:.1f}s"
    )
    if not report.errors:
        return
    table = Table(title="rows skipped")
    for column in ("line", "item_id", "reason"):
        table.add_column(column)
    for error in report.errors[:MAX_ERRORS_SHOWN]:
        table.add_row(str(error.line), error.item_id, error.message)
    console.print(table)
    if len(report.errors) > MAX_ERRORS_SHOWN:
        console.print(f"... and {len(report.errors) - MAX_ERRORS_SHOWN} more (use --json)")
