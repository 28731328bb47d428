"""price_compare: the same product across platforms, cheapest first, listed and base prices."""

from __future__ import annotations

from cartwise.agent.price_compare import compare_prices
from cartwise.catalog.model_identity import model_token
from tests.factories import make_product


def test_same_model_on_several_platforms_is_grouped_cheapest_first() -> None:
    products = [
        make_product(
            "1", platform="jd", title="Sony WH-1000XM5 降噪耳机", brand="Sony", price=2299.0
        ),
        make_product(
            "A9",
            platform="amazon",
            title="Sony WH1000XM5 Wireless Headphones",
            brand="SONY",
            price=299.0,
            currency="USD",
            price_base=2128.88,
        ),
        make_product(
            "7", platform="taobao", title="索尼 WH-1000XM5 头戴式", brand="sony", price=2199.0
        ),
        make_product("8", platform="taobao", title="Sony WH-CH720N", brand="Sony", price=599.0),
    ]
    [group] = compare_prices(products)
    assert [o.platform for o in group.offers] == ["amazon", "taobao", "jd"]
    amazon = group.offers[0]
    assert (amazon.price, amazon.currency, amazon.price_base) == (299.0, "USD", 2128.88)


def test_different_brands_with_equal_titles_are_not_the_same_product() -> None:
    products = [
        make_product("1", platform="jd", title="Running shoes", brand="Nike"),
        make_product("2", platform="taobao", title="Running shoes", brand="Adidas"),
    ]
    assert compare_prices(products) == []


def test_equal_titles_without_model_numbers_match() -> None:
    products = [
        make_product(
            "1", platform="jd", title="Walnut Wood Headphones", brand="Woodio", price=500.0
        ),
        make_product(
            "2", platform="taobao", title="walnut wood headphones!", brand="woodio", price=450.0
        ),
    ]
    [group] = compare_prices(products)
    assert [o.item_id for o in group.offers] == ["2", "1"]


def test_one_platform_only_is_not_a_comparison_and_focus_limits_groups() -> None:
    a1 = make_product("1", platform="jd", title="Acme X100 kettle", brand="Acme", price=100.0)
    a2 = make_product("2", platform="jd", title="Acme X100 kettle", brand="Acme", price=90.0)
    b1 = make_product("3", platform="jd", title="Bolt B200 fan", brand="Bolt")
    b2 = make_product("4", platform="taobao", title="Bolt B200 fan", brand="Bolt")
    assert compare_prices([a1, a2]) == []
    assert compare_prices([a1, a2, b1, b2], focus=[a1]) == []
    assert len(compare_prices([a1, a2, b1, b2], focus=[b2])) == 1


def test_quantities_are_not_model_numbers() -> None:
    assert model_token(make_product("1", title="USB stick 256GB")) == ""
    assert model_token(make_product("2", title="Phone A2084 256GB")) == "a2084"
    assert (
        model_token(make_product("3", title="x", attributes={"model": ["WH-1000XM5"]}))
        == "wh1000xm5"
    )
