"""A throwaway redis-server on a free loopback port for a benchmark run on its own (as
scripts/with-redis.sh starts for `make bench` and `make test`)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def redis_server() -> Iterator[str]:
    """Yields the URL of database 0 of a redis-server that lives as long as the block
    (no persistence, its files in a temporary folder)."""
    executable = shutil.which("redis-server")
    if executable is None:
        raise SystemExit("redis-server is not installed (make system-deps)")
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="cartwise-bench-redis-") as workdir:
        process = subprocess.Popen(
            [
                executable,
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                workdir,
                "--logfile",
                str(Path(workdir) / "redis.log"),
            ],
            stdout=subprocess.DEVNULL,
        )
        try:
            import redis

            client = redis.Redis(host="127.0.0.1", port=port)
            for _ in range(100):
                try:
                    client.ping()
                    break
                except redis.ConnectionError:
                    if process.poll() is not None:
                        raise SystemExit(f"redis-server exited with {process.returncode}") from None
                    time.sleep(0.05)
            client.close()
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            process.terminate()
            process.wait(timeout=30)
