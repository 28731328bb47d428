"""What a BM25 search reads from the product index: a long, broad query on one platform reads
that platform's hits only, a chunk per call, so parallel per-platform searches do not take
the index's lock once per hit of every platform."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from cartwise.catalog.product import Product
from cartwise.recall.indexes.base import SearchFilters
from cartwise.recall.lexical import LexicalIndex, SavedLexical
from tests.factories import make_product

PLATFORMS = ("jd", "taobao", "amazon")


def catalog() -> list[Product]:
    return [
        make_product(f"{n}", platform=platform, title=f"wireless headphones model {n}")
        for platform in PLATFORMS
        for n in range(300)
    ]


class CountingIndex:
    """The saved BM25's product source, counting what it is asked for."""

    def __init__(self, products: list[Product]) -> None:
        self.by_key = {p.key: p for p in products}
        self.calls: list[list[str]] = []

    def products(self, keys: Sequence[str]) -> list[Product | None]:
        self.calls.append(list(keys))
        return [self.by_key.get(k) for k in keys]


def loaded_lexical(tmp_path: Path, index: CountingIndex) -> LexicalIndex:
    """A BM25 saved for state `s1` by one process and loaded by the next."""
    saved = SavedLexical(tmp_path, state=lambda: "s1", products=index.products)
    LexicalIndex(lambda: list(index.by_key.values()), saved=saved).persist()
    return LexicalIndex(lambda: [], saved=saved)


def test_a_platform_search_reads_only_that_platforms_hits_in_chunks(tmp_path: Path) -> None:
    index = CountingIndex(catalog())
    lexical = loaded_lexical(tmp_path, index)
    # Every product scores above zero; a price no product has makes the walk read them all.
    unreachable = SearchFilters(platforms=["taobao"], max_price_base=1.0)

    assert lexical.search("wireless headphones " * 50, 100, unreachable) == []

    read = [key for call in index.calls for key in call]
    assert len(read) == 300
    assert all(key.startswith("taobao:") for key in read)
    assert len(index.calls) <= 3


def test_a_platform_search_finds_the_same_hits_as_a_walk_over_everything(
    tmp_path: Path,
) -> None:
    products = catalog()
    index = CountingIndex(products)
    lexical = loaded_lexical(tmp_path, index)
    built = LexicalIndex(lambda: products)
    for platforms in (["amazon"], ["jd", "amazon"], []):
        filters = SearchFilters(platforms=platforms)
        expected = [
            (p.key, s) for p, s in built.search("headphones model 7", 1_000) if filters.accepts(p)
        ][:250]
        got = [(p.key, s) for p, s in lexical.search("headphones model 7", 250, filters)]
        assert got == expected


def test_a_platform_no_document_is_on_finds_nothing(tmp_path: Path) -> None:
    lexical = loaded_lexical(tmp_path, CountingIndex(catalog()))

    assert lexical.search("headphones", 10, SearchFilters(platforms=["walmart"])) == []


def test_a_loaded_bm25_never_reads_the_token_cache(tmp_path: Path) -> None:
    """The token cache only speeds a rebuild; a process that loads the saved BM25 must not
    parse it (18k texts' tokens for the demo catalog) just to search."""
    index = CountingIndex(catalog())
    cache = tmp_path / "tokens.json"
    saved = SavedLexical(tmp_path, state=lambda: "s1", products=index.products)
    LexicalIndex(lambda: list(index.by_key.values()), cache_path=cache, saved=saved).persist()
    assert cache.is_file()
    cache.write_text("not json", encoding="utf-8")  # read it, and the warning is logged
    loaded = LexicalIndex(lambda: [], cache_path=cache, saved=saved)
    hits = loaded.search("wireless headphones model 7", 3)
    assert hits and hits[0][0].title == "wireless headphones model 7"
    assert loaded._cache._loaded is None
