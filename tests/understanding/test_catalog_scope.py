"""The not-carried decision's rules, on their own (no search, no model)."""

from __future__ import annotations

from cartwise.catalog.product import Domain
from cartwise.understanding.catalog_scope import (
    CatalogTypes,
    closest_type,
    judge_request,
    names_gap,
)
from tests.factories import make_product

TYPES = CatalogTypes(present=frozenset({"earbuds", "raincoat"}))


def test_services_tickets_and_finance_are_never_carried_even_when_a_type_is_named() -> None:
    verdict = judge_request("手机话费充值", types=TYPES, best_similarity=0.99, floor=0.5)
    assert not verdict.carried and verdict.kind == "service"
    assert judge_request("concert tickets", types=TYPES, best_similarity=0.99, floor=0.5).kind == (
        "ticket"
    )


def test_a_named_type_with_offers_is_carried_whatever_the_similarity() -> None:
    verdict = judge_request("wireless earbuds", types=TYPES, best_similarity=0.1, floor=0.9)
    assert verdict.carried and verdict.rule == "catalog_type"


def test_a_named_type_without_offers_is_not_carried() -> None:
    verdict = judge_request("a bookshelf", types=TYPES, best_similarity=0.99, floor=0.5)
    assert not verdict.carried and verdict.rule == "missing_type" and verdict.kind == ""


def test_vehicles_property_and_animals_are_not_carried() -> None:
    for request, kind in (("used car", "vehicle"), ("二手房", "property"), ("小猫", "animal")):
        verdict = judge_request(request, types=TYPES, best_similarity=0.99, floor=0.5)
        assert (verdict.carried, verdict.kind) == (False, kind), request


def test_an_unknown_request_is_decided_by_the_relevance_floor() -> None:
    assert judge_request("zorbulator", types=TYPES, best_similarity=0.91, floor=0.9).carried
    assert not judge_request("zorbulator", types=TYPES, best_similarity=0.89, floor=0.9).carried


def test_a_search_its_filters_emptied_is_no_verdict_of_not_carried() -> None:
    verdict = judge_request("zorbulator", types=TYPES, best_similarity=None, floor=0.9)
    assert verdict.carried
    assert verdict.rule == "no_hits"


def test_category_names_of_untyped_listings_count_as_types() -> None:
    untyped = CatalogTypes.of_products(
        [make_product("1", category_raw="Home & Kitchen › Lighting › Desk Lamps")]
    )
    assert untyped.named_by_category("an led desk lamp")
    assert judge_request("desk lamp", types=untyped, best_similarity=0.0, floor=0.9).carried


def test_the_closest_carried_type_is_named_only_when_close_enough() -> None:
    coat = make_product("c", title="Trench coat", domain=Domain.CLOTHING, product_type="raincoat")
    verdict = judge_request("zorbulator", types=TYPES, best_similarity=0.5, floor=0.9)
    assert closest_type(verdict, [(coat, 0.86)], TYPES, "en", floor=0.85) == "Raincoat"
    assert closest_type(verdict, [(coat, 0.80)], TYPES, "en", floor=0.85) == ""
    car = judge_request("used car", types=TYPES, best_similarity=0.99, floor=0.5)
    assert closest_type(car, [(coat, 0.99)], TYPES, "en", floor=0.85) == ""


def test_a_generic_noun_names_the_types_it_ends_and_latin_names_end_nothing() -> None:
    from cartwise.understanding.catalog_scope import types_by_head

    assert {"earbuds", "over_ear_headphones"} <= {t.slug for t in types_by_head("耳机")}
    # "Kindle" is listed among the Chinese names of e-readers; "le" must not match "motorcycle".
    assert types_by_head("used motorcycle") == ()


GOODS = CatalogTypes(present=frozenset({"car_wash_kit", "dog_food", "cat_food"}))


def test_a_service_word_inside_the_name_of_goods_is_those_goods() -> None:
    for request in ("a car wash kit for the weekend", "洗车套装", "按摩椅"):
        verdict = judge_request(request, types=GOODS, best_similarity=0.99, floor=0.5)
        assert verdict.kind != "service", request
    alone = judge_request("找个地方洗车", types=GOODS, best_similarity=0.99, floor=0.5)
    assert (alone.carried, alone.kind) == (False, "service")


def test_something_for_a_pet_is_pet_goods_not_a_live_animal() -> None:
    verdict = judge_request(
        "anything for cat she is old", types=GOODS, best_similarity=0.1, floor=0.5, recipient="cat"
    )
    assert verdict.carried and verdict.rule == "pet_goods"
    wanted = judge_request("a kitten", types=GOODS, best_similarity=0.99, floor=0.5)
    assert (wanted.carried, wanted.kind) == (False, "animal")


def test_a_pet_named_while_shopping_pet_goods_is_whom_they_are_for() -> None:
    assert names_gap("狗狗专用的")
    assert not names_gap("狗狗专用的", for_pets=True)
    assert names_gap("上门洗澡服务", for_pets=True)


def test_a_live_animal_asked_for_is_not_carried_even_beside_a_pet_name() -> None:
    verdict = judge_request(
        "仓鼠 活体 包邮", types=GOODS, best_similarity=0.99, floor=0.5, recipient="hamster"
    )
    assert (verdict.carried, verdict.kind) == (False, "animal")
