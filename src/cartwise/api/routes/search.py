"""GET /api/search: product search, personalized by the shopper's like-only profile.

The JSON is exactly `cartwise search --json`'s, so a script can switch between the two."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from starlette.concurrency import run_in_threadpool

from cartwise.api.deps import AgentDepsDep, CurrentUser, SettingsDep
from cartwise.api.openapi import responses
from cartwise.memory.injector import build_user_profile
from cartwise.recall.indexes.base import SearchFilters

router = APIRouter(prefix="/api", tags=["search"])


@router.get("/search", responses=responses(401, 422, 503))
async def search(
    q: Annotated[str, Query(min_length=1, max_length=500)],
    user: CurrentUser,
    deps: AgentDepsDep,
    settings: SettingsDep,
    platform: Annotated[list[str] | None, Query(max_length=16)] = None,
    k: Annotated[int, Query(ge=1, le=100)] = 10,
    personalize: bool = True,
) -> dict[str, Any]:
    """Top-k products for `q` (optionally on the named platforms). With `personalize`, the
    current user's likes relevant to the query shape the ranking; dislikes never do."""

    def run() -> dict[str, Any]:
        profile = (
            build_user_profile(deps.preferences, user, q, settings=settings) if personalize else ""
        )
        filters = SearchFilters(platforms=platform) if platform else None
        response = deps.recall.search(q, k=k, filters=filters, profile=profile or None)
        return response.as_json()

    return await run_in_threadpool(run)
