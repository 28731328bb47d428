"""Character n-grams: slang, emoji and Chinese are features without a tokenizer."""

from __future__ import annotations

import numpy as np

from cartwise.understanding.acts.features import CharNgrams, ngrams


def test_short_slang_is_padded_so_alone_differs_from_inside_a_word() -> None:
    assert " k " in ngrams("K")
    assert " k " not in ngrams("kettle")
    assert " thx" in ngrams("ok THX")  # folded


def test_chinese_and_emoji_give_ngrams_without_a_tokenizer() -> None:
    grams = ngrams("谢啦🙏")
    assert {"谢", "谢啦", "🙏"} <= set(grams)


def test_unknown_ngrams_are_ignored_and_rows_are_unit_length() -> None:
    vocabulary = CharNgrams.fit(["thanks a lot", "thanks so much", "bye bye", "bye now"])
    assert "than" in vocabulary.vocabulary and "lot" not in vocabulary.vocabulary
    columns, weights = vocabulary.sparse("thanks, bye")
    assert len(columns) > 0
    assert abs(float(np.linalg.norm(weights)) - 1.0) < 1e-5
    assert vocabulary.sparse("zzzz")[0].size == 0


def test_training_rows_hold_the_same_features_as_one_message() -> None:
    vocabulary = CharNgrams.fit(["good morning", "good night", "morning all"])
    rows = vocabulary.rows(["good morning", "xyz"])
    assert rows.shape == (2, vocabulary.dim)
    columns, weights = vocabulary.sparse("good morning")
    expected = np.zeros((2, vocabulary.dim))
    expected[0, columns] = weights
    identity = np.eye(vocabulary.dim)
    assert np.allclose(rows.dot(identity), expected, atol=1e-6)
