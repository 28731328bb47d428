"""Cartwise: a bilingual shopping assistant that searches several platforms at once and
remembers what each shopper likes and refuses.

The public face is the data model and the seams; implementations live in subpackages
(`cartwise.memory.backends`, `cartwise.recall.indexes`, `cartwise.understanding.rules`, ...).
"""

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
