"""The official AG-UI client (`@ag-ui/client` from npm, locked in agui_client/) against a real
uvicorn on loopback running the real agent: one HttpAgent reused for a 6-turn conversation.

The client resends the whole history and state with every run; the server reads only the new
user message, so the conversation completes even though later bodies are far over
MAX_REQUEST_BYTES (before, the 4th turn got 413 and every turn after it too)."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from cartwise.api.main import create_app
from cartwise.api.server import serving_in_thread
from cartwise.catalog.demo import demo_catalog_path
from cartwise.catalog.pipeline import ingest_file
from cartwise.embedding import create_embedder
from cartwise.recall.service import RecallService
from cartwise.settings import Settings
from tests.agent.conftest import _in_slice
from tests.api.conftest import CHEAP_HASHING, signup

pytestmark = pytest.mark.slow

CLIENT_DIR = Path(__file__).parent / "agui_client"
TURNS = [
    "recommend headphones",
    "no plastic",
    "under 1000 yuan",
    "推荐跑鞋",
    "42码",
    "I like leather, show me jackets",
]
SMALL_LIMIT = 4096
"""MAX_REQUEST_BYTES for this test: the resent history passes it within a few turns."""


@pytest.fixture(scope="module")
def agui_client() -> Path:
    """`npm ci` of the locked client into a cache directory (reused across runs)."""
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        pytest.skip("npm/node are not installed: the official AG-UI client cannot run")
    cache = Path(os.environ.get("CARTWISE_NPM_CACHE", Path.home() / ".cache" / "cartwise-npm"))
    target = cache / "agui_client"
    lock = (CLIENT_DIR / "package-lock.json").read_bytes()
    stamp = target / ".installed-lock"
    if not stamp.exists() or stamp.read_bytes() != lock:
        target.mkdir(parents=True, exist_ok=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copy(CLIENT_DIR / name, target / name)
        subprocess.run(
            [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"],
            cwd=target,
            check=True,
            capture_output=True,
            timeout=600,
        )
        stamp.write_bytes(lock)
    shutil.copy(CLIENT_DIR / "conversation.mjs", target / "conversation.mjs")
    return target


@pytest.fixture
def catalog_settings(settings: Settings) -> Iterator[Settings]:
    """A slice of the demo catalog (headphones, shoes, jackets) on the hashing embedder."""
    configured = settings.model_copy(
        update={"max_request_bytes": SMALL_LIMIT, "rate_limit_per_minute": 1000, **CHEAP_HASHING}
    )
    sliced = configured.home / "slice.jsonl"
    with gzip.open(demo_catalog_path(), "rt", encoding="utf-8") as source:
        rows = [line for line in source if line.strip() and _in_slice(json.loads(line))]
    sliced.write_text("".join(rows[:400]), encoding="utf-8")
    embedder = create_embedder(configured.embedder, configured)
    recall = RecallService.open(configured, embedder)
    try:
        ingest_file(sliced, settings=configured, service=recall, embedder=embedder, progress=False)
    finally:
        recall.close()
    yield configured


def test_a_six_turn_conversation_on_one_reused_http_agent_completes(
    agui_client: Path, catalog_settings: Settings
) -> None:
    app = create_app(catalog_settings)  # the real agent, rules engine
    with serving_in_thread(app) as url, httpx.Client(base_url=url, timeout=60) as client:
        token = signup(client, "agui")["Authorization"].removeprefix("Bearer ")
        result = subprocess.run(
            [
                "node",
                "conversation.mjs",
                url,
                token,
                "agui-conversation",
                json.dumps(TURNS, ensure_ascii=False),
            ],
            cwd=agui_client,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert result.returncode == 0, result.stderr
        report = json.loads(result.stdout.strip().splitlines()[-1])
        stored = client.get(
            "/api/threads/agui-conversation",
            headers={"Authorization": f"Bearer {token}"},
        ).json()

    print("request body bytes per turn:", [turn["bodyBytes"] for turn in report])
    assert [turn["outcome"] for turn in report] == ["finished"] * len(TURNS), report
    for turn in report:
        assert turn["events"][0] == "RUN_STARTED" and turn["events"][-1] == "RUN_FINISHED"
        assert "TOOL_CALL_RESULT" in turn["events"] and "STATE_SNAPSHOT" in turn["events"]
    sizes = [turn["bodyBytes"] for turn in report]
    assert sizes == sorted(sizes)  # the history grows with every run...
    assert sizes[-1] > SMALL_LIMIT  # ...past the general body limit, and still answers
    # The server kept its own record of the conversation: every user message, in order.
    said = [m["content"] for m in stored["messages"] if m["role"] == "user"]
    assert said == TURNS
