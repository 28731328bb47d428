"""API fixtures: the app in-process over real SQLite stores, with a scripted agent."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from cartwise.api.main import create_app
from cartwise.memory.backends.sqlite import SqlitePreferenceStore, SqliteSessionStore
from cartwise.memory.session_state import SessionStore
from cartwise.memory.store import PreferenceStore
from cartwise.recall.embedders.hashing import HashingEmbedder
from cartwise.settings import Settings
from tests.doubles import ScriptedAgent

PASSWORD = "correct-horse-battery"


@dataclass(frozen=True)
class StoreDeps:
    """The stores part of `AgentDeps` (what the API itself touches)."""

    settings: Settings
    preferences: PreferenceStore
    sessions: SessionStore
    recall: Any = None


@pytest.fixture
def api_settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"rate_limit_per_minute": 1000})


@pytest.fixture
def stores(api_settings: Settings) -> Iterator[StoreDeps]:
    home = api_settings.home
    deps = StoreDeps(
        settings=api_settings,
        preferences=SqlitePreferenceStore(home / "preferences.db", HashingEmbedder(256)),
        sessions=SqliteSessionStore(
            home / "sessions.db",
            ttl_seconds=api_settings.session_ttl_seconds,
            max_messages=api_settings.session_max_messages,
            max_rejected=api_settings.session_max_rejected,
        ),
    )
    yield deps
    deps.preferences.close()
    deps.sessions.close()


@pytest.fixture
def agent() -> ScriptedAgent:
    return ScriptedAgent()


@pytest.fixture
def app(api_settings: Settings, stores: StoreDeps, agent: ScriptedAgent) -> FastAPI:
    return create_app(api_settings, stores, runner=agent)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
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
