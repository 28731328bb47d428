"""Product recall: indexes of item vectors, BM25, and the three-tower hybrid search over them."""

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
