"""Small cue lists the planner and curator share: scope, intent, questions, decisions."""

from __future__ import annotations

import re

from cartwise.vocabulary.currencies import currency_alternation

LONG_TERM = re.compile(
    r"我一般|一般都|一般|从来|从不|以后都|以后|一直|向来|平时|总是|永远|always|never|in general|"
    r"generally|usually|from now on|anymore|any more|as a rule"
)
SESSION = re.compile(
    r"这次|今天|这回|本次|这一次|这一单|这单|这趟|暂时|先不要|先不|先别|最近|这周|这几天|这阵子|this time|today|this week|for now|right now|"
    r"for this (?:one|order|trip|purchase)|this once"
)
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
REQUEST = re.compile(
    r"想买|想要|想换|想找|想给|想送|要买|买个|买件|买双|买台|买条|买些|买点|送个|送点|送他|送她|推荐|"
    r"有没有|找个|找双|找件|来个|来双|求推荐|"
    r"(?<![a-z])(?:want|wants|need|needs|looking for|get me|show me|find me|recommend|suggest|"
    r"something|anything|any|shopping for|buy|buying|getting)(?![a-z])"
)
"""Words that ask for something: a clause with one is part of the request, whatever else
it says."""
FILLER_ZH = re.compile(
    r"帮我找找|帮我找|帮我搜|帮我看看|帮我|给我推荐|给我找|推荐一下|推荐|我想买|我想要|我要买|我需要|"
    r"我想找|想买|想要|我要|找一下|找个|有没有|一个|一双|一件|一款|一台|一条|一副|一套|一些|一下|"
    r"请问|请|麻烦|谢谢|其实|算了|还是|我|的吧|吧|呢|啊|呀|哦|嘛|了"
)
FILLER_EN = re.compile(
    r"\b(?:i'?m looking for|i am looking for|looking for|i want to buy|i'?d like to buy|i would like to buy|"
    r"i want|i need|i'?d like|i would like|can you|could you|please|find me|show me|get me|help me find|"
    r"search for|find|buy|some|a pair of|pair of|an|a|the|me|for me|thanks|thank you|i|also|"
    r"great|ok|okay|cool|perfect|awesome|alright|hey|hi|hello)\b"
)
VAGUE_BUDGET = re.compile(
    r"别太贵|不要太贵|不太贵|别那么贵|价格别太高|价格不要太高|价位别太高|不贵的|便宜点就行|实惠点?就行|"
    r"(?<![a-z])(?:not too (?:expensive|pricey|costly|dear)|(?:isn'?t|is not|nothing|not) "
    r"too (?:expensive|pricey|costly)|not (?:very|that|so) expensive|affordable|inexpensive|"
    r"budget[- ]friendly|reasonably priced)(?![a-z])",
    re.IGNORECASE,
)
"""A wish about price with no number ("别太贵", "not too expensive"): the agent asks for one."""
