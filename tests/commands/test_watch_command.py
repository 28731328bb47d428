"""`cartwise watch list|cancel|edit|webhook` and `cartwise alerts`, through the CLI runner
against the real SQLite store."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest
import typer
from typer.testing import CliRunner

from cartwise.commands import watches as watch_command
from cartwise.memory import create_watch_store
from cartwise.memory.prices import Trigger, new_watch
from cartwise.settings import Settings, get_settings


@pytest.fixture
def app(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[typer.Typer]:
    monkeypatch.setenv("CARTWISE_HOME", str(settings.cartwise_home))
    get_settings.cache_clear()
    app = typer.Typer()
    watch_command.register(app)
    yield app
    get_settings.cache_clear()


def test_watches_are_listed_edited_cancelled_and_alerts_shown(
    app: typer.Typer, settings: Settings
) -> None:
    store = create_watch_store(settings)
    watch = store.add(new_watch("ann", model="m", title="Sony WH-1000XM5", kind="price",
                                target=2000, currency="CNY"))  # fmt: skip
    store.close()
    runner = CliRunner()
    listed = runner.invoke(app, ["watch", "list", "--user", "ann", "--json"])
    assert listed.exit_code == 0, listed.output
    assert [w["id"] for w in json.loads(listed.stdout)] == [watch.id]
    assert "no watches" in runner.invoke(app, ["watch", "list", "--user", "bob"]).stdout

    edited = runner.invoke(app, ["watch", "edit", "--user", "ann", watch.id, "--target", "2100",
                                 "--json"])  # fmt: skip
    assert edited.exit_code == 0 and json.loads(edited.stdout)["target"] == 2100

    store = create_watch_store(settings)
    store.fire([Trigger("m", "jd", "1", 2050, "CNY", 2050, True)], settings.fx_to_base,
               now=time.time())  # fmt: skip
    store.close()
    alerts = runner.invoke(app, ["alerts", "--user", "ann", "--json"])
    assert [(a["platform"], a["price"]) for a in json.loads(alerts.stdout)] == [("jd", 2050)]
    assert "Sony WH-1000XM5" in runner.invoke(app, ["alerts", "--user", "ann"]).stdout

    cancelled = runner.invoke(app, ["watch", "cancel", "--user", "ann", watch.id])
    assert cancelled.exit_code == 0 and "cancelled" in cancelled.stdout
    assert json.loads(runner.invoke(app, ["watch", "list", "--user", "ann", "--json"]).stdout) == []


def test_bad_input_is_one_line_and_exit_2(app: typer.Typer) -> None:
    runner = CliRunner()
    missing = runner.invoke(app, ["watch", "cancel", "--user", "ann", "nope"])
    assert missing.exit_code == 1 and "watch not found" in missing.stderr
    nothing = runner.invoke(app, ["watch", "edit", "--user", "ann", "abc"])
    assert nothing.exit_code == 2 and "nothing to change" in nothing.stderr
    hook = runner.invoke(app, ["watch", "webhook", "--user", "ann", "javascript:x"])
    assert hook.exit_code == 2 and "Traceback" not in hook.output
