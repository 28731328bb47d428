"""The signed-in shopper's price and stock watches, their alerts and their webhook.

Every store call names the current user: another shopper's watch ids do not exist here
(404)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Response, status

from cartwise.api.deps import AgentDepsDep, CurrentUser, WatchesDep
from cartwise.api.openapi import responses
from cartwise.api.schemas import (
    AlertPublic,
    AlertsSeen,
    WatchCreate,
    WatchPublic,
    WatchUpdate,
    WebhookUpdate,
)
from cartwise.catalog.model_identity import model_identity
from cartwise.errors import InvalidInput, NotFound
from cartwise.memory.alert_webhook import check_webhook_url
from cartwise.memory.prices import new_watch
from cartwise.memory.store import check_recipient

router = APIRouter(
    prefix="/api", tags=["watches"], responses=responses(400, 401, 404, 410, 413, 422, 503)
)

WatchId = Annotated[str, Path(min_length=1, max_length=32, pattern=r"^[0-9a-f]+$")]


@router.get("/watches")
def list_watches(
    user: CurrentUser,
    watches: WatchesDep,
    closed: Annotated[bool, Query(description="Also fired, cancelled and expired ones.")] = False,
) -> list[WatchPublic]:
    """The current user's watches, newest first (live ones unless `closed`)."""
    return watches.list(user, include_closed=closed)


@router.post("/watches", status_code=status.HTTP_201_CREATED, responses=responses(409, 422))
def create_watch(
    body: WatchCreate, user: CurrentUser, watches: WatchesDep, deps: AgentDepsDep
) -> WatchPublic:
    """Watch a listed offer's model for a price at or below `target`, or for a restock."""
    product = deps.recall.get(f"{body.platform}:{body.item_id}")
    if product is None:
        raise NotFound("product", f"{body.platform}:{body.item_id}")
    currency = body.currency.upper()
    if currency not in deps.settings.fx_to_base:
        raise InvalidInput(f"unknown currency {body.currency!r}")
    watch = new_watch(
        user,
        model=model_identity(product),
        title=product.title,
        platform=product.platform,
        item_id=product.item_id,
        kind=body.kind,
        target=body.target if body.kind == "price" else None,
        currency=currency,
        recipient=check_recipient(body.recipient),
        days=body.days,
    )
    return watches.add(watch)


@router.patch("/watches/{watch_id}", responses=responses(422))
def update_watch(
    watch_id: WatchId, body: WatchUpdate, user: CurrentUser, watches: WatchesDep
) -> WatchPublic:
    """A new target (re-arms a fired watch), a new lifetime from now, or re-arm."""
    return watches.update(user, watch_id, target=body.target, days=body.days, rearm=body.rearm)


@router.delete("/watches/{watch_id}", status_code=status.HTTP_204_NO_CONTENT)
def cancel_watch(watch_id: WatchId, user: CurrentUser, watches: WatchesDep) -> Response:
    """Cancel a watch for good."""
    watches.cancel(user, watch_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/alerts")
def list_alerts(
    user: CurrentUser,
    watches: WatchesDep,
    unseen: Annotated[bool, Query(description="Only alerts not yet shown.")] = False,
) -> list[AlertPublic]:
    """The current user's alerts, newest first."""
    return watches.alerts(user, unseen_only=unseen)


@router.post("/alerts/seen", responses=responses(422))
def mark_alerts_seen(body: AlertsSeen, user: CurrentUser, watches: WatchesDep) -> dict[str, int]:
    """Mark alerts shown; returns how many changed."""
    return {"marked": watches.mark_seen(user, body.ids)}


@router.put(
    "/watches-webhook", status_code=status.HTTP_204_NO_CONTENT, responses=responses(400, 422)
)
def set_webhook(body: WebhookUpdate, user: CurrentUser, watches: WatchesDep) -> Response:
    """Where the current user's alerts are also posted, signed (`url: ""` stops it)."""
    watches.set_webhook(user, check_webhook_url(body.url))
    return Response(status_code=status.HTTP_204_NO_CONTENT)
