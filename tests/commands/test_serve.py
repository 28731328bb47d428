"""`cartwise serve` as a user runs it: a fresh home gets the demo catalog, the printed URL
serves the API, a port in use is a clear error."""

from __future__ import annotations

import gzip
import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from cartwise.catalog.demo import demo_catalog_path

pytestmark = pytest.mark.slow

CARTWISE = str(Path(sys.executable).with_name("cartwise"))


def env_for(home: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "CARTWISE_HOME": str(home), "EMBEDDER": "hashing:256", **extra}


@contextmanager
def serving(home: Path) -> Iterator[tuple[str, list[str]]]:
    """The URL `serve` prints, and its log as it grows."""
    with subprocess.Popen(
        [CARTWISE, "serve", "--port", "0"], env=env_for(home), stderr=subprocess.PIPE, text=True
    ) as process:
        try:
            stream = process.stderr
            assert stream is not None
            seen: list[str] = []
            for line in stream:
                seen.append(line)
                if match := re.search(r"running at (http://\S+)", line):
                    threading.Thread(target=lambda: seen.extend(stream), daemon=True).start()
                    yield match.group(1), seen
                    return
            pytest.fail(f"serve exited ({process.wait()}) without a URL:\n{''.join(seen)}")
        finally:
            process.terminate()
            process.wait(timeout=60)


def test_first_start_indexes_the_demo_warms_up_and_serves(tmp_path: Path) -> None:
    with (
        serving(tmp_path / "home") as (url, log),
        httpx.Client(base_url=url, timeout=120) as client,
    ):
        assert url.startswith("http://127.0.0.1:")
        ready = client.get("/readyz")
        assert ready.status_code == 200
        # Ready only once warm: the line was written before /readyz could answer (the log
        # is read by a thread, so it may reach `log` a moment later).
        deadline = time.monotonic() + 30
        while not any("warmed up" in line for line in log) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert any("warmed up" in line for line in log), "".join(log)
        with gzip.open(demo_catalog_path(), "rt", encoding="utf-8") as demo:
            offers = sum(1 for line in demo if line.strip())
        assert ready.json()["checks"]["index"] == f"ok: {offers} products"
        assert client.get("/").status_code == 200


def test_a_port_in_use_is_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = subprocess.run(
            [CARTWISE, "serve", "--port", str(port)],
            env=env_for(tmp_path / "home"),
            capture_output=True,
            text=True,
            timeout=600,
        )
    assert result.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("args", "extra_env", "names"),
    [
        (["--host", "0.0.0.0", "--port", "0"], {}, "0.0.0.0"),
        (["--port", "0"], {"STORE_BACKEND": "redis"}, "STORE_BACKEND=redis"),
    ],
)
def test_no_generated_secret_beyond_loopback_or_for_replicas(
    tmp_path: Path, args: list[str], extra_env: dict[str, str], names: str
) -> None:
    env = env_for(tmp_path / "home", AUTH_SECRET="", **extra_env)
    result = subprocess.run(
        [CARTWISE, "serve", *args], env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "AUTH_SECRET must be set" in lines[0] and names in lines[0]
    assert not (tmp_path / "home" / "auth_secret").exists()


@pytest.mark.parametrize(
    ("command", "setting", "value"),
    [
        (["serve", "--port", "0"], "MAX_MESSAGE_CHARS", "0"),
        (["serve", "--port", "0"], "RATE_LIMIT_PER_MINUTE", "lots"),
        (["memory", "list", "--user", "ann"], "SESSION_TTL_HOURS", "-3"),
        (["serve", "--port", "0"], "REDIS_URL", "localhost:6379"),
        (["memory", "list", "--user", "ann"], "REDIS_URL", "http://127.0.0.1:6379/0"),
        (["memory", "list", "--user", "ann"], "EMBEDDER", "hashing:wide"),
        (["serve", "--port", "0"], "EMBEDDER", "word2vec:en"),
    ],
)
def test_a_bad_setting_is_one_line_naming_it(
    tmp_path: Path, command: list[str], setting: str, value: str
) -> None:
    extra = {"STORE_BACKEND": "redis", "AUTH_SECRET": "s" * 48} if setting == "REDIS_URL" else {}
    env = env_for(tmp_path / "home", **extra, **{setting: value})
    result = subprocess.run([CARTWISE, *command], env=env, capture_output=True, text=True)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert f"{setting}={value!r}" in lines[0] and "Traceback" not in result.stderr
