"""item_picker: each hard filter with its mechanical reason, ranking, platform diversity,
and width/case/script-insensitive term matching."""

from __future__ import annotations

from cartwise.agent.context import turn_context
from cartwise.agent.picker import Budget, PickCriteria, budget_from_slots, item_picker
from cartwise.agent.state import Candidate
from cartwise.catalog.terms import TermMatcher
from cartwise.settings import Settings
from cartwise.text import fold
from cartwise.understanding.rules.sizes import parse_size_answer
from tests.factories import make_product


def candidate(
    item_id: str, *, score: float = 0.5, platform: str = "jd", **fields: object
) -> Candidate:
    return Candidate(product=make_product(item_id, platform=platform, **fields), score=score)


def exclude(*terms: str) -> PickCriteria:
    return PickCriteria(exclude=TermMatcher.of(terms))


def test_excluded_term_in_title_brand_attributes_or_description_eliminates() -> None:
    candidates = [
        candidate("title", title="Plastic earbuds"),
        candidate("brand", title="earbuds", brand="PlasticWorks Plastic"),
        candidate("attr", title="earbuds", attributes={"material": ["plastic"]}),
        candidate("desc", title="earbuds", description="A light shell made of plastic."),
        candidate("clean", title="wooden earbuds", attributes={"material": ["wood"]}),
    ]
    outcome = item_picker(candidates, exclude("plastic"))
    assert [p.candidate.product.item_id for p in outcome.picks] == ["clean"]
    assert {r.item_id: r.reason for r in outcome.rejected} == {
        "title": "contains excluded term plastic",
        "brand": "contains excluded term plastic",
        "attr": "contains excluded term plastic",
        "desc": "contains excluded term plastic",
    }
    assert outcome.filtered_out == {"excluded_term": 4}


def test_matching_is_case_and_width_insensitive() -> None:
    outcome = item_picker(
        [candidate("wide", title="ＰＬＡＳＴＩＣ shell"), candidate("upper", title="PLASTIC case")],
        exclude("Plastic"),
    )
    assert outcome.picks == []
    assert len(outcome.rejected) == 2


def test_chinese_dislike_catches_english_listing_through_bilingual_keywords() -> None:
    # A "不要塑料" entry carries keywords in every language seen: ["塑料", "塑胶", "plastic"].
    outcome = item_picker(
        [
            candidate("en", title="Over-ear headphones, plastic headband"),
            candidate("zh", title="头戴式耳机 塑料外壳"),
            candidate("ok", title="头戴式耳机 金属 metal"),
        ],
        exclude("塑料", "塑胶", "plastic"),
    )
    assert [p.candidate.product.item_id for p in outcome.picks] == ["ok"]
    assert {r.item_id for r in outcome.rejected} == {"en", "zh"}


def test_ascii_terms_match_whole_words_with_plurals() -> None:
    matcher = TermMatcher.of(["plastic", "wood"])
    assert matcher.first_match(fold("recycled plastics")) == "plastic"
    assert matcher.first_match(fold("plasticity of the foam")) is None
    assert matcher.first_match(fold("Hollywood edition")) is None
    assert matcher.first_match(fold("塑料plastic外壳")) == "plastic"


def test_over_budget_is_rejected_with_amounts_in_the_base_currency() -> None:
    criteria = PickCriteria(budget=Budget(max_base=300.0, base_currency="CNY"))
    outcome = item_picker(
        [candidate("dear", price=629.0), candidate("cheap", price=199.0)], criteria
    )
    assert [p.candidate.product.item_id for p in outcome.picks] == ["cheap"]
    assert outcome.rejected[0].reason == "over budget (629 > 300 CNY)"
    assert outcome.filtered_out == {"over_budget": 1}


def test_budget_slots_convert_foreign_currency_to_base(settings: Settings) -> None:
    budget = budget_from_slots({"budget_max": "50", "budget_currency": "USD"}, settings)
    assert budget.max_base == round(50 * settings.fx_to_base["USD"], 2)
    assert budget_from_slots({"budget_min": "100"}, settings).min_base == 100.0
    assert not budget_from_slots({}, settings).is_set


def test_budget_minimum_rejects_cheaper_items() -> None:
    outcome = item_picker(
        [candidate("toy", price=20.0), candidate("real", price=150.0)],
        PickCriteria(budget=Budget(min_base=100.0)),
    )
    assert outcome.rejected[0].reason == "under budget minimum (20 < 100 CNY)"


def test_size_slot_applies_only_to_products_that_list_sizes() -> None:
    outcome = item_picker(
        [
            candidate("no42", attributes={"sizes": ["40", "41"]}),
            candidate("has42", attributes={"sizes": ["41", "42码"]}),
            candidate("unsized"),
        ],
        PickCriteria(size="42"),
    )
    assert {p.candidate.product.item_id for p in outcome.picks} == {"has42", "unsized"}
    assert outcome.rejected[0].reason == "size 42 not available"


def test_out_of_stock_is_rejected() -> None:
    outcome = item_picker([candidate("gone", in_stock=False)], PickCriteria())
    assert outcome.rejected[0].reason == "out of stock"


def test_first_failing_filter_names_the_reason() -> None:
    outcome = item_picker(
        [candidate("both", title="plastic kettle", price=900.0)],
        PickCriteria(exclude=TermMatcher.of(["plastic"]), budget=Budget(max_base=300.0)),
    )
    assert outcome.rejected[0].reason == "contains excluded term plastic"


def test_rejections_go_to_the_turns_accumulator() -> None:
    with turn_context("u", "t", None) as accumulator:
        item_picker([candidate("dear", price=999.0)], PickCriteria(budget=Budget(max_base=10.0)))
    assert [r.item_id for r in accumulator] == ["dear"]


def test_likes_raise_the_rank_and_explain_why() -> None:
    criteria = PickCriteria(like=TermMatcher.of(["wood", "木质"]))
    outcome = item_picker(
        [
            candidate("plain", title="headphones", score=0.50),
            candidate("wooden", title="headphones walnut wood cups", score=0.49),
        ],
        criteria,
        language="en",
    )
    assert [p.candidate.product.item_id for p in outcome.picks] == ["wooden", "plain"]
    assert outcome.picks[0].why[0] == "matches what you like: wood"


def test_rating_breaks_ties_but_does_not_beat_relevance() -> None:
    outcome = item_picker(
        [
            candidate("relevant", score=1.0, rating=3.0),
            candidate("rated", score=0.7, rating=5.0),
            candidate("tied", score=0.7, rating=3.0),
        ],
        PickCriteria(),
    )
    assert [p.candidate.product.item_id for p in outcome.picks] == ["relevant", "rated", "tied"]


def test_shortlist_is_diverse_across_platforms() -> None:
    candidates = [candidate(f"jd{i}", platform="jd", score=0.9 - i * 0.01) for i in range(5)]
    candidates += [candidate(f"tb{i}", platform="taobao", score=0.5 - i * 0.01) for i in range(2)]
    outcome = item_picker(candidates, PickCriteria(max_picks=4))
    assert [p.candidate.product.key for p in outcome.picks] == [
        "jd:jd0",
        "taobao:tb0",
        "jd:jd1",
        "taobao:tb1",
    ]
    assert len(outcome.survivors) == 7


def test_duplicate_candidates_are_considered_once() -> None:
    outcome = item_picker([candidate("a"), candidate("a")], PickCriteria())
    assert len(outcome.picks) == 1


def test_why_is_written_in_the_users_language() -> None:
    outcome = item_picker(
        [candidate("a", price=100.0)], PickCriteria(budget=Budget(max_base=300.0)), language="zh"
    )
    # The amount is said once by the reply, in the shopper's currency, not per item in CNY.
    assert outcome.picks[0].why == ["在预算内"]


def test_a_mention_the_listing_negates_does_not_count() -> None:
    matcher = TermMatcher.of(["plastic", "塑料"])
    for negated in (
        "Plastic-free packaging",
        "non-plastic frame",
        "no plastic parts",
        "无塑料包装",
        "不含塑料",
    ):
        assert matcher.first_match(fold(negated)) is None, negated
    for kept in (
        "BPA-free plastic bottle",
        "plastic cups, plastic-free box",
        "塑料外壳",
        "无线 塑料耳机",
    ):
        assert matcher.first_match(fold(kept)) is not None, kept


def test_a_soft_dislike_ranks_lower_says_why_and_is_never_rejected() -> None:
    candidates = [
        candidate("purple", title="wool scarf purple", score=0.9),
        candidate("grey", title="wool scarf grey", score=0.85),
        candidate("blue", title="wool scarf blue", score=0.8),
    ]
    criteria = PickCriteria(demote=TermMatcher.of(["purple", "紫色"]))
    with turn_context("ann", "t1", None) as rejections:
        outcome = item_picker(candidates, criteria, language="en")
    order = [p.candidate.product.item_id for p in outcome.picks]
    assert order == ["grey", "blue", "purple"]  # still offered, last
    assert outcome.rejected == [] and outcome.filtered_out == {} and rejections == []
    [demoted] = outcome.demoted
    assert demoted.item_id == "purple"
    assert demoted.reason == "ranked lower: you're not keen on purple"
    assert outcome.picks[-1].why[0] == "ranked lower: you're not keen on purple"
    zh = item_picker(candidates, criteria, language="zh")
    assert zh.demoted[0].reason == "排序靠后：你不太喜欢purple"


def test_a_much_better_match_still_leads_despite_a_soft_dislike() -> None:
    candidates = [
        candidate("purple", title="wool scarf purple", score=1.0),
        candidate("grey", title="grey beanie", score=0.5),
    ]
    outcome = item_picker(candidates, PickCriteria(demote=TermMatcher.of(["purple"])))
    assert [p.candidate.product.item_id for p in outcome.picks] == ["purple", "grey"]


def test_hyphenated_terms_match_hyphenated_spaced_and_joined_text() -> None:
    for term, texts in (
        ("faux-leather", ("Faux-Leather Jacket", "faux leather tote", "FauxLeather belt")),
        ("second-hand", ("Second-hand camera", "second hand lens", "secondhand books")),
        ("slim-fit", ("Slim-Fit Chinos", "slim fit shirt")),
    ):
        matcher = TermMatcher.of([term])
        for text in texts:
            assert matcher.first_match(fold(text)) is not None, (term, text)
    assert TermMatcher.of(["slim-fit"]).first_match(fold("slim profile, loose fit")) is None


def test_free_and_less_negate_only_when_attached() -> None:
    latex = TermMatcher.of(["latex"])
    plastic = TermMatcher.of(["plastic"])
    assert latex.first_match(fold("Latex-free gloves")) is None
    assert plastic.first_match(fold("plastic-free straws")) is None
    # A detached "free" is about something else: the allergy filter must still exclude.
    assert plastic.first_match(fold("ABS plastic free gift")) == "plastic"
    assert latex.first_match(fold("latex - free returns")) == "latex"
    assert latex.first_match(fold("Latex pillow, free shipping")) == "latex"


def test_a_2xl_request_matches_a_listing_that_writes_2xl() -> None:
    """Regression: the planner writes 2XL as XXL, and the picker compared that against the
    listing's own "2XL" without the same normalization, rejecting the one fitting product."""
    requested = parse_size_answer("2XL")
    assert requested == "XXL"
    outcome = item_picker(
        [candidate("hoodie", attributes={"sizes": ["XL", "2XL"]})], PickCriteria(size=requested)
    )
    assert [p.candidate.product.item_id for p in outcome.picks] == ["hoodie"]
    assert outcome.rejected == []


def test_a_model_on_two_platforms_names_the_rating_of_the_offer_it_shows() -> None:
    """The card shows the cheapest offer and its stars; its why must quote that offer's
    rating, not the better-rated dearer one's."""
    shared = {"brand": "Sony", "attributes": {"model": ["WH-CH720N"]}, "title": "Sony WH-CH720N"}
    dear = make_product("1", platform="jd", price=699.0, rating=4.9, **shared)
    cheap = make_product("2", platform="taobao", price=599.0, rating=4.6, **shared)
    with turn_context("u", "t", None):
        outcome = item_picker(
            [Candidate(product=dear, score=1.0), Candidate(product=cheap, score=0.9)],
            PickCriteria(),
            language="en",
        )
    [pick] = outcome.picks
    assert pick.candidate.product.item_id == "2" and len(pick.offers) == 2
    assert "rated 4.6" in pick.why and "rated 4.9" not in pick.why
