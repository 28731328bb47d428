"""Small cue lists the planner and curator share: scope, intent, questions, decisions."""

from __future__ import annotations

import re

from cartwise.vocabulary.currencies import currency_alternation

COMPARE = re.compile(
    r"比价|比一比|比一下|比较一下|对比|哪个便宜|哪家便宜|哪家更便宜|哪个平台|最便宜|compare|cheapest|"
    r"which is cheaper|whichever is cheaper|the cheaper one|哪个更便宜|price comparison|best price|lowest price"
)
CHITCHAT = re.compile(
    r"^\s*(?:你好|您好|嗨|谢谢|多谢|好的|好|嗯|哈哈|再见|hi|hello|hey|thanks|thank you|ok|okay|bye)"
    r"[\s!！。.,，~]*(?:啊|呀|了)?[\s!！。.]*$"
)
PRICE_REJECTION = re.compile(
    r"超预算|太贵|贵了|价格太高|买不起|too expensive|over (?:my |the )?budget|too pricey|"
    r"costs too much|out of my price range"
)
ANAPHORIC_FLIP = re.compile(
    r"^\s*(?:现在|其实|后来)?\s*(?:不喜欢了|不喜欢它了|不再喜欢了?|没那么喜欢了|不爱了)|"
    r"^\s*(?:not anymore|no longer|not any more)\b|\b(?:don'?t|do not) (?:like|love) (?:it|them) anymore\b"
)
SIZE_QUESTION = re.compile(r"尺码|几码|多大|码数|鞋码|size", re.IGNORECASE)
BUDGET_QUESTION = re.compile(r"预算|价位|多少钱|价格|budget|price range|spend", re.IGNORECASE)
COLOR_QUESTION = re.compile(r"颜色|什么色|colou?r", re.IGNORECASE)
DECISION = re.compile(
    r"(用|寄到|送到)?默认(收货)?地址|default (shipping )?address|货到付款|cash on delivery|"
    r"开(个)?发票|need an invoice|顺丰|(?:寄|送|发)到(?:公司|家里|家|单位|学校)|ship (it )?to my (?:office|work|home)|gift wrap|礼品包装"
)
BARE_AMOUNT = re.compile(
    r"^\s*(?:大概|差不多|around|about|under|最多)?\s*"
    rf"(?:{currency_alternation('before')})?\s*"
    r"(?P<a>\d+(?:\.\d+)?\s?[kw万千]?|[一二两三四五六七八九十百千万]+)"
    rf"\s*(?:{currency_alternation('after')}|以内|左右)?\s*[。.!！]?\s*$",
    re.IGNORECASE,
)
VAGUE_BUDGET = re.compile(
    r"别太贵|不要太贵|不太贵|别那么贵|价格别太高|价格不要太高|价位别太高|不贵的|便宜点就行|实惠点?就行|"
    r"(?<![a-z])(?:not too (?:expensive|pricey|costly|dear)|(?:isn'?t|is not|nothing|not) "
    r"too (?:expensive|pricey|costly)|not (?:very|that|so) expensive|affordable|inexpensive|"
    r"budget[- ]friendly|reasonably priced)(?![a-z])",
    re.IGNORECASE,
)
"""A wish about price with no number ("别太贵", "not too expensive"): the agent asks for one."""
