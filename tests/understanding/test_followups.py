"""The follow-up parser, per kind and language, and what the rules planner does with it:
cue words never reach the search text, a product noun is kept as the product type."""

from __future__ import annotations

import pytest

from cartwise.memory.session_state import SessionPrefState
from cartwise.understanding.reading import Conversation, Followup
from cartwise.understanding.rules.engine import RulesEngine
from cartwise.understanding.rules.followups import parse_followup


def followup(message: str, *, names_product: bool = False) -> Followup | None:
    return parse_followup(message, names_product=names_product).followup


@pytest.mark.parametrize(
    ("message", "refs"),
    [
        ("第二个", [2]),
        ("我要第3款", [3]),
        ("最后一个", [-1]),
        ("the 2nd one", [2]),
        ("the fourth", [4]),
        ("the last one", [-1]),
        ("number 5", [5]),
        ("#6", [6]),
    ],
)
def test_an_ordinal_alone_asks_for_that_items_details(message: str, refs: list[int]) -> None:
    parsed = followup(message)
    assert parsed is not None and parsed.kind == "details" and parsed.refs == refs


@pytest.mark.parametrize(
    ("message", "asked"),
    [
        ("它防水吗", "防水"),
        ("第三双透气吗？", "透气"),
        ("is it waterproof?", "waterproof"),
        ("does the second one come with a case?", "come with case"),
    ],
)
def test_a_question_about_a_shown_item_names_what_it_asks(message: str, asked: str) -> None:
    parsed = followup(message)
    assert parsed is not None and parsed.kind == "details"
    assert parsed.asked == asked and parsed.refs


@pytest.mark.parametrize(
    "message",
    [
        "第二个有链接吗",
        "给我第一个的详情",
        "send me the link of the 3rd",
        "details of the first one",
    ],
)
def test_link_and_details_requests(message: str) -> None:
    parsed = followup(message)
    assert parsed is not None and parsed.kind == "details" and parsed.refs and not parsed.asked


@pytest.mark.parametrize(
    "message",
    [
        "有没有更便宜的",
        "便宜点的呢",
        "太贵了",
        "更实惠一些的",
        "anything cheaper?",
        "too expensive",
        "something more affordable",
    ],
)
def test_cheaper_is_a_lower_price_refinement(message: str) -> None:
    parsed = followup(message)
    assert parsed is not None and (parsed.kind, parsed.price) == ("refine", "lower")


def test_cheaper_than_a_shown_item_refers_to_it() -> None:
    parsed = followup("比第二个便宜点的")
    assert parsed is not None and parsed.price == "lower" and parsed.refs == [2]
    parsed = followup("anything cheaper than that one?")
    assert parsed is not None and parsed.price == "lower" and parsed.refs == [0]


@pytest.mark.parametrize(
    ("message", "other"),
    [
        ("换个颜色", ["color"]),
        ("有别的颜色吗", ["color"]),
        ("in a different colour", ["color"]),
        ("换个牌子", ["brand"]),
        ("其他品牌的呢", ["brand"]),
        ("another brand please", ["brand"]),
    ],
)
def test_another_colour_or_brand(message: str, other: list[str]) -> None:
    parsed = followup(message)
    assert parsed is not None and parsed.kind == "refine" and parsed.other == other


@pytest.mark.parametrize(
    ("message", "step"),
    [("大一码", "up"), ("要小一号的", "down"), ("one size up", "up"), ("a smaller size", "down")],
)
def test_size_steps(message: str, step: str) -> None:
    parsed = followup(message)
    assert parsed is not None and parsed.kind == "refine" and parsed.size_step == step


@pytest.mark.parametrize(
    "message",
    [
        "换一批",
        "还有别的吗",
        "再来几个",
        "下一页",
        "show me more",
        "next page",
        "any more options?",
        "anymore?",
        "are there any more under 200",
    ],
)
def test_more_is_the_next_page(message: str) -> None:
    parsed = followup(message)
    assert parsed is not None and parsed.kind == "more" and parsed.page_delta == 1


@pytest.mark.parametrize(
    "message",
    [
        "Back then I refused anything synthetic, not anymore",
        "I don't buy fake leather anymore",
        "cotton used to itch, it doesn't any more",
    ],
)
def test_anymore_as_no_longer_asks_for_no_next_page(message: str) -> None:
    parsed = followup(message)
    assert parsed is None or parsed.kind != "more"


@pytest.mark.parametrize(
    ("message", "refs"),
    [
        ("类似第一个的", [1]),
        ("有没有跟它差不多的", [0]),
        ("more like the second one", [2]),
        ("something similar to the 3rd", [3]),
    ],
)
def test_more_like_this(message: str, refs: list[int]) -> None:
    parsed = followup(message)
    assert parsed is not None and parsed.kind == "similar" and parsed.refs == refs


@pytest.mark.parametrize(
    ("message", "order"),
    [
        ("按价格从低到高排", "price_asc"),
        ("便宜的排在前面", "price_asc"),
        ("价格从高到低", "price_desc"),
        ("按评分排序", "rating"),
        ("评价最多的", "reviews"),
        ("sort by price", "price_asc"),
        ("price high to low please", "price_desc"),
        ("show the top rated first", "rating"),
        ("most reviewed", "reviews"),
    ],
)
def test_sorts(message: str, order: str) -> None:
    parsed = followup(message)
    assert parsed is not None and parsed.kind == "sort" and parsed.sort == order


@pytest.mark.parametrize(
    ("message", "noun"), [("最便宜的耳机", "耳机"), ("the cheapest running shoes", "running shoes")]
)
def test_the_cheapest_x_is_a_new_search_sorted_by_price(message: str, noun: str) -> None:
    plan = RulesEngine().read(message, Conversation(session=SessionPrefState(thread="t")))
    assert plan.followup is not None and plan.followup.sort == "price_asc"
    assert plan.product_type == noun and plan.query == noun


@pytest.mark.parametrize(
    ("message", "refs"),
    [
        ("对比一下1和3", [1, 3]),
        ("第一个和第三个比一比", [1, 3]),
        ("compare 2 and 4", [2, 4]),
        ("compare the first and the last", [1, -1]),
    ],
)
def test_compare_shown_items(message: str, refs: list[int]) -> None:
    parsed = followup(message)
    assert parsed is not None and parsed.kind == "compare" and parsed.refs == refs


@pytest.mark.parametrize(
    ("message", "query"),
    [
        ("索尼降噪耳机哪个平台最便宜", "索尼降噪耳机"),
        ("Where is the Sony WH-1000XM5 cheapest?", "sony wh-1000xm5"),
        ("which store has the lowest price for kindle paperwhite", "kindle paperwhite"),
    ],
)
def test_where_is_x_cheapest_keeps_x_as_the_search(message: str, query: str) -> None:
    plan = RulesEngine().read(message, Conversation(session=SessionPrefState(thread="t")))
    assert plan.followup is not None and plan.followup.kind == "cheapest"
    assert plan.followup.sort is None  # about X's offers, not the cheapest product
    assert plan.query == query


@pytest.mark.parametrize("message", ["在哪买最划算", "哪家最便宜", "where can I get it cheapest?"])
def test_where_cheapest_without_a_product_refers_to_what_was_shown(message: str) -> None:
    parsed = followup(message)
    assert parsed is not None and parsed.kind == "cheapest"


@pytest.mark.parametrize(
    "message",
    [
        "有没有更便宜的",
        "换一批",
        "按价格从低到高排",
        "anything cheaper?",
        "next page",
        "第二个有链接吗",
    ],
)
def test_follow_up_words_never_become_the_search_text(message: str) -> None:
    plan = RulesEngine().read(message, Conversation(session=SessionPrefState(thread="t")))
    assert plan.followup is not None
    assert not plan.product_type
    for word in ("便宜", "换一批", "cheaper", "next", "page", "链接", "排"):
        assert word not in plan.query


@pytest.mark.parametrize(
    "message",
    ["推荐跑步鞋", "I need wireless earbuds", "不要小米的耳机", "那个蓝牙耳机有吗", "你好"],
)
def test_plain_requests_are_not_follow_ups(message: str) -> None:
    plan = RulesEngine().read(message, Conversation(session=SessionPrefState(thread="t")))
    assert plan.followup is None


def test_the_llm_planner_answer_carries_the_follow_up_and_rejects_a_bad_one() -> None:
    from pydantic import ValidationError

    from cartwise.understanding.llm_schema import ReadingAnswer

    answer = ReadingAnswer.model_validate(
        {
            "language": "en",
            "intent": "search",
            "query": "",
            "product_type": "",
            "followup": {"kind": "compare", "refs": [1, 3]},
        }
    )
    assert answer.to_output([]).followup == Followup(kind="compare", refs=[1, 3])
    with pytest.raises(ValidationError):
        ReadingAnswer.model_validate(
            {"language": "en", "intent": "search", "query": "", "followup": {"kind": "buy"}}
        )
    schema = ReadingAnswer.model_json_schema()
    assert "followup" in schema["properties"] and "product_type" in schema["properties"]


@pytest.mark.parametrize(
    ("message", "kind", "refs"),
    [
        ("二号怎么样", "details", [2]),
        ("刚才那个", "details", [0]),
        ("i'll take that one", "details", [0]),
        ("下一批", "more", []),
        ("what else do you have", "more", []),
        ("还有像这样的吗", "similar", []),
        ("anything like the second one", "similar", [2]),
        ("第一个和第三个哪个更便宜", "compare", [1, 3]),
        ("哪个平台价格最低", "cheapest", []),
        ("where can I buy it for the least", "cheapest", [0]),
        ("any others?", "more", []),
        ("便宜的排前面", "sort", []),
    ],
)
def test_more_ways_of_saying_it(message: str, kind: str, refs: list[int]) -> None:
    parsed = followup(message)
    assert parsed is not None and (parsed.kind, parsed.refs) == (kind, refs)


@pytest.mark.parametrize(
    "message",
    ["价格能再低点吗", "有没有平价一点的", "something less pricey", "more budget-friendly"],
)
def test_more_ways_of_asking_for_cheaper(message: str) -> None:
    parsed = followup(message)
    assert parsed is not None and (parsed.kind, parsed.price) == ("refine", "lower")


def test_a_size_number_is_not_a_reference() -> None:
    assert followup("42号") is None


def test_where_cheapest_in_chinese_keeps_the_product_in_the_search() -> None:
    plan = RulesEngine().read(
        "哪里买婴儿推车最便宜", Conversation(session=SessionPrefState(thread="t"))
    )
    assert plan.followup is not None and plan.followup.kind == "cheapest"
    assert plan.query == "婴儿推车"


@pytest.mark.parametrize(
    "message",
    [
        "第二个有别的颜色吗？",
        "这款有其他颜色吗",
        "does the 2nd one come in other colours?",
        "is it available in other colors?",
    ],
)
def test_asking_whether_a_shown_item_comes_in_other_colours_asks_for_its_details(
    message: str,
) -> None:
    """Regression: it was a refinement that excluded the item's colours from a new search."""
    parsed = followup(message)
    assert parsed is not None and parsed.kind == "details"


@pytest.mark.parametrize("message", ["换个颜色", "other colours please", "有没有别的颜色的"])
def test_asking_for_other_colours_without_a_reference_refines(message: str) -> None:
    parsed = followup(message)
    assert parsed is not None and parsed.kind == "refine" and parsed.other == ["color"]


@pytest.mark.parametrize("message", ["最便宜的是哪个平台", "最便宜的在哪家", "哪个平台最便宜？"])
def test_asking_which_platform_is_cheapest_without_a_product_prices_the_shown_item(
    message: str,
) -> None:
    """Regression: "最便宜的是哪个平台" was a price sort searching for 「是哪个平台」."""
    planned = RulesEngine().read(message, Conversation(session=SessionPrefState(thread="t")))
    assert planned.followup is not None and planned.followup.kind == "cheapest"
    assert planned.query == ""


@pytest.mark.parametrize("message", ["这双有几种颜色", "它有多重", "这款多少钱"])
def test_a_how_many_or_how_much_question_about_a_shown_item_asks_for_its_details(
    message: str,
) -> None:
    parsed = followup(message)
    assert parsed is not None and parsed.kind == "details"


@pytest.mark.parametrize("message", ["有没有大牌一点的", "换个名牌的"])
def test_a_bigger_brand_means_a_pricier_refinement(message: str) -> None:
    parsed = followup(message)
    assert parsed is not None and parsed.kind == "refine" and parsed.price == "higher"


@pytest.mark.parametrize(
    ("message", "kind", "refs"),
    [
        ("what's the difference between the first two?", "compare", [1, 2]),
        ("前两个有什么区别", "compare", [1, 2]),
        ("compare the top 3", "compare", [1, 2, 3]),
    ],
)
def test_the_first_n_refers_to_that_many_shown_items(
    message: str, kind: str, refs: list[int]
) -> None:
    parsed = followup(message)
    assert parsed is not None and parsed.kind == kind and parsed.refs == refs


def test_a_pleasantry_before_a_follow_up_is_not_searched() -> None:
    """Regression: "great, where can I get the first one cheapest?" searched for "great"."""
    planned = RulesEngine().read(
        "great, where can I get the first one cheapest?",
        Conversation(session=SessionPrefState(thread="t")),
    )
    assert planned.followup is not None and planned.followup.kind == "cheapest"
    assert planned.followup.refs == [1] and planned.query == ""


@pytest.mark.parametrize(
    "message",
    [
        "suede is fine, it's just not my first choice",
        "at first I wanted black, now any colour",
        "first of all, I need a rain jacket",
        "the last time I bought one it broke",
    ],
)
def test_an_ordinal_in_an_idiom_points_at_no_shown_item(message: str) -> None:
    found = followup(message)
    assert found is None or found.refs == []
