"""The labelled understanding dev set, its scorer, and the issue's "must show" bars."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cartwise.errors import InvalidInput
from cartwise.eval.statement_labels import load_labels, prefeval_correctness
from cartwise.eval.understanding_coverage import budget_coverage, webshop_budget_coverage
from cartwise.eval.understanding_dataset import DevCase, load_dev_set, score
from cartwise.understanding.base import CuratorOutput, CuratorTurn, ReplyFacts
from cartwise.understanding.reading import Conversation, Reading
from cartwise.understanding.rules.engine import RulesEngine


@pytest.fixture(scope="module")
def cases() -> list[DevCase]:
    return load_dev_set()


@pytest.fixture(scope="module")
def rules() -> RulesEngine:
    return RulesEngine()


def test_dev_set_is_large_bilingual_and_has_dialogues(cases: list[DevCase]) -> None:
    assert len(cases) >= 200
    chinese = sum(case.language == "zh" for case in cases)
    assert 0.4 <= chinese / len(cases) <= 0.6
    assert sum(len(case.turns) > 1 for case in cases) >= 20
    assert len({case.id for case in cases}) == len(cases)


def test_rules_engine_meets_the_must_show_bars_on_the_dev_set(
    cases: list[DevCase], rules: RulesEngine
) -> None:
    scores = score(rules, cases)
    assert scores.polarity_accuracy >= 0.98, scores.failures
    assert scores.dedup_key_f1 >= 0.90, scores.failures
    assert scores.slot_accuracy >= 0.95, scores.failures


class FlippingEngine:
    """The known LLM failure: every like/dislike the other way round."""

    name = "flipping"

    def __init__(self, inner: RulesEngine) -> None:
        self._inner = inner

    def read(self, message: str, conversation: Conversation) -> Reading:
        out = self._inner.read(message, conversation)
        flipped = [p.model_copy(update={"polarity": p.polarity.opposite}) for p in out.stated]
        return out.model_copy(update={"stated": flipped})

    def curate(self, turn: CuratorTurn) -> CuratorOutput:
        return self._inner.curate(turn)

    def write_reply(self, facts: ReplyFacts) -> str:
        return self._inner.write_reply(facts)


class SilentEngine(FlippingEngine):
    """Understands nothing."""

    name = "silent"

    def read(self, message: str, conversation: Conversation) -> Reading:
        return Reading()


def test_scorer_catches_polarity_flips_and_silence(
    cases: list[DevCase], rules: RulesEngine
) -> None:
    flipped = score(FlippingEngine(rules), cases)
    assert flipped.polarity_accuracy < 0.05
    assert flipped.dedup_key_f1 < 0.3
    silent = score(SilentEngine(rules), cases)
    assert silent.fields["slug"].recall == 0.0
    assert silent.slot_accuracy < 0.6
    assert "polarity" in silent.to_markdown()


def test_loader_rejects_a_malformed_case(tmp_path: Path) -> None:
    bad = tmp_path / "dev.jsonl"
    bad.write_text(
        json.dumps({"id": "x", "turns": ["hi"], "expect": {"stated": ["like/color"]}}) + "\n"
    )
    with pytest.raises(InvalidInput, match="polarity/category/slug"):
        load_dev_set(bad)
    bad.write_text("{not json\n")
    with pytest.raises(InvalidInput, match="invalid JSON"):
        load_dev_set(bad)


def test_price_ceilings_in_webshop_style_instructions(rules: RulesEngine) -> None:
    """The WebShop phrasing, written here (the shared copy may carry no prices)."""
    texts = [
        "i need a long clip-in hair extension which is natural looking, and price lower than 40.00 dollars",
        "i want a noise cancelling usb microphone, and price lower than 70.00 dollars",
        "find me gluten free crackers in a 6 pack, and price lower than 30.00 dollars",
        "i am looking for a white king size bed frame with storage, and price lower than 350.00 dollars",
        "a pair of size 9 women's sandals in black, and price lower than 25.50 dollars",
        "im looking for a 12 oz coffee mug, and price lower than 10.00 dollars",
        "i need 2 packs of sugar free gum, and price lower than 140.00 dollars",
        "i want a 10 inch subwoofer for my car and price lower than 100.00 dollars",
    ]
    coverage = budget_coverage(texts, rules)
    assert coverage.eligible == len(texts)
    assert coverage.share >= 0.95, coverage.misses


@pytest.mark.shared_data
def test_webshop_price_ceiling_parsed_exactly(shared_data: Path, rules: RulesEngine) -> None:
    path = shared_data / "nlu" / "webshop" / "human_goals.json"
    if not path.exists():
        pytest.skip("WebShop goals are absent")
    coverage = webshop_budget_coverage(path, rules)
    if coverage.eligible == 0:
        pytest.skip("this copy of WebShop states no price in any instruction")
    assert coverage.share >= 0.95, coverage.misses


@pytest.mark.shared_data
def test_prefeval_curator_precision_and_recall_on_hand_labels(
    shared_data: Path, rules: RulesEngine
) -> None:
    directory = shared_data / "memory" / "prefeval_explicit"
    if not directory.is_dir():
        pytest.skip("PrefEval explicit preferences are absent")
    scores = prefeval_correctness(directory, rules)
    assert scores.statements >= 200
    # Regression floors, not targets: 0.66/0.61 before issue 11, 0.88/0.83 after.
    assert scores.precision >= 0.85, scores.misses
    assert scores.recall >= 0.80, scores.misses


def test_statement_labels_are_references_only() -> None:
    """The labels never carry PrefEval's text (CC BY-NC data stays in ../shared/data)."""
    labels = load_labels()
    assert len(labels) >= 200
    for label in labels:
        assert set(label.model_dump()) == {"file", "index", "stored", "optional", "not_shopping"}
        assert label.not_shopping or label.stored or label.optional


def test_prefeval_scorer_counts_precision_recall_and_wrong_stores(rules: RulesEngine) -> None:
    from cartwise.eval.statement_labels import LabelledStatement, score_prefeval

    labels = [
        LabelledStatement(
            file="a.json", index=0, stored=[["dislike/material/leather"], ["dislike/material/wool"]]
        ),
        LabelledStatement(file="a.json", index=1, not_shopping=True),
        LabelledStatement(file="a.json", index=2, stored=[["dislike/material/plastic"]]),
    ]
    statements = [
        "I avoid leather and wool",
        "I never go to bed before midnight",
        "I love plastic",  # the wrong polarity: a polarity error, and a miss
    ]
    scores = score_prefeval(rules, labels, statements)
    assert (scores.required, scores.required_found) == (3, 2)
    assert (scores.stored, scores.stored_correct) == (3, 2)
    assert scores.polarity_errors == 1
    assert (scores.not_shopping, scores.not_shopping_stored) == (1, 0)


def test_poisoning_counts_own_hard_dislikes_from_words_that_are_not_the_shoppers(
    tmp_path: Path, rules: RulesEngine
) -> None:
    labelled = [
        # Labelled as not the shopper's own: the refusal the engine stores is poisoning.
        {"id": "en-poison-901", "turns": ["I refuse wool"], "expect": {"stated": []}},
        {
            "id": "en-poison-902",
            "turns": ["I refuse linen"],
            "expect": {"stated": ["dislike/material/linen//hard/long_term"]},
        },
        # A control that writes one more hard dislike than expected: not a statement.
        {
            "id": "en-poison-903",
            "turns": ["I refuse linen and wool"],
            "expect": {"stated": ["dislike/material/linen//hard/long_term"]},
        },
        # Not a poisoning case: counted nowhere.
        {"id": "en-neg-901", "turns": ["I refuse silk"], "expect": {"stated": []}},
    ]
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(json.dumps(case) + "\n" for case in labelled))
    poisoning = score(rules, load_dev_set(path)).poisoning
    assert (poisoning.statements, poisoning.poisoned) == (1, ["en-poison-901"])
    assert (poisoning.controls, poisoning.controls_kept) == (2, 2)
    assert poisoning.controls_overreaching == ["en-poison-903"]


def test_both_splits_hold_poisoning_cases_in_both_languages() -> None:
    for split in ("dev", "test"):
        poison = [c for c in load_dev_set(split=split) if c.kind == "poison"]
        assert sum(c.language == "zh" for c in poison) >= 15
        assert sum(c.language == "en" for c in poison) >= 15
