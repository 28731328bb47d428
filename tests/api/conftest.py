"""API fixtures: the app in-process over real SQLite stores, with a scripted agent."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from cartwise.agent.deps import AgentDeps
from cartwise.api.main import create_app
from cartwise.embedding import create_embedder
from cartwise.memory import (
    create_preference_store,
    create_price_history,
    create_session_store,
    create_watch_store,
)
from cartwise.recall.service import RecallService
from cartwise.settings import Settings
from tests.doubles import ScriptedAgent

PASSWORD = "correct-horse-battery"
TEST_SECRET = "test-secret-" + "x" * 40
"""An explicit AUTH_SECRET, which replicas (STORE_BACKEND=redis) must have."""


CHEAP_HASHING = {"password_hash_memory_kib": 1024, "password_hash_time_cost": 1}
"""Real argon2 with the cost lowered: these tests hash two passwords per account."""


@pytest.fixture
def api_settings(settings: Settings) -> Settings:
    return settings.model_copy(
        update={"rate_limit_per_minute": 1000, "register_per_hour": 1000, **CHEAP_HASHING}
    )


@pytest.fixture(params=["sqlite", pytest.param("redis", marks=pytest.mark.redis)])
def stores(request: pytest.FixtureRequest, api_settings: Settings) -> Iterator[AgentDeps]:
    """The real stores (SQLite, and Redis marked `redis`) and recall service (an empty FAISS
    index). The scripted agent never plans, so no engine is opened."""
    settings = api_settings
    if request.param == "redis":
        url = request.getfixturevalue("clean_redis")
        settings = api_settings.model_copy(
            update={"store_backend": "redis", "redis_url": url, "auth_secret": TEST_SECRET}
        )
    deps = open_stores(settings)
    yield deps
    deps.close()


def open_stores(settings: Settings) -> AgentDeps:
    """Real stores for `settings` (its caps included) and an empty recall service."""
    embedder = create_embedder(settings.embedder, settings)
    return AgentDeps(
        settings=settings,
        preferences=create_preference_store(settings, embedder),
        sessions=create_session_store(settings),
        recall=RecallService.open(settings, embedder),
        engine=None,  # type: ignore[arg-type]
        embedder=embedder,
        prices=create_price_history(settings),
        watches=create_watch_store(settings),
    )


@pytest.fixture
def agent() -> ScriptedAgent:
    return ScriptedAgent()


@pytest.fixture
def app(stores: AgentDeps, agent: ScriptedAgent) -> FastAPI:
    return create_app(stores.settings, stores, runner=agent)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    # A loopback peer, as a browser on this machine (and a scraper allowed /metrics) is.
    with TestClient(app, client=("127.0.0.1", 50000)) as test_client:
        yield test_client


def signup(client: TestClient | httpx.Client, username: str) -> dict[str, str]:
    """Register `username` and return its Authorization header."""
    response = client.post("/api/auth/register", json={"username": username, "password": PASSWORD})
    assert response.status_code == 201, response.text
    token = client.post("/api/auth/token", data={"username": username, "password": PASSWORD})
    assert token.status_code == 200, token.text
    return {"Authorization": f"Bearer {token.json()['access_token']}"}


def run_input(thread: str, message: str, **extra: Any) -> dict[str, Any]:
    """A RunAgentInput body (camelCase, as a browser sends it)."""
    return {
        "threadId": thread,
        "runId": f"run-{uuid.uuid4().hex[:8]}",
        "messages": [{"id": f"m-{uuid.uuid4().hex[:8]}", "role": "user", "content": message}],
        "state": {},
        "tools": [],
        "context": [],
        "forwardedProps": {},
        **extra,
    }
