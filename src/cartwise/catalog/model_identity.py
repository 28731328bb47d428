"""One string per model, shared by its offers on every platform.

Two offers are the same model when their brands agree and either their model tokens
(`attributes["model"]`, or a model-like token in the title such as "WH-1000XM5") or their
normalized titles are equal. Price comparison groups offers by it; a price watch follows it,
so any platform's offer of the watched model can meet the watch.
"""

from __future__ import annotations

import re

from cartwise.catalog.product import Product
from cartwise.text import fold

# A model number: letters and digits mixed, at least one digit, 4+ characters ("XM5" is too
# short to be trusted on its own; "WH-1000XM5", "A2084", "RTX4070" are not).
_MODEL_TOKEN = re.compile(r"\b(?=[a-z0-9-]*\d)(?=[a-z0-9-]*[a-z])[a-z0-9]+(?:-[a-z0-9]+)*\b")
# Quantities look like model numbers but are shared by unrelated products ("256gb", "40mm").
_QUANTITY = re.compile(r"^\d+(?:gb|tb|mb|mah|w|mm|cm|ml|l|g|kg|hz|khz|db|v|m|h|pcs|pack|x|in)$")
_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)


def model_token(product: Product) -> str:
    """The product's model number, normalized (lowercase, no separators), or ""."""
    listed = product.attributes.get("model", [])
    if listed and listed[0].strip():
        return _NON_WORD.sub("", fold(listed[0]))
    tokens = [
        t
        for t in _MODEL_TOKEN.findall(fold(product.title))
        if len(t) >= 4 and not _QUANTITY.fullmatch(t)
    ]
    return _NON_WORD.sub("", max(tokens, key=len)) if tokens else ""


def _identity(product: Product) -> tuple[str, str]:
    brand = _NON_WORD.sub("", fold(product.brand))
    token = model_token(product)
    return (brand, f"model:{token}" if token else f"title:{_NON_WORD.sub('', fold(product.title))}")


def model_identity(product: Product) -> str:
    """One string per model: offers of the same model on every platform share it."""
    return "|".join(_identity(product))
