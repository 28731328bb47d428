"""Scoring of the act classifier: F1 arithmetic, our splits, the MG-ShopDial mapping."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import pytest

from cartwise.eval.acts import (
    CLASS_ACTS,
    F1,
    MG_INTENT_CLASS,
    MG_UNMAPPED,
    LabelledUtterance,
    MgUtterance,
    class_of,
    load_mg_shopdial,
    macro_f1,
    mg_target,
    render_markdown,
    score_mg_shopdial,
    score_split,
)
from cartwise.understanding.acts import ACTS, Act


def test_every_act_belongs_to_exactly_one_class() -> None:
    for act in ACTS:
        assert sum(act in acts for acts in CLASS_ACTS.values()) == 1
        assert act in CLASS_ACTS[class_of(act)]


def test_mapped_and_unmapped_intents_do_not_overlap() -> None:
    assert not set(MG_INTENT_CLASS) & set(MG_UNMAPPED)


def test_f1_arithmetic() -> None:
    score = F1()
    for predicted, gold in [(True, True), (True, False), (False, True), (True, True)]:
        score.add(predicted, gold)
    assert (score.precision, score.recall) == (pytest.approx(2 / 3), pytest.approx(2 / 3))
    assert score.f1 == pytest.approx(2 / 3)
    assert macro_f1([score, F1()]) == pytest.approx(2 / 3)  # labels absent from gold skipped


def test_score_split_counts_exact_sets_and_per_act() -> None:
    utterances = [
        LabelledUtterance(
            id="1", lang="en", text="hi, headphones?", acts=[Act.SMALL_TALK, Act.REQUEST]
        ),
        LabelledUtterance(id="2", lang="en", text="thanks", acts=[Act.THANKS]),
    ]
    said = {"hi, headphones?": frozenset({Act.REQUEST}), "thanks": frozenset({Act.THANKS})}
    score = score_split(utterances, said.__getitem__, split="dev")
    assert (score.exact, score.utterances) == (1, 2)
    assert score.per_act["small_talk"].false_negative == 1
    assert score.per_act["request"].true_positive == 1
    assert len(score.mistakes) == 1


@pytest.mark.parametrize(
    ("intents", "target"),
    [
        (("o_question",), "question"),
        (("clarify", "o_question"), "question"),
        (("greeting",), "social"),
        (("disclose",), "need"),
        (("answer",), None),  # no counterpart
        (("answer", "disclose"), None),  # a tied top intent without counterpart
        (("disclose", "greeting"), None),  # tied across classes
        ((), None),
    ],
)
def test_mg_target(intents: tuple[str, ...], target: str | None) -> None:
    assert mg_target(intents)[0] == target


def test_score_mg_shopdial_uses_the_likeliest_act_and_counts_left_out() -> None:
    utterances = [
        MgUtterance("d", "how much is it?", ("clarify",)),
        MgUtterance("d", "thank you!", ("greeting",)),
        MgUtterance("d", "I see", ("interaction",)),
    ]
    table: dict[str, dict[Act, float]] = {
        "how much is it?": {Act.REQUEST: 0.6, Act.ITEM_QUESTION: 0.55},
        "thank you!": {Act.THANKS: 0.9, Act.REQUEST: 0.1},
        "I see": {Act.SMALL_TALK: 0.8},
    }

    def decide(scores: Mapping[Act, float]) -> frozenset[Act]:
        return frozenset(a for a, p in scores.items() if p >= 0.5)

    result = score_mg_shopdial(utterances, table.__getitem__, decide)
    assert (result.scored, result.correct, result.any_taken_correct) == (2, 1, 2)
    assert sum(result.excluded.values()) == 1
    assert result.per_class["question"].false_negative == 1
    assert result.confusion["interaction"] == {"small_talk": 1}
    assert "MG-ShopDial" in render_markdown([], result, mistakes=3)
    assert "how much is it?" not in render_markdown([], result, mistakes=3)
    assert "how much is it?" in render_markdown([], result, mistakes=3, quote_external=True)


def test_load_mg_shopdial_keeps_the_shoppers_top_voted_intents(tmp_path: Path) -> None:
    dialogue = {
        "id": "Books:1",
        "utterances": [
            {"participant": "Wizard", "utterance": "Hello", "intents": [["greeting", 4.0]]},
            {
                "participant": "Client",
                "utterance": "hi, a thriller?",
                "intents": [["greeting", 3.0], ["disclose", 3.0], ["interaction", 2.0]],
            },
        ],
    }
    path = tmp_path / "mg.json"
    path.write_text(json.dumps([dialogue]), encoding="utf-8")
    utterances, wizard = load_mg_shopdial(path)
    assert wizard == 1
    assert utterances == [MgUtterance("Books:1", "hi, a thriller?", ("disclose", "greeting"))]


@pytest.mark.shared_data
def test_real_mg_shopdial_loads_and_most_intents_are_known(shared_data: Path) -> None:
    utterances, wizard = load_mg_shopdial(shared_data / "memory/mg_shopdial/MGShopDial.json")
    assert utterances and wizard
    known = set(MG_INTENT_CLASS) | set(MG_UNMAPPED)
    assert all(i in known for u in utterances for i in u.intents)
