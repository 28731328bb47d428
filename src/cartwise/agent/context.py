"""Per-turn context carried in ContextVars.

The profile is computed once at the entry of a turn and read by every item_search (the var
itself is recall's, `cartwise.recall.item_search.user_profile`: recall reads it, the agent sets it); the
parallel per-platform searches inherit it (asyncio tasks and `contextvars.copy_context`
snapshot the vars), so N searches cost one store read, not N. A tool never gets the
profile as an argument a model would have to fill in.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from cartwise.memory.session_state import RejectedOption
from cartwise.recall.item_search import user_profile

current_user: ContextVar[str] = ContextVar("cartwise_user", default="")
current_thread: ContextVar[str] = ContextVar("cartwise_thread", default="")

rejected_options: ContextVar[list[RejectedOption] | None] = ContextVar(
    "cartwise_rejected_options", default=None
)
"""The turn's accumulator: item_picker appends, the end of the run folds it into P_t."""


@contextmanager
def turn_context(user: str, thread: str, profile: str | None) -> Iterator[list[RejectedOption]]:
    """Set the turn's vars for the duration of a block; yields the rejected-options list."""
    accumulator: list[RejectedOption] = []
    tokens = (
        current_user.set(user),
        current_thread.set(thread),
        user_profile.set(profile),
        rejected_options.set(accumulator),
    )
    try:
        yield accumulator
    finally:
        rejected_options.reset(tokens[3])
        user_profile.reset(tokens[2])
        current_thread.reset(tokens[1])
        current_user.reset(tokens[0])


def record_rejection(option: RejectedOption) -> None:
    """Append to the current turn's accumulator (a no-op outside a turn)."""
    accumulator = rejected_options.get()
    if accumulator is not None:
        accumulator.append(option)
