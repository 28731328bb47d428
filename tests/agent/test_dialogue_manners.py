"""Small talk, questions that help, and honesty about the catalog — through `run_agent` with
the rules engine, real SQLite stores and the small hashing-embedder catalog."""

from __future__ import annotations

import asyncio

import pytest

from cartwise.agent.asking import choose_question
from cartwise.agent.deps import AgentDeps
from cartwise.agent.result import TurnResult
from cartwise.agent.run import run_agent
from cartwise.memory.session_state import SessionPrefState
from cartwise.understanding.questions import (
    BUDGET_QUESTIONS,
    GIFT_QUESTIONS,
    PRODUCT_TYPE_QUESTIONS,
    question_for,
)
from cartwise.understanding.reading import Conversation
from cartwise.understanding.rules.engine import RulesEngine
from cartwise.understanding.rules.requests import is_vague as is_vague_request
from cartwise.understanding.rules.small_talk import small_talk_kind
from tests.agent.conftest import DepsFactory


def turn(deps: AgentDeps, message: str, *, user: str = "ann", thread: str = "t1") -> TurnResult:
    return asyncio.run(run_agent(deps, user=user, thread=thread, message=message))


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("你好", "greeting"),
        ("嗨，在吗", "greeting"),
        ("good evening!", "greeting"),
        ("多谢啦", "thanks"),
        ("thank you so much", "thanks"),
        ("好的，先这样吧", "done"),
        ("ok thanks, i'm all set", "done"),
        ("拜拜", "bye"),
        ("see you later", "bye"),
        ("ok I'll take it, thanks!", "done"),
        ("好，就它了", "done"),
        ("行，就买这个了，谢谢", "done"),
    ],
)
def test_small_talk_is_recognised(message: str, kind: str) -> None:
    assert small_talk_kind(message) == kind


@pytest.mark.parametrize(
    "message", ["thanks, now show me earbuds", "你好，我想买耳机", "hi, size 42 please", "tea"]
)
def test_a_request_with_small_talk_in_it_is_not_small_talk(message: str) -> None:
    assert small_talk_kind(message) == ""


@pytest.mark.parametrize("message", ["晚上好呀", "thanks a lot, that's everything", "再见"])
def test_small_talk_searches_nothing_and_writes_nothing(
    make_deps: DepsFactory, message: str
) -> None:
    deps = make_deps(RulesEngine())
    first = turn(deps, "over-ear headphones")
    session_before = deps.sessions.get("ann", "t1").model_dump(exclude={"updated_at"})
    messages_before = deps.sessions.messages("ann", "t1")
    memory_before = deps.preferences.list("ann")

    result = turn(deps, message)

    assert first.products and not result.products
    assert "searching" not in result.timings
    assert result.questions == []
    assert len(result.reply) < 80
    assert deps.preferences.list("ann") == memory_before
    assert deps.sessions.get("ann", "t1").model_dump(exclude={"updated_at"}) == session_before
    assert deps.sessions.messages("ann", "t1") == messages_before


def test_a_greeting_in_a_new_thread_leaves_no_trace(make_deps: DepsFactory) -> None:
    deps = make_deps(RulesEngine())
    result = turn(deps, "hello there", thread="fresh")
    assert not result.products and "记住" not in result.reply
    assert deps.sessions.get("ann", "fresh").is_empty
    assert deps.sessions.messages("ann", "fresh") == []
    assert deps.preferences.list("ann") == []


@pytest.mark.parametrize(
    "query", ["something", "点东西", "gift", "礼物", "something nice", "有什么好买"]
)
def test_a_request_naming_no_product_is_vague(query: str) -> None:
    assert is_vague_request(query)


@pytest.mark.parametrize("query", ["earbuds", "给我妈买面霜", "gift mum face cream", "雨衣"])
def test_a_request_naming_a_product_is_not_vague(query: str) -> None:
    assert not is_vague_request(query)


def test_one_question_per_turn_product_type_first() -> None:
    asked = choose_question(
        reading=RulesEngine().read("想买个礼物", Conversation()),
        searched=False,
        domain="shoes",
        slots={},
        open_questions=[],
        sized=True,
    )
    assert asked == GIFT_QUESTIONS["zh"]
    size_first = choose_question(
        reading=RulesEngine().read("running shoes, not too expensive", Conversation()),
        searched=True,
        domain="shoes",
        slots={},
        open_questions=[],
        sized=True,
    )
    assert size_first == question_for("size", "en")


def test_a_known_budget_or_an_open_question_is_not_asked_again() -> None:
    reading = RulesEngine().read("earbuds, nothing too expensive", Conversation())
    assert reading.vague_budget

    def ask(slots: dict[str, str], open_questions: list[str]) -> str:
        return choose_question(
            reading=reading,
            searched=True,
            domain="electronics",
            slots=slots,
            open_questions=open_questions,
            sized=False,
        )

    assert ask({}, []) == BUDGET_QUESTIONS["en"]
    assert ask({"budget_max": "50", "budget_currency": "USD"}, []) == ""
    assert ask({}, [BUDGET_QUESTIONS["en"]]) == ""


def test_a_vague_request_asks_and_the_answer_resolves_it(make_deps: DepsFactory) -> None:
    deps = make_deps(RulesEngine())
    asked = turn(deps, "help me find something")
    assert asked.products == []
    assert asked.questions == [PRODUCT_TYPE_QUESTIONS["en"]]
    assert asked.memory.session.open_questions == [PRODUCT_TYPE_QUESTIONS["en"]]

    answered = turn(deps, "over-ear headphones please")
    assert answered.products and answered.questions == []
    assert answered.memory.session.open_questions == []
    assert PRODUCT_TYPE_QUESTIONS["en"] in answered.memory.session.resolved_questions


def test_a_vague_budget_asks_for_a_number_and_the_number_answers_it(
    make_deps: DepsFactory,
) -> None:
    deps = make_deps(RulesEngine())
    asked = turn(deps, "over-ear headphones, nothing too expensive")
    assert asked.products, "results are still shown while asking"
    assert asked.questions == [BUDGET_QUESTIONS["en"]]

    answered = turn(deps, "300")
    assert answered.questions == []
    assert answered.memory.session.open_questions == []
    assert answered.memory.session.slots["budget_max"] == "300"
    assert all(p.price_base <= 300 * 7.12 for p in answered.products)


def test_a_bare_amount_is_in_the_currency_of_the_question_it_answers() -> None:
    session = SessionPrefState(thread="t", open_questions=[BUDGET_QUESTIONS["zh"]])
    plan = RulesEngine().read("300", Conversation(session=session))
    assert plan.slots == {"budget_max": "300", "budget_currency": "CNY"}
    assert plan.answered_questions == [BUDGET_QUESTIONS["zh"]]


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("我想买辆二手车", "vehicle"),
        ("book me a hotel room for friday", "ticket"),
        ("找个上门保洁阿姨", "service"),
        ("a golden retriever puppy", "animal"),
    ],
)
def test_what_no_store_sells_is_said_plainly_with_nothing_shown(
    make_deps: DepsFactory, message: str, kind: str
) -> None:
    deps = make_deps(RulesEngine())
    result = turn(deps, message)
    assert result.catalog_gap is not None and result.catalog_gap.kind == kind
    assert result.products == [] and result.price_compare == []
    assert "没有" in result.reply or "don't carry" in result.reply
