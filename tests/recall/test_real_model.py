"""Claims about retrieval quality, checked with the real bundled model (marker `model`)."""

from __future__ import annotations

import pytest

from cartwise.catalog.product import Product
from cartwise.embedding import create_embedder
from cartwise.embedding.base import Embedder, Matrix
from cartwise.memory import create_preference_store
from cartwise.memory.injector import build_user_profile
from cartwise.memory.store import PreferenceEntry
from cartwise.recall.service import RecallService
from cartwise.settings import Settings
from tests.factories import make_product
from tests.recall.test_service import MODEL_CATALOG

pytestmark = pytest.mark.model


@pytest.fixture(scope="module")
def model() -> Embedder:
    return create_embedder(Settings(_env_file=None).embedder)  # type: ignore[call-arg]


@pytest.fixture(scope="module")
def catalog(model: Embedder) -> tuple[list[Product], Matrix]:
    """The model-number fixture catalog, embedded once for the module."""
    products = [
        make_product(str(i), title=title, brand=brand, price=price)
        for i, (title, brand, price) in enumerate(MODEL_CATALOG)
    ]
    return products, model.embed_documents([p.embedding_text() for p in products])


@pytest.fixture
def real_settings(settings: Settings, model: Embedder) -> Settings:
    return settings.model_copy(update={"embedder": model.name})


def test_negation_collapses_in_the_embedding(model: Embedder) -> None:
    """Why dislikes never enter the user vector: "不喜欢塑料" embeds next to "塑料"."""
    negated = model.embed_query("不喜欢塑料")
    plastic, metal = model.embed_documents(["塑料", "金属"])
    assert float(negated @ plastic) > float(negated @ metal)


def test_dislike_only_user_gets_no_personalization(
    real_settings: Settings, model: Embedder
) -> None:
    store = create_preference_store(real_settings, model)
    store.upsert(
        "ann",
        PreferenceEntry(
            polarity="dislike",  # type: ignore[arg-type]
            category="material",  # type: ignore[arg-type]
            slug="plastic",
            strength="hard",  # type: ignore[arg-type]
            keywords=["plastic", "塑料"],
        ),
    )
    profile = build_user_profile(store, "ann", "耳机", settings=real_settings)
    store.close()
    assert profile == ""
    service = RecallService.open(real_settings, model)
    product = make_product("1", title="漫步者 塑料外壳 蓝牙耳机")
    service.upsert([product], model.embed_documents([product.embedding_text()]))
    response = service.search("耳机", profile=profile)
    assert response.personalization is False
    assert response.results[0].score_user == 0.0


@pytest.mark.parametrize(
    ("query", "expected_titles"),
    [
        ("Ryzen 9 5900X", ("AMD Ryzen 9 5900X",)),
        ("XG43UQ", ("ASUS ROG Strix XG43UQ",)),
        ("WH-1000XM5", ("Sony WH-1000XM5", "索尼 WH1000XM5")),
        ("索尼 WH-1000XM5 耳机", ("Sony WH-1000XM5", "索尼 WH1000XM5")),
    ],
)
def test_exact_model_names_come_first_with_the_real_model(
    real_settings: Settings,
    model: Embedder,
    catalog: tuple[list[Product], Matrix],
    query: str,
    expected_titles: tuple[str, ...],
) -> None:
    service = RecallService.open(real_settings, model)
    service.upsert(*catalog)
    top = [hit.product.title for hit in service.search(query, k=3).results]
    assert top[0].startswith(expected_titles)
    assert sum(title.startswith(expected_titles) for title in top[: len(expected_titles)]) == len(
        expected_titles
    )
