"""`cartwise memory ...` and `cartwise session ...` through a CLI runner, both backends."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from cartwise.commands import memory, session
from cartwise.embedding.hashing import HashingEmbedder
from cartwise.memory import create_preference_store, create_session_store
from cartwise.memory.session_state import SessionPatch
from cartwise.memory.store import PreferenceEntry
from cartwise.settings import Settings, get_settings
from tests.factories import make_preference

USER = "alice"


@pytest.fixture
def cli(
    backend_settings: Settings, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[typer.Typer]:
    """The memory and session commands, configured through the environment like a shell."""
    monkeypatch.chdir(tmp_path)  # no stray .env
    monkeypatch.setenv("CARTWISE_HOME", str(backend_settings.cartwise_home))
    monkeypatch.setenv("STORE_BACKEND", backend_settings.store_backend)
    monkeypatch.setenv("REDIS_URL", backend_settings.redis_url)
    monkeypatch.setenv("EMBEDDER", "hashing:256")
    get_settings.cache_clear()
    app = typer.Typer()
    memory.register(app)
    session.register(app)
    yield app
    get_settings.cache_clear()


def _run(app: typer.Typer, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), result.exception
    return result.exit_code, result.stdout, result.stderr


def _seed_raw(settings: Settings, user: str, key: str, payload: str) -> None:
    """Write a row behind the store's back, the way corruption or a hand edit would."""
    if settings.store_backend == "redis":
        from cartwise.redis_connection import RedisConnection

        connection = RedisConnection(settings.redis_url)
        connection.client.hset(f"cw:{{{user}}}:prefs", key, payload)
        connection.close()
        return
    with sqlite3.connect(settings.cartwise_home / "preferences.sqlite3") as conn:
        conn.execute(
            "INSERT OR REPLACE INTO preferences (user, key, payload) VALUES (?, ?, ?)",
            (user, key, payload),
        )


def _stored(settings: Settings, user: str) -> list[PreferenceEntry]:
    store = create_preference_store(settings, HashingEmbedder())
    try:
        return store.list(user)
    finally:
        store.close()


def test_export_then_import_round_trips_losslessly(
    cli: typer.Typer, backend_settings: Settings, tmp_path: Path
) -> None:
    store = create_preference_store(backend_settings, HashingEmbedder())
    store.upsert(
        USER, make_preference("plastic", domain="electronics", keywords=["plastic", "塑料"])
    )
    store.upsert(USER, make_preference("nike", polarity="like", category="brand", strength="soft"))
    store.upsert(USER, make_preference("42", polarity="like", category="size", keywords=["42码"]))
    store.close()
    exported = tmp_path / "alice.json"

    assert _run(cli, "memory", "export", "--user", USER, "--out", str(exported))[0] == 0
    code, _, err = _run(cli, "memory", "import", str(exported), "--user", "bob")
    assert code == 0, err
    _, again, _ = _run(cli, "memory", "export", "--user", "bob")

    first = json.loads(exported.read_text(encoding="utf-8"))
    second = json.loads(again)
    assert len(first["entries"]) == 3
    assert first["entries"] == second["entries"]
    assert _stored(backend_settings, "bob") == _stored(backend_settings, USER)


def test_an_invalid_import_file_writes_nothing(
    cli: typer.Typer, backend_settings: Settings, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.json"
    entries = [
        make_preference("nike", polarity="like", category="brand").model_dump(mode="json"),
        {"polarity": "dislike", "category": "colour", "slug": "red"},
    ]
    bad.write_text(json.dumps({"format": "cartwise-preferences", "version": 1, "entries": entries}))

    code, _, err = _run(cli, "memory", "import", str(bad), "--user", USER)

    assert code == 2
    assert "entry 1 is invalid" in err and "category" in err
    assert "Traceback" not in err
    assert _stored(backend_settings, USER) == []


@pytest.mark.parametrize(
    "content",
    [
        "not json",
        '{"entries": []}',
        '{"format": "cartwise-preferences", "version": 1, "entries": [1]}',
    ],
)
def test_unreadable_import_files_are_clear_errors(
    cli: typer.Typer, tmp_path: Path, content: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content)

    code, _, err = _run(cli, "memory", "import", str(bad), "--user", USER)

    assert code == 2 and err.startswith("error: ")


def test_import_refuses_a_key_that_disagrees_with_the_fields(
    cli: typer.Typer, tmp_path: Path
) -> None:
    forged = make_preference("nike", polarity="like", category="brand").model_dump(mode="json")
    forged["dedup_key"] = "like:brand::adidas"
    path = tmp_path / "forged.json"
    path.write_text(
        json.dumps({"format": "cartwise-preferences", "version": 1, "entries": [forged]})
    )

    code, _, err = _run(cli, "memory", "import", str(path), "--user", USER)

    assert code == 2 and "claims key" in err


def test_list_show_forget(cli: typer.Typer, backend_settings: Settings) -> None:
    store = create_preference_store(backend_settings, HashingEmbedder())
    store.upsert(USER, make_preference("plastic", keywords=["plastic", "塑料"]))
    store.close()

    code, out, _ = _run(cli, "memory", "list", "--user", USER, "--json")
    assert code == 0 and [e["dedup_key"] for e in json.loads(out)] == ["dislike:material::plastic"]
    code, out, _ = _run(cli, "memory", "show", "dislike:material::plastic", "--user", USER)
    assert code == 0 and "塑料" in out
    assert _run(cli, "memory", "forget", "dislike:material::plastic", "--user", USER)[0] == 0
    code, _, err = _run(cli, "memory", "show", "dislike:material::plastic", "--user", USER)
    assert code == 1 and err == "error: preference not found: dislike:material::plastic\n"


def test_doctor_fix_repairs_a_seeded_corrupt_store(
    cli: typer.Typer, backend_settings: Settings
) -> None:
    store = create_preference_store(backend_settings, HashingEmbedder())
    store.upsert(USER, make_preference("red", polarity="like", category="color", keywords=["red"]))
    store.upsert(USER, make_preference("leather", keywords=["leather"]))
    store.close()
    old, new = datetime.now(UTC) - timedelta(days=2), datetime.now(UTC)
    red_copy = make_preference("red", polarity="like", category="color", keywords=["红色"])
    nike_like = make_preference("nike", polarity="like", category="brand").model_copy(
        update={"provenance": red_copy.provenance.model_copy(update={"updated_at": old})}
    )
    nike_dislike = make_preference("nike", category="brand").model_copy(
        update={"provenance": red_copy.provenance.model_copy(update={"updated_at": new})}
    )
    _seed_raw(backend_settings, USER, "broken", "{not json")
    _seed_raw(
        backend_settings,
        USER,
        "dislike:colour::red",
        json.dumps({"polarity": "dislike", "category": "colour", "slug": "red"}),
    )
    _seed_raw(backend_settings, USER, "like:color::red-copy", red_copy.model_dump_json())
    _seed_raw(backend_settings, USER, nike_like.dedup_key, nike_like.model_dump_json())
    _seed_raw(backend_settings, USER, nike_dislike.dedup_key, nike_dislike.model_dump_json())

    code, out, _ = _run(cli, "memory", "doctor", "--user", USER, "--json")
    report = json.loads(out)
    assert code == 1
    assert sorted(row["key"] for row in report["invalid"]) == ["broken", "dislike:colour::red"]
    assert report["duplicates"] == ["like:color::red"]
    assert report["misfiled"] == ["like:color::red-copy"]
    assert report["conflicts"] == [["like:brand::nike", "dislike:brand::nike"]]

    code, out, _ = _run(cli, "memory", "doctor", "--user", USER, "--fix")
    assert code == 0 and "repaired: 3 entries kept" in out

    entries = {e.dedup_key: e for e in _stored(backend_settings, USER)}
    assert sorted(entries) == [
        "dislike:brand::nike",
        "dislike:material::leather",
        "like:color::red",
    ]
    assert set(entries["like:color::red"].keywords) == {"red", "红色"}
    assert _run(cli, "memory", "doctor", "--user", USER)[0] == 0


def test_session_show_and_clear(cli: typer.Typer, backend_settings: Settings) -> None:
    sessions = create_session_store(backend_settings)
    sessions.patch(
        USER, "t-1", SessionPatch(current_intent="buy running shoes", slots_patch={"size": "42"})
    )
    sessions.close()

    code, out, _ = _run(cli, "session", "show", "--thread", "t-1", "--user", USER, "--json")
    assert code == 0 and json.loads(out)["slots"] == {"size": "42"}
    code, out, _ = _run(cli, "session", "show", "--thread", "t-1", "--user", USER)
    assert code == 0 and "buy running shoes" in out
    assert _run(cli, "session", "show", "--thread", "t-1", "--user", "mallory")[0] == 1
    assert _run(cli, "session", "clear", "--thread", "t-1", "--user", USER)[0] == 0
    code, _, err = _run(cli, "session", "show", "--thread", "t-1", "--user", USER)
    assert code == 1 and err == "error: thread not found: t-1\n"


def test_recipients_list_forget_and_round_trip(
    cli: typer.Typer, backend_settings: Settings, tmp_path: Path
) -> None:
    store = create_preference_store(backend_settings, HashingEmbedder())
    store.upsert(USER, make_preference("plastic"))
    store.upsert(USER, make_preference("purple", category="color", recipient="mum"))
    store.upsert(USER, make_preference("plastic", recipient="mum"))  # same key, mum's
    store.close()

    code, out, _ = _run(cli, "memory", "list", "--user", USER, "--json")
    assert code == 0 and [e["recipient"] for e in json.loads(out)] == ["self", "mum", "mum"]
    code, out, _ = _run(cli, "memory", "list", "--user", USER, "--recipient", "mum", "--json")
    assert sorted(e["slug"] for e in json.loads(out)) == ["plastic", "purple"]
    code, out, _ = _run(cli, "memory", "list", "--user", USER)
    assert code == 0 and "mum" in out and "recipient" in out

    exported = tmp_path / "alice.json"
    assert _run(cli, "memory", "export", "--user", USER, "--out", str(exported))[0] == 0
    assert _run(cli, "memory", "import", str(exported), "--user", "bob")[0] == 0
    assert _stored(backend_settings, "bob") == _stored(backend_settings, USER)

    key = "dislike:material::plastic"
    code, out, _ = _run(cli, "memory", "forget", key, "--user", USER, "--recipient", "mum")
    assert code == 0 and out == f"forgot mum/{key}\n"
    assert sorted((e.recipient, e.slug) for e in _stored(backend_settings, USER)) == [
        ("mum", "purple"),
        ("self", "plastic"),
    ]
    code, _, err = _run(cli, "memory", "list", "--user", USER, "--recipient", "My Mum")
    assert (
        code == 2
        and err.startswith("error: invalid preference recipient=")
        and err.count("\n") == 1
    )


def test_import_refuses_an_oversized_row_and_writes_nothing(
    cli: typer.Typer, tmp_path: Path, backend_settings: Settings
) -> None:
    fine = make_preference("wool", keywords=["wool"]).model_dump(mode="json")
    huge = make_preference("rattan", keywords=["rattan"]).model_dump(mode="json")
    huge["keywords"] = ["藤编" * 40]
    path = tmp_path / "huge.json"
    path.write_text(
        json.dumps({"format": "cartwise-preferences", "version": 1, "entries": [fine, huge]})
    )

    code, _, err = _run(cli, "memory", "import", str(path), "--user", USER)

    assert code == 2 and "entry 1" in err and "64 characters" in err
    store = create_preference_store(backend_settings, HashingEmbedder())
    assert store.list(USER) == []
    store.close()


@pytest.mark.parametrize("mode", [(), ("--replace",)], ids=["merge", "replace"])
def test_import_past_the_per_user_cap_is_refused_like_any_other_write(
    cli: typer.Typer,
    tmp_path: Path,
    backend_settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    mode: tuple[str, ...],
) -> None:
    monkeypatch.setenv("MAX_PREFERENCES_PER_USER", "3")
    get_settings.cache_clear()
    slugs = ["wool", "jute", "rattan", "linen", "bamboo"]
    entries = [make_preference(s, keywords=[s]).model_dump(mode="json") for s in slugs]
    path = tmp_path / "five.json"
    path.write_text(
        json.dumps({"format": "cartwise-preferences", "version": 1, "entries": entries})
    )

    code, _, err = _run(cli, "memory", "import", str(path), "--user", USER, *mode)

    assert code == 1 and "keep 3 preferences" in err and err.count("\n") == 1, err
    store = create_preference_store(backend_settings, HashingEmbedder())
    assert store.list(USER) == [], "validated whole: nothing is written"
    store.close()
