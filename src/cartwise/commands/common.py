"""What every command shares: errors as one line and an exit code, never a traceback."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import typer

from cartwise.errors import CartwiseError, InvalidInput

if TYPE_CHECKING:
    from cartwise.memory.price_recorder import PriceRecorder
    from cartwise.settings import Settings


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


@contextmanager
def price_recording(settings: Settings, *, demo: bool) -> Iterator[PriceRecorder | None]:
    """The recorder an ingest hands its batches to (None with PRICE_HISTORY off), closed
    after it; `demo` gives offers without history the demo's synthesized past."""
    from cartwise.memory import create_price_recorder

    recorder = create_price_recorder(settings, demo=demo)
    try:
        yield recorder
    finally:
        if recorder is not None:
            recorder.close()
