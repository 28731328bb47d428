from __future__ import annotations

import cartwise

INTENDED = {
    "CartwiseError",
    "Embedder",
    "Engine",
    "PreferenceEntry",
    "PreferenceStore",
    "Product",
    "ProductIndex",
    "SessionPrefState",
    "SessionStore",
    "Settings",
}


def test_exported_names_are_exactly_the_intended_ones_and_sorted() -> None:
    assert set(cartwise.__all__) == INTENDED
    assert list(cartwise.__all__) == sorted(cartwise.__all__)
    for name in cartwise.__all__:
        assert getattr(cartwise, name) is not None
