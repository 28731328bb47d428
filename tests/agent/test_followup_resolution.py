"""Resolving a plan against P_t (pure: no store, no index), the shortlist's arrangement, the
patch semantics of the conversation fields, and the direct answers' sentences."""

from __future__ import annotations

from cartwise.agent.answers import DirectAnswer, ItemFacts, OfferFact, render_answer
from cartwise.agent.followups import resolve, same_product_type, step_size
from cartwise.agent.shortlist import arrange, distinct_models
from cartwise.agent.state import Candidate, Pick
from cartwise.catalog.taxonomy import types_named_in
from cartwise.memory.session_state import (
    MAX_SHORTLIST,
    ActiveSearch,
    SessionPatch,
    SessionPrefState,
    ShownItem,
    apply_patch,
)
from cartwise.understanding.reading import Followup, Reading
from tests.factories import make_product


def shown(n: int, price: float, *, brand: str = "Nike", colors: tuple[str, ...] = ()) -> ShownItem:
    return ShownItem(
        platform="jd",
        item_id=f"i{n}",
        title=f"shoe {n}",
        price_base=price,
        product_type="running_shoes",
        brand=brand,
        model=f"{brand.lower()}|model:m{n}",
        colors=list(colors),
    )


def session_on_shoes(**fields: object) -> SessionPrefState:
    return SessionPrefState(
        thread="t",
        active_search=ActiveSearch(
            product_type="跑步鞋",
            phrase="跑步鞋",
            product_types=["running_shoes"],
            domain="shoes",
            exclusions={"xiaomi": ["xiaomi", "小米"]},
        ),
        shortlist=[
            shown(1, 300.0),
            shown(2, 200.0, brand="Adidas", colors=("red",)),
            shown(3, 500.0),
        ],
        slots={"size": "42"},
        **fields,  # type: ignore[arg-type]
    )


def plan(**fields: object) -> Reading:
    """A reading as the reader makes it: the catalog types its words name."""
    named = types_named_in(str(fields.get("query", ""))) or types_named_in(
        str(fields.get("product_type", ""))
    )
    return Reading.model_validate(
        {"language": "zh", "types": [kind.slug for kind in named], **fields}
    )


def test_cheaper_caps_below_the_whole_shortlist_and_keeps_the_search() -> None:
    session = session_on_shoes()
    result = resolve(
        plan(followup=Followup(kind="refine", price="lower")),
        session,
        query="",
        slots=dict(session.slots),
        plan_slots={},
    )
    assert result.runs_search and not result.new_search
    assert result.search is not None
    assert result.search.phrase == "跑步鞋" and result.search.max_price_base == 199.99
    assert result.search.exclusions == {"xiaomi": ["xiaomi", "小米"]}
    assert result.slots == {"size": "42"}


def test_cheaper_than_a_referenced_item() -> None:
    session = session_on_shoes()
    followup = Followup(kind="refine", price="lower", refs=[3])
    result = resolve(plan(followup=followup), session, query="", slots={}, plan_slots={})
    assert result.search is not None and result.search.max_price_base == 499.99
    assert [r.item_id for r in result.refs] == ["i3"]


def test_another_brand_and_colour_exclude_the_referenced_items() -> None:
    followup = Followup(kind="refine", other=["brand", "color"], refs=[2])
    result = resolve(plan(followup=followup), session_on_shoes(), query="", slots={}, plan_slots={})
    assert result.search is not None
    assert result.search.exclusions["adidas"] == ["Adidas"]
    assert result.search.exclusions["red"] == ["red"]
    assert result.search.exclusions["xiaomi"]  # the earlier exclusion holds


def test_more_pages_on_and_keeps_what_was_shown() -> None:
    session = session_on_shoes()
    assert session.active_search is not None
    session.active_search.shown_models.append("nike|model:m1")
    followup = Followup(kind="more", page_delta=1)
    result = resolve(plan(followup=followup), session, query="", slots={}, plan_slots={})
    assert result.search is not None and result.search.page == 2
    assert result.search.shown_models == ["nike|model:m1"]


def test_a_new_product_type_starts_afresh_without_the_old_slots() -> None:
    session = session_on_shoes()
    result = resolve(
        plan(product_type="头戴式耳机", query="头戴式耳机", domain="electronics"),
        session,
        query="头戴式耳机",
        slots={"size": "42"},
        plan_slots={},
    )
    assert result.new_search and result.search is not None
    assert result.search.product_types == ["over_ear_headphones"]
    assert result.slots == {} and result.search.exclusions == {}


def test_the_same_product_type_named_again_keeps_slots_and_exclusions() -> None:
    session = session_on_shoes()
    result = resolve(
        plan(product_type="跑步鞋", query="黑色跑步鞋"),
        session,
        query="黑色跑步鞋",
        slots={"size": "42"},
        plan_slots={},
    )
    assert result.new_search and result.search is not None
    assert result.slots == {"size": "42"} and "xiaomi" in result.search.exclusions


def test_compare_and_details_run_no_search() -> None:
    session = session_on_shoes(focus_item="jd:i3")
    compare = resolve(
        plan(followup=Followup(kind="compare", refs=[1, 3])),
        session,
        query="",
        slots={},
        plan_slots={},
    )
    assert not compare.runs_search and [r.item_id for r in compare.refs] == ["i1", "i3"]
    that_one = resolve(
        plan(followup=Followup(kind="details", refs=[0])),
        session,
        query="",
        slots={},
        plan_slots={},
    )
    assert [r.item_id for r in that_one.refs] == ["i3"]  # "it" is the item last talked about
    last = resolve(
        plan(followup=Followup(kind="details", refs=[-1])),
        session,
        query="",
        slots={},
        plan_slots={},
    )
    assert [r.item_id for r in last.refs] == ["i3"]
    beyond = resolve(
        plan(followup=Followup(kind="details", refs=[7])),
        session,
        query="",
        slots={},
        plan_slots={},
    )
    assert beyond.refs == [] and beyond.missing_refs == [7]


def test_chitchat_does_not_rerun_the_search() -> None:
    result = resolve(plan(intent="chitchat"), session_on_shoes(), query="", slots={}, plan_slots={})
    assert not result.runs_search


def test_product_types_and_sizes() -> None:
    search = ActiveSearch(product_type="跑鞋", phrase="跑鞋", product_types=["running_shoes"])
    assert same_product_type("跑步鞋", search)
    assert not same_product_type("头戴式耳机", search)
    untyped = ActiveSearch(product_type="running shoes", phrase="running shoes")
    assert same_product_type("shoes", untyped) and not same_product_type("boots", untyped)
    assert (step_size("42", 1), step_size("M", 1), step_size("xs", -1), step_size("xxs", -1)) == (
        "43",
        "L",
        "XXS",
        "",
    )


def pick(
    item_id: str, *, platform: str, model: str, price: float, score: float, **fields: object
) -> Pick:
    product = make_product(
        item_id, platform=platform, brand="Acme", title=f"Acme {model}", price=price,
        attributes={"model": [model]}, **fields,
    )  # fmt: skip
    return Pick(candidate=Candidate(product=product, score=score), rank_score=score)


def test_one_model_is_one_pick_showing_its_cheapest_offer() -> None:
    ranked = [
        pick("a-jd", platform="jd", model="X1", price=300.0, score=0.9),
        pick("a-tb", platform="taobao", model="X1", price=250.0, score=0.8),
        pick("b-jd", platform="jd", model="Y2", price=100.0, score=0.7),
    ]
    merged = distinct_models(ranked)
    assert [p.candidate.product.item_id for p in merged] == ["a-tb", "b-jd"]
    assert merged[0].rank_score == 0.9
    assert [o.item_id for o in merged[0].offers] == ["a-tb", "a-jd"]


def test_arrange_sorts_and_skips_models_already_shown() -> None:
    ranked = [
        pick(
            f"p{i}",
            platform="jd",
            model=f"M{i}",
            price=price,
            score=1 - i / 10,
            rating=rating,
            reviews=reviews,
        )
        for i, (price, rating, reviews) in enumerate([(300, 4.0, 5), (100, 4.9, 1), (200, 3.0, 50)])
    ]

    def ids(picks: list[Pick]) -> list[str]:
        return [p.candidate.product.item_id for p in picks]

    assert ids(arrange(ranked, limit=3, sort="price_asc")) == ["p1", "p2", "p0"]
    assert ids(arrange(ranked, limit=3, sort="price_desc")) == ["p0", "p2", "p1"]
    assert ids(arrange(ranked, limit=3, sort="rating")) == ["p1", "p0", "p2"]
    assert ids(arrange(ranked, limit=3, sort="reviews")) == ["p2", "p0", "p1"]
    assert ids(arrange(ranked, limit=3, skip_models={"acme|model:m0"})) == ["p1", "p2"]
    similar = {"jd:p2": 0.9, "jd:p0": 0.1, "jd:p1": 0.5}
    assert ids(arrange(ranked, limit=2, similarity=similar)) == ["p2", "p1"]


def test_the_shortlist_is_bounded_and_replaced_by_a_patch() -> None:
    state = SessionPrefState(thread="t", shortlist=[shown(1, 1.0)])
    items = [shown(n, float(n)) for n in range(MAX_SHORTLIST + 5)]
    after = apply_patch(state, SessionPatch(shortlist=items, focus_item="jd:i2"), max_rejected=10)
    assert len(after.shortlist) == MAX_SHORTLIST and after.focus_item == "jd:i2"
    untouched = apply_patch(after, SessionPatch(slots_patch={"size": "42"}), max_rejected=10)
    assert untouched.shortlist == after.shortlist


def test_the_cheapest_sentence_names_platform_price_and_saving() -> None:
    offers = [
        OfferFact(
            platform="taobao", item_id="1", price=2199.0, listed_price=2199.0, listed_currency="CNY"
        ),
        OfferFact(
            platform="jd", item_id="2", price=2299.0, listed_price=2299.0, listed_currency="CNY"
        ),
    ]
    item = ItemFacts(
        platform="taobao", item_id="1", title="Sony WH-1000XM5", price=2199.0, offers=offers
    )
    answer = DirectAnswer(
        kind="cheapest",
        currency="CNY",
        items=[item],
        cheapest=offers[0],
        runner_up=offers[1],
        saving=100.0,
    )
    zh = render_answer(answer, "zh").split("\n")
    assert zh[0] == "「Sony WH-1000XM5」在淘宝最便宜：¥2,199，比次便宜的京东（¥2,299）省 ¥100。"
    assert zh[1].startswith("各平台报价：淘宝")
    en = render_answer(answer, "en").split("\n")[0]
    assert en.startswith("Sony WH-1000XM5 is cheapest on Taobao: ¥2,199, ¥100 less")


def test_a_question_about_a_shown_item_naming_a_product_noun_answers_from_its_listing() -> None:
    """Regression: "does the first one contain nuts?" searched for nuts."""
    asked = plan(
        language="en",
        query="does contain nuts",
        followup={"kind": "details", "refs": [1], "asked": "contain nuts"},
    )
    resolution = resolve(
        asked, session_on_shoes(), query="does contain nuts", slots={}, plan_slots={}
    )
    assert resolution.kind == "details" and not resolution.runs_search
    assert [item.item_id for item in resolution.refs] == ["i1"]


def test_a_product_noun_without_a_reference_is_a_new_search() -> None:
    asked = plan(language="en", query="mixed nuts", followup={"kind": "details", "refs": []})
    resolution = resolve(asked, session_on_shoes(), query="mixed nuts", slots={}, plan_slots={})
    assert resolution.runs_search and resolution.new_search


def test_where_the_first_one_is_cheapest_prices_that_shown_item() -> None:
    asked = plan(language="en", query="great", followup={"kind": "cheapest", "refs": [1]})
    resolution = resolve(asked, session_on_shoes(), query="great", slots={}, plan_slots={})
    assert resolution.kind == "cheapest" and not resolution.runs_search
    assert [item.item_id for item in resolution.refs] == ["i1"]
