"""`cartwise serve` replicas in their own processes, sharing a Redis and a CARTWISE_HOME."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path

CARTWISE = str(Path(sys.executable).with_name("cartwise"))
START_TIMEOUT_SECONDS = 240.0
SECRET = "replica-secret-" + "y" * 40


def replica_env(home: Path, redis_url: str, **extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "CARTWISE_HOME": str(home),
        "EMBEDDER": "hashing:256",
        "STORE_BACKEND": "redis",
        "REDIS_URL": redis_url,
        "AUTH_SECRET": SECRET,
        "PASSWORD_HASH_MEMORY_KIB": "1024",
        "PASSWORD_HASH_TIME_COST": "1",
        "REGISTER_PER_HOUR": "1000",
        "CATALOG_CHECK_SECONDS": "0.2",
        **extra,
    }


@dataclass
class Replica:
    process: subprocess.Popen[str]
    url: str
    log: list[str] = field(default_factory=list)

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 60.0) -> int:
        if self.process.poll() is None:
            self.process.send_signal(sig)
        return self.process.wait(timeout=timeout)


@contextmanager
def replica(env: dict[str, str]) -> Iterator[Replica]:
    """One `cartwise serve --port 0`; yields once it prints its URL; stopped afterwards."""
    process = subprocess.Popen(
        [CARTWISE, "serve", "--port", "0"],
        env=env,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        bufsize=1,
        # Its own process group, so whatever it started can be stopped with it.
        start_new_session=True,
    )
    log: list[str] = []
    url = ""
    drain: threading.Thread | None = None
    try:
        assert process.stderr is not None
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        for line in process.stderr:
            log.append(line)
            if match := re.search(r"running at (http://\S+)", line):
                url = match.group(1)
                break
            if time.monotonic() > deadline:
                break
        if not url:
            raise RuntimeError(f"serve did not start ({process.poll()}):\n{''.join(log)}")
        # Keep draining the log so a full pipe never blocks the server.
        stream = process.stderr
        drain = threading.Thread(target=lambda: log.extend(stream), daemon=True)
        drain.start()
        yield Replica(process, url, log)
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=60)
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        # Closing the pipe while the drain still reads it would wait on the drain's lock,
        # which a process still holding the pipe's other end keeps for ever.
        if drain is not None:
            drain.join(timeout=10)
        if process.stderr is not None and (drain is None or not drain.is_alive()):
            process.stderr.close()


LLM_DELAY_SECONDS = 1.0


class SlowFailingLLM(BaseHTTPRequestHandler):
    """An OpenAI-compatible endpoint that thinks for a second, then fails: every engine call
    of a turn takes that long and the rules engine answers instead — a turn that is
    certainly still running a moment after it started."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        time.sleep(LLM_DELAY_SECONDS)
        self.send_response(503)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(b'{"error": {"message": "busy"}}')

    def log_message(self, *args: object) -> None:
        pass
