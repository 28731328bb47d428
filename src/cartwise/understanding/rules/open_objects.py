"""Dislikes of things the lexicon does not know ("I avoid graphic violence", "我不吃香菜").

- English: the object after a strong refusal or aversion verb becomes a slug of up to three
  words, the last one singular ("horror movies" → horror-movie; plural-only nouns such as
  "jeans" stay as they are); keywords are the words themselves.
- Chinese: the object of a refusal or aversion (不要/不想要/不喜欢/讨厌/不吃/不穿/不用 … X,
  or X … 我不穿/不要) — a run of Chinese characters, without particles and without a product
  noun the lexicon knows ("灯芯绒的裤子" → 灯芯绒). Its slug is the pinyin of the word
  (`slugify`, "香菜" → xiangcai): an ASCII key for storage and dedup, while the Chinese
  word itself is the keyword the hard filter matches. (Chosen by measurement over an alias
  table mined from the catalogs: see docs/reports/understanding.md.)
- Never from a clause that states nothing (a question, a negated fact, a past view), and
  never about a time or a daily routine ("I never eat breakfast before 10am").
Only clauses where the lexicon found no refused term are considered, so this never
competes with a canonical slug. Category is `other`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cartwise.text import HAN, chinese_verbs, jieba_segmenter
from cartwise.understanding.rules.lexicon import Lexicon, Match
from cartwise.understanding.rules.negation import Scoping, clause_trigger
from cartwise.understanding.rules.numbers import ZH_NUMERAL_CHARS
from cartwise.vocabulary.nouns import singular
from cartwise.vocabulary.slugs import slugify


@dataclass(frozen=True)
class FreeObject:
    """A refused thing outside the lexicon."""

    slug: str
    keywords: tuple[str, ...]
    clause: int
    clause_text: str
    span: tuple[int, int] | None = None
    """Where the refusal and its object stand in the message, when they are adjacent
    ("不要灯芯绒"): words that are no part of what is searched for."""
    need_not: bool = False
    """Said as what the shopper can do without ("不用茶具", "不用支架"): neither searched for
    nor refused."""


_OPEN_TRIGGER = re.compile(
    r"\b(?:(?:dislike|aversion|distaste) (?:for|of|to)|"
    r"(?:refuse|prefer not|rather not) (?:to )?[a-z]+(?: to| with| in| on)?|prefer not [a-z]+ing|"
    r"(?:don'?t|do not|cannot|can'?t|won'?t|will not) (?:consume|eat|drink|watch|read|play|listen to|engage with|engage in)|"
    r"avoid(?:ing|s)?|hate|dislike|don'?t like|do not like|don'?t want|do not want|"
    r"can'?t stand|cannot stand|not a (?:big )?fan of|aversion to|allergic to|allergy to|"
    r"refuse to (?:buy|wear|eat|use|watch|take)|stay away from|steer clear of|don'?t enjoy|"
    r"do not enjoy|not into|don'?t eat|do not eat|don'?t wear|do not wear|don'?t use|"
    r"do not use|never (?:buy|wear|eat|use)|against|scared of|afraid of|phobia of|"
    r"(?:prefer|rather) not (?:to )?(?:use|play|attend|watch|eat|wear|read|visit|stay in|stay at|"
    r"take|go to|do|buy|have|drive|listen to|own)|"
    r"strongly dislike|really dislike|^\s*no)\s+(?P<obj>[a-z][a-z\s'-]{2,80})"
)
_CUT = re.compile(
    r"\b(?:that|which|who|because|due|as|since|so|when|while|if|or|and|but|with|in|on|at|for|"
    r"from|to|like|such|unless|than|i|it|they|my|is|are|was|were|whether|especially|including|"
    r"before|after|until|during|please|anymore|any more|either|too|now|today|these|this|of|"
    r"inside|whatsoever|whenever|altogether|entirely|completely)\b"
)
_PREPOSITIONS = {"through", "in", "with", "on", "at", "to", "into", "about", "for"}
_LEADING = {
    "any",
    "form",
    "forms",
    "type",
    "types",
    "kind",
    "kinds",
    "sort",
    "sorts",
    "use",
    "the",
    "a",
    "an",
    "all",
    "most",
    "too",
    "much",
    "many",
    "very",
    "eating",
    "wearing",
    "using",
    "buying",
    "having",
    "getting",
    "being",
    "watching",
    "consuming",
    "anything",
    "something",
    "things",
    "stuff",
    "items",
    "products",
    "product",
    "made",
    "of",
    "foods",
    "food",
    "certain",
    "overly",
    "extremely",
    "highly",
    "strong",
    "really",
    "super",
    "heavy",
}
_REJECT = {
    "thanks",
    "problem",
    "worries",
    "idea",
    "way",
    "more",
    "less",
    "sure",
    "one",
    "it",
    "that",
    "this",
    "them",
    "expensive",
    "cheap",
    "big",
    "small",
    "spend",
    "pay",
    "go",
    "know",
    "care",
    "budget",
    "money",
    "hassle",
    "waiting",
    "it's",
    "you",
    "he",
    "she",
    "we",
    "these",
    "those",
    "anyone",
    "people",
    "when",
}


# A time, a meal or a routine: a habit, not a product ("before 10am", "after dinner").
_ROUTINE = re.compile(
    r"\b(?:before|after|until|past|by)\s+(?:\d|noon|midnight|lunch|dinner|breakfast|bed|work|"
    r"school|sunrise|sunset|the (?:morning|evening|weekend))|\b\d{1,2}\s?(?:am|pm|o'?clock)\b|"
    r"\b(?:go to bed|wake up|get up|sleep in|work out|exercise|skip meals|in the morning|"
    r"at night|on weekends?)\b"
)


# Things nobody buys: activities, care, places, media ("I avoid any form of physical
# activity", "prescription medications", "social media", "homes with many windows").
_NOT_PRODUCT = re.compile(
    r"\b(?:activit(?:y|ies)|exercises?|training|workouts?|medications?|medicines?|media|"
    r"networking|exposure|locations?|places?|trips?|travel(?:ling)?|commute|floor plans?|"
    r"plumbing|ductwork|kitchens?|windows|rooms?|homes|houses|classes|courses|lessons|"
    r"meetings|therap(?:y|ies)|remed(?:y|ies)|treatments?)\b"
)
# "products containing X", "clothes made from X", "anything with X": X is the object.
_CONTENT = re.compile(
    r"\b(?:containing|that contains?|which contains?|contains?|made (?:from|with|of)|"
    r"derived from|with any|with|that have|that has|based on)\s+(?:any\s+|added\s+)?"
)
# "the smell of lavender" → lavender.
_SENSE_OF = re.compile(r"^(?:the\s+)?(?:scent|smell|taste|sound|look|feel|texture)s?\s+of\s+")
# A modifier or a sense cut loose from its noun is no object ("foods high in ...").
_NOT_AN_OBJECT = {"high", "low", "bold", "taste", "smell", "texture", "flavor", "flavour"}


def free_dislikes(text: str, scoping: Scoping) -> list[FreeObject]:
    """Refused English objects outside the lexicon."""
    lowered = text.lower()
    found: list[FreeObject] = []
    for index, (start, end) in enumerate(scoping.clauses):
        if index in scoping.silent_clauses or any(
            t.clause == index and t.stance in ("dislike", "retract") for t in scoping.terms
        ):
            continue
        clause = lowered[start:end]
        if _ROUTINE.search(clause):
            continue
        hit = _OPEN_TRIGGER.search(clause)
        if not hit or _NOT_PRODUCT.search(hit.group("obj")):
            continue
        obj = _SENSE_OF.sub("", hit.group("obj"))
        content = _CONTENT.search(obj)
        if content is not None:
            # "beauty products containing silicones" → silicone: the generic product is
            # the container, what it contains is the object.
            obj = obj[content.end() :]
        words = [w.strip("'-") for w in obj.split()]
        while words and (words[0] in _LEADING or words[0].endswith("ing")):
            # "learning through online courses" → "online courses"
            gerund = words.pop(0).endswith("ing")
            if gerund and words and words[0] in _PREPOSITIONS:
                words.pop(0)
        words = _CUT.split(" ".join(words), maxsplit=1)[0].split()
        words = [w for w in words if re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", w)][:3]
        if not words or words[0] in _REJECT or words[-1] in _NOT_AN_OBJECT or len(words[0]) < 3:
            continue
        last = clause.find(words[-1], hit.start("obj"))
        span = (start + hit.start(), start + last + len(words[-1])) if last >= 0 else None
        words[-1] = singular(words[-1])
        found.append(FreeObject("-".join(words), (" ".join(words),), index, clause, span))
    return found


# "不要太花哨" is "not too flashy": a degree adverb after the trigger means an adjective.
_ZH_BEFORE = re.compile(
    # "不要太贵" is a wish for moderation, but "不喜欢太花哨的" dislikes flashiness: after a
    # verb of dislike, 太/过于 qualify the disliked thing.
    r"(?:(?:不想要|不要|不吃|不穿|不用|不喝|不戴|别要|别买)(?!太|很|那么|这么|过于)|"
    r"(?:不太喜欢|不怎么喜欢|不喜欢|讨厌|受不了)(?:太|过于)?)(?:有|带|含|那种|这种|什么)?"
    rf"(?P<obj>[{HAN}]{{1,8}})"
)
_ZH_AFTER = re.compile(
    rf"(?P<obj>[{HAN}]{{1,8}}?)(?:的)?(?:东西|那种)?(?:我|我们)?(?:也|都|从来|一般|真的)?"
    r"(?:不穿|不吃|不要|不用|不喝|不戴|不喜欢|不太喜欢|受不了|不行)"
)
_ZH_TRAILING = re.compile(r"(?:的|味的|味|口味|款|系列|风格|风|了|吧|呢|啊|哦)+$")
_ZH_LEADING = re.compile(r"^(?:我|我们|也|都|就|还|有|带|含|吃|穿|用|喝|那种|这种|一点)+")
_ZH_NOT_OBJECTS = {
    "东西",
    "这个牌子",
    "那个牌子",
    "这牌子",
    "这家",
    "这个品牌",
    "这个",
    "那个",
    "这种",
    "那种",
    "颜色",
    "牌子",
    "款式",
    "样子",
    "太贵",
    "贵的",
    "便宜",
    "它",
    "他",
    "她",
    "这些",
    "那些",
    "什么",
    "一样",
    "别的",
    "其他",
    "这样",
    "超过",
    "了",
    "太多",
    "太大",
    "太小",
    "太长",
    "太短",
    "太重",
}


def _zh_object(raw: str, lexicon: Lexicon) -> str:
    """ "灯芯绒的裤子" → 灯芯绒: particles off, a known product noun (and what follows)
    off."""
    word = raw
    for match in lexicon.scan(word):
        if match.first("domain") is not None and match.start > 0:
            word = word[: match.start]
            break
    word = _ZH_LEADING.sub("", _ZH_TRAILING.sub("", word.split("的")[0]))
    return word


_NEED_NOT = "不用"
"""Before a thing the lexicon does not know, it says what the shopper can do without ("不用
茶具直接冲"): a feature of what they want, not a refusal."""


def _names_goods_only(match: Match, word: str) -> bool:
    """Whether the lexicon's match is the whole word and only a kind of goods ("我不喜欢运动鞋",
    "羽绒服我不穿"): a refused kind of goods the scoping gives no stance, unlike a material or
    colour it reads itself."""
    return (
        match.start == 0
        and match.end == len(word)
        and match.first("domain") is not None
        and match.first("preference") is None
    )


_AMOUNT = re.compile(rf"[0-9{ZH_NUMERAL_CHARS}]+\s*(?:块|元|rmb)")
"""An amount in the object ("不要超过三千块"): a limit the budget reader reads, not a thing."""


def _is_action(word: str) -> bool:
    """Whether `word` starts with a verb: what the shopper need not do ("不要打孔", "不想安装")
    is a feature of the thing, never a refused thing — a listing that says 免打孔 is the one
    wanted."""
    first = jieba_segmenter().lcut(word, HMM=False)[0]
    return len(first) >= 2 and first in chinese_verbs()


def free_dislikes_zh(text: str, scoping: Scoping, lexicon: Lexicon) -> list[FreeObject]:
    """Refused Chinese objects outside the lexicon (see the module docstring)."""
    lowered = text.lower()
    found: list[FreeObject] = []
    for index, (start, end) in enumerate(scoping.clauses):
        if index in scoping.silent_clauses or any(
            t.clause == index and t.stance in ("dislike", "retract", "ignored")
            for t in scoping.terms
        ):
            continue
        clause = lowered[start:end]
        hit = _ZH_BEFORE.search(clause) or _ZH_AFTER.search(clause)
        if not hit:
            continue
        word = _zh_object(hit.group("obj"), lexicon)
        at = clause.find(word, hit.start())
        # "不用塑料袋的那种" describes the thing by what it lacks: a refusal after all.
        describes = at >= 0 and clause.startswith("的", at + len(word))
        # "不要不要" refuses nothing: an object that is itself a refusal is none.
        refusal = clause_trigger(word) in ("refusal", "aversion")
        if (
            len(word) < 2
            or word in _ZH_NOT_OBJECTS
            or refusal
            or any(not _names_goods_only(m, word) for m in lexicon.scan(word))
            or _AMOUNT.search(word)
            or _is_action(word)
        ):
            continue
        slug = slugify(word)
        if slug:
            refused = (hit.start(), at + len(word)) if hit.re is _ZH_BEFORE else (at, hit.end())
            span = (start + refused[0], start + refused[1]) if at >= 0 else None
            need_not = hit.re is _ZH_BEFORE and hit.group(0).startswith(_NEED_NOT) and not describes
            found.append(FreeObject(slug, (word,), index, clause, span, need_not=need_not))
    return found
