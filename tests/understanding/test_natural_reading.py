"""The kinds of everyday messages the reader used to get wrong, each in other words than
the ones it was first seen with: gifts told as a story, whose a preference is, a soft
dislike inside a request, an attribute that only narrows the running search, a pet's
allergy, "this time" budgets, a hard refusal beside a preference, small talk, and a refusal
of the shown item's brand."""

from __future__ import annotations

import pytest

from cartwise.memory.session_state import ActiveSearch, SessionPrefState
from cartwise.memory.store import Polarity, Strength
from cartwise.understanding.catalog_scope import names_gap
from cartwise.understanding.reading import Conversation, Reading
from cartwise.understanding.rules.engine import RulesEngine


@pytest.fixture(scope="module")
def rules() -> RulesEngine:
    return RulesEngine()


def read(rules: RulesEngine, message: str, session: SessionPrefState | None = None) -> Reading:
    return rules.read(message, Conversation(session=session or SessionPrefState(thread="t")))


def searching(product_type: str, phrase: str) -> SessionPrefState:
    return SessionPrefState(
        thread="t",
        active_search=ActiveSearch(
            product_type=product_type, phrase=phrase, product_types=[product_type]
        ),
    )


def test_a_gift_told_as_a_story_is_for_that_person_within_the_budget(rules: RulesEngine) -> None:
    reading = read(
        rules,
        "my dad's retiring next month, he loves gardening, maybe a pair of gloves under 200 yuan?",
    )
    assert reading.recipient == "dad"
    assert reading.types == ["gloves"]
    assert reading.slots == {"budget_max": "200", "budget_currency": "CNY"}
    assert "sorry" not in reading.query


@pytest.mark.parametrize(
    ("message", "recipient"),
    [
        ("老公下个月生日，他每天骑车上班，想送他个头盔", "husband"),
        ("getting my sister a perfume, nothing too sweet", "sister"),
        ("my son keeps asking for a drone for his birthday", "son"),
    ],
)
def test_the_person_a_message_is_about_is_whom_it_buys_for(
    rules: RulesEngine, message: str, recipient: str
) -> None:
    assert read(rules, message).recipient == recipient


def test_the_story_around_a_request_is_not_searched(rules: RulesEngine) -> None:
    reading = read(rules, "老公下个月生日，他每天骑车上班，想送他个头盔")
    assert "头盔" in reading.query
    assert "生日" not in reading.query and "上班" not in reading.query


def test_a_later_dislike_said_about_her_is_the_recipients(rules: RulesEngine) -> None:
    buying_for_mum = SessionPrefState(thread="t", recipient="mum")
    (stated,) = read(rules, "oh and she can't stand orange", buying_for_mum).stated
    assert (stated.slug, stated.polarity, stated.recipient) == ("orange", Polarity.DISLIKE, "mum")


def test_a_soft_dislike_inside_a_request_keeps_the_request(rules: RulesEngine) -> None:
    reading = read(rules, "我不太喜欢白色，想买个上班用的电脑包")
    assert reading.intent == "search"
    assert "电脑包" in reading.query
    (stated,) = reading.stated
    assert (stated.slug, stated.strength) == ("white", Strength.SOFT)


def test_what_the_searched_thing_must_hold_narrows_it_instead_of_replacing_it(
    rules: RulesEngine,
) -> None:
    reading = read(rules, "要能放下16寸笔记本的", searching("backpack", "commuter backpack"))
    assert reading.types == []
    assert reading.followup is not None and reading.followup.kind == "refine"


def test_an_attribute_alone_during_a_search_narrows_it(rules: RulesEngine) -> None:
    reading = read(rules, "auto open ones?", searching("umbrella", "umbrella"))
    assert reading.followup is not None and reading.followup.kind == "refine"


def test_a_pets_allergy_is_the_pets_hard_dislike_not_a_colour(rules: RulesEngine) -> None:
    reading = read(rules, "我家狗子吃鸡肉会过敏，想给它换款狗粮")
    assert reading.recipient == "dog"
    assert [(p.slug, p.strength, p.recipient) for p in reading.stated] == [
        ("chicken", Strength.HARD, "dog")
    ]


@pytest.mark.parametrize("message", ["我对猕猴桃过敏", "I'm allergic to buckwheat"])
def test_an_allergy_to_a_food_no_list_knew_is_hard_and_global(
    rules: RulesEngine, message: str
) -> None:
    (stated,) = read(rules, message).stated
    assert stated.polarity is Polarity.DISLIKE and stated.strength is Strength.HARD
    assert stated.domain == "" and stated.keywords


@pytest.mark.parametrize(
    ("message", "amount"),
    [("这回预算就两百，帮我挑个台灯", "200"), ("a desk lamp, nothing over $40", "40")],
)
def test_a_budget_said_in_passing_is_a_ceiling(
    rules: RulesEngine, message: str, amount: str
) -> None:
    reading = read(rules, message)
    assert reading.slots["budget_max"] == amount
    assert "budget_min" not in reading.slots
    assert "灯" in reading.query or "lamp" in reading.query


def test_a_refusal_is_hard_where_a_preference_beside_it_is_soft(rules: RulesEngine) -> None:
    reading = read(rules, "宝宝的水杯 不要塑料的 最好不锈钢")
    plastic = next(p for p in reading.stated if p.slug == "plastic")
    assert (plastic.polarity, plastic.strength) == (Polarity.DISLIKE, Strength.HARD)
    assert all(p.polarity is Polarity.LIKE for p in reading.stated if p.slug != "plastic")


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("yo, how's it going?", "greeting"),
        ("what are you able to do?", "capabilities"),
        ("cheers, bye", "bye"),
    ],
)
def test_small_talk_and_questions_about_the_assistant_never_search(
    rules: RulesEngine, message: str, kind: str
) -> None:
    reading = read(rules, message)
    assert reading.intent == "chitchat"
    assert reading.small_talk == kind
    assert reading.query == ""


def test_refusing_this_brand_excludes_the_shown_brand_and_stores_nothing(
    rules: RulesEngine,
) -> None:
    reading = read(rules, "🙅这个牌子不要", searching("backpack", "backpack"))
    assert reading.stated == []
    assert reading.followup is not None and "brand" in reading.followup.other


@pytest.mark.parametrize(
    ("message", "order"),
    [
        ("could you put them low to high", "price_asc"),
        ("from cheap to expensive please", "price_asc"),
        ("highest to lowest", "price_desc"),
        ("低价优先", "price_asc"),
        ("价格低的放前面吧", "price_asc"),
        ("按 price 排，高到低", "price_desc"),
    ],
)
def test_an_order_said_in_everyday_words_sorts_the_shown_search(
    rules: RulesEngine, message: str, order: str
) -> None:
    reading = read(rules, message, searching("earbuds", "bluetooth earbuds"))
    assert reading.followup is not None and reading.followup.kind == "sort"
    assert reading.followup.sort == order


def test_a_dislike_before_a_request_for_a_type_only_the_taxonomy_names_keeps_the_request(
    rules: RulesEngine,
) -> None:
    reading = read(rules, "不太喜欢玻璃的，帮我找个便当盒")
    assert reading.types == ["lunch_box"]
    assert [(s.slug, s.polarity) for s in reading.stated] == [("glass", Polarity.DISLIKE)]


def test_switching_away_from_the_brand_in_use_leaves_it_out_for_this_request(
    rules: RulesEngine,
) -> None:
    reading = read(rules, "用了好久的小米，这次想换个别的牌子的充电宝")
    assert reading.brands == []
    assert [(s.slug, s.polarity, s.scope) for s in reading.stated] == [
        ("xiaomi", Polarity.DISLIKE, "request")
    ]
    assert "小米" not in reading.query


@pytest.mark.parametrize(
    ("message", "brand", "kept"),
    [
        ("有没有华为手表的平替，两百块左右", "huawei", "手表"),
        ("想要一个取代索尼降噪耳机的便宜货", "sony", "耳机"),
        (
            "looking for a cheaper substitute - something instead of a bose speaker",
            "bose",
            "speaker",
        ),
        ("is there a dupe for the ipad? budget is tight", "apple", "ipad"),
    ],
)
def test_a_brand_named_as_the_one_to_replace_is_left_out_not_filtered_for(
    rules: RulesEngine, message: str, brand: str, kept: str
) -> None:
    reading = read(rules, message)
    assert brand not in reading.brands
    assert [(s.slug, s.polarity, s.scope) for s in reading.stated] == [
        (brand, Polarity.DISLIKE, "request")
    ]
    # The kind of goods the model or brand stood for is still what is searched for.
    assert kept in reading.query


@pytest.mark.parametrize(
    ("message", "keyword"),
    [("我不太喜欢连衣裙", "连衣裙"), ("讨厌保温杯", "保温杯"), ("我真的不喜欢拖鞋", "拖鞋")],
)
def test_a_refused_kind_of_goods_in_chinese_is_a_dislike_and_no_search_for_the_negation(
    rules: RulesEngine, message: str, keyword: str
) -> None:
    reading = read(rules, message)
    refused = [s for s in reading.stated if s.polarity is Polarity.DISLIKE]
    assert [s.keywords for s in refused] == [[keyword]]
    assert "不" not in reading.query


def test_what_the_shopper_can_do_without_is_neither_refused_nor_searched(
    rules: RulesEngine,
) -> None:
    reading = read(rules, "出门带的挂耳咖啡，不用滤杯直接冲")
    assert not reading.stated
    assert "滤杯" not in reading.query and "咖啡" in reading.query


def test_a_brand_wanted_by_name_stays_the_filter(rules: RulesEngine) -> None:
    reading = read(rules, "想买索尼的降噪耳机")
    assert reading.brands == ["sony"] and not reading.stated


@pytest.mark.parametrize(
    "message",
    [
        "免打孔的毛巾架，不需要钻孔的那种",
        "要一款无线门铃，不用布线，两百以内",
        "价格别超过五百块的空气炸锅",
    ],
)
def test_an_action_the_shopper_need_not_do_is_no_refused_thing(
    rules: RulesEngine, message: str
) -> None:
    reading = read(rules, message)
    assert not [s for s in reading.stated if s.polarity is Polarity.DISLIKE]


@pytest.mark.parametrize(
    "message",
    ["honestly I'm fed up with Adidas, any other sneakers?", "受够了耐克，看看别的运动鞋"],
)
def test_an_idiom_of_refusal_is_a_hard_dislike(rules: RulesEngine, message: str) -> None:
    reading = read(rules, message)
    refused = [s for s in reading.stated if s.polarity is Polarity.DISLIKE]
    assert refused and refused[0].category.value == "brand"
    assert refused[0].strength is Strength.HARD


def test_an_umbrella_word_beside_its_member_names_the_member(rules: RulesEngine) -> None:
    reading = read(rules, "grandma drinks green tea all day, a tin of tea for her?")
    assert "tea" in reading.types and "beer" not in reading.types


@pytest.mark.parametrize(
    ("message", "recipient"), [("想送爸一块手表", "dad"), ("给妈挑双拖鞋", "mum")]
)
def test_a_one_character_kin_word_after_give_names_the_recipient(
    rules: RulesEngine, message: str, recipient: str
) -> None:
    assert read(rules, message).recipient == recipient


@pytest.mark.parametrize("message", ["想养一只柯基", "两只小猫多少钱"])
def test_a_pet_that_is_bought_is_nobody_to_buy_for(rules: RulesEngine, message: str) -> None:
    assert read(rules, message).recipient in ("", "self")


@pytest.mark.parametrize(
    ("message", "expected", "not_expected"),
    [
        ("想买撕拉面膜，油皮用的", "face_mask", "instant_noodles"),
        ("想买个新的手机壳", "phone_case", "smartphone"),
        ("床品四件套有推荐吗", "bedding_set", "bed_frame"),
        ("她特别爱喝咖啡", "instant_coffee", ""),
    ],
)
def test_a_product_name_counts_only_where_it_heads_the_chinese_words_it_stands_in(
    rules: RulesEngine, message: str, expected: str, not_expected: str
) -> None:
    types = read(rules, message).types
    assert expected in types
    assert not_expected not in types


@pytest.mark.parametrize(
    "message",
    [
        "找一台商用的高压洗车机，养殖场冲地用",
        "想给我妈买个肩颈按摩枕",
        "要一个印着小猫图案的帆布包",
    ],
)
def test_a_word_for_what_shops_do_not_sell_that_modifies_goods_is_no_gap(
    rules: RulesEngine, message: str
) -> None:
    assert not names_gap(read(rules, message).query)


@pytest.mark.parametrize("message", ["帮我约个上门洗车", "我想养只猫", "订两张去成都的机票"])
def test_the_same_words_heading_what_is_asked_for_are_still_a_gap(
    rules: RulesEngine, message: str
) -> None:
    assert names_gap(message)


def test_a_brand_inside_another_chinese_word_is_no_brand(rules: RulesEngine) -> None:
    assert read(rules, "想要一个包装精美的礼盒").brands == []
    assert read(rules, "想买美的电饭煲").brands == ["midea"]


def test_a_compound_chinese_colour_is_read_whole(rules: RulesEngine) -> None:
    labels = read(rules, "想要一件粉红色的卫衣").specs.labels
    assert [label.values for label in labels] == [["pink"]]


@pytest.mark.parametrize(
    ("message", "target", "currency"),
    [
        ("跌到两百块就告诉我", 200.0, "CNY"),
        ("第一个降到899提醒我一下", 899.0, ""),  # no currency said: the shopper's
        ("if it drops to 45 let me know", 45.0, ""),
        ("降到$50提醒我", 50.0, "USD"),
        ("tell me when it drops below £300", 300.0, "GBP"),
    ],
)
def test_a_watch_takes_the_amount_the_price_should_drop_to_without_budget_words(
    rules: RulesEngine, message: str, target: float, currency: str
) -> None:
    followup = read(rules, message).followup
    assert followup is not None and followup.price_ask is not None
    assert followup.price_ask.kind == "watch_price"
    assert (followup.price_ask.target, followup.price_ask.currency) == (target, currency)


@pytest.mark.parametrize(
    "message", ["I used to steer clear of linen, not anymore", "我以前不碰亚麻的，现在不会了"]
)
def test_a_past_refusal_taken_back_in_the_same_message_states_no_dislike(
    rules: RulesEngine, message: str
) -> None:
    reading = read(rules, message)
    assert [p.slug for p in reading.stated if p.polarity is Polarity.DISLIKE] == []


def test_goods_the_shopper_has_and_still_uses_are_not_what_is_asked_for(
    rules: RulesEngine,
) -> None:
    assert read(rules, "家里的吸尘器还能用，想先买个加湿器").types == ["humidifier"]
    assert read(rules, "my coffee maker still works, need a blender").types == ["blender"]
    # Named alone, the goods are still what the message is about.
    assert read(rules, "吸尘器还能用吗").types == ["vacuum_cleaner"]


def test_a_product_before_the_particle_that_ends_the_sentence_is_named(
    rules: RulesEngine,
) -> None:
    """jieba reads 机吧 as one word; the particle closing the clause is no part of a name."""
    reading = read(rules, "那就买个咖啡机吧")
    assert reading.types == ["coffee_machine"]
    assert "吧" not in reading.query


def test_a_name_joined_with_a_hyphen_matches_however_it_is_joined(rules: RulesEngine) -> None:
    assert read(rules, "need a usb c cable").types == ["usb_cable"]
    assert read(rules, "a t shirt in navy").types == ["tshirt"]


def test_a_pets_kind_of_goods_named_as_peoples_is_the_pets(rules: RulesEngine) -> None:
    reading = read(rules, "a comfy bed for my old cat")
    assert reading.types == ["pet_bed"] and reading.recipient == "cat"
    assert read(rules, "想给狗狗买点玩具").types == ["pet_toy"]
    # For a person the same words are people's goods.
    assert read(rules, "a comfy bed for my son").types == ["bed_frame"]


def test_a_person_a_clause_is_about_is_whom_the_goods_are_for(rules: RulesEngine) -> None:
    assert read(rules, "女儿快三岁了，想买个儿童水杯").recipient == "daughter"
    assert read(rules, "my son just turned ten. looking at bikes helmets").recipient == "son"


def test_goods_said_to_be_disliked_with_nothing_asked_are_a_taste(rules: RulesEngine) -> None:
    reading = read(rules, "我讨厌塑料做的玩具，一股味道")
    assert reading.intent == "preference" and reading.query == ""
    assert [(p.polarity, p.slug) for p in reading.stated] == [(Polarity.DISLIKE, "plastic")]
    # Asked for beside the taste, they are searched.
    assert read(rules, "推荐点玩具，我讨厌塑料做的").intent == "search"


def test_things_no_shop_carries_are_gaps_in_the_plural_and_places_to_eat() -> None:
    assert names_gap("酒店附近有没有好吃的饭馆")
    assert names_gap("where to eat around the old town tonight?")
    assert not names_gap("a restaurant-quality chef knife")
    assert names_gap("any studio condos near the beach?")
    assert names_gap("looking to adopt two parakeets")
    assert not names_gap("my gran lives alone and loves tea")


def test_a_colour_in_a_pets_name_is_the_pets_and_food_for_a_pet_is_its_food(
    rules: RulesEngine,
) -> None:
    reading = read(rules, "我家的 golden retriever 胃口不好，想换个狗粮")
    assert reading.recipient == "dog" and reading.types == ["dog_food"]
    assert "color" not in reading.slots and reading.stated == [] and reading.specs.labels == []
    reading = read(rules, "my golden retriever could use some new food")
    assert reading.types == ["dog_food"] and "color" not in reading.slots
    assert read(rules, "some wet food for my cat please").types == ["cat_food"]


def test_where_the_thing_goes_is_no_product_asked_for(rules: RulesEngine) -> None:
    lamps = searching("desk_lamp", "台灯")
    reading = read(rules, "要亮一点的，摆在书桌上", lamps)
    assert reading.types == [] and "书桌" not in reading.query
    assert reading.followup is not None and reading.followup.kind == "refine"
    assert read(rules, "放在床头柜上的小台灯").types == ["desk_lamp"]
    assert read(rules, "a lamp to go on my nightstand").types == ["desk_lamp"]
    # Asked for outright, it is the product.
    assert read(rules, "a nightstand to go by my bed").types == ["nightstand"]


def test_a_generic_noun_in_a_step_over_the_shown_goods_is_those_goods(
    rules: RulesEngine,
) -> None:
    dog_beds = searching("pet_bed", "dog bed")
    reading = read(rules, "order the beds from cheapest", dog_beds)
    assert reading.types == ["pet_bed"] and reading.followup is not None
    # A new request for that noun is a new kind of goods.
    assert read(rules, "now a bed for my room", dog_beds).types == ["bed_frame"]


def test_like_what_is_shown_but_changed_is_a_refinement_with_the_changes(
    rules: RulesEngine,
) -> None:
    boots = searching("boots", "chelsea boots")
    reading = read(rules, "something similar but less pricey, other brands are ok", boots)
    assert reading.followup is not None
    assert (reading.followup.kind, reading.followup.price) == ("refine", "lower")
    assert reading.followup.other == ["brand"]
    assert read(rules, "anything similar?", boots).followup.kind == "similar"  # type: ignore[union-attr]


def test_a_present_asked_for_with_what_they_love_searches_that(rules: RulesEngine) -> None:
    reading = read(rules, "looking for a birthday present for my niece, she adores unicorns")
    assert reading.gift is not None
    reading = read(rules, "想给外甥挑个礼物，他特别喜欢恐龙")
    assert reading.gift is not None and reading.gift.interests == ["恐龙"]
    assert "恐龙" in reading.query
    # Words beside the interest stay in the search.
    named = read(rules, "a gift for my aunt, she loves baking, maybe an apron?")
    assert "apron" in named.query and "baking" in named.query


def test_noise_cancelling_earphones_are_any_kind_and_a_price_question_is_no_search_word(
    rules: RulesEngine,
) -> None:
    reading = read(rules, "降噪耳机哪款好，现在多少钱")
    assert set(reading.types) == {"earbuds", "over_ear_headphones"}
    assert "多少钱" not in reading.query
    assert read(rules, "头戴式降噪耳机").types == ["over_ear_headphones"]


def test_a_kind_named_by_a_modifier_said_apart_is_that_kind(rules: RulesEngine) -> None:
    assert read(rules, "想给女儿买个车，要遥控的").types == ["rc_car"]
    assert read(rules, "看看包，要双肩的那种").types == ["backpack"]


def test_a_quality_whose_name_starts_with_not_is_wanted_not_refused(rules: RulesEngine) -> None:
    reading = read(rules, "煎锅要不粘的")
    assert "不粘" in reading.query
    assert all(p.polarity != Polarity.DISLIKE for p in reading.stated)
    refused = read(rules, "不要不粘的，涂层不放心")
    assert [(p.polarity, p.slug) for p in refused.stated] == [(Polarity.DISLIKE, "non-stick")]
