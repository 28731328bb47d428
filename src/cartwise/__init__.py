"""Cartwise: a bilingual shopping assistant that searches several platforms at once and
remembers what each shopper likes and refuses.

The public face is the data model and the seams; implementations live in subpackages
(`cartwise.memory.backends`, `cartwise.recall.indexes`, `cartwise.understanding.rules`, ...).
Each name is imported from its module on first use (`cartwise.faces`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cartwise.faces import lazy_face

if TYPE_CHECKING:
    from cartwise.catalog.product import Product
    from cartwise.embedding.base import Embedder
    from cartwise.errors import CartwiseError
    from cartwise.memory.session_state import SessionPrefState, SessionStore
    from cartwise.memory.store import PreferenceEntry, PreferenceStore
    from cartwise.recall.indexes.base import ProductIndex
    from cartwise.settings import Settings
    from cartwise.understanding.base import Engine

__all__ = [
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
]

__getattr__ = lazy_face(
    __name__,
    {
        "CartwiseError": "cartwise.errors",
        "Embedder": "cartwise.embedding.base",
        "Engine": "cartwise.understanding.base",
        "PreferenceEntry": "cartwise.memory.store",
        "PreferenceStore": "cartwise.memory.store",
        "Product": "cartwise.catalog.product",
        "ProductIndex": "cartwise.recall.indexes.base",
        "SessionPrefState": "cartwise.memory.session_state",
        "SessionStore": "cartwise.memory.session_state",
        "Settings": "cartwise.settings",
    },
)
