"""A killed ingest resumes: what was embedded before it died is served from the cache, only
the rest reaches the model, and the index ends up with every product exactly once."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from cartwise.catalog.pipeline import BATCH_SIZE, ingest_file
from cartwise.embedding.base import Embedder, Matrix, Vector
from cartwise.embedding.cache import cache_path
from cartwise.embedding.hashing import HashingEmbedder
from cartwise.errors import EmbeddingError
from cartwise.recall.service import RecallService
from cartwise.settings import Settings
from tests.doubles import CountingEmbedder

PRODUCTS = 5 * BATCH_SIZE + 17
ROOT = Path(__file__).resolve().parents[2]


class FailingAfter:
    """An embedder whose endpoint goes away after `calls` document batches."""

    def __init__(self, inner: Embedder, calls: int) -> None:
        self._inner = inner
        self._calls_left = calls

    @property
    def name(self) -> str:
        return self._inner.name

    @property
    def dim(self) -> int:
        return self._inner.dim

    def embed_query(self, text: str) -> Vector:
        return self._inner.embed_query(text)

    def embed_documents(self, texts: Sequence[str]) -> Matrix:
        if self._calls_left == 0:
            raise EmbeddingError("http://embedder.test", "connection reset")
        self._calls_left -= 1
        return self._inner.embed_documents(texts)


def _catalog(path: Path) -> Path:
    rows = [
        {"platform": "jd", "item_id": str(i), "title": f"保温杯 {i} 号 500ml", "price": 10 + i % 90,
         "currency": "CNY"}
        for i in range(PRODUCTS)
    ]  # fmt: skip
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    return path


def _resume(settings: Settings, source: Path) -> tuple[int, int, int, int]:
    """Ingest again with a counting embedder: (embedded, cached, model calls, products)."""
    counting = CountingEmbedder(HashingEmbedder(256))
    service = RecallService.open(settings, counting)
    try:
        report = ingest_file(
            source, settings=settings, service=service, embedder=counting, progress=False
        )
        return report.embedded, report.cached, counting.documents_embedded, service.count()
    finally:
        service.close()


def test_an_ingest_whose_embedder_fails_resumes_without_re_embedding(
    settings: Settings, tmp_path: Path
) -> None:
    source = _catalog(tmp_path / "catalog.jsonl")
    failing = FailingAfter(HashingEmbedder(256), calls=3)
    service = RecallService.open(settings, failing)
    with pytest.raises(EmbeddingError):
        ingest_file(source, settings=settings, service=service, embedder=failing, progress=False)
    done = 3 * BATCH_SIZE
    assert service.count() == done  # each finished batch is in the index
    service.close()

    embedded, cached, model_calls, count = _resume(settings, source)
    assert (embedded, cached) == (PRODUCTS - done, done)
    assert model_calls == PRODUCTS - done
    assert count == PRODUCTS


_CHILD = """
import sys, time
from pathlib import Path
from cartwise.catalog.pipeline import ingest_file
from cartwise.embedding.hashing import HashingEmbedder
from cartwise.recall.service import RecallService
from cartwise.settings import Settings

class Slow(HashingEmbedder):
    def embed_documents(self, texts):
        time.sleep(0.2)
        return super().embed_documents(texts)

settings = Settings(_env_file=None, cartwise_home=Path(sys.argv[1]), embedder="hashing:256")
embedder = Slow(256)
service = RecallService.open(settings, embedder)
ingest_file(Path(sys.argv[2]), settings=settings, service=service, embedder=embedder, progress=False)
"""


def _cached_vectors(settings: Settings) -> int:
    path = cache_path(settings.home)
    if not path.exists():
        return 0
    with sqlite3.connect(path) as db:
        try:
            return int(db.execute("SELECT count(*) FROM vectors").fetchone()[0])
        except sqlite3.OperationalError:  # the child has not created the table yet
            return 0


@pytest.mark.slow
def test_an_ingest_killed_with_sigkill_resumes_without_re_embedding(
    settings: Settings, tmp_path: Path
) -> None:
    source = _catalog(tmp_path / "catalog.jsonl")
    environment = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{ROOT}"}
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(settings.home), str(source)], env=environment
    )
    deadline = time.monotonic() + 60
    while _cached_vectors(settings) < 2 * BATCH_SIZE and time.monotonic() < deadline:
        assert child.poll() is None, "the ingest ended before it could be killed"
        time.sleep(0.02)
    child.send_signal(signal.SIGKILL)
    child.wait()
    survived = _cached_vectors(settings)
    assert 2 * BATCH_SIZE <= survived < PRODUCTS

    embedded, cached, model_calls, count = _resume(settings, source)
    assert (embedded, cached) == (PRODUCTS - survived, survived)
    assert model_calls == PRODUCTS - survived
    assert count == PRODUCTS
