"""The signed-in shopper's threads: list, read (P_t and recent messages), delete."""

from __future__ import annotations

from fastapi import APIRouter, Response, status

from cartwise.api.deps import CurrentUser, OwnedThread, SessionsDep
from cartwise.api.openapi import responses
from cartwise.api.schemas import ThreadPublic, ThreadSummary
from cartwise.memory.session_state import SessionStore

router = APIRouter(prefix="/api/threads", tags=["threads"], responses=responses(401, 410, 503))


def _summary(sessions: SessionStore, user: str, thread: str) -> ThreadSummary:
    state = sessions.get(user, thread)
    if not state.is_empty:
        return ThreadSummary(thread=thread, updated_at=state.updated_at)
    # A thread with messages but no session facts yet: its last message dates it.
    messages = sessions.messages(user, thread)
    return ThreadSummary(thread=thread, updated_at=messages[-1].at if messages else None)


@router.get("")
def list_threads(user: CurrentUser, sessions: SessionsDep) -> list[ThreadSummary]:
    """The current user's live threads, most recently updated first."""
    summaries = [_summary(sessions, user, thread) for thread in sessions.threads(user)]
    return sorted(
        summaries, key=lambda s: s.updated_at.timestamp() if s.updated_at else 0.0, reverse=True
    )


@router.get("/{thread}", responses=responses(404, 422))
def get_thread(thread: OwnedThread, user: CurrentUser, sessions: SessionsDep) -> ThreadPublic:
    """A thread's session state P_t and recent messages; 404 unless it is the user's."""
    return ThreadPublic(state=sessions.get(user, thread), messages=sessions.messages(user, thread))


@router.delete("/{thread}", status_code=status.HTTP_204_NO_CONTENT, responses=responses(404, 422))
def delete_thread(thread: OwnedThread, user: CurrentUser, sessions: SessionsDep) -> Response:
    """Forget a thread's state and messages; 404 unless it is the user's."""
    sessions.clear(user, thread)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
