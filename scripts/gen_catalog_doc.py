"""Writes `docs/catalog.md` from the taxonomy and the demo catalog, so the published list and
its prices cannot drift.

Run `PYTHONPATH=src python scripts/gen_catalog_doc.py`; `tests/catalog/test_taxonomy.py`
fails when the document is stale.
"""

from __future__ import annotations

import gzip
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from calibrate_demo_prices import QUANTILES, TABLE, quantile

from cartwise.catalog.demo import demo_catalog_path
from cartwise.catalog.taxonomy import domains, product_types
from cartwise.vocabulary import fx_to_base

HEADER = """\
# What the store carries

Generated from `src/cartwise/vocabulary/data/taxonomy.yml` by `scripts/gen_catalog_doc.py`
— edit there. The demo catalog (`src/cartwise/catalog/demo/`) has offers of every type below
on six platforms; a request for anything else is answered as "not carried". Each type lists
its display names first, then the synonyms shoppers use; `cartwise.catalog.taxonomy`
(`product_types()`, `types_named_in(text)`) reads the same file.

Prices are the demo offers' 10th / 50th / 90th percentiles in CNY (`price_base`), beside the
real listings' they were calibrated on (`scripts/demo_price_table.json`, from
`scripts/calibrate_demo_prices.py`; how: `docs/reports/demo-prices.md`). "—": too few real
listings of the type, so its demo prices keep their hand-set level.
"""


def demo_prices() -> dict[str, list[float]]:
    """Type slug → the sorted CNY prices of its demo offers."""
    prices: dict[str, list[float]] = defaultdict(list)
    with gzip.open(demo_catalog_path(), "rt", encoding="utf-8") as rows:
        for line in rows:
            row = json.loads(line)
            prices[row["product_type"]].append(row["price"] * fx_to_base()[row["currency"]])
    return {slug: sorted(values) for slug, values in prices.items()}


def _money(value: float) -> str:
    return f"{value:,.0f}" if value >= 10 else f"{value:.1f}"


def _price_cells(demo: list[float], real: dict[str, object] | None) -> str:
    picks = [QUANTILES.index(q) for q in (0.10, 0.50, 0.90)]
    ours = " / ".join(_money(quantile(demo, QUANTILES[i])) for i in picks) if demo else "—"
    if real is None:
        return f"{ours} | —"
    percentiles = real["percentiles"]
    assert isinstance(percentiles, list)
    return f"{ours} | {' / '.join(_money(percentiles[i]) for i in picks)} ({real['n']})"


def render() -> str:
    types = product_types()
    prices = demo_prices()
    real = json.loads(TABLE.read_text(encoding="utf-8"))["types"]
    lines = [HEADER, f"{len(domains())} domains, {len(types)} product types.", ""]
    for info in domains():
        members = [t for t in types if t.domain is info.domain]
        lines += [
            f"## {info.en} · {info.zh} (`{info.domain.value}`, {len(members)} types)",
            "",
            "| type | English | 中文 | demo ¥ p10 / p50 / p90 | real ¥ p10 / p50 / p90 (n) |",
            "|---|---|---|---|---|",
        ]
        lines += [
            f"| `{t.slug}` | {', '.join(t.en_names)} | {'、'.join(t.zh_names)} | "
            f"{_price_cells(prices.get(t.slug, []), real.get(t.slug))} |"
            for t in members
        ]
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    target = Path(__file__).resolve().parents[1] / "docs" / "catalog.md"
    target.write_text(render(), encoding="utf-8")
    sys.stdout.write(f"wrote {target}\n")
