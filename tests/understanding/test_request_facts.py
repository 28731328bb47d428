"""The interest that answers our gift question."""

from __future__ import annotations

import pytest

from cartwise.memory.session_state import SessionPrefState
from cartwise.understanding.questions import GIFT_QUESTIONS, PRODUCT_TYPE_QUESTIONS, question_for
from cartwise.understanding.reading import Conversation
from cartwise.understanding.rules.engine import RulesEngine
from cartwise.understanding.rules.requests import gift_interest
from cartwise.understanding.rules.requests import is_vague as is_vague_request

ASKED = [GIFT_QUESTIONS["en"]]


@pytest.mark.parametrize(
    ("message", "interest"),
    [
        ("he likes hiking", "hiking"),
        ("She's really into tea and coffee.", "tea and coffee"),
        ("my dad loves fishing!", "fishing"),
        ("他喜欢钓鱼", "钓鱼"),
        ("她平时爱喝茶", "喝茶"),
        ("我妈对养花很感兴趣", "养花"),
    ],
)
def test_an_answer_to_the_gift_question_names_what_to_search(message: str, interest: str) -> None:
    assert gift_interest(message, ASKED) == interest


def test_only_an_answer_to_our_gift_question_counts() -> None:
    assert gift_interest("he likes hiking", []) == ""
    assert gift_interest("he likes hiking", [PRODUCT_TYPE_QUESTIONS["en"]]) == ""
    assert gift_interest("running shoes please", ASKED) == ""


@pytest.mark.parametrize("query", ["something for a teenager then", "something for a 10 year old"])
def test_a_request_naming_only_whom_it_is_for_is_vague(query: str) -> None:
    assert is_vague_request(query)


@pytest.mark.parametrize("query", ["42", "iphone 15", "5000mAh power bank"])
def test_a_number_alone_is_not_a_vague_request(query: str) -> None:
    """Regression: ages made any number generic, so the answer "42" asked what kind."""
    assert not is_vague_request(query)


@pytest.mark.parametrize(
    "query",
    ["hey birthday present for girlfriend", "生日礼物 送女朋友", "christmas gift for my dad"],
)
def test_an_occasion_and_a_recipient_name_no_product(query: str) -> None:
    assert is_vague_request(query)


def test_a_bare_number_answers_our_size_question_in_the_reading() -> None:
    asked = SessionPrefState(thread="t", open_questions=[question_for("size", "en")])
    reading = RulesEngine().read("43", Conversation(session=asked))
    assert reading.slots.get("size") == "43"
    assert RulesEngine().read("43", Conversation()).slots.get("size") is None


def test_a_budget_no_price_can_be_is_left_out_and_flagged() -> None:
    reading = RulesEngine().read("headphones under 10000000000000000000 dollars", Conversation())
    assert reading.unusable_budget
    assert "budget_max" not in reading.slots


def test_a_shop_url_is_read_out_of_the_search_words() -> None:
    reading = RulesEngine().read(
        "a cable that fits https://shop.example/product/acme-gpu-4070 please", Conversation()
    )
    assert reading.urls == ["https://shop.example/product/acme-gpu-4070"]
    assert reading.compatible
    assert "http" not in reading.query
