"""Write the multi-turn dialogue set (src/cartwise/eval/data/dialogue_{dev,test}.jsonl).

Each conversation is a list of turns: what the shopper says and what a good assistant must
do (declarative expectations, checked by `cartwise eval dialogue`). Families cover one
capability each, in Chinese and English, with phrasings and product types rotated so no
sentence repeats; every second conversation of a family goes to the test split. The set was
written before anything was tuned against it and the test split is never used for tuning.

Expectation keys (all optional): products ("some"/"none"), type (a product type below: every
shown product is one), max_price ([amount, currency]), exclude_brands, size, sort
("price_asc"/"price_desc"), no_repeat, cheaper, cheapest_first, question
("none"/"size"/"budget"/"product_type"), small_talk, not_carried, memory_has
([polarity, slug]), memory_unchanged, mentions_shown (index into the previous turn's
products whose title the reply must name), currency (the reply's prices).
"""

from __future__ import annotations

import json
from itertools import cycle
from pathlib import Path
from typing import Any

# slug: (zh names, en names, sized, brands one may refuse (zh, en), typical budget CNY / USD)
TYPES: dict[str, tuple[list[str], list[str], bool, list[tuple[str, str]], int, int]] = {
    "running-shoes": (
        ["跑步鞋", "跑鞋"],
        ["running shoes", "runners"],
        True,
        [("耐克", "Nike"), ("阿迪达斯", "Adidas")],
        600,
        90,
    ),
    "boots": (
        ["靴子", "马丁靴"],
        ["boots", "ankle boots"],
        True,
        [("安踏", "Anta"), ("斯凯奇", "Skechers")],
        600,
        90,
    ),
    "earbuds": (
        ["蓝牙耳机", "真无线耳机"],
        ["wireless earbuds", "earbuds"],
        False,
        [("小米", "Xiaomi"), ("苹果", "Apple")],
        500,
        80,
    ),
    "headphones": (
        ["头戴式耳机", "头戴耳机"],
        ["over-ear headphones", "headphones"],
        False,
        [("索尼", "Sony"), ("漫步者", "Edifier")],
        1000,
        150,
    ),
    "speaker": (
        ["蓝牙音箱", "音箱"],
        ["bluetooth speaker", "portable speaker"],
        False,
        [("JBL", "JBL"), ("Bose", "Bose")],
        500,
        80,
    ),
    "smartphone": (
        ["手机", "智能手机"],
        ["smartphone", "phone"],
        False,
        [("苹果", "Apple"), ("小米", "Xiaomi")],
        3000,
        400,
    ),
    "keyboard": (
        ["机械键盘", "键盘"],
        ["mechanical keyboard", "keyboard"],
        False,
        [("罗技", "Logitech"), ("小米", "Xiaomi")],
        500,
        80,
    ),
    "jeans": (["牛仔裤"], ["jeans"], True, [("李维斯", "Levi's"), ("优衣库", "Uniqlo")], 400, 60),
    "sweater": (
        ["毛衣", "针织衫"],
        ["sweater", "knit sweater"],
        True,
        [("优衣库", "Uniqlo"), ("Zara", "Zara")],
        500,
        80,
    ),
    "diapers": (
        ["纸尿裤", "尿不湿"],
        ["diapers", "nappies"],
        False,
        [("帮宝适", "Pampers"), ("好奇", "Huggies")],
        300,
        45,
    ),
    "baby-bottle": (
        ["奶瓶", "婴儿奶瓶"],
        ["baby bottle", "feeding bottle"],
        False,
        [("贝亲", "Pigeon"), ("Babycare", "Babycare")],
        200,
        30,
    ),
    "stroller": (
        ["婴儿推车", "童车"],
        ["stroller", "baby stroller"],
        False,
        [("好孩子", "Goodbaby"), ("Babycare", "Babycare")],
        1500,
        200,
    ),
    "shampoo": (
        ["洗发水"],
        ["shampoo"],
        False,
        [("欧莱雅", "L'Oréal"), ("资生堂", "Shiseido")],
        150,
        25,
    ),
    "lipstick": (
        ["口红"],
        ["lipstick"],
        False,
        [("兰蔻", "Lancôme"), ("完美日记", "Perfect Diary")],
        300,
        45,
    ),
    "face-cream": (
        ["面霜", "保湿面霜"],
        ["face cream", "moisturizer"],
        False,
        [("雅诗兰黛", "Estée Lauder"), ("欧莱雅", "L'Oréal")],
        500,
        80,
    ),
    "coffee": (
        ["咖啡豆", "咖啡"],
        ["coffee beans", "coffee"],
        False,
        [("雀巢", "Nestlé"), ("乐维萨", "Lavazza")],
        150,
        25,
    ),
    "tea": (["绿茶", "茶叶"], ["green tea", "tea"], False, [("无印良品", "Muji")], 200, 30),
    "nuts": (
        ["坚果", "每日坚果"],
        ["mixed nuts", "nuts"],
        False,
        [("三只松鼠", "Three Squirrels"), ("良品铺子", "Bestore")],
        150,
        25,
    ),
    "bedding": (
        ["四件套", "床品四件套"],
        ["duvet cover set", "bedding set"],
        False,
        [("宜家", "IKEA"), ("优衣库", "Uniqlo")],
        500,
        80,
    ),
    "wok": (["炒锅"], ["wok", "wok pan"], False, [("苏泊尔", "Supor"), ("宜家", "IKEA")], 300, 45),
    "kettle": (
        ["电水壶", "烧水壶"],
        ["electric kettle", "kettle"],
        False,
        [("飞利浦", "Philips"), ("小米", "Xiaomi")],
        300,
        45,
    ),
    "desk-lamp": (
        ["台灯", "护眼台灯"],
        ["desk lamp", "reading lamp"],
        False,
        [("飞利浦", "Philips"), ("小米", "Xiaomi")],
        300,
        45,
    ),
    "dumbbells": (
        ["哑铃"],
        ["dumbbells", "adjustable dumbbells"],
        False,
        [("迪卡侬", "Decathlon"), ("安踏", "Anta")],
        500,
        80,
    ),
    "yoga-mat": (
        ["瑜伽垫"],
        ["yoga mat"],
        False,
        [("Lululemon", "Lululemon"), ("Keep", "Keep")],
        200,
        30,
    ),
    "badminton-racket": (
        ["羽毛球拍"],
        ["badminton racket"],
        False,
        [("尤尼克斯", "Yonex"), ("李宁", "Li-Ning")],
        500,
        80,
    ),
}
UNSIZED = [t for t, spec in TYPES.items() if not spec[2]]
SIZED = [t for t, spec in TYPES.items() if spec[2]]
SIZES = {"zh": ["42码", "41码", "M码", "L码"], "en": ["size 10", "size 9", "size M", "size L"]}
SIZE_VALUE = {
    "running-shoes": ("42码", "size 9"),
    "boots": ("41码", "size 10"),
    "jeans": ("L码", "size L"),
    "sweater": ("M码", "size M"),
}

NOT_CARRIED = {
    "zh": [
        "我想买辆二手车",
        "帮我订一张去成都的机票",
        "想买只布偶猫",
        "有没有处方药阿奇霉素",
        "找个上门保洁服务",
        "想在杭州买套房",
        "买两张周末的演唱会门票",
        "我要买一艘游艇",
    ],
    "en": [
        "i want to buy a used car",
        "find me a flight to paris",
        "i'd like a live puppy",
        "do you sell prescription painkillers",
        "i need a plumber to fix my sink",
        "looking for a house to buy",
        "two tickets for the football match",
        "a horse for my farm",
    ],
}
VAGUE = {
    "zh": [
        "帮我找点东西",
        "想买个礼物",
        "随便推荐点什么吧",
        "给我推荐个好东西",
        "我想买东西",
        "送人的礼物有什么推荐",
        "有什么好买的",
        "帮我挑个礼物",
    ],
    "en": [
        "help me find something",
        "i need a gift",
        "recommend me something",
        "what should i buy",
        "i want to buy something nice",
        "a present please",
        "show me something good",
        "can you help me shop",
    ],
}
SMALL_TALK = {
    "zh": [
        ["你好"],
        ["嗨，在吗"],
        ["谢谢"],
        ["好的，就这些吧"],
        ["再见"],
        ["谢谢你，不用了"],
        ["早上好"],
        ["拜拜"],
    ],
    "en": [
        ["hello"],
        ["hi there"],
        ["thanks!"],
        ["that's all, thank you"],
        ["goodbye"],
        ["good morning"],
        ["thanks, that's everything"],
        ["bye for now"],
    ],
}


def name(slug: str, language: str, variant: int = 0) -> str:
    names = TYPES[slug][0] if language == "zh" else TYPES[slug][1]
    return names[variant % len(names)]


def say_search(slug: str, language: str, variant: int) -> str:
    n = name(slug, language, variant)
    zh = ["我想买{n}", "推荐一款{n}", "帮我找找{n}", "有没有好的{n}", "想入手{n}", "来看看{n}"]
    en = [
        "i'm looking for {n}",
        "recommend some {n}",
        "show me {n}",
        "i need {n}",
        "find me {n}",
        "any good {n}?",
    ]
    return (zh if language == "zh" else en)[variant % 6].format(n=n)


def sized_search(slug: str, language: str, variant: int) -> str:
    size = SIZE_VALUE[slug][0 if language == "zh" else 1]
    base = say_search(slug, language, variant)
    return f"{base}，{size}" if language == "zh" else f"{base}, {size}"


def search_turn(slug: str, language: str, variant: int) -> dict[str, Any]:
    sized = TYPES[slug][2]
    say = sized_search(slug, language, variant) if sized else say_search(slug, language, variant)
    return {"say": say, "expect": {"products": "some", "type": slug, "question": "none"}}


PHRASES = {
    "cheaper": {
        "zh": ["有便宜点的吗", "再便宜一些", "太贵了，换便宜的", "有没有更实惠的"],
        "en": [
            "anything cheaper?",
            "show me cheaper ones",
            "too pricey, cheaper please",
            "something less expensive",
        ],
    },
    "sort_asc": {
        "zh": ["按价格从低到高排", "价格从低到高", "按价格升序排一下", "便宜的排前面"],
        "en": [
            "sort by price, low to high",
            "sort them by price ascending",
            "cheapest first please",
            "order by price from low to high",
        ],
    },
    "sort_desc": {
        "zh": ["按价格从高到低排", "贵的排前面", "价格从高到低"],
        "en": ["sort by price high to low", "most expensive first", "sort by price descending"],
    },
    "more": {
        "zh": ["换一批", "还有别的吗", "再来几个", "下一页"],
        "en": ["show me more", "next page", "any others?", "more please"],
    },
    "second": {
        "zh": ["第二个有链接吗", "第二个详细说说", "第二个怎么样", "说说第二个"],
        "en": [
            "tell me more about the second one",
            "does the 2nd one have a link?",
            "details of the second one",
            "what about the second one?",
        ],
    },
    "compare": {
        "zh": ["对比一下第一个和第三个", "第一个和第三个比一比"],
        "en": ["compare 1 and 3", "compare the first and the third"],
    },
    "cheapest_where": {
        "zh": ["{n}哪个平台最便宜", "{n}在哪买最划算", "哪里买{n}最便宜"],
        "en": [
            "where is {n} cheapest?",
            "which platform has the cheapest {n}",
            "where can i get {n} for the lowest price",
        ],
    },
    "thanks_end": {
        "zh": ["谢谢，就这些", "好的谢谢，不用了", "行，先这样吧，谢谢"],
        "en": ["thanks, that's all", "great, thank you, i'm done", "ok thanks, bye"],
    },
}


def pick(kind: str, language: str, variant: int) -> str:
    options = PHRASES[kind][language]
    return options[variant % len(options)]


def family_cheaper(language: str, i: int, slug: str) -> list[dict[str, Any]]:
    return [
        search_turn(slug, language, i),
        {
            "say": pick("cheaper", language, i),
            "expect": {"products": "some", "type": slug, "cheaper": True, "question": "none"},
        },
    ]


def family_sort(language: str, i: int, slug: str) -> list[dict[str, Any]]:
    direction = "sort_asc" if i % 2 == 0 else "sort_desc"
    return [
        search_turn(slug, language, i),
        {
            "say": pick(direction, language, i // 2),
            "expect": {
                "products": "some",
                "type": slug,
                "sort": "price_asc" if direction == "sort_asc" else "price_desc",
            },
        },
    ]


def family_more(language: str, i: int, slug: str) -> list[dict[str, Any]]:
    return [
        search_turn(slug, language, i),
        {
            "say": pick("more", language, i),
            "expect": {"products": "some", "type": slug, "no_repeat": True, "question": "none"},
        },
    ]


def family_switch(language: str, i: int, slug: str) -> list[dict[str, Any]]:
    first = SIZED[i % len(SIZED)]
    second = slug
    word = name(second, language, i)
    say = (
        [f"再看看{word}", f"换个话题，我还想买{word}", f"另外帮我找{word}", f"那{word}呢"][i % 4]
        if language == "zh"
        else [
            f"now show me {word}",
            f"also, i need {word}",
            f"what about {word}?",
            f"switching gears: {word}",
        ][i % 4]
    )
    return [
        search_turn(first, language, i),
        {"say": say, "expect": {"products": "some", "type": second, "question": "none"}},
    ]


def family_brand_budget(language: str, i: int, slug: str) -> list[dict[str, Any]]:
    zh_brand, en_brand = TYPES[slug][3][i % len(TYPES[slug][3])]
    budget = TYPES[slug][4] if language == "zh" else TYPES[slug][5]
    word = name(slug, language, i)
    if language == "zh":
        say = [
            f"想买{word}，不要{zh_brand}的，{budget}以内",
            f"{budget}元以内的{word}，别推荐{zh_brand}",
            f"找{word}，预算{budget}，{zh_brand}的就算了",
            f"不要{zh_brand}，{word}，不超过{budget}块",
        ][i % 4]
        currency = "CNY"
    else:
        say = [
            f"{word} under ${budget}, no {en_brand}",
            f"i want {word} but not {en_brand}, max ${budget}",
            f"{word}, budget ${budget}, anything except {en_brand}",
            f"no {en_brand} please, {word} below {budget} dollars",
        ][i % 4]
        currency = "USD"
    expect = {
        "products": "some",
        "type": slug,
        "exclude_brands": [en_brand],
        "max_price": [budget, currency],
        "question": "none",
        "currency": currency,
    }
    return [
        {"say": say, "expect": expect},
        {
            "say": pick("cheaper", language, i + 1),
            "expect": {
                "products": "some",
                "type": slug,
                "exclude_brands": [en_brand],
                "max_price": [budget, currency],
                "cheaper": True,
                "currency": currency,
            },
        },
    ]


def family_cheapest_where(language: str, i: int, slug: str) -> list[dict[str, Any]]:
    say = pick("cheapest_where", language, i).format(n=name(slug, language, i))
    return [{"say": say, "expect": {"products": "some", "type": slug, "cheapest_first": True}}]


def family_not_carried(language: str, i: int, slug: str) -> list[dict[str, Any]]:
    return [
        {
            "say": NOT_CARRIED[language][i % 8],
            "expect": {"products": "none", "not_carried": True, "memory_unchanged_long": True},
        }
    ]


def family_carried_honest(language: str, i: int, slug: str) -> list[dict[str, Any]]:
    turn = search_turn(slug, language, i + 3)
    turn["expect"]["not_carried"] = False
    return [turn]


def family_vague(language: str, i: int, slug: str) -> list[dict[str, Any]]:
    word = name(slug, language, i)
    answer = (
        [f"{word}吧", f"给我妈买{word}", f"就{word}", f"想要{word}"][i % 4]
        if language == "zh"
        else [f"{word} i guess", f"{word} for my mum", f"maybe {word}", f"let's say {word}"][i % 4]
    )
    return [
        {"say": VAGUE[language][i % 8], "expect": {"question": "product_type", "products": "none"}},
        {
            "say": answer,
            "expect": {"products": "some", "type": slug, "question": "none", "open_questions": 0},
        },
    ]


def family_vague_budget(language: str, i: int, slug: str) -> list[dict[str, Any]]:
    word = name(slug, language, i)
    budget = TYPES[slug][4] if language == "zh" else TYPES[slug][5]
    if language == "zh":
        say = [
            f"{word}，别太贵",
            f"想买{word}，不要太贵的",
            f"便宜点的{word}就行，别太贵",
            f"{word}，价格别太高",
        ][i % 4]
        answer, currency = (
            [f"{budget}", f"{budget}以内", f"{budget}块左右", f"最多{budget}"][i % 4],
            "CNY",
        )
    else:
        say = [
            f"{word}, not too expensive",
            f"i want {word} that isn't too pricey",
            f"{word} please, nothing too expensive",
            f"affordable {word}, not too costly",
        ][i % 4]
        answer, currency = (
            [f"${budget}", f"under ${budget}", f"{budget} dollars", f"about ${budget}"][i % 4],
            "USD",
        )
    return [
        {"say": say, "expect": {"question": "budget", "type": slug}},
        {
            "say": answer,
            "expect": {
                "products": "some",
                "type": slug,
                "question": "none",
                "max_price": [budget, currency],
                "open_questions": 0,
            },
        },
    ]


def family_size(language: str, i: int, slug: str) -> list[dict[str, Any]]:
    sized = SIZED[i % len(SIZED)]
    size = SIZE_VALUE[sized][0 if language == "zh" else 1]
    bare = size.replace("码", "") if language == "zh" else size
    return [
        {"say": say_search(sized, language, i), "expect": {"question": "size", "type": sized}},
        {
            "say": bare,
            "expect": {
                "products": "some",
                "type": sized,
                "question": "none",
                "size": bare.replace("size ", "").upper(),
                "open_questions": 0,
            },
        },
        {
            "say": pick("cheaper", language, i),
            "expect": {"question": "none", "type": sized, "cheaper": True},
        },
    ]


def family_small_talk(language: str, i: int, slug: str) -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = []
    if i % 2 == 1:
        turns.append(search_turn(slug, language, i))
        turns.append(
            {
                "say": pick("thanks_end", language, i),
                "expect": {"small_talk": True, "products": "none", "question": "none"},
            }
        )
    else:
        for text in SMALL_TALK[language][i % 8]:
            turns.append({"say": text, "expect": {"small_talk": True, "products": "none"}})
    return turns


def family_memory(language: str, i: int, slug: str) -> list[dict[str, Any]]:
    rules = [
        ("我对花生过敏", "i'm allergic to peanuts", "peanut", "nuts"),
        ("以后都不要塑料的", "never anything plastic, ever", "plastic", "earbuds"),
        ("我不喜欢皮革", "i hate leather", "leather", "boots"),
        ("我一直不用硅胶的东西", "i never want silicone", "silicone", "baby-bottle"),
    ]
    zh_rule, en_rule, rule_slug, target = rules[i % 4]
    return [
        {
            "say": zh_rule if language == "zh" else en_rule,
            "expect": {"products": "none", "memory_has": [["dislike", rule_slug]]},
        },
        {
            **search_turn(target, language, i),
            "expect": {
                "products": "some",
                "type": target,
                "memory_has": [["dislike", rule_slug]],
                "excludes_term": rule_slug,
            },
        },
    ]


def family_reference(language: str, i: int, slug: str) -> list[dict[str, Any]]:
    return [
        search_turn(slug, language, i),
        {"say": pick("second", language, i), "expect": {"mentions_shown": [1], "question": "none"}},
    ]


def family_compare(language: str, i: int, slug: str) -> list[dict[str, Any]]:
    return [
        search_turn(slug, language, i),
        {"say": pick("compare", language, i), "expect": {"mentions_shown": [0, 2]}},
    ]


FAMILIES = [
    ("cheaper", family_cheaper),
    ("sort", family_sort),
    ("more", family_more),
    ("switch", family_switch),
    ("brand_budget", family_brand_budget),
    ("cheapest_where", family_cheapest_where),
    ("not_carried", family_not_carried),
    ("carried", family_carried_honest),
    ("vague_request", family_vague),
    ("vague_budget", family_vague_budget),
    ("size", family_size),
    ("small_talk", family_small_talk),
    ("memory", family_memory),
    ("reference", family_reference),
    ("compare", family_compare),
]
PER_LANGUAGE = 8


def main() -> None:
    out = Path(__file__).resolve().parents[1] / "src/cartwise/eval/data"
    splits: dict[str, list[str]] = {"dev": [], "test": []}
    for family_index, (family, build) in enumerate(FAMILIES):
        types = cycle(
            UNSIZED[family_index % len(UNSIZED) :] + UNSIZED[: family_index % len(UNSIZED)]
        )
        for language in ("zh", "en"):
            for i in range(PER_LANGUAGE):
                slug = next(types)
                conversation = {
                    "id": f"{family}-{language}-{i}",
                    "family": family,
                    "language": language,
                    "turns": build(language, i, slug),
                }
                splits["dev" if i % 2 == 0 else "test"].append(
                    json.dumps(conversation, ensure_ascii=False)
                )
    for split, lines in splits.items():
        (out / f"dialogue_{split}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(split, len(lines))


if __name__ == "__main__":
    main()
