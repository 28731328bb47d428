"""The `cartwise` command. Each command group lives in `cartwise.commands.<group>`."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="cartwise",
    help="Cartwise: a bilingual shopping assistant with preference memory.",
    no_args_is_help=True,
    add_completion=False,
)


def main() -> None:
    from cartwise.commands import register_all

    register_all(app)
    app()
