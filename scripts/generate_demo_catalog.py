"""Generate the demo catalog: six platforms, ≥ 3,000 offers, ≥ 8 domains, deterministic.

    .venv/bin/python scripts/generate_demo_catalog.py [--out PATH] [--seed N]

Every run with the same seed writes the same bytes (seeded RNG, sorted output, gzip with a
fixed mtime). The catalog is synthetic but shaped like the real platforms: each platform
titles and files products its own way (Chinese on taobao/jd/pinduoduo, English on
amazon/walmart, mixed on shopee) and lists its own currency. Attributes cover every hard
filter: headphones in plastic, metal and wood (some say "plastic" only in the description),
jackets in leather, wool, cotton and polyester, shoes in size runs from 36 to 46, many
colors, budgets that cut some candidates, and famous models sold on several platforms at
different prices for price comparison.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from demo_catalog_data import (
    BRANDS,
    COLORS,
    KINDS,
    MARQUEE,
    MATERIALS,
    PLATFORMS,
    Kind,
    Platform,
)

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "src" / "cartwise" / "catalog" / "demo" / "demo_catalog.jsonl.gz"
DEFAULT_SEED = 20261101
MODELS_PER_KIND = 30


@dataclass
class Model:
    """One product model; each platform that sells it gets its own offer."""

    kind: Kind
    brand: str
    model: str
    material: str
    colors: list[str]
    sizes: list[str]
    price_cny: float
    platforms: list[str]
    material_in_description_only: bool = False
    features: list[str] = field(default_factory=list)


def build_models(rng: random.Random) -> list[Model]:
    models = [
        Model(
            kind=KINDS[m.kind],
            brand=m.brand,
            model=m.model,
            material=m.material,
            colors=list(m.colors),
            sizes=_sizes(rng, KINDS[m.kind]),
            price_cny=m.price_cny,
            platforms=list(PLATFORMS),
            features=rng.sample(KINDS[m.kind].features, k=min(2, len(KINDS[m.kind].features))),
        )
        for m in MARQUEE
    ]
    taken = {(m.brand, m.model) for m in models}
    for kind in KINDS.values():
        for _ in range(MODELS_PER_KIND):
            brand = rng.choice(kind.brands)
            model = _model_name(rng, kind, brand)
            if (brand, model) in taken:
                continue
            taken.add((brand, model))
            material = rng.choice(kind.materials) if kind.materials else ""
            low, high = kind.price_cny
            models.append(
                Model(
                    kind=kind,
                    brand=brand,
                    model=model,
                    material=material,
                    colors=rng.sample(kind.colors, k=min(len(kind.colors), rng.randint(1, 3))),
                    sizes=_sizes(rng, kind),
                    price_cny=round(low * (high / low) ** rng.random(), 0),
                    platforms=rng.sample(list(PLATFORMS), k=rng.randint(2, 6)),
                    # A listing that names its material only in the description: hard
                    # filters must read descriptions, not just the material attribute.
                    material_in_description_only=material == "plastic" and rng.random() < 0.35,
                    features=rng.sample(kind.features, k=min(2, len(kind.features))),
                )
            )
    return models


def _model_name(rng: random.Random, kind: Kind, brand: str) -> str:
    prefix = rng.choice(kind.model_prefixes.get(brand) or kind.model_prefixes["*"])
    return f"{prefix}{rng.randint(10, 990)}{rng.choice(['', '', 'S', 'Pro', 'Plus', 'X'])}".strip()


def _sizes(rng: random.Random, kind: Kind) -> list[str]:
    if kind.size_run == "shoes":
        first = rng.randint(36, 40)
        return [str(s) for s in range(first, rng.randint(max(first + 3, 42), 46) + 1)]
    if kind.size_run == "clothing":
        return rng.choice([["S", "M", "L", "XL"], ["M", "L", "XL", "XXL"], ["XS", "S", "M", "L"]])
    if kind.size_run == "diapers":
        return rng.sample(["NB", "S", "M", "L", "XL"], k=rng.randint(2, 4))
    return []


def offers(rng: random.Random, model: Model) -> list[dict[str, object]]:
    rows = []
    for platform_name in sorted(model.platforms):
        platform = PLATFORMS[platform_name]
        price_cny = model.price_cny * platform.price_factor * rng.uniform(0.9, 1.1)
        rows.append(_offer(rng, model, platform, price_cny))
    return rows


def _offer(
    rng: random.Random, model: Model, platform: Platform, price_cny: float
) -> dict[str, object]:
    zh = platform.language == "zh"
    kind, brand = model.kind, BRANDS[model.brand]
    brand_text = brand.zh if zh and brand.zh else brand.en
    material = MATERIALS[model.material][0 if zh else 1] if model.material else ""
    colors = [COLORS[c][0 if zh else 1] for c in model.colors]
    kind_name = kind.zh if zh else kind.en
    title = platform.title.format(
        brand=brand_text,
        brand_en=brand.en if brand_text != brand.en else "",
        model=model.model,
        kind=kind_name,
        kind_zh=kind.zh,
        kind_en=kind.en,
        material=material if not model.material_in_description_only else "",
        color=colors[0],
        tag=rng.choice(platform.tags) if platform.tags else "",
    )
    # A brand with no separate English name leaves "（）" in JD's template, and a Latin brand
    # glued to its model ("MarshallH320S") in Pinduoduo's; real listings have neither.
    title = title.replace("（）", " ")
    if brand_text.isascii():
        title = title.replace(f"{brand_text}{model.model}", f"{brand_text} {model.model}")
    title = " ".join(title.split())
    attributes: dict[str, list[str]] = {"model": [model.model], "color": colors}
    if model.material and not model.material_in_description_only:
        attributes["material"] = [material]
    if model.sizes:
        attributes["sizes"] = list(model.sizes)
    features = [kind.feature_text[f][0 if zh else 1] for f in model.features]
    description = _description(zh, brand_text, model, kind_name, material, colors, features)
    price = _retail_price(price_cny / platform.fx_to_cny, platform.currency)
    return {
        "platform": platform.name,
        "item_id": platform.item_id(rng),
        "title": _tidy(title),
        "brand": brand.en,
        "category_raw": platform.category(kind),
        "domain": kind.domain,
        "price": price,
        "currency": platform.currency,
        "attributes": attributes,
        "description": description,
        "url": "",
        "image_url": "",
        "rating": round(rng.uniform(3.6, 5.0), 1),
        "reviews": int(rng.paretovariate(1.2) * 40),
        "in_stock": rng.random() > 0.08,
    }


def _tidy(title: str) -> str:
    """Drop the separators an empty slot leaves behind ("Foo ,  - Black" → "Foo - Black")."""
    title = re.sub(r"\s*,\s*(?=-|$)", " ", title)
    return " ".join(title.split())


def _description(
    zh: bool,
    brand: str,
    model: Model,
    kind_name: str,
    material: str,
    colors: list[str],
    features: list[str],
) -> str:
    if zh:
        parts = [f"{brand} {model.model} {kind_name}。"]
        if material:
            parts.append(f"{material}材质。" if not model.material_in_description_only else "")
        if model.material_in_description_only:
            parts.append("外壳采用ABS塑料，轻便耐用。")
        parts.append(f"颜色：{'、'.join(colors)}。")
        parts.extend(f"{f}。" for f in features)
        if model.sizes:
            parts.append(f"尺码：{' '.join(model.sizes)}。")
        return "".join(parts)
    parts = [f"{brand} {model.model} {kind_name}."]
    if material and not model.material_in_description_only:
        parts.append(f"Made of {material}.")
    if model.material_in_description_only:
        parts.append("Lightweight ABS plastic housing.")
    parts.append(f"Colors: {', '.join(colors)}.")
    parts.extend(f"{f[0].upper()}{f[1:]}." for f in features)
    if model.sizes:
        parts.append(f"Sizes: {' '.join(model.sizes)}.")
    return " ".join(parts)


def _retail_price(amount: float, currency: str) -> float:
    """Prices end the way shops end them: ¥299 / ¥1,299 on Chinese platforms, $x.99 else."""
    if currency == "CNY":
        return float(max(9, round(amount / 10) * 10 - 1)) if amount > 20 else round(amount, 1)
    return round(max(0.99, round(amount) - 0.01), 2)


def generate(seed: int) -> bytes:
    rng = random.Random(seed)
    rows = [row for model in build_models(rng) for row in offers(rng, model)]
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


if __name__ == "__main__":
    main()
