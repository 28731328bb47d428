"""What every command shares: errors as one line and an exit code, never a traceback."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import typer

from cartwise.errors import CartwiseError, InvalidInput

if TYPE_CHECKING:
    from cartwise.catalog.ingest import IngestReport
    from cartwise.catalog.pipeline import CatalogSink
    from cartwise.embedding.base import Embedder
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


def ensure_demo_catalog(
    settings: Settings, service: CatalogSink, embedder: Embedder, *, progress: bool = True
) -> IngestReport | None:
    """`ensure_catalog` with the demo's price history recorded. The recorder (a second pair
    of price stores, the alert webhook's HTTP client, the demo's synthesized past) is opened
    only when the index is empty: every `ask` and `serve` start calls this, and almost none
    of them index anything."""
    if service.count() > 0:
        return None
    from cartwise.catalog.demo import ensure_catalog

    with price_recording(settings, demo=True) as prices:
        return ensure_catalog(settings, service, embedder, progress=progress, prices=prices)
