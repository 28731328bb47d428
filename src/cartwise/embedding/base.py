"""The `Embedder` seam: text → unit vectors, with query/passage asymmetry explicit.

e5-style models are trained with "query: " / "passage: " prefixes; calling the wrong side
costs retrieval quality, so the two operations are separate methods rather than a flag.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, cast, runtime_checkable

from cartwise.text import leading_words

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Vector = npt.NDArray[np.float32]
    Matrix = npt.NDArray[np.float32]


def __getattr__(name: str) -> object:
    """`Vector` and `Matrix` made on first use: a store opened to list its entries (`cartwise
    memory list`) names the seam but never a vector, and need not import numpy."""
    if name in ("Vector", "Matrix"):
        import numpy as np
        import numpy.typing as npt

        alias = npt.NDArray[np.float32]
        globals().update(Vector=alias, Matrix=alias)
        return alias
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


QUERY_WORDS = 48
"""The words (`cartwise.text.WORD`: a Chinese character is one) a query vector reads of a
message or a search phrase. Every message of the project's evaluation and training sets
(4,400: at most 34 words) and every search phrase the rules reader makes of them (at most 31)
is read whole; a pasted 2,000-character message is read by its start. A query's cost grows
with its tokens: e5 took ~50 ms for a 12-token query and ~1.6 s for its 512-token limit on
this project's 2-core machine, so one turn with such a message cost seconds where a short one
cost 0.15 s. What is not embedded is still read: the reader's rules and the lexical search
see the whole text."""


def query_start(text: str) -> str:
    """What of a message-made text (a message, a search phrase) its query vector reads."""
    return leading_words(text, QUERY_WORDS)


@runtime_checkable
class Embedder(Protocol):
    """Turns text into L2-normalized float32 vectors of a fixed dimension."""

    @property
    def name(self) -> str:
        """`kind:model`, recorded with stored vectors so a model change is detected."""
        ...

    @property
    def dim(self) -> int: ...

    def embed_query(self, text: str) -> Vector:
        """A search request (a query, a user profile) → (dim,)."""
        ...

    def embed_documents(self, texts: Sequence[str]) -> Matrix:
        """Things to be found (product texts, stored preferences) → (n, dim)."""
        ...


def normalize_rows(matrix: npt.NDArray[np.floating]) -> Matrix:
    """L2-normalize each row; zero rows stay zero."""
    import numpy as np

    m = np.asarray(matrix, dtype=np.float32)
    if m.ndim == 1:
        m = m[None, :]
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return cast("Matrix", (m / norms).astype(np.float32))


def normalize_vector(vector: npt.NDArray[np.floating]) -> Vector:
    """L2-normalize one vector (flattened); a zero vector stays zero."""
    import numpy as np

    return cast("Vector", normalize_rows(np.ravel(vector))[0])


def embed_in_batches(
    encode: Callable[[list[str]], object],
    texts: Sequence[str],
    *,
    dim: int,
    batch: int = 16,
) -> Matrix:
    """Run a bundled model's `encode` over `texts` in small batches, as normalized rows.
    `encode` holds the model only for its one batch (the bundled engines keep per-model
    scratch state, so it locks), which lets another shopper's query in between batches:
    16 short passages take ~0.2 s of the engine on a busy 2-core machine."""
    import numpy as np

    if not texts:
        return np.zeros((0, dim), dtype=np.float32)
    chunks = [
        np.asarray(encode(list(texts[start : start + batch])))
        for start in range(0, len(texts), batch)
    ]
    return normalize_rows(np.concatenate(chunks, axis=0))
