"""`cartwise watch list|cancel|rearm|webhook` and `cartwise alerts`: a shopper's price and
stock watches and the alerts they raised."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated

import typer

from cartwise.commands.common import clean_errors
from cartwise.errors import ConfigurationError, InvalidInput
from cartwise.settings import get_settings

if TYPE_CHECKING:
    from cartwise.memory.prices import Watch, WatchStore

watch_app = typer.Typer(help="Price and stock watches of one shopper.", no_args_is_help=True)

UserOption = Annotated[str, typer.Option("--user", "-u", help="The shopper's user id.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]
WatchArgument = Annotated[str, typer.Argument(help="The watch id (from `watch list`).")]


def register(app: typer.Typer) -> None:
    app.add_typer(watch_app, name="watch")
    app.command("alerts")(alerts)


@contextmanager
def _store() -> Iterator[WatchStore]:
    from cartwise.memory import create_watch_store

    settings = get_settings()
    with clean_errors():
        if not settings.price_history:
            raise ConfigurationError("PRICE_HISTORY is off: there are no watches")
        store = create_watch_store(settings)
        try:
            yield store
        finally:
            store.close()


def _date(seconds: float | None) -> str:
    return datetime.fromtimestamp(seconds, UTC).date().isoformat() if seconds else ""


def _what(watch: Watch) -> str:
    if watch.kind == "stock":
        return "back in stock"
    return f"at or below {watch.target:g} {watch.currency}"


@watch_app.command("list")
def list_watches(
    user: UserOption,
    closed: Annotated[bool, typer.Option("--all", help="Also fired, cancelled, expired.")] = False,
    as_json: JsonOption = False,
) -> None:
    """The shopper's watches, newest first (live ones unless --all)."""
    with _store() as store:
        watches = store.list(user, include_closed=closed)
    if as_json:
        typer.echo(json.dumps([w.model_dump(mode="json") for w in watches], ensure_ascii=False))
        return
    if not watches:
        typer.echo("no watches")
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"watches of {user}")
    for column in ("id", "item", "when", "for", "status", "until"):
        table.add_column(column)
    for w in watches:
        table.add_row(w.id, w.title, _what(w), w.recipient, w.status, _date(w.expires_at))
    Console().print(table)


@watch_app.command("cancel")
def cancel(user: UserOption, watch_id: WatchArgument, as_json: JsonOption = False) -> None:
    """Close a watch for good."""
    with _store() as store:
        watch = store.cancel(user, watch_id)
    typer.echo(watch.model_dump_json() if as_json else f"cancelled {watch.id}: {watch.title}")


@watch_app.command("edit")
def edit(
    user: UserOption,
    watch_id: WatchArgument,
    target: Annotated[float | None, typer.Option(help="A new target price.")] = None,
    days: Annotated[float | None, typer.Option(help="Keep it this many days from now.")] = None,
    rearm: Annotated[bool, typer.Option("--rearm", help="Fire again after it fired.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Change a watch's target or lifetime, or re-arm it (a new target re-arms it too)."""
    with _store() as store:
        if target is None and days is None and not rearm:
            raise InvalidInput("nothing to change: give --target, --days or --rearm")
        watch = store.update(user, watch_id, target=target, days=days, rearm=rearm)
    typer.echo(
        watch.model_dump_json() if as_json else f"{watch.id}: {_what(watch)}, {watch.status}"
    )


@watch_app.command("webhook")
def webhook(
    user: UserOption,
    url: Annotated[str, typer.Argument(help="https URL alerts are posted to; '' to stop.")],
) -> None:
    """Where the shopper's alerts are also posted (signed with ALERT_WEBHOOK_SECRET)."""
    from cartwise.memory.alert_webhook import check_webhook_url

    with _store() as store:
        store.set_webhook(user, check_webhook_url(url))
    typer.echo(f"alerts of {user} go to {url}" if url else f"no webhook for {user}")


def alerts(
    user: UserOption,
    unseen: Annotated[bool, typer.Option("--unseen", help="Only alerts not yet shown.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Alerts the shopper's watches raised, newest first."""
    with _store() as store:
        found = store.alerts(user, unseen_only=unseen)
    if as_json:
        typer.echo(json.dumps([a.model_dump(mode="json") for a in found], ensure_ascii=False))
        return
    if not found:
        typer.echo("no alerts")
        return
    for a in found:
        what = "back in stock" if a.kind == "stock" else f"{a.price:g} {a.currency}"
        typer.echo(f"{_date(a.created_at)}  {a.title} — {what} on {a.platform}")
