"""How often `infer_domain` gives a listing the domain its shop filed it under, on real
Taobao listings: the target listings of the ShopSim tasks (../shared/data/shopsim), whose
category path's first step is mapped to one of the store's domains below (first steps no
domain stands for — musical instruments, building materials, farm supplies… — are left
out). A development figure: the taxonomy's words were written with these listings in view.

    python scripts/measure_listing_domains.py     # title only, then category path + title
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from cartwise.catalog.domains import infer_domain

TASKS = (
    Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "shopsim" / "tasks_dev.jsonl"
)

# fmt: off
FIRST_STEP_DOMAIN = {
    "彩妆/香水/美妆工具": "beauty", "美容美体仪器": "beauty", "美容护肤/美体/精油": "beauty",
    "个人护理/保健/按摩器材": "beauty", "美发护发/假发": "beauty",
    "运动/瑜伽/健身/球迷用品": "sports", "自行车/骑行装备/零配件": "sports",
    "粮油调味/速食/干货/烘焙": "food", "咖啡/麦片/冲饮": "food", "茶": "food", "酒类": "food",
    "电玩/配件/游戏/攻略": "electronics", "影音电器": "electronics", "智能设备": "electronics",
    "电脑硬件/显示器/电脑周边": "electronics", "3C数码配件": "electronics",
    "数码相机/单反相机/摄像机": "electronics",
    "厨房/烹饪用具": "kitchen", "餐饮具": "kitchen",
    "生活电器": "appliances", "大家电": "appliances", "厨房电器": "appliances",
    "收纳整理": "home", "家居饰品": "home", "居家日用": "home", "家装灯饰光源": "home",
    "床上用品": "home",
    "住宅家具": "furniture", "商业/办公家具": "furniture",
    "箱包皮具/热销女包/男包": "bags",
    "五金/工具": "tools",
    "孕妇装/孕产妇用品/营养": "baby", "奶粉/辅食/营养品/零食": "baby", "婴童用品": "baby",
    "珠宝/钻石/翡翠": "jewelry", "黄金": "jewelry", "饰品/流行首饰/时尚饰品新": "jewelry",
    "文具电教/文化用品/商务用品": "stationery",
    "宠物/宠物食品及用品": "pets",
    "鲜花速递/花卉仿真/绿植园艺": "garden",
    "服饰配件/皮带/帽子/围巾": "clothing",
    "玩具/童车/益智/积木/模型": "toys", "模玩/动漫/周边/娃圈三坑/桌游": "toys",
    "汽车零部件/养护/美容/维保": "automotive", "汽车用品/电子/清洗/改装": "automotive",
    "户外/登山/野营/旅行用品": "outdoor",
    "书籍/杂志/报纸": "books",
}
# fmt: on


def main() -> int:
    if not TASKS.exists():
        print("../shared/data is absent")
        return 0
    tasks = [json.loads(line) for line in TASKS.read_text(encoding="utf-8").splitlines() if line]
    labelled = [
        (t["name"], t["category"], FIRST_STEP_DOMAIN[t["category"].split("›")[0]])
        for t in tasks
        if t["category"].split("›")[0] in FIRST_STEP_DOMAIN
    ]
    for mode in ("title only", "category path + title"):
        right = Counter[str]()
        other = 0
        for title, category, domain in labelled:
            guess = infer_domain(category if mode != "title only" else "", title).value
            right[domain] += guess == domain
            other += guess == "other"
        total = sum(right.values())
        print(
            f"{mode}: {total}/{len(labelled)} right ({total / len(labelled):.1%}), "
            f"{other} left as other; domains ever right: {sum(1 for v in right.values() if v)}"
            f" of {len(set(d for *_, d in labelled))}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
