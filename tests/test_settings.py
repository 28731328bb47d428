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
