"""Every check key of the natural sets holds on a right output and fails on a wrong one."""

from __future__ import annotations

from typing import Any

import pytest

from cartwise.eval.natural import NaturalReport, add_conversation, judge_conversation
from cartwise.eval.natural_checks import CHECKS, TurnOutputs, judge
from cartwise.eval.natural_set import NaturalCheck, NaturalConversation


def product(title: str, price: float, platform: str = "jd", item: str = "") -> dict[str, Any]:
    return {"platform": platform, "item_id": item or title, "title": title, "price_base": price}


def entry(
    slug: str,
    polarity: str = "dislike",
    strength: str = "hard",
    category: str = "color",
    recipient: str = "self",
) -> dict[str, Any]:
    return {
        "recipient": recipient,
        "polarity": polarity,
        "category": category,
        "slug": slug,
        "strength": strength,
        "dedup_key": f"{polarity}:{category}::{slug}",
    }


def output(
    *products: dict[str, Any],
    reply: str = "",
    questions: tuple[str, ...] = (),
    gap: dict[str, Any] | None = None,
    recipient: str = "self",
    memory: tuple[dict[str, Any], ...] = (),
    price_compare: tuple[dict[str, Any], ...] = (),
) -> dict[str, Any]:
    return {
        "reply": reply,
        "products": list(products),
        "questions": list(questions),
        "catalog_gap": gap,
        "recipient": recipient,
        "memory": {"long_term": list(memory), "session": {}},
        "price_compare": list(price_compare),
    }


def holds(
    check: dict[str, Any], current: dict[str, Any], previous: dict[str, Any] | None = None
) -> bool:
    parsed = NaturalCheck.model_validate({"turn": 0, **check})
    results = list(judge(parsed, TurnOutputs(current=current, previous=previous)))
    assert [r.key for r in results] == [k for k in check]
    return all(r.passed for r in results)


KETTLE = product("Midea Electric Kettle - Black", 99.0)
GAP = {"requested": "haircut", "kind": "service", "closest": ""}

# key → (check, output that passes, output that fails, previous output or None)
CASES: dict[str, tuple[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any] | None]] = {
    "products": ({"products": "nonempty"}, output(KETTLE), output(), None),
    "min_products": ({"min_products": 2}, output(KETTLE, KETTLE), output(KETTLE), None),
    "title_each_any": (
        {"title_each_any": ["kettle", "水壶"]},
        output(KETTLE, product("美的 电水壶", 80)),
        output(KETTLE, product("Midea Toaster", 80)),
        None,
    ),
    "title_none": ({"title_none": ["black"]}, output(product("Kettle - White", 9)),
                   output(KETTLE), None),
    "max_price_base": ({"max_price_base": 100}, output(KETTLE), output(product("k", 100.5)), None),
    "sorted": ({"sorted": "asc"}, output(product("a", 1), product("b", 1), product("c", 2)),
               output(product("a", 2), product("b", 1)), None),
    "cheaper_than_prev": (
        {"cheaper_than_prev": True},
        output(product("a", 50), product("b", 70)),
        output(product("a", 50), product("b", 200)),
        output(product("a", 60), product("b", 100)),
    ),
    "no_overlap_prev": (
        {"no_overlap_prev": True},
        output(product("b", 1)),
        output(product("a", 1), product("b", 1)),
        output(product("a", 1)),
    ),
    "question": ({"question": True}, output(questions=("what size?",)), output(KETTLE), None),
    "question_or_cheaper": (
        {"question_or_cheaper": True},
        output(product("a", 10)),
        output(product("a", 300)),
        output(product("a", 100)),
    ),
    "gap": ({"gap": True}, output(gap=GAP), output(KETTLE, gap=GAP), None),
    "no_gap": ({"no_gap": True}, output(KETTLE), output(gap=GAP), None),
    "recipient": ({"recipient": ["mum", "dad"]}, output(recipient="dad"),
                  output(recipient="self"), None),
    "recipient_self": ({"recipient_self": True}, output(), output(recipient="wife"), None),
    "no_search": (
        {"no_search": True},
        output(reply="hi!", memory=(entry("red"),)),
        output(reply="hi!", memory=(entry("red"), entry("blue"))),
        output(memory=(entry("red"),)),
    ),
    "reply_any": ({"reply_any": ["http"]}, output(reply="Link: HTTPS://x"),
                  output(reply="no link"), None),
    "reply_none": ({"reply_none": ["记住了"]}, output(reply="你好"),
                   output(reply="好的，记住了"), None),
    "names_cheapest": (
        {"names_cheapest": ["x790"]},
        output(
            reply="Cheapest on 拼多多 (79), then JD.",
            price_compare=(
                {"title": "Xiaomi X790 Power Bank", "offers": [
                    {"platform": "pinduoduo", "price_base": 79.0},
                    {"platform": "jd", "price_base": 89.0}]},
            ),
        ),
        output(
            reply="JD has it for 89; pinduoduo 79.",
            price_compare=(
                {"title": "Xiaomi X 790 Power Bank", "offers": [
                    {"platform": "pinduoduo", "price_base": 79.0},
                    {"platform": "jd", "price_base": 89.0}]},
            ),
        ),
        None,
    ),
    "lt_has": (
        {"lt_has": [["dislike", None, ["peanut", "peanuts"], "hard"]]},
        output(memory=(entry("peanuts", category="other"),)),
        output(memory=(entry("peanut", strength="soft"), entry("peanut", recipient="son"))),
        None,
    ),
    "lt_none": (
        {"lt_none": [["dislike", "color", "red"]]},
        output(memory=(entry("red", recipient="mum"), entry("red", category="style"))),
        output(memory=(entry("red"),)),
        None,
    ),
    "lt_none_strength": (
        {"lt_none_strength": [["dislike", "gray", "hard"]]},
        output(memory=(entry("gray", strength="soft"),)),
        output(memory=(entry("gray"),)),
        None,
    ),
    "lt_empty": ({"lt_empty": True}, output(memory=(entry("red", recipient="mum"),)),
                 output(memory=(entry("red"),)), None),
}  # fmt: skip


def test_every_key_of_the_format_has_a_check_and_a_case() -> None:
    keys = [k for k in NaturalCheck.model_fields if k != "turn"]
    assert list(CHECKS) == keys
    assert set(CASES) == set(keys)


@pytest.mark.parametrize("key", sorted(CASES))
def test_each_key_holds_on_a_right_output_and_fails_on_a_wrong_one(key: str) -> None:
    check, right, wrong, previous = CASES[key]
    assert holds(check, right, previous)
    assert not holds(check, wrong, previous)


def test_keys_that_compare_with_the_previous_output_on_the_first_turn() -> None:
    assert not holds({"cheaper_than_prev": True}, output(KETTLE))
    assert holds({"no_overlap_prev": True}, output(KETTLE))
    assert not holds({"question_or_cheaper": True}, output(KETTLE))
    assert holds({"no_search": True}, output())
    assert not holds({"no_search": True}, output(memory=(entry("red"),)))


def test_title_each_any_holds_when_nothing_is_shown_and_no_search_fails_on_a_gap() -> None:
    assert holds({"title_each_any": ["kettle"]}, output())
    assert not holds({"no_search": True}, output(gap=GAP))
    assert not holds({"no_search": True}, output(KETTLE))


def test_names_cheapest_also_reads_shown_products_and_needs_an_offer() -> None:
    shown = output(
        product("Sony WH-1000XM5", 1989.0, platform="pinduoduo"),
        product("Sony WH-1000XM5", 2189.0, platform="taobao"),
        reply="最便宜在拼多多",
    )
    assert holds({"names_cheapest": ["wh-1000xm5"]}, shown)
    assert not holds({"names_cheapest": ["wh-1000xm4"]}, shown)


def test_a_conversation_passes_only_when_every_key_holds_and_failures_name_the_key() -> None:
    conversation = NaturalConversation.model_validate(
        {
            "id": "C1",
            "lang": "en",
            "kind": "sort",
            "turns": ["kettles", "cheapest first"],
            "checks": [
                {"turn": 0, "products": "nonempty"},
                {"turn": 1, "sorted": "asc", "title_each_any": ["kettle"]},
            ],
        }
    )
    outputs = [output(KETTLE), output(product("Kettle B", 50), product("Kettle A", 40))]
    report = NaturalReport(set="t")
    add_conversation(report, conversation, judge_conversation(conversation, outputs), seconds=1)
    assert report.conversations.passed == 0 and report.check_objects.passed == 1
    assert [(f.turn, f.key) for f in report.failures] == [(1, "sorted")]
    assert report.keys["title_each_any"].passed == 1
    broken = [output(KETTLE), {"error": "StoreUnavailable: redis"}]
    report = NaturalReport(set="t")
    add_conversation(report, conversation, judge_conversation(conversation, broken), seconds=1)
    assert [(f.turn, f.key) for f in report.failures] == [(1, "error")]
