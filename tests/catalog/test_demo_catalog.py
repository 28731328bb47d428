"""The committed demo catalog: reproducible from its script, and rich enough for every filter."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from cartwise.catalog.demo import DEMO_PLATFORMS, demo_catalog_path
from cartwise.catalog.ingest import ReaderOptions, RowError, read_catalog
from cartwise.catalog.product import Product
from cartwise.settings import DEFAULT_FX_TO_CNY

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


@pytest.fixture(scope="module")
def generator() -> Iterator[ModuleType]:
    sys.path.insert(0, str(SCRIPTS))
    spec = importlib.util.spec_from_file_location(
        "generate_demo_catalog", SCRIPTS / "generate_demo_catalog.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while defining
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop(spec.name, None)
        sys.modules.pop("demo_catalog_data", None)
        sys.path.remove(str(SCRIPTS))


@pytest.fixture(scope="module")
def products() -> list[Product]:
    items = list(
        read_catalog(demo_catalog_path(), "jsonl", ReaderOptions(fx_to_base=DEFAULT_FX_TO_CNY))
    )
    assert not [i for i in items if isinstance(i, RowError)]
    return [i for i in items if isinstance(i, Product)]


def test_generator_is_deterministic_and_matches_the_committed_file(generator: Any) -> None:
    first = generator.generate(generator.DEFAULT_SEED)
    assert first == generator.generate(generator.DEFAULT_SEED)
    assert first == demo_catalog_path().read_bytes(), "stale demo catalog: run `make demo-catalog`"
    assert generator.generate(generator.DEFAULT_SEED + 1) != first
    assert len(first) < 2 * 1024 * 1024


def test_six_platforms_eight_domains_three_thousand_products(products: list[Product]) -> None:
    assert len(products) >= 3000
    assert {p.platform for p in products} == set(DEMO_PLATFORMS)
    domains = Counter(p.domain.value for p in products)
    assert len(domains) >= 8 and min(domains.values()) >= 100
    currencies = {p.platform: p.currency for p in products}
    assert currencies["taobao"] == currencies["jd"] == currencies["pinduoduo"] == "CNY"
    assert currencies["amazon"] == currencies["walmart"] == "USD"
    assert currencies["shopee"] in {"SGD", "MYR"}


def test_each_platform_has_its_own_category_style_and_language(products: list[Product]) -> None:
    def sample(platform: str) -> list[Product]:
        return [p for p in products if p.platform == platform]

    assert all(" > " in p.category_raw for p in sample("taobao"))
    assert all("›" in p.category_raw for p in sample("amazon"))
    assert all("/" in p.category_raw and " > " not in p.category_raw for p in sample("walmart"))
    has_chinese = lambda text: any("\u4e00" <= ch <= "\u9fff" for ch in text)  # noqa: E731
    for platform in ("taobao", "jd", "pinduoduo"):
        assert sum(has_chinese(p.title) for p in sample(platform)) > 0.9 * len(sample(platform))
    assert not any(has_chinese(p.title) for p in sample("walmart"))
    assert all(
        has_chinese(p.title) and any(c.isascii() and c.isalpha() for c in p.title)
        for p in sample("shopee")
    )


def _headphones(products: list[Product]) -> list[Product]:
    return [p for p in products if "耳机" in p.title or "Headphones" in p.title]


def test_headphones_come_in_plastic_metal_and_wood_some_only_described(
    products: list[Product],
) -> None:
    materials = {
        m.casefold() for p in _headphones(products) for m in p.attributes.get("material", [])
    }
    assert {"plastic", "塑料", "metal", "金属", "wood", "实木"} <= materials
    described_only = [
        p for p in _headphones(products)
        if "material" not in p.attributes and ("塑料" in p.description or "plastic" in p.description)
    ]  # fmt: skip
    assert len(described_only) >= 10


def test_jackets_shoes_and_colors_cover_the_hard_filters(products: list[Product]) -> None:
    jackets = [p for p in products if "夹克" in p.title or "Jacket" in p.title]
    jacket_materials = {m.casefold() for p in jackets for m in p.attributes.get("material", [])}
    assert {"leather", "wool", "cotton", "polyester"} <= jacket_materials
    shoe_sizes = {s for p in products if p.domain.value == "shoes" for s in p.sizes}
    assert {str(s) for s in range(36, 47)} <= shoe_sizes
    shoes = [p for p in products if p.domain.value == "shoes"]
    partial = [p for p in shoes if 0 < len(p.sizes) < 11]
    assert len(partial) > 0.8 * len(shoes), "a size filter must cut most shoes, not none"
    colors = {c for p in products for c in p.attributes.get("color", [])}
    assert len(colors) >= 10


def test_budget_cuts_some_headphones_and_models_repeat_across_platforms(
    products: list[Product],
) -> None:
    prices = [p.price_base for p in _headphones(products)]
    assert any(p <= 300 for p in prices) and any(p > 300 for p in prices)
    xm5 = [p for p in products if "WH-1000XM5" in p.title]
    assert {p.platform for p in xm5} == set(DEMO_PLATFORMS)
    assert len({round(p.price_base) for p in xm5}) == len(DEMO_PLATFORMS)
