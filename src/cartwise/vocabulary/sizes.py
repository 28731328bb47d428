"""Size words a shopper says instead of a label ("大码" is XL), as data (`data/sizes.yml`)."""

from __future__ import annotations

from functools import cache

from cartwise.vocabulary.files import data_file, words


@cache
def size_words() -> dict[str, tuple[str, ...]]:
    """Size label → the words that mean it."""
    return {
        str(label): words(forms, f"sizes {label}") for label, forms in data_file("sizes").items()
    }
