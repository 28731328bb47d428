"""`parse_request_specs`: comparisons, exact specs, ranges, superlatives and categorical specs
in a shopper's request, zh and en.

A number becomes a spec only with a unit the vocabulary knows ("3 m", "17寸", "1TB"); a bare
number or a money amount ("under 600 EUR", "300元以内", "$80") is a budget, which the money
parser owns, so it never becomes a spec here.
"""

from __future__ import annotations

import re
from functools import cache

from cartwise.catalog.specs.model import LabelSpec, NumericSpec, RequestSpecs, SpecOp, SpecSort
from cartwise.catalog.specs.scan import (
    CLEARANCE_ATTRIBUTES,
    NUMBER,
    Quantity,
    normalize,
    scan_quantities,
)
from cartwise.catalog.specs.superlatives import find_sort
from cartwise.catalog.specs.vocabulary import LabelHit, label_hits

_I = re.IGNORECASE | re.ASCII
"""ASCII word boundaries: in "的HDMI线" a Chinese character is no word character, so
`\bhdmi\b` must match there."""

# Comparison words right before the number. Negated forms come first: "no more than" must
# not read as "more than", 不超过 not as 超过.
_BEFORE: list[tuple[SpecOp, str]] = [
    (
        "le",
        r"no\s+more\s+than|not\s+more\s+than|no\s+(?:longer|bigger|larger|heavier|higher)"
        r"\s+than|not\s+(?:over|above|exceeding)|at\s+most|up\s+to|maximum(?:\s+of)?|max\.?|"
        r"<=|≤|≦|不超过|不大于|不高于|不多于|不长于|不重于|最多|最大|最长|最高",
    ),
    (
        "ge",
        r"no\s+less\s+than|not\s+less\s+than|no\s+(?:shorter|smaller|lighter|lower|fewer)"
        r"\s+than|at\s+least|minimum(?:\s+of)?|min\.?|>=|≥|≧|不少于|不低于|不小于|不短于|至少|"
        r"最少|起码|最低",
    ),
    (
        "gt",
        r"more\s+than|greater\s+than|larger\s+than|bigger\s+than|longer\s+than|higher\s+than|"
        r"heavier\s+than|faster\s+than|over|above|exceeding|beyond|>|大于|超过|高于|多于|长于|"
        r"重于|大过|快于|超",
    ),
    (
        "lt",
        r"less\s+than|fewer\s+than|smaller\s+than|shorter\s+than|lighter\s+than|lower\s+than|"
        r"slower\s+than|under|below|beneath|<|小于|低于|少于|短于|轻于|不到|不足",
    ),
    ("eq", r"exactly|precisely|正好|刚好|恰好|正是"),
]
_AFTER: list[tuple[SpecOp, str]] = [
    (
        "ge",
        r"(?:[a-z]+\s+)?or\s+(?:more|higher|larger|bigger|longer|above|greater|better|faster|heavier|over)|"
        r"and\s+(?:up|above|over|more|higher)|\+|plus\b|minimum\b|min\b|at\s+least|"
        r"(?:或|及)?以上|起|往上|或更(?:大|高|多|长)",
    ),
    (
        "le",
        r"(?:[a-z]+\s+)?or\s+(?:less|lower|smaller|shorter|fewer|under|below|lighter)|max(?:imum)?\b|"
        r"at\s+most|(?:或|及)?以下|以内|之内|内(?!存)|或更(?:小|低|少|短|轻)",
    ),
]
_BEFORE_RES = [
    (op, re.compile(r"(?<![a-z])(?:" + words + r")\s*(?:about\s+|approximately\s+|约)?$", _I))
    for op, words in _BEFORE
]
_AFTER_RES = [(op, re.compile(r"^\s*(?:" + words + r")", _I)) for op, words in _AFTER]

_RANGE = re.compile(
    r"(?:between\s+|从|在)?" + NUMBER + r"\s*(?P<first_unit>[^\d\s,;]{0,6}?)\s*"
    r"(?:and|to|-|–|~|到|至)\s*(\d+(?:\.\d+)?)",
    _I,
)

_CHEAPEST = re.compile(
    r"cheapest|least\s+expensive|lowest[\s-]+(?:price|priced|cost)|most\s+affordable|"
    r"最便宜|最实惠|价格最低|最低价|最划算",
    _I,
)
_PRICIEST = re.compile(r"most\s+expensive|priciest|highest[\s-]+price|最贵|价格最高", _I)

_NEGATION = re.compile(
    r"(?:\bnot\b|\bno\b|\bnon-?|\bwithout\b|\bexcept\b|\bavoid\b|\banything\s+but\b|"
    r"\bother\s+than\b|\bexcluding\b|\bbesides\b|\bnothing\b|"
    r"不要|不是|不想要|不能是|非|除了|别|不含|拒绝|排除)",
    _I,
)
_COMPARISONS = re.compile("|".join(f"(?:{words})" for _, words in _BEFORE + _AFTER), _I)
_LIST_GAP = re.compile(r"^[\s,/、]*(?:or|and|nor|或|或者|和|及|与|也不要|也不是)?[\s,/、]*$", _I)

_UNCHECKED = re.compile(
    NUMBER + r"\s*-?\s*(?:db\b|decibels?|分贝|nits?\b|尼特|cd/m2|ms\b|毫秒|rpm\b|转速?|"
    r"cores?\b|核|threads?\b|线程|iops\b|fps\b|帧|°c|℃|wh\b|瓦时|gbps\b|mbps\b|"
    r"lumens?\b|流明|v\b|伏|mpa\b|psi\b|bar\b)",
    _I,
)
_MONEY_NEAR = re.compile(r"[$€£¥]\s*$|(?:eur|usd|gbp|cny|rmb|budget|预算|价格|价钱|元|块)\s*$", _I)
_MONEY_AFTER = re.compile(
    r"^\s*(?:eur|euro|usd|dollars?|bucks|gbp|pounds?\s+sterling|元|块|rmb)", _I
)


def _op_for(text: str, quantity: Quantity) -> SpecOp:
    before = text[max(0, quantity.start - 24) : quantity.start]
    after = text[quantity.end : quantity.end + 16]
    for op, pattern in _AFTER_RES:
        if pattern.match(after):
            return op
    for op, pattern in _BEFORE_RES:
        if pattern.search(before):
            return op
    return "eq"


def _ranges(text: str, quantities: list[Quantity]) -> tuple[list[NumericSpec], set[int]]:
    """ "between 27 and 32 inch", "27到32寸", "3-5 m": ge the first, le the second, in the
    second number's unit when the first has none."""
    specs: list[NumericSpec] = []
    used: set[int] = set()
    by_start = {q.start: (i, q) for i, q in enumerate(quantities)}
    for m in _RANGE.finditer(text):
        hit = by_start.get(m.start(3))
        if hit is None:
            continue
        index, upper = hit
        low = float(m.group(1))
        first = next((j for j, q in enumerate(quantities) if q.start == m.start(1)), None)
        if first is not None:
            lower_value = quantities[first].value
            used.add(first)
        else:
            lower_value = low * upper.value / float(m.group(3)) if float(m.group(3)) else low
        if lower_value > upper.value:
            continue
        phrase = text[m.start() : upper.end]
        specs.append(
            NumericSpec(attribute=upper.attribute, op="ge", value=lower_value, text=phrase)
        )
        specs.append(
            NumericSpec(attribute=upper.attribute, op="le", value=upper.value, text=phrase)
        )
        used.add(index)
    return specs, used


def _label_specs(text: str, hits: list[LabelHit]) -> list[LabelSpec]:
    """Runs of values of one attribute joined by "or", ",", 、 form one spec; a negation just
    before the run ("not black, white or silver", "不要黑色") negates the whole run."""
    specs: list[LabelSpec] = []
    run: list[LabelHit] = []

    def close() -> None:
        if not run:
            return
        before = text[max(0, run[0].start - 28) : run[0].start]
        clause = re.split(r"[.;!?。；！？]|\bbut\b|但", before)[-1]
        # "no less than 10GB GDDR6", "不超过": a comparison's "no" negates no label
        negated = bool(_NEGATION.search(_COMPARISONS.sub(" ", clause)))
        values = list(dict.fromkeys(hit.value for hit in run))
        specs.append(
            LabelSpec(
                attribute=run[0].attribute,
                values=values,
                negated=negated,
                text=(clause.strip() + " " + text[run[0].start : run[-1].end]).strip(),
            )
        )
        run.clear()

    for hit in hits:
        if run and (
            hit.attribute != run[-1].attribute or not _LIST_GAP.match(text[run[-1].end : hit.start])
        ):
            close()
        run.append(hit)
    close()
    return specs


def _is_money(text: str, quantity: Quantity) -> bool:
    before = text[max(0, quantity.start - 8) : quantity.start]
    return bool(_MONEY_NEAR.search(before) or _MONEY_AFTER.match(text[quantity.end :]))


def parse_request_specs(text: str, context: str = "") -> RequestSpecs:
    """The specs one request carries; never raises on odd text. `context` is what the
    running search is for when the message names no product (see `find_sort`)."""
    normalized = normalize(text)
    lowered = normalized.lower()
    quantities = [
        q
        for q in scan_quantities(normalized, screen_default=True).quantities
        if not _is_money(normalized, q)
    ]
    quantities = [q for q in quantities if not _budget_resolution(lowered, q)]
    numeric, used = _ranges(normalized, quantities)
    for index, quantity in enumerate(quantities):
        if index in used:
            continue
        op = _op_for(normalized, quantity)
        if quantity.attribute in CLEARANCE_ATTRIBUTES and op in ("eq", "le"):
            op = "ge"  # "supports (up to) 240mm radiators": the case takes at least that
        numeric.append(
            NumericSpec(
                attribute=quantity.attribute, op=op, value=quantity.value, text=quantity.text
            )
        )
    hits = [hit for hit in label_hits(lowered) if not _inside_a_type_name(lowered, hit)]
    sort = find_sort(lowered, context)
    cheapest_match = _CHEAPEST.search(lowered)
    if cheapest_match is not None:
        sort = SpecSort(attribute="price", descending=False, text=cheapest_match.group(0))
    elif (priciest := _PRICIEST.search(lowered)) is not None:
        sort = SpecSort(attribute="price", descending=True, text=priciest.group(0))
    unchecked = [m.group(0).strip() for m in _UNCHECKED.finditer(normalized)]
    return RequestSpecs(
        numeric=numeric,
        labels=_label_specs(lowered, hits),
        sort=sort,
        cheapest=cheapest_match is not None,
        unchecked=unchecked,
    )


@cache
def _coloured_type_names() -> re.Pattern[str]:
    """Product-type names with a colour word in them ("green tea", "红茶", "white wine",
    "黑巧克力"): there the colour names the product, not the listing's colour."""
    from cartwise.catalog.taxonomy import product_types  # the taxonomy imports the product

    names = {
        name.casefold()
        for kind in product_types()
        for name in kind.names
        if any(hit.attribute == "color_family" for hit in label_hits(name.casefold()))
    }
    if not names:
        return re.compile(r"(?!)")
    return re.compile("|".join(map(re.escape, sorted(names, key=len, reverse=True))))


def _inside_a_type_name(lowered: str, hit: LabelHit) -> bool:
    return hit.attribute == "color_family" and any(
        match.start() <= hit.start and hit.end <= match.end()
        for match in _coloured_type_names().finditer(lowered)
    )


_BUDGET_BEFORE = re.compile(r"(?:under|below|less\s+than|within|budget|预算|以内|不超过)\s*$", _I)


def _budget_resolution(lowered: str, quantity: Quantity) -> bool:
    """ "under 2k" is a budget, not a 2K screen: a bare "Nk" after a ceiling word."""
    if quantity.attribute != "resolution" or not re.fullmatch(r"\d\s?k", quantity.text, _I):
        return False
    return bool(_BUDGET_BEFORE.search(lowered[max(0, quantity.start - 16) : quantity.start]))
