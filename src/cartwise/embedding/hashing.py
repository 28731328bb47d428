"""A deterministic bag-of-features embedder. For unit tests of our own logic only: it knows
no semantics, so it is never evidence that retrieval works."""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Sequence

import numpy as np

from cartwise.embedding.base import Matrix, Vector, normalize_vector
from cartwise.text import HAN

_TOKEN = re.compile(f"[a-z0-9]+|[{HAN}]")


class HashingEmbedder:
    """Hashes word tokens and CJK characters (plus CJK bigrams) into `dim` buckets."""

    def __init__(self, dim: int = 256) -> None:
        self._dim = dim

    @property
    def name(self) -> str:
        return f"hashing:{self._dim}"

    @property
    def dim(self) -> int:
        return self._dim

    def _features(self, text: str) -> list[str]:
        tokens = _TOKEN.findall(text.lower())
        bigrams = [a + b for a, b in itertools.pairwise(tokens) if len(a + b) == 2]
        return tokens + bigrams

    def _embed(self, text: str) -> Vector:
        vec = np.zeros(self._dim, dtype=np.float32)
        for feature in self._features(text):
            digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
            bucket = int.from_bytes(digest[:4], "little") % self._dim
            sign = 1.0 if digest[4] & 1 else -1.0
            vec[bucket] += sign
        return normalize_vector(vec)

    def embed_query(self, text: str) -> Vector:
        return self._embed(text)

    def embed_documents(self, texts: Sequence[str]) -> Matrix:
        if not texts:
            return np.zeros((0, self._dim), dtype=np.float32)
        return np.stack([self._embed(t) for t in texts])
