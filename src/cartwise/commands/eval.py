"""The shared `cartwise eval` group; each evaluation adds its subcommand to `eval_app`."""

from __future__ import annotations

import typer

eval_app = typer.Typer(help="Measure retrieval, embedders and understanding on real data.")


def register(app: typer.Typer) -> None:
    app.add_typer(eval_app, name="eval")
