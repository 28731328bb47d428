"""The vocabulary of the demo catalog: platforms, brands and their tiers, product families,
real model tables, specs, materials, colors, sizes.

The product types themselves (slug, domain, names) live in the package
(`cartwise/vocabulary/data/taxonomy.yml`); this file says how each type is made and sold.
Kept apart from `generate_demo_catalog.py` so the generator reads as logic and this file as
data. Changing anything here changes the committed catalog: run `make demo-catalog`.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass, field

from cartwise.vocabulary import fx_to_base

# key -> (Chinese, English)
MATERIALS: dict[str, tuple[str, str]] = {
    "plastic": ("塑料", "plastic"), "metal": ("金属", "metal"), "aluminum": ("铝合金", "aluminum"),
    "wood": ("实木", "wood"), "leather": ("真皮", "leather"), "faux_leather": ("PU皮", "faux leather"),
    "wool": ("羊毛", "wool"), "cotton": ("纯棉", "cotton"), "polyester": ("涤纶", "polyester"),
    "mesh": ("网面", "mesh"), "canvas": ("帆布", "canvas"), "silicone": ("硅胶", "silicone"),
    "stainless": ("不锈钢", "stainless steel"), "glass": ("玻璃", "glass"), "nylon": ("尼龙", "nylon"),
    "bamboo": ("竹", "bamboo"), "ceramic": ("陶瓷", "ceramic"), "down": ("羽绒", "down"),
    "tpe": ("TPE", "TPE"), "carbon": ("碳纤维", "carbon fiber"), "rubber": ("橡胶", "rubber"),
    "silk": ("真丝", "silk"), "linen": ("亚麻", "linen"), "fabric": ("布艺", "fabric"),
    "cast_iron": ("铸铁", "cast iron"), "latex": ("乳胶", "latex"), "foam": ("记忆棉", "memory foam"),
    "engineered_wood": ("板材", "engineered wood"), "eva": ("EVA", "EVA"), "pvc": ("PVC", "PVC"),
    "gold": ("18K金", "18K gold"), "silver925": ("925银", "sterling silver"), "paper": ("纸质", "paper"),
    "cashmere": ("羊绒", "cashmere"), "denim": ("牛仔布", "denim"), "titanium": ("钛合金", "titanium"),
}  # fmt: skip

COLORS: dict[str, tuple[str, str]] = {
    "black": ("黑色", "Black"), "white": ("白色", "White"), "silver": ("银色", "Silver"),
    "blue": ("蓝色", "Blue"), "red": ("红色", "Red"), "gray": ("灰色", "Gray"),
    "pink": ("粉色", "Pink"), "green": ("绿色", "Green"), "beige": ("米色", "Beige"),
    "brown": ("棕色", "Brown"), "purple": ("紫色", "Purple"), "khaki": ("卡其色", "Khaki"),
    "navy": ("藏青色", "Navy"), "yellow": ("黄色", "Yellow"), "orange": ("橙色", "Orange"),
    "gold": ("金色", "Gold"),
}  # fmt: skip
ALL_COLORS = tuple(COLORS)
NEUTRAL = ("black", "white", "gray", "silver")

TIER_FACTOR = {"budget": 0.5, "mid": 1.0, "premium": 2.0, "luxury": 4.5}
"""Reference price of a model = its type's mid-tier price × its brand's tier factor."""


@dataclass(frozen=True)
class Brand:
    en: str
    zh: str
    tier: str


_TIERS = {"b": "budget", "m": "mid", "p": "premium", "l": "luxury"}


def _brands(spec: str) -> dict[str, Brand]:
    """ "Sony/索尼/p, ..." → brands (zh may equal en)."""
    out = {}
    for item in spec.split(","):
        en, zh, tier = (s.strip() for s in item.split("/"))
        out[en] = Brand(en, zh or en, _TIERS[tier])
    return out


BRANDS: dict[str, Brand] = _brands(
    "Apple/苹果/p, Samsung/三星/p, Huawei/华为/p, Xiaomi/小米/m, Redmi/红米/b, OPPO/OPPO/m, vivo/vivo/m,"
    "Honor/荣耀/m, Google/谷歌/p, OnePlus/一加/m, Lenovo/联想/m, Dell/戴尔/m, HP/惠普/m, ASUS/华硕/m,"
    "Microsoft/微软/p, Sony/索尼/p, Bose/Bose/p, Sennheiser/森海塞尔/p, Audio-Technica/铁三角/m,"
    "Edifier/漫步者/b, JBL/JBL/m, Marshall/Marshall/p, Anker/安克/m, Baseus/倍思/b, Ugreen/绿联/b,"
    "Logitech/罗技/m, Razer/雷蛇/p, Canon/佳能/p, Nikon/尼康/p, Fujifilm/富士/p, DJI/大疆/p,"
    "GoPro/GoPro/p, Insta360/影石/m, TCL/TCL/m, Hisense/海信/m, TP-Link/普联/b, Nintendo/任天堂/p,"
    "Kingston/金士顿/m, SanDisk/闪迪/m, Garmin/佳明/p, Amazfit/华米/b, Epson/爱普生/m, Brother/兄弟/m,"
    "Kindle/Kindle/m, Rode/罗德/p, Haier/海尔/m, Midea/美的/m, Gree/格力/m, Siemens/西门子/p,"
    "Panasonic/松下/p, Philips/飞利浦/m, Dyson/戴森/l, Ecovacs/科沃斯/m, Roborock/石头/m, Supor/苏泊尔/m,"
    "Joyoung/九阳/b, Bear/小熊/b, De'Longhi/德龙/p, Fotile/方太/p, Deerma/德尔玛/b, Smartmi/智米/m,"
    "IKEA/宜家/b, Muji/无印良品/m, Kuka/顾家家居/p, Lin Shi Mu Ye/林氏木业/m, Herman Miller/Herman Miller/l,"
    "Sihoo/西昊/m, Ashley/Ashley/m, Sealy/丝涟/p, Serta/舒达/p, Mercury/水星家纺/m, Luolai/罗莱/p,"
    "Fuanna/富安娜/m, Zwilling/双立人/p, Thermos/膳魔师/m, Tiger/虎牌/p, Zojirushi/象印/p, Lock&Lock/乐扣乐扣/m,"
    "Corelle/康宁/m, Tefal/特福/m, Le Creuset/酷彩/l, Opple/欧普/m, NVC/雷士/m, Yeelight/易来/b,"
    "Tenma/天马/b, Sterilite/Sterilite/b, Blue Moon/蓝月亮/b, Liby/立白/b, Tide/汰渍/m, Vinda/维达/m,"
    "Breeze/清风/b, Yankee Candle/Yankee Candle/m, LEGO/乐高/p, Keeppley/Keeppley/b, Jellycat/Jellycat/p,"
    "Barbie/芭比/m, Hasbro/孩之宝/m, Ravensburger/睿思/m, Bandai/万代/m, Hot Wheels/风火轮/b,"
    "Pampers/帮宝适/m, Huggies/好奇/m, Babycare/Babycare/m, Goodbaby/好孩子/m, Pigeon/贝亲/m,"
    "Aptamil/爱他美/p, Feihe/飞鹤/m, Cybex/Cybex/l, Britax/宝得适/p, Dr. Brown's/布朗博士/m,"
    "Penguin Books/企鹅出版社/m, CITIC Press/中信出版社/m, People's Literature/人民文学出版社/m,"
    "HarperCollins/哈珀柯林斯/m, Scholastic/学乐/m, Deli/得力/b, M&G/晨光/b,"
    "Pilot/百乐/m, Lamy/凌美/p, Moleskine/Moleskine/p, Casio/卡西欧/m, Kokuyo/国誉/m,"
    "Royal Canin/皇家/p, Purina/普瑞纳/m, Orijen/渴望/l, Navarch/耐威克/b, Pidan/pidan/m,"
    "Petkit/小佩/m, Kong/Kong/m, The North Face/北面/p, Columbia/哥伦比亚/m, Decathlon/迪卡侬/b,"
    "Naturehike/挪客/b, Coleman/科勒曼/m, Mobi Garden/牧高笛/m, Black Diamond/Black Diamond/p,"
    "Paradise/天堂伞/b, Totes/Totes/m, Blunt/Blunt/p, Osprey/Osprey/p, Petzl/Petzl/p, Yeti/Yeti/l,"
    "Keep/Keep/b, Lululemon/露露乐蒙/p, Yonex/尤尼克斯/p, Li-Ning/李宁/m, Wilson/威尔胜/m,"
    "Molten/摩腾/m, Spalding/斯伯丁/m, Giant/捷安特/m, Trek/崔克/p, Speedo/速比涛/m, DHS/红双喜/m,"
    "Nike/耐克/p, Adidas/阿迪达斯/p, Anta/安踏/m, New Balance/新百伦/p, Skechers/斯凯奇/m, Puma/彪马/m,"
    "Converse/匡威/m, Dr. Martens/马丁博士/p, Clarks/其乐/p, Birkenstock/勃肯/p, Crocs/卡骆驰/m,"
    "Hunter/Hunter/p, Belle/百丽/m, Hush Puppies/暇步士/m, Merrell/迈乐/p, Salomon/萨洛蒙/p,"
    "Uniqlo/优衣库/b, Levi's/李维斯/m, Zara/Zara/m, H&M/H&M/b, Bosideng/波司登/m, Canada Goose/加拿大鹅/l,"
    "Ralph Lauren/拉夫劳伦/p, Lacoste/Lacoste/p, Semir/森马/b, Peacebird/太平鸟/m, Heilan Home/海澜之家/b,"
    "Burberry/博柏利/l, Max Mara/麦丝玛拉/l, Calvin Klein/CK/p, Bananain/蕉内/m, Ubras/Ubras/m,"
    "Samsonite/新秀丽/p, Rimowa/日默瓦/l, Coach/蔻驰/p, Michael Kors/MK/p, Herschel/Herschel/m,"
    "Xiaomi Luggage/90分/b, Longchamp/珑骧/p, Tumi/途明/l, Seiko/精工/m, Citizen/西铁城/m,"
    "Tissot/天梭/p, Omega/欧米茄/l, Chow Tai Fook/周大福/p, Pandora/潘多拉/m, Swarovski/施华洛世奇/p,"
    "Tiffany & Co./蒂芙尼/l, Ray-Ban/雷朋/p, Oakley/欧克利/p, L'Oréal/欧莱雅/m, Lancôme/兰蔻/l,"
    "Estée Lauder/雅诗兰黛/l, Shiseido/资生堂/p, Perfect Diary/完美日记/b, Florasis/花西子/m,"
    "MAC/魅可/p, Dior/迪奥/l, Chanel/香奈儿/l, Neutrogena/露得清/m, Anessa/安热沙/p, CeraVe/适乐肤/m,"
    "Proya/珀莱雅/m, Winona/薇诺娜/m, Head & Shoulders/海飞丝/b, Pantene/潘婷/b, Kérastase/卡诗/p,"
    "Dove/多芬/b, Nivea/妮维雅/b, Crest/佳洁士/b, Colgate/高露洁/b, Oral-B/欧乐B/m, Braun/博朗/p,"
    "Flyco/飞科/b, Laifen/徕芬/m, OPI/OPI/p, Bioderma/贝德玛/m, Three Squirrels/三只松鼠/b,"
    "Bestore/良品铺子/m, Nestlé/雀巢/m, Lavazza/乐维萨/m, Starbucks/星巴克/p, Illy/illy/p,"
    "Saturnbird/三顿半/m, Lipton/立顿/b, Twinings/川宁/m, Xiao Guan Tea/小罐茶/p, Ferrero/费列罗/p,"
    "Lindt/瑞士莲/p, Oreo/奥利奥/b, Lay's/乐事/b, Pringles/品客/m,"
    "Nissin/日清/m, Master Kong/康师傅/b, Jinlongyu/金龙鱼/m, Arawana Rice/柴火大院/m, Betis/贝蒂斯/m,"
    "Yili/伊利/m, Mengniu/蒙牛/m, Kellogg's/家乐氏/m, Quaker/桂格/m, Myprotein/Myprotein/m,"
    "Optimum Nutrition/ON/p, Comvita/康维他/p, Kerchin/科尔沁/m, Tsingtao/青岛啤酒/m, Budweiser/百威/m,"
    "Changyu/张裕/m, Penfolds/奔富/l, Nongfu Spring/农夫山泉/b, Evian/依云/p, Minute Maid/美汁源/b,"
    "Haitian/海天/b, Lee Kum Kee/李锦记/m, Alpenliebe/阿尔卑斯/b, Haribo/哈瑞宝/m,"
    "70mai/70迈/m, Michelin/米其林/p, Castrol/嘉实多/m, Mobil/美孚/p,"
    "Shell/壳牌/m, Turtle Wax/龟牌/m, Mijia/米家/b, Gardena/嘉丁拿/p, Fiskars/Fiskars/p,"
    "Worx/威克士/m, Greenworks/格力博/m, Scotts/Scotts/m, Bosch/博世/p, Makita/牧田/p,"
    "DeWalt/得伟/p, Stanley/史丹利/m, Deli Tools/得力工具/b, Fluke/福禄克/l, Wiha/威汉/p,"
    "Werner/Werner/m, Nitecore/奈特科尔/m, Fenix/菲尼克斯/p"
)  # fmt: skip

GENERIC_BRAND = Brand("Generic", "无品牌", "budget")


@dataclass(frozen=True)
class RealModel:
    """A real model of a real brand, with the facts its listings quote."""

    brand: str
    name: str
    price_cny: float
    specs: dict[str, str] = field(default_factory=dict)
    colors: tuple[str, ...] = ()
    marquee: bool = False
    """Sold on all six platforms (price comparison)."""


def _real(type_slug: str, rows: str) -> list[tuple[str, RealModel]]:
    """`brand | model | price | k=v k=v | colors | *` rows (one per line; * = marquee)."""
    out = []
    for line in rows.strip().splitlines():
        cells = [c.strip() for c in line.split("|")]
        brand, name, price = cells[0], cells[1], float(cells[2])
        specs = dict(kv.split("=") for kv in cells[3].split()) if len(cells) > 3 else {}
        colors = tuple(cells[4].split()) if len(cells) > 4 and cells[4] else ()
        marquee = len(cells) > 5 and cells[5] == "*"
        out.append((type_slug, RealModel(brand, name, price, specs, colors, marquee)))
    return out


# Real models with their real specs (storage_gb, ram_gb, screen_in, battery_mah, power_w,
# battery_h ...). Prices are typical current street prices in CNY. These are the ONLY models
# the flagship lines (iPhone, Galaxy S, WH-1000XM, AirPods ...) ever get.
_REAL_ROWS = [
    *_real("smartphone", """
        Apple | iPhone 15 | 5999 | storage_gb=128 screen_in=6.1 battery_mah=3349 | black blue pink green | *
        Apple | iPhone 15 Pro | 7999 | storage_gb=256 screen_in=6.1 battery_mah=3274 | black white gray
        Apple | iPhone 15 Pro Max | 9999 | storage_gb=256 screen_in=6.7 battery_mah=4422 | black white gray
        Apple | iPhone 14 | 4999 | storage_gb=128 screen_in=6.1 battery_mah=3279 | black purple blue
        Apple | iPhone 13 | 3999 | storage_gb=128 screen_in=6.1 battery_mah=3240 | black white pink
        Samsung | Galaxy S24 | 5499 | storage_gb=256 ram_gb=8 screen_in=6.2 battery_mah=4000 | black gray purple | *
        Samsung | Galaxy S24 Ultra | 9699 | storage_gb=256 ram_gb=12 screen_in=6.8 battery_mah=5000 | black gray purple
        Samsung | Galaxy A55 | 2699 | storage_gb=256 ram_gb=8 screen_in=6.6 battery_mah=5000 | blue black
        Huawei | Mate 60 Pro | 6999 | storage_gb=512 ram_gb=12 screen_in=6.82 battery_mah=5000 | black green white | *
        Huawei | Pura 70 | 5499 | storage_gb=256 ram_gb=12 screen_in=6.6 battery_mah=4900 | black white pink
        Huawei | nova 12 | 2999 | storage_gb=256 ram_gb=8 screen_in=6.7 battery_mah=4600 | black green white
        Xiaomi | Xiaomi 14 | 3999 | storage_gb=256 ram_gb=12 screen_in=6.36 battery_mah=4610 | black white green | *
        Redmi | Redmi Note 13 Pro | 1399 | storage_gb=256 ram_gb=8 screen_in=6.67 battery_mah=5100 | black blue purple
        Redmi | Redmi 13C | 699 | storage_gb=128 ram_gb=4 screen_in=6.74 battery_mah=5000 | black green blue
        OPPO | Reno11 | 2499 | storage_gb=256 ram_gb=12 screen_in=6.7 battery_mah=4800 | black green
        OPPO | Find X7 | 3999 | storage_gb=256 ram_gb=12 screen_in=6.78 battery_mah=5000 | black blue
        vivo | X100 | 3999 | storage_gb=256 ram_gb=12 screen_in=6.78 battery_mah=5000 | black white blue
        Honor | Magic6 | 4399 | storage_gb=256 ram_gb=12 screen_in=6.78 battery_mah=5450 | black green
        Google | Pixel 8 | 4999 | storage_gb=128 ram_gb=8 screen_in=6.2 battery_mah=4575 | black pink
        OnePlus | OnePlus 12 | 4299 | storage_gb=256 ram_gb=12 screen_in=6.82 battery_mah=5400 | black green
    """),
    *_real("tablet", """
        Apple | iPad Air 11 (M2) | 4799 | storage_gb=128 screen_in=11 | blue purple gray
        Apple | iPad (10th generation) | 2999 | storage_gb=64 screen_in=10.9 | blue pink silver | *
        Samsung | Galaxy Tab S9 | 5999 | storage_gb=128 screen_in=11 | gray beige
        Xiaomi | Xiaomi Pad 6 | 1999 | storage_gb=128 screen_in=11 battery_mah=8840 | gray blue
        Huawei | MatePad 11.5 | 1999 | storage_gb=128 screen_in=11.5 battery_mah=7700 | gray white
        Lenovo | Tab P12 | 1999 | storage_gb=128 screen_in=12.7 battery_mah=10200 | gray
    """),
    *_real("laptop", """
        Apple | MacBook Air 13 (M3) | 8999 | storage_gb=256 ram_gb=8 screen_in=13.6 | silver gray gold | *
        Apple | MacBook Pro 14 (M3) | 12999 | storage_gb=512 ram_gb=8 screen_in=14.2 | silver black
        Lenovo | ThinkPad X1 Carbon Gen 11 | 10999 | storage_gb=512 ram_gb=16 screen_in=14 | black
        Lenovo | Legion Y7000P | 7499 | storage_gb=1024 ram_gb=16 screen_in=16 | gray
        Dell | XPS 13 | 8999 | storage_gb=512 ram_gb=16 screen_in=13.4 | silver
        HP | Pavilion 14 | 4299 | storage_gb=512 ram_gb=16 screen_in=14 | silver
        ASUS | Zenbook 14 OLED | 5999 | storage_gb=1024 ram_gb=16 screen_in=14 | blue
        Huawei | MateBook 14 | 5299 | storage_gb=1024 ram_gb=16 screen_in=14.2 | gray
        Microsoft | Surface Laptop 5 | 7888 | storage_gb=256 ram_gb=8 screen_in=13.5 | silver black
    """),
    *_real("over_ear_headphones", """
        Sony | WH-1000XM5 | 2299 | battery_h=30 material=plastic | black silver blue | *
        Sony | WH-1000XM4 | 1699 | battery_h=30 material=plastic | black silver | *
        Bose | QuietComfort Ultra Headphones | 2999 | battery_h=24 material=metal | black white | *
        Apple | AirPods Max | 3999 | battery_h=20 material=aluminum | silver blue pink | *
        Audio-Technica | ATH-M50x | 1099 | material=plastic | black white | *
        Audio-Technica | ATH-WP900 | 2999 | material=wood | brown
        Edifier | W820NB | 299 | battery_h=49 material=plastic | black white blue | *
        Sennheiser | Momentum 4 Wireless | 2199 | battery_h=60 material=plastic | black white | *
        Sennheiser | HD 599 | 999 | material=plastic | beige
        JBL | Tune 770NC | 699 | battery_h=70 | black blue white
        Marshall | Major IV | 999 | battery_h=80 | black brown
    """),
    *_real("earbuds", """
        Apple | AirPods Pro 2 | 1799 | battery_h=6 | white | *
        Apple | AirPods 3 | 1299 | battery_h=6 | white
        Sony | WF-1000XM5 | 1999 | battery_h=8 | black silver | *
        Samsung | Galaxy Buds2 Pro | 1099 | battery_h=5 | black white purple
        Huawei | FreeBuds Pro 3 | 1499 | battery_h=6.5 | white green silver
        Redmi | Redmi Buds 5 | 199 | battery_h=10 | black white blue | *
        Anker | Soundcore Liberty 4 NC | 599 | battery_h=10 | black white blue
        Edifier | NeoBuds Pro 2 | 699 | battery_h=6 | black white
    """),
    *_real("bluetooth_speaker", """
        JBL | Flip 6 | 899 | power_w=30 battery_h=12 | black blue red | *
        JBL | Charge 5 | 1199 | power_w=40 battery_h=20 | black blue gray
        Bose | SoundLink Flex | 1099 | battery_h=12 | black blue white
        Marshall | Emberton II | 1299 | power_w=20 battery_h=30 | black beige
        Sony | SRS-XB100 | 399 | battery_h=16 | black blue
        Anker | Soundcore Motion 300 | 599 | power_w=30 battery_h=13 | black blue green
    """),
    *_real("smartwatch", """
        Apple | Apple Watch Series 9 | 2999 | screen_in=1.9 | black silver pink | *
        Apple | Apple Watch SE | 1999 | screen_in=1.78 | black silver
        Huawei | Watch GT 4 | 1488 | screen_in=1.43 | black brown green
        Samsung | Galaxy Watch6 | 1999 | screen_in=1.5 | black silver
        Garmin | Forerunner 265 | 3280 | screen_in=1.3 | black white
        Xiaomi | Xiaomi Watch S3 | 799 | screen_in=1.43 | black silver
        Amazfit | GTR 4 | 999 | screen_in=1.43 | black brown
    """),
    *_real("fitness_band", """
        Xiaomi | Smart Band 8 | 239 | | black gold | *
        Huawei | Band 9 | 269 | | black pink white
        Amazfit | Band 7 | 249 | | black pink
    """),
    *_real("camera", """
        Sony | Alpha 7 IV | 15999 | | black | *
        Sony | ZV-E10 | 4999 | | black white
        Canon | EOS R6 Mark II | 14999 | | black
        Canon | EOS R50 | 5199 | | black white
        Nikon | Z6 II | 10999 | | black
        Fujifilm | X-T5 | 11999 | | black silver
        Fujifilm | X100VI | 10999 | | black silver
    """),
    *_real("action_camera", """
        GoPro | HERO12 Black | 2998 | | black | *
        DJI | Osmo Action 4 | 2098 | | black
        Insta360 | X3 | 2998 | | black
    """),
    *_real("game_console", """
        Nintendo | Switch OLED | 2099 | storage_gb=64 screen_in=7 | white red | *
        Sony | PlayStation 5 Slim | 3599 | storage_gb=1024 | white
        Microsoft | Xbox Series X | 3899 | storage_gb=1024 | black
        Microsoft | Xbox Series S | 2399 | storage_gb=512 | white
    """),
    *_real("gamepad", """
        Sony | DualSense Wireless Controller | 449 | | white black red | *
        Microsoft | Xbox Wireless Controller | 399 | | black white blue
        Nintendo | Switch Pro Controller | 429 | | black
    """),
    *_real("e_reader", """
        Kindle | Kindle Paperwhite | 1099 | storage_gb=16 screen_in=6.8 | black | *
        Kindle | Kindle Scribe | 2599 | storage_gb=32 screen_in=10.2 | gray
    """),
    *_real("drone", """
        DJI | Mini 4 Pro | 4788 | | gray | *
        DJI | Mini 3 | 2499 | | gray
        DJI | Air 3 | 6988 | | gray
    """),
    *_real("vacuum_cleaner", """
        Dyson | V12 Detect Slim | 4490 | power_w=545 | gold yellow | *
        Dyson | V15 Detect | 5490 | power_w=660 | yellow
        Xiaomi | Mijia Cordless Vacuum 2 | 1299 | power_w=450 | white
    """),
    *_real("robot_vacuum", """
        Roborock | S8 Pro Ultra | 5999 | | black white | *
        Ecovacs | DEEBOT T30 Pro Omni | 4299 | | white black
    """),
    *_real("hair_dryer", """
        Dyson | Supersonic HD15 | 3199 | power_w=1600 | pink blue gray | *
        Laifen | Swift SE | 399 | power_w=1400 | white black pink
        Panasonic | EH-NA0J | 1299 | power_w=1600 | white pink
    """),
    *_real("electric_toothbrush", """
        Philips | Sonicare 9900 Prestige | 1999 | | white black
        Oral-B | iO Series 9 | 2599 | | black pink | *
    """),
    *_real("building_blocks", """
        LEGO | Millennium Falcon 75192 | 6499 | | gray | *
        LEGO | Botanical Bouquet 10280 | 399 | | green
        LEGO | Technic Bugatti Chiron 42083 | 2999 | | blue
    """),
    *_real("running_shoes", """
        Nike | Air Zoom Pegasus 40 | 899 | | black white blue | *
        Adidas | Ultraboost Light | 1299 | | black white | *
        Li-Ning | Chitu 6 Pro | 399 | | white red | *
        New Balance | Fresh Foam X 1080v13 | 1299 | | gray blue
        Anta | C202 GT | 499 | | white black
    """),
    *_real("sneakers", """
        Converse | Chuck Taylor All Star | 469 | | black white red | *
        Nike | Air Force 1 '07 | 799 | | white black
        Adidas | Stan Smith | 799 | | white green
        New Balance | 574 | 699 | | gray navy beige
    """),
    *_real("boots", """
        Dr. Martens | 1460 | 1499 | | black red | *
        Clarks | Desert Boot | 1299 | | brown beige
    """),
    *_real("sandals", """
        Birkenstock | Arizona | 899 | | black brown white | *
        Crocs | Classic Clog | 399 | | black white pink green
    """),
    *_real("jeans", """
        Levi's | 501 Original | 699 | | blue black | *
        Levi's | 511 Slim | 599 | | blue gray
    """),
    *_real("jacket", """
        Levi's | Trucker Jacket | 699 | | blue black | *
        Zara | Faux Leather Biker Jacket | 599 | | black brown | *
    """),
    *_real("down_jacket", """
        The North Face | 1996 Retro Nuptse | 2599 | | black navy | *
        Canada Goose | Expedition Parka | 12000 | | black red navy
        Bosideng | Classic Hooded Down Jacket | 1499 | | black navy khaki
    """),
    *_real("wool_coat", """
        Uniqlo | Wool Blend Chester Coat | 799 | | gray navy beige | *
        Max Mara | 101801 Icon Coat | 28000 | | beige black
    """),
    *_real("suitcase", """
        Samsonite | Proxis Spinner 55 | 3299 | | black silver | *
        Rimowa | Essential Cabin | 7500 | | black silver
        Xiaomi Luggage | 90FUN PC Trolley 20 | 299 | | black gray blue
    """),
    *_real("watch", """
        Casio | G-Shock GA-2100 | 899 | | black white green | *
        Seiko | Presage SRPD37 | 3200 | | silver brown
        Tissot | PRX Powermatic 80 | 5600 | | silver blue
        Omega | Seamaster Diver 300M | 45000 | | silver blue black
        Citizen | Eco-Drive BM8180 | 1199 | | black green
    """),
    *_real("sunglasses", """
        Ray-Ban | RB2140 Wayfarer | 1390 | | black brown | *
        Oakley | Holbrook | 1280 | | black blue
    """),
    *_real("lipstick", """
        MAC | Matte Lipstick Ruby Woo | 230 | | red | *
        Dior | Rouge Dior 999 | 380 | | red pink
    """),
    *_real("face_cream", """
        Lancôme | Rénergie H.P.N. 300-Peptide Cream 50ml | 1350 | volume_ml=50 | white | *
        Estée Lauder | Revitalizing Supreme+ 50ml | 780 | volume_ml=50 | white
        CeraVe | Moisturizing Cream 454g | 168 | volume_ml=454 | white
    """),
    *_real("serum", """
        Estée Lauder | Advanced Night Repair 50ml | 1050 | volume_ml=50 | brown | *
        Lancôme | Advanced Génifique 50ml | 1080 | volume_ml=50 | black
    """),
    *_real("perfume", """
        Chanel | Coco Mademoiselle EDP 50ml | 1250 | volume_ml=50 | pink beige | *
        Dior | Sauvage EDT 100ml | 1080 | volume_ml=100 | blue black
    """),
    *_real("mixed_nuts", """
        Three Squirrels | Daily Nuts 750g | 129 | weight_g=750 | red | *
    """),
    *_real("chocolate", """
        Ferrero | Rocher 16 pcs | 79 | weight_g=200 | gold brown | *
        Lindt | Excellence 70% Cocoa 100g | 32 | weight_g=100 | brown
    """),
    *_real("instant_coffee", """
        Nestlé | Nescafé 1+2 Original 30 sticks | 45 | weight_g=450 | red | *
        Saturnbird | Super Instant Coffee No.3 24 cups | 169 | weight_g=72 | brown
    """),
    *_real("power_drill", """
        Bosch | GSR 120-LI | 699 | voltage_v=12 | blue | *
        Makita | DF333D | 899 | voltage_v=12 | blue
        DeWalt | DCD777 | 1299 | voltage_v=20 | yellow
    """),
]  # fmt: skip
REAL_MODELS: dict[str, list[RealModel]] = {}
for _slug, _model in _REAL_ROWS:
    REAL_MODELS.setdefault(_slug, []).append(_model)

FLAGSHIP_LINES = (
    "iPhone", "iPad", "MacBook", "AirPods", "Apple Watch", "Galaxy", "Pixel", "Mate ", "Pura ",
    "WH-1000XM", "WF-1000XM", "QuietComfort", "PlayStation", "Xbox", "Switch", "Kindle",
    "Alpha 7", "EOS R", "HERO", "Supersonic", "Ultraboost", "Pegasus", "Air Force", "Nuptse",
    "Seamaster", "Wayfarer", "Millennium Falcon",
)  # fmt: skip
"""Lines whose models exist only as listed in REAL_MODELS: a generated model name never
contains them (no "iPhone 317")."""

REAL_ONLY_BRANDS = frozenset(
    {"Apple", "Samsung", "Google", "Dyson", "Nintendo", "Kindle", "DJI", "GoPro", "Insta360",
     "Canada Goose", "Max Mara", "Rimowa", "Omega", "Chanel", "Dior", "Ferrero", "Roborock"}
)  # fmt: skip
"""Brands that never get a generated model: they appear only with their real ones."""


@dataclass(frozen=True)
class Family:
    """How the product types of one family are made: brands, materials, colors, sizes,
    specs and the generic model-name patterns of brands without a real-model table."""

    brands: tuple[str, ...]
    materials: tuple[str, ...] = ()
    colors: tuple[str, ...] = ALL_COLORS
    sizes: str = ""
    specs: str = ""
    names: tuple[str, ...] = ("{L}{N}",)
    """Generic model-name patterns: {L} = 1-2 brand letters, {N} = a number, {W} = a style word."""
    words: tuple[str, ...] = ("Classic", "Essential", "Pro", "Lite", "Plus", "Max", "Air", "Neo")


def _f(brands: str, **kw: object) -> Family:
    return Family(brands=tuple(b.strip() for b in brands.split(",")), **kw)  # type: ignore[arg-type]


_APPAREL_WORDS = (
    "Essential",
    "Classic",
    "Everyday",
    "Urban",
    "Relaxed",
    "Heritage",
    "Studio",
    "Active",
)
_HOME_WORDS = ("Nordic", "Classic", "Modern", "Cozy", "Simple", "Loft", "Oak", "Cloud")

FAMILIES: dict[str, Family] = {
    "phone": _f("Xiaomi, Redmi, OPPO, vivo, Honor, Huawei, OnePlus", materials=("glass", "aluminum", "plastic"),
                colors=("black", "white", "blue", "green", "purple"), specs="phone", names=("{L}{N}", "{L}{N} Pro")),
    "tablet": _f("Lenovo, Huawei, Xiaomi, Honor, OPPO", materials=("aluminum",), colors=("gray", "silver", "blue"), specs="tablet"),
    "laptop": _f("Lenovo, Dell, HP, ASUS, Huawei, Honor", materials=("aluminum", "plastic"), colors=("silver", "gray", "black"),
                 specs="laptop", names=("{L}{N}", "{W} {N}")),
    "monitor": _f("Dell, HP, ASUS, Lenovo, Xiaomi, Samsung, TCL", materials=("plastic", "metal"), colors=("black", "white", "silver"), specs="monitor"),
    "audio": _f("Sony, Edifier, JBL, Anker, Baseus, Ugreen, Audio-Technica, Sennheiser, Xiaomi, Huawei, Philips",
                materials=("plastic", "plastic", "metal", "aluminum", "wood"), colors=("black", "white", "silver", "blue", "beige", "brown", "pink"),
                specs="audio", names=("{L}{N}", "{L}-{N}")),
    "speaker": _f("JBL, Edifier, Marshall, Sony, Anker, Xiaomi, Bose", materials=("plastic", "metal", "wood", "nylon"), specs="speaker"),
    "wearable": _f("Huawei, Xiaomi, Amazfit, Garmin, Honor", materials=("silicone", "stainless", "titanium"),
                   colors=("black", "silver", "pink", "green"), specs="wearable"),
    "charging": _f("Anker, Baseus, Ugreen, Xiaomi, Huawei, Philips", materials=("plastic", "aluminum", "nylon"),
                   colors=("black", "white", "blue", "gray"), specs="charging"),
    "peripheral": _f("Logitech, Razer, Xiaomi, Philips, Ugreen, Dell", materials=("plastic", "aluminum"),
                     colors=("black", "white", "gray", "pink"), specs="peripheral", names=("{L}{N}", "{W} {L}{N}")),
    "camera": _f("Canon, Nikon, Sony, Fujifilm, Xiaomi, Ugreen, Logitech, 70mai", materials=("plastic", "metal"),
                 colors=("black", "silver", "white"), specs="camera"),
    "tv": _f("TCL, Hisense, Xiaomi, Sony, Philips, Haier", materials=("metal", "plastic"), colors=("black", "silver", "gray"), specs="tv"),
    "network": _f("TP-Link, Huawei, Xiaomi, ASUS", materials=("plastic",), colors=("white", "black"), specs="router"),
    "gaming": _f("Razer, Logitech, Xiaomi, Sony", materials=("plastic",), colors=("black", "white", "red", "blue")),
    "storage_device": _f("Kingston, SanDisk, Samsung, Lenovo, Ugreen", materials=("metal", "plastic"), colors=("black", "silver", "blue"), specs="storage"),
    "phone_case": _f("Baseus, Ugreen, Anker, Xiaomi", materials=("silicone", "tpe", "leather", "plastic"), names=("{W} Case {N}",)),
    "printer": _f("HP, Epson, Canon, Brother", materials=("plastic",), colors=("white", "black", "gray"), specs="printer"),
    "mic": _f("Rode, Audio-Technica, Razer, Ugreen", materials=("metal", "plastic"), colors=("black", "white")),
    "big_appliance": _f("Haier, Midea, Gree, Siemens, Panasonic, Hisense, TCL, Xiaomi", materials=("stainless", "metal", "glass"),
                        colors=("white", "silver", "gray", "black"), specs="big_appliance", names=("{L}-{N}", "{L}{N}{L}")),
    "small_appliance": _f("Midea, Supor, Joyoung, Bear, Philips, Xiaomi, Panasonic, Deerma, De'Longhi, Tefal, Smartmi",
                          materials=("stainless", "plastic", "glass", "ceramic"), colors=("white", "silver", "black", "green", "pink", "gray"),
                          specs="small_appliance", names=("{L}-{N}", "{L}{N}")),
    "cleaning_appliance": _f("Xiaomi, Ecovacs, Roborock, Philips, Midea, Deerma, Panasonic", materials=("plastic", "metal"),
                             colors=("white", "black", "gray"), specs="cleaning_appliance", names=("{L}{N}", "{W} {L}{N}")),
    "climate": _f("Midea, Gree, Smartmi, Xiaomi, Philips, Panasonic, Deerma, Dyson", materials=("plastic", "metal"),
                  colors=("white", "gray", "black"), specs="climate", names=("{L}-{N}", "{L}{N}")),
    "furniture": _f("IKEA, Muji, Kuka, Lin Shi Mu Ye, Ashley, Generic", materials=("wood", "engineered_wood", "metal", "fabric", "leather", "bamboo"),
                    colors=("white", "brown", "beige", "gray", "black", "green"), specs="furniture", names=("{W} {N}", "{W}"), words=_HOME_WORDS),
    "chair": _f("Herman Miller, Sihoo, IKEA, Lin Shi Mu Ye, Generic", materials=("mesh", "fabric", "leather", "wood", "plastic"),
                colors=("black", "gray", "white", "beige", "blue"), specs="furniture", names=("{W} {L}{N}",), words=("Ergo", "Classic", "Comfort", "Task")),
    "mattress": _f("Sealy, Serta, Muji, IKEA, Lin Shi Mu Ye", materials=("latex", "foam", "cotton"), colors=("white", "beige", "gray"),
                   sizes="bed", specs="furniture", names=("{W} {N}",), words=("Cloud", "Comfort", "Firm", "Plush", "Hybrid")),
    "textile": _f("Mercury, Luolai, Fuanna, Muji, IKEA, Uniqlo, Generic", materials=("cotton", "silk", "polyester", "linen", "bamboo", "wool", "down"),
                  colors=("white", "gray", "beige", "blue", "pink", "green", "brown"), sizes="bed", specs="textile", names=("{W} {N}", "{W}"), words=_HOME_WORDS),
    "lighting": _f("Philips, Opple, NVC, Yeelight, IKEA, Muji, Xiaomi", materials=("metal", "wood", "plastic", "glass", "bamboo"),
                   colors=("white", "black", "silver", "beige", "gold"), specs="lighting", names=("{L}{N}", "{W} {L}{N}")),
    "storage": _f("Tenma, Muji, IKEA, Sterilite, Generic", materials=("plastic", "fabric", "bamboo", "metal", "wood"),
                  colors=("white", "gray", "beige", "blue", "green", "pink"), specs="storage_capacity", names=("{W} {N}",), words=_HOME_WORDS),
    "household": _f("Blue Moon, Liby, Tide, Vinda, Breeze, Muji, Yankee Candle, IKEA, Generic", materials=("plastic", "paper", "glass", "metal", "cotton"),
                    colors=("white", "blue", "green", "pink", "gray"), specs="household", names=("{W} {N}", "{W}"), words=("Fresh", "Clean", "Soft", "Pure", "Gentle", "Classic")),
    "cookware": _f("Supor, Zwilling, Tefal, Le Creuset, Fotile, IKEA, Muji, Generic", materials=("stainless", "cast_iron", "ceramic", "aluminum", "metal"),
                   colors=("black", "silver", "red", "gray", "green"), specs="cookware", names=("{W} {N}", "{L}{N}"), words=("Chef", "Classic", "Pro", "Home", "Easy")),
    "tableware": _f("Thermos, Tiger, Zojirushi, Lock&Lock, Corelle, IKEA, Muji, Zwilling, Generic", materials=("stainless", "ceramic", "glass", "plastic", "bamboo", "silicone"),
                    colors=("white", "black", "blue", "pink", "green", "gray", "beige"), specs="tableware", names=("{L}{N}", "{W} {N}"), words=("Daily", "Classic", "Go", "Slim", "Home")),
    "toy": _f("LEGO, Keeppley, Jellycat, Barbie, Hasbro, Ravensburger, Bandai, Hot Wheels, Generic", materials=("plastic", "cotton", "polyester", "wood", "paper"),
              colors=("red", "blue", "yellow", "pink", "green", "brown", "white"), specs="toy", names=("{W} {N}",), words=("Adventure", "Happy", "Junior", "Creative", "Little", "Explorer")),
    "drone": _f("DJI", materials=("plastic",), colors=("gray",)),
    "baby_gear": _f("Goodbaby, Babycare, Cybex, Britax, Pigeon, Dr. Brown's", materials=("aluminum", "polyester", "plastic", "silicone", "cotton", "glass"),
                    colors=("gray", "black", "beige", "blue", "pink", "white"), specs="baby_gear", names=("{W} {N}", "{L}{N}"), words=("Comfy", "Light", "Safe", "Cozy", "Natural")),
    "baby_consumable": _f("Pampers, Huggies, Babycare, Pigeon, Aptamil, Feihe, Nestlé", colors=("white", "blue", "pink"),
                          sizes="diapers", specs="baby_consumable", names=("{W} {N}", "{W}"), words=("Soft", "Gold", "Natural", "Air", "Premium")),
    "baby_clothes": _f("Babycare, Uniqlo, H&M, Generic", materials=("cotton", "bamboo"), colors=("white", "pink", "blue", "yellow", "green", "beige"),
                       sizes="baby", names=("{W} {N}",), words=_APPAREL_WORDS),
    "book": _f("Penguin Books, CITIC Press, People's Literature, HarperCollins, Scholastic", materials=("paper",),
               colors=("white", "blue", "red", "green", "black", "yellow"), specs="book", names=("{B}",)),
    "stationery": _f("Deli, M&G, Pilot, Lamy, Moleskine, Kokuyo, Casio, Muji", materials=("plastic", "metal", "paper", "leather"),
                     colors=("black", "blue", "red", "white", "pink", "green"), specs="stationery", names=("{L}{N}", "{W} {N}"), words=("Classic", "Smooth", "Study", "Office", "Mini")),
    "pet_food": _f("Royal Canin, Purina, Orijen, Navarch, Pidan", colors=("brown", "red", "green", "blue"), specs="pet_food",
                   names=("{W} {N}", "{W}"), words=("Adult", "Kitten", "Puppy", "Indoor", "Grain-Free", "Senior")),
    "pet_supply": _f("Petkit, Pidan, Kong, IKEA, Generic", materials=("plastic", "cotton", "nylon", "wood", "rubber", "glass"),
                     colors=("gray", "beige", "blue", "pink", "green", "brown"), specs="pet_supply", names=("{W} {N}",), words=("Cozy", "Play", "Fresh", "Happy", "Classic")),
    "camping": _f("Naturehike, Coleman, Mobi Garden, Decathlon, Black Diamond, Petzl, Osprey, Yeti, The North Face", materials=("nylon", "polyester", "aluminum", "carbon", "plastic", "stainless"),
                  colors=("green", "khaki", "orange", "blue", "gray", "black"), specs="camping", names=("{W} {N}", "{L}{N}"), words=("Trail", "Summit", "Ridge", "Basecamp", "Explorer")),
    "rain": _f("Paradise, Totes, Blunt, Columbia, Decathlon, Muji, Generic", materials=("pvc", "polyester", "nylon", "eva"),
               colors=("black", "navy", "yellow", "red", "green", "pink", "blue", "beige"), specs="rain", names=("{W} {N}",), words=("Storm", "Compact", "Classic", "Windproof", "Daily")),
    "fitness": _f("Keep, Decathlon, Lululemon, Li-Ning, Anta, Nike, Adidas", materials=("tpe", "rubber", "metal", "nylon", "polyester", "plastic"),
                  colors=("purple", "pink", "blue", "black", "green", "gray"), specs="fitness", names=("{W} {N}",), words=("Flow", "Core", "Pro", "Studio", "Power")),
    "racket": _f("Yonex, Li-Ning, Wilson, DHS, Decathlon", materials=("carbon", "aluminum", "wood"), colors=("blue", "red", "black", "white"),
                 specs="racket", names=("{W} {N}",), words=("Aero", "Power", "Speed", "Control", "Tour")),
    "ball": _f("Molten, Spalding, Wilson, Nike, Adidas, Li-Ning", materials=("leather", "rubber", "polyester"), colors=("orange", "white", "black", "blue"),
               specs="ball", names=("{W} {N}",), words=("Pro", "Street", "Match", "Training", "Indoor")),
    "cycling": _f("Giant, Trek, Decathlon, Xiaomi, Keep, Generic", materials=("aluminum", "carbon", "metal", "plastic"), colors=("black", "white", "red", "blue", "gray"),
                  specs="cycling", names=("{W} {N}", "{L}{N}"), words=("Escape", "Trail", "City", "Speed", "Urban")),
    "swim": _f("Speedo, Decathlon, Li-Ning", materials=("silicone", "nylon"), colors=("black", "blue", "pink", "white"), names=("{W} {N}",), words=("Aqua", "Pro", "Vision")),
    "shoes": _f("Nike, Adidas, Li-Ning, Anta, New Balance, Skechers, Puma, Converse, Clarks, Belle, Hush Puppies, Merrell, Salomon, Crocs, Hunter",
                materials=("mesh", "leather", "canvas", "rubber", "nylon", "faux_leather"), colors=ALL_COLORS, sizes="shoes", specs="shoes",
                names=("{W} {N}",), words=("Flex", "Court", "Street", "Trail", "Cloud", "Classic", "Urban", "Breeze")),
    "kids_shoes": _f("Nike, Adidas, Anta, Li-Ning, Skechers, Crocs", materials=("mesh", "leather", "canvas"), colors=ALL_COLORS, sizes="kids_shoes",
                     names=("{W} Kids {N}",), words=("Flex", "Jump", "Play", "Light")),
    "apparel": _f("Uniqlo, Levi's, Zara, H&M, Semir, Peacebird, Heilan Home, Ralph Lauren, Lacoste, Nike, Adidas, Li-Ning, Anta, Calvin Klein, Bananain, Ubras, Lululemon, Muji",
                  materials=("cotton", "cotton", "polyester", "wool", "linen", "silk", "denim", "cashmere", "nylon"), colors=ALL_COLORS, sizes="clothing",
                  specs="apparel", names=("{W} {N}", "{W}"), words=_APPAREL_WORDS),
    "outerwear": _f("Uniqlo, The North Face, Columbia, Bosideng, Zara, H&M, Burberry, Peacebird, Semir, Levi's, Li-Ning, Anta",
                    materials=("down", "wool", "polyester", "nylon", "cotton", "leather", "cashmere"), colors=("black", "navy", "khaki", "beige", "gray", "brown", "green", "red"),
                    sizes="clothing", specs="apparel", names=("{W} {N}", "{W}"), words=_APPAREL_WORDS),
    "accessory_wear": _f("Uniqlo, Muji, Zara, H&M, Burberry, Calvin Klein, Levi's, Generic", materials=("wool", "cotton", "cashmere", "silk", "leather", "polyester"),
                         colors=ALL_COLORS, sizes="one_size", names=("{W} {N}",), words=_APPAREL_WORDS),
    "bags": _f("Samsonite, Coach, Michael Kors, Herschel, Longchamp, Tumi, Xiaomi Luggage, Muji, Zara, Generic",
               materials=("leather", "faux_leather", "nylon", "canvas", "polyester", "aluminum"), colors=("black", "brown", "beige", "navy", "gray", "pink", "red"),
               specs="bags", names=("{W} {N}", "{W}"), words=("City", "Classic", "Voyager", "Metro", "Weekender", "Mini")),
    "jewelry": _f("Chow Tai Fook, Pandora, Swarovski, Tiffany & Co., Generic", materials=("gold", "silver925", "stainless"),
                  colors=("gold", "silver", "pink"), sizes="rings", specs="jewelry", names=("{W} {N}",), words=("Heart", "Classic", "Infinity", "Pearl", "Love", "Charm")),
    "watch": _f("Casio, Seiko, Citizen, Tissot", materials=("stainless", "leather", "titanium", "rubber"), colors=("black", "silver", "blue", "green", "brown"),
                names=("{L}{N}",)),
    "eyewear": _f("Ray-Ban, Oakley, Generic", materials=("metal", "plastic", "titanium"), colors=("black", "brown", "gold", "silver"), names=("{L}{N}",)),
    "makeup": _f("L'Oréal, Perfect Diary, Florasis, MAC, Lancôme, Estée Lauder, Shiseido, Dior, OPI", colors=("red", "pink", "brown", "purple", "beige", "orange"),
                 specs="cosmetic", names=("{W} #{N}", "{W} {N}"), words=("Velvet", "Matte", "Silk", "Glow", "Rouge", "Satin")),
    "skincare": _f("L'Oréal, Lancôme, Estée Lauder, Shiseido, Neutrogena, Anessa, CeraVe, Proya, Winona, Bioderma, Nivea, Dove", colors=("white", "blue", "pink", "green"),
                   specs="cosmetic", names=("{W} {N}", "{W}"), words=("Hydra", "Revital", "Pure", "Gentle", "Bright", "Calm", "Repair")),
    "haircare": _f("Head & Shoulders, Pantene, Kérastase, L'Oréal, Shiseido, Dove, Muji", colors=("white", "blue", "green", "pink"),
                   specs="cosmetic", names=("{W} {N}", "{W}"), words=("Repair", "Smooth", "Fresh", "Volume", "Anti-Dandruff")),
    "oral_body": _f("Crest, Colgate, Oral-B, Philips, Dove, Nivea", colors=("white", "blue", "green", "pink"), specs="cosmetic",
                    names=("{W} {N}", "{W}"), words=("Fresh", "Whitening", "Sensitive", "Gentle", "Pro")),
    "grooming": _f("Philips, Braun, Flyco, Panasonic, Laifen, Xiaomi, Dyson", materials=("plastic", "metal", "ceramic"), colors=("black", "white", "pink", "silver", "blue"),
                   specs="grooming", names=("{L}{N}", "{L}-{N}")),
    "food": _f("Three Squirrels, Bestore, Nestlé, Lavazza, Starbucks, Illy, Saturnbird, Lipton, Twinings, Xiao Guan Tea, Lindt, Oreo, Lay's, Pringles, "
               "Nissin, Master Kong, Jinlongyu, Arawana Rice, Betis, Yili, Mengniu, Kellogg's, Quaker, Myprotein, Optimum Nutrition, Comvita, Kerchin, Tsingtao, "
               "Budweiser, Changyu, Penfolds, Nongfu Spring, Evian, Minute Maid, Haitian, Lee Kum Kee, Alpenliebe, Haribo",
               colors=("brown", "red", "green", "yellow", "white", "black"), specs="food", names=("{W}", "{W} {N}"),
               words=("Original", "Classic", "Gold", "Premium", "Family Pack", "Daily", "Organic", "Select")),
    "auto": _f("70mai, Michelin, Castrol, Mobil, Shell, Turtle Wax, Mijia, Baseus, Ugreen, Anker, Generic",
               materials=("plastic", "metal", "leather", "fabric", "silicone"), colors=("black", "gray", "beige", "red", "blue"), specs="auto", names=("{L}{N}", "{W} {N}"),
               words=("Drive", "Road", "Pro", "Travel", "Clean")),
    "garden": _f("Gardena, Fiskars, Worx, Greenworks, Scotts, IKEA, Generic", materials=("plastic", "metal", "ceramic", "rubber", "stainless"),
                 colors=("green", "black", "white", "orange", "gray", "brown"), specs="garden", names=("{W} {N}", "{L}{N}"), words=("Garden", "Green", "Easy", "Pro", "Bloom")),
    "tools": _f("Bosch, Makita, DeWalt, Stanley, Deli Tools, Fluke, Wiha, Werner, Nitecore, Fenix, Xiaomi, Worx", materials=("metal", "stainless", "plastic", "aluminum", "rubber"),
                colors=("black", "yellow", "blue", "red", "orange", "gray"), specs="tools", names=("{L}{N}", "{L}-{N}")),
}  # fmt: skip

# slug → family and the mid-tier reference price in CNY. One line per type, in taxonomy order.
_PROFILE_ROWS = """
smartphone phone 2999 | tablet tablet 2499 | laptop laptop 5499 | desktop_pc laptop 4499 | monitor monitor 1199
over_ear_headphones audio 699 | earbuds audio 399 | bluetooth_speaker speaker 399 | smartwatch wearable 1199 | fitness_band wearable 229
power_bank charging 149 | phone_charger charging 99 | usb_cable charging 39 | keyboard peripheral 299 | mouse peripheral 149
camera camera 5999 | action_camera camera 1999 | television tv 3499 | projector tv 2499 | router network 299
game_console gaming 2499 | gamepad gaming 299 | ssd storage_device 499 | memory_card storage_device 99 | phone_case phone_case 49
printer printer 999 | e_reader tablet 999 | webcam camera 299 | microphone mic 499
refrigerator big_appliance 3999 | washing_machine big_appliance 2499 | air_conditioner big_appliance 2999 | dishwasher big_appliance 3499
microwave small_appliance 599 | electric_oven small_appliance 499 | rice_cooker small_appliance 349 | electric_kettle small_appliance 149
air_fryer small_appliance 399 | induction_cooker small_appliance 299 | coffee_machine small_appliance 1499 | blender small_appliance 399
vacuum_cleaner cleaning_appliance 1299 | robot_vacuum cleaning_appliance 2499 | air_purifier climate 1199 | humidifier climate 249
electric_fan climate 249 | space_heater climate 299 | water_purifier small_appliance 1999 | garment_steamer small_appliance 299
sofa furniture 3999 | office_chair chair 899 | dining_chair chair 299 | desk furniture 899 | dining_table furniture 1499 | coffee_table furniture 599
bed_frame furniture 1999 | mattress mattress 2499 | bookshelf furniture 499 | wardrobe furniture 1499 | tv_stand furniture 699
shoe_cabinet furniture 399 | nightstand furniture 299 | bean_bag furniture 299
bedding_set textile 399 | duvet textile 499 | pillow textile 129 | blanket textile 159 | towel textile 59 | curtains textile 199 | rug textile 399
desk_lamp lighting 199 | ceiling_light lighting 499 | floor_lamp lighting 399 | light_bulb lighting 29 | night_light lighting 49
storage_box storage 59 | clothes_hanger storage 49 | laundry_basket storage 79 | laundry_detergent household 49 | dish_soap household 25
trash_can storage 69 | mop household 99 | tissue household 49 | scented_candle household 129 | wall_clock household 149 | mirror household 199
wok cookware 299 | frying_pan cookware 199 | stock_pot cookware 249 | knife_set cookware 399 | cutting_board cookware 99
vacuum_flask tableware 149 | water_bottle tableware 79 | mug tableware 59 | dinnerware_set tableware 299 | cutlery_set tableware 129
lunch_box tableware 89 | food_container tableware 69
building_blocks toy 399 | plush_toy toy 129 | rc_car toy 249 | jigsaw_puzzle toy 89 | doll toy 159 | board_game toy 149 | action_figure toy 199
toy_car toy 59 | educational_toy toy 199 | drone drone 2499
diapers baby_consumable 149 | baby_bottle baby_gear 99 | stroller baby_gear 1499 | infant_formula baby_consumable 299 | car_seat baby_gear 1299
baby_wipes baby_consumable 39 | high_chair baby_gear 499 | baby_carrier baby_gear 299 | pacifier baby_gear 49 | baby_clothes baby_clothes 99
novel book 45 | childrens_book book 39 | cookbook book 59 | comic_book book 39 | self_help_book book 49 | textbook book 35
notebook stationery 19 | gel_pen stationery 19 | fountain_pen stationery 299 | pencil stationery 15 | desk_organizer stationery 59
planner stationery 59 | calculator stationery 99 | stapler stationery 29 | school_backpack bags 199
dog_food pet_food 199 | cat_food pet_food 199 | cat_litter pet_supply 69 | pet_bed pet_supply 149 | cat_tree pet_supply 299
dog_leash pet_supply 59 | pet_toy pet_supply 39 | aquarium pet_supply 299
tent camping 699 | sleeping_bag camping 299 | camping_chair camping 149 | raincoat rain 129 | umbrella rain 79 | hiking_backpack camping 499
headlamp camping 99 | trekking_poles camping 199 | cooler_box camping 299 | camping_stove camping 199 | rain_poncho_kids rain 69
yoga_mat fitness 149 | dumbbells fitness 299 | kettlebell fitness 199 | badminton_racket racket 399 | tennis_racket racket 699
table_tennis_paddle racket 199 | basketball ball 159 | football ball 149 | bicycle cycling 1999 | bike_helmet cycling 299
treadmill fitness 2999 | jump_rope fitness 39 | swim_goggles swim 79 | resistance_bands fitness 59
running_shoes shoes 699 | sneakers shoes 499 | boots shoes 699 | sandals shoes 249 | slippers shoes 59 | high_heels shoes 399
leather_shoes shoes 599 | rain_boots shoes 199 | basketball_shoes shoes 899 | hiking_shoes shoes 699 | kids_shoes kids_shoes 249
tshirt apparel 99 | shirt apparel 249 | polo_shirt apparel 199 | jeans apparel 349 | pants apparel 249 | shorts apparel 129 | leggings apparel 199
down_jacket outerwear 999 | jacket outerwear 499 | wool_coat outerwear 899 | trench_coat outerwear 799 | blazer outerwear 699
sweater apparel 299 | hoodie apparel 249 | dress apparel 399 | skirt apparel 199 | pajamas apparel 199 | underwear apparel 79 | socks accessory_wear 39
sports_bra apparel 199 | swimsuit apparel 249 | scarf accessory_wear 199 | hat accessory_wear 99 | gloves accessory_wear 79 | belt accessory_wear 199
backpack bags 299 | suitcase bags 799 | handbag bags 999 | wallet bags 299 | tote_bag bags 149 | crossbody_bag bags 399 | laptop_sleeve bags 199
watch watch 1499 | necklace jewelry 799 | earrings jewelry 499 | bracelet jewelry 599 | ring jewelry 999 | sunglasses eyewear 499
lipstick makeup 199 | face_cream skincare 399 | serum skincare 499 | sunscreen skincare 149 | foundation makeup 299 | eyeshadow makeup 249
perfume makeup 699 | face_wash skincare 89 | face_mask skincare 99 | toner skincare 159 | shampoo haircare 69 | conditioner haircare 69
body_wash oral_body 49 | body_lotion oral_body 69 | hand_cream oral_body 39 | toothpaste oral_body 25 | electric_toothbrush grooming 299
electric_shaver grooming 399 | hair_dryer grooming 399 | hair_straightener grooming 199 | nail_polish makeup 59 | makeup_remover skincare 89
coffee_beans food 99 | instant_coffee food 59 | tea food 199 | mixed_nuts food 99 | chocolate food 59 | cookies food 39 | potato_chips food 25
instant_noodles food 35 | rice food 69 | cooking_oil food 79 | olive_oil food 129 | milk food 69 | yogurt food 59 | protein_powder food 299
honey food 99 | cereal food 49 | beef_jerky food 69 | dried_fruit food 49 | beer food 89 | wine food 199 | mineral_water food 39 | juice food 39
soy_sauce food 25 | candy food 29
car_phone_mount auto 59 | dash_cam auto 399 | car_vacuum auto 199 | car_seat_cover auto 399 | car_air_freshener auto 49 | tire_inflator auto 249
car_charger auto 59 | motor_oil auto 299 | car_wash_kit auto 99
garden_hose garden 149 | plant_pot garden 59 | pruning_shears garden 79 | lawn_mower garden 1499 | seeds garden 19 | fertilizer garden 39
watering_can garden 39 | artificial_plant garden 99
power_drill tools 499 | screwdriver_set tools 129 | tool_set tools 399 | tape_measure tools 39 | hammer tools 59 | wrench_set tools 159
flashlight tools 99 | ladder tools 499 | multimeter tools 199 | glue_gun tools 59 | angle_grinder tools 399
"""
PROFILES: dict[str, tuple[str, float]] = {
    slug: (family, float(price))
    for cell in _PROFILE_ROWS.replace("\n", "|").split("|")
    if cell.strip()
    for slug, family, price in [cell.split()]
}

# Types whose makers differ from their family's: slug → brands (else the family's).
_TYPE_BRAND_ROWS = """
desktop_pc: Lenovo, Dell, HP, ASUS, Huawei | webcam: Logitech, Ugreen, Xiaomi | action_camera: Insta360, 70mai | camera: Canon, Nikon, Sony, Fujifilm
game_console: | gamepad: Razer, Logitech, Xiaomi, Sony | usb_cable: Anker, Baseus, Ugreen | e_reader: Kindle, Huawei, Xiaomi
refrigerator: Haier, Midea, Siemens, Panasonic, Hisense, TCL, Xiaomi | air_conditioner: Gree, Midea, Haier, Panasonic, Hisense, TCL, Xiaomi
washing_machine: Haier, Midea, Siemens, Panasonic, Xiaomi | dishwasher: Siemens, Midea, Haier, Fotile, Panasonic
coffee_machine: De'Longhi, Philips, Xiaomi, Bear | water_purifier: Midea, Xiaomi, Philips, Haier | rice_cooker: Midea, Supor, Joyoung, Panasonic, Xiaomi, Tiger, Zojirushi
electric_kettle: Midea, Supor, Joyoung, Bear, Philips, Xiaomi, Deerma, Tefal | garment_steamer: Philips, Midea, Deerma, Panasonic, Tefal
air_purifier: Xiaomi, Philips, Smartmi, Midea, Panasonic | humidifier: Deerma, Xiaomi, Smartmi, Midea, Bear | space_heater: Midea, Gree, Smartmi, Xiaomi
office_chair: Herman Miller, Sihoo, IKEA, Lin Shi Mu Ye | sofa: Kuka, Lin Shi Mu Ye, IKEA, Ashley, Muji
laundry_detergent: Blue Moon, Liby, Tide | dish_soap: Liby, Blue Moon | tissue: Vinda, Breeze | scented_candle: Yankee Candle, Muji, IKEA
mop: Muji, IKEA, Generic | wall_clock: IKEA, Muji, Generic | mirror: IKEA, Muji, Generic
knife_set: Zwilling, Supor, Generic | stock_pot: Supor, Zwilling, Le Creuset, Tefal | cutting_board: Supor, Muji, IKEA, Generic
vacuum_flask: Thermos, Tiger, Zojirushi, Lock&Lock | lunch_box: Lock&Lock, Thermos, Zojirushi, Muji | food_container: Lock&Lock, IKEA, Muji
dinnerware_set: Corelle, IKEA, Muji, Generic | cutlery_set: Zwilling, IKEA, Muji, Generic | water_bottle: Thermos, Lock&Lock, Muji, Generic
building_blocks: LEGO, Keeppley | plush_toy: Jellycat, Generic | doll: Barbie, Generic | board_game: Hasbro, Ravensburger | jigsaw_puzzle: Ravensburger, Generic
action_figure: Bandai, Hasbro | toy_car: Hot Wheels, Generic | rc_car: Generic, Hot Wheels | educational_toy: Keeppley, Generic
stroller: Goodbaby, Babycare, Cybex | car_seat: Britax, Cybex, Goodbaby, Babycare | high_chair: Babycare, Goodbaby | baby_carrier: Babycare, Goodbaby
baby_bottle: Pigeon, Dr. Brown's, Babycare, Philips | pacifier: Pigeon, Dr. Brown's, Philips | diapers: Pampers, Huggies, Babycare
infant_formula: Aptamil, Feihe, Nestlé | baby_wipes: Pampers, Huggies, Babycare, Pigeon
fountain_pen: Lamy, Pilot | gel_pen: Pilot, M&G, Deli, Muji | pencil: Pilot, M&G, Deli | notebook: Moleskine, Kokuyo, Muji, Deli | planner: Moleskine, Kokuyo, Muji
calculator: Casio, Deli | stapler: Deli, M&G, Kokuyo | desk_organizer: Deli, Muji, IKEA | school_backpack: Samsonite, Deli, Xiaomi Luggage, Generic
cat_tree: Pidan, Petkit, Generic | aquarium: Generic, Petkit | cat_litter: Pidan, Petkit, Navarch | dog_leash: Kong, Petkit, Generic | pet_toy: Kong, Petkit, Generic
tent: Naturehike, Coleman, Mobi Garden, Decathlon | sleeping_bag: Naturehike, Coleman, Mobi Garden, The North Face | camping_chair: Naturehike, Coleman, Decathlon
hiking_backpack: Osprey, The North Face, Decathlon, Naturehike | headlamp: Petzl, Black Diamond, Naturehike | trekking_poles: Black Diamond, Naturehike, Decathlon
cooler_box: Yeti, Coleman, Naturehike | camping_stove: Coleman, Naturehike | raincoat: Columbia, Decathlon, Muji, Generic | rain_poncho_kids: Decathlon, Generic
umbrella: Paradise, Totes, Blunt, Muji
yoga_mat: Keep, Decathlon, Lululemon, Li-Ning | dumbbells: Keep, Decathlon | kettlebell: Keep, Decathlon | treadmill: Keep, Xiaomi, Decathlon
jump_rope: Keep, Decathlon, Li-Ning | resistance_bands: Keep, Decathlon, Lululemon | badminton_racket: Yonex, Li-Ning, Decathlon
tennis_racket: Wilson, Yonex, Decathlon | table_tennis_paddle: DHS, Li-Ning, Decathlon | basketball: Molten, Spalding, Wilson, Li-Ning, Nike
football: Adidas, Nike, Molten, Decathlon | bicycle: Giant, Trek, Decathlon | bike_helmet: Giant, Decathlon, Trek
sneakers: Converse, Nike, Adidas, Puma, Skechers, Li-Ning, Anta, New Balance | running_shoes: Nike, Adidas, Li-Ning, Anta, New Balance, Skechers, Puma
boots: Dr. Martens, Clarks, Belle, Skechers, Merrell | sandals: Crocs, Skechers, Belle, Li-Ning | slippers: Crocs, Muji, Generic | high_heels: Belle, Clarks, Zara
leather_shoes: Clarks, Belle, Hush Puppies | rain_boots: Hunter, Crocs, Generic | basketball_shoes: Nike, Adidas, Li-Ning, Anta | hiking_shoes: Merrell, Salomon, Columbia, The North Face
underwear: Uniqlo, Calvin Klein, Bananain, Ubras, Muji | sports_bra: Lululemon, Nike, Adidas, Ubras | leggings: Lululemon, Nike, Adidas, Uniqlo
polo_shirt: Lacoste, Ralph Lauren, Uniqlo, Heilan Home | jeans: Levi's, Uniqlo, Zara, Semir | pajamas: Uniqlo, Muji, Bananain, H&M
swimsuit: Speedo, Zara, H&M | trench_coat: Burberry, Uniqlo, Zara, Peacebird | socks: Uniqlo, Bananain, Muji, Nike
suitcase: Samsonite, Rimowa, Tumi, Xiaomi Luggage | handbag: Coach, Michael Kors, Longchamp, Zara | wallet: Coach, Michael Kors, Tumi, Muji
backpack: Herschel, Samsonite, Tumi, Xiaomi Luggage | tote_bag: Longchamp, Muji, Zara, Generic | crossbody_bag: Coach, Michael Kors, Herschel, Zara
laptop_sleeve: Samsonite, Tumi, Herschel, Ugreen
lipstick: L'Oréal, Perfect Diary, Florasis, MAC, Lancôme, Dior | foundation: L'Oréal, Perfect Diary, Florasis, MAC, Estée Lauder, Shiseido
eyeshadow: Perfect Diary, Florasis, MAC, Dior | perfume: Lancôme, Dior, Chanel, Estée Lauder | nail_polish: OPI, Perfect Diary
sunscreen: Anessa, Neutrogena, L'Oréal, Shiseido, Bioderma | face_wash: CeraVe, Neutrogena, Shiseido, Bioderma, Winona
makeup_remover: Bioderma, L'Oréal, Shiseido | face_mask: Proya, Winona, L'Oréal | hand_cream: Nivea, L'Oréal, Neutrogena
toothpaste: Crest, Colgate | body_wash: Dove, Nivea | body_lotion: Nivea, CeraVe, Dove | electric_toothbrush: Philips, Oral-B, Xiaomi
electric_shaver: Philips, Braun, Flyco, Panasonic | hair_dryer: Panasonic, Philips, Flyco, Laifen | hair_straightener: Philips, Panasonic, Flyco
coffee_beans: Lavazza, Starbucks, Illy, Three Squirrels | instant_coffee: Nestlé, Saturnbird, Starbucks | tea: Lipton, Twinings, Xiao Guan Tea, Bestore
mixed_nuts: Three Squirrels, Bestore | chocolate: Lindt, Ferrero | cookies: Oreo, Bestore, Three Squirrels | potato_chips: Lay's, Pringles
instant_noodles: Nissin, Master Kong | rice: Arawana Rice, Jinlongyu | cooking_oil: Jinlongyu | olive_oil: Betis, Jinlongyu | milk: Yili, Mengniu
yogurt: Yili, Mengniu | protein_powder: Myprotein, Optimum Nutrition | honey: Comvita, Bestore | cereal: Kellogg's, Quaker | beef_jerky: Kerchin, Three Squirrels, Bestore
dried_fruit: Three Squirrels, Bestore | beer: Tsingtao, Budweiser | wine: Changyu, Penfolds | mineral_water: Nongfu Spring, Evian | juice: Minute Maid, Nongfu Spring
soy_sauce: Haitian, Lee Kum Kee | candy: Alpenliebe, Haribo | dog_food: Royal Canin, Purina, Orijen, Navarch | cat_food: Royal Canin, Purina, Orijen, Navarch, Pidan
dash_cam: 70mai, Mijia | motor_oil: Castrol, Mobil, Shell | car_wash_kit: Turtle Wax, Generic | tire_inflator: Michelin, Mijia, Baseus | car_vacuum: Mijia, Baseus, Generic
car_phone_mount: Baseus, Ugreen, Generic | car_charger: Anker, Baseus, Ugreen | car_seat_cover: Generic, Michelin | car_air_freshener: Generic, Baseus
garden_hose: Gardena, Generic | pruning_shears: Fiskars, Gardena | lawn_mower: Worx, Greenworks | seeds: Generic, Scotts | fertilizer: Scotts, Generic
plant_pot: IKEA, Generic | watering_can: Gardena, IKEA, Generic | artificial_plant: IKEA, Generic
multimeter: Fluke, Deli Tools | ladder: Werner, Deli Tools, Generic | flashlight: Nitecore, Fenix | tape_measure: Stanley, Deli Tools, Xiaomi
screwdriver_set: Wiha, Stanley, Xiaomi, Deli Tools | wrench_set: Stanley, Deli Tools | hammer: Stanley, Deli Tools | tool_set: Stanley, Deli Tools, Bosch
power_drill: Bosch, Makita, DeWalt, Worx | angle_grinder: Bosch, Makita, DeWalt | glue_gun: Deli Tools, Stanley, Bosch
watch: Casio, Seiko, Citizen, Tissot | earrings: Pandora, Swarovski, Chow Tai Fook, Generic | ring: Chow Tai Fook, Tiffany & Co., Pandora
"""
TYPE_BRANDS: dict[str, tuple[str, ...]] = {
    slug.strip(): tuple(b.strip() for b in brands.split(",") if b.strip())
    for cell in _TYPE_BRAND_ROWS.replace("\n", "|").split("|")
    if cell.strip()
    for slug, brands in [cell.split(":")]
}

# Types whose materials differ from their family's.
_CASEGOODS = ("wood", "engineered_wood", "metal", "bamboo")
TYPE_MATERIALS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("desk", "dining_table", "coffee_table", "bed_frame", "bookshelf", "wardrobe",
                     "tv_stand", "shoe_cabinet", "nightstand"), _CASEGOODS),
    "sofa": ("fabric", "leather", "faux_leather", "linen"), "bean_bag": ("fabric", "faux_leather"),
    "bedding_set": ("cotton", "silk", "linen", "polyester", "bamboo"), "duvet": ("down", "silk", "cotton", "polyester"),
    "pillow": ("latex", "foam", "down", "polyester"), "towel": ("cotton", "bamboo"), "curtains": ("polyester", "linen", "cotton"),
    "rug": ("wool", "polyester", "cotton"), "blanket": ("wool", "polyester", "cotton"),
    "tshirt": ("cotton", "cotton", "polyester", "linen"), "jeans": ("denim",), "underwear": ("cotton", "silk", "nylon"),
    "socks": ("cotton", "wool", "nylon"), "sweater": ("wool", "cashmere", "cotton"), "leggings": ("nylon", "polyester"),
    "sports_bra": ("nylon", "polyester"), "swimsuit": ("nylon", "polyester"), "down_jacket": ("down",),
    "wool_coat": ("wool", "cashmere"), "smartphone": ("glass", "aluminum"),
    # Seven like the outerwear family's, so the seeded choices elsewhere stay as they were.
    "jacket": ("polyester", "wool", "polyester", "nylon", "cotton", "leather", "polyester"),
}  # fmt: skip

# Food facts: type → (zh ingredients, en ingredients, zh allergens, en allergens, weight choices).
FOOD_FACTS: dict[str, tuple[str, str, str, str, str]] = {
    "coffee_beans": ("阿拉比卡咖啡豆", "arabica coffee beans", "", "", "250g 500g 1kg"),
    "instant_coffee": ("速溶咖啡粉 植脂末 白砂糖", "instant coffee, creamer, sugar", "牛奶", "milk", "300g 450g"),
    "tea": ("绿茶茶叶", "green tea leaves", "", "", "100g 250g 500g"),
    "mixed_nuts": ("腰果 巴旦木 核桃 榛子 蔓越莓干", "cashews, almonds, walnuts, hazelnuts, dried cranberries", "坚果", "tree nuts", "500g 750g 1kg"),
    "chocolate": ("可可脂 可可液块 白砂糖 全脂乳粉 大豆磷脂", "cocoa butter, cocoa mass, sugar, whole milk powder, soy lecithin", "牛奶 大豆", "milk, soy", "100g 200g 400g"),
    "cookies": ("小麦粉 白砂糖 黄油 鸡蛋", "wheat flour, sugar, butter, eggs", "小麦(麸质) 牛奶 鸡蛋", "wheat (gluten), milk, eggs", "200g 400g 800g"),
    "potato_chips": ("马铃薯 植物油 食用盐", "potatoes, vegetable oil, salt", "", "", "70g 104g 300g"),
    "instant_noodles": ("小麦粉 棕榈油 酱包 脱水蔬菜", "wheat flour, palm oil, seasoning, dried vegetables", "小麦(麸质) 大豆", "wheat (gluten), soy", "5 packs 12 cups 24 packs"),
    "rice": ("粳米", "rice", "", "", "2.5kg 5kg 10kg"),
    "cooking_oil": ("压榨花生油", "pressed peanut oil", "花生", "peanuts", "1.8L 5L"),
    "olive_oil": ("特级初榨橄榄油", "extra virgin olive oil", "", "", "500ml 750ml 1L"),
    "milk": ("生牛乳", "whole milk", "牛奶", "milk", "250ml*12 250ml*24 1L*6"),
    "yogurt": ("生牛乳 白砂糖 乳酸菌", "milk, sugar, live cultures", "牛奶", "milk", "200g*10 200g*16"),
    "protein_powder": ("浓缩乳清蛋白 大豆分离蛋白 可可粉", "whey protein concentrate, soy protein isolate, cocoa", "牛奶 大豆", "milk, soy", "908g 2.27kg"),
    "honey": ("百花蜜", "honey", "", "", "500g 1kg"),
    "cereal": ("全谷燕麦 小麦 干果", "whole grain oats, wheat, dried fruit", "小麦(麸质) 坚果", "wheat (gluten), tree nuts", "500g 1kg"),
    "beef_jerky": ("牛肉 酱油 白砂糖 香辛料", "beef, soy sauce, sugar, spices", "大豆 小麦(麸质)", "soy, wheat (gluten)", "100g 250g 500g"),
    "dried_fruit": ("芒果 葡萄干 白砂糖", "mango, raisins, sugar", "", "", "200g 500g"),
    "beer": ("水 麦芽 大米 啤酒花", "water, barley malt, rice, hops", "大麦(麸质)", "barley (gluten)", "330ml*6 500ml*12 330ml*24"),
    "wine": ("葡萄 二氧化硫", "grapes, sulphites", "亚硫酸盐", "sulphites", "750ml 750ml*6"),
    "mineral_water": ("天然矿泉水", "natural mineral water", "", "", "550ml*24 1.5L*12"),
    "juice": ("橙汁 水 维生素C", "orange juice, water, vitamin C", "", "", "1L*6 300ml*12"),
    "soy_sauce": ("水 大豆 小麦 食用盐", "water, soybeans, wheat, salt", "大豆 小麦(麸质)", "soy, wheat (gluten)", "500ml 1.28L 1.9L"),
    "candy": ("白砂糖 葡萄糖浆 明胶 果汁", "sugar, glucose syrup, gelatin, fruit juice", "", "", "200g 500g"),
    "infant_formula": ("乳粉 乳清蛋白粉 植物油 乳糖", "milk powder, whey protein, vegetable oils, lactose", "牛奶 大豆", "milk, soy", "800g 900g"),
    "dog_food": ("鸡肉 糙米 鸡油 鱼油", "chicken, brown rice, chicken fat, fish oil", "", "", "2kg 7.5kg 15kg"),
    "cat_food": ("鸡肉 三文鱼 鸡蛋粉 牛磺酸", "chicken, salmon, egg powder, taurine", "", "", "1.5kg 4kg 10kg"),
}  # fmt: skip


def _digits(rng: random.Random, n: int) -> str:
    return str(rng.randint(1, 9)) + "".join(rng.choice(string.digits) for _ in range(n - 1))


@dataclass(frozen=True)
class Platform:
    name: str
    language: str
    currency: str
    price_factor: float
    """Typical price level relative to the reference price (pinduoduo is cheapest)."""
    item_url: str
    """The platform's product page; `{id}` is the item id (Shopee's `{shop}.{item}` splits)."""
    tags: tuple[str, ...] = ()

    @property
    def fx_to_cny(self) -> float:
        return fx_to_base()[self.currency]

    def item_id(self, rng: random.Random) -> str:
        if self.name == "amazon":
            return "B0" + "".join(
                rng.choice(string.ascii_uppercase + string.digits) for _ in range(8)
            )
        if self.name == "shopee":
            return f"{_digits(rng, 9)}.{_digits(rng, 11)}"
        return _digits(rng, {"taobao": 12, "jd": 11, "pinduoduo": 11, "walmart": 10}[self.name])

    def product_url(self, item_id: str) -> str:
        shop, _, item = item_id.partition(".")
        return self.item_url.format(id=item_id, shop=shop, item=item)


PLATFORMS: dict[str, Platform] = {
    p.name: p
    for p in [
        Platform("taobao", "zh", "CNY", 1.0, "https://item.taobao.com/item.htm?id={id}",
                 ("官方正品", "2024新款", "旗舰店", "包邮", "现货速发", "顺丰包邮")),
        Platform("jd", "zh", "CNY", 1.04, "https://item.jd.com/{id}.html"),
        Platform("pinduoduo", "zh", "CNY", 0.88, "https://mobile.yangkeduo.com/goods.html?goods_id={id}",
                 ("百亿补贴", "拼团价", "限时秒杀", "")),
        Platform("amazon", "en", "USD", 1.1, "https://www.amazon.com/dp/{id}"),
        Platform("walmart", "en", "USD", 1.06, "https://www.walmart.com/ip/{id}"),
        Platform("shopee", "mixed", "SGD", 1.04, "https://shopee.sg/product/{shop}/{item}",
                 ("[Local Stock]", "[Ready Stock]", "🔥", "")),
    ]
}  # fmt: skip

# Specs: slug → attribute → choices. Attribute names carry their unit; values are plain
# numbers (or short codes) so filters can compare them; titles print them with units.
SPECS: dict[str, dict[str, tuple[object, ...]]] = {
    "smartphone": {"storage_gb": (128, 256, 512), "ram_gb": (8, 12, 16), "screen_in": (6.1, 6.36, 6.5, 6.67, 6.78), "battery_mah": (4500, 5000, 5500)},
    "tablet": {"storage_gb": (64, 128, 256), "screen_in": (10.1, 10.9, 11, 12.4), "battery_mah": (7000, 8000, 10000)},
    "laptop": {"storage_gb": (512, 1024), "ram_gb": (16, 32), "screen_in": (14, 15.6, 16)},
    "desktop_pc": {"storage_gb": (512, 1024, 2048), "ram_gb": (16, 32)},
    "monitor": {"screen_in": (24, 27, 32), "refresh_hz": (75, 144, 165), "resolution": ("FHD", "2K", "4K")},
    "over_ear_headphones": {"battery_h": (20, 30, 40, 50)},
    "earbuds": {"battery_h": (5, 6, 8, 10)},
    "bluetooth_speaker": {"power_w": (10, 20, 30, 40), "battery_h": (12, 15, 24)},
    "smartwatch": {"battery_days": (7, 10, 14)},
    "fitness_band": {"battery_days": (14, 16, 21)},
    "power_bank": {"capacity_mah": (10000, 20000), "power_w": (20, 22.5, 65)},
    "phone_charger": {"power_w": (20, 33, 65, 100)},
    "usb_cable": {"length_m": (1, 1.5, 2), "power_w": (60, 100, 240)},
    "keyboard": {"keys": (87, 98, 104)},
    "mouse": {"dpi": (4000, 8000, 26000)},
    "camera": {"megapixels": (24, 26, 33, 45)},
    "action_camera": {"resolution": ("4K", "5.3K")},
    "webcam": {"resolution": ("1080p", "2K", "4K")},
    "television": {"screen_in": (43, 55, 65, 75, 85), "resolution": ("4K",), "refresh_hz": (60, 120)},
    "projector": {"resolution": ("1080p", "4K"), "lumens": (500, 1200, 2500)},
    "router": {"wifi": ("WiFi 6", "WiFi 7"), "speed_mbps": (3000, 5400, 6500)},
    "ssd": {"storage_gb": (512, 1024, 2048)},
    "memory_card": {"storage_gb": (64, 128, 256, 512)},
    "printer": {"pages_per_minute": (20, 30, 40)},
    "e_reader": {"storage_gb": (16, 32), "screen_in": (6, 7, 10.3)},
    "refrigerator": {"capacity_l": (310, 450, 510, 600), "power_w": (120, 150)},
    "washing_machine": {"capacity_kg": (8, 10, 12)},
    "air_conditioner": {"horsepower": (1, 1.5, 2, 3)},
    "dishwasher": {"place_settings": (8, 13, 15)},
    "microwave": {"capacity_l": (20, 23, 25), "power_w": (700, 800, 900)},
    "electric_oven": {"capacity_l": (25, 32, 40), "power_w": (1500, 1800)},
    "rice_cooker": {"capacity_l": (3, 4, 5), "power_w": (600, 860, 1200)},
    "electric_kettle": {"capacity_l": (1.5, 1.7, 1.8), "power_w": (1500, 1800)},
    "air_fryer": {"capacity_l": (4, 5.5, 6.5), "power_w": (1400, 1500, 1700)},
    "induction_cooker": {"power_w": (2100, 2200)},
    "coffee_machine": {"power_w": (1350, 1450), "pressure_bar": (15, 19)},
    "blender": {"capacity_l": (1.5, 1.75, 2), "power_w": (800, 1200, 1500)},
    "vacuum_cleaner": {"power_w": (350, 450, 500), "battery_min": (45, 60)},
    "robot_vacuum": {"suction_pa": (6000, 8000, 12000), "battery_min": (150, 180)},
    "air_purifier": {"cadr": (300, 400, 600)},
    "humidifier": {"capacity_l": (3, 4, 5)},
    "electric_fan": {"power_w": (25, 35, 45)},
    "space_heater": {"power_w": (2000, 2200)},
    "water_purifier": {"flow_gpd": (400, 600, 1000)},
    "garment_steamer": {"power_w": (1500, 1800, 2000)},
    "sofa": {"dimensions_cm": ("180x85x80", "210x90x85", "260x95x85"), "seats": (2, 3, 4)},
    "office_chair": {"max_load_kg": (120, 136, 150)},
    "dining_chair": {"dimensions_cm": ("45x50x82", "48x52x85")},
    "desk": {"dimensions_cm": ("100x60x75", "120x60x75", "140x70x75")},
    "dining_table": {"dimensions_cm": ("120x80x75", "140x80x75", "160x90x75"), "seats": (4, 6)},
    "coffee_table": {"dimensions_cm": ("90x50x45", "110x60x45")},
    "bed_frame": {"dimensions_cm": ("150x200", "180x200")},
    "mattress": {"thickness_cm": (18, 22, 25)},
    "bookshelf": {"dimensions_cm": ("60x30x180", "80x30x180", "80x28x202", "120x30x120"), "shelves": (4, 5, 6)},
    "wardrobe": {"dimensions_cm": ("100x55x200", "150x58x220")},
    "tv_stand": {"dimensions_cm": ("160x40x50", "180x40x55")},
    "shoe_cabinet": {"dimensions_cm": ("80x24x100", "100x30x110")},
    "nightstand": {"dimensions_cm": ("40x35x50", "45x40x55")},
    "bean_bag": {"dimensions_cm": ("70x70x80", "90x90x100")},
    "towel": {"dimensions_cm": ("34x74", "70x140")},
    "curtains": {"dimensions_cm": ("200x250", "300x270")},
    "rug": {"dimensions_cm": ("120x170", "160x230", "200x300")},
    "pillow": {"dimensions_cm": ("48x74", "40x60")},
    "blanket": {"dimensions_cm": ("150x200", "180x200")},
    "desk_lamp": {"power_w": (5, 8, 12), "color_temp_k": (3000, 4000, 5000)},
    "ceiling_light": {"power_w": (24, 36, 48), "color_temp_k": (3000, 4000, 6500)},
    "floor_lamp": {"power_w": (12, 18, 24)},
    "light_bulb": {"power_w": (5, 9, 12), "color_temp_k": (2700, 4000, 6500)},
    "night_light": {"power_w": (0.5, 1)},
    "storage_box": {"capacity_l": (20, 30, 45, 60)},
    "laundry_basket": {"capacity_l": (40, 60, 75)},
    "trash_can": {"capacity_l": (10, 15, 30)},
    "clothes_hanger": {"pieces": (10, 20, 30)},
    "laundry_detergent": {"volume_ml": (1000, 2000, 3000)},
    "dish_soap": {"volume_ml": (500, 1000, 1500)},
    "tissue": {"pieces": (6, 12, 24)},
    "wok": {"diameter_cm": (30, 32, 34)},
    "frying_pan": {"diameter_cm": (24, 26, 28)},
    "stock_pot": {"diameter_cm": (20, 22, 24), "capacity_l": (3, 4.5, 6)},
    "knife_set": {"pieces": (3, 5, 7)},
    "cutting_board": {"dimensions_cm": ("36x24", "40x28", "45x30")},
    "vacuum_flask": {"capacity_ml": (350, 500, 750)},
    "water_bottle": {"capacity_ml": (500, 750, 1000)},
    "mug": {"capacity_ml": (300, 350, 450)},
    "dinnerware_set": {"pieces": (10, 16, 20)},
    "cutlery_set": {"pieces": (16, 24)},
    "lunch_box": {"capacity_ml": (800, 1000, 1500)},
    "food_container": {"pieces": (3, 6, 10)},
    "building_blocks": {"pieces": (300, 800, 1500), "age": ("6+", "8+", "14+")},
    "jigsaw_puzzle": {"pieces": (500, 1000, 1500)},
    "plush_toy": {"height_cm": (25, 31, 40)},
    "rc_car": {"scale": ("1:16", "1:18"), "age": ("6+", "8+")},
    "doll": {"height_cm": (30, 45), "age": ("3+",)},
    "board_game": {"players": ("2-4", "2-6"), "age": ("8+", "10+")},
    "action_figure": {"height_cm": (15, 18, 30)},
    "toy_car": {"scale": ("1:64", "1:32")},
    "educational_toy": {"age": ("3+", "6+")},
    "drone": {"weight_g": (249,)},
    "diapers": {"pieces": (50, 66, 84)},
    "baby_bottle": {"capacity_ml": (160, 240, 300)},
    "stroller": {"weight_kg": (5.8, 6.5, 9)},
    "infant_formula": {"stage": (1, 2, 3)},
    "car_seat": {"age": ("0-4", "9m-12y")},
    "baby_wipes": {"pieces": (80, 480)},
    "novel": {"pages": (256, 320, 416, 528)},
    "childrens_book": {"pages": (32, 48), "age": ("3+", "6+")},
    "cookbook": {"pages": (192, 256)},
    "comic_book": {"pages": (192, 208)},
    "self_help_book": {"pages": (240, 288)},
    "textbook": {"pages": (160, 220)},
    "notebook": {"pages": (80, 100, 192), "paper_size": ("A5", "B5")},
    "gel_pen": {"tip_mm": (0.38, 0.5, 0.7), "pieces": (3, 12)},
    "fountain_pen": {"tip_mm": (0.5, 0.7)},
    "pencil": {"tip_mm": (0.5, 0.7)},
    "planner": {"paper_size": ("A5", "A6")},
    "calculator": {"digits": (10, 12)},
    "school_backpack": {"capacity_l": (18, 22, 25)},
    "dog_food": {"weight_kg": (2, 7.5, 15)},
    "cat_food": {"weight_kg": (1.5, 4, 10)},
    "cat_litter": {"weight_kg": (6, 10)},
    "cat_tree": {"height_cm": (80, 120, 160)},
    "aquarium": {"capacity_l": (30, 60, 100)},
    "tent": {"persons": (2, 3, 4), "weight_kg": (1.6, 2.5, 4)},
    "sleeping_bag": {"comfort_c": (-5, 5, 10)},
    "hiking_backpack": {"capacity_l": (30, 45, 65)},
    "cooler_box": {"capacity_l": (20, 30, 45)},
    "headlamp": {"lumens": (300, 500, 1000)},
    "raincoat": {"waterproof_mm": (5000, 10000, 20000)},
    "umbrella": {"ribs": (8, 10, 12)},
    "yoga_mat": {"thickness_mm": (6, 8, 10), "dimensions_cm": ("183x61", "185x68")},
    "dumbbells": {"weight_kg": (5, 10, 20, 24)},
    "kettlebell": {"weight_kg": (8, 12, 16)},
    "treadmill": {"max_speed_kmh": (12, 14, 16)},
    "badminton_racket": {"weight_g": (78, 83, 88)},
    "tennis_racket": {"weight_g": (270, 285, 300)},
    "basketball": {"ball_size": (5, 6, 7)},
    "football": {"ball_size": (4, 5)},
    "bicycle": {"wheel_in": (26, 27.5, 29), "speeds": (21, 24, 27)},
    "jump_rope": {"length_m": (2.8, 3)},
    "suitcase": {"size_in": (20, 24, 28)},
    "backpack": {"capacity_l": (20, 25, 30)},
    "lipstick": {"weight_g": (3.5, 3.8)},
    "face_cream": {"volume_ml": (30, 50, 75)},
    "serum": {"volume_ml": (30, 50)},
    "sunscreen": {"volume_ml": (40, 60, 90), "spf": (30, 50)},
    "foundation": {"volume_ml": (30,)},
    "perfume": {"volume_ml": (30, 50, 100)},
    "face_wash": {"volume_ml": (100, 150)},
    "toner": {"volume_ml": (150, 200, 400)},
    "shampoo": {"volume_ml": (400, 500, 750)},
    "conditioner": {"volume_ml": (400, 500)},
    "body_wash": {"volume_ml": (500, 750, 1000)},
    "body_lotion": {"volume_ml": (250, 400)},
    "hand_cream": {"volume_ml": (30, 50, 75)},
    "toothpaste": {"weight_g": (120, 180)},
    "makeup_remover": {"volume_ml": (250, 500)},
    "nail_polish": {"volume_ml": (15,)},
    "electric_toothbrush": {"battery_days": (30, 60)},
    "electric_shaver": {"battery_min": (60, 90)},
    "hair_dryer": {"power_w": (1400, 1600, 1800)},
    "hair_straightener": {"max_temp_c": (200, 230)},
    "dash_cam": {"resolution": ("2K", "4K")},
    "tire_inflator": {"max_pressure_psi": (120, 150)},
    "car_charger": {"power_w": (30, 65, 100)},
    "motor_oil": {"volume_l": (1, 4), "viscosity": ("0W-20", "5W-30", "5W-40")},
    "car_vacuum": {"power_w": (120, 150)},
    "garden_hose": {"length_m": (15, 20, 30)},
    "plant_pot": {"diameter_cm": (15, 20, 30)},
    "lawn_mower": {"voltage_v": (20, 40), "cutting_width_cm": (34, 40, 46)},
    "fertilizer": {"weight_kg": (1, 2.5, 5)},
    "watering_can": {"capacity_l": (1, 2, 5)},
    "power_drill": {"voltage_v": (12, 18, 20)},
    "angle_grinder": {"power_w": (800, 1000, 1200)},
    "screwdriver_set": {"pieces": (24, 32, 64)},
    "tool_set": {"pieces": (46, 108, 150)},
    "wrench_set": {"pieces": (8, 12, 40)},
    "tape_measure": {"length_m": (3, 5, 8)},
    "flashlight": {"lumens": (1000, 1800, 3000)},
    "ladder": {"steps": (3, 4, 5)},
    "glue_gun": {"power_w": (20, 60, 100)},
}  # fmt: skip

# How an attribute reads in a title: (Chinese, English); {v} is the value.
SPEC_TEXT: dict[str, tuple[str, str]] = {
    "storage_gb": ("{v}GB", "{v}GB"), "ram_gb": ("{v}GB", "{v}GB RAM"), "screen_in": ("{v}英寸", '{v}"'),
    "battery_mah": ("{v}mAh", "{v}mAh"), "capacity_mah": ("{v}mAh", "{v}mAh"), "power_w": ("{v}W", "{v}W"),
    "battery_h": ("{v}小时续航", "{v}H Playtime"), "battery_days": ("续航{v}天", "{v}-Day Battery"),
    "battery_min": ("续航{v}分钟", "{v} min Runtime"), "refresh_hz": ("{v}Hz", "{v}Hz"), "resolution": ("{v}", "{v}"),
    "length_m": ("{v}米", "{v}m"), "keys": ("{v}键", "{v}-Key"), "dpi": ("{v}DPI", "{v} DPI"),
    "megapixels": ("{v}00万像素", "{v}MP"), "lumens": ("{v}流明", "{v} Lumens"), "wifi": ("{v}", "{v}"),
    "speed_mbps": ("{v}M", "AX{v}"), "pages_per_minute": ("{v}页/分钟", "{v} ppm"), "capacity_l": ("{v}L", "{v}L"),
    "capacity_kg": ("{v}公斤", "{v}kg"), "horsepower": ("{v}匹", "{v} HP"), "place_settings": ("{v}套", "{v} Place Settings"),
    "pressure_bar": ("{v}Bar", "{v} Bar"), "suction_pa": ("{v}Pa吸力", "{v}Pa Suction"), "cadr": ("CADR {v}", "CADR {v}"),
    "flow_gpd": ("{v}G", "{v} GPD"), "dimensions_cm": ("{v}cm", "{v} cm"), "seats": ("{v}人位", "{v}-Seater"),
    "max_load_kg": ("承重{v}kg", "{v}kg Capacity"), "thickness_cm": ("厚{v}cm", '{v}cm Thick'), "shelves": ("{v}层", "{v}-Tier"),
    "color_temp_k": ("{v}K", "{v}K"), "pieces": ("{v}件", "{v}-Piece"), "volume_ml": ("{v}ml", "{v}ml"),
    "diameter_cm": ("{v}cm", "{v}cm"), "capacity_ml": ("{v}ml", "{v}ml"), "age": ("{v}岁", "Ages {v}"),
    "height_cm": ("{v}cm", "{v}cm"), "scale": ("{v}", "{v} Scale"), "players": ("{v}人", "{v} Players"),
    "weight_g": ("{v}g", "{v}g"), "weight_kg": ("{v}kg", "{v}kg"), "stage": ("{v}段", "Stage {v}"),
    "pages": ("{v}页", "{v} Pages"), "paper_size": ("{v}", "{v}"), "tip_mm": ("{v}mm", "{v}mm"), "digits": ("{v}位", "{v}-Digit"),
    "persons": ("{v}人", "{v}-Person"), "comfort_c": ("舒适温度{v}℃", "{v}°C Comfort"), "waterproof_mm": ("防水{v}mm", "{v}mm Waterproof"),
    "ribs": ("{v}骨", "{v} Ribs"), "thickness_mm": ("{v}mm", "{v}mm"), "max_speed_kmh": ("{v}km/h", "{v} km/h"),
    "ball_size": ("{v}号", "Size {v}"), "wheel_in": ("{v}寸", '{v}"'), "speeds": ("{v}速", "{v}-Speed"),
    "size_in": ("{v}寸", '{v}"'), "spf": ("SPF{v}", "SPF {v}"), "max_temp_c": ("{v}℃", "{v}°C"),
    "max_pressure_psi": ("{v}PSI", "{v} PSI"), "volume_l": ("{v}L", "{v}L"), "viscosity": ("{v}", "{v}"),
    "cutting_width_cm": ("割幅{v}cm", "{v}cm Deck"), "voltage_v": ("{v}V", "{v}V"), "steps": ("{v}步", "{v}-Step"),
}  # fmt: skip

# Sizes shoppers convert between. Clothing: letter ↔ Chinese 号型; shoes: EU ↔ US ↔ foot mm.
CLOTHING_HAO = {
    "XS": "155/76A",
    "S": "160/80A",
    "M": "165/84A",
    "L": "170/88A",
    "XL": "175/92A",
    "XXL": "180/96A",
    "3XL": "185/100A",
}
SHOE_US = {
    34: "3",
    35: "4",
    36: "4.5",
    37: "5",
    38: "6",
    39: "6.5",
    40: "7",
    41: "8",
    42: "8.5",
    43: "9.5",
    44: "10",
    45: "11",
    46: "12",
}
SHOE_MM = {
    34: 215,
    35: 220,
    36: 225,
    37: 230,
    38: 235,
    39: 240,
    40: 245,
    41: 255,
    42: 260,
    43: 265,
    44: 270,
    45: 275,
    46: 280,
}
KIDS_SHOE_MM = {
    24: 150,
    25: 155,
    26: 160,
    27: 165,
    28: 170,
    29: 175,
    30: 180,
    31: 185,
    32: 195,
    33: 200,
    34: 205,
    35: 215,
}
DIAPER_KG = {
    "NB": "0-5kg",
    "S": "4-8kg",
    "M": "6-11kg",
    "L": "9-14kg",
    "XL": "12-17kg",
    "XXL": "15kg+",
}
BABY_CM = {"59": "0-3M", "66": "3-6M", "73": "6-12M", "80": "12-18M", "90": "18-24M"}
BED = {
    "1.2m": "Twin 120x200cm",
    "1.5m": "Queen 150x200cm",
    "1.8m": "King 180x200cm",
    "2.0m": "Super King 200x220cm",
}
RING_US = {"5": "9号", "6": "12号", "7": "14号", "8": "16号", "9": "19号"}  # fmt: skip

BOOK_WORDS_ZH = (
    "山海",
    "长夜",
    "星河",
    "归途",
    "远方",
    "海风",
    "灯火",
    "晨光",
    "旧城",
    "雪落",
    "林间",
    "回声",
)
BOOK_WORDS_EN = (
    "River",
    "Lantern",
    "Harbor",
    "Orchard",
    "Winter",
    "Compass",
    "Meadow",
    "Signal",
    "Atlas",
    "Tide",
    "Garden",
    "Summit",
)
AUTHORS = ("林远", "陈默", "周屿", "Emma Hart", "James Cole", "Lucy Grant", "Tom Reed", "Anna Wells")  # fmt: skip

FEATURES: dict[str, tuple[tuple[str, str], ...]] = {
    "audio": (("主动降噪", "active noise cancelling"), ("蓝牙5.3无线连接", "Bluetooth 5.3 wireless"), ("通话麦克风", "built-in microphone"), ("Hi-Res高解析音质", "Hi-Res audio")),
    "apparel": (("保暖", "keeps you warm"), ("防风防泼水", "windproof and water-repellent"), ("修身版型", "slim fit"), ("宽松版型", "relaxed fit"), ("透气舒适", "breathable")),
    "outerwear": (("保暖", "keeps you warm"), ("防风防泼水", "windproof and water-repellent"), ("修身版型", "slim fit"), ("宽松版型", "relaxed fit")),
    "shoes": (("缓震回弹", "responsive cushioning"), ("轻量透气", "lightweight and breathable"), ("防滑耐磨大底", "non-slip durable outsole"), ("宽楦设计", "wide fit")),
    "rain": (("防水防风", "waterproof and windproof"), ("轻便易收纳", "packs small"), ("反光条设计", "reflective strips")),
    "*": (("送礼佳品", "a great gift"), ("品质保障", "quality guaranteed"), ("操作简单", "easy to use"), ("小巧便携", "compact and portable")),
}  # fmt: skip
