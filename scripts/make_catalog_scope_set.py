"""Write the labelled "carried / not carried" request set (src/cartwise/eval/data/catalog_scope_*.jsonl).

Written by hand before any threshold was chosen; every second request of each list goes to
the test split, which is never used to tune. "Carried" means what a general store on the six
platforms sells (issue 10's breadth list); "not carried" is vehicles, property, tickets,
prescription drugs, live animals, services and the like.
"""

from __future__ import annotations

import json
from pathlib import Path

CARRIED_ZH = [
    "我想买一双跑步鞋", "推荐一款蓝牙耳机", "帮我找个头戴式耳机", "想要一台新手机", "买个机械键盘",
    "找一件男士夹克", "想买条牛仔裤", "来件白色T恤", "冬天穿的毛衣", "女士羊毛大衣",
    "给宝宝买纸尿裤", "婴儿奶瓶推荐", "一段婴儿奶粉", "轻便的婴儿推车", "控油洗发水",
    "显白的口红", "保湿面霜", "咖啡豆", "明前绿茶", "每日坚果礼盒",
    "纯棉四件套", "不粘炒锅", "电热水壶", "护眼台灯", "可调节哑铃",
    "防滑瑜伽垫", "羽毛球拍", "马丁靴", "小白鞋", "便携蓝牙音箱",
    "儿童积木玩具", "一个书架", "雨衣", "双肩背包", "20寸行李箱",
    "猫粮", "狗绳", "笔记本电脑", "平板电脑", "空气炸锅",
    "扫地机器人", "电饭煲", "收纳箱", "保温杯", "中性笔",
    "小说书", "手表", "银项链", "帐篷", "车载手机支架",
    "花盆", "电钻", "遮阳伞", "羽绒服", "运动袜",
    "防晒霜",
]
CARRIED_EN = [
    "running shoes", "wireless earbuds please", "over-ear headphones", "a new smartphone",
    "mechanical keyboard", "a men's jacket", "slim jeans", "a plain white t-shirt",
    "a warm sweater", "women's wool coat", "diapers for my baby", "baby bottles",
    "infant formula", "a lightweight stroller", "anti-dandruff shampoo", "a red lipstick",
    "moisturizing face cream", "coffee beans", "green tea", "mixed nuts",
    "a duvet cover set", "a non-stick wok", "electric kettle", "an LED desk lamp",
    "adjustable dumbbells", "a yoga mat", "badminton racket", "leather boots",
    "casual sneakers", "a portable bluetooth speaker", "a lego-style building toy for kids",
    "a bookshelf", "a raincoat", "a school backpack", "carry-on luggage",
    "dry cat food", "a dog leash", "a laptop for work", "an android tablet", "air fryer",
    "robot vacuum", "rice cooker", "storage boxes", "insulated water bottle", "gel pens",
    "a mystery novel", "a wrist watch", "silver necklace", "a camping tent",
    "a phone mount for my car", "ceramic flower pot", "cordless drill", "an umbrella",
    "down jacket", "sports socks", "sunscreen spf 50",
]
NOT_CARRIED_ZH = [
    "我想买一辆二手车", "帮我找辆新能源汽车", "想买套房子", "上海的二手房", "租一套两居室",
    "订一张去北京的机票", "买两张高铁票", "演唱会门票", "电影票", "帮我订个酒店",
    "处方药阿莫西林", "降压药", "抗生素", "安眠药处方药", "想买一只猫",
    "买条活的金毛狗", "小兔子宠物活体", "活鱼苗", "一只鹦鹉", "找个保洁阿姨",
    "搬家服务", "请个家教", "修空调的师傅", "装修公司", "律师咨询",
    "一块地皮", "游艇", "私人飞机", "一匹马", "买股票",
    "基金理财产品", "比特币", "保险", "健身房年卡", "驾校报名",
    "婚庆服务", "旅游跟团", "签证代办", "二手摩托车", "拖拉机",
    "挖掘机", "卡车", "商铺出租", "停车位", "手机话费充值",
    "游戏点卡代练", "网课会员", "医院挂号", "体检套餐", "月嫂服务",
    "宠物寄养", "快递上门取件", "洗车服务", "理发", "房车",
    "枪支",
]
NOT_CARRIED_EN = [
    "a used car", "i want to buy a new electric car", "a house in the suburbs",
    "an apartment to rent", "plane tickets to tokyo", "train tickets for friday",
    "concert tickets", "a movie ticket", "book me a hotel room", "prescription antibiotics",
    "blood pressure medication", "prescription sleeping pills", "a live kitten",
    "a golden retriever puppy", "a pet rabbit", "live goldfish", "a parrot",
    "a cleaning lady", "moving service", "a math tutor", "an air conditioner repairman",
    "a renovation contractor", "legal advice", "a plot of land", "a yacht", "a private jet",
    "a horse", "shares of apple stock", "a mutual fund", "bitcoin", "car insurance",
    "a gym membership", "driving lessons", "a wedding planner", "a guided tour package",
    "visa application service", "a used motorcycle", "a tractor", "an excavator",
    "a pickup truck", "a shop space for rent", "a parking spot", "mobile phone top-up",
    "video game boosting service", "an online course subscription",
    "a doctor's appointment", "a health checkup package", "a nanny", "pet boarding",
    "a courier pickup", "a car wash", "a haircut", "a camper van", "a handgun",
    "a cruise vacation", "a timeshare",
]


def main() -> None:
    out = Path(__file__).resolve().parents[1] / "src/cartwise/eval/data"
    rows: dict[str, list[dict[str, object]]] = {"dev": [], "test": []}
    for texts, language, carried in (
        (CARRIED_ZH, "zh", True),
        (CARRIED_EN, "en", True),
        (NOT_CARRIED_ZH, "zh", False),
        (NOT_CARRIED_EN, "en", False),
    ):
        for index, text in enumerate(texts):
            split = "dev" if index % 2 == 0 else "test"
            rows[split].append({"text": text, "language": language, "carried": carried})
    for split, items in rows.items():
        lines = [json.dumps(r, ensure_ascii=False) for r in items]
        (out / f"catalog_scope_{split}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(split, len(items))


if __name__ == "__main__":
    main()
