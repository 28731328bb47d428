"""Writes `docs/catalog.md` from the taxonomy, so the published list cannot drift.

Run `PYTHONPATH=src python scripts/gen_catalog_doc.py`; `tests/catalog/test_taxonomy.py`
fails when the document is stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

from cartwise.catalog.taxonomy import domains, product_types

HEADER = """\
# What the store carries

Generated from `src/cartwise/vocabulary/data/taxonomy.yml` by `scripts/gen_catalog_doc.py`
— edit there. The demo catalog (`src/cartwise/catalog/demo/`) has offers of every type below
on six platforms; a request for anything else is answered as "not carried". Each type lists
its display names first, then the synonyms shoppers use; `cartwise.catalog.taxonomy`
(`product_types()`, `types_named_in(text)`) reads the same file.
"""


def render() -> str:
    types = product_types()
    lines = [HEADER, f"{len(domains())} domains, {len(types)} product types.", ""]
    for info in domains():
        members = [t for t in types if t.domain is info.domain]
        lines += [
            f"## {info.en} · {info.zh} (`{info.domain.value}`, {len(members)} types)",
            "",
            "| type | English | 中文 |",
            "|---|---|---|",
        ]
        lines += [
            f"| `{t.slug}` | {', '.join(t.en_names)} | {'、'.join(t.zh_names)} |" for t in members
        ]
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    target = Path(__file__).resolve().parents[1] / "docs" / "catalog.md"
    target.write_text(render(), encoding="utf-8")
    sys.stdout.write(f"wrote {target}\n")
