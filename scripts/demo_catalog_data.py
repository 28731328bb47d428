"""The vocabulary of the demo catalog: platforms, brands, product kinds, materials, colors.

Kept apart from `generate_demo_catalog.py` so the generator reads as logic and this file as
data. Changing anything here changes the committed catalog: run `make demo-catalog`.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass, field

from cartwise.settings import DEFAULT_FX_TO_CNY

# key -> (Chinese, English)
MATERIALS: dict[str, tuple[str, str]] = {
    "plastic": ("塑料", "plastic"),
    "metal": ("金属", "metal"),
    "aluminum": ("铝合金", "aluminum"),
    "wood": ("实木", "wood"),
    "leather": ("真皮", "leather"),
    "wool": ("羊毛", "wool"),
    "cotton": ("纯棉", "cotton"),
    "polyester": ("涤纶", "polyester"),
    "mesh": ("网面", "mesh"),
    "canvas": ("帆布", "canvas"),
    "silicone": ("硅胶", "silicone"),
    "stainless": ("不锈钢", "stainless steel"),
    "glass": ("玻璃", "glass"),
    "nylon": ("尼龙", "nylon"),
    "bamboo": ("竹", "bamboo"),
    "ceramic": ("陶瓷", "ceramic"),
    "down": ("羽绒", "down"),
    "tpe": ("TPE", "TPE"),
    "carbon": ("碳纤维", "carbon fiber"),
    "rubber": ("橡胶", "rubber"),
    "silk": ("真丝", "silk"),
}

COLORS: dict[str, tuple[str, str]] = {
    "black": ("黑色", "Black"),
    "white": ("白色", "White"),
    "silver": ("银色", "Silver"),
    "blue": ("蓝色", "Blue"),
    "red": ("红色", "Red"),
    "gray": ("灰色", "Gray"),
    "pink": ("粉色", "Pink"),
    "green": ("绿色", "Green"),
    "beige": ("米色", "Beige"),
    "brown": ("棕色", "Brown"),
    "purple": ("紫色", "Purple"),
    "khaki": ("卡其色", "Khaki"),
    "navy": ("藏青色", "Navy"),
}
ALL_COLORS = list(COLORS)


@dataclass(frozen=True)
class Brand:
    en: str
    zh: str = ""


BRANDS: dict[str, Brand] = {
    b.en: b
    for b in [
        Brand("Sony", "索尼"), Brand("Bose", "Bose"), Brand("Audio-Technica", "铁三角"),
        Brand("Edifier", "漫步者"), Brand("Sennheiser", "森海塞尔"), Brand("Apple", "苹果"),
        Brand("Xiaomi", "小米"), Brand("Huawei", "华为"), Brand("Philips", "飞利浦"),
        Brand("JBL", "JBL"), Brand("Marshall", "Marshall"), Brand("Anker", "安克"),
        Brand("Logitech", "罗技"), Brand("Nike", "耐克"), Brand("Adidas", "阿迪达斯"),
        Brand("Li-Ning", "李宁"), Brand("Anta", "安踏"), Brand("Skechers", "斯凯奇"),
        Brand("New Balance", "新百伦"), Brand("Puma", "彪马"), Brand("Converse", "匡威"),
        Brand("Uniqlo", "优衣库"), Brand("Levi's", "李维斯"), Brand("The North Face", "北面"),
        Brand("Columbia", "哥伦比亚"), Brand("Bosideng", "波司登"), Brand("Zara", "Zara"),
        Brand("Midea", "美的"), Brand("Supor", "苏泊尔"), Brand("Muji", "无印良品"),
        Brand("IKEA", "宜家"), Brand("Fotile", "方太"), Brand("L'Oréal", "欧莱雅"),
        Brand("Lancôme", "兰蔻"), Brand("Estée Lauder", "雅诗兰黛"), Brand("Shiseido", "资生堂"),
        Brand("Perfect Diary", "完美日记"), Brand("Three Squirrels", "三只松鼠"),
        Brand("Bestore", "良品铺子"), Brand("Nestlé", "雀巢"), Brand("Lavazza", "乐维萨"),
        Brand("Decathlon", "迪卡侬"), Brand("Yonex", "尤尼克斯"), Brand("Keep", "Keep"),
        Brand("Lululemon", "露露乐蒙"), Brand("Pampers", "帮宝适"), Brand("Huggies", "好奇"),
        Brand("Babycare", "Babycare"), Brand("Goodbaby", "好孩子"), Brand("Pigeon", "贝亲"),
        Brand("Aptamil", "爱他美"), Brand("Feihe", "飞鹤"),
    ]
}  # fmt: skip


@dataclass(frozen=True)
class Kind:
    """A product kind (over-ear headphones, running shoes, ...) and how platforms file it."""

    key: str
    domain: str
    zh: str
    en: str
    taobao_category: str
    jd_category: str
    en_path: tuple[str, ...]
    price_cny: tuple[float, float]
    brands: list[str]
    model_prefixes: dict[str, list[str]]
    materials: list[str] = field(default_factory=list)
    colors: list[str] = field(default_factory=lambda: list(ALL_COLORS))
    size_run: str = ""
    features: list[str] = field(default_factory=list)
    feature_text: dict[str, tuple[str, str]] = field(default_factory=dict)


_AUDIO_FEATURES = {
    "anc": ("主动降噪", "active noise cancelling"),
    "bt": ("蓝牙5.3无线连接", "Bluetooth 5.3 wireless"),
    "battery": ("续航长达30小时", "up to 30 hours of battery"),
    "mic": ("通话麦克风", "built-in microphone"),
    "hires": ("Hi-Res高解析音质", "Hi-Res audio"),
}
_WEAR_FEATURES = {
    "warm": ("保暖", "keeps you warm"),
    "wind": ("防风防泼水", "windproof and water-repellent"),
    "slim": ("修身版型", "slim fit"),
    "loose": ("宽松版型", "relaxed fit"),
    "breath": ("透气舒适", "breathable"),
}
_SHOE_FEATURES = {
    "cushion": ("缓震回弹", "responsive cushioning"),
    "light": ("轻量透气", "lightweight and breathable"),
    "grip": ("防滑耐磨大底", "non-slip durable outsole"),
    "wide": ("宽楦设计", "wide fit"),
}
_GENERIC_FEATURES = {
    "gift": ("送礼佳品", "a great gift"),
    "quality": ("品质保障", "quality guaranteed"),
    "easy": ("操作简单", "easy to use"),
    "compact": ("小巧便携", "compact and portable"),
}


def _kind(**values: object) -> Kind:
    values.setdefault("feature_text", _GENERIC_FEATURES)
    values.setdefault("features", list(_GENERIC_FEATURES))
    return Kind(**values)  # type: ignore[arg-type]


_KIND_LIST = [
    _kind(key="headphones", domain="electronics", zh="头戴式蓝牙耳机", en="Over-Ear Wireless Headphones",
          taobao_category="耳机/耳麦 > 头戴式", jd_category="数码 > 影音娱乐 > 耳机",
          en_path=("Electronics", "Headphones", "Over-Ear"), price_cny=(89, 3200),
          brands=["Sony", "Bose", "Audio-Technica", "Edifier", "Sennheiser", "Philips", "JBL", "Marshall", "Xiaomi", "Anker"],
          model_prefixes={"Sony": ["WH-CH", "MDR-"], "Audio-Technica": ["ATH-M", "ATH-S"], "Edifier": ["W", "H"],
                          "Sennheiser": ["HD ", "Momentum "], "*": ["H", "Q", "TAH"]},
          materials=["plastic", "plastic", "metal", "aluminum", "wood"], colors=["black", "white", "silver", "blue", "beige", "brown"],
          features=list(_AUDIO_FEATURES), feature_text=_AUDIO_FEATURES),
    _kind(key="earbuds", domain="electronics", zh="真无线蓝牙耳机", en="True Wireless Earbuds",
          taobao_category="耳机/耳麦 > 真无线", jd_category="数码 > 影音娱乐 > 蓝牙耳机",
          en_path=("Electronics", "Headphones", "Earbuds"), price_cny=(59, 2000),
          brands=["Sony", "Apple", "Huawei", "Xiaomi", "Edifier", "JBL", "Anker", "Philips"],
          model_prefixes={"Sony": ["WF-C"], "Huawei": ["FreeBuds "], "Xiaomi": ["Redmi Buds "], "Anker": ["Soundcore Liberty "], "*": ["TW", "Buds "]},
          materials=["plastic", "plastic", "metal"], colors=["black", "white", "blue", "pink", "green"],
          features=list(_AUDIO_FEATURES), feature_text=_AUDIO_FEATURES),
    _kind(key="speaker", domain="electronics", zh="蓝牙音箱", en="Bluetooth Speaker",
          taobao_category="音箱/音响 > 蓝牙音箱", jd_category="数码 > 影音娱乐 > 音箱/音响",
          en_path=("Electronics", "Audio", "Portable Speakers"), price_cny=(79, 2500),
          brands=["JBL", "Bose", "Marshall", "Edifier", "Xiaomi", "Sony", "Anker"],
          model_prefixes={"JBL": ["Flip ", "Charge "], "*": ["S", "M", "Sound "]},
          materials=["plastic", "metal", "wood", "nylon"], features=list(_AUDIO_FEATURES), feature_text=_AUDIO_FEATURES),
    _kind(key="phone", domain="electronics", zh="5G智能手机", en="5G Smartphone",
          taobao_category="手机 > 智能手机", jd_category="手机通讯 > 手机",
          en_path=("Electronics", "Cell Phones", "Smartphones"), price_cny=(799, 9999),
          brands=["Apple", "Xiaomi", "Huawei"],
          model_prefixes={"Apple": ["iPhone "], "Xiaomi": ["Redmi Note ", "Xiaomi "], "Huawei": ["nova ", "Mate "]},
          materials=["aluminum", "glass", "plastic"], colors=["black", "white", "blue", "purple", "green"]),
    _kind(key="keyboard", domain="electronics", zh="机械键盘", en="Mechanical Keyboard",
          taobao_category="电脑外设 > 键盘", jd_category="电脑办公 > 外设产品 > 键盘",
          en_path=("Electronics", "Computer Accessories", "Keyboards"), price_cny=(99, 1200),
          brands=["Logitech", "Xiaomi", "Philips"], model_prefixes={"Logitech": ["G", "MX Keys "], "*": ["K"]},
          materials=["plastic", "aluminum"], colors=["black", "white", "gray", "pink"]),
    _kind(key="jacket", domain="clothing", zh="夹克外套", en="Jacket",
          taobao_category="男装 > 夹克", jd_category="服饰内衣 > 男装 > 夹克",
          en_path=("Clothing", "Men", "Coats & Jackets"), price_cny=(129, 3500),
          brands=["Uniqlo", "Levi's", "The North Face", "Columbia", "Zara", "Bosideng", "Li-Ning", "Anta", "Nike", "Adidas"],
          model_prefixes={"*": ["JK", "Classic ", "Urban ", "Trail "]},
          materials=["leather", "wool", "cotton", "polyester", "down", "nylon"], colors=ALL_COLORS,
          size_run="clothing", features=list(_WEAR_FEATURES), feature_text=_WEAR_FEATURES),
    _kind(key="coat", domain="clothing", zh="女士大衣", en="Women's Coat",
          taobao_category="女装 > 毛呢外套", jd_category="服饰内衣 > 女装 > 大衣",
          en_path=("Clothing", "Women", "Coats"), price_cny=(199, 2999),
          brands=["Uniqlo", "Zara", "Muji", "Bosideng"], model_prefixes={"*": ["Coat ", "W", "Long "]},
          materials=["wool", "cotton", "polyester", "down"], colors=["black", "beige", "khaki", "gray", "navy", "brown"],
          size_run="clothing", features=list(_WEAR_FEATURES), feature_text=_WEAR_FEATURES),
    _kind(key="tshirt", domain="clothing", zh="短袖T恤", en="Crew Neck T-Shirt",
          taobao_category="男装 > T恤", jd_category="服饰内衣 > 男装 > T恤",
          en_path=("Clothing", "Men", "T-Shirts"), price_cny=(29, 399),
          brands=["Uniqlo", "Muji", "Nike", "Adidas", "Li-Ning", "Anta", "Levi's"], model_prefixes={"*": ["U", "Tee ", "Basic "]},
          materials=["cotton", "cotton", "polyester", "bamboo"], colors=ALL_COLORS,
          size_run="clothing", features=list(_WEAR_FEATURES), feature_text=_WEAR_FEATURES),
    _kind(key="jeans", domain="clothing", zh="牛仔裤", en="Jeans",
          taobao_category="男装 > 牛仔裤", jd_category="服饰内衣 > 男装 > 牛仔裤",
          en_path=("Clothing", "Men", "Jeans"), price_cny=(99, 899),
          brands=["Levi's", "Uniqlo", "Zara"], model_prefixes={"Levi's": ["50", "51"], "*": ["Slim ", "Straight "]},
          materials=["cotton"], colors=["blue", "black", "gray"], size_run="clothing",
          features=list(_WEAR_FEATURES), feature_text=_WEAR_FEATURES),
    _kind(key="sweater", domain="clothing", zh="针织毛衣", en="Knit Sweater",
          taobao_category="女装 > 毛衣", jd_category="服饰内衣 > 女装 > 针织衫",
          en_path=("Clothing", "Women", "Sweaters"), price_cny=(79, 1299),
          brands=["Uniqlo", "Muji", "Zara"], model_prefixes={"*": ["Knit ", "Cashmere ", "K"]},
          materials=["wool", "cotton", "polyester", "silk"], colors=ALL_COLORS, size_run="clothing",
          features=list(_WEAR_FEATURES), feature_text=_WEAR_FEATURES),
    _kind(key="running_shoes", domain="shoes", zh="跑步鞋", en="Running Shoes",
          taobao_category="运动鞋new > 跑步鞋", jd_category="运动户外 > 运动鞋包 > 跑步鞋",
          en_path=("Clothing, Shoes & Jewelry", "Shoes", "Running"), price_cny=(159, 1599),
          brands=["Nike", "Adidas", "Li-Ning", "Anta", "New Balance", "Skechers", "Puma"],
          model_prefixes={"Nike": ["Air Zoom ", "Pegasus "], "Li-Ning": ["Chitu ", "Feidian "], "Anta": ["C20", "Mach "],
                          "New Balance": ["Fresh Foam ", "FuelCell "], "*": ["Run ", "Speed "]},
          materials=["mesh", "mesh", "leather", "nylon"], colors=ALL_COLORS, size_run="shoes",
          features=list(_SHOE_FEATURES), feature_text=_SHOE_FEATURES),
    _kind(key="sneakers", domain="shoes", zh="休闲板鞋", en="Casual Sneakers",
          taobao_category="流行男鞋 > 板鞋", jd_category="流行男鞋 > 休闲鞋",
          en_path=("Clothing, Shoes & Jewelry", "Shoes", "Fashion Sneakers"), price_cny=(99, 1299),
          brands=["Converse", "Nike", "Adidas", "Puma", "Li-Ning", "Anta", "Skechers"],
          model_prefixes={"Converse": ["Chuck ", "One Star "], "*": ["Court ", "Classic ", "Street "]},
          materials=["canvas", "leather", "leather", "mesh"], colors=["white", "black", "red", "blue", "gray", "beige"],
          size_run="shoes", features=list(_SHOE_FEATURES), feature_text=_SHOE_FEATURES),
    _kind(key="boots", domain="shoes", zh="马丁靴", en="Ankle Boots",
          taobao_category="流行男鞋 > 靴子", jd_category="流行男鞋 > 靴子",
          en_path=("Clothing, Shoes & Jewelry", "Shoes", "Boots"), price_cny=(199, 1999),
          brands=["The North Face", "Columbia", "Skechers", "Anta"], model_prefixes={"*": ["Boot ", "Trek ", "B"]},
          materials=["leather", "leather", "canvas", "rubber"], colors=["black", "brown", "khaki"], size_run="shoes",
          features=list(_SHOE_FEATURES), feature_text=_SHOE_FEATURES),
    _kind(key="kettle", domain="home", zh="电热水壶", en="Electric Kettle",
          taobao_category="厨房电器 > 电水壶", jd_category="家用电器 > 厨房小电 > 电水壶",
          en_path=("Home & Kitchen", "Kitchen Appliances", "Electric Kettles"), price_cny=(49, 599),
          brands=["Midea", "Supor", "Philips", "Xiaomi", "Muji"], model_prefixes={"*": ["SH", "K", "HD"]},
          materials=["stainless", "glass", "plastic"], colors=["white", "silver", "black", "green"]),
    _kind(key="lamp", domain="home", zh="护眼台灯", en="LED Desk Lamp",
          taobao_category="家装灯饰 > 台灯", jd_category="家装建材 > 灯饰照明 > 台灯",
          en_path=("Home & Kitchen", "Lighting", "Desk Lamps"), price_cny=(59, 899),
          brands=["Philips", "Xiaomi", "IKEA", "Muji"], model_prefixes={"*": ["L", "Lamp ", "Desk "]},
          materials=["metal", "wood", "plastic", "bamboo"], colors=["white", "black", "silver", "beige"]),
    _kind(key="cookware", domain="home", zh="炒锅", en="Wok Pan",
          taobao_category="厨房/烹饪用具 > 炒锅", jd_category="厨具 > 烹饪锅具 > 炒锅",
          en_path=("Home & Kitchen", "Cookware", "Woks"), price_cny=(69, 1299),
          brands=["Supor", "Fotile", "IKEA", "Midea"], model_prefixes={"*": ["PJ", "Wok ", "C"]},
          materials=["stainless", "ceramic", "metal"], colors=["black", "silver", "red"]),
    _kind(key="bedding", domain="home", zh="四件套床品", en="Bedding Set",
          taobao_category="床上用品 > 床品套件", jd_category="家纺 > 床品套件 > 四件套",
          en_path=("Home & Kitchen", "Bedding", "Duvet Cover Sets"), price_cny=(99, 1999),
          brands=["Muji", "IKEA", "Uniqlo"], model_prefixes={"*": ["Set ", "Soft ", "B"]},
          materials=["cotton", "silk", "polyester", "bamboo"], colors=["white", "gray", "beige", "blue", "pink", "green"]),
    _kind(key="lipstick", domain="beauty", zh="口红", en="Lipstick",
          taobao_category="彩妆/香水/美妆工具 > 唇膏/口红", jd_category="美妆护肤 > 彩妆 > 口红",
          en_path=("Beauty & Personal Care", "Makeup", "Lipstick"), price_cny=(49, 499),
          brands=["L'Oréal", "Lancôme", "Estée Lauder", "Perfect Diary", "Shiseido"], model_prefixes={"*": ["#", "Rouge ", "Matte "]},
          colors=["red", "pink", "brown", "purple"]),
    _kind(key="cream", domain="beauty", zh="保湿面霜", en="Moisturizing Face Cream",
          taobao_category="美容护肤/美体/精油 > 面霜", jd_category="美妆护肤 > 面部护肤 > 面霜",
          en_path=("Beauty & Personal Care", "Skin Care", "Face Moisturizers"), price_cny=(69, 1999),
          brands=["L'Oréal", "Lancôme", "Estée Lauder", "Shiseido"], model_prefixes={"*": ["Revitalift ", "Hydra ", "Cream "]},
          colors=["white"]),
    _kind(key="shampoo", domain="beauty", zh="洗发水", en="Shampoo",
          taobao_category="美发护发/假发 > 洗发水", jd_category="个人护理 > 洗发护发 > 洗发水",
          en_path=("Beauty & Personal Care", "Hair Care", "Shampoo"), price_cny=(29, 299),
          brands=["L'Oréal", "Shiseido", "Muji"], model_prefixes={"*": ["Elvive ", "Repair ", "S"]},
          colors=["white", "blue", "green"]),
    _kind(key="nuts", domain="food", zh="每日坚果礼盒", en="Mixed Nuts Gift Box",
          taobao_category="零食/坚果/特产 > 混合坚果", jd_category="食品饮料 > 休闲食品 > 坚果炒货",
          en_path=("Grocery & Gourmet Food", "Snacks", "Nuts"), price_cny=(39, 299),
          brands=["Three Squirrels", "Bestore"], model_prefixes={"*": ["Daily Nuts ", "Gift "]}, colors=["red", "green", "brown"]),
    _kind(key="coffee", domain="food", zh="咖啡豆", en="Coffee Beans",
          taobao_category="咖啡/麦片/冲饮 > 咖啡豆", jd_category="食品饮料 > 冲调饮品 > 咖啡",
          en_path=("Grocery & Gourmet Food", "Beverages", "Coffee"), price_cny=(39, 399),
          brands=["Nestlé", "Lavazza", "Three Squirrels"], model_prefixes={"*": ["Espresso ", "Roast ", "Crema "]}, colors=["brown", "black"]),
    _kind(key="tea", domain="food", zh="茶叶礼盒", en="Tea Gift Box",
          taobao_category="茶 > 绿茶", jd_category="茗茶 > 绿茶",
          en_path=("Grocery & Gourmet Food", "Beverages", "Tea"), price_cny=(49, 899),
          brands=["Bestore", "Three Squirrels", "Muji"], model_prefixes={"*": ["Longjing ", "Green Tea ", "Tea "]}, colors=["green"]),
    _kind(key="yoga_mat", domain="sports", zh="瑜伽垫", en="Yoga Mat",
          taobao_category="运动/瑜伽/健身/球迷用品 > 瑜伽垫", jd_category="运动户外 > 健身训练 > 瑜伽垫",
          en_path=("Sports & Outdoors", "Exercise & Fitness", "Yoga Mats"), price_cny=(39, 899),
          brands=["Keep", "Decathlon", "Lululemon", "Li-Ning"], model_prefixes={"*": ["Mat ", "Y", "Pro Mat "]},
          materials=["tpe", "rubber", "polyester"], colors=["purple", "pink", "blue", "black", "green"]),
    _kind(key="dumbbell", domain="sports", zh="哑铃", en="Adjustable Dumbbell",
          taobao_category="运动/瑜伽/健身/球迷用品 > 哑铃", jd_category="运动户外 > 健身训练 > 哑铃",
          en_path=("Sports & Outdoors", "Exercise & Fitness", "Dumbbells"), price_cny=(59, 1999),
          brands=["Keep", "Decathlon", "Anta"], model_prefixes={"*": ["D", "Adjust ", "DB"]},
          materials=["metal", "rubber", "plastic"], colors=["black", "gray", "red"]),
    _kind(key="racket", domain="sports", zh="羽毛球拍", en="Badminton Racket",
          taobao_category="运动/瑜伽/健身/球迷用品 > 羽毛球拍", jd_category="运动户外 > 体育用品 > 羽毛球拍",
          en_path=("Sports & Outdoors", "Racquet Sports", "Badminton"), price_cny=(79, 1699),
          brands=["Yonex", "Li-Ning", "Decathlon"], model_prefixes={"Yonex": ["Astrox ", "Nanoflare "], "*": ["Aeronaut ", "B", "Windstorm "]},
          materials=["carbon", "aluminum"], colors=["blue", "red", "black", "white"]),
    _kind(key="diapers", domain="baby", zh="纸尿裤", en="Baby Diapers",
          taobao_category="尿片/洗护/喂哺/推车床 > 纸尿裤", jd_category="母婴 > 尿裤湿巾 > 纸尿裤",
          en_path=("Baby", "Diapering", "Disposable Diapers"), price_cny=(69, 399),
          brands=["Pampers", "Huggies", "Babycare"], model_prefixes={"*": ["Swaddlers ", "Soft ", "Air "]},
          colors=["white"], size_run="diapers"),
    _kind(key="bottle", domain="baby", zh="婴儿奶瓶", en="Baby Bottle",
          taobao_category="尿片/洗护/喂哺/推车床 > 奶瓶", jd_category="母婴 > 喂养用品 > 奶瓶",
          en_path=("Baby", "Feeding", "Bottles"), price_cny=(39, 299),
          brands=["Pigeon", "Babycare", "Philips"], model_prefixes={"*": ["PPSU ", "Natural ", "Wide "]},
          materials=["glass", "plastic", "silicone"], colors=["white", "pink", "blue"]),
    _kind(key="stroller", domain="baby", zh="婴儿推车", en="Baby Stroller",
          taobao_category="童车/童床 > 婴儿推车", jd_category="母婴 > 童车童床 > 婴儿推车",
          en_path=("Baby", "Strollers", "Standard Strollers"), price_cny=(299, 4999),
          brands=["Goodbaby", "Babycare"], model_prefixes={"*": ["GB", "Pockit ", "Light "]},
          materials=["aluminum", "metal", "polyester"], colors=["gray", "black", "beige", "blue"]),
    _kind(key="formula", domain="baby", zh="婴幼儿配方奶粉", en="Infant Formula",
          taobao_category="奶粉/辅食/营养品 > 婴幼儿奶粉", jd_category="母婴 > 奶粉 > 婴幼儿奶粉",
          en_path=("Baby", "Feeding", "Infant Formula"), price_cny=(149, 599),
          brands=["Aptamil", "Feihe", "Nestlé"], model_prefixes={"*": ["Stage ", "Gold ", "Pro "]}, colors=["white"]),
]  # fmt: skip
KINDS: dict[str, Kind] = {kind.key: kind for kind in _KIND_LIST}


@dataclass(frozen=True)
class Marquee:
    """A famous model sold on all six platforms at different prices (price comparison)."""

    kind: str
    brand: str
    model: str
    material: str
    colors: tuple[str, ...]
    price_cny: float


MARQUEE: list[Marquee] = [
    Marquee("headphones", "Sony", "WH-1000XM5", "plastic", ("black", "silver", "blue"), 2299),
    Marquee("headphones", "Sony", "WH-1000XM4", "plastic", ("black", "silver"), 1699),
    Marquee("headphones", "Bose", "QuietComfort Ultra", "metal", ("black", "white"), 2999),
    Marquee("headphones", "Apple", "AirPods Max", "aluminum", ("silver", "blue", "pink"), 3999),
    Marquee("headphones", "Audio-Technica", "ATH-M50x", "plastic", ("black", "white"), 1099),
    Marquee("headphones", "Audio-Technica", "ATH-WP900", "wood", ("brown",), 2999),
    Marquee("headphones", "Edifier", "W820NB", "plastic", ("black", "white", "blue"), 299),
    Marquee("headphones", "Sennheiser", "Momentum 4", "plastic", ("black", "white"), 2199),
    Marquee("earbuds", "Apple", "AirPods Pro 2", "plastic", ("white",), 1799),
    Marquee("earbuds", "Sony", "WF-1000XM5", "plastic", ("black", "silver"), 1999),
    Marquee("earbuds", "Xiaomi", "Redmi Buds 5", "plastic", ("black", "white", "blue"), 199),
    Marquee("phone", "Apple", "iPhone 15", "aluminum", ("black", "blue", "pink"), 5999),
    Marquee(
        "running_shoes", "Nike", "Air Zoom Pegasus 40", "mesh", ("black", "white", "blue"), 899
    ),
    Marquee("running_shoes", "Adidas", "Ultraboost Light", "mesh", ("black", "white"), 1299),
    Marquee("running_shoes", "Li-Ning", "Chitu 6 Pro", "mesh", ("white", "red"), 399),
    Marquee("jacket", "Levi's", "Trucker Jacket", "cotton", ("blue", "black"), 699),
    Marquee("jacket", "The North Face", "1996 Nuptse", "down", ("black", "navy"), 2599),
    Marquee("jacket", "Zara", "Faux Leather Biker Jacket", "leather", ("black", "brown"), 599),
    Marquee("coat", "Uniqlo", "Wool Blend Chester Coat", "wool", ("gray", "navy", "beige"), 799),
    Marquee("nuts", "Three Squirrels", "Daily Nuts 750g", "", ("red",), 129),
]


def _digits(rng: random.Random, n: int) -> str:
    return str(rng.randint(1, 9)) + "".join(rng.choice(string.digits) for _ in range(n - 1))


@dataclass(frozen=True)
class Platform:
    name: str
    language: str
    currency: str
    price_factor: float
    """Typical price level relative to the reference price (pinduoduo is cheapest)."""
    title: str
    tags: tuple[str, ...] = ()

    @property
    def fx_to_cny(self) -> float:
        return DEFAULT_FX_TO_CNY[self.currency]

    def item_id(self, rng: random.Random) -> str:
        if self.name == "amazon":
            return "B0" + "".join(
                rng.choice(string.ascii_uppercase + string.digits) for _ in range(8)
            )
        if self.name == "shopee":
            return f"{_digits(rng, 9)}.{_digits(rng, 11)}"
        return _digits(rng, {"taobao": 12, "jd": 11, "pinduoduo": 11, "walmart": 10}[self.name])

    def category(self, kind: Kind) -> str:
        if self.name == "taobao":
            return kind.taobao_category
        if self.name == "jd":
            return kind.jd_category
        if self.name == "pinduoduo":
            return kind.jd_category.split(" > ")[-1]
        if self.name == "amazon":
            return " › ".join(kind.en_path)
        if self.name == "walmart":
            return "/".join(kind.en_path)
        return " > ".join(kind.en_path[1:])


PLATFORMS: dict[str, Platform] = {
    p.name: p
    for p in [
        Platform("taobao", "zh", "CNY", 1.0, "{brand} {brand_en} {model} {kind} {material} {tag}",
                 ("官方正品", "2024新款", "旗舰店", "包邮", "现货速发")),
        Platform("jd", "zh", "CNY", 1.04, "【京东自营】{brand}（{brand_en}）{model} {kind} {material} {color}"),
        Platform("pinduoduo", "zh", "CNY", 0.86, "{brand}{model} {kind} {tag}", ("百亿补贴", "拼团价", "")),
        Platform("amazon", "en", "USD", 1.12, "{brand} {model} {kind}, {material} - {color}"),
        Platform("walmart", "en", "USD", 1.08, "{brand} {model} {kind}, {color}"),
        Platform("shopee", "mixed", "SGD", 1.05, "{tag} {brand} {model} {kind_en} {kind_zh} {material}",
                 ("[Local Stock]", "[Ready Stock]", "🔥", "")),
    ]
}  # fmt: skip
