from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from pydantic import ValidationError

from cartwise.settings import Settings

ROOT = Path(__file__).resolve().parents[1]


def _generator():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(
        "gen_env_example", ROOT / "scripts" / "gen_env_example.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_env_example_documents_every_setting_and_is_current() -> None:
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    for name in Settings.model_fields:
        assert f"\n{name.upper()}=" in text, f"{name.upper()} missing from .env.example"
    assert text == _generator().render(), "stale .env.example: run scripts/gen_env_example.py"


def test_every_setting_has_a_docstring() -> None:
    undocumented = [n for n, f in Settings.model_fields.items() if not f.description]
    assert undocumented == []


def test_environment_overrides_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STORE_BACKEND", "redis")
    monkeypatch.setenv("SESSION_TTL_HOURS", "0.0003")
    monkeypatch.setenv("RECALL_USER_BETA", "0.3")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.store_backend == "redis"
    assert settings.session_ttl_seconds == pytest.approx(1.08)
    assert settings.recall_user_beta == 0.3


def test_invalid_setting_is_rejected(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STORE_BACKEND", "postgres")
    with pytest.raises(ValidationError, match="store_backend"):
        Settings(_env_file=None)  # type: ignore[call-arg]


@pytest.mark.parametrize(
    "url",
    [
        "redis://127.0.0.1:6379/0",
        "rediss://user:pw@cache.internal:6380/2",
        "redis+cluster://10.0.0.1:7000,10.0.0.2:7000",
        "rediss+cluster://:pw@10.0.0.1:7000",
    ],
)
def test_a_redis_url_in_a_notation_every_client_reads_is_accepted(url: str) -> None:
    assert Settings(_env_file=None, redis_url=url).redis_url == url  # type: ignore[call-arg]


@pytest.mark.parametrize(
    "url",
    [
        "127.0.0.1:6379",
        "http://:s3cret-pw@10.0.0.1:6379/0",
        "redis://:s3cret-pw@[::1",
        "redis://",
        "redis:///0",
        "",
    ],
)
def test_a_redis_url_no_client_can_use_is_one_line_without_its_password(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cartwise.errors import ConfigurationError
    from cartwise.settings import get_settings

    monkeypatch.setenv("REDIS_URL", url)
    get_settings.cache_clear()
    try:
        with pytest.raises(ConfigurationError) as refused:
            get_settings()
    finally:
        get_settings.cache_clear()
    message = str(refused.value)
    assert "\n" not in message and message.startswith("invalid setting REDIS_URL")
    assert "s3cret-pw" not in message


@pytest.mark.parametrize(
    "spec",
    ["e5:small", "use:multilingual", "openai:text-embedding-3-small", "hashing:64", "hashing"],
)
def test_an_embedder_create_embedder_knows_is_accepted(spec: str) -> None:
    assert Settings(_env_file=None, embedder=spec).embedder == spec  # type: ignore[call-arg]


@pytest.mark.parametrize("spec", ["hashing:abc", "hashing:0", "openai", "openai:", "bert:base", ""])
def test_an_embedder_nothing_can_build_is_an_invalid_setting(spec: str) -> None:
    with pytest.raises(ValidationError, match="embedder"):
        Settings(_env_file=None, embedder=spec)  # type: ignore[call-arg]


@pytest.mark.parametrize(
    "trusted", ["", "172.28.0.10", "10.0.0.0/8", "::1, 192.0.2.80", "fd00::/64,127.0.0.1", "*"]
)
def test_forwarded_allow_ips_of_addresses_or_networks_is_accepted(trusted: str) -> None:
    settings = Settings(_env_file=None, forwarded_allow_ips=trusted)  # type: ignore[call-arg]
    assert settings.forwarded_allow_ips == trusted


@pytest.mark.parametrize("trusted", ["172.28.0.1O", "nginx", "10.0.0.1/8", "*,10.0.0.1", "1.2.3"])
def test_a_forwarded_allow_ips_entry_that_is_no_address_is_an_invalid_setting(
    trusted: str,
) -> None:
    """The server would take it as a name no connection ever has: the proxy not trusted, every
    client seen as the proxy's one address, sharing its limits."""
    with pytest.raises(ValidationError, match="forwarded_allow_ips"):
        Settings(_env_file=None, forwarded_allow_ips=trusted)  # type: ignore[call-arg]


def test_the_default_sign_in_limit_is_valid_limits_notation() -> None:
    """The validator skips `limits` for the default (a command that never serves need not
    import it), so the default itself is checked here; any other value is parsed."""
    from limits import parse_many

    from cartwise.settings import DEFAULT_AUTH_FAILURES

    assert Settings.model_fields["auth_failures_per_user_address"].default == DEFAULT_AUTH_FAILURES
    assert len(parse_many(DEFAULT_AUTH_FAILURES)) == 2


def test_a_sign_in_limit_that_is_not_limits_notation_is_rejected(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AUTH_FAILURES_PER_USER_ADDRESS", "five a minute")
    with pytest.raises(ValidationError, match="not a rate limit"):
        Settings(_env_file=None)  # type: ignore[call-arg]
