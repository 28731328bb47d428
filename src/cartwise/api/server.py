"""Running the app under uvicorn: in the foreground (`cartwise serve`) or on a background
thread (the loopback test and the throughput benchmark).

The socket is bound before uvicorn starts, so port 0 works and the printed URL is the real
one."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

import uvicorn
from fastapi import FastAPI

from cartwise.api.deps import ApiState

STARTUP_TIMEOUT_SECONDS = 60.0


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on `host:port` (port 0: any free port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


class DrainingServer(uvicorn.Server):
    """uvicorn, telling the app when a stop was asked for, so running streams can end with
    RUN_ERROR inside the grace period instead of being cut with no ending at all."""

    def __init__(self, config: uvicorn.Config, *, grace_seconds: float | None) -> None:
        super().__init__(config)
        self._grace_seconds = grace_seconds

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        state = getattr(getattr(self.config.app, "state", None), "cartwise", None)
        if isinstance(state, ApiState) and self._grace_seconds is not None:
            state.shutdown.begin(self._grace_seconds)
        super().handle_exit(sig, frame)


def make_server(
    app: FastAPI,
    *,
    log_level: str = "info",
    graceful_seconds: int | None = None,
    forwarded_allow_ips: str = "",
) -> uvicorn.Server:
    # lifespan "on": the app opens its stores at start and closes them at shutdown.
    # log_config None: uvicorn's loggers keep the handlers `configure_logging` gave them.
    # timeout_graceful_shutdown: on SIGTERM, open requests (running turns) get this long to
    # finish after the listening socket closes.
    config = uvicorn.Config(
        app,
        log_level=log_level,
        lifespan="on",
        access_log=False,
        log_config=None,
        timeout_graceful_shutdown=graceful_seconds,
        # Only the named proxies: uvicorn's own default would trust 127.0.0.1 (and read
        # FORWARDED_ALLOW_IPS from the environment behind our settings' back).
        proxy_headers=bool(forwarded_allow_ips),
        forwarded_allow_ips=forwarded_allow_ips or [],
    )
    return DrainingServer(config, grace_seconds=graceful_seconds)


@contextmanager
def serving_in_thread(
    app: FastAPI, *, host: str = "127.0.0.1", port: int = 0, forwarded_allow_ips: str = ""
) -> Iterator[str]:
    """Serve `app` on a background thread; yields its base URL once it accepts requests."""
    sock = bind(host, port)
    server = make_server(app, log_level="warning", forwarded_allow_ips=forwarded_allow_ips)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        # uvicorn offers no start event; `started` flips once the lifespan ran and the
        # socket is being served.
        deadline = time.monotonic() + STARTUP_TIMEOUT_SECONDS
        while not server.started and thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.02)
        if not server.started:
            raise RuntimeError("uvicorn did not start (see its log above)")
        yield url_of(sock)
    finally:
        server.should_exit = True
        thread.join(timeout=STARTUP_TIMEOUT_SECONDS)
        sock.close()
