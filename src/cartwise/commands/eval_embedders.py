"""`cartwise eval embedders`: dense-retrieval quality and speed of the bundled embedders."""

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
    eval_app.command("embedders")(eval_embedders)


def eval_embedders(
    data: Annotated[Path, typer.Option(help="The shared data folder.")] = DEFAULT_DATA_DIR,
    embedder: Annotated[
        list[str] | None, typer.Option(help="Embedders to compare (repeatable).")
    ] = None,
    out: Annotated[
        Path | None, typer.Option(help="Report path (default: CARTWISE_HOME/reports/embedders.md).")
    ] = None,
) -> None:
    """Report MRR@10 / recall of each embedder on the shared sets, and its throughput."""
    from cartwise.embedding import create_embedder
    from cartwise.eval.embedders import CANDIDATES, evaluate_embedders, render_report

    if not (data / "eval").is_dir():
        typer.echo(f"skipped: no shared evaluation data at {data}", err=True)
        return
    settings = get_settings()
    try:
        results = evaluate_embedders(
            embedder or list(CANDIDATES),
            settings=settings,
            data_dir=data,
            create=lambda spec: create_embedder(spec, settings),
        )
    except CartwiseError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    report = render_report(results, data_dir=data)
    path = out or settings.home / "reports" / "embedders.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(report, encoding="utf-8")
    typer.echo(report)
    typer.echo(f"written to {path}", err=True)
