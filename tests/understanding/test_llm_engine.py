"""The llm engine over real HTTP, against a scripted OpenAI-compatible server.

Every bad answer must fall back to the rules engine for that call and be counted; the
guards must correct what the rules engine can prove wrong; and what finally reaches the real
stores must be valid and correctly labelled.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from cartwise.embedding import create_embedder
from cartwise.errors import ConfigurationError
from cartwise.memory import create_preference_store, create_session_store
from cartwise.memory.session_state import RejectedOption, SessionPatch, SessionPrefState
from cartwise.memory.store import (
    SLUG_PATTERN,
    Polarity,
    PreferenceEntry,
    PreferenceStore,
    Strength,
)
from cartwise.settings import Settings
from cartwise.understanding import create_engine, guarded_llm_engine
from cartwise.understanding.base import CuratorOutput, CuratorTurn, ReplyFacts, ReplyItem
from cartwise.understanding.fallback import FallbackEngine
from cartwise.understanding.llm_schema import SLOT_NAME_PATTERN
from cartwise.understanding.reading import Conversation, Reading
from cartwise.understanding.rules.engine import RulesEngine
from tests.doubles import ScriptedAnswer, ScriptedLLMServer

USER = "alice"
THREAD = "t-1"
NO_PLASTIC = "不要塑料的耳机，预算500以内"
TIMEOUT_SECONDS = 2.0
"""Long enough that an immediate error answer on a loaded two-core machine is not read as a
timeout; the slow answers wait ten times as long."""
MAX_TOKENS = 333


def planner_answer(**overrides: Any) -> dict[str, Any]:
    """A good planner answer for NO_PLASTIC; override any field."""
    answer: dict[str, Any] = {
        "language": "zh",
        "intent": "search",
        "domain": "electronics",
        "query": "耳机",
        "current_intent": "LLM: 买一副不含塑料的耳机",
        "slots": {"budget_max": "500", "budget_currency": "CNY"},
        "constraints": [],
        "stated": [
            {
                "polarity": "dislike",
                "category": "material",
                "slug": "plastic",
                "domain": "electronics",
                "strength": "hard",
                "keywords": ["plastic", "塑料"],
                "scope": "long_term",
            }
        ],
        "retracted": [],
        "brands": [],
        "platforms": [],
        "answered_questions": [],
    }
    answer.update(overrides)
    return answer


def long_term(slug: str, **fields: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "polarity": "dislike",
        "category": "material",
        "domain": "electronics",
        "slug": slug,
        "strength": "hard",
        "keywords": [slug],
    }
    entry.update(fields)
    return entry


def curator_answer(*entries: dict[str, Any], **patch: Any) -> dict[str, Any]:
    session_patch: dict[str, Any] = {
        "current_intent": "LLM: 买一副耳机",
        "slots_patch": {},
        "constraints": [],
        "new_open_questions": [],
        "resolved_questions": [],
        "decisions_made": [],
    }
    session_patch.update(patch)
    return {"long_term": list(entries), "supersede": [], "session_patch": session_patch}


@pytest.fixture
def llm_server() -> Iterator[ScriptedLLMServer]:
    with ScriptedLLMServer() as server:
        yield server


@cache
def shared_rules() -> RulesEngine:
    """Deterministic and stateless: one lexicon load serves the whole module."""
    return RulesEngine()


@pytest.fixture
def rules() -> RulesEngine:
    return shared_rules()


@pytest.fixture
def llm_settings(settings: Settings, llm_server: ScriptedLLMServer) -> Settings:
    return settings.model_copy(
        update={
            "engine": "llm",
            "llm_base_url": llm_server.base_url,
            "llm_timeout_seconds": TIMEOUT_SECONDS,
            "llm_max_tokens": MAX_TOKENS,
        }
    )


@pytest.fixture
def engine(llm_settings: Settings, rules: RulesEngine) -> FallbackEngine:
    return guarded_llm_engine(llm_settings, rules)


def empty_session() -> SessionPrefState:
    return SessionPrefState(thread=THREAD)


def turn_for(message: str, **fields: Any) -> CuratorTurn:
    """A curator turn whose planner output is the rules engine's (unless given)."""
    session = fields.pop("session", empty_session())
    memory = fields.pop("memory", [])
    planner = fields.pop("planner", None) or shared_rules().read(
        message, Conversation(session=session, memory=memory)
    )
    return CuratorTurn(
        user_message=message, reading=planner, session=session, memory=memory, **fields
    )


# --- good answers -------------------------------------------------------------------------


def test_good_planner_answer_passes_through(
    engine: FallbackEngine, llm_server: ScriptedLLMServer
) -> None:
    llm_server.script(ScriptedAnswer.json(planner_answer()))

    planner = engine.read(NO_PLASTIC, Conversation(session=empty_session()))

    assert planner.current_intent == "LLM: 买一副不含塑料的耳机"
    assert planner.query == "耳机"
    assert planner.slots == {"budget_max": "500", "budget_currency": "CNY"}
    assert [(s.polarity, s.slug) for s in planner.stated] == [(Polarity.DISLIKE, "plastic")]
    assert engine.counters.snapshot()["fallbacks"] == {}
    assert engine.counters.snapshot()["calls"] == {"plan": 1}


def test_numeric_slot_values_become_strings(
    engine: FallbackEngine, llm_server: ScriptedLLMServer
) -> None:
    llm_server.script(ScriptedAnswer.json(planner_answer(slots={"budget_max": 500})))

    assert engine.read(NO_PLASTIC, Conversation(session=empty_session())).slots == {
        "budget_max": "500"
    }


def test_bound_on_generated_tokens_and_schema_reach_the_server(
    engine: FallbackEngine, llm_server: ScriptedLLMServer
) -> None:
    llm_server.script(ScriptedAnswer.json(planner_answer()))

    engine.read(NO_PLASTIC, Conversation(session=empty_session()))

    (request,) = llm_server.requests
    # langchain-openai only sends max_completion_tokens, which some local servers ignore.
    assert request["max_tokens"] == MAX_TOKENS
    assert request["max_completion_tokens"] == MAX_TOKENS
    assert request["response_format"]["type"] == "json_schema"
    assert request["response_format"]["json_schema"]["name"] == "planner_output"
    assert "ALWAYS a dislike" in request["messages"][0]["content"]


def test_answer_wrapped_in_prose_and_a_fence_is_accepted(
    engine: FallbackEngine, llm_server: ScriptedLLMServer
) -> None:
    fenced = "Here you go:\n```json\n" + json.dumps(planner_answer(), ensure_ascii=False) + "\n```"
    llm_server.script(ScriptedAnswer.text(fenced))

    planner = engine.read(NO_PLASTIC, Conversation(session=empty_session()))

    assert planner.current_intent == "LLM: 买一副不含塑料的耳机"
    assert engine.counters.snapshot()["fallbacks"] == {}


def test_function_calling_method_reads_the_tool_call(
    llm_settings: Settings, rules: RulesEngine, llm_server: ScriptedLLMServer
) -> None:
    engine = guarded_llm_engine(
        llm_settings.model_copy(update={"llm_structured_method": "function_calling"}), rules
    )
    llm_server.script(ScriptedAnswer.tool("planner_output", planner_answer()))

    planner = engine.read(NO_PLASTIC, Conversation(session=empty_session()))

    assert planner.current_intent == "LLM: 买一副不含塑料的耳机"
    assert llm_server.requests[0]["tools"][0]["function"]["name"] == "planner_output"


def test_good_curator_answer_gets_code_derived_keys_and_provenance(
    engine: FallbackEngine, llm_server: ScriptedLLMServer
) -> None:
    answer = curator_answer(
        long_term("plastic", keywords=["plastic", "塑料"]),
        slots_patch={"budget_max": "500"},
    )
    llm_server.script(ScriptedAnswer.json(answer))

    output = engine.curate(turn_for(NO_PLASTIC, source_turn="t-1:1"))

    (entry,) = output.long_term
    assert entry.dedup_key == "dislike:material:electronics:plastic"
    assert entry.provenance.source_turn == "t-1:1"
    assert output.session_patch.slots_patch == {"budget_max": "500"}
    assert output.session_patch.current_intent == "LLM: 买一副耳机"
    assert engine.counters.snapshot()["fallbacks"] == {}


# --- bad answers fall back to rules and are counted ----------------------------------------

BAD_PLANNER_ANSWERS = {
    "truncated JSON": (ScriptedAnswer.text('{"language": "zh", "intent": '), "malformed_json"),
    "prose": (ScriptedAnswer.text("You want headphones."), "malformed_json"),
    "empty object": (ScriptedAnswer.text("{}"), "invalid"),
    "wrong intent enum": (ScriptedAnswer.json(planner_answer(intent="buy")), "invalid"),
    "wrong polarity enum": (
        ScriptedAnswer.json(
            planner_answer(stated=[{"polarity": "neutral", "category": "material", "slug": "x"}])
        ),
        "invalid",
    ),
    "Chinese slug": (
        ScriptedAnswer.json(
            planner_answer(stated=[{"polarity": "dislike", "category": "material", "slug": "塑料"}])
        ),
        "invalid",
    ),
    "supplied key": (
        ScriptedAnswer.json(
            planner_answer(
                stated=[
                    {
                        "polarity": "dislike",
                        "category": "material",
                        "slug": "plastic",
                        "dedup_key": "dislike:material::plastic",
                    }
                ]
            )
        ),
        "supplied_key",
    ),
    "camelCase slot": (ScriptedAnswer.json(planner_answer(slots={"budgetMax": "500"})), "invalid"),
    "HTTP 500": (ScriptedAnswer.http_error(500), "http_error"),
    "not a chat completion": (ScriptedAnswer(body={"unexpected": True}), "bad_response"),
    "slow answer": (
        ScriptedAnswer.json(planner_answer(), delay_seconds=TIMEOUT_SECONDS * 10),
        "timeout",
    ),
}


@pytest.mark.parametrize("case", list(BAD_PLANNER_ANSWERS))
def test_bad_planner_answer_falls_back_to_rules_and_is_counted(
    case: str, engine: FallbackEngine, rules: RulesEngine, llm_server: ScriptedLLMServer
) -> None:
    answer, reason = BAD_PLANNER_ANSWERS[case]
    llm_server.script(answer)

    planner = engine.read(NO_PLASTIC, Conversation(session=empty_session()))

    assert planner == rules.read(NO_PLASTIC, Conversation(session=empty_session()))
    counters = engine.counters.snapshot()
    assert counters["fallbacks"] == {reason: 1}
    assert counters["fallbacks_by_operation"] == {"plan": 1}


BAD_CURATOR_ANSWERS = {
    "truncated JSON": (ScriptedAnswer.text('{"long_term": [{"polarity": '), "malformed_json"),
    "wrong category enum": (
        ScriptedAnswer.json(curator_answer(long_term("plastic", category="fabric"))),
        "invalid",
    ),
    "Chinese domain": (
        ScriptedAnswer.json(curator_answer(long_term("plastic", domain="电子产品"))),
        "invalid",
    ),
    "plural slug with spaces": (
        ScriptedAnswer.json(curator_answer(long_term("Plastic Parts"))),
        "invalid",
    ),
    "supplied key": (
        ScriptedAnswer.json(
            curator_answer(long_term("plastic", dedup_key="dislike:material:electronics:plastic"))
        ),
        "supplied_key",
    ),
    "supersede as key strings": (
        ScriptedAnswer.json(
            {**curator_answer(long_term("plastic")), "supersede": ["like:material::plastic"]}
        ),
        "invalid",
    ),
    "session scope in long_term": (
        ScriptedAnswer.json(curator_answer(long_term("plastic", scope="session"))),
        "invalid",
    ),
    "HTTP 500": (ScriptedAnswer.http_error(503), "http_error"),
    "slow answer": (
        ScriptedAnswer.json(curator_answer(), delay_seconds=TIMEOUT_SECONDS * 10),
        "timeout",
    ),
}


@pytest.mark.parametrize("case", list(BAD_CURATOR_ANSWERS))
def test_bad_curator_answer_falls_back_to_rules_and_is_counted(
    case: str, engine: FallbackEngine, rules: RulesEngine, llm_server: ScriptedLLMServer
) -> None:
    answer, reason = BAD_CURATOR_ANSWERS[case]
    llm_server.script(answer)
    turn = turn_for(NO_PLASTIC)

    output = engine.curate(turn)

    expected = rules.curate(turn)
    assert output.model_dump(exclude={"long_term"}) == expected.model_dump(exclude={"long_term"})
    assert [e.dedup_key for e in output.long_term] == [e.dedup_key for e in expected.long_term]
    assert engine.counters.snapshot()["fallbacks"] == {reason: 1}


def test_fallback_logs_name_the_reason_but_never_the_users_words(
    engine: FallbackEngine, llm_server: ScriptedLLMServer, caplog: pytest.LogCaptureFixture
) -> None:
    llm_server.script(ScriptedAnswer.json(planner_answer(intent="buy")))

    with caplog.at_level(logging.INFO, logger="cartwise"):
        engine.read(NO_PLASTIC, Conversation(session=empty_session()))

    assert "fell back to rules (invalid)" in caplog.text
    assert "塑料" not in caplog.text and "耳机" not in caplog.text


def test_invented_keys_are_not_echoed_into_logs(
    engine: FallbackEngine, llm_server: ScriptedLLMServer, caplog: pytest.LogCaptureFixture
) -> None:
    llm_server.script(ScriptedAnswer.json({**planner_answer(), "不要塑料的耳机": True}))

    with caplog.at_level(logging.INFO, logger="cartwise"):
        engine.read(NO_PLASTIC, Conversation(session=empty_session()))

    assert "fields <key>" in caplog.text
    assert "塑料" not in caplog.text


# --- the guards ----------------------------------------------------------------------------


def test_like_inside_a_negation_is_corrected_to_a_dislike(
    engine: FallbackEngine, llm_server: ScriptedLLMServer, caplog: pytest.LogCaptureFixture
) -> None:
    message = "不要塑料的耳机"
    mixed_up = {**planner_answer()["stated"][0], "polarity": "like", "strength": "soft"}
    llm_server.script(
        ScriptedAnswer.json(planner_answer(stated=[mixed_up])),
        ScriptedAnswer.json(
            curator_answer(long_term("plastic", polarity="like", keywords=["plastic", "塑料"]))
        ),
    )

    with caplog.at_level(logging.WARNING, logger="cartwise"):
        planner = engine.read(message, Conversation(session=empty_session()))
        output = engine.curate(turn_for(message, planner=planner))

    assert [(s.polarity, s.strength, s.slug) for s in planner.stated] == [
        (Polarity.DISLIKE, Strength.HARD, "plastic")
    ]
    assert [e.dedup_key for e in output.long_term] == ["dislike:material:electronics:plastic"]
    assert engine.counters.snapshot()["polarity_corrections"] == 2
    assert "corrected to dislike" in caplog.text
    assert "塑料" not in caplog.text


@pytest.mark.parametrize(
    ("message", "query"),
    [(NO_PLASTIC, "不要塑料的耳机"), ("headphones without plastic", "headphones without plastic")],
)
def test_refused_term_never_stays_in_the_search_query(
    message: str,
    query: str,
    engine: FallbackEngine,
    rules: RulesEngine,
    llm_server: ScriptedLLMServer,
) -> None:
    llm_server.script(ScriptedAnswer.json(planner_answer(query=query)))

    planner = engine.read(message, Conversation(session=empty_session()))

    assert planner.query == rules.read(message, Conversation(session=empty_session())).query
    assert "plastic" not in planner.query and "塑料" not in planner.query
    assert engine.counters.snapshot()["query_corrections"] == 1


def test_safety_dislike_is_forced_global_and_hard(
    engine: FallbackEngine, llm_server: ScriptedLLMServer
) -> None:
    message = "我对花生过敏"
    peanut = long_term("peanut", category="other", domain="food", strength="soft")
    llm_server.script(ScriptedAnswer.json(curator_answer(peanut | {"keywords": ["花生"]})))

    output = engine.curate(turn_for(message))

    (entry,) = output.long_term
    assert (entry.polarity, entry.domain, entry.strength) == (Polarity.DISLIKE, "", Strength.HARD)
    assert engine.counters.snapshot()["safety_corrections"] == 1


def test_over_budget_rejection_never_becomes_a_brand_dislike(
    engine: FallbackEngine, llm_server: ScriptedLLMServer
) -> None:
    session = empty_session().model_copy(
        update={
            "rejected_options": [
                RejectedOption(
                    platform="jd", item_id="1", title="小米 降噪耳机", reason="over budget"
                )
            ]
        }
    )
    llm_server.script(
        ScriptedAnswer.json(curator_answer(long_term("xiaomi", category="brand", keywords=[])))
    )

    output = engine.curate(turn_for("这件超预算了", session=session))

    assert output.long_term == []
    assert engine.counters.snapshot()["dropped_entries"] == 1


def test_brand_named_in_a_price_complaint_is_not_disliked(
    engine: FallbackEngine, llm_server: ScriptedLLMServer
) -> None:
    brand = long_term("xiaomi", category="brand", domain="", keywords=["xiaomi", "小米"])
    llm_server.script(ScriptedAnswer.json(curator_answer(brand)))

    output = engine.curate(turn_for("小米这款太贵了，超预算了"))

    assert output.long_term == []
    assert engine.counters.snapshot()["dropped_entries"] == 1


def test_this_session_budget_stays_a_slot(
    engine: FallbackEngine, llm_server: ScriptedLLMServer
) -> None:
    message = "这次预算500"
    budget_as_preference = long_term("500", polarity="like", category="budget", domain="")
    llm_server.script(
        ScriptedAnswer.json(curator_answer(budget_as_preference, slots_patch={"budget_max": "500"}))
    )

    output = engine.curate(turn_for(message))

    assert output.long_term == []
    assert output.session_patch.slots_patch["budget_max"] == "500"
    assert engine.counters.snapshot()["scope_corrections"] == 1


# --- what reaches the stores ---------------------------------------------------------------


def apply(store: PreferenceStore, output: CuratorOutput) -> None:
    """What the agent does with a curator output (one atomic upsert per entry)."""
    for entry in output.long_term:
        store.upsert(USER, entry, supersede=output.supersede)
    if not output.long_term and output.supersede:
        store.supersede(USER, output.supersede)


def test_only_valid_correctly_labelled_entries_reach_the_stores(
    llm_settings: Settings, engine: FallbackEngine, llm_server: ScriptedLLMServer
) -> None:
    preferences = create_preference_store(llm_settings, create_embedder("hashing:64"))
    sessions = create_session_store(llm_settings)
    rejected = RejectedOption(platform="jd", item_id="9", title="小米 耳机", reason="over budget")
    mixed_up_planner = planner_answer(
        stated=[{**planner_answer()["stated"][0], "polarity": "like"}]
    )
    dialogue: list[tuple[str, list[ScriptedAnswer]]] = [
        (  # a like/dislike mix-up in both calls
            NO_PLASTIC,
            [
                ScriptedAnswer.json(mixed_up_planner),
                ScriptedAnswer.json(
                    curator_answer(
                        long_term("plastic", polarity="like", keywords=["塑料"]),
                        slots_patch={"budget_max": "500", "budget_currency": "CNY"},
                    )
                ),
            ],
        ),
        (  # the planner call fails, the curator answers garbage: rules answer both
            "我对花生过敏",
            [
                ScriptedAnswer.http_error(500),
                ScriptedAnswer.json(curator_answer(long_term("peanut", category="food"))),
            ],
        ),
        (  # a session budget labelled a long-term preference
            "这次预算500",
            [
                ScriptedAnswer.text("not json"),
                ScriptedAnswer.json(
                    curator_answer(
                        long_term("500", polarity="like", category="budget", domain=""),
                        slots_patch={"budget_max": "500"},
                    )
                ),
            ],
        ),
        (  # an over-budget rejection turned into a brand dislike, then a supplied key
            "这件超预算了",
            [
                ScriptedAnswer.json(planner_answer(intent="buy")),
                ScriptedAnswer.json(curator_answer(long_term("xiaomi", category="brand"))),
            ],
        ),
        (  # the slow answer
            "我一般不穿皮革的",
            [
                ScriptedAnswer.json(planner_answer(), delay_seconds=TIMEOUT_SECONDS * 10),
                ScriptedAnswer.json(
                    curator_answer(long_term("leather", keywords=["plastic"]) | {"key": "x"})
                ),
            ],
        ),
    ]
    sessions.patch(USER, THREAD, SessionPatch(rejected_options=[rejected]))
    for message, answers in dialogue:
        llm_server.script(*answers)
        session = sessions.get(USER, THREAD)
        memory = preferences.list(USER)
        planner = engine.read(message, Conversation(session=session, memory=memory))
        output = engine.curate(
            CuratorTurn(user_message=message, reading=planner, session=session, memory=memory)
        )
        apply(preferences, output)
        sessions.patch(USER, THREAD, output.session_patch)

    assert llm_server.pending == 0 and llm_server.unscripted == 0
    stored = preferences.list(USER)
    by_slug = {entry.slug: entry for entry in stored}
    for entry in stored:  # every stored entry re-validates from its own fields
        assert PreferenceEntry.model_validate(entry.model_dump(exclude={"dedup_key"})) == entry
    assert by_slug["plastic"].polarity is Polarity.DISLIKE
    assert not any(e.polarity is Polarity.LIKE and e.slug == "plastic" for e in stored)
    peanut = by_slug["peanut"]
    assert (peanut.polarity, peanut.domain, peanut.strength) == (
        Polarity.DISLIKE,
        "",
        Strength.HARD,
    )
    assert "xiaomi" not in by_slug, "a price rejection became a brand dislike"
    assert not any(e.category == "budget" for e in stored), "a session budget became long-term"
    keys = {e.dedup_key for e in stored}
    assert not any(e.opposite_key in keys for e in stored)
    state = sessions.get(USER, THREAD)
    assert state.slots["budget_max"] == "500"
    counters = engine.counters.snapshot()
    assert counters["polarity_corrections"] >= 2
    assert counters["fallbacks"]["http_error"] == 1
    assert counters["fallbacks"]["timeout"] == 1
    assert counters["fallbacks"]["supplied_key"] == 1
    preferences.close()
    sessions.close()


def test_retraction_supersedes_the_stored_dislike(
    llm_settings: Settings, engine: FallbackEngine, llm_server: ScriptedLLMServer
) -> None:
    preferences = create_preference_store(llm_settings, create_embedder("hashing:64"))
    stored = PreferenceEntry(
        polarity="dislike", category="material", domain="electronics", slug="plastic"
    )
    preferences.upsert(USER, stored)
    retract = {"polarity": "dislike", "category": "material", "domain": "", "slug": "plastic"}
    llm_server.script(ScriptedAnswer.json({**curator_answer(), "supersede": [retract]}))

    output = engine.curate(turn_for("其实塑料也可以", memory=[stored]))
    apply(preferences, output)

    assert stored.dedup_key in output.supersede
    assert preferences.list(USER) == []
    preferences.close()


# --- reply and factory ---------------------------------------------------------------------

FACTS = ReplyFacts(
    language="zh",
    query="耳机",
    items=[
        ReplyItem(platform="jd", title="降噪耳机", price=399.0, currency="CNY", price_base=399.0)
    ],
)


def test_reply_comes_from_the_llm(engine: FallbackEngine, llm_server: ScriptedLLMServer) -> None:
    llm_server.script(ScriptedAnswer.text("为你找到一款降噪耳机，399 元。"))

    assert engine.write_reply(FACTS) == "为你找到一款降噪耳机，399 元。"
    assert "never invent a product" in llm_server.requests[0]["messages"][0]["content"]


@pytest.mark.parametrize(
    "answer", [ScriptedAnswer.http_error(500), ScriptedAnswer.text("  ")], ids=["500", "empty"]
)
def test_failed_reply_falls_back_to_rules(
    answer: ScriptedAnswer,
    engine: FallbackEngine,
    rules: RulesEngine,
    llm_server: ScriptedLLMServer,
) -> None:
    llm_server.script(answer)

    assert engine.write_reply(FACTS) == rules.write_reply(FACTS)
    assert engine.counters.snapshot()["fallbacks_by_operation"] == {"reply": 1}


def test_create_engine_defaults_to_rules(settings: Settings) -> None:
    assert create_engine(settings).name == "rules"


def test_create_engine_builds_llm_engine(llm_settings: Settings) -> None:
    assert create_engine(llm_settings).name == "llm"


def test_llm_engine_without_base_url_is_a_configuration_error(settings: Settings) -> None:
    with pytest.raises(ConfigurationError, match="LLM_BASE_URL"):
        create_engine(settings.model_copy(update={"engine": "llm", "llm_base_url": ""}))


def test_curator_is_given_the_planner_output_of_the_same_turn(
    engine: FallbackEngine, llm_server: ScriptedLLMServer
) -> None:
    llm_server.script(ScriptedAnswer.json(planner_answer()), ScriptedAnswer.json(curator_answer()))
    planner = engine.read(NO_PLASTIC, Conversation(session=empty_session()))

    engine.curate(turn_for(NO_PLASTIC, planner=planner))

    curator_request = json.loads(llm_server.requests[1]["messages"][1]["content"])
    assert curator_request["reading"] == planner.model_dump(mode="json")
    assert curator_request["message"] == NO_PLASTIC
    assert llm_server.requests[1]["response_format"]["json_schema"]["name"] == "curator_output"


# --- whatever the model answers, nothing invalid comes out ----------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=8,
)


def mutated(answer: dict[str, Any], draw: st.DrawFn) -> dict[str, Any]:
    """The answer with a few fields (top level or inside its first list items) replaced."""
    result = json.loads(json.dumps(answer))
    for _ in range(draw(st.integers(1, 3))):
        target = result
        nested = [k for k, v in result.items() if isinstance(v, list) and v]
        nested_dicts = [k for k, v in result.items() if isinstance(v, dict) and v]
        where = draw(
            st.sampled_from(
                ["top", *(["list"] if nested else []), *(["dict"] if nested_dicts else [])]
            )
        )
        if where == "list":
            target = result[draw(st.sampled_from(nested))][0]
        elif where == "dict":
            target = result[draw(st.sampled_from(nested_dicts))]
        if isinstance(target, dict) and target:
            key = draw(st.sampled_from(sorted(target)))
            target[key] = draw(JSON_VALUES)
    return result


@st.composite
def planner_answers(draw: st.DrawFn) -> dict[str, Any]:
    return mutated(planner_answer(), draw)


@st.composite
def curator_answers(draw: st.DrawFn) -> dict[str, Any]:
    good = curator_answer(
        long_term("plastic", keywords=["plastic", "塑料"]),
        slots_patch={"budget_max": "500"},
    )
    good["supersede"] = [{"polarity": "like", "category": "material", "slug": "metal"}]
    return mutated(good, draw)


@hyp_settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(answer=planner_answers())
def test_any_planner_answer_yields_a_valid_plan(
    answer: dict[str, Any], engine: FallbackEngine, llm_server: ScriptedLLMServer
) -> None:
    llm_server.script(ScriptedAnswer.json(answer))

    planner = engine.read(NO_PLASTIC, Conversation(session=empty_session()))

    assert Reading.model_validate(planner.model_dump(mode="json")) == planner
    for item in [*planner.stated, *planner.constraints]:
        assert SLUG_PATTERN.fullmatch(item.slug)
    assert all(SLOT_NAME_PATTERN.fullmatch(name) for name in planner.slots)
    assert not any(s.polarity is Polarity.LIKE and s.slug == "plastic" for s in planner.stated), (
        "a negated slug came out as a like"
    )


@hyp_settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(answer=curator_answers())
def test_any_curator_answer_yields_valid_entries(
    answer: dict[str, Any], engine: FallbackEngine, llm_server: ScriptedLLMServer
) -> None:
    llm_server.script(ScriptedAnswer.json(answer))

    output = engine.curate(turn_for(NO_PLASTIC))

    for entry in output.long_term:
        assert PreferenceEntry.model_validate(entry.model_dump(exclude={"dedup_key"})) == entry
        assert not (entry.polarity is Polarity.LIKE and entry.slug == "plastic")
    for key in output.supersede:
        PreferenceEntry.parse_key(key)
    assert all(SLOT_NAME_PATTERN.fullmatch(n) for n in output.session_patch.slots_patch)


# --- issue 11: whose, how long ------------------------------------------------------------


def test_recipient_and_request_scope_pass_through_the_schema(
    engine: FallbackEngine, llm_server: ScriptedLLMServer
) -> None:
    message = "给我妈买条围巾，她不喜欢羊毛；除了优衣库都行"
    wool = {
        "polarity": "dislike",
        "category": "material",
        "slug": "wool",
        "domain": "clothing",
        "strength": "soft",
        "keywords": ["wool", "羊毛"],
        "scope": "long_term",
        "recipient": "mum",
    }
    uniqlo = {**wool, "category": "brand", "slug": "uniqlo", "keywords": ["优衣库"]}
    uniqlo.update(scope="request", strength="hard")
    llm_server.script(
        ScriptedAnswer.json(
            planner_answer(domain="clothing", query="围巾", slots={}, stated=[wool, uniqlo])
            | {"recipient": "mum"}
        ),
        ScriptedAnswer.json(
            curator_answer(
                long_term("wool", domain="clothing", strength="soft") | {"recipient": "mum"}
            )
        ),
    )

    planner = engine.read(message, Conversation(session=empty_session()))
    output = engine.curate(turn_for(message, planner=planner))

    assert planner.recipient == "mum"
    assert {(s.slug, s.scope, s.recipient) for s in planner.stated} == {
        ("wool", "long_term", "mum"),
        ("uniqlo", "request", "mum"),
    }
    assert output.long_term == []
    assert [(g.recipient, [e.dedup_key for e in g.long_term]) for g in output.recipients] == [
        ("mum", ["dislike:material:clothing:wool"])
    ]


def test_someone_elses_dislike_is_never_stored_as_the_shoppers_own(
    engine: FallbackEngine, llm_server: ScriptedLLMServer
) -> None:
    message = "我女朋友不喜欢紫色"
    purple = {
        "polarity": "dislike",
        "category": "color",
        "slug": "purple",
        "domain": "",
        "strength": "soft",
        "keywords": ["purple", "紫色"],
        "scope": "long_term",
    }
    llm_server.script(
        ScriptedAnswer.json(
            planner_answer(intent="preference", domain="", query="", slots={}, stated=[purple])
        ),
        ScriptedAnswer.json(
            curator_answer(long_term("purple", category="color", domain="", strength="soft"))
        ),
    )

    planner = engine.read(message, Conversation(session=empty_session()))
    output = engine.curate(turn_for(message))

    assert [(s.slug, s.recipient) for s in planner.stated] == [("purple", "girlfriend")]
    # The message is about her: the turn is for her too, whatever the model said.
    assert planner.recipient == "girlfriend"
    assert output.long_term == []
    assert [(g.recipient, [e.slug for e in g.long_term]) for g in output.recipients] == [
        ("girlfriend", ["purple"])
    ]
    assert engine.counters.snapshot()["recipient_corrections"] == 3


def test_an_except_exclusion_is_never_remembered(
    engine: FallbackEngine, llm_server: ScriptedLLMServer
) -> None:
    message = "除了小米别的都可以"
    xiaomi = {
        "polarity": "dislike",
        "category": "brand",
        "slug": "xiaomi",
        "domain": "",
        "strength": "hard",
        "keywords": ["xiaomi", "小米"],
        "scope": "long_term",
    }
    llm_server.script(
        ScriptedAnswer.json(planner_answer(domain="", query="", slots={}, stated=[xiaomi])),
        ScriptedAnswer.json(curator_answer(long_term("xiaomi", category="brand", domain=""))),
    )

    planner = engine.read(message, Conversation(session=empty_session()))
    output = engine.curate(turn_for(message))

    assert [(s.slug, s.scope) for s in planner.stated] == [("xiaomi", "request")]
    assert output.long_term == []
    assert engine.counters.snapshot()["scope_corrections"] == 2


def test_a_recipient_that_is_not_a_slug_is_a_bad_answer(
    engine: FallbackEngine, llm_server: ScriptedLLMServer
) -> None:
    llm_server.script(ScriptedAnswer.json(planner_answer() | {"recipient": "My Mum"}))

    planner = engine.read(NO_PLASTIC, Conversation(session=empty_session()))

    assert planner.recipient == "self"  # the rules fallback
    assert engine.counters.snapshot()["fallbacks"]
