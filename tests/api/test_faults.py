"""Faults a fleet meets: Redis dies and comes back while shoppers talk; a replica is killed
in the middle of a turn while the other keeps serving."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from tests.api.conftest import PASSWORD, run_input, signup
from tests.redis_cluster import free_port
from tests.replicas import replica, replica_env

pytestmark = [pytest.mark.redis, pytest.mark.slow]

RECOVERY_SECONDS = 30.0


@contextmanager
def own_redis(port: int, workdir: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A redis-server that fsyncs every write (appendfsync always), so what it acknowledged
    survives a SIGKILL and a restart on the same port."""
    workdir.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen(
        [
            "redis-server",
            "--port", str(port),
            "--bind", "127.0.0.1",
            "--save", "",
            "--appendonly", "yes",
            "--appendfsync", "always",
            "--dir", str(workdir),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            ping = subprocess.run(
                ["redis-cli", "-p", str(port), "ping"], capture_output=True, text=True, timeout=5
            )
            if ping.stdout.strip() == "PONG":
                break
            time.sleep(0.05)
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=20)


def _acknowledged(response: httpx.Response) -> list[str]:
    """The memory writes a turn's `memory_updated` event acknowledged."""
    added: list[str] = []
    for line in response.text.splitlines():
        if line.startswith("data:"):
            event = json.loads(line[5:])
            if event["type"] == "CUSTOM" and event["name"] == "memory_updated":
                added += [e["dedup_key"] for e in event["value"].get("added", [])]
    return added


def _stored(client: httpx.Client, headers: dict[str, str]) -> set[str]:
    response = client.get("/api/memory", headers=headers)
    assert response.status_code == 200, response.text
    return {e["dedup_key"] for e in response.json()}


def test_redis_killed_and_restarted_mid_conversation(tmp_path: Path) -> None:
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    env = replica_env(tmp_path / "home", url, REDIS_TIMEOUT_SECONDS="1")
    redis_dir = tmp_path / "redis"
    with own_redis(port, redis_dir) as first, replica(env) as server:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            headers = signup(client, "alice")
            before = client.post(
                "/api/agent", json=run_input("t1", "I like wool, show me jackets"), headers=headers
            )
            assert before.status_code == 200
            acknowledged = _acknowledged(before)
            assert acknowledged

            first.kill()
            first.wait(timeout=20)
            during = client.post(
                "/api/agent", json=run_input("t1", "cheaper ones"), headers=headers
            )
            assert during.status_code == 503
            assert "127.0.0.1" not in during.text  # no backend address for clients
            assert client.get("/healthz").status_code == 200
            assert client.get("/readyz").status_code == 503

            with own_redis(port, redis_dir):
                # No app restart: the same process recovers once Redis answers again.
                deadline = time.monotonic() + RECOVERY_SECONDS
                status = 0
                while time.monotonic() < deadline:
                    status = client.get("/readyz").status_code
                    if status == 200:
                        break
                    time.sleep(0.5)
                assert status == 200
                after = client.post(
                    "/api/agent", json=run_input("t1", "cheaper ones"), headers=headers
                )
                assert after.status_code == 200 and '"RUN_FINISHED"' in after.text
                # The token, the memory and the thread all survived the outage.
                assert set(acknowledged) <= _stored(client, headers)
                thread = client.get("/api/threads/t1", headers=headers).json()
                assert len(thread["messages"]) == 4
        assert server.process.poll() is None


def test_a_replica_killed_mid_turn_loses_nothing_acknowledged(
    tmp_path: Path, clean_redis: str, slow_llm: str
) -> None:
    home = tmp_path / "home"
    # A answers slowly (a slow LLM), so SIGKILL lands in the middle of its turn.
    slow = replica_env(home, clean_redis, ENGINE="llm", LLM_BASE_URL=slow_llm)
    with (
        replica(replica_env(home, clean_redis)) as b,
        replica(slow) as a,
        httpx.Client(base_url=a.url, timeout=120) as on_a,
        httpx.Client(base_url=b.url, timeout=120) as on_b,
    ):
        headers = signup(on_b, "alice")
        done = on_a.post(
            "/api/agent", json=run_input("t1", "I like wool, show me jackets"), headers=headers
        )
        acknowledged = set(_acknowledged(done))
        assert acknowledged

        with (
            on_a.stream(
                "POST",
                "/api/agent",
                json=run_input("t1", "I like cotton, show me t-shirts"),
                headers=headers,
            ) as response,
            pytest.raises(httpx.TransportError),
        ):
            for line in response.iter_lines():
                if line.startswith("data:") and a.process.poll() is None:
                    a.process.send_signal(signal.SIGKILL)  # after RUN_STARTED
        assert a.process.wait(timeout=30) == -signal.SIGKILL

        # B serves on: the same shopper, token and thread, with everything acknowledged.
        assert acknowledged <= _stored(on_b, headers)
        more = on_b.post(
            "/api/agent", json=run_input("t1", "I like linen, show me shirts"), headers=headers
        )
        assert more.status_code == 200 and '"RUN_FINISHED"' in more.text
        acknowledged |= set(_acknowledged(more))
        assert acknowledged <= _stored(on_b, headers)
        token = on_b.post("/api/auth/token", data={"username": "alice", "password": PASSWORD})
        assert token.status_code == 200
