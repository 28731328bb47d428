"""`cartwise eval dialogue` on a slice of the set: the harness runs conversations through
`run_agent` and its checks can fail."""

from __future__ import annotations

from cartwise.commands.eval_dialogue import dialogue_agent
from cartwise.eval.dialogue import evaluate_dialogue, render_markdown
from cartwise.eval.dialogue_set import Conversation, dialogue_path, load_conversations
from cartwise.understanding.rules.engine import RulesEngine
from tests.agent.conftest import DepsFactory, make_deps  # noqa: F401  (fixture)


def test_both_splits_are_large_bilingual_and_disjoint() -> None:
    dev = load_conversations(dialogue_path("dev"))
    test = load_conversations(dialogue_path("test"))
    assert len(dev) + len(test) >= 200
    assert {c.language for c in dev} == {c.language for c in test} == {"zh", "en"}
    assert not {c.id for c in dev} & {c.id for c in test}
    # Only short follow-ups ("anything cheaper?") recur across splits; requests do not.
    recurring = {t.say for c in test for t in c.turns} & {t.say for c in dev for t in c.turns}
    assert all(len(say) <= 26 for say in recurring), recurring


def test_a_slice_of_the_dev_set_passes_every_check(make_deps: DepsFactory) -> None:  # noqa: F811
    deps = make_deps(RulesEngine())
    slice_ = [
        c
        for c in load_conversations(dialogue_path("dev"))
        if c.family in ("small_talk", "not_carried")
    ]
    report = evaluate_dialogue(dialogue_agent(deps), slice_, split="dev")
    assert report.conversations == len(slice_) >= 8
    assert report.failures == []
    assert set(report.capabilities) >= {"small_talk", "not_carried", "memory"}
    assert "| small_talk | 100.0%" in render_markdown([report])


def test_the_checks_fail_when_the_agent_does_not_do_what_is_expected(
    make_deps: DepsFactory,  # noqa: F811
) -> None:
    deps = make_deps(RulesEngine())
    wrong = Conversation.model_validate(
        {
            "id": "wrong",
            "family": "small_talk",
            "language": "en",
            "turns": [
                {"say": "hello", "expect": {"products": "some", "question": "size"}},
                {
                    "say": "over-ear headphones",
                    "expect": {"small_talk": True, "sort": "price_desc"},
                },
            ],
        }
    )
    report = evaluate_dialogue(dialogue_agent(deps), [wrong], split="dev")
    failed = {(f.turn, f.capability) for f in report.failures}
    assert {(0, "question"), (1, "small_talk"), (1, "sort")} <= failed
    assert report.conversations_passed == 0


def test_nothing_cheaper_is_honest_only_when_no_accepted_brand_is_cheaper() -> None:
    from cartwise.catalog.product import Domain
    from cartwise.eval.dialogue import CheapestByType
    from tests.factories import make_product

    sports = Domain.SPORTS
    dumbbells = [
        make_product("d1", title="Keep dumbbells", brand="Keep", price=99.0, domain=sports),
        make_product("d2", title="Decathlon dumbbells", brand="Decathlon", price=92.0),
        make_product("d3", title="Acme dumbbells", brand="Acme", price=50.0, in_stock=False),
    ]
    cheapest = CheapestByType(dumbbells)
    assert cheapest.cheaper_exists("dumbbells", 99.0)
    assert not cheapest.cheaper_exists("dumbbells", 99.0, ["decathlon"])
    assert not cheapest.cheaper_exists("dumbbells", 92.0)
