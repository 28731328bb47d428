"""The deployment files cannot be run here (no image registry), so what can be checked is:
compose.yaml parses, describes two app replicas behind a proxy with Redis and Milvus, and
every variable it sets for the app is a real Cartwise setting with a valid value."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from cartwise.settings import Settings

ROOT = Path(__file__).resolve().parents[1]


def _compose() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _app_services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        name: service
        for name, service in compose["services"].items()
        if service.get("image") == "cartwise:latest"
    }


def test_two_replicas_behind_a_proxy_with_redis_and_milvus() -> None:
    compose = _compose()
    services = compose["services"]
    apps = _app_services(compose)
    assert len(apps) == 2
    assert {"proxy", "redis", "milvus"} <= services.keys()
    nginx = (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8")
    for name in apps:
        assert f"server {name}:8000" in nginx
    assert "proxy_buffering off" in nginx  # SSE streams must not be buffered
    assert services["milvus"]["command"] == ["milvus", "run", "standalone"]


def test_every_app_variable_is_a_setting_with_a_valid_value() -> None:
    known = {name.upper() for name in Settings.model_fields}
    for name, service in _app_services(_compose()).items():
        env: dict[str, str] = service["environment"]
        unknown = sorted(set(env) - known)
        assert not unknown, f"{name} sets variables that are not settings: {unknown}"
        # ${VAR:?…} / ${VAR:-default} are filled in by compose: validate with a stand-in.
        values = {
            key.lower(): re.sub(r"\$\{[^}]*\}", "x" * 40, value) for key, value in env.items()
        }
        settings = Settings(_env_file=None, **values)  # type: ignore[arg-type]
        assert settings.store_backend == "redis"
        assert settings.index_backend == "milvus"
        assert settings.host == "0.0.0.0"
        # Docker waits stop_grace_period before SIGKILL: the drain must fit inside it.
        grace = int(service["stop_grace_period"].rstrip("s"))
        assert settings.shutdown_grace_seconds < grace


def test_the_image_serves_on_the_port_the_proxy_uses() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert "EXPOSE 8000" in dockerfile
    assert 'CMD ["cartwise", "serve"]' in dockerfile
    assert re.search(r"^USER (?!root)", dockerfile, re.MULTILINE)
    assert "'.[milvus]'" in dockerfile


def test_forwarded_headers_are_trusted_from_the_proxy_alone() -> None:
    compose = _compose()
    proxy_address = compose["services"]["proxy"]["networks"]["default"]["ipv4_address"]
    for name, service in _app_services(compose).items():
        trusted = service["environment"]["FORWARDED_ALLOW_IPS"]
        assert trusted == proxy_address, f"{name} trusts {trusted!r}, not only the proxy"
