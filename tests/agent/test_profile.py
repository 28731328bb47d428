"""The turn's preferences from every source: stored, this message, this session; retractions
lift at once; dislikes never reach the profile text."""

from __future__ import annotations

from cartwise.agent.nodes.profile import TurnPreferences, collect_preferences
from cartwise.memory.session_state import SessionConstraint
from cartwise.memory.store import PreferenceEntry
from cartwise.understanding.reading import Reading

PLASTIC = PreferenceEntry(
    polarity="dislike", category="material", slug="plastic", strength="hard", keywords=["塑料"]
)
WOOD = PreferenceEntry(polarity="like", category="material", slug="wood", keywords=["木质"])


def collect(plan: Reading, constraints: list[SessionConstraint] | None = None) -> TurnPreferences:
    return collect_preferences(
        profile="wood 木质",
        liked=[WOOD],
        exclude_terms=["塑料"],
        block="",
        plan=plan,
        constraints=constraints or [],
        memory=[PLASTIC, WOOD],
    )


def test_stored_preferences_apply_and_are_named() -> None:
    prefs = collect(Reading(query="耳机"))
    assert prefs.exclude_terms == ["塑料"]
    assert prefs.excluded == {"plastic": ["塑料"]}
    assert prefs.likes == ["wood"] and "wood" in prefs.like_terms


def test_this_messages_and_this_sessions_preferences_apply_at_once() -> None:
    plan = Reading(
        query="耳机",
        stated=[
            {
                "polarity": "dislike",
                "category": "color",
                "slug": "black",
                "strength": "hard",
                "keywords": ["黑色"],
            }
        ],
        constraints=[
            SessionConstraint(polarity="like", category="style", slug="retro", keywords=["复古"])
        ],
    )
    session = [
        SessionConstraint(polarity="dislike", category="brand", slug="acme", keywords=["Acme"])
    ]
    prefs = collect(plan, session)
    assert {"黑色", "black", "Acme", "acme", "塑料"} <= set(prefs.exclude_terms)
    assert "复古" in prefs.like_terms and "retro" in prefs.likes
    assert "复古" in prefs.profile and "黑色" not in prefs.profile


def test_a_soft_dislike_demotes_and_never_filters() -> None:
    plan = Reading(
        query="耳机",
        stated=[
            {"polarity": "dislike", "category": "color", "slug": "purple", "keywords": ["紫色"]}
        ],
    )
    prefs = collect(plan)
    assert {"紫色", "purple"} <= set(prefs.demote_terms)
    assert "紫色" not in prefs.exclude_terms and "purple" not in prefs.exclude_terms
    assert prefs.demoted == {"purple": ["紫色"]} and "purple" not in prefs.excluded


def test_only_the_turns_recipients_preferences_apply() -> None:
    mums = PreferenceEntry(
        recipient="mum",
        polarity="dislike",
        category="color",
        slug="purple",
        strength="hard",
        keywords=["紫色"],
    )
    said_about_mum = {
        "polarity": "dislike",
        "category": "color",
        "slug": "brown",
        "strength": "hard",
        "keywords": ["棕色"],
        "recipient": "mum",
    }
    for_me = collect_preferences(
        profile="",
        liked=[],
        exclude_terms=[],
        block="",
        plan=Reading(query="围巾", stated=[said_about_mum]),
        constraints=[],
        memory=[mums, PLASTIC],
    )
    assert for_me.exclude_terms == [] and for_me.excluded == {}
    for_mum = collect_preferences(
        profile="",
        liked=[],
        exclude_terms=["紫色"],  # what the injector read from mum's namespace
        block="",
        plan=Reading(query="围巾", recipient="mum", stated=[said_about_mum]),
        constraints=[],
        memory=[mums, PLASTIC],
    )
    assert {"紫色", "棕色", "brown"} <= set(for_mum.exclude_terms)
    assert set(for_mum.excluded) == {"purple", "brown"}  # not the shopper's plastic


def test_a_retraction_lifts_the_stored_dislike_in_the_same_turn() -> None:
    prefs = collect(Reading(query="耳机", retracted=["dislike:material::plastic"]))
    assert prefs.exclude_terms == [] and prefs.excluded == {}
    by_short_key = collect(Reading(query="耳机", retracted=["material:plastic"]))
    assert by_short_key.exclude_terms == []
