"""`cartwise search` through the CLI runner, against a real index in a temporary home."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from cartwise.commands import search as search_command
from cartwise.embedding import create_embedder
from cartwise.memory import create_preference_store
from cartwise.memory.store import PreferenceEntry
from cartwise.recall.service import RecallService
from cartwise.settings import Settings, get_settings
from tests.factories import make_product

RESULT_FIELDS = {
    "platform", "item_id", "title", "brand", "price", "currency", "price_base",
    "score", "score_query", "score_user",
}  # fmt: skip


@pytest.fixture
def app(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[typer.Typer]:
    monkeypatch.setenv("CARTWISE_HOME", str(settings.cartwise_home))
    monkeypatch.setenv("EMBEDDER", settings.embedder)
    get_settings.cache_clear()
    embedder = create_embedder(settings.embedder)
    service = RecallService.open(settings, embedder)
    products = [
        make_product("3518", platform="webmall_2", title="AMD Ryzen 9 5900X - 3.7 GHz", brand="AMD", price=251.26),
        make_product("1954", platform="webmall_1", title="AMD Ryzen 9 5900X - 12 Cores", brand="AMD", price=251.26),
        make_product("7", platform="webmall_1", title="AMD Ryzen 9 5950X - 16 Cores", brand="AMD", price=399.0),
        make_product("8", platform="webmall_1", title="Metal over-ear headphones", brand="Sony", price=99.0),
    ]  # fmt: skip
    service.upsert(products, embedder.embed_documents([p.embedding_text() for p in products]))
    service.close()
    cli = typer.Typer()
    search_command.register(cli)
    cli.command("noop")(lambda: None)  # a second command keeps `search` a named subcommand
    yield cli
    get_settings.cache_clear()


def _run(app: typer.Typer, *args: str) -> str:
    result = CliRunner().invoke(app, ["search", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_json_output_has_exactly_the_documented_shape(app: typer.Typer) -> None:
    output = json.loads(_run(app, "Ryzen 9 5900X", "--json", "--k", "2"))
    assert set(output) == {"personalization", "results"}
    assert output["personalization"] == "inactive"
    assert [set(r) for r in output["results"]] == [RESULT_FIELDS, RESULT_FIELDS]
    assert {r["item_id"] for r in output["results"]} == {"3518", "1954"}


def test_platform_option_is_repeatable_and_exact(app: typer.Typer) -> None:
    output = json.loads(_run(app, "Ryzen", "--json", "-p", "webmall_2", "--platform", "webmall_2"))
    assert [r["platform"] for r in output["results"]] == ["webmall_2"]


def test_unknown_platform_is_a_clean_error(app: typer.Typer) -> None:
    result = CliRunner().invoke(app, ["search", "Ryzen", "--platform", "ebay"])
    assert result.exit_code == 2
    assert "unknown platform 'ebay'" in result.stderr and "Traceback" not in result.output


def test_script_runs_every_line_and_reports_bad_ones(app: typer.Typer, tmp_path: Path) -> None:
    script = tmp_path / "searches.jsonl"
    script.write_text(
        "\n".join(
            [
                json.dumps({"query": "Ryzen 9 5950X", "k": 1}),
                "not json",
                json.dumps({"query": "headphones", "platform": "webmall_1", "k": 1}),
                json.dumps({"query": "x", "platform": "ebay"}),
            ]
        ),
        encoding="utf-8",
    )
    lines = [json.loads(line) for line in _run(app, "--script", str(script)).splitlines()]
    assert len(lines) == 4
    assert lines[0]["results"][0]["item_id"] == "7"
    assert lines[1]["line"] == 2 and "error" in lines[1]
    assert lines[2]["results"][0]["platform"] == "webmall_1"
    assert "unknown platform" in lines[3]["error"]


def test_user_with_only_a_dislike_gets_no_personalization(
    app: typer.Typer, settings: Settings
) -> None:
    store = create_preference_store(settings, create_embedder(settings.embedder))
    store.upsert(
        "ann",
        PreferenceEntry(
            polarity="dislike", category="material", slug="plastic", keywords=["plastic", "塑料"]
        ),
    )  # type: ignore[arg-type]
    store.upsert(
        "bob",
        PreferenceEntry(polarity="like", category="brand", slug="sony", keywords=["Sony", "索尼"]),
    )  # type: ignore[arg-type]
    store.close()
    ann = json.loads(_run(app, "headphones", "--json", "--user", "ann"))
    bob = json.loads(_run(app, "headphones", "--json", "--user", "bob"))
    assert ann["personalization"] == "inactive"
    assert all(r["score_user"] == 0.0 for r in ann["results"])
    assert bob["personalization"] == "active"
    assert any(r["score_user"] != 0.0 for r in bob["results"])


@pytest.mark.slow
def test_fresh_home_gets_the_demo_catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARTWISE_HOME", str(tmp_path / "fresh"))
    monkeypatch.setenv("EMBEDDER", "hashing:256")
    get_settings.cache_clear()
    cli = typer.Typer()
    search_command.register(cli)
    cli.command("noop")(lambda: None)
    try:
        output = json.loads(_run(cli, "降噪耳机", "--json", "--k", "3", "-p", "jd"))
    finally:
        get_settings.cache_clear()
    assert len(output["results"]) == 3
    assert {r["platform"] for r in output["results"]} == {"jd"}
