"""Every check key of the natural conversation sets, judged on `cartwise ask --json` output.

The semantics are those of `../shared/data/eval/natural_dev.README.md`, key by key: words are
lower-cased substrings, "shown" is the turn's `products`, prices are `price_base`, some keys
compare with the previous output of the same conversation's sequence, and the `lt_*` keys
look only at the shopper's own long-term entries.
"""

from __future__ import annotations

import itertools
import statistics
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from cartwise.eval.dialogue_checks import PLATFORM_NAMES
from cartwise.eval.natural_set import MemorySpec, NaturalCheck

Output = dict[str, Any]
# Fields that name whose an entry is, and the values that still mean the shopper's own.
HOLDER_FIELDS = ("recipient", "holder", "for_whom", "subject", "owner")
OWN_HOLDERS = frozenset({"", "self", "me", "user", "none"})


@dataclass(frozen=True)
class KeyResult:
    key: str
    passed: bool
    detail: str = ""


@dataclass(frozen=True)
class TurnOutputs:
    """This turn's output and the previous output of the sequence (None on the first turn)."""

    current: Output
    previous: Output | None


def _products(output: Output | None) -> list[dict[str, Any]]:
    return list((output or {}).get("products") or [])


def _titles(output: Output) -> list[str]:
    return [str(p.get("title", "")).lower() for p in _products(output)]


def _prices(output: Output | None) -> list[float]:
    return [float(p["price_base"]) for p in _products(output)]


def _median(output: Output | None) -> float | None:
    prices = _prices(output)
    return statistics.median(prices) if prices else None


def _cheaper(outputs: TurnOutputs) -> bool:
    now, before = _median(outputs.current), _median(outputs.previous)
    return now is not None and before is not None and now < before


def _reply(output: Output) -> str:
    return str(output.get("reply", "")).lower()


def own_entries(output: Output | None) -> list[dict[str, Any]]:
    """The shopper's own long-term entries: none set to another holder."""
    memory = (output or {}).get("memory") or {}
    entries = memory.get("long_term") or []
    return [
        entry
        for entry in entries
        if all(str(entry.get(f) or "").lower() in OWN_HOLDERS for f in HOLDER_FIELDS)
    ]


def memory_multiset(output: Output | None) -> Counter[tuple[str, str, str, str]]:
    """`(recipient, dedup_key, polarity, strength)` over every long-term entry."""
    memory = (output or {}).get("memory") or {}
    return Counter(
        (
            str(e.get("recipient", "")),
            str(e.get("dedup_key", "")),
            str(e.get("polarity", "")),
            str(e.get("strength", "")),
        )
        for e in memory.get("long_term") or []
    )


def spec_matches(spec: MemorySpec, entry: dict[str, Any]) -> bool:
    return (
        str(entry.get("polarity", "")) == spec.polarity
        and (spec.category is None or str(entry.get("category", "")) == spec.category)
        and str(entry.get("slug", "")).lower() in spec.slugs
        and (spec.strength is None or str(entry.get("strength", "")) == spec.strength)
    )


def _shown_ids(output: Output | None) -> set[tuple[str, str]]:
    return {(str(p.get("platform")), str(p.get("item_id"))) for p in _products(output)}


def _names_model(title: str, models: Sequence[str]) -> bool:
    lowered = title.lower()
    squeezed = lowered.replace(" ", "")
    return any(m in lowered or m.replace(" ", "") in squeezed for m in models)


def cheapest_offer(output: Output, models: Sequence[str]) -> dict[str, Any] | None:
    """The lowest-priced offer naming one of `models`: `price_compare` offers (under their
    group's title) and the shown products."""
    offers: list[dict[str, Any]] = []
    for group in output.get("price_compare") or []:
        if _names_model(str(group.get("title", "")), models):
            offers.extend(group.get("offers") or [])
    offers.extend(p for p in _products(output) if _names_model(str(p.get("title", "")), models))
    priced = [o for o in offers if o.get("price_base") is not None]
    return min(priced, key=lambda o: float(o["price_base"])) if priced else None


def first_platform_named(reply: str) -> str | None:
    """The platform whose name appears earliest in the reply."""
    positions = [
        (index, platform)
        for platform, names in PLATFORM_NAMES.items()
        for name in names
        if (index := reply.find(name)) >= 0
    ]
    return min(positions)[1] if positions else None


def _check_products(check: NaturalCheck, o: TurnOutputs) -> KeyResult:
    shown = len(_products(o.current))
    ok = shown > 0 if check.products == "nonempty" else shown == 0
    return KeyResult("products", ok, f"{shown} shown")


def _check_min_products(check: NaturalCheck, o: TurnOutputs) -> KeyResult:
    shown = len(_products(o.current))
    return KeyResult("min_products", shown >= (check.min_products or 0), f"{shown} shown")


def _check_title_each_any(check: NaturalCheck, o: TurnOutputs) -> KeyResult:
    words = check.title_each_any or []
    off = [t for t in _titles(o.current) if not any(w in t for w in words)]
    return KeyResult("title_each_any", not off, f"off-type: {off[:2]}" if off else "")


def _check_title_none(check: NaturalCheck, o: TurnOutputs) -> KeyResult:
    words = check.title_none or []
    hits = [t for t in _titles(o.current) if any(w in t for w in words)]
    return KeyResult("title_none", not hits, f"shown: {hits[:2]}" if hits else "")


def _check_max_price(check: NaturalCheck, o: TurnOutputs) -> KeyResult:
    cap = check.max_price_base or 0.0
    over = [p for p in _prices(o.current) if p > cap + 1e-9]
    return KeyResult("max_price_base", not over, f"over {cap:g}: {over[:3]}" if over else "")


def _check_sorted(check: NaturalCheck, o: TurnOutputs) -> KeyResult:
    prices = _prices(o.current)
    ok = all(a <= b for a, b in itertools.pairwise(prices))
    return KeyResult("sorted", ok, "" if ok else f"prices {prices}")


def _check_cheaper_than_prev(check: NaturalCheck, o: TurnOutputs) -> KeyResult:
    detail = f"median {_median(o.current)} vs previous {_median(o.previous)}"
    return KeyResult("cheaper_than_prev", _cheaper(o), detail)


def _check_no_overlap_prev(check: NaturalCheck, o: TurnOutputs) -> KeyResult:
    again = _shown_ids(o.current) & _shown_ids(o.previous)
    return KeyResult("no_overlap_prev", not again, f"shown again: {sorted(again)[:3]}")


def _check_question(check: NaturalCheck, o: TurnOutputs) -> KeyResult:
    return KeyResult("question", bool(o.current.get("questions")), "no question asked")


def _check_question_or_cheaper(check: NaturalCheck, o: TurnOutputs) -> KeyResult:
    asked = bool(o.current.get("questions"))
    ok = asked or (bool(_products(o.current)) and _cheaper(o))
    return KeyResult("question_or_cheaper", ok, "neither a question nor cheaper results")


def _check_gap(check: NaturalCheck, o: TurnOutputs) -> KeyResult:
    ok = o.current.get("catalog_gap") is not None and not _products(o.current)
    shown = len(_products(o.current))
    return KeyResult("gap", ok, f"catalog_gap={o.current.get('catalog_gap')}, {shown} shown")


def _check_no_gap(check: NaturalCheck, o: TurnOutputs) -> KeyResult:
    gap = o.current.get("catalog_gap")
    return KeyResult("no_gap", gap is None, f"catalog_gap={gap}")


def _check_recipient(check: NaturalCheck, o: TurnOutputs) -> KeyResult:
    wanted = [check.recipient] if isinstance(check.recipient, str) else list(check.recipient or [])
    got = o.current.get("recipient")
    return KeyResult("recipient", got in wanted, f"recipient={got!r}")


def _check_recipient_self(check: NaturalCheck, o: TurnOutputs) -> KeyResult:
    got = o.current.get("recipient")
    return KeyResult("recipient_self", got == "self", f"recipient={got!r}")


def _check_no_search(check: NaturalCheck, o: TurnOutputs) -> KeyResult:
    shown = len(_products(o.current))
    gap = o.current.get("catalog_gap")
    changed = memory_multiset(o.current) != memory_multiset(o.previous)
    ok = shown == 0 and gap is None and not changed
    detail = f"{shown} shown, catalog_gap={gap}, long-term memory changed={changed}"
    return KeyResult("no_search", ok, detail)


def _check_reply_any(check: NaturalCheck, o: TurnOutputs) -> KeyResult:
    reply = _reply(o.current)
    ok = any(w in reply for w in check.reply_any or [])
    return KeyResult("reply_any", ok, f"reply: {reply[:120]!r}")


def _check_reply_none(check: NaturalCheck, o: TurnOutputs) -> KeyResult:
    reply = _reply(o.current)
    said = [w for w in check.reply_none or [] if w in reply]
    return KeyResult("reply_none", not said, f"reply says {said}")


def _check_names_cheapest(check: NaturalCheck, o: TurnOutputs) -> KeyResult:
    offer = cheapest_offer(o.current, check.names_cheapest or [])
    if offer is None:
        return KeyResult("names_cheapest", False, "no offer of the model in the output")
    named = first_platform_named(_reply(o.current))
    ok = named == offer.get("platform")
    detail = f"cheapest offer on {offer.get('platform')}, reply names {named} first"
    return KeyResult("names_cheapest", ok, detail)


def _check_lt_has(check: NaturalCheck, o: TurnOutputs) -> KeyResult:
    own = own_entries(o.current)
    missing = [s for s in check.lt_has or [] if not any(spec_matches(s, e) for e in own)]
    slugs = [(e.get("polarity"), e.get("slug"), e.get("strength")) for e in own]
    return KeyResult("lt_has", not missing, f"missing {[m.slugs for m in missing]}; has {slugs}")


def _check_lt_none(check: NaturalCheck, o: TurnOutputs) -> KeyResult:
    own = own_entries(o.current)
    found = [e for s in check.lt_none or [] for e in own if spec_matches(s, e)]
    return KeyResult("lt_none", not found, f"stored {[e.get('dedup_key') for e in found]}")


def _check_lt_none_strength(check: NaturalCheck, o: TurnOutputs) -> KeyResult:
    own = own_entries(o.current)
    found = [
        e
        for s in check.lt_none_strength or []
        for e in own
        if str(e.get("polarity")) == s.polarity
        and str(e.get("slug", "")).lower() == s.slug
        and str(e.get("strength")) == s.strength
    ]
    return KeyResult("lt_none_strength", not found, f"stored {[e.get('dedup_key') for e in found]}")


def _check_lt_empty(check: NaturalCheck, o: TurnOutputs) -> KeyResult:
    own = own_entries(o.current)
    return KeyResult("lt_empty", not own, f"stored {[e.get('dedup_key') for e in own]}")


CHECKS: dict[str, Callable[[NaturalCheck, TurnOutputs], KeyResult]] = {
    "products": _check_products,
    "min_products": _check_min_products,
    "title_each_any": _check_title_each_any,
    "title_none": _check_title_none,
    "max_price_base": _check_max_price,
    "sorted": _check_sorted,
    "cheaper_than_prev": _check_cheaper_than_prev,
    "no_overlap_prev": _check_no_overlap_prev,
    "question": _check_question,
    "question_or_cheaper": _check_question_or_cheaper,
    "gap": _check_gap,
    "no_gap": _check_no_gap,
    "recipient": _check_recipient,
    "recipient_self": _check_recipient_self,
    "no_search": _check_no_search,
    "reply_any": _check_reply_any,
    "reply_none": _check_reply_none,
    "names_cheapest": _check_names_cheapest,
    "lt_has": _check_lt_has,
    "lt_none": _check_lt_none,
    "lt_none_strength": _check_lt_none_strength,
    "lt_empty": _check_lt_empty,
}


def judge(check: NaturalCheck, outputs: TurnOutputs) -> Iterator[KeyResult]:
    """One result per key the check object sets, in the format's order."""
    for key in check.set_keys():
        result = CHECKS[key](check, outputs)
        yield result if not result.passed else KeyResult(key, True)
