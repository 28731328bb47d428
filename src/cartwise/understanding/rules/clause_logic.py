"""Clause logic on top of polarity scoping: what a stance means once the whole message is read.

`negation.scope_terms` decides, term by term, whether a trigger likes or refuses it. Some
statements only make sense across clauses or against the sentence's grammar; this module
adjusts the scoping in place, by kind:

- **Taking back, not stating** (stance `retract`): a double negation ("我也不是不喜欢木头的",
  "I don't dislike wool", "not that I hate leather") says the thing is acceptable, so a
  dislike of it stored earlier no longer holds; it is no like either.
- **Not a statement at all** (stance `ignored`): a negated fact ("I'm not allergic to
  shellfish", "我对花生不过敏", "I'm not vegan"), a yes/no question about an item ("这件是
  纯棉的吗？", "is this jacket leather?").
- **Change of mind** ("以前不喜欢亚麻，现在挺喜欢", "I used to hate denim, now I love it"):
  what the shopper used to think is ignored; the present clause's stance applies — to its
  own terms, or, when it names none ("now I love it", "现在不喜欢了"), to the past clause's
  terms; "now I'm fine with it" takes them back. Always long-term: it is a standing change.
- **Anaphora**: a clause with a stance and a pronoun but no term ("I love wool but my
  husband can't stand it") takes the previous clause's terms.
- **This request only** (scope `request`): a refusal next to a free choice ("什么牌子都行，
  就是别要三星", "any brand is fine, just not Dell") is an exclusion like "除了X都行".
- **Only X** ("只要不锈钢的", "only ceramic, please"): a must-have for this session, unless
  it is a habit or an identity ("I only wear silk pajamas", "我只穿纯棉的", vegan), which is
  long-term.
- **Softened**: "尽量/最好/能不…就不/if possible/ideally/preferably/rather not" in the clause
  or the clause before makes a dislike soft (it ranks lower instead of being filtered).
"""

from __future__ import annotations

import re
from dataclasses import replace

from cartwise.memory.store import Category
from cartwise.understanding.rules.negation import (
    ScopedTerm,
    Scoping,
    clause_trigger,
    is_retraction,
    stance_of,
)
from cartwise.vocabulary.phrase_words import says

DOUBLE_NEGATION = re.compile(
    r"不是不|并不讨厌|不讨厌|不是讨厌|也不是讨厌|没说不要|没有不喜欢|并非不|"
    r"not that i (?:dislike|hate|don'?t like|mind)|not like i (?:hate|dislike)|"
    r"(?:don'?t|do not|doesn'?t|does not|didn'?t) (?:dislike|hate)|"
    r"it'?s not that i|wouldn'?t say i (?:dislike|hate)|not that i don'?t|"
    # Refusing the removal: "别把皮的都给我过滤掉", "don't filter out the wool ones".
    r"(?:别|不要|不用)把.{0,12}?(?:过滤|去掉|排除|删掉|筛掉|剔除|屏蔽)|"
    r"(?:don'?t|do not) (?:filter|rule|leave|take|cross) (?:\w+ ){0,3}?(?:out|off)\b|"
    r"(?:don'?t|do not) (?:exclude|remove|drop)"
)
NEGATED_FACT = re.compile(
    r"(?:\bnot|n'?t|never been|no longer)\s+(?:\w+\s+){0,2}?"
    r"(?:allergic|intolerant|sensitive|vegan|vegetarian|celiac|coeliac)|"
    r"不过敏|并不过敏|没有.{0,6}(?:过敏|不耐受)|不是(?:素食|纯素|吃素|过敏)"
)
YES_NO_QUESTION = re.compile(
    r"^\s*(?:is|are|does|do|did|was|were|can|could|will|would|has|have)\b|"
    r"[吗嘛么]\s*$|是不是|是否"
)
PAST = re.compile(
    r"以前|原来|过去|之前|曾经|从前|小时候|used to|back in the day|years ago|in the past|"
    r"previously|\bonce\b|was never|were never|for years|had always"
)
PRESENT = re.compile(
    r"现在|如今|这两年|最近|后来|这几年|\bnow\b|these days|lately|nowadays|anymore|any more|"
    r"recently|this year"
)
PRONOUN = re.compile(r"\b(?:it|them|those|that|these)\b|它|它们|这个|那个|这种|那种")
FREE_CHOICE = re.compile(
    r"都行|都可以|都好|随便|无所谓|什么(?:牌子|颜色|材质|款式)都|whatever (?:brand|colou?r)|"
    r"any (?:brand|colou?r|material|style|kind)s? (?:is|are|will|would) (?:fine|ok|okay|do)|"
    r"i don'?t care (?:which|what)|doesn'?t matter"
)
HABITUAL_ONLY = re.compile(
    r"只(?:穿|用|买|吃|喝|戴)|"
    r"\bonly (?:wear|buy|use|eat|drink|shop)|\bi (?:exclusively|always) (?:wear|buy|use|eat|drink)|"
    r"\bexclusively\b|vegan|纯素|素食"
)
SOFTENER = re.compile(
    r"尽量|最好|能不.{0,6}就不|如果可以|可以的话|if possible|if you can|ideally|preferably|"
    r"rather not|'d rather|would rather|prefer not|if i can help it|not a (?:big |huge )?fan|"
    r"not really into|not crazy about|not too keen|没什么兴趣|不太感兴趣"
)


# "I avoid products that are not vegan": the refusal of a negation is a requirement.
AVOID_THE_NOT = re.compile(
    r"\b(?:avoid\w*|refuse\w*|never (?:use|buy|wear))\b.*?\b(?:that|which) (?:are|is) not\b|"
    r"\b(?:avoid\w*|refuse\w*)\b.*?\b(?:that|which) (?:aren'?t|isn'?t)\b|不(?:用|买|要)不是"
)


def _clause_terms(scoping: Scoping, index: int) -> list[ScopedTerm]:
    return [t for t in scoping.terms if t.clause == index]


def _is_brand(term: ScopedTerm) -> bool:
    return term.term.category is Category.BRAND


def _is_question(text: str, span: tuple[int, int]) -> bool:
    clause = text[span[0] : span[1]]
    follows = text[span[1] : span[1] + 1]
    return (follows in ("?", "？") and bool(YES_NO_QUESTION.search(clause))) or bool(
        re.search(r"[吗嘛]\s*$", clause)
    )


def apply_clause_logic(text: str, scoping: Scoping, *, subject_clauses: set[int]) -> None:
    """Adjust `scoping` in place; see the module docstring for the kinds.
    `subject_clauses` are clauses that name another person: "我不喜欢灰色，我妹妹倒是喜欢"
    says the sister likes gray, with no pronoun."""
    lowered = text.lower()
    clauses = [lowered[a:b] for a, b in scoping.clauses]
    for index, clause in enumerate(clauses):
        accepted = bool(DOUBLE_NEGATION.search(clause))
        cancelled = accepted or bool(NEGATED_FACT.search(clause))
        question = _is_question(lowered, scoping.clauses[index])
        if cancelled or question:
            scoping.silent_clauses.add(index)
        if cancelled:
            scoping.statement_clauses.add(index)
        for term in _clause_terms(scoping, index):
            # A brand asked about is still searched for ("is there a Logitech mouse?").
            asked = question and term.stance in ("neutral", "want") and not _is_brand(term)
            if accepted:
                term.stance = "retract"
            elif cancelled or asked:
                term.stance = "ignored"
    for index, clause in enumerate(clauses):
        not_hit = AVOID_THE_NOT.search(clause)
        if not_hit is None:
            continue
        after = scoping.clauses[index][0] + not_hit.end()
        for term in _clause_terms(scoping, index):
            if term.match.start >= after and term.stance == "dislike":
                term.stance, term.trigger, term.scope = "like", "prefer_hard", "long_term"
    changed = _change_of_mind(clauses, scoping)
    _anaphora(clauses, scoping, skip=changed, subject_clauses=subject_clauses)
    free_choice = any(FREE_CHOICE.search(c) for c in clauses)
    for index, clause in enumerate(clauses):
        softened = bool(SOFTENER.search(clause)) or (
            index > 0
            and not _clause_terms(scoping, index - 1)
            and bool(SOFTENER.search(clauses[index - 1]))
        )
        if softened:
            scoping.soft_clauses.add(index)
        for term in _clause_terms(scoping, index):
            if term.scope is not None or (term.stance != "dislike" and term.stance != "like"):
                continue
            if term.trigger == "exclusion" or (
                free_choice and term.trigger == "refusal" and not says(clause, "standing")
            ):
                term.scope = "request"
            elif term.trigger == "prefer_hard":
                habitual = HABITUAL_ONLY.search(clause) or says(clause, "standing")
                term.scope = "long_term" if habitual else "session"


def _change_of_mind(clauses: list[str], scoping: Scoping) -> set[int]:
    """Clauses handled as a change of mind (see the module docstring)."""
    past = next((i for i, c in enumerate(clauses) if PAST.search(c)), None)
    if past is None:
        return set()
    present = next((i for i in range(past + 1, len(clauses)) if PRESENT.search(clauses[i])), None)
    if present is None:
        return set()
    old: list[ScopedTerm] = []
    for index in range(past, present):
        scoping.silent_clauses.add(index)
        for term in _clause_terms(scoping, index):
            term.stance = "ignored"
            old.append(term)
    carried = False
    for index in range(present, len(clauses)):
        own = _clause_terms(scoping, index)
        for term in own:
            term.scope = "long_term"
        if own or carried or not old:
            continue
        clause = clauses[index]
        if is_retraction(clause):
            scoping.terms.extend(
                replace(t, stance="retract", trigger=None, clause=index, clause_text=clause)
                for t in old
            )
            carried = True
            continue
        trigger = clause_trigger(clause)
        stance = stance_of(trigger)
        if stance in ("like", "dislike"):
            scoping.terms.extend(
                replace(
                    t,
                    stance=stance,
                    trigger=trigger,
                    clause=index,
                    clause_text=clause,
                    scope="long_term",
                )
                for t in old
            )
            carried = True
    return set(range(past, len(clauses)))


def _anaphora(
    clauses: list[str], scoping: Scoping, *, skip: set[int], subject_clauses: set[int]
) -> None:
    for index in range(1, len(clauses)):
        clause = clauses[index]
        if index in skip or _clause_terms(scoping, index):
            continue
        if not PRONOUN.search(clause) and index not in subject_clauses:
            continue
        trigger = clause_trigger(clause)
        stance = stance_of(trigger)
        if stance not in ("like", "dislike"):
            continue
        previous = [t for t in _clause_terms(scoping, index - 1) if t.stance != "ignored"]
        scoping.terms.extend(
            replace(t, stance=stance, trigger=trigger, clause=index, clause_text=clause)
            for t in previous
        )
