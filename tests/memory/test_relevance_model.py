"""Domain scoping with the real bundled model (multilingual-e5-small): a dislike said about
electronics filters headphones, not raincoats; a global one filters both.

Whether a query is about an entry's domain is decided by `cartwise.catalog.domain_classifier`
(nearest described domain); the queries here are beyond the ones its descriptions were tuned
on."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cartwise.embedding import Embedder, create_embedder
from cartwise.memory import create_preference_store
from cartwise.memory.injector import dislike_exclude_terms, preference_context
from cartwise.memory.store import PreferenceStore
from cartwise.settings import Settings
from tests.factories import make_preference

pytestmark = pytest.mark.model

USER = "alice"
ELECTRONICS_PLASTIC = "dislike:material:electronics:plastic"
GLOBAL_LEATHER = "dislike:material::leather"


@pytest.fixture(scope="module")
def e5() -> Embedder:
    """Loaded once: the model is the slow part."""
    return create_embedder("e5:small")


@pytest.fixture
def e5_store(backend_settings: Settings, e5: Embedder) -> Iterator[PreferenceStore]:
    store = create_preference_store(backend_settings, e5)
    store.upsert(
        USER, make_preference("plastic", domain="electronics", keywords=["plastic", "塑料"])
    )
    store.upsert(USER, make_preference("leather", keywords=["leather", "皮革"]))
    yield store
    store.close()


@pytest.mark.parametrize(
    "query",
    [
        "noise cancelling headphones",
        "降噪耳机",
        "蓝牙耳机 500以内",
        "蓝牙音箱",
        "机械键盘",
        "a phone case",
    ],
)
def test_electronics_dislike_applies_to_headphones(e5_store: PreferenceStore, query: str) -> None:
    keys = {e.dedup_key for e in e5_store.read_relevant(USER, query, threshold=0.8)}

    assert keys == {ELECTRONICS_PLASTIC, GLOBAL_LEATHER}


@pytest.mark.parametrize(
    "query",
    [
        "raincoat for hiking",
        "雨衣",
        "waterproof rain jacket",
        "沙发",
        "running shoes",
        "口红",
        # Regression: against the bare word "electronics" at 0.80 these passed (0.801-0.817),
        # so a plastic dislike said about headphones filtered hoodies and dining tables.
        "hoodie",
        "餐桌",
        "dumbbells",
    ],
)
def test_electronics_dislike_does_not_filter_a_raincoat(
    e5_store: PreferenceStore, query: str
) -> None:
    keys = {e.dedup_key for e in e5_store.read_relevant(USER, query, threshold=0.8)}

    assert keys == {GLOBAL_LEATHER}


def test_exclude_terms_follow_the_same_scoping(
    e5_store: PreferenceStore, backend_settings: Settings
) -> None:
    headphones = dislike_exclude_terms(e5_store, USER, "降噪耳机", settings=backend_settings)
    raincoat = dislike_exclude_terms(e5_store, USER, "雨衣", settings=backend_settings)

    assert set(headphones) == {"plastic", "塑料", "leather", "皮革"}
    assert set(raincoat) == {"leather", "皮革"}


@pytest.mark.parametrize(("query", "applies"), [("羊毛衫", True), ("降噪耳机", False)])
def test_a_drifted_domain_word_is_placed_semantically(
    backend_settings: Settings, e5: Embedder, query: str, applies: bool
) -> None:
    # "apparel" is nobody's canonical domain name; it must still scope like clothing.
    store = create_preference_store(backend_settings, e5)
    try:
        store.upsert(USER, make_preference("polyester", domain="apparel", keywords=["polyester"]))
        keys = {e.dedup_key for e in store.read_relevant(USER, query, threshold=0.8)}
    finally:
        store.close()
    assert (keys == {"dislike:material:apparel:polyester"}) is applies


def test_the_user_vector_of_stored_likes_points_where_their_profile_text_does(
    backend_settings: Settings, e5: Embedder
) -> None:
    """The user tower now reads the likes' stored vectors instead of embedding their joined
    text: with the real model the two directions agree (cosine 0.93-0.94 measured), scoped
    likes included, and a scoped like pulls towards its own words, not its domain."""
    store = create_preference_store(backend_settings, e5)
    try:
        likes = [
            ("solid-wood", "material", "", ["solid wood", "实木"]),
            ("black", "color", "", ["black", "黑色"]),
            ("sony", "brand", "electronics", ["sony", "索尼"]),
        ]
        for slug, category, domain, keywords in likes:
            store.upsert(
                USER,
                make_preference(
                    slug,
                    polarity="like",
                    category=category,
                    domain=domain,
                    strength="soft",
                    keywords=keywords,
                ),
            )
        settings = backend_settings.model_copy(update={"preference_top_k": 8})
        context = preference_context(store, USER, "降噪耳机", settings=settings)
        assert {e.slug for e in context.likes} == {"solid-wood", "black", "sony"}
        assert context.profile_vector is not None
        assert float(context.profile_vector @ e5.embed_query(context.profile)) >= 0.9
        sony = e5.embed_query("sony 索尼")
        assert float(context.profile_vector @ sony) > float(
            context.profile_vector @ e5.embed_query("electronics")
        )
    finally:
        store.close()
