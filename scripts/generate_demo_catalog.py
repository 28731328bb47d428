"""Generate the demo catalog: six platforms, every product type of the taxonomy, deterministic.

    PYTHONPATH=src .venv/bin/python scripts/generate_demo_catalog.py [--out PATH] [--seed N]

Every run with the same seed writes the same bytes (seeded RNG, sorted output, gzip with a
fixed mtime). The catalog is synthetic but shaped like the real platforms:

- every product type of `cartwise/vocabulary/data/taxonomy.yml` (21 domains), each with
  real brands of its trade; a model is a real one (from the fixed table in
  demo_catalog_data.REAL_MODELS, with its real specs) or a plainly generic code or style name
  — never an invented successor of a flagship line;
- each model has one reference price: a real model's street price, else a draw from its type's
  real price distribution (`demo_price_table.json`, the 10th–90th percentiles of real
  listings, from `calibrate_demo_prices.py`) in its brand tier's band of it — no-name and
  budget brands low, premium high, luxury at the top; a type without enough real listings
  keeps its hand-set mid-tier price × the tier. Every calibrated type also has FLOOR_MODELS
  no-name models at the real 10th percentile. Offers vary around the reference per platform
  after FX, within ±25 %, some on sale (the listed `list_price` crossed out), some out of
  stock;
- titles in each platform's own style and language (Chinese on taobao/jd/pinduoduo, English
  on amazon/walmart, mixed on shopee), quoting the specs real listings quote (256GB, 6.1英寸,
  5000mAh, 65W, 1.7L ...) which are also structured attributes; sizes with the equivalences
  shoppers use; ingredients and allergens for food;
- `url` is a product page on the platform's own domain, built from the offer's item id the way
  that platform builds its item links (the demo items do not exist there: a plausible, stable
  per-item link, not a search page); `image_url` is the locally drawn pictogram of
  its type and colour (`cartwise.catalog.images`, served by the web app).
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import random
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from demo_catalog_data import (
    AUTHORS,
    BABY_CM,
    BED,
    BOOK_WORDS_EN,
    BOOK_WORDS_ZH,
    BRANDS,
    CLOTHING_HAO,
    COLORS,
    DIAPER_KG,
    FAMILIES,
    FEATURES,
    FOOD_FACTS,
    GENERIC_BRAND,
    KIDS_SHOE_MM,
    MATERIALS,
    PLATFORMS,
    PROFILES,
    REAL_MODELS,
    REAL_ONLY_BRANDS,
    RING_US,
    SHOE_MM,
    SHOE_US,
    SPEC_TEXT,
    SPECS,
    TIER_FACTOR,
    TYPE_BRANDS,
    TYPE_MATERIALS,
    Brand,
    Family,
    Platform,
)

from cartwise.catalog.brands import mine_brands, write_brands
from cartwise.catalog.images import image_path
from cartwise.catalog.taxonomy import ProductType, domains, product_types

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "src" / "cartwise" / "catalog" / "demo" / "demo_catalog.jsonl.gz"
DEFAULT_SEED = 20261201
MODELS_PER_TYPE = 13
PRICE_TABLE = Path(__file__).resolve().parent / "demo_price_table.json"
TIER_BANDS: dict[str, tuple[float, float]] = {
    "generic": (0.02, 0.30),
    "budget": (0.08, 0.40),
    "mid": (0.30, 0.65),
    "premium": (0.60, 0.90),
    "luxury": (0.88, 0.98),
}
"""Where in its type's real price distribution (as a quantile) a brand tier's models sit."""
FLOOR_MODELS = 2
FLOOR_BAND = (0.02, 0.07)
"""The no-name models every calibrated type gets at its real 10th percentile: the budget
listings every real search shows."""
PRICE_SPREAD = 0.25
"""Every offer's price (after FX, sale included) is within ±25 % of its model's reference."""
SALE_SHARE = 0.18
STOCK_OUT_SHARE = 0.07


@dataclass
class Model:
    """One product model; each platform that sells it gets its own offer."""

    kind: ProductType
    family: Family
    brand: Brand
    name: str
    price_cny: float
    material: str
    colors: list[str]
    sizes: list[str]
    specs: dict[str, str]
    platforms: list[str]
    material_in_description_only: bool = False
    features: list[tuple[str, str]] = field(default_factory=list)
    author: str = ""
    own_rng: random.Random | None = None
    """The generator this model's offers draw from, when not the catalog's shared one."""


@dataclass(frozen=True)
class PriceCurve:
    """A type's real price distribution: price at each quantile, log-linear between them."""

    quantiles: tuple[float, ...]
    prices: tuple[float, ...]

    def at(self, q: float) -> float:
        qs, logs = self.quantiles, [math.log(p) for p in self.prices]
        if q <= qs[0]:
            i = 0
        elif q >= qs[-1]:
            i = len(qs) - 2
        else:
            i = next(k for k in range(len(qs) - 1) if qs[k] <= q <= qs[k + 1])
        slope = (logs[i + 1] - logs[i]) / (qs[i + 1] - qs[i])
        return math.exp(logs[i] + slope * (q - qs[i]))


def load_price_curves(path: Path = PRICE_TABLE) -> dict[str, PriceCurve]:
    table = json.loads(path.read_text(encoding="utf-8"))
    quantiles = tuple(table["quantiles"])
    return {
        slug: PriceCurve(quantiles, tuple(entry["percentiles"]))
        for slug, entry in table["types"].items()
    }


PRICE_CURVES = load_price_curves()


def reference_price(kind: ProductType, brand: Brand, u: float) -> float:
    """A model's reference price in CNY from a uniform draw `u`: inside its tier's band of the
    type's real price curve, or (no real listings) the hand-set mid price × the tier."""
    curve = PRICE_CURVES.get(kind.slug)
    if curve is None:
        return _round_cny(PROFILES[kind.slug][1] * TIER_FACTOR[brand.tier] * (0.8 + 0.45 * u))
    low, high = TIER_BANDS["generic" if brand is GENERIC_BRAND else brand.tier]
    return _round_cny(curve.at(low + (high - low) * u))


def build_models(rng: random.Random) -> list[Model]:
    models = []
    for kind in product_types():
        family_name = PROFILES[kind.slug][0]
        family = FAMILIES[family_name]
        real = REAL_MODELS.get(kind.slug, [])
        for entry in real:
            models.append(
                _model(
                    rng, kind, family, BRANDS[entry.brand], entry.name, entry.price_cny,
                    specs={k: v for k, v in entry.specs.items()},
                    colors=list(entry.colors),
                    platforms=sorted(PLATFORMS) if entry.marquee else None,
                )
            )  # fmt: skip
        brands = [b for b in TYPE_BRANDS.get(kind.slug, family.brands) if b not in REAL_ONLY_BRANDS]
        taken = {(m.brand.en, m.name) for m in models if m.kind is kind}
        attempts = 0
        while brands and len(taken) < max(MODELS_PER_TYPE, len(real) + 4) and attempts < 200:
            attempts += 1
            brand = BRANDS.get(rng.choice(brands), GENERIC_BRAND)
            model_name = _generic_name(rng, family, brand, kind)
            if (brand.en, model_name) in taken:
                continue
            taken.add((brand.en, model_name))
            price = reference_price(kind, brand, rng.random())
            models.append(_model(rng, kind, family, brand, model_name, price))
    return models + floor_models()


def floor_models() -> list[Model]:
    """FLOOR_MODELS no-name models per calibrated type at its real 10th percentile. Each type
    draws from its own generator, so adding them leaves every other model (and its title) as
    it was."""
    models = []
    for kind in product_types():
        curve = PRICE_CURVES.get(kind.slug)
        if curve is None:
            continue
        own = random.Random(f"{DEFAULT_SEED}:floor:{kind.slug}")
        family = FAMILIES[PROFILES[kind.slug][0]]
        taken = {m.name for m in models if m.kind is kind}
        while len(taken) < FLOOR_MODELS:
            name = _generic_name(own, family, GENERIC_BRAND, kind)
            if name in taken:
                continue
            taken.add(name)
            price = _round_cny(curve.at(own.uniform(*FLOOR_BAND)))
            model = _model(own, kind, family, GENERIC_BRAND, name, price)
            model.own_rng = own
            models.append(model)
    return models


def _model(
    rng: random.Random,
    kind: ProductType,
    family: Family,
    brand: Brand,
    name: str,
    price_cny: float,
    *,
    specs: dict[str, str] | None = None,
    colors: list[str] | None = None,
    platforms: list[str] | None = None,
) -> Model:
    chosen = {attr: str(rng.choice(choices)) for attr, choices in SPECS.get(kind.slug, {}).items()}
    chosen.update(specs or {})
    materials = TYPE_MATERIALS.get(kind.slug, family.materials)
    material = chosen.pop("material", "") or (rng.choice(materials) if materials else "")
    return Model(
        kind=kind,
        family=family,
        brand=brand,
        name=name,
        price_cny=price_cny,
        material=material,
        colors=colors or rng.sample(family.colors, k=min(len(family.colors), rng.randint(1, 3))),
        sizes=_sizes(rng, family.sizes),
        specs=chosen,
        platforms=platforms or sorted(rng.sample(sorted(PLATFORMS), k=rng.randint(3, 6))),
        # A listing that names its material only in the description: hard filters must read
        # descriptions, not just the material attribute.
        material_in_description_only=material == "plastic" and rng.random() < 0.35,
        features=rng.sample(_features(family), k=2),
        author=rng.choice(BOOK_AUTHORS) if kind.domain.value == "books" else "",
    )


BOOK_AUTHORS = list(AUTHORS)


def _features(family: Family) -> list[tuple[str, str]]:
    for name, values in FEATURES.items():
        if name != "*" and FAMILIES.get(name) is family:
            return list(values)
    return list(FEATURES["*"])


def _generic_name(rng: random.Random, family: Family, brand: Brand, kind: ProductType) -> str:
    pattern = rng.choice(family.names)
    letters = "".join(w[0] for w in re.findall(r"[A-Za-z]+", brand.en))[:2].upper() or "G"
    if brand is GENERIC_BRAND:
        letters = rng.choice(["HX", "YK", "ZR", "MT", "QL"])
    if pattern == "{B}":
        return f"{rng.choice(BOOK_WORDS_EN)} {rng.choice(BOOK_WORDS_EN)}"
    return (
        pattern.replace("{L}", letters + rng.choice(["", "", "K", "S", "T"]))
        .replace("{N}", str(rng.randrange(100, 1000, 10)))
        .replace("{W}", rng.choice(family.words))
    )


def _sizes(rng: random.Random, run: str) -> list[str]:
    if run == "shoes":
        first = rng.randint(36, 40)
        return [str(s) for s in range(first, rng.randint(max(first + 3, 42), 46) + 1)]
    if run == "kids_shoes":
        first = rng.randint(24, 28)
        return [str(s) for s in range(first, first + rng.randint(4, 7))]
    if run == "clothing":
        return rng.choice([["S", "M", "L", "XL"], ["M", "L", "XL", "XXL"], ["XS", "S", "M", "L"],
                           ["S", "M", "L", "XL", "XXL", "3XL"]])  # fmt: skip
    if run == "diapers":
        keys = list(DIAPER_KG)
        start = rng.randint(0, 3)
        return keys[start : start + rng.randint(2, 3)]
    if run == "baby":
        return list(BABY_CM)[rng.randint(0, 2) :]
    if run == "bed":
        return sorted(rng.sample(list(BED), k=rng.randint(1, 3)))
    if run == "rings":
        return sorted(rng.sample(list(RING_US), k=rng.randint(3, 5)))
    if run == "one_size":
        return ["One Size"]
    return []


def _size_label(size: str, zh: bool) -> str:
    """How a size is listed: taobao & co. write 2XL where amazon writes XXL; 均码 = One Size."""
    if zh and size == "XXL":
        return "2XL"
    if zh and size == "One Size":
        return "均码"
    return size


def _size_equivalents(run: str, sizes: list[str], zh: bool) -> list[str]:
    if run == "clothing":
        return [f"{_size_label(s, zh)}={CLOTHING_HAO[s]}" for s in sizes]
    if run == "shoes":
        return [f"EU{s}=US{SHOE_US[int(s)]}={SHOE_MM[int(s)]}mm" for s in sizes]
    if run == "kids_shoes":
        return [f"EU{s}={KIDS_SHOE_MM[int(s)]}mm" for s in sizes]
    if run == "diapers":
        return [f"{s}={DIAPER_KG[s]}" for s in sizes]
    if run == "baby":
        return [f"{s}cm={BABY_CM[s]}" for s in sizes]
    if run == "bed":
        return [f"{s}={BED[s]}" for s in sizes]
    if run == "rings":
        return [f"US{s}={RING_US[s]}" for s in sizes]
    return []


def _round_cny(amount: float) -> float:
    """A reference price the way a shop would set it: ¥39, ¥299, ¥1,299, ¥4,999."""
    if amount < 20:
        return round(amount, 1)
    if amount < 1000:
        return float(max(9, round(amount / 10) * 10 - 1))
    return float(round(amount / 100) * 100 - 1)


def _retail_price(amount: float, currency: str) -> float:
    """Prices end the way shops end them: ¥299 / ¥1,299 on Chinese platforms, $x.99 else."""
    if currency == "CNY":
        return float(max(9, round(amount / 10) * 10 - 1)) if amount > 30 else round(amount, 1)
    return round(max(0.99, round(amount) - 0.01), 2) if amount > 3 else round(amount, 2)


def offers(rng: random.Random, model: Model) -> list[dict[str, object]]:
    return [_offer(rng, model, PLATFORMS[name]) for name in model.platforms]


def _offer_price(rng: random.Random, model: Model, platform: Platform) -> tuple[float, float]:
    """(price, list price) in the platform's currency; list price 0 when not on sale. Both
    within ±PRICE_SPREAD of the reference after FX (retail rounding included)."""
    ref = model.price_cny
    low, high = ref * (1 - PRICE_SPREAD + 0.03), ref * (1 + PRICE_SPREAD - 0.03)
    usual = min(high, max(low, ref * platform.price_factor * rng.uniform(0.93, 1.07)))
    on_sale = rng.random() < SALE_SHARE
    paid = max(low, usual * rng.uniform(0.8, 0.92)) if on_sale else usual
    to_local = 1 / platform.fx_to_cny
    return _shop_price(paid, ref, to_local, platform.currency), (
        _shop_price(usual, ref, to_local, platform.currency) if on_sale else 0.0
    )


def _shop_price(amount_cny: float, ref: float, to_local: float, currency: str) -> float:
    """The retail-rounded price, unless rounding would leave the ±PRICE_SPREAD band (cheap
    items: ¥27 → ¥29 is +7 %); then the exact price to the cent."""
    price = _retail_price(amount_cny * to_local, currency)
    if abs(price / to_local / ref - 1) > PRICE_SPREAD:
        return round(amount_cny * to_local, 2)
    return price


def _spec_tokens(model: Model, zh: bool) -> list[str]:
    tokens = []
    specs = dict(model.specs)
    if zh and "ram_gb" in specs and "storage_gb" in specs:
        tokens.append(f"{specs.pop('ram_gb')}GB+{_gb(specs.pop('storage_gb'))}")
    for attr, value in specs.items():
        text = SPEC_TEXT[attr][0 if zh else 1]
        shown = _gb(value) if attr == "storage_gb" else value
        tokens.append(
            text.replace("{v}GB", shown) if attr == "storage_gb" else text.format(v=shown)
        )
    return tokens[:3]


def _gb(value: str) -> str:
    number = float(value)
    return f"{number / 1024:g}TB" if number >= 1024 else f"{number:g}GB"


def _offer(rng: random.Random, model: Model, platform: Platform) -> dict[str, object]:
    zh = platform.language == "zh"
    lang = 0 if zh else 1
    kind, brand = model.kind, model.brand
    brand_text = (brand.zh if zh else brand.en) if brand is not GENERIC_BRAND else ""
    material = MATERIALS[model.material][lang] if model.material else ""
    shown_material = "" if model.material_in_description_only else material
    colors = [COLORS[c][lang] for c in model.colors]
    specs = " ".join(_spec_tokens(model, zh))
    name = model.name
    if kind.domain.value == "books":
        name = f"《{_book_zh(model.name)}》" if zh else model.name
    title = _title(platform, model, brand_text, name, specs, shown_material, colors[0], rng)
    attributes: dict[str, list[str]] = {"model": [name], "color": colors}
    if shown_material:
        attributes["material"] = [shown_material]
    if model.sizes:
        attributes["sizes"] = [_size_label(s, zh) for s in model.sizes]
        attributes["size_equivalents"] = _size_equivalents(model.family.sizes, model.sizes, zh)
    for attr, value in model.specs.items():
        attributes[attr] = [value]
    facts = FOOD_FACTS.get(kind.slug)
    if facts:
        ingredients, allergens = (facts[0], facts[2]) if zh else (facts[1], facts[3])
        attributes["ingredients"] = _fact_list(ingredients, zh)
        if allergens:
            attributes["allergens"] = _fact_list(allergens, zh)
        if "weight_g" not in model.specs:
            attributes["net_weight"] = [rng.choice(facts[4].split())]
    if model.author:
        attributes["author"] = [model.author]
    price, list_price = _offer_price(rng, model, platform)
    if list_price > price:
        attributes["list_price"] = [f"{list_price:.2f}"]
    item_id = platform.item_id(rng)
    return {
        "platform": platform.name,
        "item_id": item_id,
        "title": title,
        "brand": brand.en if brand is not GENERIC_BRAND else "",
        "category_raw": _category(platform, kind),
        "domain": kind.domain.value,
        "product_type": kind.slug,
        "price": price,
        "currency": platform.currency,
        "attributes": attributes,
        "description": _description(zh, brand_text, model, name, kind, material, colors),
        "url": platform.product_url(item_id),
        "image_url": image_path(kind.slug, model.colors[0]),
        "rating": round(rng.uniform(3.6, 5.0), 1),
        "reviews": int(rng.paretovariate(1.2) * 40),
        "in_stock": rng.random() > STOCK_OUT_SHARE,
    }


def _fact_list(text: str, zh: bool) -> list[str]:
    """Chinese facts are space-separated ("牛奶 大豆"), English ones comma-separated."""
    return text.split() if zh else [item.strip() for item in text.split(",")]


def _book_zh(name: str) -> str:
    first, second = name.split(" ", 1)
    return BOOK_WORDS_ZH[BOOK_WORDS_EN_INDEX[first]] + BOOK_WORDS_ZH[BOOK_WORDS_EN_INDEX[second]]


BOOK_WORDS_EN_INDEX = {w: i for i, w in enumerate(BOOK_WORDS_EN)}
_DOMAIN_NAMES = {d.domain: d for d in domains()}


def _category(platform: Platform, kind: ProductType) -> str:
    names = _DOMAIN_NAMES[kind.domain]
    if platform.name in ("taobao", "jd"):
        return f"{names.zh} > {kind.zh}"
    if platform.name == "pinduoduo":
        return kind.zh
    if platform.name == "amazon":
        return f"{names.en} › {kind.en}"
    if platform.name == "walmart":
        return f"{names.en}/{kind.en}"
    return f"{names.en} > {kind.en}"


def _title(
    platform: Platform,
    model: Model,
    brand: str,
    name: str,
    specs: str,
    material: str,
    color: str,
    rng: random.Random,
) -> str:
    kind = model.kind
    tag = rng.choice(platform.tags) if platform.tags else ""
    latin_brand = (
        model.brand.en if model.brand.en != brand and model.brand is not GENERIC_BRAND else ""
    )
    if platform.name == "taobao":
        parts = [brand, latin_brand, name, kind.zh, specs, material, tag]
    elif platform.name == "jd":
        head = f"{brand}（{latin_brand}）" if latin_brand else brand
        parts = [
            "【京东自营】" if rng.random() < 0.5 else "",
            head,
            name,
            kind.zh,
            specs,
            material,
            color,
        ]
    elif platform.name == "pinduoduo":
        parts = [f"【{tag}】" if tag else "", brand, name, kind.zh, specs, color]
    elif platform.name == "amazon":
        tail = ", ".join(p for p in (specs, material) if p)
        return _tidy(f"{brand} {name} {kind.en}" + (f", {tail}" if tail else "") + f" - {color}")
    elif platform.name == "walmart":
        return _tidy(f"{brand} {name} {kind.en}" + (f", {specs}" if specs else "") + f", {color}")
    else:
        parts = [
            tag,
            model.brand.en if model.brand is not GENERIC_BRAND else "",
            name,
            kind.en,
            kind.zh,
            specs,
        ]
    return _tidy(" ".join(p for p in parts if p))


def _tidy(title: str) -> str:
    return " ".join(title.split())


def _description(
    zh: bool,
    brand: str,
    model: Model,
    name: str,
    kind: ProductType,
    material: str,
    colors: list[str],
) -> str:
    features = [f[0 if zh else 1] for f in model.features]
    facts = FOOD_FACTS.get(kind.slug)
    if zh:
        parts = [f"{brand} {name} {kind.zh}。".strip()]
        if model.author:
            parts.append(f"作者：{model.author}。")
        if material and not model.material_in_description_only:
            parts.append(f"{material}材质。")
        if model.material_in_description_only:
            parts.append("外壳采用ABS塑料，轻便耐用。")
        parts.append(f"颜色：{'、'.join(colors)}。")
        parts.extend(f"{f}。" for f in features)
        if model.sizes:
            parts.append(f"尺码：{' '.join(_size_label(s, True) for s in model.sizes)}。")
        if facts:
            parts.append(
                f"配料：{facts[0]}。" + (f"含{facts[2]}。" if facts[2] else "不含常见过敏原。")
            )
        return "".join(parts)
    parts = [f"{brand} {name} {kind.en}.".strip()]
    if model.author:
        parts.append(f"By {model.author}.")
    if material and not model.material_in_description_only:
        parts.append(f"Made of {material}.")
    if model.material_in_description_only:
        parts.append("Lightweight ABS plastic housing.")
    parts.append(f"Colors: {', '.join(colors)}.")
    parts.extend(f"{f[0].upper()}{f[1:]}." for f in features)
    if model.sizes:
        parts.append(f"Sizes: {' '.join(model.sizes)}.")
    if facts:
        parts.append(f"Ingredients: {facts[1]}." + (f" Contains {facts[3]}." if facts[3] else ""))
    return " ".join(parts)


def generate(seed: int) -> bytes:
    rng = random.Random(seed)
    rows = [row for model in build_models(rng) for row in offers(model.own_rng or rng, model)]
    seen: set[tuple[object, object]] = set()
    unique = []
    for row in rows:
        key = (row["platform"], row["item_id"])
        if key not in seen:
            seen.add(key)
            unique.append(row)
    unique.sort(key=lambda r: (str(r["platform"]), str(r["item_id"])))
    text = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in unique)
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = parser.parse_args()
    data = generate(args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(data)
    count = gzip.decompress(data).count(b"\n")
    print(f"wrote {count} products ({len(data) / 1024:.0f} KiB) to {args.out}")
    # Mined here, once: a process that starts reads them in milliseconds.
    brands = args.out.parent / "demo_brands.json"
    write_brands(brands, mine_brands(demo_brand_rows(data)), products=count)
    print(f"wrote the brands of the demo catalog to {brands}")


def demo_brand_rows(data: bytes) -> list[tuple[str, str, str]]:
    """(brand, title, domain) of each generated row, what `mine_brands` reads."""
    rows = [json.loads(line) for line in gzip.decompress(data).decode("utf-8").splitlines()]
    return [
        (str(r.get("brand", "")), str(r.get("title", "")), str(r.get("domain", ""))) for r in rows
    ]


if __name__ == "__main__":
    main()
