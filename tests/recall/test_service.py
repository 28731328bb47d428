"""RecallService: three towers, score parts, hybrid fusion, filters, persistence."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from cartwise.catalog.product import Product
from cartwise.embedding import create_embedder
from cartwise.embedding.base import Embedder
from cartwise.errors import InvalidInput, UnknownPlatform
from cartwise.recall.indexes.base import SearchFilters
from cartwise.recall.indexes.faiss import FaissIndex
from cartwise.recall.lexical import model_forms, model_tokens, tokenize
from cartwise.recall.service import RecallService
from cartwise.settings import Settings
from tests.doubles import CountingEmbedder
from tests.factories import make_product

MODEL_CATALOG = [
    ("AMD Ryzen 9 5900X 3.7 GHz 12-core processor", "AMD", 251.0),
    ("AMD Ryzen 9 5950X 3.4 GHz 16-core processor", "AMD", 399.0),
    ("AMD Ryzen 7 5800X 3.8 GHz 8-core processor", "AMD", 189.0),
    ("AMD Ryzen 9 7900X processor", "AMD", 420.0),
    ("ASUS ROG Strix XG43UQ 43 inch 4K gaming monitor", "ASUS", 900.0),
    ("ASUS ROG Strix XG43VQ 43 inch curved gaming monitor", "ASUS", 700.0),
    ("ASUS ROG Strix XG27UQ 27 inch 4K gaming monitor", "ASUS", 600.0),
    ("Sony WH-1000XM5 wireless noise cancelling headphones", "Sony", 2499.0),
    ("Sony WH-1000XM4 wireless noise cancelling headphones", "Sony", 1899.0),
    ("Sony WF-1000XM5 true wireless earbuds", "Sony", 1699.0),
    ("索尼 WH1000XM5 头戴式降噪耳机 黑色", "Sony", 2399.0),
    ("Bose QuietComfort 45 noise cancelling headphones", "Bose", 1999.0),
    ("铁三角 金属头戴式耳机 hifi", "Audio-Technica", 899.0),
    ("漫步者 塑料外壳 蓝牙耳机", "Edifier", 199.0),
    ("Levi's 511 slim jeans", "Levi's", 499.0),
    ("Nike Air Zoom Pegasus 40 running shoes", "Nike", 799.0),
]


def _service(settings: Settings, embedder: Embedder | None = None) -> RecallService:
    embedder = embedder or create_embedder(settings.embedder)
    service = RecallService.open(settings, embedder)
    products = [
        make_product(
            str(i),
            platform="jd" if i % 2 else "amazon",
            title=title,
            brand=brand,
            price=price,
        )
        for i, (title, brand, price) in enumerate(MODEL_CATALOG)
    ]
    service.upsert(products, embedder.embed_documents([p.embedding_text() for p in products]))
    return service


def test_tokenizer_keeps_model_numbers_whole_and_split() -> None:
    tokens = tokenize("Sony WH-1000XM5 AMD 5900X XG43UQ 降噪耳机")
    for token in ("wh-1000xm5", "wh1000xm5", "1000xm5", "5900x", "5900", "xg43uq", "43"):
        assert token in tokens
    assert "降噪" in tokens and "耳机" in tokens and "噪耳" in tokens
    assert model_tokens("Ryzen 9 5900X vs ryzen 7") == ["5900x"]
    assert model_tokens("WH-1000XM5") == model_tokens("wh1000xm5") == ["wh1000xm5"]
    assert {"ksa60", "a60"} <= model_forms("HALFSun KS-A60 speaker")


@pytest.mark.parametrize(
    ("query", "expected_title"),
    [
        ("Ryzen 9 5900X", "AMD Ryzen 9 5900X"),
        ("XG43UQ", "ASUS ROG Strix XG43UQ"),
        ("WH-1000XM5", "Sony WH-1000XM5"),
        ("AMD Ryzen 9 5950X price", "AMD Ryzen 9 5950X"),
    ],
)
def test_exact_model_names_come_first(settings: Settings, query: str, expected_title: str) -> None:
    service = _service(settings)
    results = service.search(query, k=5).results
    assert results[0].product.title.startswith(expected_title)


def test_model_number_matches_differently_written_title(settings: Settings) -> None:
    service = _service(settings)
    keys = [h.product.title for h in service.search("索尼 WH-1000XM5 耳机", k=3).results]
    assert set(keys[:2]) == {
        "Sony WH-1000XM5 wireless noise cancelling headphones",
        "索尼 WH1000XM5 头戴式降噪耳机 黑色",
    }


def test_no_profile_means_no_user_vector(settings: Settings) -> None:
    service = _service(settings)
    for profile in (None, "", "   "):
        response = service.search("headphones", k=3, profile=profile)
        assert response.personalization is False
        assert all(hit.score_user == 0.0 for hit in response.results)


def test_profile_activates_user_tower_and_reports_score_parts(settings: Settings) -> None:
    service = _service(settings)
    embedder = service.embedder
    profile = "Sony"
    response = service.search("headphones", k=5, profile=profile, mode="dense")
    assert response.personalization is True
    q, u = embedder.embed_query("headphones"), embedder.embed_query(profile)
    norm = float(np.linalg.norm(q + settings.recall_user_beta * u))
    for hit in response.results:
        item = service.index.vectors([hit.product.key])[0]
        assert hit.score_query == pytest.approx(float(item @ q), abs=1e-5)
        assert hit.score_user == pytest.approx(float(item @ u), abs=1e-5)
        expected = (hit.score_query + settings.recall_user_beta * hit.score_user) / norm
        assert hit.score == pytest.approx(expected, abs=1e-5)
    assert any(hit.score_user != 0.0 for hit in response.results)


def test_a_given_profile_vector_is_the_user_tower_and_the_profile_is_not_embedded(
    settings: Settings,
) -> None:
    service = _service(settings)
    counting = CountingEmbedder(service.embedder)
    service.embedder = counting
    u = counting.inner.embed_query("Sony")
    response = service.search(
        "headphones", k=5, profile="a profile text", profile_vector=u, mode="dense"
    )
    assert counting.queries == ["headphones"]
    assert response.personalization is True
    for hit in response.results:
        item = service.index.vectors([hit.product.key])[0]
        assert hit.score_user == pytest.approx(float(item @ u), abs=1e-5)


def test_beta_zero_disables_personalization(settings: Settings) -> None:
    embedder = create_embedder(settings.embedder)
    service = RecallService.open(settings.model_copy(update={"recall_user_beta": 0.0}), embedder)
    service.upsert([make_product("1")], embedder.embed_documents(["product 1"]))
    assert service.search("product", profile="Sony").personalization is False


def test_filters_hold_in_every_mode(settings: Settings) -> None:
    service = _service(settings)
    filters = SearchFilters(platforms=["jd"], max_price_base=1000, brands=["sony", "ASUS"])
    for mode in ("hybrid", "dense", "lexical"):
        results = service.search(
            "Sony WH-1000XM5 headphones monitor", k=20, filters=filters, mode=mode
        ).results  # type: ignore[arg-type]
        assert results, mode
        assert all(filters.accepts(hit.product) for hit in results), mode


def test_unknown_platform_is_an_error(settings: Settings) -> None:
    service = _service(settings)
    with pytest.raises(UnknownPlatform) as error:
        service.search("headphones", filters=SearchFilters(platforms=["jd", "ebay"]))
    assert error.value.known == ["amazon", "jd"]


def test_bad_requests_are_refused(settings: Settings) -> None:
    service = _service(settings)
    with pytest.raises(InvalidInput):
        service.search("   ")
    with pytest.raises(InvalidInput):
        service.search("headphones", k=0)


def test_lexical_follows_upserts_and_deletes(settings: Settings) -> None:
    service = _service(settings)
    assert service.search("zyxwv", mode="lexical").results == []
    newcomer = make_product("new", platform="jd", title="Zyxwv limited edition kettle")
    service.upsert([newcomer], service.embedder.embed_documents([newcomer.title]))
    assert [h.product.key for h in service.search("zyxwv", mode="lexical").results] == ["jd:new"]
    assert service.delete(["jd:new"]) == 1
    assert service.search("zyxwv", mode="lexical").results == []


def test_reopened_service_finds_the_same_products(settings: Settings) -> None:
    service = _service(settings)
    before = [h.product.key for h in service.search("Ryzen 9 5900X", k=5).results]
    service.close()
    reopened = RecallService.open(settings, create_embedder(settings.embedder))
    assert reopened.count() == len(MODEL_CATALOG)
    assert [h.product.key for h in reopened.search("Ryzen 9 5900X", k=5).results] == before
    assert reopened.get("jd:1") == Product.model_validate(reopened.get("jd:1"))


def test_after_ingest_a_new_process_searches_without_reading_the_catalog(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ingest saves the index's table and the BM25 beside it; a later process loads both and
    answers exactly as the process that built them, parsing only what it shows."""
    service = _service(settings)
    service.finish_ingest()
    queries = ["Ryzen 9 5900X", "降噪耳机", "WH-1000XM5", "gaming monitor"]
    modes = ("lexical", "hybrid")
    before = [
        [h.product.key for h in service.search(q, k=5, mode=m).results]
        for q in queries
        for m in modes
    ]
    service.close()

    def no_catalog_read(*args: object, **kwargs: object) -> None:
        raise AssertionError("the whole catalog was read")

    monkeypatch.setattr(RecallService, "_reload", no_catalog_read)
    reopened = RecallService.open(settings, create_embedder(settings.embedder))
    monkeypatch.setattr(reopened.index, "iter_products", no_catalog_read)
    after = [
        [h.product.key for h in reopened.search(q, k=5, mode=m).results]
        for q in queries
        for m in modes
    ]
    assert after == before
    # A write after the saved state: the BM25 is built again from the rows, with the newcomer.
    monkeypatch.undo()
    newcomer = make_product("new", platform="jd", title="Zyxwv limited edition kettle")
    reopened.upsert([newcomer], reopened.embedder.embed_documents([newcomer.title]))
    hits = reopened.search("zyxwv", mode="lexical").results
    assert [h.product.key for h in hits] == ["jd:new"]
    reopened.close()
    third = RecallService.open(settings, create_embedder(settings.embedder))
    assert [h.product.key for h in third.search("zyxwv", mode="lexical").results] == ["jd:new"]
    assert [h.product.key for h in third.search("Ryzen 9 5900X", k=5).results] == before[1]
    third.close()


def test_a_filtered_lexical_search_reads_only_products_the_filter_may_accept(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long query scores most documents above zero; a saved BM25 reads each hit's product
    by key, so a filtered search read (and rejected) every product ranked before its k-th
    accepted one. The index's filter columns say which may pass before any is read."""
    service = _service(settings)
    service.finish_ingest()
    service.close()
    read: list[str] = []
    real_products = FaissIndex.products

    def counting_products(index: FaissIndex, keys: Sequence[str]) -> list[Product | None]:
        read.extend(keys)
        return real_products(index, keys)

    monkeypatch.setattr(FaissIndex, "products", counting_products)
    reopened = RecallService.open(settings, create_embedder(settings.embedder))
    filters = SearchFilters(platforms=["jd"], brands=["Sony"])
    query = " ".join(title for title, _, _ in MODEL_CATALOG)
    hits = reopened.search(query, k=3, filters=filters, mode="lexical").results
    assert hits and all(filters.accepts(h.product) for h in hits)
    accepted = {p.key for p in reopened.index.iter_products() if filters.accepts(p)}
    assert read and set(read) <= accepted
    reopened.close()


def test_one_text_searched_on_every_platform_is_scored_once(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A turn searches each platform, with and without its budget, with the same text: the
    BM25 scores of a pasted message's hundreds of tokens are computed once, not per search."""
    import bm25s

    service = _service(settings)
    scored: list[int] = []
    real_scores = bm25s.BM25.get_scores

    def counting_scores(retriever: bm25s.BM25, tokens: list[str], *args: object) -> object:
        scored.append(len(tokens))
        return real_scores(retriever, tokens, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(bm25s.BM25, "get_scores", counting_scores)
    query = "Sony wireless noise cancelling headphones 降噪耳机 " * 20
    for platform in ("jd", "amazon"):
        for budget in (None, 2000.0):
            filters = SearchFilters(platforms=[platform], max_price_base=budget)
            service.search(query, k=3, filters=filters, mode="lexical")
    assert len(scored) == 1
    # A change to the catalog scores again: the remembered scores were the old catalog's.
    newcomer = make_product("new", platform="jd", title="Sony noise cancelling kettle")
    service.upsert([newcomer], service.embedder.embed_documents([newcomer.title]))
    hits = service.search(query, k=20, mode="lexical").results
    assert len(scored) == 2 and "jd:new" in {h.product.key for h in hits}
    service.close()


def test_the_catalogs_kinds_are_read_from_ingest_not_from_every_listing(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each searching turn asks which product types the catalog carries; collected from the
    listings, that parsed the whole catalog in every fresh process."""
    from cartwise.catalog.kinds import collect_kinds

    service = _service(settings)
    typed = make_product("typed", platform="jd", title="Trail shoe", product_type="running_shoes")
    untyped = make_product("untyped", platform="jd", title="Lamp", category_raw="Home › Desk Lamps")
    service.upsert([typed, untyped], service.embedder.embed_documents(["a", "b"]))
    service.finish_ingest()
    expected = collect_kinds(service.index.iter_products())
    service.close()

    def no_catalog_read(*args: object, **kwargs: object) -> None:
        raise AssertionError("the whole catalog was read")

    reopened = RecallService.open(settings, create_embedder(settings.embedder))
    monkeypatch.setattr(reopened.index, "iter_products", no_catalog_read)
    kinds = reopened.catalog_kinds()
    assert kinds == expected
    assert "running_shoes" in kinds.types and kinds.untyped
    assert "Home › Desk Lamps" in kinds.categories
    monkeypatch.undo()
    # A change to the catalog collects them again.
    boots = make_product("boots", platform="jd", title="Boots", product_type="hiking_boots")
    reopened.upsert([boots], reopened.embedder.embed_documents(["c"]))
    assert "hiking_boots" in reopened.catalog_kinds().types
    reopened.close()
