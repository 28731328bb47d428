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
from dataclasses import dataclass, field
from typing import Literal

from cartwise.understanding.rules.lexicon import Match, Term

TriggerClass = Literal["refusal", "aversion", "safety", "want", "prefer", "prefer_hard", "reset"]
Stance = Literal["dislike", "like", "want", "neutral", "retract"]

_NEGATIVE: list[tuple[str, TriggerClass]] = [
    # "只要不是人造革" is "as long as it is not": a refusal, not 只要 (only want).
    (
        r"只要不是|只要别是|只要没有|as long as it'?s not|as long as it isn'?t|as long as there'?s no",
        "refusal",
    ),
    (
        r"过敏|不耐受|忌口|不能吃|不能碰|allergic to|allergy to|allergies to|intolerant to|intolerance to|sensitive to|sensitivity to",
        "safety",
    ),
    (
        r"不喜欢|不太喜欢|不怎么喜欢|不大喜欢|不爱|讨厌|受不了|反感|嫌弃|不感冒|看不上|don'?t like|do not like|doesn'?t like|dislike|hate|not a fan of|not into|can'?t stand|cannot stand|not fond of|don'?t enjoy|do not enjoy|detest|aversion to|not a big fan of",
        "aversion",
    ),
    (
        r"不想要|不要|不买|不用|不穿|不吃|不喝|不戴|不碰|不能有|不能是|不含|不需要|不考虑|不接受|不选|避免|避开|拒绝|排除|去掉|不带|别要|(?<![特区类性级分识告差派鉴辨])别(?![的人处家样])|不能含|不能用|不可以有|除了|don'?t want|do not want|doesn'?t contain|does not contain|don'?t contain|contains no|free from|don'?t eat|do not eat|don'?t drink|do not drink|don'?t wear|do not wear|never eat|never wear|doesn'?t want|don'?t need|won'?t buy|will not buy|never buy|avoid(?:ing|s)?|without|anything but|anything except|except|refuse to buy|refuse|can'?t have|cannot have|no more|stay away from|steer clear of|exclude|rather not have|prefer not to have|prefer not|not made of|nothing with|nothing made of|free of|\bskip\b|\bnothing\b|isn'?t|aren'?t|\bno\b|\bnot\b|\bnever\b",
        "refusal",
    ),
]
_POSITIVE: list[tuple[str, TriggerClass]] = [
    (
        r"只要|只买|只用|只穿|只看|只考虑|必须是|必须|一定要|only want|only buy|only use|only wear|\bonly\b|must be|must have|exclusively",
        "prefer_hard",
    ),
    (
        r"更喜欢|喜欢|偏好|偏爱|钟爱|最爱|爱用|倾向于|prefer|love|i like|we like|like\b|big fan of|huge fan of|a fan of|favorite|favourite|go for|stick with|stick to",
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
    (r"过敏|不耐受|allergy|allergies|intolerance|intolerant", "safety"),
    (
        r"也不要|也不想要|也不行|也别|不行|就算了|不考虑|不要了|免了|太丑|不好看|is a no|are a no|is out|are out|is a dealbreaker",
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
_CLAUSE_BREAK = re.compile(
    r"[，。,;；！!？?\n]|(?<!\d)\.(?!\d)|但是|但|不过|可是|而是|(?<!anything )(?<!everything )\bbut\b|\bhowever\b|\bthough\b"
)
_ESPECIALLY = re.compile(r"\s*(?:especially|particularly|above all|尤其是|尤其|特别是)")
_CONTRAST_WANT = re.compile(r"\binstead\b|换成|改成|换个|rather")
_ENUM_REST = re.compile(r"(?:\s|\bor\b|\band\b|\bnor\b|和|或者|或|还有|及|的|、)*")
_NEGATED_PREFIX = re.compile(r"(?:无|不含|零|非)\s?$")
_FREE_SUFFIX = re.compile(r"^[\s-]?free\b|^\s?free of")
EMPHATIC = re.compile(
    r"绝对|坚决|千万|死也|永远|从不|从来不|再也不|一点都不|完全不|严格|absolutely|never|definitely|"
    r"under no circumstances|strictly|at all|whatsoever|hate|detest|can'?t stand|cannot stand|讨厌|受不了|"
    r"seriously|severe|严重|死活"
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


@dataclass
class Scoping:
    """Everything polarity-related found in one message."""

    terms: list[ScopedTerm] = field(default_factory=list)
    negated_spans: list[tuple[int, int]] = field(default_factory=list)
    """Text to strip from the search query (triggers and the terms they refuse)."""
    clauses: list[tuple[int, int]] = field(default_factory=list)


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
        if _RETRACTION.search(clause):
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
        postfix = [(start + p.start(), _trigger_class(p)) for p in _POSTFIX.finditer(clause)]
        active: tuple[int, TriggerClass] | None = None
        if not triggers and _CONTRAST_WANT.search(clause):
            active = (start, "want")  # "no plastic, metal instead"
        elif carried and not triggers and _is_enumeration(clause, in_clause, start):
            active = (start, carried)  # "no plastic, leather or nylon"
        elif carried in ("prefer", "prefer_hard") and not triggers and _ESPECIALLY.match(clause):
            active = (start, carried)  # "I love minimalist design, especially white furniture"
        carried = None
        for match in in_clause:
            term = match.first("preference")
            assert term is not None
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
            elif after and (trigger_class is None or trigger_class in ("want", "prefer")):
                trigger_class = after[0][1]
            stance = _stance(trigger_class)
            if stance == "dislike" and trigger_class != "safety" and _except_positive(clause):
                stance = "neutral"
            scoping.terms.append(ScopedTerm(match, term, stance, trigger_class, index, clause))
            if stance == "dislike":
                scoping.negated_spans.append((active[0] if active else match.start, match.end))
            if stance in ("dislike", "like"):
                carried = trigger_class
    return scoping


def _is_enumeration(clause: str, terms: list[Match], offset: int) -> bool:
    """A clause made only of terms and list words continues the previous scope."""
    rest = list(clause)
    for match in terms:
        for i in range(match.start - offset, match.end - offset):
            rest[i] = " "
    return bool(terms) and bool(_ENUM_REST.fullmatch("".join(rest)))


def _stance(trigger: TriggerClass | None) -> Stance:
    if trigger in ("refusal", "aversion", "safety"):
        return "dislike"
    if trigger in ("prefer", "prefer_hard"):
        return "like"
    if trigger == "want":
        return "want"
    return "neutral"


def _except_positive(clause: str) -> bool:
    """ "除了X还要Y" is "besides X"; only "除了X都行/以外" refuses X."""
    return "除了" in clause and bool(re.search(r"还|也要|另外", clause))
