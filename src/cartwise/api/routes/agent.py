"""POST /api/agent: one AG-UI run (RunAgentInput in, text/event-stream out)."""

from __future__ import annotations

from ag_ui.core import RunAgentInput
from fastapi import APIRouter
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from cartwise.api.agui import parse_turn, stream_turn
from cartwise.api.deps import CurrentToken, StateDep, pinned_deps, require_thread_access
from cartwise.api.limits import RateLimited
from cartwise.api.openapi import responses

router = APIRouter(prefix="/api", tags=["agent"])

SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}

SSE_EVENT = {
    "type": "object",
    "description": "One server-sent event; `data` is an AG-UI event as JSON.",
    "properties": {
        "data": {"type": "string", "contentMediaType": "application/json"},
        "event": {"type": "string"},
        "id": {"type": "string"},
    },
    "required": ["data"],
}


@router.post(
    "/agent",
    response_class=StreamingResponse,
    responses={
        200: {
            "description": "The run's AG-UI events, one `data: <event JSON>` frame each",
            "content": {"text/event-stream": {"schema": SSE_EVENT}},
        },
        **responses(400, 401, 404, 409, 410, 413, 422, 429, 503),
    },
)
async def run_agent_turn(
    run_input: RunAgentInput, claims: CurrentToken, state: StateDep
) -> StreamingResponse:
    """Answer the last user message of `run_input` as a stream of AG-UI events.

    Refused before streaming: 422 empty/oversized message, 429 rate limit, 404 a thread
    that belongs to someone else, 409 a new thread past MAX_THREADS_PER_USER, 503 a store
    that cannot be reached. Only the last user message is read: the history and state an
    AG-UI client resends are ignored (and limited only by MAX_AGENT_REQUEST_BYTES)."""
    user = claims.username
    turn = parse_turn(run_input, user=user, settings=state.settings)
    try:
        state.limits.hit(state.turn_limit, "turns", user)
    except RateLimited:
        state.metrics.rejected_requests.labels(reason="rate_limited").inc()
        raise
    # Store calls block; keep them off the event loop that streams other users' turns.
    deps = await run_in_threadpool(state.provider.get)
    # Pinned: a deletion of the account while the turn runs leaves none of its writes behind.
    turn_deps = await run_in_threadpool(pinned_deps, deps, state.auth, claims)
    await run_in_threadpool(
        require_thread_access, turn_deps.sessions, user, turn.thread, may_create=True
    )
    # Opened (under the thread cap, atomically) before the stream starts, so a cap is a 409.
    await run_in_threadpool(turn_deps.sessions.start, user, turn.thread)
    return StreamingResponse(
        stream_turn(state, turn_deps, turn), media_type="text/event-stream", headers=SSE_HEADERS
    )
