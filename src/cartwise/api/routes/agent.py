"""POST /api/agent: one AG-UI run (RunAgentInput in, text/event-stream out)."""

from __future__ import annotations

from ag_ui.core import RunAgentInput
from fastapi import APIRouter
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from cartwise.api.agui import parse_turn, stream_turn
from cartwise.api.deps import CurrentUser, StateDep, require_thread_access
from cartwise.api.limits import RateLimited

router = APIRouter(prefix="/api", tags=["agent"])

SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


@router.post("/agent", response_class=StreamingResponse)
async def run_agent_turn(
    run_input: RunAgentInput, user: CurrentUser, state: StateDep
) -> StreamingResponse:
    """Answer the last user message of `run_input` as a stream of AG-UI events.

    Refused before streaming: 422 empty/oversized message, 429 rate limit, 404 a thread
    that belongs to someone else, 503 a store that cannot be reached."""
    turn = parse_turn(run_input, user=user, settings=state.settings)
    try:
        state.limiter.acquire(user)
    except RateLimited:
        state.metrics.rejected_requests.labels(reason="rate_limited").inc()
        raise
    # Store calls block; keep them off the event loop that streams other users' turns.
    deps = await run_in_threadpool(state.provider.get)
    await run_in_threadpool(
        require_thread_access, deps.sessions, user, turn.thread, may_create=True
    )
    return StreamingResponse(
        stream_turn(state, deps, turn), media_type="text/event-stream", headers=SSE_HEADERS
    )
