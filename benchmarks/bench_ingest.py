"""Large-ingest benchmark: ingest pipeline throughput (read → embed through the cache →
upsert, `cartwise.catalog.pipeline.ingest_file`) against the raw embedder's, in the same run,
and an interrupted ingest resumed.

What is measured, exactly:
1. 100,000 products (demo catalog rows, each title made unique) with a cheap embedder (the
   hashing embedder, 384-d): raw `embed_documents` over the same texts in the pipeline's batch
   size, then the full pipeline into a fresh home (cold cache, empty index). With a model this
   cheap the ratio is dominated by the pipeline's own work, which is the point: it gives the
   pipeline overhead per product at 100k, split into model / index upsert / the rest.
2. The bundled e5 model on a sample (2,000 products by default): raw embedder vs pipeline.
   e5 embeds ~20 texts/s on 2 shared cores, so 100k texts would take well over an hour.
3. The 100k ratio for e5, projected from (1) and (2): e5 seconds per text / (e5 seconds per
   text + pipeline overhead per product at 100k). Labelled as a projection in the report.
4. Resume: the 100k ingest killed half-way (the embedder raises), then run again: how many
   texts reached the model the second time.

Run: `python -m benchmarks.bench_ingest` (`make bench` runs it). Environment:
BENCH_INGEST_PRODUCTS (100000), BENCH_INGEST_REAL_SAMPLE (2000; 0 skips the e5 part).
Writes benchmarks/reports/ingest.md; everything else lives in a temporary directory.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from cartwise.catalog.pipeline import BATCH_SIZE, ingest_file
from cartwise.catalog.product import Product
from cartwise.embedding import create_embedder
from cartwise.embedding.base import Embedder, Matrix, Vector
from cartwise.errors import EmbeddingError
from cartwise.recall.service import RecallService
from cartwise.settings import Settings

PRODUCTS = int(os.environ.get("BENCH_INGEST_PRODUCTS", "100000"))
REAL_SAMPLE = int(os.environ.get("BENCH_INGEST_REAL_SAMPLE", "2000"))
CHEAP = "hashing:384"
REAL = "e5:small"
REPORT = Path(__file__).resolve().parent / "reports" / "ingest.md"
DEMO = Path(__file__).resolve().parents[1] / "src/cartwise/catalog/demo/demo_catalog.jsonl.gz"

console = Console(stderr=True)


class TimedEmbedder:
    """Counts the seconds and texts that reach the model inside the pipeline."""

    def __init__(self, inner: Embedder, *, fail_after_texts: int | None = None) -> None:
        self.inner = inner
        self.seconds = 0.0
        self.texts = 0
        self._fail_after = fail_after_texts

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed_query(self, text: str) -> Vector:
        return self.inner.embed_query(text)

    def embed_documents(self, texts: Sequence[str]) -> Matrix:
        if self._fail_after is not None and self.texts >= self._fail_after:
            raise EmbeddingError("bench", "killed half-way on purpose")
        started = time.perf_counter()
        vectors = self.inner.embed_documents(texts)
        self.seconds += time.perf_counter() - started
        self.texts += len(texts)
        return vectors


class TimedSink:
    """The recall service, with the seconds spent upserting into the index counted."""

    def __init__(self, service: RecallService) -> None:
        self.service = service
        self.seconds = 0.0

    def upsert(self, products: Sequence[Product], vectors: Matrix) -> None:
        started = time.perf_counter()
        self.service.upsert(products, vectors)
        self.seconds += time.perf_counter() - started

    def count(self) -> int:
        return self.service.count()

    def finish_ingest(self) -> None:
        self.service.finish_ingest()


def write_catalog(path: Path, count: int) -> list[str]:
    """`count` demo rows (cycled, each with its own id and title); returns their texts."""
    with gzip.open(DEMO, "rt", encoding="utf-8") as handle:
        demo = [json.loads(line) for line in handle]
    texts = []
    with path.open("w", encoding="utf-8") as out:
        for i in range(count):
            row = dict(demo[i % len(demo)])
            row["item_id"] = f"bench{i}"
            row["title"] = f"{row['title']} #{i}"
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
            texts.append(Product.model_validate(row).embedding_text())
    return texts


def raw_throughput(embedder: Embedder, texts: list[str], label: str) -> float:
    """Seconds the bare embedder takes for `texts`, in the pipeline's batch size."""
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeRemainingColumn())  # fmt: skip
    started = time.perf_counter()
    with Progress(*columns, console=console) as bar:
        task = bar.add_task(label, total=len(texts))
        for start in range(0, len(texts), BATCH_SIZE):
            embedder.embed_documents(texts[start : start + BATCH_SIZE])
            bar.advance(task, min(BATCH_SIZE, len(texts) - start))
    return time.perf_counter() - started


def run_pipeline(home: Path, source: Path, embedder: TimedEmbedder) -> tuple[float, TimedSink, Any]:
    settings = Settings(_env_file=None, cartwise_home=home, embedder=embedder.name)  # type: ignore[call-arg]
    service = RecallService.open(settings, embedder)
    sink = TimedSink(service)
    started = time.perf_counter()
    try:
        report = ingest_file(source, settings=settings, service=sink, embedder=embedder)
    finally:
        seconds = time.perf_counter() - started
        service.close()
    return seconds, sink, report


def bench_cheap(root: Path) -> dict[str, float]:
    source = root / "cheap.jsonl"
    texts = write_catalog(source, PRODUCTS)
    raw = raw_throughput(create_embedder(CHEAP), texts, f"raw {CHEAP}")
    embedder = TimedEmbedder(create_embedder(CHEAP))
    seconds, sink, report = run_pipeline(root / "cheap_home", source, embedder)
    assert report.embedded == PRODUCTS, report
    interrupted = TimedEmbedder(create_embedder(CHEAP), fail_after_texts=PRODUCTS // 2)
    with contextlib.suppress(EmbeddingError):
        run_pipeline(root / "resume_home", source, interrupted)
    resumed = TimedEmbedder(create_embedder(CHEAP))
    resume_seconds, _, resume_report = run_pipeline(root / "resume_home", source, resumed)
    return {
        "raw": raw,
        "pipeline": seconds,
        "model": embedder.seconds,
        "index": sink.seconds,
        "interrupted_texts": float(interrupted.texts),
        "resumed_texts": float(resumed.texts),
        "resume_cached": float(resume_report.cached),
        "resume_seconds": resume_seconds,
    }


def bench_real(root: Path) -> dict[str, float]:
    source = root / "real.jsonl"
    texts = write_catalog(source, REAL_SAMPLE)
    model = create_embedder(REAL)
    model.embed_documents(texts[:8])  # warm-up: load the model
    half = len(texts) // 2
    # Raw timing split around the pipeline run, so load drift on a shared machine hits both.
    raw = raw_throughput(model, texts[:half], f"raw {REAL} (1/2)")
    embedder = TimedEmbedder(model)
    seconds, sink, report = run_pipeline(root / "real_home", source, embedder)
    assert report.embedded == REAL_SAMPLE, report
    raw += raw_throughput(model, texts[half:], f"raw {REAL} (2/2)")
    return {"raw": raw, "pipeline": seconds, "model": embedder.seconds, "index": sink.seconds}


def render(cheap: dict[str, float], real: dict[str, float] | None, seconds: float) -> str:
    n = PRODUCTS
    overhead = (cheap["pipeline"] - cheap["model"]) / n
    rows = [("hashing:384 (cheap)", n, cheap)]
    if real:
        rows.append(("e5:small (bundled)", REAL_SAMPLE, real))
    lines = [
        "# Ingest benchmark",
        "",
        f"Machine: {os.cpu_count()} CPUs (shared), Python {sys.version.split()[0]}; runtime "
        f"{seconds:.0f} s, 1-minute load average at the end {os.getloadavg()[0]:.1f}. Products: "
        "demo catalog rows cycled with unique ids and titles, read from a JSONL file; every "
        f"pipeline run starts from an empty home (cold embedding cache, empty index); batch "
        f"size {BATCH_SIZE}. Raw = `embed_documents` over the same texts in the same batches.",
        "",
        "| embedder | products | raw, timed apart (texts/s) | pipeline (products/s) | ratio to "
        "raw timed apart | **ratio to the model inside the run** | index upsert share | "
        "read + cache + rest |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, count, r in rows:
        rest = r["pipeline"] - r["model"] - r["index"]
        lines.append(
            f"| {name} | {count:,} | {count / r['raw']:.1f} | {count / r['pipeline']:.1f} | "
            f"{r['raw'] / r['pipeline']:.3f} | **{r['model'] / r['pipeline']:.3f}** | "
            f"{r['index'] / r['pipeline']:.0%} | {rest / r['pipeline']:.0%} |"
        )
    lines += [
        "",
        f"Pipeline overhead at {n:,} products (everything but the model): "
        f"{overhead * 1000:.3f} ms per product.",
        "",
        "Two ratios, because the machine is shared: *to raw timed apart* divides by a separate "
        "raw run (split around the pipeline run for e5), so load that changes between the runs "
        "moves it; *to the model inside the run* is the model's seconds inside the pipeline "
        "(the same `embed_documents` calls on the same batches) over the pipeline's seconds, "
        "i.e. pipeline throughput over the embedder's throughput at that very time.",
    ]
    if real:
        per_text = real["model"] / REAL_SAMPLE
        projected = per_text / (per_text + overhead)
        lines += [
            "",
            f"**Projected {n:,}-product ratio with e5** (not a 100k e5 run: that would take "
            f"{n * per_text / 3600:.1f} h here): e5 {per_text * 1000:.1f} ms per text / (e5 "
            f"{per_text * 1000:.1f} ms + overhead {overhead * 1000:.3f} ms) = **{projected:.3f}**.",
        ]
    lines += [
        "",
        f"## Resume after a kill ({n:,} products, {CHEAP})",
        "",
        f"The first run's embedder failed after {int(cheap['interrupted_texts']):,} texts; the "
        f"second run sent {int(cheap['resumed_texts']):,} texts to the model and served "
        f"{int(cheap['resume_cached']):,} from the embedding cache, in "
        f"{cheap['resume_seconds']:.1f} s (a full cold run: {cheap['pipeline']:.1f} s). "
        "tests/catalog/test_ingest_resume.py checks the same with a SIGKILLed process.",
        "",
    ]
    return "\n".join(lines)


def main() -> int:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="cartwise-bench-ingest-") as tmp:
        root = Path(tmp)
        cheap = bench_cheap(root)
        real = bench_real(root) if REAL_SAMPLE else None
    report = render(cheap, real, time.perf_counter() - started)
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(report, encoding="utf-8")
    print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
