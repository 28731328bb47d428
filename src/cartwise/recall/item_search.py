"""`item_search`: one search per platform, in parallel, personalized by the turn's profile.

The like-only profile is computed once at the entry of a turn and put in the `user_profile`
ContextVar below (the agent sets it; recall reads it); it is never an argument a model would
have to fill in (it could copy it wrong). Each per-platform search runs in
`asyncio.to_thread` inside its own task: both copy the current context, so every worker reads
the same profile without another store read. An explicit `profile=""` means "no
personalization" even when the context has one; `None` means "use the context".
"""

from __future__ import annotations

import asyncio
from contextvars import ContextVar

from cartwise.embedding.base import Vector
from cartwise.recall.indexes.base import SearchFilters
from cartwise.recall.service import RecallService, SearchResponse

user_profile: ContextVar[str | None] = ContextVar("cartwise_user_profile", default=None)
"""Like-only profile text for the user tower; None or "" means no personalization."""

user_vector: ContextVar[Vector | None] = ContextVar("cartwise_user_vector", default=None)
"""`user_profile` as a vector already made from the likes' stored vectors (None: embed the
text). Read only with the context's profile, never with an explicit one."""


def resolve_profile(explicit: str | None) -> str | None:
    """An explicit profile wins (even ""); otherwise the turn's ContextVar."""
    return explicit if explicit is not None else user_profile.get()


async def search_platforms(
    service: RecallService,
    query: str,
    platforms: list[str],
    *,
    k: int = 10,
    filters: SearchFilters | None = None,
    profile: str | None = None,
) -> dict[str, SearchResponse]:
    """One search per platform (all indexed platforms when `platforms` is empty), in
    parallel; each worker reads the profile from its (inherited) context."""
    base = filters or SearchFilters()
    targets = list(dict.fromkeys(platforms)) or service.platforms()
    service.check_filters(base.model_copy(update={"platforms": targets}))

    def one(platform: str) -> SearchResponse:
        scoped = base.model_copy(update={"platforms": [platform]})
        vector = user_vector.get() if profile is None else None
        return service.search(
            query, k=k, filters=scoped, profile=resolve_profile(profile), profile_vector=vector
        )

    tasks = [asyncio.create_task(asyncio.to_thread(one, platform)) for platform in targets]
    responses = await asyncio.gather(*tasks)
    return dict(zip(targets, responses, strict=True))
