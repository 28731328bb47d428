"""Price questions with ENGINE=llm, against the scripted OpenAI-compatible server: "is this a
good price / 现在买划算吗", "历史最低多少", "降到300提醒我" and "有货了告诉我 / back in stock" are
answered from the item's history and make the watch, as with the rules engine (the stock watch
fires once, at the restock); a model that files the watch's target as a budget, or misses the
price question or the stock watch, is corrected by the rules reading."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest

from cartwise.agent.deps import AgentDeps
from cartwise.settings import Settings
from cartwise.understanding import guarded_llm_engine
from cartwise.understanding.fallback import FallbackEngine
from cartwise.understanding.rules.engine import RulesEngine
from tests.agent.test_price_turns import catalog, open_deps, reingest, turn
from tests.doubles import ScriptedAnswer, ScriptedLLMServer


@pytest.fixture
def llm_server() -> Iterator[ScriptedLLMServer]:
    with ScriptedLLMServer() as server:
        yield server


@pytest.fixture
def deps(settings: Settings, llm_server: ScriptedLLMServer) -> Iterator[AgentDeps]:
    llm_settings = settings.model_copy(
        update={"engine": "llm", "llm_base_url": llm_server.base_url, "llm_timeout_seconds": 5}
    )
    opened = open_deps(llm_settings)
    engine = guarded_llm_engine(llm_settings, RulesEngine())
    yield dataclasses.replace(opened, engine=engine)
    opened.close()


def reading(language: str, **fields: Any) -> dict[str, Any]:
    """A reader answer as a model gives it: no preference stated, nothing for anyone else."""
    answer: dict[str, Any] = {"language": language, "intent": "search", "query": ""}
    return answer | fields


def price(kind: str, refs: list[int], **ask: Any) -> dict[str, Any]:
    return {"kind": "price", "refs": refs, "price_ask": {"kind": kind, **ask}}


CURATED: dict[str, Any] = {
    "long_term": [],
    "supersede": [],
    "session_patch": {"slots_patch": {}, "constraints": [], "new_open_questions": [],
                      "resolved_questions": [], "decisions_made": []},
}  # fmt: skip


def script_search(server: ScriptedLLMServer, language: str, query: str) -> None:
    search = reading(
        language, domain="electronics", query=query, product_type=query, acts=["request"]
    )
    written = "Here are the headphones." if language == "en" else "给你找到这些耳机。"
    server.script(
        ScriptedAnswer.json(search), ScriptedAnswer.text(written), ScriptedAnswer.json(CURATED)
    )


def script_price_turn(server: ScriptedLLMServer, answer: dict[str, Any]) -> None:
    # A price follow-up's reply is written from the history by code: reader and curator only.
    server.script(ScriptedAnswer.json(answer), ScriptedAnswer.json(CURATED))


def assert_no_fallback(deps: AgentDeps, server: ScriptedLLMServer) -> None:
    assert isinstance(deps.engine, FallbackEngine)
    assert deps.engine.counters.snapshot()["fallbacks"] == {}
    assert server.pending == 0 and server.unscripted == 0


async def test_zh_price_questions_with_the_llm_engine(
    deps: AgentDeps, llm_server: ScriptedLLMServer
) -> None:
    script_search(llm_server, "zh", "头戴耳机")
    first = await turn(deps, "zh", "推荐一款头戴耳机")
    assert first.products and first.products[0].history is not None

    script_price_turn(llm_server, reading("zh", acts=["item_question"],
                                          followup=price("deal", [1])))  # fmt: skip
    deal = await turn(deps, "zh", "第1个现在买划算吗")
    assert deal.price_answer is not None and deal.price_answer.kind == "deal"
    assert "近90天最低价" in deal.reply

    script_price_turn(llm_server, reading("zh", acts=["item_question"],
                                          followup=price("lowest", [0])))  # fmt: skip
    lowest = await turn(deps, "zh", "历史最低多少")
    low = lowest.price_answer
    assert low is not None and low.kind == "lowest" and low.lowest_180d_at is not None
    assert f"近180天最低¥2,299（{low.lowest_180d_at}）" in lowest.reply

    # The model reads the amount as the watch's target, as it should.
    script_price_turn(llm_server, reading("zh", acts=["request"],
                                          followup=price("watch_price", [0], target=300,
                                                         currency="CNY")))  # fmt: skip
    watch = await turn(deps, "zh", "降到300提醒我")
    made = watch.price_answer.watch if watch.price_answer else None
    assert made is not None and (made.kind, made.target, made.currency) == ("price", 300, "CNY")
    assert "¥300" in watch.reply and "提醒你" in watch.reply
    assert watch.memory.session.slots.get("budget_max") is None
    assert_no_fallback(deps, llm_server)


async def test_en_price_questions_with_the_llm_engine(
    deps: AgentDeps, llm_server: ScriptedLLMServer
) -> None:
    script_search(llm_server, "en", "over-ear headphones")
    first = await turn(deps, "en", "over-ear headphones")
    assert first.products

    script_price_turn(llm_server, reading("en", acts=["item_question"],
                                          followup=price("deal", [1])))  # fmt: skip
    deal = await turn(deps, "en", "is the 1st one a good price?")
    assert deal.price_answer is not None and deal.price_answer.kind == "deal"
    assert "90-day low" in deal.reply

    script_price_turn(llm_server, reading("en", acts=["item_question"],
                                          followup=price("lowest", [1])))  # fmt: skip
    lowest = await turn(deps, "en", "what's the lowest the 1st one has been?")
    assert lowest.price_answer is not None and lowest.price_answer.kind == "lowest"

    script_price_turn(llm_server, reading("en", acts=["request"],
                                          followup=price("watch_price", [1], target=300,
                                                         currency="USD")))  # fmt: skip
    watch = await turn(deps, "en", "tell me when the 1st one drops below $300")
    made = watch.price_answer.watch if watch.price_answer else None
    assert made is not None and (made.target, made.currency) == (300, "USD")
    assert "$300" in watch.reply
    assert_no_fallback(deps, llm_server)


async def test_a_watch_target_the_model_files_as_a_budget_is_the_watchs_target(
    deps: AgentDeps, llm_server: ScriptedLLMServer
) -> None:
    script_search(llm_server, "zh", "头戴耳机")
    await turn(deps, "zh", "推荐一款头戴耳机")
    script_price_turn(llm_server, reading("zh", acts=["request"],
                                          slots={"budget_max": "2000", "budget_currency": "CNY"},
                                          followup=price("watch_price", [1])))  # fmt: skip
    watch = await turn(deps, "zh", "第1个降到2000以下提醒我")
    made = watch.price_answer.watch if watch.price_answer else None
    assert made is not None and (made.target, made.currency) == (2000, "CNY")
    assert watch.memory.session.slots.get("budget_max") is None  # a target, not a budget
    assert_no_fallback(deps, llm_server)


async def test_a_price_question_the_model_missed_is_read_by_the_rules(
    deps: AgentDeps, llm_server: ScriptedLLMServer
) -> None:
    script_search(llm_server, "zh", "头戴耳机")
    await turn(deps, "zh", "推荐一款头戴耳机")
    # The model took "历史最低多少" for a new search with no product.
    script_price_turn(llm_server, reading("zh", acts=["item_question"]))
    lowest = await turn(deps, "zh", "第1个历史最低多少")
    assert lowest.price_answer is not None and lowest.price_answer.kind == "lowest"
    assert "近180天最低¥2,299" in lowest.reply
    assert_no_fallback(deps, llm_server)


@pytest.mark.parametrize(
    ("language", "search", "ask", "said"),
    [
        ("zh", "推荐一款头戴耳机", "有货了告诉我", "一有货就提醒你"),
        ("en", "over-ear headphones", "let me know when it's back in stock", "back"),
    ],
)
async def test_a_back_in_stock_watch_with_the_llm_engine_fires_once_on_restock(
    deps: AgentDeps, llm_server: ScriptedLLMServer, language: str, search: str, ask: str,
    said: str,
) -> None:  # fmt: skip
    script_search(llm_server, language, "头戴耳机" if language == "zh" else "over-ear headphones")
    first = await turn(deps, language, search)
    assert [r.code for r in first.rejected] == ["out_of_stock"]  # taobao's T2, left out

    # "it" (0): the shown items are in stock, so the watch is on the listing left out.
    script_price_turn(llm_server, reading(language, acts=["request"],
                                          followup=price("watch_stock", [0])))  # fmt: skip
    asked = await turn(deps, language, ask)
    made = asked.price_answer.watch if asked.price_answer else None
    assert made is not None and (made.kind, made.platform, made.item_id) == (
        "stock", "taobao", "T2"
    )  # fmt: skip
    assert made.target is None and said in asked.reply
    assert_no_fallback(deps, llm_server)

    taobao = [p for p in catalog() if p.platform == "taobao"]
    cheaper = [p.model_copy(update={"price": 289.0, "price_base": 289.0}) for p in taobao]
    assert reingest(deps, cheaper)[1] == 0  # a new price, still out of stock: nothing
    restocked = [p.model_copy(update={"in_stock": True}) for p in cheaper]
    assert reingest(deps, restocked)[1] == 1
    assert reingest(deps, [p.model_copy(update={"price": 279.0}) for p in restocked])[1] == 0
    assert deps.watches is not None
    (alert,) = deps.watches.alerts("ann")
    assert (alert.kind, alert.watch_id, alert.item_id) == ("stock", made.id, "T2")


@pytest.mark.parametrize(
    ("language", "search", "ask"),
    [
        ("zh", "推荐一款头戴耳机", "有货了告诉我"),
        ("en", "over-ear headphones", "let me know when it's back in stock"),
    ],
)
async def test_a_back_in_stock_ask_the_model_missed_is_read_by_the_rules(
    deps: AgentDeps, llm_server: ScriptedLLMServer, language: str, search: str, ask: str
) -> None:
    script_search(llm_server, language, "头戴耳机" if language == "zh" else "over-ear headphones")
    await turn(deps, language, search)
    # The model took the ask for a remark about the results: no follow-up at all.
    script_price_turn(llm_server, reading(language, acts=["request"]))
    asked = await turn(deps, language, ask)
    made = asked.price_answer.watch if asked.price_answer else None
    assert made is not None and (made.kind, made.item_id) == ("stock", "T2")
    assert_no_fallback(deps, llm_server)
