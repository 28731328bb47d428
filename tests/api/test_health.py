"""Liveness, readiness, metrics, and serving while a backend is down."""

from __future__ import annotations

import dataclasses
from functools import partial

import pytest
from fastapi.testclient import TestClient

from cartwise.agent.deps import AgentDeps
from cartwise.api.main import create_app
from cartwise.errors import StoreUnavailable
from cartwise.memory.injector import dislike_exclude_terms, keyword_fallbacks
from cartwise.memory.store import PreferenceEntry
from cartwise.settings import Settings
from cartwise.understanding import worker_rules_engine
from cartwise.understanding.offload import OffloadEngine
from tests.api.conftest import run_input, signup
from tests.doubles import ScriptedAgent

METRIC_NAMES = (
    "cartwise_turn_stage_seconds",
    "cartwise_turn_seconds",
    "cartwise_turns_total",
    "cartwise_memory_writes_total",
    "cartwise_engine_fallbacks_total",
    "cartwise_keyword_fallback_warnings_total",
    "cartwise_warnings_total",
    "cartwise_rejected_requests_total",
    "cartwise_long_reads_total",
    "cartwise_reader_worker_failures_total",
)


def test_healthz_and_readyz(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok", "checks": {}}
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json()["checks"] == {
        "accounts": "ok",
        "preferences": "ok",
        "sessions": "ok",
        "index": "ok: 0 products",
    }


def test_openapi_and_web_page_are_served(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert "/api/agent" in schema["paths"]
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")


def test_metrics_exposes_every_metric(client: TestClient) -> None:
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    for name in METRIC_NAMES:
        assert f"# HELP {name.removesuffix('_total')}" in response.text, name


def test_fallback_counters_and_warnings_are_exported(
    client: TestClient, stores: AgentDeps, api_settings: Settings
) -> None:
    before = keyword_fallbacks["material"]
    bare = PreferenceEntry(polarity="dislike", category="material", slug="plastic", strength="hard")
    stores.preferences.upsert("alice", bare)
    dislike_exclude_terms(stores.preferences, "alice", "耳机", settings=api_settings)
    text = client.get("/metrics").text
    assert f'cartwise_keyword_fallback_warnings_total{{category="material"}} {before + 1}.0' in text
    assert 'cartwise_warnings_total{module="injector"} 1.0' in text


def test_llm_engine_fallbacks_are_exported(api_settings: Settings, stores: AgentDeps) -> None:
    class CountingEngine:
        class counters:
            @staticmethod
            def snapshot() -> dict[str, object]:
                return {"fallbacks": {"timeout": 2, "invalid_output": 1}}

    deps = dataclasses.replace(stores, engine=CountingEngine())
    app = create_app(api_settings, deps, runner=ScriptedAgent())
    with TestClient(app, client=("127.0.0.1", 1)) as client:
        text = client.get("/metrics").text
    assert 'cartwise_engine_fallbacks_total{reason="timeout"} 2.0' in text
    assert 'cartwise_engine_fallbacks_total{reason="invalid_output"} 1.0' in text


def test_where_long_messages_were_read_is_exported(
    api_settings: Settings, stores: AgentDeps
) -> None:
    engine = OffloadEngine(stores.engine, partial(worker_rules_engine, []), min_chars=300)
    engine.stats.offloaded, engine.stats.in_process, engine.stats.failures = 7, 2, 1
    deps = dataclasses.replace(stores, engine=engine)
    app = create_app(api_settings, deps, runner=ScriptedAgent())
    with TestClient(app, client=("127.0.0.1", 1)) as client:
        text = client.get("/metrics").text
    assert 'cartwise_long_reads_total{where="worker"} 7.0' in text
    assert 'cartwise_long_reads_total{where="in_process"} 2.0' in text
    assert "cartwise_reader_worker_failures_total 1.0" in text


def _down(url: str):  # type: ignore[no-untyped-def]
    def factory(settings: Settings) -> AgentDeps:
        raise StoreUnavailable(url, "connection refused")

    return factory


def test_dead_backend_at_start_serves_503_without_its_address(api_settings: Settings) -> None:
    url = "redis://127.0.0.1:1/0"
    agent = ScriptedAgent()
    app = create_app(api_settings, runner=agent, deps_factory=_down(url))
    with TestClient(app) as client:
        assert client.get("/healthz").status_code == 200
        ready = client.get("/readyz")
        assert ready.status_code == 503
        assert ready.json()["checks"]["preferences"] == "unavailable"
        assert url not in ready.text
        headers = signup(client, "alice")  # accounts live in SQLite, not in the dead backend
        for response in (
            client.post("/api/agent", json=run_input("t1", "hi"), headers=headers),
            client.get("/api/memory", headers=headers),
            client.get("/api/threads", headers=headers),
        ):
            assert response.status_code == 503
            assert url not in response.text
    assert agent.calls == []


def test_backend_recovers_without_a_restart(api_settings: Settings, stores: AgentDeps) -> None:
    attempts: list[int] = []

    def flaky(settings: Settings) -> AgentDeps:
        attempts.append(1)
        if len(attempts) == 1:
            raise StoreUnavailable("redis://127.0.0.1:1/0", "connection refused")
        return stores

    app = create_app(api_settings, runner=ScriptedAgent(), deps_factory=flaky)
    app.state.cartwise.provider.retry_seconds = 0.0
    with TestClient(app) as client:
        assert client.get("/readyz").status_code == 200
        assert len(attempts) == 2


@pytest.mark.parametrize("path", ["/api/memory", "/api/threads", "/api/search?q=x"])
def test_every_api_route_needs_a_token(client: TestClient, path: str) -> None:
    assert client.get(path).status_code == 401


@pytest.mark.parametrize("peer", ["203.0.113.9", "10.0.0.2"])
def test_metrics_answer_only_a_loopback_scraper_without_a_token(
    api_settings: Settings, stores: AgentDeps, peer: str
) -> None:
    app = create_app(api_settings, stores, runner=ScriptedAgent())
    with TestClient(app, client=(peer, 4000)) as remote:
        assert remote.get("/metrics").status_code == 404
    with TestClient(app, client=("::1", 4000)) as local:
        assert local.get("/metrics").status_code == 200


def test_metrics_with_a_token_answer_only_that_bearer(
    api_settings: Settings, stores: AgentDeps
) -> None:
    token = "scrape-" + "k" * 30
    app = create_app(api_settings.model_copy(update={"metrics_token": token}), stores)
    with TestClient(app, client=("198.51.100.4", 1)) as scraper:
        assert scraper.get("/metrics").status_code == 404
        wrong = scraper.get("/metrics", headers={"Authorization": "Bearer scrape-nope"})
        assert wrong.status_code == 404
        right = scraper.get("/metrics", headers={"Authorization": f"Bearer {token}"})
        assert right.status_code == 200 and "cartwise_turns" in right.text
    with TestClient(app, client=("127.0.0.1", 1)) as local:
        assert local.get("/metrics").status_code == 404  # the token is required everywhere
