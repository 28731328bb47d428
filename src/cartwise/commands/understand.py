"""`cartwise understand`: what the engine makes of a message — no search, nothing stored."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cartwise.errors import CartwiseError, InvalidInput
from cartwise.settings import Settings, get_settings

if TYPE_CHECKING:
    from cartwise.memory.store import PreferenceEntry
    from cartwise.understanding.base import CuratorOutput, Engine
    from cartwise.understanding.reading import Reading

SESSION_PATCH_FIELDS = (
    "current_intent",
    "slots_patch",
    "constraints",
    "new_open_questions",
    "resolved_questions",
    "decisions_made",
)
LONG_TERM_FIELDS = ("polarity", "category", "domain", "slug", "strength", "keywords", "dedup_key")


def register(app: typer.Typer) -> None:
    app.command("understand")(understand)


def understand(
    message: Annotated[
        str | None, typer.Argument(help="One shopper message, Chinese or English.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    script: Annotated[
        Path | None,
        typer.Option(
            "--script",
            help="JSON lines, each with a `text` field (and optionally `thread`: lines of one "
            "thread carry their session and memory forward in memory). Prints one JSON "
            "object per line, in order.",
        ),
    ] = None,
) -> None:
    """Print the planner and curator output for a message (no search, nothing stored)."""
    from cartwise.understanding import create_engine

    settings = get_settings()
    try:
        if script is not None:
            if message is not None:
                raise InvalidInput("give either a MESSAGE or --script FILE, not both")
            lines = read_script(script, max_chars=settings.max_message_chars)
            engine = create_engine(settings)
            for result in understand_script(engine, lines, settings):
                typer.echo(json.dumps(result, ensure_ascii=False))
            return
        text = check_message(message, max_chars=settings.max_message_chars)
        engine = create_engine(settings)
        result = understand_one(engine, text, Dialogue("cli"))
    except CartwiseError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(code=2) from None
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False))
    else:
        print_summary(result)
        print_engine_notes(engine)


class Dialogue:
    """In-memory session and long-term memory of one thread (never written anywhere)."""

    def __init__(self, thread: str) -> None:
        from cartwise.memory.session_state import SessionPrefState

        self.session = SessionPrefState(thread=thread)
        self.memory: list[PreferenceEntry] = []
        self.recipient_memory: dict[str, list[PreferenceEntry]] = {}
        """Recipient → that person's entries (each recipient is its own namespace)."""

    def apply(self, output: CuratorOutput, *, max_rejected: int) -> None:
        from cartwise.memory.session_state import apply_patch

        self.memory = _upsert(self.memory, output.long_term, output.supersede)
        for group in output.recipients:
            current = self.recipient_memory.get(group.recipient, [])
            self.recipient_memory[group.recipient] = _upsert(
                current, group.long_term, group.supersede
            )
        self.session = apply_patch(self.session, output.session_patch, max_rejected=max_rejected)


def _upsert(
    memory: list[PreferenceEntry], upserts: list[PreferenceEntry], supersede: list[str]
) -> list[PreferenceEntry]:
    retired = set(supersede)
    by_key = {e.dedup_key: e for e in memory if e.dedup_key not in retired}
    for entry in upserts:
        by_key.pop(entry.opposite_key, None)
        previous = by_key.get(entry.dedup_key)
        by_key[entry.dedup_key] = previous.merged_with(entry) if previous else entry
    return list(by_key.values())


def check_message(message: str | None, *, max_chars: int) -> str:
    text = (message or "").strip()
    if not text:
        raise InvalidInput('the message is empty: cartwise understand "不要塑料的耳机"')
    if len(text) > max_chars:
        raise InvalidInput(f"the message is longer than {max_chars} characters")
    return text


def read_script(path: Path, *, max_chars: int) -> list[tuple[str, str]]:
    """(thread, text) per non-empty line; the whole file is checked before anything runs."""
    try:
        raw_lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"cannot read script {path}: {exc.__class__.__name__}") from exc
    lines: list[tuple[str, str]] = []
    for number, raw in enumerate(raw_lines, start=1):
        if not raw.strip():
            continue
        try:
            item = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"{path} line {number}: not JSON ({exc.msg})") from exc
        if not isinstance(item, dict) or not isinstance(item.get("text"), str):
            raise InvalidInput(f"{path} line {number}: needs a string field `text`")
        try:
            text = check_message(item["text"], max_chars=max_chars)
        except InvalidInput as exc:
            raise InvalidInput(f"{path} line {number}: {exc}") from exc
        thread = item.get("thread", f"line-{number}")
        lines.append((str(thread), text))
    return lines


def understand_script(
    engine: Engine, lines: list[tuple[str, str]], settings: Settings
) -> list[dict[str, Any]]:
    dialogues: dict[str, Dialogue] = {}
    results = []
    for thread, text in lines:
        dialogue = dialogues.setdefault(thread, Dialogue(thread))
        results.append(
            understand_one(engine, text, dialogue, max_rejected=settings.session_max_rejected)
        )
    return results


def understand_one(
    engine: Engine, text: str, dialogue: Dialogue, *, max_rejected: int = 50
) -> dict[str, Any]:
    from cartwise.understanding.base import CuratorTurn
    from cartwise.understanding.reading import Conversation

    planner = engine.read(text, Conversation(session=dialogue.session, memory=dialogue.memory))
    turn = CuratorTurn(
        user_message=text,
        reading=planner,
        session=dialogue.session,
        memory=dialogue.memory,
        recipient_memory=dialogue.recipient_memory,
    )
    curator = engine.curate(turn)
    dialogue.apply(curator, max_rejected=max_rejected)
    return render(planner, curator)


def render(planner: Reading, curator: CuratorOutput) -> dict[str, Any]:
    """The documented JSON shape of `cartwise understand --json`."""
    patch = curator.session_patch.model_dump(mode="json")
    return {
        "reading": planner.model_dump(mode="json"),
        "curator": {
            "long_term": [
                entry.model_dump(mode="json", include=set(LONG_TERM_FIELDS))
                for entry in curator.long_term
            ],
            "supersede": list(curator.supersede),
            "recipients": [
                {
                    "recipient": group.recipient,
                    "long_term": [
                        entry.model_dump(mode="json", include=set(LONG_TERM_FIELDS))
                        for entry in group.long_term
                    ],
                    "supersede": list(group.supersede),
                }
                for group in curator.recipients
            ],
            "session_patch": {name: patch[name] for name in SESSION_PATCH_FIELDS},
        },
    }


def print_summary(result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(file=sys.stdout, highlight=False)
    planner = result["reading"]
    console.print(
        f"[bold]intent[/bold] {planner['intent']}  [bold]domain[/bold] "
        f"{planner['domain'] or '-'}  [bold]query[/bold] {planner['query'] or '-'}"
    )
    if planner["current_intent"]:
        console.print(f"[bold]current intent[/bold] {planner['current_intent']}")
    for name, value in planner["slots"].items():
        console.print(f"[bold]slot[/bold] {name} = {value}")
    curator = result["curator"]
    if curator["long_term"]:
        table = Table(title="long-term memory", title_justify="left")
        for column in ("polarity", "category", "domain", "slug", "strength", "keywords"):
            table.add_column(column)
        for entry in curator["long_term"]:
            table.add_row(
                entry["polarity"],
                entry["category"],
                entry["domain"] or "(global)",
                entry["slug"],
                entry["strength"],
                ", ".join(entry["keywords"]),
            )
        console.print(table)
    else:
        console.print("long-term memory: nothing to remember")
    for key in curator["supersede"]:
        console.print(f"[bold]supersede[/bold] {key}")
    for group in curator["recipients"]:
        for entry in group["long_term"]:
            console.print(
                f"[bold]remember for {group['recipient']}[/bold] {entry['dedup_key']} "
                f"({entry['strength']})"
            )
        for key in group["supersede"]:
            console.print(f"[bold]supersede for {group['recipient']}[/bold] {key}")
    patch = curator["session_patch"]
    for constraint in patch["constraints"]:
        console.print(
            f"[bold]this session[/bold] {constraint['polarity']} {constraint['category']}:"
            f"{constraint['slug']} ({constraint['strength']})"
        )
    for name, value in patch["slots_patch"].items():
        console.print(f"[bold]session slot[/bold] {name} = {value or '(removed)'}")
    for question in patch["resolved_questions"]:
        console.print(f"[bold]answered[/bold] {question}")
    for decision in patch["decisions_made"]:
        console.print(f"[bold]decision[/bold] {decision}")


def print_engine_notes(engine: Engine) -> None:
    """With the llm engine: which calls the rules engine answered, and what it corrected."""
    counters = getattr(engine, "counters", None)
    snapshot = getattr(counters, "snapshot", None)
    if not callable(snapshot):
        return
    numbers = snapshot()
    fallbacks = numbers.get("fallbacks", {})
    if fallbacks:
        reasons = ", ".join(f"{reason} ×{count}" for reason, count in sorted(fallbacks.items()))
        typer.echo(f"llm: the rules engine answered instead ({reasons})")
    corrections = {
        name: numbers[name]
        for name in (
            "polarity_corrections",
            "safety_corrections",
            "scope_corrections",
            "query_corrections",
            "dropped_entries",
        )
        if numbers.get(name)
    }
    if corrections:
        typer.echo(
            "llm: " + ", ".join(f"{n.replace('_', ' ')} {c}" for n, c in corrections.items())
        )
