"""A real 3-node Redis Cluster from the Debian redis-server binary, on loopback ports.

Three primaries, no replicas: enough for every slot to exist on some node, so a multi-key
operation over keys of two slots fails with CROSSSLOT exactly as in production."""

from __future__ import annotations

import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

NODES = 3
START_TIMEOUT_SECONDS = 30.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _cli(port: int, *args: str) -> str:
    return subprocess.run(
        ["redis-cli", "-p", str(port), *args],
        capture_output=True,
        text=True,
        timeout=START_TIMEOUT_SECONDS,
        check=True,
    ).stdout


@contextmanager
def redis_cluster() -> Iterator[str]:
    """Start the cluster; yields its `redis+cluster://` URL; stops every node afterwards."""
    ports = [free_port() for _ in range(NODES)]
    # The bus port defaults to port + 10000, which may be taken or past 65535: pick it too.
    bus_ports = [free_port() for _ in range(NODES)]
    processes: list[subprocess.Popen[bytes]] = []
    with tempfile.TemporaryDirectory(prefix="cw-cluster-") as workdir:
        try:
            for port, bus_port in zip(ports, bus_ports, strict=True):
                node_dir = Path(workdir) / str(port)
                node_dir.mkdir()
                processes.append(
                    subprocess.Popen(
                        [
                            "redis-server",
                            "--port", str(port),
                            "--cluster-port", str(bus_port),
                            "--bind", "127.0.0.1",
                            "--cluster-enabled", "yes",
                            "--cluster-config-file", "nodes.conf",
                            "--cluster-node-timeout", "2000",
                            "--save", "",
                            "--appendonly", "no",
                            "--dir", str(node_dir),
                        ],
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                    )
                )  # fmt: skip
            deadline = time.monotonic() + START_TIMEOUT_SECONDS
            for port in ports:
                while time.monotonic() < deadline:
                    try:
                        if _cli(port, "ping").strip() == "PONG":
                            break
                    except subprocess.CalledProcessError:
                        pass
                    time.sleep(0.05)
            addresses = [f"127.0.0.1:{port}" for port in ports]
            created = subprocess.run(
                ["redis-cli", "--cluster", "create", *addresses, "--cluster-yes"],
                capture_output=True,
                text=True,
                timeout=START_TIMEOUT_SECONDS,
                check=False,
            )
            if created.returncode != 0:
                raise RuntimeError(f"redis-cli --cluster create failed: {created.stdout[-500:]}")
            while time.monotonic() < deadline:
                if all("cluster_state:ok" in _cli(port, "cluster", "info") for port in ports):
                    break
                time.sleep(0.1)
            else:
                raise RuntimeError("the Redis Cluster did not reach cluster_state:ok")
            yield "redis+cluster://" + ",".join(addresses)
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(timeout=10)
