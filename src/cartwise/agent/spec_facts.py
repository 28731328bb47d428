"""How a search's specs are said to the shopper: "screen size ≥ 27 inch, < 600 EUR:
4 offers" / "屏幕尺寸 ≥ 27 inch：4 个商品", the winner of a superlative, and the specs the
catalog could not check."""

from __future__ import annotations

from collections.abc import Sequence

from cartwise.catalog.specs import ATTRIBUTES, LabelSpec, NumericSpec, RequestSpecs, SpecSort
from cartwise.understanding.reading import Language
from cartwise.vocabulary import colour_table

OP_SYMBOLS = {"lt": "<", "le": "≤", "eq": "=", "ge": "≥", "gt": ">"}
BASE_UNITS: dict[str, tuple[float, str]] = {
    "GB": (1000.0, "TB"),
    "MHz": (1000.0, "GHz"),
    "MB/s": (1000.0, "GB/s"),
}
"""A value this large reads better in the bigger unit (4000 GB → 4 TB)."""


def _name(attribute: str, language: Language) -> str:
    info = ATTRIBUTES.get(attribute)
    if info is None:
        return attribute.replace("_", " ")
    return info.label_zh if language == "zh" else info.label_en


def _number(value: float) -> str:
    return f"{value:g}"


def quantity(attribute: str, value: float) -> str:
    """A value with its unit: "3 m", "4 TB", "27 inch"."""
    info = ATTRIBUTES.get(attribute)
    unit = info.unit if info is not None else ""
    if unit == "px":
        return _number(value)
    step = BASE_UNITS.get(unit)
    if step is not None and value >= step[0]:
        return f"{_number(value / step[0])} {step[1]}"
    return f"{_number(value)} {unit}".strip()


def numeric_fact(spec: NumericSpec, language: Language) -> str:
    return f"{_name(spec.attribute, language)} {OP_SYMBOLS[spec.op]} {quantity(spec.attribute, spec.value)}"


def _label_value(attribute: str, value: str, language: Language) -> str:
    if attribute == "color_family":
        return colour_table().family_name(value, language)
    return value.upper()  # am5 → AM5, ddr5 → DDR5, hdmi → HDMI, atx → ATX


def label_fact(spec: LabelSpec, language: Language) -> str:
    values = "/".join(_label_value(spec.attribute, v, language) for v in spec.values)
    if spec.negated:
        return f"{_name(spec.attribute, language)}{'不是' if language == 'zh' else ' not '}{values}"
    return f"{_name(spec.attribute, language)}{'：' if language == 'zh' else ': '}{values}"


def sort_fact(sort: SpecSort, language: Language) -> str:
    zh = language == "zh"
    if sort.attribute == "price":
        if zh:
            return "最便宜的在前" if not sort.descending else "最贵的在前"
        return "cheapest first" if not sort.descending else "most expensive first"
    name = _name(sort.attribute, language)
    if zh:
        return f"按{name}{'从高到低' if sort.descending else '从低到高'}"
    return f"{'highest' if sort.descending else 'lowest'} {name} first"


def spec_facts(specs: RequestSpecs, language: Language, *, ordered: bool = True) -> list[str]:
    """Each filter and (when `ordered`) the order, as the reply names them."""
    facts = [numeric_fact(s, language) for s in specs.numeric]
    facts += [label_fact(s, language) for s in specs.labels]
    order = specs.sort
    if specs.cheapest:
        order = SpecSort(attribute="price", descending=False)
    if order is not None and ordered:
        facts.append(sort_fact(order, language))
    return facts


def applied_line(
    specs: RequestSpecs, meeting: int, language: Language, *, ordered: bool = True
) -> str:
    """ "length > 3 m, cheapest first: 4 offers" ("" when the search had no specs); the
    order is left out when it could not be applied (`ordered` false)."""
    facts = spec_facts(specs, language, ordered=ordered)
    if not facts:
        return ""
    if language == "zh":
        return f"{'，'.join(facts)}：{meeting} 个商品符合"
    return f"{', '.join(facts)}: {meeting} offer{'s' if meeting != 1 else ''}"


def unordered_line(sort: SpecSort, language: Language) -> str:
    """A superlative over an attribute none of the listings states: said, not pretended."""
    name = _name(sort.attribute, language)
    if language == "zh":
        return f"这些商品都没有标出{name}，没法按{name}排；下面按与需求的相关度排列。"
    return (
        f"None of these listings states its {name}, so I can't rank them by it; "
        "they are shown most relevant first."
    )


def unchecked_line(phrases: Sequence[str], language: Language) -> str:
    """The specs the catalog cannot check, said instead of dropped."""
    if not phrases:
        return ""
    joined = "、".join(phrases) if language == "zh" else ", ".join(phrases)
    if language == "zh":
        return f"目录无法核对：{joined}（请看商品详情）。"
    return f"Not checked (the listings do not say): {joined}."
