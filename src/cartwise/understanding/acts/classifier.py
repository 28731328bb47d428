"""`ActClassifier`: which acts a message performs, as calibrated probabilities, and the
threshold policy that turns them into a set of acts.

One message costs one query embedding — through the process's embedder, so a `QueryMemo`
shared with the rest of the turn serves the same text once — plus a few microseconds of
linear algebra. The weights are read from the shipped file on first use, once per process.
A reader that has other work to do first starts the embedding early (`read_ahead`), on the
machine's other core: e5 spends ~1 ms per character of a long message's start in C, with
the GIL released.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

from cartwise.embedding.base import Embedder, Vector, query_start
from cartwise.errors import ConfigurationError
from cartwise.log import logger
from cartwise.understanding.acts.act import ACTS, Act
from cartwise.understanding.acts.model import ActModel, ActWeights, weights_path

DECISION_THRESHOLD = 0.5
"""The calibrated probability at which an act is taken. On the cross-validation of the
training file it gave a better exact-set accuracy than each act's F1-best cut (0.814 against
0.805) at the same macro F1 (docs/reports/acts.md)."""
SENTENCE_MODEL = "e5:small"
"""The embedder the shipped weights read sentence vectors of."""

_loaded: dict[str, ActWeights] = {}
_loading = threading.Lock()
_AHEAD_KEPT = 16
"""Sentence vectors started ahead and not yet asked for, at most (the oldest are dropped)."""
_ahead_pool: ThreadPoolExecutor | None = None


def _pool() -> ThreadPoolExecutor:
    global _ahead_pool
    with _loading:
        if _ahead_pool is None:
            _ahead_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="cartwise-acts")
        return _ahead_pool


def shipped_weights(model: str = SENTENCE_MODEL) -> ActWeights:
    """The shipped weights, read once per process."""
    with _loading:
        if model not in _loaded:
            path = weights_path(model)
            if not path.is_file():
                raise ConfigurationError(
                    f"the act classifier's weights are missing ({path}); "
                    "run `python scripts/train_acts.py`"
                )
            _loaded[model] = ActWeights.load(path)
        return _loaded[model]


@dataclass(frozen=True)
class ActPolicy:
    """Per act, the probability at which it is taken; a message always performs at least
    one act (the likeliest, when none reaches its threshold)."""

    thresholds: Mapping[Act, float] = field(
        default_factory=lambda: dict.fromkeys(ACTS, DECISION_THRESHOLD)
    )

    def decide(self, scores: Mapping[Act, float]) -> frozenset[Act]:
        taken = frozenset(act for act, p in scores.items() if p >= self.thresholds[act])
        return taken or frozenset({max(scores, key=lambda act: scores[act])})


class ActClassifier:
    """Dialogue acts of a message, learned from labelled examples.

    With an embedder of the model the weights were trained on, the message is read by its
    sentence vector and its character n-grams; with any other embedder (or none), by its
    n-grams alone — a weaker model (docs/reports/acts.md), never vectors of the wrong
    model."""

    def __init__(
        self,
        embedder: Embedder | None,
        *,
        weights: ActWeights | None = None,
        policy: ActPolicy | None = None,
    ) -> None:
        self._embedder = embedder
        self._weights = weights
        self.policy = policy or ActPolicy()
        self._lock = threading.Lock()
        self._ahead: OrderedDict[str, Future[Vector]] = OrderedDict()

    @property
    def weights(self) -> ActWeights:
        with self._lock:
            if self._weights is None:
                self._weights = shipped_weights()
            return self._weights

    @property
    def reads_sentences(self) -> bool:
        """Whether messages are read by their sentence vector (else by n-grams alone)."""
        return self._embedder is not None and self._embedder.name == self.weights.model

    @property
    def _model(self) -> ActModel:
        return self.weights.sentence if self.reads_sentences else self.weights.surface

    def scores(self, message: str) -> dict[Act, float]:
        """The calibrated probability that `message` performs each act."""
        model = self._model
        columns, weights = self.weights.ngrams.sparse(message)
        sentence = self._sentence(message) if model.reads_sentences else None
        probabilities = model.probabilities(columns, weights, sentence)
        return {act: float(probabilities[i]) for i, act in enumerate(ACTS)}

    def read_ahead(self, message: str) -> None:
        """Start embedding `message` in the background, for `scores` to pick up; nothing
        when messages are not read by their sentence vector."""
        if not self.reads_sentences:
            return
        assert self._embedder is not None
        text = query_start(message)
        with self._lock:
            if text in self._ahead:
                return
            self._ahead[text] = _pool().submit(self._embedder.embed_query, text)
            while len(self._ahead) > _AHEAD_KEPT:
                self._ahead.popitem(last=False)

    def _sentence(self, message: str) -> Vector:
        assert self._embedder is not None
        text = query_start(message)
        with self._lock:
            ahead = self._ahead.pop(text, None)
        # Still queued behind other turns' read-aheads: embed it here instead of waiting.
        if ahead is not None and not ahead.cancel():
            return ahead.result()
        return self._embedder.embed_query(text)

    def acts(self, message: str) -> frozenset[Act]:
        """The acts `message` performs, by the policy."""
        return self.policy.decide(self.scores(message))


def create_act_classifier(embedder: Embedder | None) -> ActClassifier:
    """An act classifier over `embedder`'s query vectors; the weights load on first use."""
    if embedder is not None and embedder.name != SENTENCE_MODEL:
        logger.info("act classifier reads n-grams only: embedder %s", embedder.name)
    return ActClassifier(embedder)
