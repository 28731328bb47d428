"""Long-term memory of the signed-in shopper: list, add, correct, delete, export.

Every store call names the current user, so there is no way to reach another shopper's
entries: their keys simply do not exist for this user (404). Within a user, each recipient
(`self`, `mum`, ...) is a namespace: key-addressed calls take `?recipient=` (default
`self`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Response, status

from cartwise.api.deps import CurrentUser, MetricsDep, PreferencesDep
from cartwise.api.openapi import responses
from cartwise.api.schemas import MemoryExport, PreferenceCreate, PreferencePublic, PreferenceUpdate
from cartwise.errors import NotFound
from cartwise.memory.store import SELF, PreferenceEntry, Provenance, check_recipient, utcnow

router = APIRouter(prefix="/api/memory", tags=["memory"], responses=responses(401, 410, 503))

DedupKey = Annotated[str, Path(min_length=3, max_length=256)]
RecipientQuery = Annotated[
    str,
    Query(
        min_length=1,
        max_length=48,
        description="Whose namespace: self (the shopper) or a recipient slug such as mum.",
    ),
]


def _recipient(value: str) -> str:
    """Validated like the entry field (InvalidPreference → 422), before any store call."""
    return check_recipient(value)


@router.get("", responses=responses(422))
def list_memory(
    user: CurrentUser,
    preferences: PreferencesDep,
    recipient: Annotated[str | None, Query(max_length=48)] = None,
) -> list[PreferencePublic]:
    """Every long-term preference of the current user, oldest first: all recipients, or
    one when `recipient` is given."""
    return preferences.list(user, recipient=None if recipient is None else _recipient(recipient))


@router.get("/export")
def export_memory(user: CurrentUser, preferences: PreferencesDep) -> MemoryExport:
    """Everything remembered about the current user, as one JSON document."""
    return MemoryExport(user=user, entries=preferences.list(user))


@router.post("", status_code=status.HTTP_201_CREATED, responses=responses(400, 409, 413, 422))
def create_memory(
    body: PreferenceCreate, user: CurrentUser, preferences: PreferencesDep, metrics: MetricsDep
) -> PreferencePublic:
    """Write a preference (merged by key; its opposite-polarity twin is retired)."""
    entry = PreferenceEntry(**body.model_dump(), provenance=Provenance(source_turn="api:memory"))
    stored = preferences.upsert(user, entry)
    metrics.memory_writes.labels(kind="added").inc()
    return stored


@router.patch("/{dedup_key}", responses=responses(400, 404, 409, 413, 422))
def update_memory(
    dedup_key: DedupKey,
    body: PreferenceUpdate,
    user: CurrentUser,
    preferences: PreferencesDep,
    metrics: MetricsDep,
    recipient: RecipientQuery = SELF,
) -> PreferencePublic:
    """Correct an entry. A new polarity or domain is a new fact with a new key: the old
    entry is superseded and the new one written in one atomic store call."""
    current = preferences.get(user, dedup_key, recipient=_recipient(recipient))
    if current is None:
        raise NotFound("preference", dedup_key)
    changes = body.model_dump(exclude_none=True)
    provenance = current.provenance.model_copy(update={"updated_at": utcnow()})
    # Re-validate through the model so a bad domain fails before anything is written.
    updated = PreferenceEntry(
        **{**current.model_dump(exclude={"dedup_key", "provenance"}), **changes},
        provenance=provenance,
    )
    if updated.recipient == current.recipient:
        # Superseding the current key even when it is unchanged makes this a replacement:
        # an upsert alone would merge the keyword lists instead of taking the corrected one.
        stored = preferences.upsert(user, updated, supersede=[current.dedup_key])
    else:
        # Moved to another namespace: written there first, then forgotten here, so a crash
        # between the two leaves the entry in both namespaces, never in neither.
        stored = preferences.upsert(user, updated)
        preferences.delete(user, current.dedup_key, recipient=current.recipient)
    if updated.qualified_key != current.qualified_key:
        metrics.memory_writes.labels(kind="superseded").inc()
    metrics.memory_writes.labels(kind="added").inc()
    return stored


@router.delete(
    "/{dedup_key}", status_code=status.HTTP_204_NO_CONTENT, responses=responses(404, 422)
)
def delete_memory(
    dedup_key: DedupKey,
    user: CurrentUser,
    preferences: PreferencesDep,
    recipient: RecipientQuery = SELF,
) -> Response:
    """Forget one entry of one recipient; 404 when the current user has no such entry."""
    if not preferences.delete(user, dedup_key, recipient=_recipient(recipient)):
        raise NotFound("preference", dedup_key)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
