"""The natural set's format and the rules that keep its checks fair to the catalog."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cartwise.errors import InvalidInput
from cartwise.eval.natural_set import NaturalConversation, load_natural, own_set_path
from cartwise.eval.natural_verify import (
    Catalog,
    CheckFacts,
    ConversationFacts,
    Listing,
    Verifier,
    load_catalog,
    load_facts,
)

ROOT = Path(__file__).resolve().parents[2]


def listing(
    title: str,
    *,
    product_type: str = "kettle",
    brand: str = "Acme",
    model: str = "",
    price: float = 100.0,
    platform: str = "jd",
    in_stock: bool = True,
    sizes: tuple[str, ...] = (),
    description: str = "",
    **attributes: list[str],
) -> Listing:
    return Listing(
        platform=platform,
        item_id=f"{platform}-{title}",
        title=title.lower(),
        text=f"{title} {description}".lower(),
        brand=brand,
        model=model or title,
        product_type=product_type,
        price_base=price,
        in_stock=in_stock,
        sizes=frozenset(s.lower() for s in sizes),
        attributes=dict(attributes),
    )


def kettles(*prices: float, brand: str = "Acme") -> list[Listing]:
    return [
        listing(f"{brand} K{n} Electric Kettle", brand=brand, model=f"k{n}", price=price)
        for n, price in enumerate(prices)
    ]


def catalog(*listings: Listing) -> Catalog:
    return Catalog(listings=tuple(listings), type_names={"kettle": ("kettle", "电水壶")})


def problems(
    cat: Catalog,
    checks: list[dict[str, Any]],
    facts: list[dict[str, Any]],
    turns: int = 2,
    *,
    fx_to_base: dict[str, float] | None = None,
) -> list[str]:
    conversation = NaturalConversation.model_validate(
        {
            "id": "T1",
            "lang": "en",
            "kind": "test",
            "turns": [f"message {n}" for n in range(turns)],
            "checks": checks,
        }
    )
    entry = ConversationFacts(id="T1", checks=[CheckFacts.model_validate(f) for f in facts])
    verifier = Verifier(cat, page_size=2, fx_to_base=fx_to_base)
    return [p.rule for p in verifier.problems([conversation], {"T1": entry})]


KETTLE = {"types": ["kettle"]}


def test_a_word_list_must_cover_every_listing_of_its_type() -> None:
    cat = catalog(*kettles(50, 60, 70), listing("Acme Water Boiler", model="wb"))
    check = {"turn": 0, "title_each_any": ["kettle"]}
    assert problems(cat, [check], [KETTLE]) == ["coverage"]
    check["title_each_any"] = ["kettle", "boiler"]
    assert problems(cat, [check], [KETTLE]) == []


def test_a_brand_list_must_cover_the_brand_within_the_types() -> None:
    cat = catalog(*kettles(50, 60, 70, brand="Midea"), *kettles(80, brand="Bear"))
    check = {"turn": 0, "title_each_any": ["midea"]}
    assert problems(cat, [check], [{"types": ["kettle"], "brand": "Midea"}]) == []
    assert problems(cat, [check], [{"types": ["kettle"], "brand": "Bear"}]) == ["coverage"]


def test_a_turn_that_must_show_products_needs_three_models_meeting_its_constraints() -> None:
    check = {"turn": 0, "products": "nonempty", "title_each_any": ["kettle"], "max_price_base": 65}
    facts = {**KETTLE, "budget": [65, "CNY"]}
    assert problems(catalog(*kettles(50, 60, 70)), [check], [facts]) == ["enough_models"]
    assert problems(catalog(*kettles(50, 60, 64)), [check], [facts]) == []
    out_of_stock = listing("Acme K9 Electric Kettle", model="k9", price=40, in_stock=False)
    assert problems(catalog(*kettles(50, 60, 70), out_of_stock), [check], [facts]) == [
        "enough_models"
    ]


def test_size_and_excluded_words_narrow_the_models_counted() -> None:
    sized = [
        listing(f"Acme K{n} Electric Kettle", model=f"k{n}", sizes=("42",) if n else ())
        for n in range(4)
    ]
    check = {"turn": 0, "products": "nonempty", "title_each_any": ["kettle"]}
    assert problems(catalog(*sized), [check], [{**KETTLE, "size": "42"}]) == []
    check_none = {**check, "title_none": ["k1"]}
    assert problems(catalog(*sized), [check_none], [{**KETTLE, "size": "42"}]) == ["enough_models"]


def test_one_model_is_enough_for_a_search_for_one_brand() -> None:
    cat = catalog(*kettles(50, brand="Smeg"), *kettles(60, 70, 80))
    check = {"turn": 0, "products": "nonempty", "title_each_any": ["smeg"]}
    assert problems(cat, [check], [{"types": ["kettle"], "brand": "Smeg"}]) == ["enough_models"]
    facts = {"types": ["kettle"], "brand": "Smeg", "one_model": True}
    assert problems(cat, [check], [facts]) == []


def test_a_budget_is_the_amount_said_times_the_fx_rate() -> None:
    cat = catalog(*kettles(50, 60, 70))
    check = {"turn": 0, "max_price_base": 142.4}
    assert problems(cat, [check], [{**KETTLE, "budget": [20, "USD"]}]) == []
    assert problems(cat, [check], [{**KETTLE, "budget": [20, "SGD"]}]) == ["budget"]
    assert problems(cat, [check], [KETTLE]) == ["budget"]


def test_a_budget_in_a_currency_outside_the_table_must_be_clear_of_listing_prices() -> None:
    check = {"turn": 0, "max_price_base": 92.0}
    facts = {**KETTLE, "budget": [100, "HKD"]}
    without_hkd = {"CNY": 1.0}  # the currency table has HKD: take it out to test the rule
    assert problems(catalog(*kettles(50, 60, 120)), [check], [facts], fx_to_base=without_hkd) == []
    assert problems(catalog(*kettles(50, 60, 94)), [check], [facts], fx_to_base=without_hkd) == [
        "budget"
    ]


def test_more_needs_a_second_page() -> None:
    check = {"turn": 1, "no_overlap_prev": True, "title_each_any": ["kettle"]}
    facts = {**KETTLE, "second_page": True}
    assert problems(catalog(*kettles(50, 60)), [check], [facts]) == ["second_page"]
    assert problems(catalog(*kettles(50, 60, 70)), [check], [facts]) == []


def test_cheaper_needs_three_cheaper_models_of_other_brands() -> None:
    check = {"turn": 1, "cheaper_than_prev": True, "title_each_any": ["kettle"]}
    facts = {**KETTLE, "premium": "Smeg"}
    premium = kettles(500, brand="Smeg")
    assert problems(catalog(*premium, *kettles(50, 60, 70)), [check], [facts]) == []
    assert problems(catalog(*premium, *kettles(50, 60, 700)), [check], [facts]) == [
        "cheaper_models"
    ]


def offer(platform: str, price: float, *, in_stock: bool = True, model: str = "k1") -> Listing:
    return listing(
        f"Acme {model.upper()} Electric Kettle",
        model=model,
        platform=platform,
        price=price,
        in_stock=in_stock,
    )


def test_cheapest_platform_is_strict_in_stock_and_about_one_model() -> None:
    check = {"turn": 0, "names_cheapest": ["k1"]}
    facts = {"cheapest": "jd"}
    fair = catalog(offer("jd", 90), offer("taobao", 95), offer("amazon", 80, in_stock=False))
    assert problems(fair, [check], [facts]) == []
    tie = catalog(offer("jd", 90), offer("taobao", 90))
    assert problems(tie, [check], [facts]) == ["cheapest_platform"]
    one_platform = catalog(offer("jd", 90), offer("taobao", 95, in_stock=False))
    assert problems(one_platform, [check], [facts]) == ["cheapest_platform"]
    two_models = catalog(offer("jd", 90), offer("taobao", 95), offer("jd", 50, model="k10"))
    assert problems(two_models, [check], [facts]) == ["cheapest_platform"]


def test_a_spec_winner_must_be_named_by_reply_any() -> None:
    cat = catalog(
        listing("Acme K1 Electric Kettle", model="k1", capacity_l=["1.5"]),
        listing("Acme K2 Electric Kettle", model="k2", capacity_l=["1.7"]),
        listing("Acme K3 Electric Kettle", model="k3", capacity_l=["2"], in_stock=False),
    )
    spec = {**KETTLE, "spec": {"attribute": "capacity_l", "best": "max"}}
    assert problems(cat, [{"turn": 1, "reply_any": ["1.7"]}], [spec]) == []
    assert problems(cat, [{"turn": 1, "reply_any": ["2"]}], [spec]) == ["spec_winner"]


def test_an_unstated_spec_must_be_stated_nowhere() -> None:
    quiet = {"attributes": ["noise"], "words": ["db", "quiet"]}
    check = {"turn": 1, "reply_any": ["not state"]}
    facts = {**KETTLE, "unstated": quiet}
    assert problems(catalog(*kettles(50, 60)), [check], [facts]) == []
    noisy = listing("Acme K7 Electric Kettle", model="k7", noise_db=["40"])
    assert problems(catalog(*kettles(50), noisy), [check], [facts]) == ["unstated_spec"]
    said = listing("Acme K8 Electric Kettle", model="k8", description="Whisper quiet boil.")
    assert problems(catalog(*kettles(50), said), [check], [facts]) == ["unstated_spec"]


def test_a_gap_turn_asks_for_nothing_any_listing_or_type_name_mentions() -> None:
    cat = catalog(*kettles(50, 60, 70))
    assert problems(cat, [{"turn": 0, "gap": True}], [{"gap_words": ["sewing machine"]}]) == []
    assert problems(cat, [{"turn": 0, "gap": True}], [{"gap_words": ["k1"]}]) == ["gap_absent"]
    assert problems(cat, [{"turn": 0, "gap": True}], [{"gap_words": ["电水"]}]) == ["gap_absent"]
    assert problems(cat, [{"turn": 0, "gap": True}], [{}]) == ["gap_absent"]


def test_every_check_object_needs_its_facts_entry() -> None:
    conversation = NaturalConversation.model_validate(
        {"id": "T2", "lang": "zh", "kind": "x", "turns": ["a"], "checks": [{"turn": 0}]}
    )
    found = Verifier(catalog(*kettles(50))).problems([conversation], {})
    assert [p.rule for p in found] == ["facts"]


def write_lines(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


def test_the_format_rejects_unknown_keys_upper_case_words_and_turns_outside(
    tmp_path: Path,
) -> None:
    good = {"id": "X", "lang": "mix", "kind": "k", "turns": ["a", "b"], "checks": [{"turn": -1}]}
    (loaded,) = load_natural(write_lines(tmp_path / "ok.jsonl", [good]))
    assert loaded.turn_index(loaded.checks[0]) == 1
    for bad_check in (
        {"turn": 0, "title_has": ["x"]},
        {"turn": 0, "title_none": ["Red"]},
        {"turn": 2},
        {"turn": 0, "lt_has": [["dislike", None]]},
    ):
        path = write_lines(tmp_path / "bad.jsonl", [{**good, "checks": [bad_check]}])
        with pytest.raises(InvalidInput):
            load_natural(path)


def test_the_new_thread_message_is_the_last_turn_of_the_sequence() -> None:
    conversation = NaturalConversation.model_validate(
        {"id": "Y", "lang": "en", "kind": "k", "turns": ["a", "b"], "new_thread_then": "c"}
        | {"checks": []}
    )
    assert conversation.messages == ["a", "b", "c"]


@pytest.mark.slow  # reads the whole demo catalog: 7.5 s at load 5
def test_our_natural_set_is_fair_to_the_demo_catalog() -> None:
    conversations = load_natural(own_set_path("dev")) + load_natural(own_set_path("test"))
    cat = load_catalog(
        ROOT / "src/cartwise/catalog/demo/demo_catalog.jsonl.gz",
        ROOT / "src/cartwise/vocabulary/data/taxonomy.yml",
    )
    facts = load_facts(ROOT / "src/cartwise/eval/data/natural_facts.jsonl")
    assert [str(p) for p in Verifier(cat).problems(conversations, facts)] == []
    assert len(conversations) >= 120
    assert len({c.id for c in conversations}) == len(conversations)
