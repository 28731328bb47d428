"""Two `cartwise serve` processes on loopback sharing one real redis-server and one
CARTWISE_HOME: whatever changes an answer is shared."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.api.conftest import run_input, signup
from tests.replicas import CARTWISE, Replica, replica, replica_env

pytestmark = [pytest.mark.redis, pytest.mark.slow]


@pytest.fixture
def pair(tmp_path: Path, clean_redis: str) -> Iterator[tuple[Replica, Replica]]:
    env = replica_env(tmp_path / "home", clean_redis, RATE_LIMIT_PER_MINUTE="3")
    # A first, so the demo catalog is indexed once; B finds it there.
    with replica(env) as a, replica(env) as b:
        yield a, b


def _turn(client: httpx.Client, headers: dict[str, str], thread: str, message: str) -> int:
    response = client.post("/api/agent", json=run_input(thread, message), headers=headers)
    if response.status_code == 200:
        assert '"RUN_FINISHED"' in response.text, response.text[-500:]
    return response.status_code


def test_two_replicas_share_accounts_memory_limits_and_the_catalog(
    pair: tuple[Replica, Replica], tmp_path: Path, clean_redis: str
) -> None:
    a_replica, b_replica = pair
    with (
        httpx.Client(base_url=a_replica.url, timeout=120) as a,
        httpx.Client(base_url=b_replica.url, timeout=120) as b,
    ):
        # Register on A: the token works on B.
        headers = signup(a, "alice")
        assert b.get("/api/me", headers=headers).json()["username"] == "alice"
        # Signing out on B revokes the token on A too.
        other = b.post(
            "/api/auth/token", data={"username": "alice", "password": "correct-horse-battery"}
        )
        other_headers = {"Authorization": f"Bearer {other.json()['access_token']}"}
        assert b.post("/api/auth/logout", headers=other_headers).status_code in (200, 204)
        assert a.get("/api/me", headers=other_headers).status_code == 401

        # Memory written via A is read via B.
        created = a.post(
            "/api/memory",
            json={"polarity": "dislike", "category": "material", "slug": "plastic"},
            headers=headers,
        )
        assert created.status_code == 201, created.text
        assert [e["slug"] for e in b.get("/api/memory", headers=headers).json()] == ["plastic"]

        # A thread started on A continues on B.
        assert _turn(a, headers, "t1", "show me headphones") == 200
        assert _turn(b, headers, "t1", "cheaper please") == 200
        thread = b.get("/api/threads/t1", headers=headers).json()
        assert len(thread["messages"]) == 4

        # The turn limit (3 a minute) is counted across both replicas.
        assert _turn(b, headers, "t2", "show me jackets") == 200
        assert _turn(a, headers, "t2", "show me coats") == 429

        # A catalog ingested through A's configuration is searched through B.
        catalog = tmp_path / "new.jsonl"
        catalog.write_text(
            json.dumps(
                {
                    "platform": "replicashop",
                    "item_id": "z1",
                    "title": "Zephyrquill titanium fountain pen",
                    "price": 88,
                    "currency": "USD",
                }
            )
            + "\n",
            encoding="utf-8",
        )
        ingest = subprocess.run(
            [CARTWISE, "ingest", str(catalog)],
            env=replica_env(tmp_path / "home", clean_redis),
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert ingest.returncode == 0, ingest.stderr
        found: list[str] = []
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not found:
            response = b.get(
                "/api/search",
                params={"q": "Zephyrquill fountain pen", "platform": "replicashop"},
                headers=headers,
            )
            if response.status_code == 200:
                found = [r["item_id"] for r in response.json()["results"]]
            time.sleep(0.2)
        assert found == ["z1"]
        assert (
            a.get("/readyz").json()["checks"]["index"] == b.get("/readyz").json()["checks"]["index"]
        )
