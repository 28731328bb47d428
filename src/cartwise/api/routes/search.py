"""GET /api/search: product search, personalized by the shopper's like-only profile."""

from __future__ import annotations

from typing import Annotated, Any, cast

from fastapi import APIRouter, Query
from starlette.concurrency import run_in_threadpool

from cartwise.api.deps import CurrentUser, ServingDepsDep, SettingsDep
from cartwise.memory.store import Polarity, PreferenceEntry
from cartwise.recall.indexes.base import SearchFilters

router = APIRouter(prefix="/api", tags=["search"])


@router.get("/search")
async def search(
    q: Annotated[str, Query(min_length=1, max_length=500)],
    user: CurrentUser,
    deps: ServingDepsDep,
    settings: SettingsDep,
    platform: Annotated[list[str] | None, Query(max_length=16)] = None,
    k: Annotated[int, Query(ge=1, le=100)] = 10,
    personalize: bool = True,
) -> dict[str, Any]:
    """Top-k products for `q` (optionally on the named platforms). With `personalize`, the
    current user's likes relevant to the query shape the ranking; dislikes never do."""

    def run() -> dict[str, Any]:
        profile = ""
        if personalize:
            # cast: PreferenceStore's method named `list` shadows the builtin in its own
            # annotations, which mypy then cannot resolve.
            relevant = cast(
                "list[PreferenceEntry]",
                deps.preferences.read_relevant(
                    user,
                    q,
                    k=settings.preference_top_k,
                    threshold=settings.preference_relevance_threshold,
                ),
            )
            profile = " ".join(e.embedding_text() for e in relevant if e.polarity is Polarity.LIKE)
        filters = SearchFilters(platforms=platform or [])
        response = deps.recall.search(q, k=k, filters=filters, profile=profile or None)
        result: dict[str, Any] = response.model_dump(mode="json")
        return result

    return await run_in_threadpool(run)
