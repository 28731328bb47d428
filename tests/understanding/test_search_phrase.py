"""The search phrase is built from what the reader recognised in a message plus the words
it does not know: asking, politeness, pronouns, people, measure words, occasions and the
spans read as slots never become words to search for, and nothing is cut out of a word."""

from __future__ import annotations

import pytest

from cartwise.memory.session_state import ActiveSearch, SessionPrefState
from cartwise.understanding.reading import Conversation, Reading
from cartwise.understanding.rules.engine import RulesEngine
from cartwise.understanding.rules.phrase import search_phrase
from cartwise.vocabulary.phrase_words import phrase_word_forms


@pytest.fixture(scope="module")
def rules() -> RulesEngine:
    return RulesEngine()


def read(rules: RulesEngine, message: str, session: SessionPrefState | None = None) -> Reading:
    return rules.read(message, Conversation(session=session or SessionPrefState(thread="t")))


@pytest.mark.parametrize(
    ("message", "wanted", "absent"),
    [
        (
            "麻烦你帮我挑一款适合放在厨房的黑色垃圾桶吧，预算一百块",
            ["垃圾桶", "黑色", "厨房"],
            ["麻烦", "帮我", "一款", "吧", "预算", "一百"],
        ),
        (
            "could you find me a pair of waterproof hiking boots for my husband, under 900 yuan",
            ["waterproof", "hiking boots"],
            ["could", "pair", "husband", "900", "under"],
        ),
        (
            "我侄女下周过生日，她迷上了画画，想送她一套水彩颜料",
            ["画画", "水彩颜料"],
            ["侄女", "下周", "生日", "送她", "一套"],
        ),
        ("不太想要金属做成的台灯，塑料制成的可以", ["台灯"], ["做", "制", "成的"]),
        ("我对虾不过敏，来点海鲜零食吧", ["海鲜零食"], ["不过", "来点", "敏"]),
        ("不过我还是想要白色的耳机", ["白色", "耳机"], ["不过", "还是"]),
        (
            "my neighbour's housewarming is coming up and he's really into cooking",
            ["cooking"],
            ["neighbour", "housewarming", "coming", "really", "into"],
        ),
    ],
)
def test_the_phrase_keeps_the_words_of_the_request_and_nothing_around_them(
    rules: RulesEngine, message: str, wanted: list[str], absent: list[str]
) -> None:
    phrase = read(rules, message).query
    for word in wanted:
        assert word in phrase
    for word in absent:
        assert word not in phrase


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        ("的确良衬衫要白色的", "的确良衬衫"),
        ("想要个性一点的T恤", "个性"),
        ("slip-on sneakers with a built-in arch", "slip-on"),
        ("clip-in bangs, please", "clip-in"),
        ("a 3.5mm audio cable", "3.5mm"),
    ],
)
def test_no_phrase_word_is_cut_out_of_a_longer_word(
    rules: RulesEngine, message: str, kept: str
) -> None:
    assert kept in read(rules, message).query.replace("t恤", "T恤")


def test_a_brand_written_with_an_article_keeps_it() -> None:
    assert search_phrase("the north face", [], []) == "north face"
    assert "the north face" in " ".join(
        read(RulesEngine(), "a The North Face fleece jacket").query.split()
    )


def test_every_group_of_phrase_words_is_listed_and_none_is_empty() -> None:
    forms = phrase_word_forms()
    assert all(forms.values())
    assert "的" in forms["filler"] and "please" in forms["filler"]


def test_a_request_naming_nothing_is_vague_whatever_words_it_asks_with(
    rules: RulesEngine,
) -> None:
    for message in ("could you find me something nice", "帮我挑点东西吧", "I'm after a present"):
        assert read(rules, message).vague, message


def test_a_budget_alone_narrows_a_running_search_and_is_vague_without_one(
    rules: RulesEngine,
) -> None:
    running = SessionPrefState(
        thread="t",
        active_search=ActiveSearch(
            product_type="kettle", phrase="电热水壶", product_types=["electric_kettle"]
        ),
    )
    assert not read(rules, "三百块以内的", running).vague
    assert read(rules, "三百块以内的").vague


@pytest.mark.parametrize(
    ("message", "phrase", "color"),
    [
        ("孩子脸上老是红红的，想买个面霜", "面霜", None),
        ("想给她挑双雨靴，黄色的", "雨靴 黄色", "yellow"),
        ("宝宝刚满月 想买个安抚奶嘴", "安抚奶嘴", None),
        ("my baby is 8 months old, looking for a high chair", "high chair", None),
    ],
)
def test_a_clause_about_the_person_is_no_part_of_the_request(
    rules: RulesEngine, message: str, phrase: str, color: str | None
) -> None:
    # The colour of a face is not the colour of the cream; a bare "黄色的" is the boots'.
    reading = read(rules, message)
    assert reading.query.endswith(phrase)
    assert "宝宝" not in reading.query and "baby" not in reading.query
    assert reading.slots.get("color") == color


def test_a_person_named_inside_the_request_stays_in_it(rules: RulesEngine) -> None:
    reading = read(rules, "my niece was just born, want something useful, like a baby bouncer")
    assert "baby bouncer" in reading.query


def test_switching_away_from_the_current_brand_filters_it_for_this_search(
    rules: RulesEngine,
) -> None:
    reading = read(rules, "想换个牌子的牙膏，一直用的是高露洁")
    (refused,) = reading.stated
    assert (refused.slug, refused.strength.value, refused.scope) == ("colgate", "hard", "request")
    assert reading.query == "牙膏"


@pytest.mark.parametrize(
    ("message", "phrase"),
    [
        ("I need a wedding veil, nothing too long", "wedding veil"),
        ("想买个圣诞花环挂门上", "圣诞花环"),
        ("a graduation cap for my son", "graduation cap"),
    ],
)
def test_an_occasion_word_naming_the_product_stays_in_the_phrase(
    rules: RulesEngine, message: str, phrase: str
) -> None:
    assert phrase in read(rules, message).query


@pytest.mark.parametrize(
    ("message", "absent"),
    [
        ("my dad's birthday is on friday, he likes golf", "birthday"),
        ("结婚纪念日快到了，想送老婆一条项链", "纪念日"),
        ("christmas gift for my boss", "christmas"),
    ],
)
def test_an_occasion_word_around_the_request_stays_out(
    rules: RulesEngine, message: str, absent: str
) -> None:
    assert absent not in read(rules, message).query
