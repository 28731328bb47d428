"""`cartwise ask` (one turn, or a replayed conversation) and `cartwise chat` (interactive).

`ask --json` prints one `TurnResult` object (documented in docs/ask.md); `--script FILE`
replays JSON lines `{"user", "thread", "message"}` in one process — the model, the index
and the stores load once — and prints one TurnResult JSON per line (an `{"error", "line"}`
object in place of a line that cannot run).
"""

from __future__ import annotations

import asyncio
import json
import uuid
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from pydantic import BaseModel, ConfigDict, ValidationError

from cartwise.commands.common import clean_errors
from cartwise.errors import CartwiseError, InvalidInput
from cartwise.settings import get_settings

if TYPE_CHECKING:
    from ag_ui.core import BaseEvent
    from rich.console import Console

    from cartwise.agent.deps import AgentDeps
    from cartwise.agent.result import TurnResult

EXIT_COMMANDS = {"/quit", "/exit", "/q"}


def register(app: typer.Typer) -> None:
    app.command("ask")(ask)
    app.command("chat")(chat)


class ScriptTurn(BaseModel):
    """One line of an `ask --script` file."""

    model_config = ConfigDict(extra="forbid")

    user: str
    thread: str
    message: str


def open_agent() -> AgentDeps:
    """Stores, recall and engine, with the demo catalog indexed on first use."""
    from cartwise.agent.deps import create_deps
    from cartwise.commands.common import ensure_demo_catalog

    settings = get_settings()
    deps = create_deps(settings)
    try:
        ensure_demo_catalog(settings, deps.recall, deps.embedder)
    except BaseException:
        deps.close()
        raise
    return deps


def ask(
    message: Annotated[str, typer.Argument(help="What the shopper says.")] = "",
    user: Annotated[str, typer.Option("--user", "-u", help="Shopper id.")] = "",
    thread: Annotated[str, typer.Option("--thread", "-t", help="Conversation id.")] = "cli",
    as_json: Annotated[bool, typer.Option("--json", help="Print the TurnResult JSON.")] = False,
    script: Annotated[
        Path | None,
        typer.Option("--script", help='JSON lines {"user","thread","message"}; one output each.'),
    ] = None,
) -> None:
    """One turn of the assistant (or a replayed conversation with --script)."""
    with clean_errors():
        if script is None and not message.strip():
            raise InvalidInput("give a MESSAGE (and --user), or --script FILE")
        if script is None and not user.strip():
            raise InvalidInput("give --user: memory belongs to a shopper")
        lines = _read_script(script) if script is not None else None
        from cartwise.agent.run import run_agent

        deps = open_agent()
        try:
            if lines is not None:
                asyncio.run(_run_script(deps, lines))
                return
            result = asyncio.run(run_agent(deps, user=user, thread=thread, message=message))
        finally:
            deps.close()
        if as_json:
            typer.echo(result.model_dump_json())
        else:
            from rich.console import Console

            render(Console(), result, streamed=False)


def _read_script(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"cannot read script {path}: {exc}") from exc


async def _run_script(deps: AgentDeps, lines: list[str]) -> None:
    """Bad lines print an error object in their place; the rest still run, in order."""
    from cartwise.agent.run import run_agent

    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            turn = ScriptTurn.model_validate_json(text)
            result = await run_agent(deps, user=turn.user, thread=turn.thread, message=turn.message)
        except (ValidationError, InvalidInput) as exc:
            first_line = str(exc).splitlines()[0]
            typer.echo(json.dumps({"error": first_line, "line": number}, ensure_ascii=False))
            continue
        typer.echo(result.model_dump_json())


def chat(
    user: Annotated[str, typer.Option("--user", "-u", help="Shopper id.")],
    thread: Annotated[
        str, typer.Option("--thread", "-t", help="Conversation id (default: a new one).")
    ] = "",
) -> None:
    """Talk to the assistant. /memory shows what it remembers, /quit leaves."""
    from rich.console import Console

    console = Console()
    thread = thread or f"chat-{uuid.uuid4().hex[:8]}"
    with clean_errors():
        if not user.strip():
            raise InvalidInput("give --user: memory belongs to a shopper")
    # The model, the index and the reader load while the shopper types the first message.
    warming = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cartwise-warm-up")
    agent = warming.submit(_warm_agent)
    warming.shutdown(wait=False)
    console.print(
        f"[bold]Cartwise[/bold] · user [cyan]{user}[/cyan] · thread [cyan]{thread}[/cyan]"
    )
    console.print(
        "[dim]Type what you are looking for. /memory shows your memory, /quit leaves.[/dim]"
    )
    try:
        asyncio.run(_chat_loop(console, agent, user=user, thread=thread))
    finally:
        if agent.exception() is None:  # a failed start was reported where it was awaited
            agent.result().close()


def _warm_agent() -> AgentDeps:
    deps = open_agent()
    try:
        deps.warm_up()
    except BaseException:
        deps.close()
        raise
    return deps


async def _chat_loop(console: Console, agent: Future[AgentDeps], *, user: str, thread: str) -> None:
    from ag_ui.core import EventType, TextMessageContentEvent

    from cartwise.agent.run import run_agent

    async def stream(event: BaseEvent) -> None:
        if event.type == EventType.TEXT_MESSAGE_START:
            console.print("[bold green]cartwise>[/bold green] ", end="")
        elif isinstance(event, TextMessageContentEvent):
            console.print(event.delta, end="", markup=False, highlight=False)
        elif event.type == EventType.TEXT_MESSAGE_END:
            console.print()

    while True:
        try:
            message = console.input("[bold cyan]you>[/bold cyan] ").strip()
        except (EOFError, KeyboardInterrupt):
            console.print()
            return
        if not message:
            continue
        if message in EXIT_COMMANDS:
            return
        with clean_errors():
            deps = await asyncio.wrap_future(agent)
        if message == "/memory":
            _print_memory(console, deps, user)
            continue
        try:
            result = await run_agent(deps, user=user, thread=thread, message=message, emit=stream)
        except CartwiseError as exc:
            console.print(f"[red]error:[/red] {exc}", markup=True, highlight=False)
            continue
        render(console, result, streamed=True)


def _print_memory(console: Console, deps: AgentDeps, user: str) -> None:
    entries = deps.preferences.list(user)
    if not entries:
        console.print("[dim]nothing remembered yet[/dim]")
    for entry in entries:
        words = ", ".join(entry.keywords)
        console.print(f"  {entry.dedup_key}  [dim]{entry.strength.value} {words}[/dim]")


def render(console: Console, result: TurnResult, *, streamed: bool) -> None:
    """The reply (unless it was streamed), products grouped by platform with their links,
    what was filtered."""
    from rich.table import Table

    if not streamed:
        console.print(result.reply, markup=False, highlight=False)
    by_platform: dict[str, list[int]] = {}
    for index, product in enumerate(result.products):
        by_platform.setdefault(product.platform, []).append(index)
    for platform, indexes in by_platform.items():
        table = Table(title=platform, title_justify="left", show_lines=False)
        for column in ("#", "title", "brand", "price", "rating", "why"):
            table.add_column(column, overflow="fold")
        for index in indexes:
            p = result.products[index]
            table.add_row(
                str(index + 1),
                p.title,
                p.brand,
                f"{p.price:g} {p.currency}"
                + ("" if p.currency == "CNY" else f" (≈{p.price_base:g} CNY)"),
                "" if p.rating is None else f"{p.rating:.1f}",
                "; ".join(p.why),
            )
        console.print(table)
        # Links on lines of their own (unfolded), so terminals can open them.
        for index in indexes:
            if url := result.products[index].url:
                console.print(
                    f"  {index + 1}. {url}", markup=False, highlight=False, soft_wrap=True
                )
    for comparison in result.price_compare:
        offers = ", ".join(f"{o.platform} {o.price:g} {o.currency}" for o in comparison.offers)
        console.print(f"[bold]price compare[/bold] {comparison.title}: {offers}", highlight=False)
    if result.rejected:
        console.print(f"[dim]filtered out {len(result.rejected)} candidates[/dim]")
    if result.demoted:
        console.print(f"[dim]ranked {len(result.demoted)} candidates lower[/dim]")
    state = "active" if result.personalization.active else "inactive"
    console.print(f"[dim]personalization: {state} · {result.timings.get('total', 0):.0f} ms[/dim]")
