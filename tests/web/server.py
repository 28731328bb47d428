"""A real uvicorn on loopback for the browser tests, and a data directory with the demo
catalog indexed once.

The browser tests run the product as a shopper gets it: real API, real agent, rules engine,
SQLite stores and the bundled e5 model. The shipped demo vectors make indexing the 17,000
offers a matter of seconds.
"""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import uvicorn
from fastapi import FastAPI

from cartwise.catalog.demo import ingest_demo
from cartwise.embedding import create_embedder
from cartwise.memory import create_price_recorder
from cartwise.recall.service import RecallService
from cartwise.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
READY_TIMEOUT_SECONDS = 120.0
"""Starting the app loads the embedding model and opens the index: on a shared 2-core machine
under load that alone has taken over 30 s."""


def indexed_settings(home: Path) -> Settings:
    """Settings for a fresh home with the demo catalog indexed."""
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None,
        cartwise_home=home,
        embedder="e5:small",
        rate_limit_per_minute=1000,
        register_per_hour=1000,  # every browser flow registers an account of its own
    )
    embedder = create_embedder(settings.embedder, settings)
    recall = RecallService.open(settings, embedder)
    prices = create_price_recorder(settings, demo=True)  # the demo's past, as `serve` gives it
    try:
        ingest_demo(settings, recall, embedder, progress=False, prices=prices)
    finally:
        if prices is not None:
            prices.close()
        recall.close()
    return settings


@dataclass
class RunningServer:
    """A uvicorn serving an app in a background thread."""

    server: uvicorn.Server
    thread: threading.Thread
    url: str

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)


def start_server(app: FastAPI, port: int = 0) -> RunningServer:
    """Serve `app` on 127.0.0.1 (port 0: any free port) and return once /healthz answers."""
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="web-test-uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + READY_TIMEOUT_SECONDS
    while not (server.started and server.servers):
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)  # polling the server's own readiness flag, not waiting blindly
    bound = server.servers[0].sockets[0].getsockname()[1]
    url = f"http://127.0.0.1:{bound}"
    with httpx.Client(timeout=2.0) as client:
        while client.get(f"{url}/healthz").status_code != 200:
            if time.monotonic() > deadline:
                raise RuntimeError("/healthz never answered 200")
            time.sleep(0.02)
    return RunningServer(server=server, thread=thread, url=url)


def main() -> None:
    """Serve the real app over a freshly indexed demo catalog, for working on the page:
    `.venv/bin/python -m tests.web.server [PORT]` (Ctrl-C stops it)."""
    import signal
    import tempfile

    from cartwise.api.main import create_app

    port = int(sys.argv[1]) if len(sys.argv) > 1 else 8201
    home = Path(tempfile.mkdtemp(prefix="cartwise-web-")) / "home"
    server = start_server(create_app(indexed_settings(home)), port=port)
    print(f"serving {server.url} (data in {home})", flush=True)
    signal.sigwait({signal.SIGINT, signal.SIGTERM})
    server.stop()


if __name__ == "__main__":
    main()
