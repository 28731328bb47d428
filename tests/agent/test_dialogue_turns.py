"""Results live in the conversation: multi-turn `run_agent` tests, one per capability, with
the rules engine, real SQLite stores and a real RecallService (hashing embedder) over a
catalog of running shoes, boots and headphones with catalog product types."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from cartwise.agent.deps import AgentDeps
from cartwise.agent.result import TurnResult
from cartwise.agent.run import run_agent
from cartwise.catalog.product import Domain, Product
from cartwise.settings import Settings
from tests.agent.conftest import rules_agent_over
from tests.factories import make_product

SHOE_SIZES = ["39", "40", "41", "42", "43", "44"]
RUNNING = [
    # (platform, item_id, brand, model, price, rating, reviews)
    ("jd", "r-nike-jd", "Nike", "Pegasus 40", 699.0, 4.8, 900),
    ("taobao", "r-nike-tb", "Nike", "Pegasus 40", 659.0, 4.7, 300),
    ("jd", "r-adidas", "Adidas", "Ultraboost 22", 899.0, 4.6, 500),
    ("taobao", "r-lining", "Li-Ning", "Feidian 3", 459.0, 4.9, 120),
    ("jd", "r-anta", "Anta", "C202 GT", 299.0, 4.2, 80),
    ("taobao", "r-xtep", "Xtep", "160X 5", 399.0, 4.4, 60),
    ("jd", "r-xiaomi", "Xiaomi", "Mijia Run 2", 199.0, 4.0, 40),
    ("taobao", "r-skechers", "Skechers", "GoRun 7", 259.0, 4.1, 30),
    ("jd", "r-puma", "Puma", "Velocity 3", 499.0, 4.3, 20),
    ("taobao", "r-brooks", "Brooks", "Ghost 15", 999.0, 4.5, 10),
    ("jd", "r-hoka", "Hoka", "Clifton 9", 1099.0, 3.9, 5),
]
BOOTS = [
    ("jd", "b-cheap", "Camel", "Boot 11", 99.0),
    ("taobao", "b-cheap2", "Camel", "Boot 12", 129.0),
]
HEADPHONES = [
    ("jd", "h-sony-jd", "Sony", "WH-1000XM5", 2299.0),
    ("taobao", "h-sony-tb", "Sony", "WH-1000XM5", 2199.0),
    ("amazon", "h-sony-am", "Sony", "WH-1000XM5", 2350.0),
    ("jd", "h-xiaomi", "Xiaomi", "Headphones Pro", 299.0),
    ("taobao", "h-edifier", "Edifier", "W820NB", 399.0),
    ("jd", "h-sony-2", "Sony", "WH-CH720N", 699.0),
]


def dialogue_catalog() -> list[Product]:
    products = [
        make_product(
            item_id,
            platform=platform,
            title=f"{brand} {model} running shoes 跑步鞋 mesh",
            brand=brand,
            domain=Domain.SHOES,
            product_type="running_shoes",
            price=price,
            rating=rating,
            reviews=reviews,
            url=f"https://{platform}.example/{item_id}",
            attributes={"model": [model], "sizes": SHOE_SIZES, "color": ["black"]},
        )
        for platform, item_id, brand, model, price, rating, reviews in RUNNING
    ]
    products += [
        make_product(
            item_id,
            platform=platform,
            title=f"{brand} {model} trail running boots 跑步靴",
            brand=brand,
            domain=Domain.SHOES,
            product_type="boots",
            price=price,
            attributes={"model": [model], "sizes": SHOE_SIZES},
        )
        for platform, item_id, brand, model, price in BOOTS
    ]
    products += [
        make_product(
            item_id,
            platform=platform,
            title=f"{brand} {model} over-ear headphones 头戴式耳机",
            brand=brand,
            domain=Domain.ELECTRONICS,
            product_type="over_ear_headphones",
            price=price,
            description="Noise cancelling. Battery lasts 30 hours. Water resistant: no.",
            attributes={"model": [model], "color": ["black", "silver"]},
        )
        for platform, item_id, brand, model, price in HEADPHONES
    ]
    return products


@pytest.fixture
def deps(settings: Settings) -> Iterator[AgentDeps]:
    with rules_agent_over(settings, dialogue_catalog(), max_picks=4) as deps:
        yield deps


class Conversation:
    def __init__(self, deps: AgentDeps) -> None:
        self.deps = deps
        self.user = f"u{uuid.uuid4().hex[:8]}"
        self.thread = f"{self.user}-t"

    async def say(self, message: str) -> TurnResult:
        return await run_agent(self.deps, user=self.user, thread=self.thread, message=message)


def types_of(deps: AgentDeps, result: TurnResult) -> set[str]:
    types = set()
    for product in result.products:
        stored = deps.recall.get(f"{product.platform}:{product.item_id}")
        assert stored is not None
        types.add(stored.product_type)
    return types


@pytest.mark.parametrize(
    ("first", "cheaper"), [("推荐跑步鞋", "有没有更便宜的"), ("running shoes", "anything cheaper?")]
)
async def test_cheaper_is_really_cheaper_and_the_same_product_type(
    deps: AgentDeps, first: str, cheaper: str
) -> None:
    chat = Conversation(deps)
    shown = await chat.say(first)
    assert shown.products and types_of(deps, shown) == {"running_shoes"}
    floor = min(p.price_base for p in shown.products)
    refined = await chat.say(cheaper)
    assert refined.products, refined.reply
    assert all(p.price_base < floor for p in refined.products)
    assert types_of(deps, refined) == {"running_shoes"}  # the cheap boots stay out
    assert refined.dialogue.followup == "refine"
    assert "更便宜" not in refined.reply and "cheaper" not in refined.reply.split("\n")[0]


async def test_cheaper_than_the_referenced_item(deps: AgentDeps) -> None:
    chat = Conversation(deps)
    shown = await chat.say("推荐跑步鞋")
    second = shown.products[1]
    refined = await chat.say("有没有比第二个便宜的")
    assert refined.dialogue.reference[0].item_id == second.item_id
    assert refined.products and all(p.price_base < second.price_base for p in refined.products)


@pytest.mark.parametrize(
    ("first", "more"), [("推荐跑步鞋", "换一批"), ("running shoes", "show me more")]
)
async def test_more_never_repeats_what_was_shown(deps: AgentDeps, first: str, more: str) -> None:
    chat = Conversation(deps)
    seen: set[str] = set()
    result = await chat.say(first)
    pages = 0
    while result.products:
        models = {f"{p.brand}|{p.title}" for p in result.products}
        assert not models & seen, "a model came back on a later page"
        seen |= models
        pages += 1
        result = await chat.say(more)
        assert result.dialogue.followup == "more"
    assert pages >= 2 and result.dialogue.page == pages + 1
    assert len(seen) == len({model for _, _, _, model, *_ in RUNNING})


@pytest.mark.parametrize(
    ("ask", "key", "reverse"),
    [
        ("按价格从低到高排序", "price_base", False),
        ("价格从高到低", "price_base", True),
        ("sort by rating", "rating", True),
        ("most reviewed first", "reviews", True),
    ],
)
async def test_sort_order_is_obeyed(deps: AgentDeps, ask: str, key: str, reverse: bool) -> None:
    chat = Conversation(deps)
    first = "推荐跑步鞋" if "价" in ask else "running shoes"
    await chat.say(first)
    result = await chat.say(ask)
    assert len(result.products) >= 3 and result.dialogue.followup == "sort"
    values = [getattr(deps.recall.get(f"{p.platform}:{p.item_id}"), key) for p in result.products]
    assert values == sorted(values, reverse=reverse)


@pytest.mark.parametrize("message", ["最便宜的跑步鞋", "the cheapest running shoes"])
async def test_the_cheapest_x_sorts_ascending(deps: AgentDeps, message: str) -> None:
    result = await Conversation(deps).say(message)
    prices = [p.price_base for p in result.products]
    assert prices == sorted(prices) and prices[0] == 199.0
    assert result.dialogue.sort == "price_asc"


@pytest.mark.parametrize(
    ("ordinal", "index"),
    [("第二个", 1), ("最后一个", -1), ("the 3rd one", 2), ("the last one", -1)],
)
async def test_an_ordinal_refers_to_the_right_item(
    deps: AgentDeps, ordinal: str, index: int
) -> None:
    chat = Conversation(deps)
    shown = await chat.say("推荐跑步鞋" if "第" in ordinal or "最" in ordinal else "running shoes")
    meant = shown.products[index]
    result = await chat.say(ordinal)
    assert [r.item_id for r in result.dialogue.reference] == [meant.item_id]
    assert [p.item_id for p in result.products] == [meant.item_id]
    assert meant.title in result.reply


async def test_that_one_means_the_item_last_talked_about(deps: AgentDeps) -> None:
    chat = Conversation(deps)
    shown = await chat.say("running shoes")
    await chat.say("the 3rd one")
    result = await chat.say("does it have a link?")
    assert result.dialogue.reference[0].item_id == shown.products[2].item_id
    assert f"https://{shown.products[2].platform}.example/" in result.reply


async def test_an_ordinal_beyond_the_list_says_so(deps: AgentDeps) -> None:
    chat = Conversation(deps)
    await chat.say("running shoes")
    result = await chat.say("the 9th one")
    assert result.dialogue.missing_reference == [9]
    assert "only showed 4" in result.reply


async def test_a_new_product_type_drops_the_old_size(deps: AgentDeps) -> None:
    chat = Conversation(deps)
    shoes = await chat.say("推荐跑步鞋 42码")
    assert shoes.memory.session.slots.get("size") == "42"
    phones = await chat.say("推荐头戴式耳机")
    assert "size" not in phones.memory.session.slots
    assert not any("42" in fact for p in phones.products for fact in p.why)
    search = phones.dialogue.active_search
    assert search is not None and "over_ear_headphones" in search.product_types
    assert types_of(deps, phones) == {"over_ear_headphones"}


async def test_a_bare_size_refines_the_active_search(deps: AgentDeps) -> None:
    chat = Conversation(deps)
    await chat.say("running shoes")
    result = await chat.say("size 43")
    assert result.memory.session.slots.get("size") == "43"
    assert types_of(deps, result) == {"running_shoes"}
    bigger = await chat.say("one size up")
    assert bigger.memory.session.slots.get("size") == "44"


@pytest.mark.parametrize(
    ("message", "size", "eu"),
    [
        ("size 10 running shoes", "10", "43"),  # a bare US men's size
        ("running shoes, US 9", "US 9", "42"),
        ("running shoes in UK 7", "UK 7", "41"),
        ("women's running shoes, US 8", "US W8", "39"),
    ],
)
async def test_an_english_shoe_size_finds_eu_sized_listings(
    deps: AgentDeps, message: str, size: str, eu: str
) -> None:
    result = await Conversation(deps).say(message)
    assert result.memory.session.slots.get("size") == size
    assert result.products and types_of(deps, result) == {"running_shoes"}
    assert not [r for r in result.rejected if "not available" in r.reason]
    assert all(f"size {size} (EU {eu}) available" in p.why for p in result.products)


async def test_a_us_size_beyond_the_listed_eu_sizes_is_rejected_as_such(deps: AgentDeps) -> None:
    result = await Conversation(deps).say("running shoes, US 13")  # EU 46: not listed
    assert not result.products
    assert {r.reason for r in result.rejected} == {"size US 13 not available"}


@pytest.mark.parametrize(
    ("first", "refine"),
    [("不要小米的跑步鞋", "有没有更便宜的"), ("running shoes, no xiaomi", "cheaper please")],
)
async def test_a_brand_excluded_a_turn_earlier_stays_out_on_a_refinement(
    deps: AgentDeps, first: str, refine: str
) -> None:
    chat = Conversation(deps)
    shown = await chat.say(first)
    assert shown.products and all(p.brand != "Xiaomi" for p in shown.products)
    refined = await chat.say(refine)
    # Xiaomi's 199 would be the cheapest of all: it must not come back.
    assert refined.products and all(p.brand != "Xiaomi" for p in refined.products)
    search = refined.dialogue.active_search
    assert search is not None and "xiaomi" in search.exclusions


async def test_another_brand_excludes_the_referenced_brand(deps: AgentDeps) -> None:
    chat = Conversation(deps)
    shown = await chat.say("running shoes")
    brand = shown.products[0].brand
    result = await chat.say("another brand")
    assert result.products and all(p.brand != brand for p in result.products)
    assert types_of(deps, result) == {"running_shoes"}


async def test_one_model_on_several_platforms_is_one_pick_with_its_offers(deps: AgentDeps) -> None:
    result = await Conversation(deps).say("索尼头戴式耳机 WH-1000XM5")
    sony = [p for p in result.products if "WH-1000XM5" in p.title]
    assert len(sony) == 1
    offers = sony[0].offers
    assert [o.platform for o in offers] == ["taobao", "jd", "amazon"]
    assert sony[0].platform == "taobao"  # the pick shows its cheapest offer


@pytest.mark.parametrize(
    ("message", "first_sentence"),
    [
        (
            "索尼 WH-1000XM5 耳机哪个平台最便宜",
            "在淘宝最便宜：¥2,199，比次便宜的京东（¥2,299）省 ¥100",
        ),
        ("Where is the Sony WH-1000XM5 cheapest?", "is cheapest on Taobao"),
    ],
)
async def test_where_is_x_cheapest_answers_in_the_first_sentence(
    deps: AgentDeps, message: str, first_sentence: str
) -> None:
    result = await Conversation(deps).say(message)
    assert first_sentence in result.reply.split("\n")[0]
    answer = result.dialogue.answer
    assert answer is not None and answer.kind == "cheapest"
    assert answer.cheapest is not None and answer.cheapest.platform == "taobao"
    # The answer is about X: X with its offers, not X's neighbours.
    assert [p.title for p in result.products] == ["Sony WH-1000XM5 over-ear headphones 头戴式耳机"]


async def test_an_english_shopper_sees_the_saving_in_usd(deps: AgentDeps) -> None:
    result = await Conversation(deps).say("Where is the Sony WH-1000XM5 cheapest?")
    answer = result.dialogue.answer
    assert answer is not None and answer.currency == "USD"
    rate = deps.settings.fx_to_base["USD"]
    assert answer.saving == pytest.approx(100.0 / rate, abs=0.02)
    assert "$" in result.reply.split("\n")[0] and "¥" not in result.reply.split("\n")[0]


async def test_where_cheapest_about_a_shown_item(deps: AgentDeps) -> None:
    chat = Conversation(deps)
    await chat.say("推荐头戴式耳机")
    result = await chat.say("第一个在哪买最划算")
    answer = result.dialogue.answer
    assert answer is not None and answer.kind == "cheapest"
    assert result.reply.startswith("「")


async def test_compare_shows_both_side_by_side(deps: AgentDeps) -> None:
    chat = Conversation(deps)
    shown = await chat.say("running shoes")
    result = await chat.say("compare 1 and 3")
    assert [p.item_id for p in result.products] == [
        shown.products[0].item_id,
        shown.products[2].item_id,
    ]
    assert result.reply.startswith("Side by side:")
    assert shown.products[0].title in result.reply and shown.products[2].title in result.reply
    after = await chat.say("the 2nd one")  # comparing does not replace the shortlist
    assert after.dialogue.reference[0].item_id == shown.products[1].item_id


async def test_a_question_about_a_shown_item_is_answered_from_its_listing(deps: AgentDeps) -> None:
    chat = Conversation(deps)
    await chat.say("over-ear headphones")
    stated = await chat.say("how long does the battery of the first one last?")
    assert "Battery lasts 30 hours" in stated.reply
    unstated = await chat.say("is the 2nd one foldable?")
    assert 'does not state "foldable"' in unstated.reply


async def test_more_like_this_stays_in_the_items_product_type(deps: AgentDeps) -> None:
    chat = Conversation(deps)
    shown = await chat.say("推荐跑步鞋")
    result = await chat.say("类似第一个的")
    assert result.dialogue.followup == "similar"
    assert result.products and types_of(deps, result) == {"running_shoes"}
    assert shown.products[0].item_id not in {p.item_id for p in result.products}


async def test_comparing_with_an_item_that_was_never_shown_says_so(deps: AgentDeps) -> None:
    chat = Conversation(deps)
    await chat.say("running shoes")
    result = await chat.say("compare 1 and 7")
    assert len(result.products) == 1
    assert "only showed 4 items, so there is no #7" in result.reply


async def test_more_past_the_last_page_says_there_is_nothing_more(deps: AgentDeps) -> None:
    chat = Conversation(deps)
    result = await chat.say("最便宜的头戴式耳机")
    while result.products:
        result = await chat.say("换一批")
    assert result.reply == "符合条件的商品都已经给你看过了，没有更多了。"


async def test_a_type_the_lexicon_lacks_still_switches_by_the_catalog(deps: AgentDeps) -> None:
    chat = Conversation(deps)
    await chat.say("running shoes size 42")
    switched = await chat.say("what about noise cancelling headphones?")
    search = switched.dialogue.active_search
    assert search is not None and search.product_types == ["over_ear_headphones"]
    assert search.domain == "electronics" and "size" not in switched.memory.session.slots
