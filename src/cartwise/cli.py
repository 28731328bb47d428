"""The `cartwise` command. Each command group lives in `cartwise.commands.<group>`."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="cartwise",
    help="Cartwise: a bilingual shopping assistant with preference memory.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def _commands() -> None:
    # A group even when one command is registered (`main` registers only the command it
    # runs): typer makes a lone command the root, which would read "ask" as its message.
    pass


def main() -> None:
    import sys

    from cartwise.commands import register_for
    from cartwise.errors import ConfigurationError

    register_for(app, sys.argv[1:])
    try:
        app()
    except ConfigurationError as exc:
        # Settings are read inside each command; a bad one is the operator's to fix, in one
        # line, whichever command met it first.
        typer.echo(f"error: {exc}", err=True)
        raise SystemExit(2) from None
