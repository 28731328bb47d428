from __future__ import annotations

import json
from pathlib import Path

import pytest

from cartwise.catalog.domains import infer_domain
from cartwise.catalog.product import Domain
from cartwise.catalog.taxonomy import domains


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
        ("Home & Kitchen > Cookware", "", Domain.KITCHEN),
        ("Kitchen, Garden & Pets", "Pedigree Adult Dry Dog Food", Domain.PETS),
        ("", "不粘锅 平底锅 28cm", Domain.KITCHEN),
        ("", "LEGO Classic Creative Bricks", Domain.TOYS),
        ("Tools > Drills > Other", "", Domain.TOOLS),
        # A name inside a longer word of the title is no name (拉面 in 撕拉|面膜), as in a
        # message the reader reads.
        ("", "去黑头撕拉面膜 男女通用", Domain.BEAUTY),
    ],
)
def test_domain_is_inferred_from_category_and_title(
    category: str, title: str, domain: Domain
) -> None:
    assert infer_domain(category, title) is domain


def test_unknown_text_is_other_and_words_match_whole() -> None:
    assert infer_domain("", "program guide") is Domain.OTHER  # "ram" is not in "program"
    assert infer_domain("", "") is Domain.OTHER


# Real listing titles of ../shared/data, one for each of the store's 21 domains, by their id:
# Taobao titles (catalogs/zh_titles_corpus.jsonl "id") and ShopSim listings
# (shopsim/products.jsonl "asin"). The titles themselves stay in the shared data.
REAL_TITLES = {
    "zh02470": Domain.APPLIANCES,  # 扫地机器人
    "739196139443": Domain.AUTOMOTIVE,  # 车贴
    "zh02143": Domain.BABY,  # 安抚奶嘴
    "zh00251": Domain.BAGS,  # 托特包
    "zh05579": Domain.BEAUTY,  # 气垫 bb 霜
    "zh00436": Domain.BOOKS,  # 教材书籍
    "zh08587": Domain.CLOTHING,  # 风衣
    "774765687642": Domain.ELECTRONICS,  # 磁轴键盘
    "zh01482": Domain.FOOD,  # 芒果干
    "zh05534": Domain.FURNITURE,  # 餐桌椅
    "567276712882": Domain.GARDEN,  # 肥料
    "zh01512": Domain.HOME,  # 乳胶枕头
    "822501165261": Domain.JEWELRY,  # 足金手镯
    "zh02708": Domain.KITCHEN,  # 铸铁炒菜锅
    "zh03597": Domain.OUTDOOR,  # 户外伞
    "914762235143": Domain.PETS,  # 狗粮
    "zh00276": Domain.SHOES,  # 板鞋
    "710890650923": Domain.SPORTS,  # 乒乓球拍
    "zh07015": Domain.STATIONERY,  # 钢笔字帖
    "zh00990": Domain.TOOLS,  # 木工夹子
    "857432892572": Domain.TOYS,  # 积木益智玩具
}


def _real_titles(shared: Path) -> dict[str, str]:
    titles: dict[str, str] = {}
    for path, key in (
        (shared / "catalogs" / "zh_titles_corpus.jsonl", "id"),
        (shared / "shopsim" / "products.jsonl", "asin"),
    ):
        if not path.exists():
            pytest.skip(f"{path.name} is absent")
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if str(row.get(key)) in REAL_TITLES:
                titles[str(row[key])] = row["title"]
    return titles


@pytest.mark.shared_data
def test_every_domain_is_inferred_for_a_real_listing_title(shared_data: Path) -> None:
    assert {d.domain for d in domains()} == set(REAL_TITLES.values())
    titles = _real_titles(shared_data)
    wrong = {
        key: (infer_domain("", titles[key]).value, domain.value)
        for key, domain in REAL_TITLES.items()
        if infer_domain("", titles[key]) is not domain
    }
    assert len(titles) == len(REAL_TITLES)
    assert wrong == {}
