"""`cartwise serve`: index the demo catalog on first start, then serve the API and page."""

from __future__ import annotations

import signal
import time
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from cartwise.errors import CartwiseError
from cartwise.log import configure_logging
from cartwise.settings import Settings, get_settings

if TYPE_CHECKING:
    from fastapi import FastAPI

    from cartwise.agent.deps import AgentDeps


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)


def serve(
    host: Annotated[
        str | None, typer.Option(help="Address to bind (default: HOST, 127.0.0.1).")
    ] = None,
    port: Annotated[
        int | None, typer.Option(min=0, max=65535, help="Port (default: PORT, 8000; 0: any).")
    ] = None,
) -> None:
    """Start the Cartwise server (web page at /, API under /api, AG-UI at /api/agent)."""
    settings = get_settings()
    console = Console(stderr=True)
    from cartwise.api.secret import require_explicit_secret
    from cartwise.api.server import bind, make_server, url_of

    address = (host or settings.host, settings.port if port is None else port)
    try:
        require_explicit_secret(settings, host=address[0])
    except CartwiseError as exc:
        console.print(f"[red]error:[/red] {exc}", soft_wrap=True)
        raise typer.Exit(2) from None
    try:
        # Bind first: a port in use fails at once, not after indexing the catalog.
        sock = bind(*address)
    except OSError as exc:
        console.print(
            f"[red]error:[/red] cannot listen on {address[0]}:{address[1]}: {exc}", soft_wrap=True
        )
        raise typer.Exit(1) from None
    try:
        app = _prepare(settings, console)
    except CartwiseError as exc:
        sock.close()
        console.print(f"[red]error:[/red] {exc}", soft_wrap=True)
        raise typer.Exit(1) from None
    configure_logging()
    console.print(f"Cartwise is running at [bold]{url_of(sock)}[/bold]  (Ctrl+C to stop)")
    # uvicorn drains on SIGTERM, then raises the signal again for the handler it found.
    # Once the running turns are drained, stopping is a clean exit (0), not a kill.
    signal.signal(signal.SIGTERM, lambda signum, frame: None)
    make_server(
        app,
        graceful_seconds=settings.shutdown_grace_seconds,
        forwarded_allow_ips=settings.forwarded_allow_ips,
    ).run(sockets=[sock])


def _prepare(settings: Settings, console: Console) -> FastAPI:
    """Load the embedder once, make sure the catalog is indexed, build the app (which opens
    and warms the agent's dependencies before it reports ready)."""
    from cartwise.agent.deps import create_deps
    from cartwise.api.main import create_app
    from cartwise.commands.common import ensure_demo_catalog
    from cartwise.embedding import create_embedder
    from cartwise.recall.service import RecallService

    with console.status(f"loading the embedding model {settings.embedder}"):
        embedder = create_embedder(settings.embedder, settings)
    recall = RecallService.open(settings, embedder)
    try:
        indexed = ensure_demo_catalog(settings, recall, embedder)
        if indexed is not None:
            console.print("first start: the demo catalog is indexed")
        console.print(f"catalog: {recall.count()} products on {', '.join(recall.platforms())}")
    finally:
        recall.close()

    def warm_deps(settings: Settings) -> AgentDeps:
        # Before the app reports ready (/readyz), so the first shopper's turn costs what any
        # other turn costs.
        deps = create_deps(settings, embedder=embedder, offload_reads=True)
        started = time.perf_counter()
        try:
            with console.status("warming up: the model, the index and the reader"):
                deps.warm_up()
        except BaseException:
            deps.close()
            raise
        console.print(f"warmed up in {time.perf_counter() - started:.1f}s")
        return deps

    return create_app(settings, deps_factory=warm_deps)
