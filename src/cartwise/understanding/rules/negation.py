"""Polarity and its scope: which lexicon terms a message likes, refuses or takes back.

A trigger (不要/别/no/avoid/without/过敏/喜欢/prefer ...) opens a scope that runs to the end
of its clause; clauses end at ，。,.;；！？ and at contrast words (但/不过/but/however), so
"不要塑料的耳机，要金属的" refuses plastic and wants metal. Inside one clause a later trigger
replaces an earlier one ("不要塑料要金属"). Enumerations stay in scope ("不要塑料和皮革",
"no plastic or leather", and an English list continuing after a comma: "no plastic, leather
or nylon"). Postfix triggers look back instead ("我对花生过敏", "a severe peanut allergy",
"塑料的不行"); "无X"/"不含X"/"X-free" refuse X. A clause that takes something back
("其实塑料也可以", "actually leather is fine", "I don't mind plastic anymore") yields
retractions, never likes or dislikes.

Trigger classes decide strength: a refusal (不要, no, avoid, without) is hard — it is a
filter by nature; an aversion (不喜欢, 讨厌, don't like, hate) is soft unless the clause is
emphatic (绝对, 坚决, never, absolutely); safety (过敏, allergic) is hard and global.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from cartwise.text import HAN
from cartwise.understanding.rules.lexicon import Match, Term
from cartwise.vocabulary.safety import safety_words

TriggerClass = Literal[
    "refusal", "aversion", "safety", "exclusion", "want", "prefer", "prefer_hard", "reset"
]
Stance = Literal["dislike", "like", "want", "neutral", "retract", "ignored"]
"""`ignored`: mentioned but no stance at all (a double negation, a negated fact, a
question, what the shopper used to think) — neither a preference nor a search slot."""


def _alternation(words: tuple[str, ...]) -> str:
    """Vocabulary words as regex alternatives, longest first."""
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


# "like" is a verb after a subject or an auxiliary ("I like", "my kids like", "really like");
# after a noun it is a preposition ("animal products like leather, wool or silk").
_LIKE_VERB = (
    r"(?:(?<=\bi )|(?<=\bwe )|(?<=\byou )|(?<=\bthey )|(?<=\bdo )|(?<=\bdid )|(?<=\bstill )|"
    r"(?<=\breally )|(?<=\balso )|(?<=\bwould )|(?<='d )|(?<=\bto )|(?<=\bjust )|(?<=\bactually )|"
    r"(?<=\btotally )|(?<=\busually )|(?<=\bboth )|(?<=\bkids )|(?<=\bparents )|"
    # Hedged ("I kind of like it", "I kinda like"): still a like.
    r"(?<=\bkind of )|(?<=\bsort of )|(?<=\bkinda )|(?<=\bsorta )|(?<=\bquite )|"
    r"(?<=\bsomewhat )|(?<=\bmostly )|(?<=\bnow )|^)like\b"
)
_NEGATIVE: list[tuple[str, TriggerClass]] = [
    # "只要不是人造革" is "as long as it is not": a refusal, not 只要 (only want).
    (
        r"只要不是|只要别是|只要没有|as long as it'?s not|as long as it isn'?t|as long as there'?s no",
        "refusal",
    ),
    # "除了小米别的都可以" / "anything but Apple": refuses X for this request only.
    (
        r"除了|anything but|anything except|any \w+ except|\bexcept(?: for)?\b|other than|\bbesides\b|apart from",
        "exclusion",
    ),
    (_alternation(safety_words().before), "safety"),
    (
        r"不喜欢|不太喜欢|不怎么喜欢|不大喜欢|不爱|讨厌|受不了|受够了|烦透了|反感|嫌弃|(?:i'?ve |i have )?had it with|(?:i'?m |i am )?(?:sick|tired) of|fed up with|done with|不感冒|看不上|don'?t like|do not like|doesn'?t like|dislike|hate|not a fan of|not into|can'?t stand|cannot stand|not fond of|don'?t enjoy|do not enjoy|detest|despise|aversion to|not a (?:big |huge |real )?fan of|not really into|not really a fan of|not crazy about|not too keen on|not keen on|no interest in|not interested in|没什么兴趣|不太感兴趣|不感兴趣|不怎么感兴趣",
        "aversion",
    ),
    (
        r"不想要|不想(?:吃|穿|用|买|看|喝|戴)|不要|不买|不用|不穿|不吃|不喝|不戴|不碰|不看|不能有|不能是|不含|不需要|不考虑|不接受|不选|避免|避开|拒绝|排除|去掉|不带|别要|(?<![特区类性级分识告差派鉴辨])别(?![的人处家样])|不能含|不能用|不可以有|(?<=最好|尽量)不是|don'?t want|do not want|doesn'?t contain|does not contain|don'?t contain|contains no|free from|(?:don'?t|do not|doesn'?t|does not|won'?t|will not) (?:eat|drink|wear|use)|never eat|never wear|doesn'?t want|don'?t need|won'?t buy|will not buy|never buy|avoid(?:ing|s)?|without|refuse to buy|refuse|can'?t have|cannot have|no more|stay away from|steer clear of|exclude|rather not have|prefer not to have|prefer not|not made of|nothing with|nothing made of|free of|\bskip\b|\bnothing\b|isn'?t|aren'?t|\bno\b|\bnot\b|\bnever\b",
        "refusal",
    ),
]
_POSITIVE: list[tuple[str, TriggerClass]] = [
    (
        r"只要|只买|只用|只穿|只看|只考虑|只选|必须是|必须|一定要|\bjust\b(?=[a-z\s-]+\bones?\b)|only want|only buy|only use|only wear|\bonly\b|must be|must have|exclusively",
        "prefer_hard",
    ),
    (
        r"更喜欢|喜欢|偏好|偏爱|钟爱|最爱|爱用|爱吃|爱穿|爱喝|倾向于|prefer|love|likes\b|"
        + _LIKE_VERB
        + r"|big fan|huge fan|a fan of|favorite|favourite|go for|stick with|stick to|really into|(?:i'?m|am) into",
        "prefer",
    ),
    (
        r"想要|还是要|换成|改成|最好是|推荐个|来个|要|i'?d like|i would like|i want|want|need|looking for",
        "want",
    ),
]
# "prefer in-ear over over-ear": the second term is neither liked nor refused.
_RESET: list[tuple[str, TriggerClass]] = [(r"\bover\b|rather than|instead of|而不是|胜过", "reset")]
_POSTFIX_NEGATIVE: list[tuple[str, TriggerClass]] = [
    (r"\bonly(?=\s*$)", "prefer_hard"),
    (_alternation(safety_words().after), "safety"),
    (r"受不了|没什么兴趣|不太感兴趣|不感兴趣|不太喜欢|不喜欢", "aversion"),
    (
        r"(?:我|我们)?(?:从来|一般|也|都)?(?:不穿|不吃|不用|不戴|不喝|不碰)|也不要|也不想要|也不行|也别|不行|就算了|不考虑|不要了|免了|太丑|不好看|is a no|are a no|is out|are out|is a dealbreaker",
        "refusal",
    ),
]
_TRIGGERS = re.compile(
    "|".join(
        f"(?P<{kind}_{i}_{j}>{alternatives})"
        for i, group in enumerate((_NEGATIVE, _POSITIVE, _RESET))
        for j, (alternatives, kind) in enumerate(group)
    )
)
_POSTFIX = re.compile(
    "|".join(f"(?P<{kind}_{j}>{alt})" for j, (alt, kind) in enumerate(_POSTFIX_NEGATIVE))
)
_RETRACTION = re.compile(
    r"也可以|也行|也没关系|也没事|也ok|也不错|没问题|不介意|无所谓|也能接受|可以接受|其实还行|其实还可以|其实也还行|"
    r"is fine|are fine|is ok|are ok|is okay|are okay|is alright|are alright|don'?t mind|do not mind|no longer mind|"
    r"fine with|okay with|ok with|no problem with|is acceptable|are acceptable|works too|is good now|can accept|"
    r"no longer (?:hate|dislike|avoid)|don'?t hate .* anymore|changed my mind about"
)
# "anything but Lenovo is fine" excludes Lenovo; its "is fine" takes nothing back.
_EXCLUSION = re.compile(r"除了|anything but|anything except|\bexcept\b|other than")
_CLAUSE_BREAK = re.compile(
    # A space between Chinese characters is how a phone keyboard ends a clause
    # ("宝宝8个月了 想买奶瓶 不要塑料的 最好是玻璃的").
    # 不过 is "but" except in 不过敏 (not allergic), 不过分 (not excessive), 不过于 (not too).
    rf"[，。,;；！!？?\n]|(?<=[{HAN}])\s+(?=[{HAN}])|(?<!\d)\.(?!\d)|但是|但|不过(?![敏分于])|可是|而是|(?<!anything )(?<!everything )\bbut\b|\bhowever\b|\bthough\b"
)
_LIST_LEAD = re.compile(
    r"\s*(?:including|such as|like|e\.g\.|for example|for instance|especially|particularly|"
    r"包括|比如|例如|尤其是|尤其|特别是)?"
)
_LIST_WORD = re.compile(r"\bor\b|\band\b|\bnor\b|和|或|还有|、")
_ESPECIALLY = re.compile(r"\s*(?:especially|particularly|above all|尤其是|尤其|特别是)")
_CONTRAST_WANT = re.compile(r"\binstead\b|换成|改成|换个|rather")
_ENUM_REST = re.compile(r"(?:\s|\bor\b|\band\b|\bnor\b|和|或者|或|还有|及|的|、)*")
_CLAUSE_TAIL = re.compile(
    r"[\s了啊吧呀哦哈喔呢嘛的哟~～!！.。]*|\s*(?:please|pls|thanks|thx)?[\s!.]*"
)
"""What may follow a refusal that ends its clause: particles and politeness."""
_NEGATED_PREFIX = re.compile(r"(?:无|不含|零|非)\s?$")
_FREE_SUFFIX = re.compile(r"^[\s-]?free\b|^\s?free of")
EMPHATIC = re.compile(
    r"绝不|绝对|坚决|千万|死也|永远|从不|从来不|再也不|一点都不|完全不|严格|absolutely|never|definitely|"
    r"under no circumstances|strictly|at all|whatsoever|hate|detest|can'?t stand|cannot stand|讨厌|受不了|"
    r"受够了|had it with|fed up with|sick of|"
    r"seriously|severe|严重|死活|despise"
)
SAFETY_CONTEXT = re.compile(
    r"过敏|哮喘|孕妇|怀孕|湿疹|敏感肌|皮肤敏感|不耐受|allerg|asthma|pregnan|eczema|sensitive skin|intoleran|celiac|coeliac"
)


@dataclass
class ScopedTerm:
    """One lexicon term with the stance the message takes on it."""

    match: Match
    term: Term
    stance: Stance
    trigger: TriggerClass | None
    clause: int
    clause_text: str
    scope: Literal["long_term", "session", "request"] | None = None
    """Set by the clause logic when it decides the scope (change of mind, "only", "any
    brand but ..."); None lets the planner's cues decide."""


@dataclass
class Scoping:
    """Everything polarity-related found in one message."""

    terms: list[ScopedTerm] = field(default_factory=list)
    negated_spans: list[tuple[int, int]] = field(default_factory=list)
    """Text to strip from the search query (triggers and the terms they refuse)."""
    clauses: list[tuple[int, int]] = field(default_factory=list)
    silent_clauses: set[int] = field(default_factory=set)
    """Clauses that state nothing (a double negation, a negated fact, a question, a past
    view): no term in them, known or not, becomes a preference."""
    statement_clauses: set[int] = field(default_factory=set)
    """Silent clauses that still tell something about the shopper ("我对芝麻不过敏", "I don't
    hate nylon") rather than ask: a message made of them is no search."""
    soft_clauses: set[int] = field(default_factory=set)
    """Clauses whose dislikes are softened ("尽量不要", "ideally avoid"): soft, not hard."""


def trigger_spans(text: str) -> list[tuple[int, int]]:
    """Where the polarity triggers of `text` stand ("not a fan of", "不喜欢")."""
    return [(t.start(), t.end()) for t in _TRIGGERS.finditer(text.lower())]


def outside_triggers(matches: list[Match], spans: Sequence[tuple[int, int]]) -> list[Match]:
    """The matches that are not words of a longer trigger (`trigger_spans`): "fan" in "not a
    fan of black" is no electric fan."""
    return [
        m
        for m in matches
        if not any(a <= m.start and m.end <= b and b - a > m.end - m.start for a, b in spans)
    ]


def split_clauses(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    start = 0
    for hit in _CLAUSE_BREAK.finditer(text):
        if hit.start() > start:
            spans.append((start, hit.start()))
        start = hit.end()
    if start < len(text):
        spans.append((start, len(text)))
    return spans


def is_retraction(clause: str) -> bool:
    """ "其实塑料也可以", "I'm fine with it": the clause takes something back."""
    return bool(_RETRACTION.search(clause))


def clause_trigger(clause: str) -> TriggerClass | None:
    """The last trigger in a clause (lowercased), for clauses that name no term ("now I
    love it")."""
    hits = list(_TRIGGERS.finditer(clause))
    return _trigger_class(hits[-1]) if hits else None


def stance_of(trigger: TriggerClass | None) -> Stance:
    return _stance(trigger)


def _trigger_class(hit: re.Match[str]) -> TriggerClass:
    return re.sub(r"(?:_\d+)+$", "", hit.lastgroup or "")  # type: ignore[return-value]


def scope_terms(text: str, matches: list[Match]) -> Scoping:
    """Assign a stance to every preference term in `text` (see the module docstring)."""
    lowered = text.lower()
    scoping = Scoping(clauses=split_clauses(lowered))
    carried: TriggerClass | None = None
    for index, (start, end) in enumerate(scoping.clauses):
        clause = lowered[start:end]
        in_clause = [m for m in matches if start <= m.start < end and m.first("preference")]
        if _RETRACTION.search(clause) and not _EXCLUSION.search(clause):
            for match in in_clause:
                term = match.first("preference")
                assert term is not None
                scoping.terms.append(ScopedTerm(match, term, "retract", None, index, clause))
            carried = None
            continue
        triggers = [
            (start + t.start(), start + t.end(), _trigger_class(t))
            for t in _TRIGGERS.finditer(clause)
        ]
        triggers = [t for t in triggers if not any(m.start <= t[0] < m.end for m in matches)]
        # A postfix trigger directly followed by a term is that term's prefix instead:
        # in "喜欢吃辣不吃甜", 不吃 refuses 甜, not 辣.
        postfix = [
            (start + p.start(), start + p.end(), _trigger_class(p))
            for p in _POSTFIX.finditer(clause)
            if not any(start + p.end() <= m.start < start + p.end() + 3 for m in in_clause)
        ]
        # A refusal that ends its clause looks back, like a postfix: "粉色的绝对不要",
        # "塑料的就别了", "白色的不要哈".
        postfix.extend(
            (t_start, t_end, t_class)
            for t_start, t_end, t_class in triggers
            if t_class in ("refusal", "aversion")
            and _CLAUSE_TAIL.fullmatch(lowered[t_end:end])
            and any(m.end <= t_start for m in in_clause)
        )
        postfix.sort()
        active: tuple[int, TriggerClass] | None = None
        enumeration_end: int | None = None
        if not triggers and _CONTRAST_WANT.search(clause):
            active = (start, "want")  # "no plastic, metal instead"
        elif carried and not triggers and _is_enumeration(clause, in_clause, start):
            active = (start, carried)  # "no plastic, leather or nylon"
        elif carried and not triggers:
            # "... like leather, wool, or silk as I'm vegan", "..., including wool and silk":
            # only the terms listed at the clause's start continue the previous scope.
            enumeration_end = _enumeration_end(clause, in_clause, start)
            if enumeration_end is not None:
                active = (start, carried)
        elif carried in ("prefer", "prefer_hard") and not triggers and _ESPECIALLY.match(clause):
            active = (start, carried)  # "I love minimalist design, especially white furniture"
        carried = None
        for match in in_clause:
            term = match.first("preference")
            assert term is not None
            if enumeration_end is not None and match.start >= enumeration_end:
                active, enumeration_end = None, None
            for trigger in triggers:
                if trigger[1] <= match.start and (active is None or trigger[0] >= active[0]):
                    active = (trigger[0], trigger[2])
            trigger_class = active[1] if active else None
            after = [p for p in postfix if p[0] >= match.end]
            before = lowered[max(start, match.start - 3) : match.start]
            prefix_hit = _NEGATED_PREFIX.search(before)
            suffix_hit = _FREE_SUFFIX.match(lowered[match.end :])
            if prefix_hit or suffix_hit:
                trigger_class = "refusal"
                span_start = match.start - len(prefix_hit.group(0)) if prefix_hit else match.start
                span_end = match.end + (suffix_hit.end() if suffix_hit else 0)
                scoping.negated_spans.append((span_start, span_end))
            elif after and (
                trigger_class is None
                # A postfix aversion ("橙色我受不了") never overrides a liking verb: in
                # "喜欢黑色不喜欢白色" the 不喜欢 belongs to 白色.
                or (trigger_class in ("want", "prefer") and after[0][2] != "aversion")
            ):
                trigger_class = after[0][2]
                scoping.negated_spans.append(after[0][:2])
            stance = _stance(trigger_class)
            if trigger_class == "exclusion" and _except_positive(clause):
                stance = "neutral"
            scoping.terms.append(ScopedTerm(match, term, stance, trigger_class, index, clause))
            if stance == "dislike":
                scoping.negated_spans.append((active[0] if active else match.start, match.end))
            if stance in ("dislike", "like"):
                carried = trigger_class
    return scoping


def _enumeration_end(clause: str, terms: list[Match], offset: int) -> int | None:
    """Where a list of terms at the clause's start ends (absolute), after an optional lead
    word ("including", "such as", "like", "especially", "包括", "比如"); None if the clause
    does not start with a term."""
    lead = _LIST_LEAD.match(clause)
    position = offset + (lead.end() if lead else 0)
    listed = bool(lead and lead.group(0).strip())
    end: int | None = None
    for match in sorted(terms, key=lambda m: m.start):
        gap = clause[position - offset : match.start - offset]
        if not _ENUM_REST.fullmatch(gap):
            break
        listed = listed or bool(_LIST_WORD.search(gap))
        end = position = match.end
    # A bare term opening a clause is no list ("别要实木的，太重了": 太重 is the reason).
    return end if listed else None


def _is_enumeration(clause: str, terms: list[Match], offset: int) -> bool:
    """A clause made only of terms and list words continues the previous scope."""
    rest = list(clause)
    for match in terms:
        for i in range(match.start - offset, match.end - offset):
            rest[i] = " "
    return bool(terms) and bool(_ENUM_REST.fullmatch("".join(rest)))


def _stance(trigger: TriggerClass | None) -> Stance:
    if trigger in ("refusal", "aversion", "safety", "exclusion"):
        return "dislike"
    if trigger in ("prefer", "prefer_hard"):
        return "like"
    if trigger == "want":
        return "want"
    return "neutral"


def _except_positive(clause: str) -> bool:
    """ "除了X还要Y" is "besides X"; only "除了X都行/以外" refuses X."""
    return "除了" in clause and bool(re.search(r"还|也要|另外", clause))
