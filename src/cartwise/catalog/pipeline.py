"""Ingest one catalog file: read → dedupe → embed (through the cache) → upsert, in batches,
then what the catalog's readers need is computed once (`CatalogSink.finish_ingest`).

The whole file is read and checked before the first upsert, so a file that cannot be read
at all (IngestError) leaves the index exactly as it was. Bad rows are skipped and reported.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from cartwise.catalog.ingest import (
    Format,
    IngestReport,
    ReaderOptions,
    RowError,
    detect_format,
    read_catalog,
)
from cartwise.catalog.product import Product
from cartwise.embedding.base import Embedder, Matrix
from cartwise.embedding.cache import CachedEmbedder, cache_path
from cartwise.log import logger
from cartwise.settings import Settings

BATCH_SIZE = 256


class CatalogSink(Protocol):
    """What ingest needs from the search side: `RecallService`."""

    def upsert(self, products: Sequence[Product], vectors: Matrix) -> None: ...

    def count(self) -> int: ...

    def finish_ingest(self) -> None:
        """Compute once, now, what readers of the catalog need (its brands, ...)."""
        ...


class PriceSink(Protocol):
    """What ingest tells the price history about each upserted batch
    (`memory.price_recorder.PriceRecorder`)."""

    def record(self, products: Sequence[Product]) -> None: ...

    def finish(self) -> tuple[int, int]:
        """(price points written, alerts raised) over the whole ingest."""
        ...


def ingest_file(
    path: Path,
    *,
    settings: Settings,
    service: CatalogSink,
    embedder: Embedder,
    platform: str | None = None,
    fmt: Format | None = None,
    mapping: Path | None = None,
    currency: str | None = None,
    progress: bool = True,
    prices: PriceSink | None = None,
) -> IngestReport:
    """Upsert every good row of `path` by (platform, item_id); `fmt=None` detects the format.
    With `prices`, every batch's price and stock changes are recorded after its upsert."""
    started = time.perf_counter()
    options = ReaderOptions(
        fx_to_base=settings.fx_to_base, platform=platform, currency=currency, mapping=mapping
    )
    fmt = fmt or detect_format(path, mapping=mapping)
    products: dict[str, Product] = {}
    report = IngestReport(path=str(path), format=fmt)
    for item in read_catalog(path, fmt, options):
        report.rows += 1
        if isinstance(item, RowError):
            report.errors.append(item)
            continue
        if item.key in products:
            report.duplicates += 1
        products[item.key] = item
    report.skipped = len(report.errors)

    cached = embedder if isinstance(embedder, CachedEmbedder) else None
    owned = cached is None
    cached = cached or CachedEmbedder(embedder, cache_path(settings.home))
    before_embedded, before_cached = cached.stats.embedded, cached.stats.cached
    try:
        _upsert_in_batches(list(products.values()), service, cached, progress, path.name, prices)
        service.finish_ingest()
        if prices is not None:
            report.price_points, report.alerts = prices.finish()
    finally:
        report.embedded = cached.stats.embedded - before_embedded
        report.cached = cached.stats.cached - before_cached
        if owned:
            cached.close()
    report.ingested = len(products)
    report.platforms = sorted({p.platform for p in products.values()})
    report.seconds = round(time.perf_counter() - started, 3)
    logger.info(
        "ingested %s: %d products, %d rows skipped, %d embedded, %d cached, %d price points,"
        " %d alerts, %.1fs",
        path.name, report.ingested, report.skipped, report.embedded, report.cached,
        report.price_points, report.alerts, report.seconds,
    )  # fmt: skip
    return report


def _upsert_in_batches(
    products: list[Product],
    service: CatalogSink,
    embedder: CachedEmbedder,
    progress: bool,
    label: str,
    prices: PriceSink | None,
) -> None:
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), disable=not progress) as bar:
        task = bar.add_task(f"indexing {label}", total=len(products))
        for start in range(0, len(products), BATCH_SIZE):
            batch = products[start : start + BATCH_SIZE]
            vectors = embedder.embed_documents([p.embedding_text() for p in batch])
            service.upsert(batch, vectors)
            if prices is not None:
                prices.record(batch)
            bar.advance(task, len(batch))
