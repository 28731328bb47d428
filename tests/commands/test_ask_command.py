"""`cartwise ask` through the CLI runner: the documented --json object, --script replay in
one process, clear errors instead of tracebacks."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from cartwise.commands import ask as ask_command
from cartwise.embedding import create_embedder
from cartwise.memory import create_price_history
from cartwise.memory.prices import DAY, PricePoint
from cartwise.recall.service import RecallService
from cartwise.settings import Settings, get_settings
from tests.agent.conftest import small_catalog

TURN_FIELDS = {
    "reply", "language", "products", "price_compare", "personalization", "shopper_currency",
    "rejected",
    "questions", "catalog_gap", "dialogue", "demoted", "recipient", "memory", "timings",
    "applied", "notices", "unstated", "price_answer", "alerts",
}  # fmt: skip
PRODUCT_FIELDS = {
    "platform", "item_id", "title", "brand", "price", "currency", "price_base", "url",
    "image_url", "rating", "score", "score_query", "score_user", "why", "offers", "in_stock",
    "history", "deal", "was_price", "was_price_seen", "model_lowest_90d",
}  # fmt: skip


@pytest.fixture
def app(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[typer.Typer]:
    monkeypatch.setenv("CARTWISE_HOME", str(settings.cartwise_home))
    monkeypatch.setenv("EMBEDDER", settings.embedder)
    get_settings.cache_clear()
    embedder = create_embedder(settings.embedder)
    service = RecallService.open(settings, embedder)
    catalog = small_catalog()
    service.upsert(catalog, embedder.embed_documents([p.embedding_text() for p in catalog]))
    service.close()
    app = typer.Typer()
    ask_command.register(app)
    yield app
    get_settings.cache_clear()


def test_ask_json_is_the_documented_turn_result(app: typer.Typer) -> None:
    result = CliRunner().invoke(
        app, ["ask", "--user", "ann", "--thread", "t1", "--json", "不要塑料的耳机"]
    )
    assert result.exit_code == 0, result.output
    turn = json.loads(result.stdout)
    assert set(turn) == TURN_FIELDS
    assert turn["products"] and set(turn["products"][0]) == PRODUCT_FIELDS
    assert all("plastic" not in p["title"] for p in turn["products"])
    assert {"platform", "item_id", "title", "reason", "code", "params"} == set(turn["rejected"][0])
    assert turn["memory"]["long_term"][0]["dedup_key"] == "dislike:material:electronics:plastic"
    assert turn["memory"]["session"]["thread"] == "t1"
    assert {"understanding", "searching", "total"} <= set(turn["timings"])


def test_ask_json_products_carry_their_price_history_and_deal(
    app: typer.Typer, settings: Settings
) -> None:
    now = time.time()
    service = RecallService.open(settings, create_embedder(settings.embedder))
    wood = [p.model_copy(update={"attributes": {**p.attributes, "list_price": ["899"]}})
            for p in small_catalog() if p.item_id.endswith("-wood")]  # fmt: skip
    service.upsert(wood, service.embedder.embed_documents([p.embedding_text() for p in wood]))
    service.close()
    history = create_price_history(settings)
    # 699 for months, 629 (the listed price) for the last ten days; never the "was" 899.
    history.backfill([PricePoint(p.platform, p.item_id, price, "CNY", True, now - ago * DAY)
                      for p in wood for ago, price in ((150, 699.0), (10, 629.0))])  # fmt: skip
    history.close()
    result = CliRunner().invoke(app, ["ask", "--user", "ann", "--json", "walnut wood headphones"])
    assert result.exit_code == 0, result.output
    products = json.loads(result.stdout)["products"]
    with_history = [p for p in products if p["item_id"].endswith("-wood")]
    assert with_history
    since = datetime.fromtimestamp(now - 10 * DAY, UTC).date().isoformat()
    for out in with_history:
        history_out = out["history"]
        assert {"lowest_90d", "lowest_90d_at", "median_90d", "points"} <= set(history_out)
        assert (history_out["lowest_90d"], history_out["lowest_90d_at"]) == (629.0, since)
        assert (history_out["median_90d"], history_out["points"]) == (699.0, 2)
        assert out["deal"] == "lowest_90d"
        assert (out["was_price"], out["was_price_seen"]) == (899.0, False)  # never charged
    for out in products:
        if not out["item_id"].endswith("-wood"):  # no history, no "was" price
            assert (out["history"], out["deal"], out["was_price_seen"]) == (None, None, None)


def test_ask_without_json_prints_reply_and_products(app: typer.Typer) -> None:
    result = CliRunner().invoke(app, ["ask", "--user", "ann", "推荐耳机"])
    assert result.exit_code == 0, result.output
    assert "headphones" in result.stdout and "personalization: inactive" in result.stdout


def test_script_replays_a_conversation_in_one_process(app: typer.Typer, tmp_path: Path) -> None:
    script = tmp_path / "conversation.jsonl"
    lines = [
        {"user": "ann", "thread": "s1", "message": "我想买跑步鞋"},
        "not json",
        {"user": "ann", "thread": "s1", "message": "42"},
        {"user": "ann", "thread": "s1", "message": ""},
    ]
    script.write_text(
        "\n".join(x if isinstance(x, str) else json.dumps(x, ensure_ascii=False) for x in lines),
        encoding="utf-8",
    )
    result = CliRunner().invoke(app, ["ask", "--script", str(script)])
    assert result.exit_code == 0, result.output
    first, bad, second, empty = (json.loads(line) for line in result.stdout.splitlines())
    assert first["questions"] and first["memory"]["session"]["open_questions"] == first["questions"]
    assert bad["line"] == 2 and "error" in bad
    assert second["memory"]["session"]["slots"]["size"] == "42"
    assert second["memory"]["session"]["open_questions"] == []
    assert empty == {"error": "the message is empty: say what you are looking for", "line": 4}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ask", "--user", "ann"], "give a MESSAGE"),
        (["ask", "headphones"], "give --user"),
        (["ask", "--user", "ann", "x" * 2001], "limit is 2000"),
        (["ask", "--script", "/no/such/file.jsonl"], "cannot read script"),
    ],
)
def test_bad_input_is_one_clear_line_and_exit_2(
    app: typer.Typer, args: list[str], message: str
) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.output


def test_ask_prints_each_products_link(app: typer.Typer) -> None:
    result = CliRunner().invoke(app, ["ask", "--user", "bo", "--thread", "t1", "headphones"])
    assert result.exit_code == 0, result.output
    assert re.search(r"^  \d+\. https://example\.com/\w+/plastic-headphones$", result.stdout, re.M)


def test_chat_streams_replies_until_quit(app: typer.Typer) -> None:
    result = CliRunner().invoke(app, ["chat", "--user", "ann"], input="耳机\n/memory\n/quit\n")
    assert result.exit_code == 0, result.output
    assert "cartwise>" in result.stdout and "headphones" in result.stdout
    assert "nothing remembered yet" in result.stdout


def test_docs_list_exactly_the_turn_result_and_product_fields() -> None:
    from cartwise.agent.result import DialogueOut, ProductOut, TurnResult
    from cartwise.memory.session_state import ActiveSearch

    docs = (Path(__file__).resolve().parents[2] / "docs" / "ask.md").read_text(encoding="utf-8")
    headings = r"^(?:Each product:|The `dialogue` object:|The active search:)$"
    tables = re.split(headings, docs, flags=re.MULTILINE)
    documented = [re.findall(r"^\| `(\w+)` \|", part, flags=re.MULTILINE) for part in tables]
    assert documented[0] == list(TurnResult.model_fields)
    assert documented[1] == list(ProductOut.model_fields)
    assert documented[2] == list(DialogueOut.model_fields)
    assert documented[3] == list(ActiveSearch.model_fields)
    assert set(documented[0]) == TURN_FIELDS and set(documented[1]) == PRODUCT_FIELDS
