"""GET /api/search: the CLI's JSON, personalized by the caller's likes only."""

from __future__ import annotations

from fastapi.testclient import TestClient

from cartwise.agent.deps import AgentDeps
from cartwise.catalog.product import Domain
from cartwise.memory.store import PreferenceEntry
from tests.api.conftest import signup
from tests.factories import make_product


def index_headphones(deps: AgentDeps) -> None:
    products = [
        make_product(
            f"{platform}-{material}",
            platform=platform,
            domain=Domain.ELECTRONICS,
            title=f"over-ear headphones {material}",
            attributes={"material": [material]},
        )
        for platform in ("jd", "amazon")
        for material in ("plastic", "wood")
    ]
    deps.recall.upsert(
        products, deps.embedder.embed_documents([p.embedding_text() for p in products])
    )


def test_search_returns_the_cli_json(client: TestClient, stores: AgentDeps) -> None:
    index_headphones(stores)
    headers = signup(client, "alice")
    response = client.get("/api/search", params={"q": "headphones", "k": 3}, headers=headers)
    assert response.status_code == 200
    body = response.json()
    assert body["personalization"] == "inactive"
    assert len(body["results"]) == 3
    assert set(body["results"][0]) >= {"platform", "item_id", "title", "price_base", "score_user"}


def test_platform_filter_and_unknown_platform(client: TestClient, stores: AgentDeps) -> None:
    index_headphones(stores)
    headers = signup(client, "alice")
    only_jd = client.get(
        "/api/search", params={"q": "headphones", "platform": "jd"}, headers=headers
    )
    assert {r["platform"] for r in only_jd.json()["results"]} == {"jd"}
    unknown = client.get(
        "/api/search", params={"q": "headphones", "platform": "ebay"}, headers=headers
    )
    assert unknown.status_code == 422
    assert "unknown platform 'ebay'" in unknown.json()["detail"]


def test_only_the_callers_likes_personalize(client: TestClient, stores: AgentDeps) -> None:
    index_headphones(stores)
    alice, bob = signup(client, "alice"), signup(client, "bob")
    wood = PreferenceEntry(polarity="like", category="material", slug="wood", keywords=["wood"])
    stores.preferences.upsert("alice", wood)
    params = {"q": "headphones"}
    assert (
        client.get("/api/search", params=params, headers=alice).json()["personalization"]
        == "active"
    )
    assert (
        client.get("/api/search", params=params, headers=bob).json()["personalization"]
        == "inactive"
    )
    off = client.get("/api/search", params={**params, "personalize": "false"}, headers=alice)
    assert off.json()["personalization"] == "inactive"


def test_empty_query_and_bad_k_are_422(client: TestClient) -> None:
    headers = signup(client, "alice")
    assert client.get("/api/search", params={"q": ""}, headers=headers).status_code == 422
    assert client.get("/api/search", params={"q": "x", "k": 0}, headers=headers).status_code == 422
