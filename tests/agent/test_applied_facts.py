"""How the reply names the brands a search was narrowed to."""

from __future__ import annotations

from cartwise.agent.nodes.picker import asked_brand_names
from cartwise.agent.state import Candidate, Pick
from cartwise.catalog.listing_text import listing_statement
from cartwise.understanding.reading import Followup, Reading
from tests.factories import make_product


def pick(brand: str) -> Pick:
    product = make_product(brand=brand, title=f"{brand} earbuds")
    return Pick(candidate=Candidate(product=product, score=1.0, score_query=1.0), rank_score=1.0)


def test_brands_are_named_as_said_or_as_listed_never_as_slugs() -> None:
    """Regression: the reply said 「品牌：philips」."""
    zh = Reading(language="zh", brands=["sony"], followup=Followup(kind="refine", narrow=["索尼"]))
    assert asked_brand_names(zh, [pick("Sony")], "zh") == ["索尼"]
    en = Reading(language="en", brands=["sony", "under-armour"])
    assert asked_brand_names(en, [pick("Sony")], "en") == ["Sony", "Under Armour"]


def test_a_question_about_an_attribute_is_answered_by_its_listed_values() -> None:
    """Regression: "这双有几种颜色" was answered "the listing does not state it" while the
    listing lists its colours."""
    shoe = make_product(
        title="李宁 Chitu 6 跑步鞋", attributes={"color": ["白色", "红色"], "sizes": ["42", "43"]}
    )
    assert listing_statement(shoe, "有几种颜色") == "color: 白色, 红色"
    assert listing_statement(shoe, "what sizes") == "sizes: 42, 43"
    assert listing_statement(shoe, "防水") == ""
