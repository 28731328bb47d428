"""What every command shares: errors as one line and an exit code, never a traceback."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import typer

from cartwise.errors import CartwiseError, InvalidInput


@contextmanager
def clean_errors() -> Iterator[None]:
    """Cartwise errors become one line on stderr: exit 2 for bad input (nothing was written),
    1 for everything else (an unreachable store, ...)."""
    try:
        yield
    except InvalidInput as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    except CartwiseError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
