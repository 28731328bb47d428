"""Price-history cues (`data/price_cues.yml`): the words that ask about a shown item's price
over time — is now a good price, what was its lowest — or ask to be told when it drops or
comes back in stock. Its header says what each group means."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from cartwise.errors import ConfigurationError
from cartwise.vocabulary.files import data_file, words

PRICE_CUE_GROUPS = ("deal", "lowest", "notify", "drop", "stock")


@dataclass(frozen=True)
class PriceCues:
    """One tuple of surface forms per group of `data/price_cues.yml`."""

    deal: tuple[str, ...]
    lowest: tuple[str, ...]
    notify: tuple[str, ...]
    drop: tuple[str, ...]
    stock: tuple[str, ...]


@cache
def price_cues() -> PriceCues:
    """The price cues, read once per process."""
    data = data_file("price_cues")
    try:
        return PriceCues(
            **{group: words(data[group], f"price_cues {group}") for group in PRICE_CUE_GROUPS}
        )
    except (KeyError, TypeError) as exc:
        raise ConfigurationError(f"vocabulary/data/price_cues.yml is malformed: {exc}") from exc
