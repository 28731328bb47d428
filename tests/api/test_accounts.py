"""Account deletion, the password policy, per-account caps, and the accounts file."""

from __future__ import annotations

import stat
import threading
import time
from contextlib import closing

import pytest
from ag_ui.core import EventType
from fastapi import FastAPI
from fastapi.testclient import TestClient

from cartwise.agent.deps import AgentDeps
from cartwise.api.main import create_app
from cartwise.api.passwords import check_password_policy, common_passwords
from cartwise.settings import Settings
from tests.api.conftest import PASSWORD, open_stores, run_input, signup
from tests.api.sse import parse_sse
from tests.doubles import ScriptedAgent

LIKE_WOOD = {"polarity": "like", "category": "material", "slug": "wood", "keywords": ["wood"]}


def test_deleting_an_account_forgets_memory_threads_and_tokens(
    client: TestClient, stores: AgentDeps
) -> None:
    headers = signup(client, "alice")
    assert client.post("/api/memory", json=LIKE_WOOD, headers=headers).status_code == 201
    client.post("/api/agent", json=run_input("alice-t1", "like leather"), headers=headers)
    client.post("/api/agent", json=run_input("alice-t2", "hello"), headers=headers)
    assert len(stores.preferences.list("alice")) == 2
    assert set(stores.sessions.threads("alice")) == {"alice-t1", "alice-t2"}

    wrong = client.request(
        "DELETE", "/api/auth/account", json={"password": "not-it-at-all"}, headers=headers
    )
    assert wrong.status_code == 401
    assert len(stores.preferences.list("alice")) == 2  # nothing deleted on a wrong password

    gone = client.request(
        "DELETE", "/api/auth/account", json={"password": PASSWORD}, headers=headers
    )
    assert gone.status_code == 204
    assert stores.preferences.list("alice") == []
    assert stores.sessions.threads("alice") == []
    assert not stores.sessions.exists("alice", "alice-t1")
    assert client.get("/api/me", headers=headers).status_code == 401

    # The same name registered again starts empty, and the old token stays dead.
    fresh = signup(client, "alice")
    assert client.get("/api/memory", headers=fresh).json() == []
    assert client.get("/api/threads", headers=fresh).json() == []
    assert client.get("/api/me", headers=headers).status_code == 401
    assert client.get("/api/me", headers=fresh).status_code == 200


@pytest.mark.parametrize(
    ("username", "password", "reason"),
    [
        ("alice", "12345678", "common"),
        ("alice", "password1", "common"),
        ("alice", "Iloveyou", "common"),
        ("alice", "alice-2026!", "username"),
        ("mallory", "xMALLORYx", "username"),
        ("alice", "aaaaaaaaaaaa", "simple"),
        ("alice", "short", "at least"),
    ],
)
def test_weak_passwords_are_refused_with_the_reason(
    client: TestClient, username: str, password: str, reason: str
) -> None:
    response = client.post("/api/auth/register", json={"username": username, "password": password})
    assert response.status_code == 422
    assert reason in response.json()["detail"]


def test_the_common_password_list_is_the_bundled_top_ten_thousand() -> None:
    common = common_passwords()
    assert len(common) >= 9_000  # lowercasing folds a few together
    assert {"123456", "password", "qwerty", "iloveyou"} <= common
    check_password_policy("alice", "violet-teapot-harbour", min_length=8)


def test_per_account_caps_answer_409_with_a_clear_message(
    api_settings: Settings, stores: AgentDeps
) -> None:
    capped = stores.settings.model_copy(
        update={"max_preferences_per_user": 2, "max_threads_per_user": 2}
    )
    agent = ScriptedAgent()
    with (
        closing(open_stores(capped)) as stores,
        TestClient(create_app(capped, stores, runner=agent)) as client,
    ):
        headers = signup(client, "alice")
        for slug in ("wood", "linen"):
            body = {**LIKE_WOOD, "slug": slug, "keywords": [slug]}
            assert client.post("/api/memory", json=body, headers=headers).status_code == 201
        third = client.post(
            "/api/memory", json={**LIKE_WOOD, "slug": "silk", "keywords": []}, headers=headers
        )
        assert third.status_code == 409
        assert "2 preferences" in third.json()["detail"]
        # Updating an entry that exists is not a new one.
        again = client.post("/api/memory", json=LIKE_WOOD, headers=headers)
        assert again.status_code == 201

        for thread in ("t1", "t2"):
            ok = client.post("/api/agent", json=run_input(thread, "hi"), headers=headers)
            assert ok.status_code == 200
        refused = client.post("/api/agent", json=run_input("t3", "hi"), headers=headers)
        assert refused.status_code == 409
        assert "threads" in refused.json()["detail"]
        # An existing thread goes on.
        assert (
            client.post("/api/agent", json=run_input("t1", "hi"), headers=headers).status_code
            == 200
        )
        assert len(stores.preferences.list("alice")) == 2


def test_the_accounts_database_is_private(
    client: TestClient, stores: AgentDeps, api_settings: Settings
) -> None:
    if stores.settings.store_backend == "redis":
        pytest.skip("with STORE_BACKEND=redis accounts live in Redis, not in a file")
    signup(client, "alice")
    files = list(api_settings.home.glob("accounts.db*"))
    assert {p.name for p in files} >= {"accounts.db", "accounts.db-wal"}
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in files)


def test_a_turn_past_the_memory_cap_ends_with_a_clear_run_error(
    api_settings: Settings, stores: AgentDeps
) -> None:
    capped = stores.settings.model_copy(update={"max_preferences_per_user": 1})
    with (
        closing(open_stores(capped)) as stores,
        TestClient(create_app(capped, stores, runner=ScriptedAgent())) as client,
    ):
        headers = signup(client, "alice")
        assert client.post("/api/memory", json=LIKE_WOOD, headers=headers).status_code == 201
        response = client.post("/api/agent", json=run_input("t1", "like linen"), headers=headers)
        assert response.status_code == 200
        last = parse_sse(response.text)[-1]
        assert last.type == EventType.RUN_ERROR
        assert "1 preferences" in last.message  # type: ignore[attr-defined]
        assert [e.slug for e in stores.preferences.list("alice")] == ["wood"]


def test_deleting_an_account_forgets_every_recipients_namespace(
    client: TestClient, stores: AgentDeps
) -> None:
    headers = signup(client, "dora")
    for recipient, slug in (("self", "teak"), ("grandma", "lilac"), ("friend-omar", "suede")):
        body = {**LIKE_WOOD, "recipient": recipient, "slug": slug, "keywords": [slug]}
        assert client.post("/api/memory", json=body, headers=headers).status_code == 201
    gone = client.request(
        "DELETE", "/api/auth/account", json={"password": PASSWORD}, headers=headers
    )
    assert gone.status_code == 204
    assert stores.preferences.list("dora") == []
    for recipient in ("self", "grandma", "friend-omar"):
        assert stores.preferences.list("dora", recipient=recipient) == []
    again = signup(client, "dora")
    assert client.get("/api/memory", headers=again).json() == []
    assert client.get("/api/memory?recipient=grandma", headers=again).json() == []


def test_a_turn_running_while_its_account_is_deleted_writes_nothing_after(
    api_settings: Settings, stores: AgentDeps
) -> None:
    gate = threading.Event()
    agent = ScriptedAgent(gate=gate)
    app = create_app(stores.settings, stores, runner=agent)
    with TestClient(app) as client:
        headers = signup(client, "erin")
        outcome: dict[str, str] = {}

        def turn() -> None:
            response = client.post(
                "/api/agent", json=run_input("erin-t", "dislike mauve"), headers=headers
            )
            outcome["last"] = response.text

        running = threading.Thread(target=turn)
        running.start()
        deadline = time.monotonic() + 30
        while not agent.calls and time.monotonic() < deadline:
            time.sleep(0.02)
        gone = client.request(
            "DELETE", "/api/auth/account", json={"password": PASSWORD}, headers=headers
        )
        assert gone.status_code == 204
        again = signup(client, "erin")
        gate.set()  # the turn now tries to remember, after the deletion
        running.join(timeout=30)
        last = parse_sse(outcome["last"])[-1]
        assert last.type == EventType.RUN_ERROR
        assert "deleted" in last.message  # type: ignore[attr-defined]
        assert stores.preferences.list("erin") == []
        assert stores.sessions.threads("erin") == []
        assert client.get("/api/threads", headers=again).json() == []


def test_deletion_password_checks_are_throttled_like_sign_in(stores: AgentDeps) -> None:
    strict = stores.settings.model_copy(update={"auth_failures_per_user_address": "3/minute"})
    with TestClient(create_app(strict, stores, runner=ScriptedAgent())) as client:
        headers = signup(client, "fred")
        answers = [
            client.request(
                "DELETE", "/api/auth/account", json={"password": f"guess-{n}"}, headers=headers
            ).status_code
            for n in range(5)
        ]
        assert answers == [401, 401, 401, 429, 429]
        right = client.request(
            "DELETE", "/api/auth/account", json={"password": PASSWORD}, headers=headers
        )
        assert right.status_code == 429  # the guessing address waits, even when right
        assert client.get("/api/me", headers=headers).status_code == 200


def test_password_change_checks_are_throttled_like_sign_in(stores: AgentDeps) -> None:
    """A stolen token cannot guess the current password through a password change either."""
    strict = stores.settings.model_copy(update={"auth_failures_per_user_address": "2/minute"})
    with TestClient(create_app(strict, stores, runner=ScriptedAgent())) as client:
        headers = signup(client, "ines")
        new_password = "harbour-violet-kettle"
        answers = [
            client.post(
                "/api/auth/password",
                json={"current_password": f"guess-{n}-x", "new_password": new_password},
                headers=headers,
            ).status_code
            for n in range(4)
        ]
        assert answers == [401, 401, 429, 429]
        right = client.post(
            "/api/auth/password",
            json={"current_password": PASSWORD, "new_password": new_password},
            headers=headers,
        )
        assert right.status_code == 429  # the guessing address waits, even when right
        assert client.get("/api/me", headers=headers).status_code == 200  # nothing changed


def test_a_password_change_revokes_every_earlier_token(client: TestClient) -> None:
    first = signup(client, "gina")
    second = signup(client, "gina-b")  # another account is unaffected
    token = client.post("/api/auth/token", data={"username": "gina", "password": PASSWORD})
    other_session = {"Authorization": f"Bearer {token.json()['access_token']}"}
    new_password = "quartz-lantern-meadow"
    wrong = client.post(
        "/api/auth/password",
        json={"current_password": "not-the-one", "new_password": new_password},
        headers=first,
    )
    assert wrong.status_code == 401
    weak = client.post(
        "/api/auth/password",
        json={"current_password": PASSWORD, "new_password": "gina-12345"},
        headers=first,
    )
    assert weak.status_code == 422
    changed = client.post(
        "/api/auth/password",
        json={"current_password": PASSWORD, "new_password": new_password},
        headers=first,
    )
    assert changed.status_code == 200
    fresh = {"Authorization": f"Bearer {changed.json()['access_token']}"}
    assert client.get("/api/me", headers=first).status_code == 401
    assert client.get("/api/me", headers=other_session).status_code == 401
    assert client.get("/api/me", headers=fresh).status_code == 200
    assert client.get("/api/me", headers=second).status_code == 200
    old = client.post("/api/auth/token", data={"username": "gina", "password": PASSWORD})
    assert old.status_code == 401
    new = client.post("/api/auth/token", data={"username": "gina", "password": new_password})
    assert new.status_code == 200


def test_a_deletion_cut_short_is_finished_before_the_name_is_registered_again(
    client: TestClient, app: FastAPI, stores: AgentDeps
) -> None:
    headers = signup(client, "hugo")
    assert client.post("/api/memory", json=LIKE_WOOD, headers=headers).status_code == 201
    client.post("/api/agent", json=run_input("hugo-t", "hello"), headers=headers)
    # As if the process died right after the account stopped working, before the erase.
    app.state.cartwise.auth.begin_deletion("hugo")
    assert client.get("/api/me", headers=headers).status_code == 401
    refused = client.post("/api/auth/token", data={"username": "hugo", "password": PASSWORD})
    assert refused.status_code == 401
    again = signup(client, "hugo")
    assert client.get("/api/memory", headers=again).json() == []
    assert client.get("/api/threads", headers=again).json() == []
    assert stores.preferences.list("hugo") == [] and stores.sessions.threads("hugo") == []
