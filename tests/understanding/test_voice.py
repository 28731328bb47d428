"""Only the shopper's own words become memory: quoted and pasted text, suppositions, revoked
past states and other people's ways state nothing of theirs (sentences of this file's own,
not the evaluation sets')."""

from __future__ import annotations

import pytest

from cartwise.errors import InvalidPreference
from cartwise.memory.session_state import SessionPrefState
from cartwise.memory.store import PreferenceEntry, Provenance
from cartwise.understanding.base import CuratorTurn
from cartwise.understanding.reading import Conversation
from cartwise.understanding.rules.engine import RulesEngine
from cartwise.understanding.rules.negation import split_clauses
from cartwise.understanding.rules.recipients import find_recipients
from cartwise.understanding.rules.voice import read_voices


@pytest.fixture(scope="module")
def rules() -> RulesEngine:
    return RulesEngine()


def stored(rules: RulesEngine, message: str, memory: list[PreferenceEntry] | None = None):  # type: ignore[no-untyped-def]
    session = SessionPrefState(thread="t")
    plan = rules.read(message, Conversation(session=session, memory=memory or []))
    return rules.curate(
        CuratorTurn(
            user_message=message,
            reading=plan,
            session=session,
            memory=memory or [],
            source_turn="t:1",
        )
    )


@pytest.mark.parametrize(
    "message",
    [
        'A buyer commented: "the nylon strap snapped, skip this one"',
        "评论区有人说“千万别买羊毛的，会起球”",
        "Features: no latex, no wool blend, hand wash only",
        "【产品特点】不含酒精，无香精",
        "suppose I couldn't stand denim, what then?",
        "假如我讨厌皮革，这个包还值得买吗",
        "As a teenager I refused anything pink, but not anymore.",
        "我以前不穿涤纶的，现在已经不介意了",
        "Most people avoid velvet in summer.",
        "有些人讨厌亚克力的东西",
        "The shop assistant told me never to buy suede boots.",
        "导购说别买涤纶的",
    ],
)
def test_words_that_are_not_the_shoppers_own_write_nothing(
    rules: RulesEngine, message: str
) -> None:
    out = stored(rules, message)
    assert out.long_term == [] and out.recipients == []


def test_a_named_persons_reported_words_are_theirs(rules: RulesEngine) -> None:
    out = stored(rules, "My daughter says she never wears wool.")
    assert out.long_term == []
    assert [(g.recipient, [e.slug for e in g.long_term]) for g in out.recipients] == [
        ("daughter", ["wool"])
    ]


@pytest.mark.parametrize(
    ("message", "slug"),
    [
        ("I said no nylon, and I meant it", "nylon"),
        ("我说了不要羊毛的", "wool"),
        ("Even years ago I refused denim, and I still do.", "denim"),
        ("velvet is a no for me", "velvet"),
    ],
)
def test_the_shoppers_own_refusal_is_still_remembered(
    rules: RulesEngine, message: str, slug: str
) -> None:
    assert slug in {e.slug for e in stored(rules, message).long_term if e.is_hard_dislike}


def test_a_revoked_past_dislike_is_taken_back(rules: RulesEngine) -> None:
    before = PreferenceEntry(polarity="dislike", category="material", slug="denim")
    out = stored(rules, "Back then I hated denim; I don't anymore.", [before])
    assert out.long_term == []
    assert out.supersede == ["dislike:material::denim"]


def test_each_clause_gets_a_voice() -> None:
    text = 'I like linen. A review says "avoid the silk one".'
    voices = read_voices(text, split_clauses(text.lower()), find_recipients(text))
    assert [v.kind for v in voices] == ["own", "quoted"]


def test_nothing_that_looks_like_contact_or_card_data_is_stored() -> None:
    entry = PreferenceEntry(
        polarity="dislike",
        category="other",
        slug="cold-calls",
        keywords=["cold calls", "ann.lee@example.org", "+86 138 1234 5678", "6222 0212 3456 7890"],
        provenance=Provenance(
            source_text="no cold calls to +86 138 1234 5678 or ann.lee@example.org"
        ),
    )
    assert entry.keywords == ["cold calls"]
    assert "138" not in entry.provenance.source_text
    assert "@" not in entry.provenance.source_text
    with pytest.raises(InvalidPreference, match="slug"):
        PreferenceEntry(polarity="dislike", category="other", slug="110101199003071234")


def test_an_unnamed_he_or_she_is_nobody_to_store_for_unless_the_turn_buys_for_someone(
    rules: RulesEngine,
) -> None:
    assert (
        rules.read("他不喜欢太花哨的", Conversation(session=SessionPrefState(thread="t"))).stated
        == []
    )
    for_dad = SessionPrefState(thread="t", recipient="dad")
    assert [
        s.recipient for s in rules.read("他不喜欢太花哨的", Conversation(session=for_dad)).stated
    ] == ["dad"]
