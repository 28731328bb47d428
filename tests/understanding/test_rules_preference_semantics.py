"""Issue 11, the understanding side: whose, how long, how strong, since when, and an open
vocabulary — one test per kind, each with sentences of its own (not the dev or test set's)."""

from __future__ import annotations

import pytest

from cartwise.memory.session_state import SessionPrefState
from cartwise.memory.store import Category, Polarity, PreferenceEntry, Strength
from cartwise.understanding.base import CuratorTurn
from cartwise.understanding.reading import Conversation, Reading
from cartwise.understanding.rules.engine import RulesEngine
from cartwise.understanding.rules.recipients import canonical_recipient


@pytest.fixture(scope="module")
def rules() -> RulesEngine:
    return RulesEngine()


def plan(rules: RulesEngine, message: str, memory: list[PreferenceEntry] | None = None) -> Reading:
    return rules.read(
        message, Conversation(session=SessionPrefState(thread="t"), memory=memory or [])
    )


def stated(rules: RulesEngine, message: str) -> set[tuple[str, str, str, str, str]]:
    """(polarity, slug, strength, scope, recipient) of each stated preference."""
    return {
        (s.polarity.value, s.slug, s.strength.value, s.scope, s.recipient)
        for s in plan(rules, message).stated
    }


def entry(key: str) -> PreferenceEntry:
    polarity, category, domain, slug = PreferenceEntry.parse_key(key)
    return PreferenceEntry(
        polarity=Polarity(polarity), category=Category(category), domain=domain, slug=slug
    )


# --- whose ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("我婆婆不吃香辣的", {("dislike", "spicy", "hard", "long_term", "mother-in-law")}),
        (
            "my sister can't stand polyester",
            {("dislike", "polyester", "hard", "long_term", "sister")},
        ),
        (
            "帮我老公看看剃须刀，他讨厌塑料的",
            {("dislike", "plastic", "hard", "long_term", "husband")},
        ),
        ("我同事小周喜欢无印良品", {("like", "muji", "soft", "long_term", "colleague")}),
    ],
)
def test_a_preference_about_someone_else_is_theirs(
    rules: RulesEngine, message: str, expected: set[tuple[str, ...]]
) -> None:
    assert stated(rules, message) == expected


def test_a_colleague_named_after_the_word_keeps_the_role(rules: RulesEngine) -> None:
    # 同事 is a role, not "friend": the name does not make it a friend.
    assert {s.recipient for s in plan(rules, "我同事不喜欢黑色").stated} == {"colleague"}


@pytest.mark.parametrize(
    ("message", "recipient"),
    [
        ("再帮我女儿挑个水杯", "daughter"),
        ("buying a wallet for my boyfriend", "boyfriend"),
        ("送老板一盒茶叶", "boss"),
        ("running socks for me please", "self"),
        ("帮我找双跑鞋", "self"),
    ],
)
def test_whom_the_purchase_is_for(rules: RulesEngine, message: str, recipient: str) -> None:
    assert plan(rules, message).recipient == recipient


def test_the_shoppers_own_memory_gets_nothing_of_a_recipient(rules: RulesEngine) -> None:
    message = "给我爸挑件外套，不要灰色的"
    planner = plan(rules, message)
    output = rules.curate(
        CuratorTurn(user_message=message, reading=planner, session=SessionPrefState(thread="t"))
    )
    assert output.long_term == []
    assert [(g.recipient, [e.dedup_key for e in g.long_term]) for g in output.recipients] == [
        ("dad", ["dislike:color:clothing:gray"])
    ]


def test_a_recipients_change_of_mind_supersedes_in_their_namespace(rules: RulesEngine) -> None:
    message = "我老婆以前不喜欢亚麻，现在很喜欢"
    planner = plan(rules, message)
    output = rules.curate(
        CuratorTurn(
            user_message=message,
            reading=planner,
            session=SessionPrefState(thread="t"),
            memory=[entry("dislike:material::linen")],  # the shopper's own: untouched
            recipient_memory={"wife": [entry("dislike:material::linen")]},
        )
    )
    assert output.supersede == []
    (group,) = output.recipients
    assert (group.recipient, group.supersede) == ("wife", ["dislike:material::linen"])
    assert [e.dedup_key for e in group.long_term] == ["like:material::linen"]


@pytest.mark.parametrize(
    ("text", "slug"),
    [
        ("我妈", "mum"),
        ("老公", "husband"),
        ("my mom", "mum"),
        ("my friend Jane", "friend-jane"),
        ("朋友小林", "friend-xiaolin"),
        ("我自己", "self"),
        ("mother of pearl", None),
        ("a nice jacket", None),
    ],
)
def test_canonical_recipient(text: str, slug: str | None) -> None:
    assert canonical_recipient(text) == slug


# --- how long --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    ["不要索尼，这回想换换", "先不要粉色的", "no Adidas today", "skip leather for now"],
)
def test_this_time_is_a_session_constraint(rules: RulesEngine, message: str) -> None:
    planner = plan(rules, message)
    assert [s.scope for s in planner.stated] == ["session"]
    assert [c.slug for c in planner.constraints] == [planner.stated[0].slug]


@pytest.mark.parametrize(
    "message",
    [
        "除了索尼都可以",
        "anything but Sony works",
        "颜色随便，就是别要粉色",
        "any brand other than Sony",
    ],
)
def test_except_x_is_for_this_request_only(rules: RulesEngine, message: str) -> None:
    planner = plan(rules, message)
    assert [(s.scope, s.strength) for s in planner.stated] == [("request", Strength.HARD)]
    assert planner.constraints == []  # not a session constraint either
    output = rules.curate(
        CuratorTurn(user_message=message, reading=planner, session=SessionPrefState(thread="t"))
    )
    assert output.long_term == [] and output.session_patch.constraints == []


def test_defaults_a_refusal_in_a_request_and_a_bare_statement(rules: RulesEngine) -> None:
    # Documented in docs/understand.md: both long-term; the request's is domain-scoped and
    # hard, the bare one global and soft.
    (in_request,) = plan(rules, "不要彪马的运动鞋").stated
    assert (in_request.scope, in_request.domain, in_request.strength) == (
        "long_term",
        "shoes",
        Strength.HARD,
    )
    (bare,) = plan(rules, "我不喜欢彪马").stated
    assert (bare.scope, bare.domain, bare.strength) == ("long_term", "", Strength.SOFT)


@pytest.mark.parametrize(
    ("message", "scope"),
    [
        ("只要玻璃的", "session"),
        ("only linen shirts please", "session"),
        ("我只穿纯棉的袜子", "long_term"),
        ("I only buy organic tea", "long_term"),
    ],
)
def test_only_x_is_a_must_have(rules: RulesEngine, message: str, scope: str) -> None:
    (item,) = plan(rules, message).stated
    assert (item.polarity, item.strength, item.scope) == (Polarity.LIKE, Strength.HARD, scope)


# --- how strong -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "strength"),
    [
        ("我不太喜欢尼龙", "soft"),
        ("尽量别选涤纶", "soft"),
        ("not really into suede", "soft"),
        ("I'd rather not have nylon", "soft"),
        ("if possible, no polyester", "soft"),
        ("不要尼龙", "hard"),
        ("我讨厌尼龙", "hard"),
        ("绝不要涤纶", "hard"),
        ("I hate suede", "hard"),
        ("never nylon", "hard"),
    ],
)
def test_soft_and_hard_dislikes(rules: RulesEngine, message: str, strength: str) -> None:
    assert [s.strength.value for s in plan(rules, message).stated] == [strength]


# --- since when and logic -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "memory", "polarity", "supersede"),
    [
        (
            "I used to hate wool, but now I love it",
            "dislike:material::wool",
            "like",
            ["dislike:material::wool"],
        ),
        (
            "以前我喜欢金属的，现在不喜欢了",
            "like:material::metal",
            "dislike",
            ["like:material::metal"],
        ),
        (
            "years ago I disliked pink, lately I'm into it",
            "dislike:color::pink",
            "like",
            ["dislike:color::pink"],
        ),
    ],
)
def test_a_change_of_mind_states_the_new_view_and_supersedes(
    rules: RulesEngine, message: str, memory: str, polarity: str, supersede: list[str]
) -> None:
    old = entry(memory)
    planner = plan(rules, message, [old])
    assert {s.polarity.value for s in planner.stated if s.slug == old.slug} == {polarity}
    output = rules.curate(
        CuratorTurn(
            user_message=message,
            reading=planner,
            session=SessionPrefState(thread="t"),
            memory=[old],
        )
    )
    assert output.supersede == supersede


@pytest.mark.parametrize(
    "message",
    [
        "我倒也不是不喜欢丝绸",
        "I don't hate nylon",
        "it's not that I dislike suede",
        "I'm not allergic to soy",
        "my husband isn't lactose intolerant",
        "我对芝麻不过敏",
        "is this bag leather?",
        "这条裤子是涤纶的吗？",
        "I never get up before 7am",
        "I always take the bus after work",
    ],
)
def test_statements_that_write_nothing(rules: RulesEngine, message: str) -> None:
    planner = plan(rules, message)
    assert planner.stated == []
    assert "color" not in planner.slots


@pytest.mark.parametrize(
    ("message", "memory"),
    [
        ("其实我也并不是不喜欢羊毛", "dislike:material::wool"),
        ("it's not like I hate denim", "dislike:material::denim"),
        ("I don't dislike pink actually", "dislike:color::pink"),
    ],
)
def test_a_double_negation_takes_back_a_stored_dislike_and_searches_no_words_of_its_own(
    rules: RulesEngine, message: str, memory: str
) -> None:
    old = entry(memory)
    reading = plan(rules, message, [old])
    assert reading.stated == []
    assert old.dedup_key in reading.retracted
    assert reading.query == ""


@pytest.mark.parametrize(
    "message",
    ["我对鸡蛋不过敏", "我儿子对牛奶并不过敏", "I'm not intolerant to gluten", "我并不讨厌灰色"],
)
def test_a_statement_that_cancels_itself_searches_no_words_of_its_own(
    rules: RulesEngine, message: str
) -> None:
    # With a product noun ("牛奶") the search already running re-runs; without one nothing is
    # searched. Either way none of the statement's words ("并不过敏") is searched for.
    reading = plan(rules, message)
    assert reading.stated == []
    assert reading.query == ""


@pytest.mark.parametrize(
    ("message", "phrase"),
    [
        ("我对坚果不过敏，想买点燕麦片", "燕麦片"),
        ("I'm not allergic to dairy, looking for yogurt", "yogurt"),
    ],
)
def test_a_cancelled_clause_stays_out_of_the_search_phrase(
    rules: RulesEngine, message: str, phrase: str
) -> None:
    reading = plan(rules, message)
    assert (reading.intent, reading.query, reading.stated) == ("search", phrase, [])


# --- open vocabulary ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "slug", "keyword"),
    [
        ("我不吃茴香", "huixiang", "茴香"),
        ("不要灯芯绒的外套", "dengxinrong", "灯芯绒"),
        ("I avoid anchovies", "anchovy", "anchovy"),
        ("no sequins please", "sequin", "sequin"),
        ("I can't stand romantic comedies", "romantic-comedy", "romantic comedy"),
    ],
)
def test_words_outside_the_lexicon_still_make_a_usable_entry(
    rules: RulesEngine, message: str, slug: str, keyword: str
) -> None:
    (item,) = plan(rules, message).stated
    assert (item.polarity, item.slug) == (Polarity.DISLIKE, slug)
    assert keyword in item.keywords


@pytest.mark.parametrize(
    ("message", "slug"),
    [("我不太喜欢豹纹", "animal-print"), ("no stripes", "stripe"), ("不要格纹的", "plaid")],
)
def test_patterns_are_known(rules: RulesEngine, message: str, slug: str) -> None:
    assert [s.slug for s in plan(rules, message).stated] == [slug]


def test_like_after_a_noun_is_a_preposition(rules: RulesEngine) -> None:
    message = "I avoid fabrics like nylon and acrylic"
    assert {(s.polarity.value, s.slug) for s in plan(rules, message).stated} == {
        ("dislike", "nylon"),
        ("dislike", "acrylic"),
    }


def test_a_plural_noun_is_no_verb(rules: RulesEngine) -> None:
    # "hates" is not the plural of "hat".
    planner = plan(rules, "my son hates orange")
    assert planner.domain == ""
    assert [(s.slug, s.recipient) for s in planner.stated] == [("orange", "son")]


@pytest.mark.parametrize(
    ("message", "slug"),
    [("I used to hate Apple but now I kind of like it", "apple"), ("I kinda like linen", "linen")],
)
def test_a_hedged_like_is_still_a_like(message: str, slug: str) -> None:
    """Regression: "kind of like" was no stance, so the message was searched as words."""
    planned = RulesEngine().read(message, Conversation(session=SessionPrefState(thread="t")))
    assert [(s.polarity.value, s.slug) for s in planned.stated] == [("like", slug)]


@pytest.mark.parametrize(
    ("message", "word"), [("我不喜欢太花哨的", "花哨"), ("我讨厌过于艳丽的", "艳丽")]
)
def test_disliking_too_much_of_a_quality_is_a_dislike_of_it(message: str, word: str) -> None:
    """Regression: "不喜欢太花哨的" was searched as the words 「他不 太花哨」."""
    planned = RulesEngine().read(message, Conversation(session=SessionPrefState(thread="t")))
    assert [s.keywords for s in planned.stated if s.polarity.value == "dislike"] == [[word]]


def test_not_too_expensive_is_still_a_price_wish_not_a_dislike() -> None:
    planned = RulesEngine().read("不要太贵", Conversation(session=SessionPrefState(thread="t")))
    assert planned.stated == []


# --- refusals at the end of a clause, and requests beside a stated taste ------------------------


@pytest.mark.parametrize(
    ("message", "slug"),
    [
        ("想买个保温杯，紫色的坚决不要", "purple"),
        ("帆布鞋也行，塑料的就别了", "plastic"),
        ("白色的不要哈", "white"),
    ],
)
def test_a_refusal_that_ends_its_clause_refuses_what_came_before(
    rules: RulesEngine, message: str, slug: str
) -> None:
    reading = plan(rules, message)
    assert [(s.polarity, s.slug, s.strength) for s in reading.stated] == [
        (Polarity.DISLIKE, slug, Strength.HARD)
    ]
    for word in ("不要", "别", "坚决"):
        assert word not in reading.query


@pytest.mark.parametrize(
    ("message", "memory"),
    [
        ("你别把羊毛的都给我筛掉啊", "dislike:material::wool"),
        ("please don't filter out the suede ones", "dislike:material::suede"),
    ],
)
def test_refusing_the_removal_of_a_thing_takes_its_dislike_back(
    rules: RulesEngine, message: str, memory: str
) -> None:
    old = entry(memory)
    reading = plan(rules, message, [old])
    assert reading.stated == []
    assert old.dedup_key in reading.retracted


@pytest.mark.parametrize(
    ("message", "slug", "phrase"),
    [
        ("我不吃香菜，推荐点凉拌菜", "cilantro", "凉拌菜"),
        ("I avoid peanuts, looking for trail mix", "peanut", "trail mix"),
        ("不要亮片的，想买条晚礼服", "liangpian", "晚礼服"),
    ],
)
def test_a_taste_and_a_request_in_one_message_are_both_read(
    rules: RulesEngine, message: str, slug: str, phrase: str
) -> None:
    reading = plan(rules, message)
    assert slug in {s.slug for s in reading.stated}
    assert (reading.intent, reading.query) == ("search", phrase)


@pytest.mark.parametrize("message", ["not a fan of grey ones", "not really a fan of suede"])
def test_the_words_of_a_refusal_name_no_product(rules: RulesEngine, message: str) -> None:
    # "fan" in "not a fan of" is no electric fan: the taste is a statement, not a search.
    reading = plan(rules, message)
    assert reading.domain != "appliances"
    assert (reading.intent, reading.query) == ("preference", "")
