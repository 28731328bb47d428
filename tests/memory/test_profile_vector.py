"""The user tower's vector is made from the likes' stored vectors, not by embedding their
joined text at each turn that brings up a new set of likes (that model call was most of a
turn's time for a shopper with likes: 150–250 ms of a 90 ms turn on the 2-core machine).
Both backends, through `score_namespace`."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from cartwise.embedding.hashing import HashingEmbedder
from cartwise.memory import create_preference_store
from cartwise.memory.backends.common import vector_text
from cartwise.memory.injector import preference_context
from cartwise.memory.store import PreferenceEntry, PreferenceStore
from cartwise.settings import Settings
from tests.doubles import CountingEmbedder
from tests.factories import make_preference

USER = "ann"


@pytest.fixture
def counting() -> CountingEmbedder:
    return CountingEmbedder(HashingEmbedder())


@pytest.fixture
def likes_store(
    backend_settings: Settings, counting: CountingEmbedder
) -> Iterator[PreferenceStore]:
    opened = create_preference_store(backend_settings, counting)
    yield opened
    opened.close()


def _like(slug: str, domain: str = "") -> PreferenceEntry:
    return make_preference(slug, polarity="like", strength="soft", domain=domain)


def _own_words(entry: PreferenceEntry) -> np.ndarray:
    """What a like means to the user tower: its own words, scoped or not (never its domain)."""
    assert entry.domain not in vector_text(entry).split()
    return HashingEmbedder().embed_documents([vector_text(entry)])[0]


def test_the_user_vector_is_the_normalised_mean_of_the_likes_own_words(
    likes_store: PreferenceStore, settings: Settings
) -> None:
    likes = [_like("wood"), _like("linen"), _like("sony", domain="electronics")]
    for entry in [*likes, make_preference("plastic")]:  # a dislike never enters the vector
        likes_store.upsert(USER, entry)
    settings = settings.model_copy(update={"preference_top_k": 8})
    context = preference_context(likes_store, USER, "headphones", settings=settings)

    assert {e.slug for e in context.likes} == {"wood", "linen", "sony"}
    assert context.profile_vector is not None
    mean = np.mean([_own_words(e) for e in context.likes], axis=0)
    np.testing.assert_allclose(context.profile_vector, mean / np.linalg.norm(mean), atol=1e-5)


def test_a_read_embeds_the_query_and_no_like(
    likes_store: PreferenceStore, counting: CountingEmbedder, settings: Settings
) -> None:
    likes_store.upsert(USER, _like("wood"))
    likes_store.upsert(USER, _like("sony", domain="electronics"))
    written = len(counting.documents)
    for query in ("headphones", "earbuds", "headphones"):
        context = preference_context(likes_store, USER, query, settings=settings)
        assert {e.slug for e in context.likes} == {"wood", "sony"}
        assert context.profile_vector is not None
    # The likes' stored vectors serve as they are (the documents embedded meanwhile are the
    # domain classifier's descriptions and the scoped entry's domain, once each).
    embedded = counting.documents[written:]
    assert not [t for t in embedded if "sony" in t or "wood" in t]
    assert embedded.count("electronics") == 1
    assert all("wood" not in text and "sony" not in text for text in counting.queries)


def test_no_likes_means_no_user_vector(likes_store: PreferenceStore, settings: Settings) -> None:
    likes_store.upsert(USER, make_preference("plastic"))
    context = preference_context(likes_store, USER, "headphones", settings=settings)
    assert context.likes == [] and context.profile_vector is None
