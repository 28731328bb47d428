"""`cartwise session`: look at or clear one thread's session state P_t."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated

import typer

from cartwise.commands.common import clean_errors
from cartwise.errors import NotFound
from cartwise.settings import get_settings
from cartwise.text import Language

if TYPE_CHECKING:
    from cartwise.memory.session_state import SessionStore

session_app = typer.Typer(help="Session state (P_t) of one thread.", no_args_is_help=True)

ThreadOption = Annotated[str, typer.Option("--thread", "-t", help="The thread id.")]
UserOption = Annotated[
    str, typer.Option("--user", "-u", help="The thread's user (thread ids are per user).")
]
JsonOption = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]
LanguageOption = Annotated[
    Language, typer.Option("--language", "-l", help="The language reasons are worded in: en, zh.")
]


def register(app: typer.Typer) -> None:
    app.add_typer(session_app, name="session")


@contextmanager
def _sessions() -> Iterator[SessionStore]:
    from cartwise.memory import create_session_store

    with clean_errors():
        store = create_session_store(get_settings())
        try:
            yield store
        finally:
            store.close()


@session_app.command("show")
def show(
    thread: ThreadOption,
    user: UserOption,
    as_json: JsonOption = False,
    language: LanguageOption = "en",
) -> None:
    """The thread's P_t and how many recent messages are kept (nothing once expired)."""
    with _sessions() as store:
        state = store.get(user, thread)
        messages = store.messages(user, thread)
        if state.is_empty and not messages:
            raise NotFound("thread", thread)
    if as_json:
        typer.echo(state.model_dump_json(indent=2))
        return
    from cartwise.agent.rejections import describe

    typer.echo(f"thread {thread} (user {user}), {len(messages)} recent messages")
    typer.echo(f"intent: {state.current_intent or '-'}  category: {state.category or '-'}")
    for name, value in state.slots.items():
        typer.echo(f"slot {name} = {value}")
    for constraint in state.constraints:
        typer.echo(
            f"constraint {constraint.polarity.value} {constraint.key} ({constraint.strength.value})"
        )
    for option in state.rejected_options:
        typer.echo(f"rejected {option.platform}/{option.item_id}: {describe(option, language)}")
    for question in state.open_questions:
        typer.echo(f"open question: {question}")
    for decision in state.decisions_made:
        typer.echo(f"decision: {decision.text}")


@session_app.command("clear")
def clear(thread: ThreadOption, user: UserOption) -> None:
    """Forget the thread's P_t and messages now instead of at expiry."""
    with _sessions() as store:
        if not store.clear(user, thread):
            raise NotFound("thread", thread)
    typer.echo(f"cleared thread {thread}")
