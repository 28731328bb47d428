from __future__ import annotations

from datetime import UTC, datetime, timedelta

import jwt
from fastapi.testclient import TestClient

from cartwise.agent.deps import AgentDeps
from cartwise.api.auth import issue_token
from cartwise.api.main import create_app
from cartwise.settings import Settings
from tests.api.conftest import PASSWORD, signup
from tests.doubles import ScriptedAgent


def test_register_sign_in_and_me(client: TestClient) -> None:
    headers = signup(client, "alice")
    response = client.get("/api/me", headers=headers)
    assert response.status_code == 200
    assert response.json() == {"username": "alice"}


def test_token_reports_its_lifetime(client: TestClient, api_settings: Settings) -> None:
    signup(client, "alice")
    token = client.post("/api/auth/token", data={"username": "alice", "password": PASSWORD}).json()
    assert token["token_type"] == "bearer"
    assert token["expires_in"] == api_settings.auth_token_minutes * 60


def test_duplicate_username_is_409(client: TestClient) -> None:
    signup(client, "alice")
    again = client.post("/api/auth/register", json={"username": "alice", "password": "another-pw"})
    assert again.status_code == 409
    assert "already taken" in again.json()["detail"]


def test_invalid_registration_is_422_with_a_clear_message(client: TestClient) -> None:
    short = client.post("/api/auth/register", json={"username": "al", "password": PASSWORD})
    assert short.status_code == 422
    assert "username" in short.json()["detail"]
    upper = client.post("/api/auth/register", json={"username": "Alice!", "password": PASSWORD})
    assert upper.status_code == 422
    weak = client.post("/api/auth/register", json={"username": "alice", "password": "short"})
    assert weak.status_code == 422
    assert "password" in weak.json()["detail"]


def test_bad_password_and_unknown_user_are_401(client: TestClient) -> None:
    signup(client, "alice")
    wrong = client.post("/api/auth/token", data={"username": "alice", "password": "wrong-password"})
    assert wrong.status_code == 401
    assert wrong.headers["www-authenticate"] == "Bearer"
    nobody = client.post("/api/auth/token", data={"username": "nobody", "password": PASSWORD})
    assert nobody.status_code == 401
    assert wrong.json()["detail"] == nobody.json()["detail"]


def test_missing_token_is_401(client: TestClient) -> None:
    assert client.get("/api/me").status_code == 401
    assert client.get("/api/memory").status_code == 401


def test_expired_token_is_401(client: TestClient, api_settings: Settings) -> None:
    signup(client, "alice")
    stale = issue_token(
        "alice",
        secret=api_settings.auth_secret,
        minutes=5,
        now=datetime.now(UTC) - timedelta(minutes=10),
    )
    response = client.get("/api/me", headers={"Authorization": f"Bearer {stale}"})
    assert response.status_code == 401
    assert "expired" in response.json()["detail"]


def test_tampered_token_is_401(client: TestClient, api_settings: Settings) -> None:
    headers = signup(client, "alice")
    token = headers["Authorization"].removeprefix("Bearer ")
    header, _payload, signature = token.split(".")
    forged_payload = jwt.utils.base64url_encode(b'{"sub":"bob","exp":9999999999}').decode()
    for forged in (
        f"{header}.{forged_payload}.{signature}",
        jwt.encode(
            {"sub": "alice", "exp": 9999999999},
            "not-the-secret-but-just-as-long-as-one-32b",
            algorithm="HS256",
        ),
        token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB"),
    ):
        response = client.get("/api/me", headers={"Authorization": f"Bearer {forged}"})
        assert response.status_code == 401, forged


def test_passwords_are_stored_salted(client: TestClient, api_settings: Settings) -> None:
    import sqlite3

    signup(client, "alice")
    signup(client, "bob")
    db = sqlite3.connect(api_settings.home / "accounts.db")
    hashes = [row[0] for row in db.execute("SELECT password_hash FROM users")]
    db.close()
    assert len(set(hashes)) == 2  # same password, different salts
    assert all(h.startswith("$argon2") and PASSWORD not in h for h in hashes)


def test_password_guessing_is_rate_limited_per_username(
    api_settings: Settings, stores: AgentDeps
) -> None:
    strict = api_settings.model_copy(update={"auth_attempts_per_minute": 3})
    with TestClient(create_app(strict, stores, runner=ScriptedAgent())) as client:
        client.post("/api/auth/register", json={"username": "alice", "password": PASSWORD})
        client.post("/api/auth/register", json={"username": "bob", "password": PASSWORD})
        guesses = [
            client.post("/api/auth/token", data={"username": "alice", "password": f"guess-{i}"})
            for i in range(4)
        ]
        assert [r.status_code for r in guesses] == [401, 401, 401, 429]
        assert "retry-after" in guesses[-1].headers
        # Even the right password waits; another username is unaffected.
        right = client.post("/api/auth/token", data={"username": "alice", "password": PASSWORD})
        assert right.status_code == 429
        bob = client.post("/api/auth/token", data={"username": "bob", "password": PASSWORD})
        assert bob.status_code == 200


def test_a_short_auth_secret_is_refused_at_start(api_settings: Settings) -> None:
    import pytest

    from cartwise.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="AUTH_SECRET"):
        create_app(api_settings.model_copy(update={"auth_secret": "too-short"}))
