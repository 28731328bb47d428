"""Milvus as a server: connection options, an approximate index, a cached platform list and
writes without a flush each — checked on Milvus Lite, the tested stand-in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cartwise.recall.indexes import SearchFilters, create_index
from cartwise.settings import Settings
from tests.factories import make_product

pytestmark = pytest.mark.milvus
pytest.importorskip("pymilvus")

from cartwise.recall.indexes.milvus import MilvusIndex, MilvusOptions  # noqa: E402

DIM = 8


def _vectors(n: int, seed: int = 0) -> np.ndarray[Any, Any]:
    rows = np.random.default_rng(seed).normal(size=(n, DIM)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_settings_reach_the_client_and_the_index() -> None:
    options = MilvusOptions.from_settings(
        Settings(  # type: ignore[call-arg]
            _env_file=None,
            milvus_token="root:Milvus",
            milvus_db="shop",
            milvus_server_pem_path="/etc/ca.pem",
            milvus_index_type="HNSW",
            milvus_hnsw_m=24,
            milvus_hnsw_ef=64,
        )
    )
    assert options.client_arguments() == {
        "token": "root:Milvus",
        "db_name": "shop",
        "server_pem_path": "/etc/ca.pem",
    }
    assert options.index_params() == {"M": 24, "efConstruction": 200}
    assert options.search_params(k=100) == {"ef": 100}  # ef never below k
    assert MilvusOptions(index_type="IVF_FLAT", ivf_nprobe=8).search_params(k=5) == {"nprobe": 8}
    assert MilvusOptions().client_arguments() == {}


@pytest.mark.parametrize("index_type", ["HNSW", "IVF_FLAT"])
def test_an_approximate_index_finds_the_nearest_product(tmp_path: Path, index_type: str) -> None:
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None,
        cartwise_home=tmp_path,
        index_backend="milvus",
        milvus_index_type=index_type,
        milvus_ivf_nlist=4,
        milvus_ivf_nprobe=4,
    )
    index = create_index(settings, DIM, embedder_name="test")
    try:
        vectors = _vectors(50)
        index.upsert([make_product(str(i)) for i in range(50)], vectors)
        described = index._client.describe_index(index._collection, "vector")  # type: ignore[attr-defined]
        assert described["index_type"] == index_type
        hits = index.search(vectors[17], 3)
        assert hits[0].product.item_id == "17"
    finally:
        index.close()


def test_writes_are_visible_at_once_without_a_flush(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = MilvusIndex(str(tmp_path / "m.db"), DIM, collection="noflush")
    flushes: list[Any] = []
    monkeypatch.setattr(index._client, "flush", lambda *a, **k: flushes.append(a))
    try:
        index.upsert([make_product("1"), make_product("2", platform="amazon")], _vectors(2))
        assert index.count() == 2
        assert index.get("jd:1") is not None
        assert index.delete(["jd:1"]) == 1
        assert index.count() == 1
        assert flushes == []
    finally:
        index.close()


def test_the_platform_list_is_cached_and_dropped_on_writes_and_reload(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = MilvusIndex(
        str(tmp_path / "m.db"),
        DIM,
        collection="platforms",
        options=MilvusOptions(platform_cache_seconds=3600),
    )
    scans: list[Any] = []
    real_iterator = index._client.query_iterator

    def counting_iterator(*args: Any, **kwargs: Any) -> Any:
        scans.append(kwargs.get("output_fields"))
        return real_iterator(*args, **kwargs)

    monkeypatch.setattr(index._client, "query_iterator", counting_iterator)
    try:
        index.upsert([make_product("1")], _vectors(1))
        for _ in range(5):
            assert index.platforms() == ["jd"]
        assert len(scans) == 1  # one scan, then the cache
        index.upsert([make_product("2", platform="amazon")], _vectors(1, seed=1))
        assert index.platforms() == ["amazon", "jd"]  # a write drops the cache
        assert len(scans) == 2
        index.reload()  # another replica changed the catalog
        index.platforms()
        assert len(scans) == 3
    finally:
        index.close()


FULL_TEXT_PRODUCTS = [
    make_product("1", title="索尼 WH-1000XM5 头戴式降噪耳机", brand="Sony"),
    make_product("2", title="Nike Pegasus 41 running shoes", brand="Nike", platform="amazon"),
    make_product("3", title="蓝色 硅胶 手机壳", platform="taobao"),
    make_product("4", title="Sony Bravia 65 inch TV", brand="Sony", platform="amazon"),
]


def test_full_text_search_runs_in_milvus_with_cartwise_tokens(tmp_path: Path) -> None:
    index = MilvusIndex(str(tmp_path / "m.db"), DIM, collection="fulltext")
    try:
        assert index.full_text
        index.upsert(FULL_TEXT_PRODUCTS, _vectors(len(FULL_TEXT_PRODUCTS)))
        assert [p.item_id for p, _ in index.search_text("降噪耳机", 5)] == ["1"]
        assert [p.item_id for p, _ in index.search_text("WH-1000XM5", 5)] == ["1"]
        assert [p.item_id for p, _ in index.search_text("running shoes", 5)] == ["2"]
        sony = index.search_text("sony", 5, SearchFilters(platforms=["amazon"]))
        assert [p.item_id for p, _ in sony] == ["4"]
        assert all(score > 0 for _, score in index.search_text("sony", 5))
        assert index.search_text("zzzz-nothing", 5) == []
    finally:
        index.close()


def test_a_collection_without_the_type_field_filters_types_after_the_scan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Collections created before the `product_type` field keep working: the type filter
    moves from the expression to the post-filter, with the same answer."""
    create = MilvusIndex._create

    def create_without_type(index: MilvusIndex, data_type: Any, bm25: Any) -> None:
        make_schema = index._client.create_schema

        def schema_without_type(**arguments: Any) -> Any:
            schema = make_schema(**arguments)
            add = schema.add_field
            schema.add_field = lambda name, *rest, **options: (
                schema if name == "product_type" else add(name, *rest, **options)
            )
            return schema

        index._client.create_schema = schema_without_type
        create(index, data_type, bm25)

    monkeypatch.setattr(MilvusIndex, "_create", create_without_type)
    path = str(tmp_path / "old.db")
    MilvusIndex(path, DIM, collection="untyped_schema").close()
    monkeypatch.undo()
    index = MilvusIndex(path, DIM, collection="untyped_schema")
    try:
        assert not index._typed
        types = ["usb_cable"] * 12 + ["", "running_shoes", ""]
        products = [
            make_product(str(i), title=f"sony item {i}", product_type=t)
            for i, t in enumerate(types)
        ]
        vectors = _vectors(len(products))
        vectors[:12] = vectors[0]  # the 12 cables rank first: a scan of 4·k rows finds no shoe
        index.upsert(products, vectors)
        shoes = SearchFilters(product_types=frozenset({"running_shoes"}))
        hits = index.search(vectors[0], 3, shoes)
        assert sorted(h.product.item_id for h in hits) == ["12", "13", "14"]
        text_hits = index.search_text("sony", 5, shoes)
        assert sorted(p.item_id for p, _ in text_hits) == ["12", "13", "14"]
    finally:
        index.close()


def test_with_milvus_the_service_uses_no_in_process_bm25(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cartwise.embedding.hashing import HashingEmbedder
    from cartwise.recall.lexical import LexicalIndex
    from cartwise.recall.service import RecallService

    def no_copy(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the catalog was copied into an in-process BM25 table")

    monkeypatch.setattr(LexicalIndex, "search", no_copy)
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None, cartwise_home=tmp_path, index_backend="milvus", embedder="hashing:64"
    )
    embedder = HashingEmbedder(64)
    service = RecallService.open(settings, embedder)
    try:
        service.upsert(
            FULL_TEXT_PRODUCTS,
            embedder.embed_documents([p.title for p in FULL_TEXT_PRODUCTS]),
        )
        lexical = service.search("running shoes", k=2, mode="lexical")
        assert [h.product.item_id for h in lexical.results] == ["2"]
        assert lexical.results[0].score_lexical > 0
        hybrid = service.search("WH-1000XM5 降噪耳机", k=2)
        assert hybrid.results[0].product.item_id == "1"
    finally:
        service.close()
