"""The shipped act classifier: it loads, its weights are those of today's training file,
and with the real model the expected act wins on sentences of its own."""

from __future__ import annotations

import pytest

from cartwise.embedding.base import Embedder
from cartwise.embedding.e5 import E5Embedder
from cartwise.embedding.hashing import HashingEmbedder
from cartwise.embedding.memo import QueryMemo
from cartwise.understanding.acts import (
    ACTS,
    Act,
    ActClassifier,
    ActPolicy,
    create_act_classifier,
)
from cartwise.understanding.acts.classifier import SENTENCE_MODEL, shipped_weights
from cartwise.understanding.acts.model import weights_path
from cartwise.understanding.acts.training import data_digest, load_examples, training_data_path
from tests.doubles import CountingEmbedder

# Sentences written for this test, in no training file: (message, acts it must perform).
HELD_BACK: list[tuple[str, set[Act]]] = [
    ("i'm after a cordless kettle, nothing above 40", {Act.REQUEST}),
    ("来一个蓝牙音箱吧 三百以内", {Act.REQUEST}),
    ("show me the pricier ones", {Act.REQUEST}),
    ("does the third one come in green?", {Act.ITEM_QUESTION}),
    ("第二个充一次电能用多久", {Act.ITEM_QUESTION}),
    ("i can't stand the smell of lavender", {Act.PREFERENCE}),
    ("我对芒果过敏", {Act.PREFERENCE}),
    ("it's for my little cousin, she just turned four", {Act.GIFT_CONTEXT}),
    ("送给我外婆的", {Act.GIFT_CONTEXT}),
    ("are you a human or a program?", {Act.ASSISTANT_QUESTION}),
    ("你能记住我上次说的话吗", {Act.ASSISTANT_QUESTION}),
    ("good afternoon!", {Act.SMALL_TALK}),
    ("哈哈哈好吧", {Act.SMALL_TALK}),
    ("thanks so much, really helpful", {Act.THANKS}),
    ("感谢你啊", {Act.THANKS}),
    ("ok that's me done, see you", {Act.CLOSING}),
    ("今天就到这 拜拜", {Act.CLOSING}),
    (
        "heya! my uncle turns 50 soon, he's into woodworking, ideas?",
        {Act.SMALL_TALK, Act.GIFT_CONTEXT, Act.REQUEST},
    ),
    ("想给我家猫买猫粮 它吃不了鱼", {Act.REQUEST, Act.GIFT_CONTEXT, Act.PREFERENCE}),
    ("cheers, that's everything for today", {Act.THANKS, Act.CLOSING}),
]


def test_the_held_back_sentences_are_not_training_examples() -> None:
    trained = {e.text.casefold() for e in load_examples(training_data_path())}
    assert not [text for text, _ in HELD_BACK if text.casefold() in trained]


def test_shipped_weights_load_for_every_act() -> None:
    weights = shipped_weights()
    assert weights.model == SENTENCE_MODEL
    assert weights.ngrams.dim > 1000
    for model in (weights.sentence, weights.surface):
        assert model.linear.weights.shape[1] == len(ACTS)
        assert (model.calibration.scale > 0).all()
    assert weights.sentence.reads_sentences and not weights.surface.reads_sentences


def test_shipped_weights_are_not_stale() -> None:
    digest = data_digest(training_data_path())
    assert shipped_weights().digest == digest, (
        f"stale {weights_path(SENTENCE_MODEL).name}: run `python scripts/train_acts.py`"
    )


def test_the_policy_takes_every_act_at_its_threshold_and_at_least_one() -> None:
    policy = ActPolicy({**dict.fromkeys(ACTS, 0.5), Act.CLOSING: 0.3})
    scores = dict.fromkeys(ACTS, 0.1) | {Act.THANKS: 0.7, Act.CLOSING: 0.35}
    assert policy.decide(scores) == {Act.THANKS, Act.CLOSING}
    assert ActPolicy().decide(dict.fromkeys(ACTS, 0.1) | {Act.REQUEST: 0.2}) == {Act.REQUEST}


def test_another_embedders_vectors_are_never_read() -> None:
    # Hashing vectors mean nothing to weights learned on e5's: n-grams alone decide.
    embedder = CountingEmbedder(HashingEmbedder(384))
    classifier = create_act_classifier(embedder)
    assert not classifier.reads_sentences
    assert Act.THANKS in classifier.acts("thank you so much!")
    assert embedder.queries_embedded == 0


@pytest.fixture(scope="module")
def e5() -> Embedder:
    return E5Embedder()


@pytest.mark.model
@pytest.mark.parametrize(("message", "expected"), HELD_BACK)
def test_the_expected_acts_win_on_sentences_of_our_own(
    e5: Embedder, message: str, expected: set[Act]
) -> None:
    classifier = ActClassifier(e5)
    assert classifier.reads_sentences
    scores = classifier.scores(message)
    assert expected <= classifier.acts(message), scores
    top = max(scores, key=lambda act: scores[act])
    assert top in expected, scores


@pytest.mark.model
def test_one_message_is_embedded_once_through_the_turns_memo(e5: Embedder) -> None:
    counting = CountingEmbedder(e5)
    memo = QueryMemo(counting)
    classifier = create_act_classifier(memo)
    memo.embed_query("got any hiking socks")  # the rest of the turn embeds the message
    classifier.scores("got any hiking socks")
    classifier.acts("got any hiking socks")
    assert counting.queries_embedded == 1


@pytest.mark.model
def test_probabilities_are_probabilities(e5: Embedder) -> None:
    scores = ActClassifier(e5).scores("hello, a phone case pls")
    assert set(scores) == set(ACTS)
    assert all(0.0 < p < 1.0 for p in scores.values())


@pytest.mark.model
def test_a_message_read_ahead_is_embedded_once_and_scored_alike(e5: Embedder) -> None:
    """The rules engine starts the sentence vector on another thread before it scans: the
    scores then use that vector, not a second embedding, and equal the scores without it."""
    counting = CountingEmbedder(e5)
    classifier = ActClassifier(counting)
    message = "想给我家猫买猫粮 它吃不了鱼"
    classifier.read_ahead(message)
    classifier.read_ahead(message)  # asked twice before it is read: still one embedding
    ahead = classifier.scores(message)
    assert counting.queries_embedded == 1
    assert ActClassifier(e5).scores(message) == pytest.approx(ahead)
    classifier.scores(message)  # a vector read ahead serves one reading, not later ones
    assert counting.queries_embedded == 2


def test_nothing_is_read_ahead_for_a_classifier_that_reads_no_sentences() -> None:
    embedder = CountingEmbedder(HashingEmbedder(384))
    classifier = create_act_classifier(embedder)
    classifier.read_ahead("thank you so much!")
    assert Act.THANKS in classifier.acts("thank you so much!")
    assert embedder.queries_embedded == 0


def test_a_read_ahead_still_queued_is_embedded_by_the_reader_instead() -> None:
    """Many turns at once queue their read-aheads on two threads: a reader whose embedding has
    not started does it itself rather than wait behind other shoppers'."""
    import threading

    from cartwise.understanding.acts import classifier as module

    release = threading.Event()
    busy = [module._pool().submit(release.wait) for _ in range(2)]  # both threads held
    try:
        embedder = CountingEmbedder(HashingEmbedder(384))
        reading = ActClassifier(embedder)
        text = "got any hiking socks"
        reading._ahead[text] = module._pool().submit(embedder.embed_query, text)
        done: list[object] = []
        reader = threading.Thread(target=lambda: done.append(reading._sentence(text)))
        reader.start()
        reader.join(timeout=10)  # waiting behind the held threads would never finish
        assert done and embedder.queries == [text]
    finally:
        release.set()
        for job in busy:
            job.result(timeout=10)
