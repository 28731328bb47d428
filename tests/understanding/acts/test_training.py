"""Training end to end on a tiny synthetic set, and the training file's own shape."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from cartwise.errors import InvalidInput
from cartwise.understanding.acts import ACTS, Act, ActClassifier
from cartwise.understanding.acts.model import ActWeights
from cartwise.understanding.acts.training import (
    load_examples,
    train_weights,
    training_data_path,
)

_TINY = [
    ("hi", {Act.SMALL_TALK}),
    ("hello", {Act.SMALL_TALK}),
    ("hello there", {Act.SMALL_TALK}),
    ("hi hi", {Act.SMALL_TALK}),
    ("thanks", {Act.THANKS}),
    ("thanks a lot", {Act.THANKS}),
    ("thank you", {Act.THANKS}),
    ("many thanks", {Act.THANKS}),
    ("cheap kettle", {Act.REQUEST}),
    ("a kettle please", {Act.REQUEST}),
    ("kettle under 30", {Act.REQUEST}),
    ("steel kettle", {Act.REQUEST}),
    ("hi, a kettle", {Act.SMALL_TALK, Act.REQUEST}),
    ("hello, cheap kettle", {Act.SMALL_TALK, Act.REQUEST}),
    ("thanks, a kettle too", {Act.THANKS, Act.REQUEST}),
    ("thank you, kettle under 20", {Act.THANKS, Act.REQUEST}),
]


class _TableEmbedder:
    """Query vectors from a table, under a chosen model name; records what it embedded."""

    def __init__(self, name: str, table: dict[str, np.ndarray]) -> None:
        self.name = name
        self.dim = len(ACTS)
        self._table = table
        self.queries: list[str] = []

    def embed_query(self, text: str) -> np.ndarray:
        self.queries.append(text)
        return self._table[text].astype(np.float32)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        raise AssertionError("the act classifier embeds queries only")


def _write(path: Path, rows: list[tuple[str, set[Act]]]) -> Path:
    path.write_text(
        "".join(json.dumps({"text": t, "acts": sorted(a)}) + "\n" for t, a in rows), "utf-8"
    )
    return path


@pytest.mark.slow  # trains the classifier: 7 s at load 5
def test_weights_trained_on_a_tiny_set_classify_what_they_learned(tmp_path: Path) -> None:
    examples = load_examples(_write(tmp_path / "tiny.jsonl", _TINY))
    # Sentence vectors that carry the labels, plus noise: the sentence model must use them.
    rng = np.random.default_rng(0)
    vectors = np.array([[act in e.acts for act in ACTS] for e in examples], float)
    vectors = vectors + 0.1 * rng.standard_normal(vectors.shape)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    weights = train_weights(examples, vectors, model="fake:model", digest="d1")
    weights.save(tmp_path / "weights.npz")
    loaded = ActWeights.load(tmp_path / "weights.npz")
    assert loaded.digest == "d1" and loaded.model == "fake:model"
    assert loaded.ngrams.vocabulary == weights.ngrams.vocabulary

    surface = ActClassifier(None, weights=loaded)
    assert not surface.reads_sentences
    assert Act.THANKS in surface.acts("thanks, thank you")
    assert Act.REQUEST in surface.acts("a cheap steel kettle")
    scores = surface.scores("hello hi")
    assert max(scores, key=lambda act: scores[act]) is Act.SMALL_TALK
    assert all(0.0 <= p <= 1.0 for p in scores.values())

    # With the embedder the weights were trained on, the sentence vector is read too.
    embedder = _TableEmbedder(
        "fake:model", {"greetings!": np.eye(len(ACTS))[ACTS.index(Act.SMALL_TALK)]}
    )
    sentence = ActClassifier(embedder, weights=loaded)
    assert sentence.reads_sentences
    assert Act.SMALL_TALK in sentence.acts("greetings!")
    assert embedder.queries == ["greetings!"]


@pytest.mark.slow  # trains the classifier: 11 s at load 5
def test_a_message_always_performs_at_least_one_act(tmp_path: Path) -> None:
    examples = load_examples(_write(tmp_path / "tiny.jsonl", _TINY))
    vectors = np.eye(len(examples), len(ACTS))
    weights = train_weights(examples, vectors, model="fake:model", digest="d")
    assert len(ActClassifier(None, weights=weights).acts("zzzz qqqq")) >= 1


@pytest.mark.parametrize(
    "line",
    [
        '{"text": "hi", "acts": ["greeting"]}',
        '{"text": "hi"}',
        '{"text": " ", "acts": ["thanks"]}',
        "not json",
    ],
)
def test_a_bad_training_line_is_named_not_a_traceback(tmp_path: Path, line: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"text": "ok", "acts": ["small_talk"]}\n' + line + "\n", "utf-8")
    with pytest.raises(InvalidInput, match=r"bad\.jsonl:2"):
        load_examples(path)


def test_the_training_file_covers_every_act_in_both_languages() -> None:
    examples = load_examples(training_data_path())
    assert len(examples) >= 1200
    texts = [e.text.casefold() for e in examples]
    assert len(set(texts)) == len(texts), "duplicate training messages"
    for act in ACTS:
        with_act = [e.text for e in examples if act in e.acts]
        chinese = sum(any("\u4e00" <= ch <= "\u9fff" for ch in t) for t in with_act)
        assert chinese >= 20 and len(with_act) - chinese >= 20, act
    several = Counter(len(e.acts) for e in examples)
    assert sum(n for size, n in several.items() if size > 1) >= 300
