"""Product recall: indexes of item vectors, BM25, and the three-tower hybrid search over them.
Each name is imported on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cartwise.faces import lazy_face

if TYPE_CHECKING:
    from cartwise.recall.indexes.base import SearchFilters
    from cartwise.recall.item_search import search_platforms, user_profile
    from cartwise.recall.service import RecallService, SearchHit, SearchResponse

__all__ = [
    "RecallService",
    "SearchFilters",
    "SearchHit",
    "SearchResponse",
    "search_platforms",
    "user_profile",
]

__getattr__ = lazy_face(
    __name__,
    {
        "RecallService": "cartwise.recall.service",
        "SearchFilters": "cartwise.recall.indexes.base",
        "SearchHit": "cartwise.recall.service",
        "SearchResponse": "cartwise.recall.service",
        "search_platforms": "cartwise.recall.item_search",
        "user_profile": "cartwise.recall.item_search",
    },
)
