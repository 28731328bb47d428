"""AUTH_SECRET: explicit, or generated once per home and kept private."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cartwise.agent.deps import AgentDeps
from cartwise.api.main import create_app
from cartwise.api.secret import SECRET_FILE, load_or_create_secret, resolve_auth_secret
from cartwise.errors import ConfigurationError
from cartwise.settings import Settings
from tests.api.conftest import PASSWORD, signup
from tests.doubles import ScriptedAgent


def test_no_secret_has_a_usable_default() -> None:
    assert Settings.model_fields["auth_secret"].default == ""


def test_first_start_generates_a_private_secret_and_later_starts_reuse_it(
    api_settings: Settings, stores: AgentDeps
) -> None:
    with TestClient(create_app(api_settings, stores, runner=ScriptedAgent())) as client:
        headers = signup(client, "alice")
    path = api_settings.home / SECRET_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(path.read_text().strip()) >= 43
    # A restart signs with the same secret: the token still works.
    with TestClient(create_app(api_settings, stores, runner=ScriptedAgent())) as client:
        assert client.get("/api/me", headers=headers).status_code == 200


def test_two_homes_get_different_secrets(tmp_path: Path) -> None:
    first = load_or_create_secret(tmp_path / "a")
    second = load_or_create_secret(tmp_path / "b")
    assert first != second


def test_processes_racing_on_first_start_agree_on_one_secret(tmp_path: Path) -> None:
    path = tmp_path / SECRET_FILE
    seen: list[str] = []
    start = threading.Barrier(8)

    def contender() -> None:
        start.wait()
        seen.append(load_or_create_secret(path))

    workers = [threading.Thread(target=contender) for _ in range(8)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert len(set(seen)) == 1
    assert [p.name for p in tmp_path.iterdir()] == [SECRET_FILE]  # no temporary left over


def test_a_secret_file_others_can_read_is_refused(tmp_path: Path) -> None:
    path = tmp_path / SECRET_FILE
    load_or_create_secret(path)
    os.chmod(path, 0o644)
    with pytest.raises(ConfigurationError, match="chmod 600"):
        load_or_create_secret(path)


def test_replicas_need_an_explicit_secret(api_settings: Settings) -> None:
    replica = api_settings.model_copy(update={"store_backend": "redis"})
    with pytest.raises(ConfigurationError, match="STORE_BACKEND=redis"):
        resolve_auth_secret(replica)
    explicit = replica.model_copy(update={"auth_secret": "s" * 40})
    assert resolve_auth_secret(explicit) == "s" * 40


def test_tokens_signed_in_one_home_fail_in_another(
    api_settings: Settings, stores: AgentDeps, tmp_path: Path
) -> None:
    with TestClient(create_app(api_settings, stores, runner=ScriptedAgent())) as client:
        headers = signup(client, "alice")
    other = api_settings.model_copy(update={"cartwise_home": tmp_path / "other-home"})
    with TestClient(create_app(other, stores, runner=ScriptedAgent())) as client:
        client.post("/api/auth/register", json={"username": "alice", "password": PASSWORD})
        assert client.get("/api/me", headers=headers).status_code == 401
