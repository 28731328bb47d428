"""The rules reply writer: what a person would write, from the facts only."""

from __future__ import annotations

from cartwise.understanding.base import CatalogGap, ReplyFacts, ReplyItem
from cartwise.understanding.rules.reply import write_reply


def item(title: str, price: float, currency: str = "CNY", **fields: object) -> ReplyItem:
    return ReplyItem.model_validate(
        {
            "platform": "jd",
            "title": title,
            "price": price,
            "currency": currency,
            "price_base": price,
            "shown_price": price,
            **fields,
        }
    )


def test_the_reply_leads_with_the_best_pick_and_why_then_the_alternatives() -> None:
    facts = ReplyFacts(
        language="en",
        query="running shoes",
        currency="USD",
        items=[
            item("Nike Pegasus 41", 89.0, "USD", why=["rated 4.8"]),
            item("Adidas Ultraboost", 120.0, "USD"),
        ],
    )
    lines = write_reply(facts).splitlines()
    assert "Nike Pegasus 41" in lines[0] and "$89" in lines[0] and "rated 4.8" in lines[0]
    assert any("Adidas Ultraboost" in line for line in lines[1:])


def test_the_reply_never_quotes_the_request_back() -> None:
    facts = ReplyFacts(language="zh", query="有便宜点的吗", items=[item("跑鞋 A", 199)])
    reply = write_reply(facts)
    assert "「" not in reply and "有便宜点的吗" not in reply
    nothing = write_reply(ReplyFacts(language="zh", query="有便宜点的吗"))
    assert "有便宜点的吗" not in nothing


def test_prices_are_in_the_shoppers_currency_and_converted_ones_say_so() -> None:
    facts = ReplyFacts(
        language="en",
        query="earbuds",
        currency="USD",
        items=[item("Taobao buds", 199.0, "CNY", shown_price=27.95)],
    )
    reply = write_reply(facts)
    assert "≈$27.95" in reply and "CNY" not in reply and "¥" not in reply


def test_refused_brands_are_named_as_brands() -> None:
    facts = ReplyFacts(
        language="zh", query="蓝牙耳机", items=[item("耳机", 99)], excluded_brands=["小米"]
    )
    assert "已避开这些品牌：小米" in write_reply(facts)


def test_a_caveat_replaces_a_promise_the_listing_cannot_keep() -> None:
    caveat = "the listing does not list ingredients, so I cannot confirm it is free of peanut"
    facts = ReplyFacts(
        language="en",
        query="mixed nuts",
        currency="USD",
        items=[item("Nut mix", 9.0, "USD", caveats=[caveat])],
        excluded_terms=["peanut"],
    )
    reply = write_reply(facts)
    assert caveat in reply and "free of what you exclude" not in reply


def test_not_carried_says_so_and_offers_the_closest_or_asks() -> None:
    offered = write_reply(
        ReplyFacts(
            language="zh", query="雨衣", catalog_gap=CatalogGap(requested="雨衣", closest="风衣")
        )
    )
    assert "没有雨衣" in offered and "风衣" in offered
    asked = write_reply(
        ReplyFacts(
            language="en",
            query="used car",
            catalog_gap=CatalogGap(requested="used car", kind="vehicle"),
        )
    )
    assert "don't carry used car" in asked and "vehicles" in asked and asked.endswith("?")


def test_small_talk_gets_a_short_answer_only() -> None:
    reply = write_reply(ReplyFacts(language="en", query="", small_talk="thanks"))
    assert reply.startswith("You're welcome") and "\n" not in reply


def test_exclusions_are_mentioned_only_where_something_was_searched() -> None:
    stated = ReplyFacts(language="zh", query="", excluded_terms=["花生"], question="想找什么？")
    assert "花生" not in write_reply(stated)
