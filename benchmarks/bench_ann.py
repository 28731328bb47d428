"""Approximate vs exact index at catalog scale: FaissIvfIndex against FaissIndex on the same
stored catalog, in the same run: recall@20 of the approximate index against exact search
(platform / price filters on), p50/p95 query latency, build time and memory.

Run: `python -m benchmarks.bench_ann` (1,000,000 products; `make bench` runs it) or
`BENCH_ANN_PRODUCTS=100000 python -m benchmarks.bench_ann` while tuning. Writes
benchmarks/reports/ann_<n>.md. Everything lives in a temporary directory, removed afterwards.

The catalog is synthetic but clustered like product embeddings: 40 domain directions, one
product type per ~500 products around its domain, products around their type, and a common
component, so that two unrelated products still have cosine ~0.3 and two of one type ~0.7
(e5 vectors are similarly anisotropic). Each product type has a reference price and its
products' prices vary around it, so a budget filter correlates with where a vector lies,
which is the hard case for a cell-based index (the products that pass sit in far cells).
"""

from __future__ import annotations

import gc
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import psutil
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from cartwise.catalog.product import Domain, Product
from cartwise.embedding.base import normalize_rows
from cartwise.recall.indexes.base import ProductIndex, SearchFilters
from cartwise.recall.indexes.faiss import FaissIndex
from cartwise.recall.indexes.faiss_ivf import FaissIvfIndex

DIM = 384
PRODUCTS = int(os.environ.get("BENCH_ANN_PRODUCTS", "1000000"))
QUERIES = 200
REPEATS = 2
K = 20
PRODUCTS_PER_TYPE = 500
DOMAINS = 40
PLATFORMS = ["taobao", "jd", "pinduoduo", "amazon", "walmart", "shopee"]
CHUNK = 50_000
REPORT = Path(__file__).resolve().parent / "reports" / f"ann_{PRODUCTS // 1000}k.md"
FILTER_SHAPES = ("none", "platform", "budget", "platform + budget", "platform + price band")

console = Console(stderr=True)


def progress() -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), TimeRemainingColumn(), console=console,
    )  # fmt: skip


def rss_mb() -> float:
    return float(psutil.Process().memory_info().rss) / 2**20


@dataclass
class Catalog:
    """Type centres and reference prices; products are drawn around them."""

    rng: np.random.Generator
    types: np.ndarray = field(init=False)
    reference_price: np.ndarray = field(init=False)
    common: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        count = max(50, PRODUCTS // PRODUCTS_PER_TYPE)
        domains = normalize_rows(self.rng.standard_normal((DOMAINS, DIM)))
        of_domain = self.rng.integers(DOMAINS, size=count)
        noise = self.rng.standard_normal((count, DIM)) / np.sqrt(DIM)
        self.types = normalize_rows(domains[of_domain] + 0.9 * noise)
        self.reference_price = np.exp(self.rng.uniform(np.log(5), np.log(20_000), size=count))
        self.common = normalize_rows(self.rng.standard_normal((1, DIM)))[0]

    def vectors(self, of_type: np.ndarray) -> np.ndarray:
        spread = self.rng.uniform(0.8, 1.4, size=(len(of_type), 1))
        noise = self.rng.standard_normal((len(of_type), DIM)) / np.sqrt(DIM)
        return normalize_rows(self.types[of_type] + 0.6 * self.common + spread * noise).astype(
            np.float32
        )

    def products(self, start: int, of_type: np.ndarray) -> list[Product]:
        count = len(of_type)
        platforms = self.rng.integers(len(PLATFORMS), size=count)
        prices = np.round(
            self.reference_price[of_type] * np.exp(self.rng.normal(0, 0.35, size=count)), 2
        )
        in_stock = self.rng.random(count) < 0.85
        domains = list(Domain)
        return [
            Product.model_construct(
                platform=PLATFORMS[platforms[i]], item_id=str(start + i), title=f"item {start + i}",
                brand="", category_raw="", domain=domains[int(of_type[i]) % len(domains)],
                price=float(prices[i]), currency="CNY", price_base=float(prices[i]), attributes={},
                description="", url="", image_url="", rating=None, reviews=None,
                in_stock=bool(in_stock[i]),
            )
            for i in range(count)
        ]  # fmt: skip


def write_store(directory: Path, catalog: Catalog) -> float:
    """Generate and upsert the catalog into the shared SQLite store, chunk by chunk."""
    store = FaissIndex(directory, DIM)
    started = time.perf_counter()
    with progress() as bar:
        task = bar.add_task(f"writing {PRODUCTS:,} products", total=PRODUCTS)
        for start in range(0, PRODUCTS, CHUNK):
            size = min(CHUNK, PRODUCTS - start)
            of_type = catalog.rng.integers(len(catalog.types), size=size)
            store.upsert(catalog.products(start, of_type), catalog.vectors(of_type))
            bar.advance(task, size)
    seconds = time.perf_counter() - started
    store.close()
    return seconds


def query_set(catalog: Catalog) -> tuple[np.ndarray, list[SearchFilters | None], list[str]]:
    """Queries near a product type, with the filters a shopper sends for it."""
    rng = np.random.default_rng(11)
    of_type = rng.integers(len(catalog.types), size=QUERIES)
    queries = catalog.vectors(of_type)
    filters: list[SearchFilters | None] = []
    shapes: list[str] = []
    for i, kind in enumerate(of_type):
        shape = FILTER_SHAPES[i % len(FILTER_SHAPES)]
        price = float(catalog.reference_price[kind])
        platform = [PLATFORMS[int(rng.integers(len(PLATFORMS)))]]
        budget = price * float(rng.uniform(0.5, 1.5))
        shapes.append(shape)
        if shape == "none":
            filters.append(None)
        elif shape == "platform":
            filters.append(SearchFilters(platforms=platform))
        elif shape == "budget":
            filters.append(SearchFilters(max_price_base=budget))
        elif shape == "platform + budget":
            filters.append(SearchFilters(platforms=platform, max_price_base=budget, in_stock=True))
        else:
            filters.append(
                SearchFilters(
                    platforms=platform, min_price_base=budget * 0.8, max_price_base=budget
                )
            )
    return queries, filters, shapes


@dataclass
class Run:
    name: str
    open_seconds: float = 0.0
    build_seconds: float = 0.0
    structure_mb: float = 0.0
    """Bytes the search structure holds by construction (RSS deltas under-count when the
    allocator reuses memory freed while loading)."""
    rss_open_mb: float = 0.0
    rss_build_mb: float = 0.0
    latencies_ms: list[float] = field(default_factory=list)
    results: list[list[str]] = field(default_factory=list)


def measure(
    name: str,
    open_index: type[FaissIndex],
    directory: Path,
    queries: np.ndarray,
    filters: list[SearchFilters | None],
) -> Run:
    run = Run(name)
    gc.collect()
    before = rss_mb()
    started = time.perf_counter()
    console.print(f"[bold]{name}[/bold]: loading {PRODUCTS:,} products from the store")
    index: ProductIndex = open_index(directory, DIM)
    run.open_seconds = time.perf_counter() - started
    run.rss_open_mb = rss_mb() - before
    before = rss_mb()
    started = time.perf_counter()
    if isinstance(index, FaissIvfIndex):
        with progress() as bar:
            task = bar.add_task(f"{name}: build", total=None)

            def report(phase: str, done: int, total: int) -> None:
                bar.update(task, description=f"{name}: {phase}", completed=done, total=total)

            index.build(report)
    else:
        index.search(queries[0], K)  # the exact index builds its flat structure lazily
    run.build_seconds = time.perf_counter() - started
    vector_bytes = PRODUCTS * DIM * 4
    if isinstance(index, FaissIvfIndex):  # flat codes + 8-byte ids + centroids
        run.structure_mb = (vector_bytes + PRODUCTS * 8 + index.cells * DIM * 4) / 2**20
    else:  # one flat copy of the vectors
        run.structure_mb = vector_bytes / 2**20
    run.rss_build_mb = rss_mb() - before
    with progress() as bar:
        task = bar.add_task(f"{name}: {QUERIES} queries", total=QUERIES)
        for query, search_filters in zip(queries, filters, strict=True):
            timings = []
            for _ in range(REPEATS):
                t0 = time.perf_counter()
                hits = index.search(query, K, search_filters)
                timings.append(time.perf_counter() - t0)
            assert search_filters is None or all(search_filters.accepts(h.product) for h in hits)
            run.latencies_ms.append(min(timings) * 1000)
            run.results.append([h.product.key for h in hits])
            bar.advance(task)
    index.close()
    del index
    gc.collect()
    return run


def recall(found: list[list[str]], truth: list[list[str]], picked: list[bool]) -> float:
    values = [
        len(set(f) & set(t)) / len(t)
        for f, t, keep in zip(found, truth, picked, strict=True)
        if keep and t
    ]
    return float(np.mean(values)) if values else float("nan")


def render(exact: Run, approx: Run, shapes: list[str], store_seconds: float, seconds: float) -> str:
    filtered = [s != "none" for s in shapes]
    everything = [True] * len(shapes)
    p = {
        r.name: (np.percentile(r.latencies_ms, 50), np.percentile(r.latencies_ms, 95))
        for r in (exact, approx)
    }
    passing = [len(t) for t, s in zip(exact.results, shapes, strict=True) if s != "none"]
    lines = [
        f"# Approximate index at {PRODUCTS:,} products",
        "",
        f"Machine: {os.cpu_count()} CPUs (shared), Python {sys.version.split()[0]}. {PRODUCTS:,} "
        f"synthetic clustered {DIM}-d products (benchmarks/bench_ann.py: {len(shapes) // len(FILTER_SHAPES)} "
        f"queries of each filter shape: {', '.join(FILTER_SHAPES)}), k = {K}, each query timed "
        f"as the best of {REPEATS} runs. Both indexes read the same stored catalog "
        f"(written once in {store_seconds:.0f} s) and were measured one after the other in this "
        f"run; runtime {seconds:.0f} s, 1-minute load average at the end "
        f"{os.getloadavg()[0]:.1f}. Every hit of both was checked against its filter.",
        "",
        "| index | recall@20 (filtered queries) | recall@20 (all) | p50 ms | p95 ms | "
        "load from store (s) | build (s) | RSS load (MB) | RSS build (MB) | structure (MB) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for run in (exact, approx):
        lines.append(
            f"| {run.name} | {recall(run.results, exact.results, filtered):.3f} | "
            f"{recall(run.results, exact.results, everything):.3f} | {p[run.name][0]:.2f} | "
            f"{p[run.name][1]:.2f} | {run.open_seconds:.0f} | {run.build_seconds:.1f} | "
            f"{run.rss_open_mb:.0f} | {run.rss_build_mb:.0f} | {run.structure_mb:.0f} |"
        )
    lines += [
        "",
        f"Ratios approximate / exact: p50 {p[approx.name][0] / p[exact.name][0]:.3f}×, "
        f"p95 {p[approx.name][1] / p[exact.name][1]:.3f}×, build "
        f"{approx.build_seconds / max(exact.build_seconds, 1e-9):.1f}×, build memory "
        f"{approx.rss_build_mb / max(exact.rss_build_mb, 1e-9):.2f}×.",
        "",
        "## Recall@20 by filter shape",
        "",
        "| filter | queries | recall@20 | approx p95 ms | exact p95 ms |",
        "|---|---:|---:|---:|---:|",
    ]
    for shape in FILTER_SHAPES:
        picked = [s == shape for s in shapes]
        a = [ms for ms, keep in zip(approx.latencies_ms, picked, strict=True) if keep]
        e = [ms for ms, keep in zip(exact.latencies_ms, picked, strict=True) if keep]
        lines.append(
            f"| {shape} | {sum(picked)} | {recall(approx.results, exact.results, picked):.3f} | "
            f"{np.percentile(a, 95):.2f} | {np.percentile(e, 95):.2f} |"
        )
    lines += [
        "",
        f"Exact hits per filtered query: min {min(passing)}, median {int(np.median(passing))} "
        f'(k = {K}). "RSS load" is the resident memory the opened catalog takes (products, '
        'vectors, filter columns); "RSS build" what the search structure adds on top (the exact '
        "index: a flat copy of the vectors; the approximate one: cells, lists and ids); "
        '"structure" the bytes that structure holds by construction.',
        "",
    ]
    return "\n".join(lines)


def main() -> int:
    started = time.perf_counter()
    catalog = Catalog(np.random.default_rng(5))
    queries, filters, shapes = query_set(catalog)
    with tempfile.TemporaryDirectory(prefix="cartwise-bench-ann-") as tmp:
        store = Path(tmp) / "store"
        store_seconds = write_store(store, catalog)
        exact = measure("exact (FaissIndex)", FaissIndex, store, queries, filters)
        approx = measure("approximate (FaissIvfIndex)", FaissIvfIndex, store, queries, filters)
    report = render(exact, approx, shapes, store_seconds, time.perf_counter() - started)
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(report, encoding="utf-8")
    print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
