"""Things shops do not sell as goods (`data/gaps.yml`): services, tickets and trips,
financial products (`not_goods`), and kinds of things no general store carries — vehicles,
property, prescription medicine, live animals, weapons (`never_carried`). The words only:
whether a request is out of the catalog's scope is the reader's decision."""

from __future__ import annotations

from functools import cache

from cartwise.errors import ConfigurationError
from cartwise.vocabulary.files import data_file, words

GROUPS = ("not_goods", "never_carried")


@cache
def gap_words() -> dict[str, dict[str, tuple[str, ...]]]:
    """Group (`not_goods`, `never_carried`) → gap kind → words, in file order."""
    data = data_file("gaps")
    try:
        return {
            group: {kind: words(ws, f"gaps {group}.{kind}") for kind, ws in data[group].items()}
            for group in GROUPS
        }
    except (KeyError, AttributeError) as exc:
        raise ConfigurationError(f"vocabulary/data/gaps.yml is malformed: {exc}") from exc


@cache
def goods_heads() -> tuple[str, ...]:
    """Chinese words that make a gap word before them the modifier of goods (洗车机)."""
    return words(data_file("gaps").get("goods_heads", []), "gaps goods_heads")
