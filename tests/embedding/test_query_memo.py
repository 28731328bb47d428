"""QueryMemo: one model call per distinct text, even when callers arrive at once."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from cartwise.embedding.base import Matrix, Vector
from cartwise.embedding.hashing import HashingEmbedder
from cartwise.embedding.memo import QueryMemo


class SlowCounting:
    """The hashing embedder, slowed down and counting query calls."""

    def __init__(self) -> None:
        self.inner = HashingEmbedder(32)
        self.calls: list[str] = []
        self.release = threading.Event()
        self.fail = False

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed_query(self, text: str) -> Vector:
        self.calls.append(text)
        self.release.wait(5)
        if self.fail:
            raise RuntimeError("model crashed")
        return self.inner.embed_query(text)

    def embed_documents(self, texts: Sequence[str]) -> Matrix:
        return self.inner.embed_documents(texts)


def test_concurrent_callers_of_one_text_share_one_model_call() -> None:
    inner = SlowCounting()
    memo = QueryMemo(inner)
    with ThreadPoolExecutor(6) as pool:
        futures = [pool.submit(memo.embed_query, "头戴式耳机") for _ in range(6)]
        inner.release.set()
        vectors = [f.result() for f in futures]
    assert inner.calls == ["头戴式耳机"]
    assert all(np.array_equal(v, vectors[0]) for v in vectors)


def test_a_failure_reaches_every_waiter_and_is_not_remembered() -> None:
    inner = SlowCounting()
    inner.fail = True
    memo = QueryMemo(inner)
    inner.release.set()
    with pytest.raises(RuntimeError):
        memo.embed_query("x")
    inner.fail = False
    assert memo.embed_query("x").shape == (32,)
    assert inner.calls == ["x", "x"]


def test_least_recently_used_texts_are_forgotten() -> None:
    inner = SlowCounting()
    inner.release.set()
    memo = QueryMemo(inner, size=2)
    for text in ("a", "b", "a", "c", "a", "b"):
        memo.embed_query(text)
    assert inner.calls == ["a", "b", "c", "b"]
