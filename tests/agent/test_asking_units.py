"""The interest that answers our gift question."""

from __future__ import annotations

import pytest

from cartwise.agent.asking import (
    GIFT_QUESTIONS,
    PRODUCT_TYPE_QUESTIONS,
    gift_interest,
    is_vague_request,
)

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
