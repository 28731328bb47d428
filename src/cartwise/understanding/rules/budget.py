"""Budgets → the slots budget_max / budget_min / budget_currency (strings).

Decisions (the shopper's intent, not arithmetic):
- "around X" (三百块左右, about $50): budget_max = 1.2 × X and no minimum — cheaper is never
  a problem for a shopper, and "around" tolerates a little more.
- A bare price with a currency word ("300块的耳机", "$50 headphones") is a ceiling.
- "两三百" / "300到500" / "between 100 and 200": budget_min and budget_max.
- No currency word: CNY for a Chinese message, USD for an English one.
Budgets are always session slots, never long-term preferences.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from cartwise.text import has_han
from cartwise.understanding.rules.numbers import (
    NUMBER_PATTERN,
    ZH_APPROX_RANGE,
    ZH_DIGITS,
    ZH_NUMERAL_CHARS,
    english_number_words,
    format_amount,
    parse_amount,
)
from cartwise.vocabulary.currencies import currency_alternation, currency_of

AROUND_FACTOR = 1.2

# Currency symbols and words are the vocabulary's one currency table ("S$50", "RM100以内").
_PREFIX = rf"(?P<pre>{currency_alternation('before')})?\s*"
_SUFFIX = rf"(?:\s?(?P<post>{currency_alternation('after')}))?"
# Units that mean the number is not money ("under 5 pounds", "less than 10 oz", "42码").
_NOT_MONEY = r"(?!\s?(?:码|号|寸|英寸|cm|mm|ml|l\b|g\b|kg|oz|ounce|lb|lbs|pound|inch|in\b|ft|feet|foot|hour|min|day|year|month|week|w\b|watt|gb|tb|mah|pack|count|pcs|piece|pair|个|双|件|条|天|年|岁|斤|克|米|分钟|小时|瓦|毫升|人|次|%))"


def _amount(name: str) -> str:
    # Guards: never start or stop inside a number ("12345" is not "2345"; "40.00" not "40.0").
    number = rf"(?<!\d)(?<!\d\.)(?P<{name}>{NUMBER_PATTERN})(?!\d|\.\d|[{ZH_NUMERAL_CHARS}])"
    prefix = _PREFIX.replace("(?P<pre>", f"(?P<{name}_pre>")
    suffix = _SUFFIX.replace("(?P<post>", f"(?P<{name}_post>")
    # A minus sign before the amount or its currency ("budget -500", "-$20") is read, so a
    # negative budget reaches the agent as negative instead of passing for a positive one.
    sign = rf"(?:(?P<{name}_sign>(?<![\w.])-)\s?)?"
    return rf"{sign}{prefix}(?P<{name}_sign2>-)?{number}{suffix}{_NOT_MONEY}"


_A = _amount("a")
_B = _amount("b")
_MAX_BEFORE = (
    r"不超过|不要超过|别超过|不能超过|不高于|低于|少于|不到|最多|顶多|最高|上限|控制在|预算上限|"
    r"under|below|less than|lower than|less then|no more than|not more than|not over|at most|"
    r"max(?:imum)?(?: of)?|up to|cheaper than|within|no higher than|no greater than|not exceeding|"
    r"nothing (?:over|above|more than|pricier than)|nothing that costs (?:over|more than)|"
    r"not (?:a cent|a penny|a dollar) (?:over|more than)"
)
_MIN_BEFORE = r"至少|起码|不低于|高于|超过|above|over|more than|at least|minimum(?: of)?|starting at|higher than"
_AROUND_BEFORE = r"大概|大约|差不多|around|about|roughly|approximately|approx\.?|~"
_BUDGET_CUE = (
    r"预算(?:就是|就|只有|只|是|在|有|大概|大约|差不多)?|budget(?: is| of|:)?|spend(?: up to)?|"
    r"pay(?: up to)?"
)

PATTERNS: list[tuple[str, str]] = [
    ("range", rf"(?:between\s)?{_A}\s*(?:到|至|-|~|–|—|－|to|and)\s*{_B}"),
    (
        "max",
        (
            rf"(?:{_BUDGET_CUE})?\s*(?:{_MAX_BEFORE})\s*(?:花|花费|用|spend|pay)?\s*(?:the\s)?(?:price\s(?:of\s)?)?{_A}"
        ),
    ),
    (
        "max",
        (rf"{_A}\s*(?:以内|之内|以下|内|封顶|or less|or under|or below|max\b|tops|at most)"),
    ),
    ("min", rf"(?:{_MIN_BEFORE})\s*{_A}"),
    ("min", rf"{_A}\s*(?:以上|起|or more|and up|plus)"),
    ("around", rf"(?:{_BUDGET_CUE})?\s*(?:{_AROUND_BEFORE})\s*{_A}"),
    ("around", rf"{_A}\s*(?:左右|上下|或者更多一点|ish)"),
    ("max", rf"(?:{_BUDGET_CUE})\s*{_A}"),
    ("max", rf"{_A}\s*(?:budget|的预算)"),
    ("price", rf"{_A}"),
]
"""(kind, regex) in the order they are tried: the first that matches wins. Each regex is
compiled the first time a message reaches it (`_pattern`): a budget is usually found by one
of the first three, and compiling the rest (each holds every currency spelling) at import
cost ~150 ms of every process at a load average of 6."""


@functools.cache
def _pattern(source: str) -> re.Pattern[str]:
    return re.compile(source)


@dataclass
class BudgetFinding:
    """What the budget parser found."""

    budget_min: float | None = None
    budget_max: float | None = None
    currency: str | None = None
    spans: list[tuple[int, int]] = field(default_factory=list)

    @property
    def found(self) -> bool:
        return self.budget_min is not None or self.budget_max is not None

    def slots(self, default_currency: str) -> dict[str, str]:
        out: dict[str, str] = {}
        if self.budget_min is not None:
            out["budget_min"] = format_amount(self.budget_min)
        if self.budget_max is not None:
            out["budget_max"] = format_amount(self.budget_max)
        if out:
            out["budget_currency"] = self.currency or default_currency
        return out


def _currency(hit: re.Match[str], *names: str) -> str | None:
    for name in names:
        for part in (f"{name}_pre", f"{name}_post"):
            word = hit.groupdict().get(part)
            if word:
                return currency_of(word.strip())
    return None


def _has_currency(hit: re.Match[str], *names: str) -> bool:
    return _currency(hit, *names) is not None


def _overlaps(span: tuple[int, int], taken: list[tuple[int, int]]) -> bool:
    return any(span[0] < end and start < span[1] for start, end in taken)


def parse_budget(text: str) -> BudgetFinding:
    """Find the budget in one message (lowercased internally). The first pattern that
    matches a stretch of text wins it; later patterns cannot reuse those characters."""
    lowered = english_number_words(text.lower())
    finding = BudgetFinding()
    approx = ZH_APPROX_RANGE.search(lowered)
    if approx and not re.match(r"\s?(?:米|克|斤|毫升|人|个|次|天|年)", lowered[approx.end() :]):
        unit = parse_amount(approx.group(3)) or 1.0
        finding.budget_min = ZH_DIGITS[approx.group(1)] * unit
        finding.budget_max = ZH_DIGITS[approx.group(2)] * unit
        finding.spans.append(approx.span())
    for kind, source in PATTERNS:
        if finding.found:
            break
        for hit in _pattern(source).finditer(lowered):
            if _overlaps(hit.span(), finding.spans) or not _accept(kind, hit, lowered):
                continue
            _apply(kind, hit, finding)
            finding.spans.append(hit.span())
            break
    return finding


def _signed(hit: re.Match[str], name: str) -> float | None:
    amount = parse_amount(hit.group(name))
    if amount is None:
        return None
    negative = hit.groupdict().get(f"{name}_sign") or hit.groupdict().get(f"{name}_sign2")
    return -amount if negative else amount


def _accept(kind: str, hit: re.Match[str], text: str) -> bool:
    """Reject numbers that are plainly not money."""
    amount = _signed(hit, "a")
    if amount is None or amount == 0:
        return False
    money_context = re.search(r"预算|价|钱|budget|price|cost|spend|pay|cheap|expensive", text)
    if kind == "price":
        return _has_currency(hit, "a")
    if kind == "range":
        second = parse_amount(hit.group("b"))
        if second is None or (second <= amount / 10 and hit.group("b")[0].isdigit()):
            return False
        return bool(_has_currency(hit, "a", "b") or money_context or max(amount, second) >= 20)
    if kind == "min" or kind == "around":
        return bool(_has_currency(hit, "a") or money_context or has_han(text))
    return True


def _apply(kind: str, hit: re.Match[str], finding: BudgetFinding) -> None:
    amount = _signed(hit, "a") or 0.0
    finding.currency = _currency(hit, "a", "b") if kind == "range" else _currency(hit, "a")
    if kind == "range":
        upper = _signed(hit, "b") or 0.0
        if amount < 10 <= upper and not hit.group("a")[0].isdigit() and upper >= 100:
            # 三到五百: the first figure shares the second's unit.
            amount *= 10 ** (len(str(int(upper))) - 1)
        finding.budget_min, finding.budget_max = min(amount, upper), max(amount, upper)
    elif kind == "min":
        finding.budget_min = amount
    elif kind == "around":
        finding.budget_max = amount * AROUND_FACTOR
    else:
        finding.budget_max = amount
