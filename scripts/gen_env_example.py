"""Writes `.env.example` from the Settings class, so the documentation cannot drift.

Run `python scripts/gen_env_example.py`; `tests/test_settings.py` fails when it is stale.
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

from pydantic_core import PydanticUndefined

from cartwise.settings import Settings
from cartwise.vocabulary import currency_table

HEADER = """\
# Cartwise settings. Copy to `.env` (or export as environment variables) and edit.
# Every variable is optional; the values shown are the embedded defaults.
# Generated from src/cartwise/settings.py by scripts/gen_env_example.py — edit there.
"""


def _default(name: str) -> str:
    field = Settings.model_fields[name]
    value = field.default_factory() if field.default_factory else field.default  # type: ignore[call-arg]
    if value is PydanticUndefined:
        return ""
    if isinstance(value, dict | list):
        return json.dumps(value, separators=(",", ":"))
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def render() -> str:
    blocks = [HEADER]
    for name, field in Settings.model_fields.items():
        doc = (field.description or "").replace("FX_RATES_DATE", currency_table().rates_date)
        comment = "\n".join(f"# {line}" for line in textwrap.wrap(" ".join(doc.split()), 92))
        blocks.append(f"{comment}\n{name.upper()}={_default(name)}\n")
    return "\n".join(blocks)


if __name__ == "__main__":
    target = Path(__file__).resolve().parents[1] / ".env.example"
    target.write_text(render(), encoding="utf-8")
    sys.stdout.write(f"wrote {target}\n")
