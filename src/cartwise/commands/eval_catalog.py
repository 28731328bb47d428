"""`cartwise eval catalog`: what the demo catalog (or any catalog file) holds."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cartwise.commands.common import clean_errors
from cartwise.commands.eval import eval_app
from cartwise.errors import IngestError
from cartwise.settings import get_settings


def register(app: typer.Typer) -> None:
    """The subcommand lives on the shared `eval` group, registered by `commands.eval`."""
    eval_app.command("catalog")(eval_catalog)


def eval_catalog(
    path: Annotated[
        Path | None,
        typer.Argument(help="A catalog file (default: the bundled demo catalog)."),
    ] = None,
) -> None:
    """Domains, product types, offers per platform, cross-platform price spread per model,
    and whether every offer has a product-page URL and an image the app draws."""
    from cartwise.catalog.demo import demo_catalog_path
    from cartwise.catalog.ingest import ReaderOptions, RowError, read_catalog
    from cartwise.eval.catalog import catalog_report, render_lines

    settings = get_settings()
    with clean_errors():
        source = path or demo_catalog_path()
        if not source.is_file():
            raise IngestError(str(source), "no such file")
        items = list(read_catalog(source, None, ReaderOptions(fx_to_base=settings.fx_to_base)))
        errors = [i for i in items if isinstance(i, RowError)]
        report = catalog_report(i for i in items if not isinstance(i, RowError))
    typer.echo(f"catalog: {source}")
    for line in render_lines(report):
        typer.echo(line)
    if errors:
        typer.echo(
            f"rows with errors: {len(errors):,} "
            f" (first: line {errors[0].line}: {errors[0].message})"
        )
