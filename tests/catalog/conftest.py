"""A real RecallService (FAISS + BM25) over the hashing embedder, in a temporary home."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cartwise.embedding.hashing import HashingEmbedder
from cartwise.recall.service import RecallService
from cartwise.settings import Settings
from tests.doubles import CountingEmbedder


@pytest.fixture
def embedder() -> CountingEmbedder:
    return CountingEmbedder(HashingEmbedder(256))


@pytest.fixture
def service(settings: Settings, embedder: CountingEmbedder) -> Iterator[RecallService]:
    opened = RecallService.open(settings, embedder)
    yield opened
    opened.close()
