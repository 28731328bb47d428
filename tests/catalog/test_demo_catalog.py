"""The committed demo catalog: reproducible from its script, broad (every taxonomy type on six
platforms), realistic (one reference price per model, real model names only from the fixed
table), linked (platform search pages) and pictured (pictograms the app draws)."""

from __future__ import annotations

import importlib.util
import random
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from cartwise.catalog.demo import DEMO_PLATFORMS, demo_catalog_path
from cartwise.catalog.ingest import ReaderOptions, RowError, read_catalog
from cartwise.catalog.product import Domain, Product
from cartwise.catalog.taxonomy import product_types
from cartwise.eval.catalog import PRODUCT_HOSTS, image_resolves, is_product_page
from cartwise.vocabulary import fx_to_base

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"

# The whole committed catalog is read and checked: seconds, not milliseconds.
pytestmark = pytest.mark.slow


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
    items = list(read_catalog(demo_catalog_path(), "jsonl", ReaderOptions(fx_to_base=fx_to_base())))
    assert not [i for i in items if isinstance(i, RowError)]
    return [i for i in items if isinstance(i, Product)]


def test_generator_is_deterministic_and_matches_the_committed_file(generator: Any) -> None:
    first = generator.generate(generator.DEFAULT_SEED)
    assert first == generator.generate(generator.DEFAULT_SEED)
    assert first == demo_catalog_path().read_bytes(), "stale demo catalog: run `make demo-catalog`"
    assert generator.generate(generator.DEFAULT_SEED + 1) != first
    assert len(first) < 3 * 1024 * 1024


def test_six_platforms_every_domain_and_type_fifteen_thousand_offers(
    products: list[Product],
) -> None:
    assert len(products) >= 15_000
    assert {p.platform for p in products} == set(DEMO_PLATFORMS)
    domains = Counter(p.domain.value for p in products)
    assert len(domains) >= 20 and min(domains.values()) >= 100
    assert set(domains) == {d.value for d in Domain} - {Domain.OTHER.value}
    types = Counter(p.product_type for p in products)
    assert len(types) >= 150 and set(types) == {t.slug for t in product_types()}
    assert min(types.values()) >= 15, types.most_common()[-3:]
    kinds = {t.slug: t for t in product_types()}
    assert all(kinds[p.product_type].domain is p.domain for p in products)
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
    for english, chinese in [
        ("leather", "真皮"),
        ("wool", "羊毛"),
        ("cotton", "纯棉"),
        ("polyester", "涤纶"),
    ]:
        assert {english, chinese} & jacket_materials, english
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


def test_shoppers_find_what_a_general_store_carries(products: list[Product]) -> None:
    """The kinds of request the old catalog answered with desk lamps and wool coats."""
    for name in ("书架", "bookshelf", "雨衣", "raincoat", "umbrella", "积木", "toy car", "猫粮"):
        hits = [p for p in products if name.casefold() in p.title.casefold()]
        assert len(hits) >= 20, name


def test_every_offer_links_to_its_own_product_page(products: list[Product]) -> None:
    assert set(PRODUCT_HOSTS) == set(DEMO_PLATFORMS)
    assert all(is_product_page(product) for product in products)
    assert len({p.url for p in products}) == len(products)


def test_every_offer_has_a_picture_of_its_type_in_its_colour(products: list[Product]) -> None:
    assert all(image_resolves(p) for p in products)
    assert all(p.image_url.startswith(f"/images/{p.product_type}/") for p in products)
    assert len({p.image_url for p in products}) >= 500


def test_specs_sizes_and_food_facts_are_structured_and_in_titles(
    products: list[Product],
) -> None:
    phones = [p for p in products if p.product_type == "smartphone"]
    for phone in phones:
        storage = phone.attributes["storage_gb"][0]
        assert {"storage_gb", "screen_in", "battery_mah"} <= set(phone.attributes)
        shown = f"{int(storage) // 1024}TB" if int(storage) >= 1024 else f"{storage}GB"
        assert shown in phone.title, phone.title
    chocolate = [p for p in products if p.product_type == "chocolate"]
    assert all(p.attributes["allergens"] and p.attributes["ingredients"] for p in chocolate)
    assert any("milk" in p.attributes["allergens"] for p in chocolate)
    assert any("牛奶" in p.attributes["allergens"] for p in chocolate)
    nuts = [p for p in products if p.product_type == "mixed_nuts"]
    assert all(p.attributes["allergens"] in (["tree nuts"], ["坚果"]) for p in nuts)
    # Sizes carry the equivalences shoppers convert with (2XL = XXL; EU 42 = US 8.5).
    zh_shirts = [p for p in products if p.product_type == "tshirt" and p.platform == "jd"]
    assert any("2XL" in p.sizes for p in zh_shirts)
    assert not any("XXL" in p.sizes for p in zh_shirts)
    shoe_equivalents = {
        e
        for p in products
        if p.domain is Domain.SHOES
        for e in p.attributes.get("size_equivalents", [])
    }
    assert "EU42=US8.5=260mm" in shoe_equivalents
    shelves = [p for p in products if p.product_type == "bookshelf"]
    assert all(re.fullmatch(r"\d+x\d+x\d+", p.attributes["dimensions_cm"][0]) for p in shelves)


def test_sales_and_stock_outs_occur(products: list[Product]) -> None:
    on_sale = [p for p in products if "list_price" in p.attributes]
    assert 0.1 * len(products) < len(on_sale) < 0.3 * len(products)
    assert all(float(p.attributes["list_price"][0]) > p.price for p in on_sale)
    out = sum(not p.in_stock for p in products)
    assert 0.03 * len(products) < out < 0.12 * len(products)


def test_each_model_has_one_reference_price_its_offers_stay_within_25_percent_of(
    generator: Any,
) -> None:
    rng = random.Random(generator.DEFAULT_SEED)
    models = generator.build_models(rng)
    for model in models:
        for row in generator.offers(model.own_rng or rng, model):
            price_cny = row["price"] * fx_to_base()[row["currency"]]
            assert abs(price_cny / model.price_cny - 1) <= 0.25, (model.name, row["platform"])


def test_reference_prices_keep_the_brand_tier_on_the_real_price_curve(generator: Any) -> None:
    """A Lululemon mat is not $6.99, a Bose headphone not ¥99, a no-name power bank not ¥900:
    a generated model's price sits in its brand tier's band of its type's real price curve
    (no real curve: the type's mid-tier price × the tier factor), so within a type every
    premium model costs more than every no-name one."""
    data = sys.modules["demo_catalog_data"]
    real = {(m.brand, m.name) for ms in data.REAL_MODELS.values() for m in ms}
    by_tier: dict[tuple[str, str], list[float]] = defaultdict(list)
    for model in generator.build_models(random.Random(generator.DEFAULT_SEED)):
        if (model.brand.en, model.name) in real:
            continue
        # Shop rounding moves a price by up to ¥10 below ¥1,000, ¥100 above.
        rounding = 10 if model.price_cny < 1000 else 100
        curve = generator.PRICE_CURVES.get(model.kind.slug)
        tier = "generic" if model.brand is data.GENERIC_BRAND else model.brand.tier
        if curve is None:
            base = data.PROFILES[model.kind.slug][1] * data.TIER_FACTOR[model.brand.tier]
            low, high = 0.8 * base, 1.25 * base
        else:
            band = generator.TIER_BANDS[tier]
            low, high = curve.at(band[0]), curve.at(band[1])
            by_tier[(model.kind.slug, tier)].append(model.price_cny)
        assert low - rounding <= model.price_cny <= high + rounding, (model.brand.en, model.name)
    compared = 0
    for (slug, tier), prices in by_tier.items():
        if tier == "generic" and (slug, "premium") in by_tier:
            assert max(prices) < min(by_tier[(slug, "premium")]), slug
            compared += 1
    assert compared >= 20


def test_every_calibrated_type_has_offers_at_its_real_tenth_percentile(
    generator: Any, products: list[Product]
) -> None:
    """The budget listings every real search shows: for each type priced from real listings,
    in-stock offers at or under the real 10th percentile."""
    table = generator.json.loads(generator.PRICE_TABLE.read_text(encoding="utf-8"))["types"]
    assert len(table) >= 100
    for slug, entry in table.items():
        p10 = entry["percentiles"][0]
        cheap = [
            p for p in products if p.product_type == slug and p.in_stock and p.price_base <= p10
        ]
        assert len(cheap) >= 2, (slug, p10)


def test_no_fictional_successor_of_a_real_flagship(generator: Any, products: list[Product]) -> None:
    """ "Apple iPhone 317" is wrong: flagship lines appear only with the models of the fixed
    table, and brands that only sell real models never get a generated one."""
    data = sys.modules["demo_catalog_data"]
    real = defaultdict(set)
    for models in data.REAL_MODELS.values():
        for model in models:
            real[model.brand].add(model.name)
    for product in products:
        model = product.attributes["model"][0]
        if any(line.casefold() in model.casefold() for line in data.FLAGSHIP_LINES):
            assert model in real[product.brand], (product.brand, model)
        if product.brand in data.REAL_ONLY_BRANDS:
            assert model in real[product.brand], (product.brand, model)
    assert not re.search(r"iPhone \d{3}", " ".join(p.title for p in products))
    generic = [
        m.name for m in generator.build_models(random.Random(1)) if m.name not in real[m.brand.en]
    ]
    assert generic and not any(
        line.casefold() in name.casefold() for name in generic for line in data.FLAGSHIP_LINES
    )
