"""Character n-gram features: the surface of a message, for the act classifier.

Shoppers type "thx", "ty", "谢啦", "3q", "886", emoji and typos; a sentence encoder smooths
those over, a bag of character n-grams keeps them. N-grams of 1 to `MAX_N` characters are
taken over the folded text with a space at each end (so "k" alone differs from the "k" in
"kettle"); Chinese needs no tokenizer for this. Weights are sublinear tf × idf over the
n-grams seen in at least `MIN_DF` training messages, L2-normalized per message.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from cartwise.text import fold
from cartwise.understanding.acts.linear import SparseRows

MAX_N = 4
"""Longest n-gram (in characters)."""
MIN_DF = 2
"""An n-gram must occur in this many training messages to be a feature."""


def ngrams(message: str) -> Counter[str]:
    """Every character n-gram of 1..MAX_N of the folded, space-padded message, counted."""
    text = f" {fold(message)} "
    grams: Counter[str] = Counter()
    for n in range(1, MAX_N + 1):
        grams.update(text[start : start + n] for start in range(len(text) - n + 1))
    del grams[" "]
    return grams


class CharNgrams:
    """A fitted n-gram vocabulary with its idf weights."""

    def __init__(self, vocabulary: Sequence[str], idf: npt.NDArray[np.float32]) -> None:
        self.vocabulary = tuple(vocabulary)
        self.idf = np.asarray(idf, np.float32)
        self._index = {gram: i for i, gram in enumerate(self.vocabulary)}

    @classmethod
    def fit(cls, messages: Iterable[str]) -> CharNgrams:
        counted = [ngrams(message) for message in messages]
        df: Counter[str] = Counter()
        for grams in counted:
            df.update(grams.keys())
        vocabulary = sorted(gram for gram, count in df.items() if count >= MIN_DF)
        n = len(counted)
        idf = np.array([math.log((1 + n) / (1 + df[g])) + 1.0 for g in vocabulary], np.float32)
        return cls(vocabulary, idf)

    @property
    def dim(self) -> int:
        return len(self.vocabulary)

    def sparse(self, message: str) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float32]]:
        """The message's non-zero features: column indices and their weights."""
        found = [(self._index[g], k) for g, k in ngrams(message).items() if g in self._index]
        if not found:
            return np.zeros(0, np.intp), np.zeros(0, np.float32)
        columns = np.fromiter((c for c, _ in found), np.intp, len(found))
        counts = np.fromiter((k for _, k in found), np.float32, len(found))
        weights = (1.0 + np.log(counts)) * self.idf[columns]
        return columns, (weights / np.linalg.norm(weights)).astype(np.float32)

    def rows(self, messages: Sequence[str]) -> SparseRows:
        """The messages' feature rows, for training."""
        pointers = [0]
        columns: list[npt.NDArray[np.intp]] = []
        weights: list[npt.NDArray[np.float32]] = []
        for message in messages:
            c, w = self.sparse(message)
            columns.append(c)
            weights.append(w)
            pointers.append(pointers[-1] + len(c))
        return SparseRows(
            np.array(pointers, np.intp),
            np.concatenate(columns) if columns else np.zeros(0, np.intp),
            np.concatenate(weights) if weights else np.zeros(0, np.float32),
            width=self.dim,
        )
