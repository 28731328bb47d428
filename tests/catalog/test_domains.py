from __future__ import annotations

import pytest

from cartwise.catalog.domains import infer_domain
from cartwise.catalog.product import Domain


@pytest.mark.parametrize(
    ("category", "title", "domain"),
    [
        ("耳机/耳麦 > 头戴式", "索尼 WH-1000XM5", Domain.ELECTRONICS),
        ("数码 > 影音娱乐 > 耳机", "", Domain.ELECTRONICS),
        ("Electronics › Headphones › Over-Ear", "", Domain.ELECTRONICS),
        ("PC Components > Memory > Corsair", "", Domain.ELECTRONICS),
        ("运动鞋new > 跑步鞋", "李宁 赤兔6", Domain.SHOES),
        ("", "Nike Air Zoom running shoes", Domain.SHOES),
        ("女装 > 毛呢外套", "羊毛大衣", Domain.CLOTHING),
        ("Beauty & Hygiene > Skin Care", "", Domain.BEAUTY),
        ("Foodgrains, Oil & Masala > Rice", "", Domain.FOOD),
        ("母婴 > 尿裤湿巾 > 纸尿裤", "", Domain.BABY),
        ("Sports & Outdoors > Yoga Mats", "", Domain.SPORTS),
        ("Home & Kitchen > Cookware", "", Domain.HOME),
        ("Tools > Drills > Other", "", Domain.TOOLS),
    ],
)
def test_domain_is_inferred_from_category_and_title(
    category: str, title: str, domain: Domain
) -> None:
    assert infer_domain(category, title) is domain


def test_unknown_text_is_other_and_words_match_whole() -> None:
    assert infer_domain("", "program guide") is Domain.OTHER  # "ram" is not in "program"
    assert infer_domain("", "") is Domain.OTHER
