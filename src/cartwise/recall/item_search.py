"""`item_search`: one search per platform, in parallel, personalized by the turn's profile.

The like-only profile is computed once at the entry of a turn and put in the
`cartwise.agent.context.user_profile` ContextVar; it is never a tool argument (a model would
have to copy it, and could copy it wrong). Each per-platform search runs in
`asyncio.to_thread` inside its own task: both copy the current context, so every worker reads
the same profile without another store read. An explicit `profile=""` means "no
personalization" even when the context has one; `None` means "use the context".
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field

from cartwise.agent.context import user_profile
from cartwise.errors import InvalidInput
from cartwise.recall.indexes.base import SearchFilters
from cartwise.recall.service import RecallService, SearchResponse


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
        return service.search(query, k=k, filters=scoped, profile=resolve_profile(profile))

    tasks = [asyncio.create_task(asyncio.to_thread(one, platform)) for platform in targets]
    responses = await asyncio.gather(*tasks)
    return dict(zip(targets, responses, strict=True))


class ItemSearchArgs(BaseModel):
    """Arguments the model fills in; the shopper's profile is not one of them."""

    query: str = Field(description="What to search for, in the shopper's words.")
    platforms: list[str] = Field(
        default_factory=list, description="Platforms to search; empty means all platforms."
    )
    k: int = Field(default=10, ge=1, le=50, description="Results per platform.")
    max_price_base: float | None = Field(
        default=None, description="Budget ceiling in the base currency (CNY), if any."
    )
    min_price_base: float | None = Field(
        default=None, description="Price floor in the base currency (CNY), if any."
    )
    brands: list[str] = Field(
        default_factory=list, description="Only these brands, when the shopper named some."
    )
    in_stock: bool | None = Field(default=None, description="True: only items in stock.")


def _summary(responses: dict[str, SearchResponse]) -> str:
    return json.dumps(
        {
            platform: {
                "personalization": "active" if response.personalization else "inactive",
                "results": [
                    {
                        "item_id": hit.product.item_id,
                        "title": hit.product.title,
                        "brand": hit.product.brand,
                        "price": hit.product.price,
                        "currency": hit.product.currency,
                        "score": round(hit.score, 4),
                    }
                    for hit in response.results
                ],
            }
            for platform, response in responses.items()
        },
        ensure_ascii=False,
    )


def make_item_search_tool(service: RecallService) -> BaseTool:
    """The `item_search` LangChain tool bound to a service."""

    async def item_search(**arguments: Any) -> str:
        args = ItemSearchArgs(**arguments)
        filters = SearchFilters(
            min_price_base=args.min_price_base,
            max_price_base=args.max_price_base,
            brands=args.brands,
            in_stock=args.in_stock,
        )
        try:
            responses = await search_platforms(
                service, args.query, args.platforms, k=args.k, filters=filters
            )
        except InvalidInput as exc:  # recoverable: tell the model what to fix
            return f"item_search could not run: {exc}"
        return _summary(responses)

    def item_search_sync(**arguments: Any) -> str:
        return asyncio.run(item_search(**arguments))

    return StructuredTool.from_function(
        func=item_search_sync,
        coroutine=item_search,
        name="item_search",
        description=(
            "Search products on one or more shopping platforms in parallel. Returns, per "
            "platform, the best matches (id, title, brand, price) and whether the shopper's "
            "preferences personalized the search."
        ),
        args_schema=ItemSearchArgs,
    )
