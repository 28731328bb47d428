from __future__ import annotations

from datetime import UTC, datetime, timedelta

import jwt
from fastapi import FastAPI
from fastapi.testclient import TestClient

from cartwise.agent.deps import AgentDeps
from cartwise.api.auth import issue_token
from cartwise.api.main import create_app
from cartwise.api.secret import resolve_auth_secret
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


def _account_id(app: FastAPI, username: str) -> str:
    record = app.state.cartwise.auth.store.get(username)
    assert record is not None
    return str(record.account_id)


def _secret(app: FastAPI) -> str:
    """The secret the app signs with (explicit for Redis, generated otherwise)."""
    return resolve_auth_secret(app.state.cartwise.settings)


def test_expired_token_is_401(client: TestClient, app: FastAPI) -> None:
    signup(client, "alice")
    stale = issue_token(
        "alice",
        _account_id(app, "alice"),
        secret=_secret(app),
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


def test_passwords_are_stored_salted(client: TestClient, app: FastAPI) -> None:
    signup(client, "alice")
    signup(client, "bob")
    store = app.state.cartwise.auth.store
    hashes = [store.get(name).password_hash for name in ("alice", "bob")]
    assert len(set(hashes)) == 2  # same password, different salts
    assert all(h.startswith("$argon2") and PASSWORD not in h for h in hashes)


def test_a_stranger_guessing_cannot_lock_the_owner_out_from_elsewhere(
    api_settings: Settings, stores: AgentDeps
) -> None:
    strict = api_settings.model_copy(update={"auth_failures_per_user_address": "3/minute"})
    app = create_app(strict, stores, runner=ScriptedAgent())
    attacker = TestClient(app, client=("203.0.113.66", 5000))
    owner = TestClient(app, client=("198.51.100.7", 5000))
    with attacker, owner:
        owner.post("/api/auth/register", json={"username": "alice", "password": PASSWORD})
        guesses = [
            attacker.post("/api/auth/token", data={"username": "alice", "password": f"guess-{i}"})
            for i in range(4)
        ]
        assert [r.status_code for r in guesses] == [401, 401, 401, 429]
        assert "retry-after" in guesses[-1].headers
        # Even the right password waits from the guessing address...
        right = attacker.post("/api/auth/token", data={"username": "alice", "password": PASSWORD})
        assert right.status_code == 429
        # ...but the owner, from their own address, signs in at once, every time.
        for _ in range(5):
            mine = owner.post("/api/auth/token", data={"username": "alice", "password": PASSWORD})
            assert mine.status_code == 200


def test_sign_in_attempts_are_capped_per_address_across_usernames(
    api_settings: Settings, stores: AgentDeps
) -> None:
    strict = api_settings.model_copy(update={"auth_attempts_per_minute": 3})
    with TestClient(create_app(strict, stores, runner=ScriptedAgent())) as client:
        answers = [
            client.post("/api/auth/token", data={"username": f"name{i}", "password": "pw-x"})
            for i in range(4)
        ]
        assert [r.status_code for r in answers] == [401, 401, 401, 429]


def test_registration_is_throttled_per_address(api_settings: Settings, stores: AgentDeps) -> None:
    strict = api_settings.model_copy(update={"register_per_hour": 2})
    app = create_app(strict, stores, runner=ScriptedAgent())
    with TestClient(app) as client, TestClient(app, client=("198.51.100.7", 1)) as other:
        statuses = [
            client.post(
                "/api/auth/register", json={"username": f"user{i}", "password": PASSWORD}
            ).status_code
            for i in range(3)
        ]
        assert statuses == [201, 201, 429]
        fresh = {"username": "elsewhere", "password": PASSWORD}
        assert other.post("/api/auth/register", json=fresh).status_code == 201


def test_a_token_signed_with_the_old_default_secret_is_refused(
    client: TestClient, app: FastAPI
) -> None:
    """The constant that used to be AUTH_SECRET's default signs nothing here any more."""
    signup(client, "alice")
    old_default = "change-me-in-production-cartwise-dev-secret"
    now = datetime.now(UTC)
    forged = [
        # The old token shape, and the new one with every claim right but the secret.
        jwt.encode({"sub": "alice", "exp": now + timedelta(hours=1)}, old_default, "HS256"),
        issue_token("alice", _account_id(app, "alice"), secret=old_default, minutes=60),
    ]
    for token in forged:
        response = client.get("/api/me", headers={"Authorization": f"Bearer {token}"})
        assert response.status_code == 401


def test_a_token_older_than_the_maximum_age_is_refused_whatever_its_exp(
    client: TestClient, app: FastAPI, api_settings: Settings
) -> None:
    signup(client, "alice")
    long_lived = issue_token(
        "alice",
        _account_id(app, "alice"),
        secret=_secret(app),
        minutes=api_settings.auth_token_minutes * 10,
        now=datetime.now(UTC) - timedelta(minutes=api_settings.auth_token_minutes + 5),
    )
    response = client.get("/api/me", headers={"Authorization": f"Bearer {long_lived}"})
    assert response.status_code == 401
    assert "expired" in response.json()["detail"]


def test_a_token_without_iat_is_refused(client: TestClient, app: FastAPI) -> None:
    signup(client, "alice")
    claims = {
        "sub": "alice",
        "aid": _account_id(app, "alice"),
        "jti": "x" * 32,
        "exp": datetime.now(UTC) + timedelta(minutes=5),
    }
    token = jwt.encode(claims, _secret(app), algorithm="HS256")
    assert client.get("/api/me", headers={"Authorization": f"Bearer {token}"}).status_code == 401


def test_logout_revokes_only_that_token(client: TestClient) -> None:
    first = signup(client, "alice")
    second_token = client.post(
        "/api/auth/token", data={"username": "alice", "password": PASSWORD}
    ).json()["access_token"]
    assert client.post("/api/auth/logout", headers=first).status_code == 204
    refused = client.get("/api/me", headers=first)
    assert refused.status_code == 401
    assert "revoked" in refused.json()["detail"]
    other = client.get("/api/me", headers={"Authorization": f"Bearer {second_token}"})
    assert other.status_code == 200


def test_a_short_auth_secret_is_refused_at_start(api_settings: Settings) -> None:
    import pytest

    from cartwise.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="AUTH_SECRET"):
        create_app(api_settings.model_copy(update={"auth_secret": "too-short"}))


def test_a_username_no_account_can_have_is_refused_before_the_throttle_remembers_it(
    client: TestClient, app: FastAPI
) -> None:
    for index in range(30):
        name = f"{index}-" + "ü" * 4000
        refused = client.post("/api/auth/token", data={"username": name, "password": "x" * 9})
        assert refused.status_code == 422 and "username" in refused.json()["detail"]
    too_long = client.post("/api/auth/token", data={"username": "alice", "password": "p" * 300})
    assert too_long.status_code == 422
    wrong = client.post("/api/auth/token", data={"username": "nobody", "password": "x" * 9})
    assert wrong.status_code == 401  # an ordinary failure is remembered, with a short key
    settings = app.state.cartwise.settings
    if settings.store_backend == "redis":
        import redis

        client = redis.Redis.from_url(settings.redis_url)
        keys = [key.decode() for key in client.keys("*")]
        # Each window's counters expire with it: Redis keeps no name for longer either.
        windows = {key: client.ttl(key) for key in keys if key.startswith("LIMITS")}
        assert windows and all(0 < ttl <= 2 * 3600 for ttl in windows.values()), windows
    else:
        keys = list(app.state.cartwise.limits._storage.storage)
    assert keys and all(len(key) < 200 for key in keys)
