"""`cartwise eval retrieval`: BM25 vs dense vs hybrid on the shared sets, and the β A/B."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from cartwise.commands.eval import eval_app
from cartwise.errors import CartwiseError
from cartwise.settings import get_settings

DEFAULT_DATA_DIR = Path("../shared/data")


def register(app: typer.Typer) -> None:
    """The subcommand lives on the shared `eval` group, registered by `commands.eval`."""
    eval_app.command("retrieval")(eval_retrieval)


def eval_retrieval(
    data: Annotated[Path, typer.Option(help="The shared data folder.")] = DEFAULT_DATA_DIR,
    out: Annotated[
        Path | None,
        typer.Option(help="Report path (default: CARTWISE_HOME/reports/retrieval.md)."),
    ] = None,
    zh_corpus: Annotated[
        int | None,
        typer.Option(help="Search over the gold titles plus distractors up to this many titles."),
    ] = None,
    copy_to: Annotated[
        Path | None, typer.Option(help="Also copy the report and chart into this folder.")
    ] = None,
) -> None:
    """Report MRR@10 / recall for BM25, dense and hybrid, and recall with β = 0 vs 0.15."""
    from cartwise.embedding import create_embedder
    from cartwise.embedding.cache import CachedEmbedder, cache_path
    from cartwise.eval.retrieval import evaluate_retrieval, rich_progress
    from cartwise.eval.retrieval_report import render_chart, render_markdown

    needed = [data / "eval" / "zh_query_title_dev.jsonl", data / "catalogs" / "webmall"]
    if not all(p.exists() for p in needed):
        typer.echo(f"skipped: no shared evaluation data at {data}", err=True)
        return
    settings = get_settings()
    console = Console(stderr=True)
    try:
        embedder = CachedEmbedder(
            create_embedder(settings.embedder, settings), cache_path(settings.home)
        )
        progress, start = rich_progress(console)
        with progress:
            report = evaluate_retrieval(
                settings=settings,
                embedder=embedder,
                data_dir=data,
                progress=start,
                zh_corpus_limit=zh_corpus,
            )
        embedder.close()
    except CartwiseError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    path = out or settings.home / "reports" / "retrieval.md"
    chart = path.with_suffix(".png")
    render_chart(report, chart)
    path.write_text(render_markdown(report, chart_name=chart.name, data_dir=data), encoding="utf-8")
    path.with_suffix(".json").write_text(report.model_dump_json(indent=2), encoding="utf-8")
    if copy_to is not None:
        copy_to.mkdir(parents=True, exist_ok=True)
        for produced in (path, chart, path.with_suffix(".json")):
            shutil.copy2(produced, copy_to / produced.name)
    typer.echo(path.read_text(encoding="utf-8"))
    typer.echo(f"written to {path}", err=True)
