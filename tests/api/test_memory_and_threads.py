"""Memory and thread endpoints; two accounts never see or change each other's data."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from cartwise.agent.deps import AgentDeps
from cartwise.memory.store import PreferenceEntry
from tests.api.conftest import run_input, signup

PLASTIC = {
    "polarity": "dislike",
    "category": "material",
    "domain": "electronics",
    "slug": "plastic",
    "strength": "hard",
    "keywords": ["plastic", "塑料"],
}


def key_path(key: str) -> str:
    return f"/api/memory/{quote(key, safe='')}"


def test_create_list_export_delete(client: TestClient) -> None:
    headers = signup(client, "alice")
    created = client.post("/api/memory", json=PLASTIC, headers=headers)
    assert created.status_code == 201
    entry = created.json()
    assert entry["dedup_key"] == "dislike:material:electronics:plastic"
    assert entry["keywords"] == ["plastic", "塑料"]
    assert [e["dedup_key"] for e in client.get("/api/memory", headers=headers).json()] == [
        entry["dedup_key"]
    ]
    export = client.get("/api/memory/export", headers=headers).json()
    assert export["user"] == "alice"
    assert len(export["entries"]) == 1
    assert client.delete(key_path(entry["dedup_key"]), headers=headers).status_code == 204
    assert client.get("/api/memory", headers=headers).json() == []
    assert client.delete(key_path(entry["dedup_key"]), headers=headers).status_code == 404


def test_invalid_preference_is_422_and_writes_nothing(
    client: TestClient, stores: AgentDeps
) -> None:
    headers = signup(client, "alice")
    for bad in (
        {**PLASTIC, "slug": "Not A Slug"},
        {**PLASTIC, "polarity": "love"},
        {**PLASTIC, "category": "vibe"},
        {**PLASTIC, "domain": "Electronics & Co"},
        {**PLASTIC, "dedup_key": "like:material::plastic"},
    ):
        response = client.post("/api/memory", json=bad, headers=headers)
        assert response.status_code == 422, bad
        assert response.json()["detail"]
    assert stores.preferences.list("alice") == []


def test_patch_polarity_supersedes_atomically(client: TestClient, stores: AgentDeps) -> None:
    headers = signup(client, "alice")
    old = client.post("/api/memory", json=PLASTIC, headers=headers).json()
    patched = client.patch(key_path(old["dedup_key"]), json={"polarity": "like"}, headers=headers)
    assert patched.status_code == 200
    new = patched.json()
    assert new["dedup_key"] == "like:material:electronics:plastic"
    assert new["keywords"] == PLASTIC["keywords"]
    assert [e.dedup_key for e in stores.preferences.list("alice")] == [new["dedup_key"]]


def test_patch_domain_and_keywords(client: TestClient, stores: AgentDeps) -> None:
    headers = signup(client, "alice")
    old = client.post("/api/memory", json=PLASTIC, headers=headers).json()
    new = client.patch(
        key_path(old["dedup_key"]), json={"domain": "", "keywords": ["塑胶"]}, headers=headers
    ).json()
    assert new["dedup_key"] == "dislike:material::plastic"
    assert new["keywords"] == ["塑胶"]  # replaced, not merged
    assert [e.dedup_key for e in stores.preferences.list("alice")] == [new["dedup_key"]]


def test_bad_patch_is_422_and_keeps_the_entry(client: TestClient, stores: AgentDeps) -> None:
    headers = signup(client, "alice")
    old = client.post("/api/memory", json=PLASTIC, headers=headers).json()
    for bad in ({"domain": "Not Valid!"}, {"polarity": "maybe"}, {"slug": "metal"}):
        response = client.patch(key_path(old["dedup_key"]), json=bad, headers=headers)
        assert response.status_code == 422, bad
    assert [e.dedup_key for e in stores.preferences.list("alice")] == [old["dedup_key"]]


def test_patch_unknown_key_is_404(client: TestClient) -> None:
    headers = signup(client, "alice")
    response = client.patch(key_path("like:color::red"), json={"strength": "hard"}, headers=headers)
    assert response.status_code == 404


def test_accounts_cannot_touch_each_others_memory(client: TestClient, stores: AgentDeps) -> None:
    alice, bob = signup(client, "alice"), signup(client, "bob")
    key = client.post("/api/memory", json=PLASTIC, headers=alice).json()["dedup_key"]
    assert client.get("/api/memory", headers=bob).json() == []
    assert client.get("/api/memory/export", headers=bob).json()["entries"] == []
    assert client.patch(key_path(key), json={"polarity": "like"}, headers=bob).status_code == 404
    assert client.delete(key_path(key), headers=bob).status_code == 404
    assert [e.dedup_key for e in stores.preferences.list("alice")] == [key]
    # Bob writing the same fact creates his own entry, not a change to Alice's.
    client.post("/api/memory", json={**PLASTIC, "keywords": ["bob-word"]}, headers=bob)
    alices = stores.preferences.get("alice", key)
    assert isinstance(alices, PreferenceEntry)
    assert alices.keywords == PLASTIC["keywords"]


def test_recipients_are_listed_edited_moved_and_deleted_by_namespace(
    client: TestClient, stores: AgentDeps
) -> None:
    headers = signup(client, "alice")
    mine = client.post("/api/memory", json=PLASTIC, headers=headers).json()
    mums = client.post("/api/memory", json={**PLASTIC, "recipient": "mum"}, headers=headers)
    assert mums.status_code == 201
    assert mums.json()["dedup_key"] == mine["dedup_key"]  # same key, another namespace
    everything = client.get("/api/memory", headers=headers).json()
    assert sorted(e["recipient"] for e in everything) == ["mum", "self"]
    only_mum = client.get("/api/memory", params={"recipient": "mum"}, headers=headers).json()
    assert [e["recipient"] for e in only_mum] == ["mum"]

    key = key_path(mine["dedup_key"])
    soft = client.patch(
        key, params={"recipient": "mum"}, json={"strength": "soft"}, headers=headers
    )
    assert soft.json()["recipient"] == "mum" and soft.json()["strength"] == "soft"
    mine_now = stores.preferences.get("alice", mine["dedup_key"])
    assert mine_now is not None and mine_now.strength.value == "hard"

    # It was dad's, not mine: move it; mum's entry of the same key is untouched.
    moved = client.patch(key, json={"recipient": "dad"}, headers=headers)
    assert moved.status_code == 200 and moved.json()["recipient"] == "dad"
    assert sorted(e.recipient for e in stores.preferences.list("alice")) == ["dad", "mum"]

    assert client.delete(key, params={"recipient": "mum"}, headers=headers).status_code == 204
    assert client.delete(key, params={"recipient": "mum"}, headers=headers).status_code == 404
    assert client.delete(key, headers=headers).status_code == 404  # nothing left in self
    export = client.get("/api/memory/export", headers=headers).json()
    assert [e["recipient"] for e in export["entries"]] == ["dad"]


def test_a_bad_recipient_is_422_and_writes_nothing(client: TestClient, stores: AgentDeps) -> None:
    headers = signup(client, "alice")
    assert (
        client.post(
            "/api/memory", json={**PLASTIC, "recipient": "My Mum"}, headers=headers
        ).status_code
        == 422
    )
    assert (
        client.get("/api/memory", params={"recipient": "{mum}"}, headers=headers).status_code == 422
    )
    key = client.post("/api/memory", json=PLASTIC, headers=headers).json()["dedup_key"]
    assert (
        client.patch(key_path(key), json={"recipient": "Dad!"}, headers=headers).status_code == 422
    )
    assert (
        client.delete(key_path(key), params={"recipient": "x y"}, headers=headers).status_code
        == 422
    )
    assert [e.recipient for e in stores.preferences.list("alice")] == ["self"]


def test_threads_list_get_delete(client: TestClient) -> None:
    headers = signup(client, "alice")
    for thread in ("t1", "t2"):
        client.post("/api/agent", json=run_input(thread, f"hello {thread}"), headers=headers)
    listed = client.get("/api/threads", headers=headers).json()
    assert {t["thread"] for t in listed} == {"t1", "t2"}
    assert all(t["updated_at"] for t in listed)
    assert client.get("/api/threads/t1", headers=headers).json()["state"]["thread"] == "t1"
    assert client.delete("/api/threads/t1", headers=headers).status_code == 204
    assert client.get("/api/threads/t1", headers=headers).status_code == 404
    assert [t["thread"] for t in client.get("/api/threads", headers=headers).json()] == ["t2"]


def test_unknown_thread_is_404(client: TestClient) -> None:
    headers = signup(client, "alice")
    response = client.get("/api/threads/nope", headers=headers)
    assert response.status_code == 404
    assert response.json()["detail"] == "thread not found: nope"
    assert client.delete("/api/threads/nope", headers=headers).status_code == 404


def test_accounts_cannot_touch_each_others_threads(client: TestClient, stores: AgentDeps) -> None:
    alice, bob = signup(client, "alice"), signup(client, "bob")
    client.post("/api/agent", json=run_input("secret", "like wood"), headers=alice)
    assert client.get("/api/threads", headers=bob).json() == []
    read = client.get("/api/threads/secret", headers=bob)
    assert read.status_code == 404
    # Indistinguishable from a thread that does not exist: no probing of others' ids.
    assert read.json()["detail"] == "thread not found: secret"
    assert client.delete("/api/threads/secret", headers=bob).status_code == 404
    assert len(stores.sessions.messages("alice", "secret")) == 2


@pytest.mark.parametrize("thread", ["a/b/c", ".", "...", "-lead", "with space", "日记", "t" * 129])
def test_a_thread_id_no_route_could_name_is_refused_when_the_turn_starts(
    client: TestClient, stores: AgentDeps, thread: str
) -> None:
    headers = signup(client, "alice")
    refused = client.post("/api/agent", json=run_input(thread, "hello"), headers=headers)
    assert refused.status_code == 422 and "thread id" in refused.json()["detail"]
    assert stores.sessions.threads("alice") == []


@pytest.mark.parametrize("thread", ["web-3f2b9c1e", "t.1", "x:y", "A_b-9"])
def test_every_thread_a_turn_starts_can_be_read_and_deleted(
    client: TestClient, thread: str
) -> None:
    headers = signup(client, "alice")
    assert (
        client.post("/api/agent", json=run_input(thread, "hi"), headers=headers).status_code == 200
    )
    path = f"/api/threads/{quote(thread, safe='')}"
    assert client.get(path, headers=headers).status_code == 200
    assert client.delete(path, headers=headers).status_code == 204
    assert client.get(path, headers=headers).status_code == 404


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("keywords", ["rattan", "藤" * 65]),
        ("keywords", [f"word{n}" for n in range(25)]),
        ("slug", "x" * 65),
        ("recipient", "friend-" + "a" * 42),
        ("domain", "d" * 49),
    ],
)
def test_an_oversized_field_is_refused_before_anything_is_embedded(
    client: TestClient, stores: AgentDeps, field: str, value: object
) -> None:
    headers = signup(client, "alice")
    refused = client.post("/api/memory", json={**PLASTIC, field: value}, headers=headers)
    assert refused.status_code == 422 and field in refused.json()["detail"]
    assert stores.preferences.list("alice") == []
