"""Best-effort normalized domain from a platform's own category text and the title.

Category text is the stronger signal (a shop filed the item there on purpose), so a keyword
found in it counts three times as much as one in the title. Ties and misses give `other`:
a wrong domain would scope a preference to the wrong searches, an unknown one does not.
"""

from __future__ import annotations

import re

from cartwise.catalog.product import Domain

# fmt: off
# Checked in this order; shoes before clothing and sports so "running shoes" and "跑鞋" land
# on shoes, baby before clothing so "婴儿连体衣" lands on baby.
_KEYWORDS: dict[Domain, tuple[str, ...]] = {
    Domain.BABY: (
        "baby", "infant", "toddler", "diaper", "nappy", "nappies", "stroller", "pacifier",
        "婴儿", "宝宝", "母婴", "奶粉", "纸尿裤", "尿不湿", "童车", "奶瓶", "婴童", "孕婴",
    ),
    Domain.SHOES: (
        "shoe", "shoes", "sneaker", "sneakers", "boot", "boots", "sandal", "sandals",
        "slipper", "slippers", "footwear", "heels", "loafer", "loafers",
        "鞋", "靴", "拖鞋", "凉鞋", "运动鞋", "跑鞋", "板鞋", "帆布鞋",
    ),
    Domain.ELECTRONICS: (
        "electronics", "headphone", "headphones", "earphone", "earbuds", "headset",
        "speaker", "phone", "smartphone", "laptop", "notebook", "tablet", "camera",
        "monitor", "keyboard", "mouse", "computer", "pc components", "motherboard",
        "processor", "cpu", "gpu", "graphics card", "ssd", "hard drive", "memory", "ram",
        "router", "cable", "cables", "charger", "peripherals", "audio", "tv", "console",
        "pc", "gaming", "cooling", "processors", "graphics cards", "monitors", "storage drives",
        "耳机", "耳麦", "音箱", "音响", "手机", "笔记本", "平板", "相机", "显示器", "键盘",
        "鼠标", "电脑", "数码", "充电", "数据线", "路由器", "影音", "智能手表", "电子",
    ),
    Domain.BEAUTY: (
        "beauty", "cosmetic", "cosmetics", "makeup", "skincare", "skin care", "lipstick",
        "perfume", "fragrance", "shampoo", "serum", "moisturizer", "hygiene", "hair care",
        "美妆", "化妆", "护肤", "口红", "香水", "面霜", "精华", "洗发", "彩妆", "面膜",
    ),
    Domain.FOOD: (
        "food", "foods", "grocery", "snack", "snacks", "beverage", "beverages", "drink",
        "coffee", "tea", "bakery", "dairy", "fruit", "fruits", "vegetable", "vegetables",
        "masala", "foodgrains", "meat", "fish", "eggs", "gourmet", "chocolate", "nuts",
        "食品", "零食", "饮料", "坚果", "茶", "咖啡", "牛奶", "水果", "蔬菜", "生鲜", "粮油",
        "酒", "饼干", "肉",
    ),
    Domain.SPORTS: (
        "sports", "sport", "fitness", "yoga", "gym", "outdoor", "outdoors", "camping",
        "cycling", "bicycle", "tennis", "badminton", "basketball", "football", "dumbbell",
        "运动", "健身", "瑜伽", "户外", "露营", "骑行", "羽毛球", "篮球", "足球", "哑铃",
    ),
    Domain.CLOTHING: (
        "clothing", "apparel", "fashion", "jacket", "jackets", "coat", "shirt", "t-shirt",
        "tee", "jeans", "pants", "trousers", "dress", "sweater", "hoodie", "skirt",
        "underwear", "socks", "men's wear", "women's wear",
        "服装", "服饰", "女装", "男装", "外套", "夹克", "衬衫", "T恤", "牛仔裤", "裤",
        "连衣裙", "毛衣", "卫衣", "羽绒服", "大衣", "风衣", "裙",
    ),
    Domain.TOOLS: (
        "tools", "tool", "drill", "drills", "saw", "wrench", "hardware", "garage",
        "automotive", "electrical", "power tool", "screwdriver",
        "工具", "电钻", "扳手", "螺丝刀", "五金",
    ),
    Domain.HOME: (
        "home", "kitchen", "furniture", "decor", "bedding", "appliances", "appliance",
        "storage", "household", "cleaning", "garden", "pets", "lamp", "lighting",
        "cookware", "bath",
        "家居", "家具", "厨房", "厨具", "床品", "家电", "收纳", "清洁", "日用", "灯", "锅",
        "家纺", "宠物",
    ),
}
# fmt: on

_CATEGORY_WEIGHT = 3
_ASCII_WORD = re.compile(r"^[a-z0-9' -]+$")


def _compile(keywords: tuple[str, ...]) -> re.Pattern[str]:
    """One alternation per domain (one regex pass per text, not one per keyword).

    English keywords must match whole words ("ram" is not in "program"); Chinese ones have
    no word boundaries, so a substring match is the only option. Longest first, so that
    "running shoes" is one hit rather than "shoes" alone.
    """
    words = sorted((k for k in keywords if _ASCII_WORD.fullmatch(k)), key=len, reverse=True)
    cjk = sorted(
        (k.casefold() for k in keywords if not _ASCII_WORD.fullmatch(k)), key=len, reverse=True
    )
    parts = []
    if words:
        parts.append(rf"(?<![a-z0-9])(?:{'|'.join(map(re.escape, words))})(?![a-z0-9])")
    if cjk:
        parts.append("|".join(map(re.escape, cjk)))
    return re.compile("|".join(parts))


_PATTERNS: dict[Domain, re.Pattern[str]] = {
    domain: _compile(keywords) for domain, keywords in _KEYWORDS.items()
}


def _hits(text: str, pattern: re.Pattern[str]) -> int:
    """How many different keywords of one domain occur in `text`."""
    return len(set(pattern.findall(text))) if text else 0


def infer_domain(category_raw: str, title: str = "") -> Domain:
    """The most likely domain; `other` when nothing matches."""
    category = category_raw.casefold()
    name = title.casefold()
    best, best_score = Domain.OTHER, 0
    for domain, pattern in _PATTERNS.items():
        score = _CATEGORY_WEIGHT * _hits(category, pattern) + _hits(name, pattern)
        if score > best_score:
            best, best_score = domain, score
    return best
