"""`cartwise memory`: look at, correct, move and repair a shopper's long-term memory."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import pydantic
import typer

from cartwise.commands.common import clean_errors
from cartwise.errors import CartwiseError, InvalidInput, NotFound, QuotaExceeded
from cartwise.memory.namespaces import SELF
from cartwise.settings import get_settings

if TYPE_CHECKING:
    from cartwise.memory.doctor import DoctorReport, RawPreferenceAccess
    from cartwise.memory.store import PreferenceEntry, PreferenceStore

EXPORT_FORMAT = "cartwise-preferences"
EXPORT_VERSION = 1

memory_app = typer.Typer(help="Long-term preferences of one shopper.", no_args_is_help=True)

UserOption = Annotated[str, typer.Option("--user", "-u", help="The shopper's user id.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Machine-readable output.")]
KeyArgument = Annotated[str, typer.Argument(help="dedup_key, e.g. dislike:material::plastic")]
RecipientOption = Annotated[
    str,
    typer.Option(
        "--recipient", "-r", help="Whose namespace: self (default) or a slug such as mum."
    ),
]


def register(app: typer.Typer) -> None:
    app.add_typer(memory_app, name="memory")


@contextmanager
def _store() -> Iterator[PreferenceStore]:
    from cartwise.embedding import create_embedder
    from cartwise.memory import create_preference_store

    settings = get_settings()
    with clean_errors():
        store = create_preference_store(settings, create_embedder(settings.embedder, settings))
        try:
            yield store
        finally:
            store.close()


def _entry_json(entry: PreferenceEntry) -> dict[str, Any]:
    return entry.model_dump(mode="json")


@memory_app.command("list")
def list_entries(
    user: UserOption,
    recipient: Annotated[
        str | None,
        typer.Option(
            "--recipient", "-r", help="Only this recipient's entries (self, mum...); all if absent."
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Every stored preference, grouped by recipient, oldest first."""
    with _store() as store:
        entries = store.list(user, recipient=recipient)
    entries = sorted(entries, key=lambda e: e.recipient != SELF)  # stable: the shopper first
    if as_json:
        typer.echo(json.dumps([_entry_json(e) for e in entries], ensure_ascii=False, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table("recipient", "strength", "keywords", "updated")
    table.add_column("key", overflow="fold")
    for entry in entries:
        table.add_row(
            entry.recipient,
            entry.strength.value,
            ", ".join(entry.keywords),
            entry.provenance.updated_at.strftime("%Y-%m-%d %H:%M"),
            entry.dedup_key,
        )
    Console().print(table if entries else f"no preferences stored for {user}")


@memory_app.command("show")
def show(
    key: KeyArgument,
    user: UserOption,
    recipient: RecipientOption = SELF,
    as_json: JsonOption = False,
) -> None:
    """One preference by its key (in the shopper's own or a recipient's namespace)."""
    with _store() as store:
        entry = store.get(user, key, recipient=recipient)
        if entry is None:
            raise NotFound("preference", key)
    if as_json:
        typer.echo(json.dumps(_entry_json(entry), ensure_ascii=False, indent=2))
        return
    for name, value in _entry_json(entry).items():
        typer.echo(f"{name}: {value}")


@memory_app.command("forget")
def forget(key: KeyArgument, user: UserOption, recipient: RecipientOption = SELF) -> None:
    """Delete one preference."""
    from cartwise.memory.store import qualify_key

    with _store() as store:
        if not store.delete(user, key, recipient=recipient):
            raise NotFound("preference", qualify_key(recipient, key))
    typer.echo(f"forgot {qualify_key(recipient, key)}")


@memory_app.command("export")
def export(
    user: UserOption,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write here, not stdout.")] = None,
) -> None:
    """All preferences as JSON (the input format of `memory import`)."""
    with _store() as store:
        entries = store.list(user)
    document = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "user": user,
        "entries": [_entry_json(e) for e in entries],
    }
    text = json.dumps(document, ensure_ascii=False, indent=2) + "\n"
    if out is None:
        sys.stdout.write(text)
        return
    with clean_errors():
        try:
            out.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise InvalidInput(f"cannot write {out}: {exc.strerror}") from exc
    typer.echo(f"exported {len(entries)} preferences to {out}", err=True)


@memory_app.command("import")
def import_file(
    file: Annotated[Path, typer.Argument(help="A file written by `memory export`.")],
    user: UserOption,
    replace: Annotated[
        bool, typer.Option("--replace", help="Replace the whole memory instead of merging.")
    ] = False,
) -> None:
    """Load preferences from an export. The file is validated whole before anything is
    written: one bad entry and nothing changes."""
    with clean_errors():
        entries = read_export(file)
    with _store() as store:
        if replace:
            _raw_access(store).replace_all(user, entries)
        else:
            with clean_errors():
                _check_merge_fits(store, user, entries, get_settings().max_preferences_per_user)
            for entry in entries:
                store.upsert(user, entry)
    typer.echo(f"imported {len(entries)} preferences for {user}", err=True)


def _check_merge_fits(
    store: PreferenceStore, user: str, entries: list[PreferenceEntry], cap: int
) -> None:
    """Refuse, before anything is written, a merge that would end past the per-user cap
    (each write checks it too, but would leave the entries before the one refused)."""
    kept = {(e.recipient, e.dedup_key) for e in store.list(user)}
    for entry in entries:
        kept.discard((entry.recipient, entry.opposite_key))  # its twin is retired
        kept.add((entry.recipient, entry.dedup_key))
    if len(kept) > cap:
        raise QuotaExceeded("preferences", cap, "import fewer entries")


@memory_app.command("doctor")
def doctor(
    user: UserOption,
    fix: Annotated[bool, typer.Option("--fix", help="Repair what is found.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Find invalid, duplicate, misfiled and conflicting entries; `--fix` repairs them."""
    with _store() as store:
        access = _raw_access(store)
        from cartwise.memory.doctor import diagnose, repair

        report = repair(access, user) if fix else diagnose(access, user)
    if as_json:
        typer.echo(report.model_dump_json(indent=2))
    else:
        _print_report(report)
    if not report.healthy and not fix:
        raise typer.Exit(1)


def read_export(path: Path) -> list[PreferenceEntry]:
    """Parse and validate a whole export file; raises `InvalidInput` naming what is wrong."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InvalidInput(f"cannot read {path}: {exc.strerror}") from exc
    except ValueError as exc:
        raise InvalidInput(f"{path} is not JSON: {exc}") from exc
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise InvalidInput(f"{path} is not a cartwise preference export (format {EXPORT_FORMAT})")
    if document.get("version") != EXPORT_VERSION or not isinstance(document.get("entries"), list):
        raise InvalidInput(f"{path}: unsupported export version {document.get('version')!r}")
    entries: list[PreferenceEntry] = []
    for index, item in enumerate(document["entries"]):
        entries.append(_read_entry(path, index, item))
    keys = [e.qualified_key for e in entries]
    clashes = sorted({k for k in keys if keys.count(k) > 1} | _conflicts(entries))
    if clashes:
        raise InvalidInput(f"{path}: duplicate or conflicting entries: {', '.join(clashes)}")
    return entries


def _read_entry(path: Path, index: int, item: object) -> PreferenceEntry:
    from cartwise.memory.store import PreferenceEntry, check_keyword_bounds

    if not isinstance(item, dict):
        raise InvalidInput(f"{path}: entry {index} is not an object")
    data = dict(item)
    claimed_key = data.pop("dedup_key", None)
    try:
        keywords = data.get("keywords", [])
        if isinstance(keywords, list):
            check_keyword_bounds([str(word) for word in keywords])
        entry = PreferenceEntry.model_validate(data)
    except (pydantic.ValidationError, CartwiseError) as exc:
        reason = (
            str(exc).splitlines()[-1 if isinstance(exc, pydantic.ValidationError) else 0].strip()
        )
        raise InvalidInput(f"{path}: entry {index} is invalid: {reason}") from exc
    if claimed_key is not None and claimed_key != entry.dedup_key:
        raise InvalidInput(
            f"{path}: entry {index} claims key {claimed_key!r} but its fields say {entry.dedup_key!r}"
        )
    return entry


def _conflicts(entries: list[PreferenceEntry]) -> set[str]:
    from cartwise.memory.store import qualify_key

    keys = {e.qualified_key for e in entries}
    return {e.qualified_key for e in entries if qualify_key(e.recipient, e.opposite_key) in keys}


def _raw_access(store: PreferenceStore) -> RawPreferenceAccess:
    from cartwise.memory.doctor import RawPreferenceAccess

    if not isinstance(store, RawPreferenceAccess):
        raise typer.BadParameter("this store backend offers no raw access for doctor/import")
    return store


def _print_report(report: DoctorReport) -> None:
    from rich.console import Console

    console = Console()
    console.print(f"{report.user}: {report.rows} stored rows")
    for row in report.invalid:
        console.print(f"  invalid   {row.key}: {row.reason}", markup=False)
    for key in report.duplicates:
        console.print(f"  duplicate {key}", markup=False)
    for key in report.misfiled:
        console.print(f"  misfiled  {key}", markup=False)
    for like_key, dislike_key in report.conflicts:
        console.print(f"  conflict  {like_key} <> {dislike_key}", markup=False)
    if report.healthy:
        console.print("  healthy: nothing to repair")
    elif report.fixed:
        console.print(f"  repaired: {report.kept} entries kept")
    else:
        console.print("  run again with --fix to repair")
