"""`cartwise eval specs`: precision and recall of the spec parsers on the hand-labelled sets.

Listings: every (attribute, value) the parser states is checked against the label — a number
matches within 1 % (relative), a label exactly; precision = matched / stated, recall =
matched / labelled, per attribute and overall. The same listings are also read by
`quantulum3` (numbers only, its units mapped onto our attributes) as the baseline the issue
asks to measure. Requests: each numeric spec (attribute, op, value), label spec (attribute,
values, negated), sort, "cheapest" and unchecked phrase is one item.
"""

from __future__ import annotations

import time
import timeit
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import BaseModel, Field

from cartwise.catalog.specs import ProductSpecs, RequestSpecs, extract_listing_specs
from cartwise.catalog.specs import parse_request_specs as parse_request
from cartwise.eval.specs_data import (
    DEMO,
    SPLITS,
    LabelledListing,
    LabelledRequest,
    ListingText,
    Split,
    demo_listings,
    load_listing_labels,
    load_listing_texts,
    load_request_labels,
    needs_shared_data,
)

RELATIVE = 0.01
MISSES_KEPT = 25


class Tally(BaseModel):
    matched: int = 0
    stated: int = 0
    labelled: int = 0

    @property
    def precision(self) -> float:
        return self.matched / self.stated if self.stated else 1.0

    @property
    def recall(self) -> float:
        return self.matched / self.labelled if self.labelled else 1.0

    def add(self, other: Tally) -> None:
        self.matched += other.matched
        self.stated += other.stated
        self.labelled += other.labelled

    def cell(self) -> str:
        return (
            f"{self.precision:.3f} ({self.matched}/{self.stated}) | "
            f"{self.recall:.3f} ({self.matched}/{self.labelled})"
        )


class SplitScores(BaseModel):
    name: str
    items: int = 0
    by_kind: dict[str, Tally] = Field(default_factory=dict)
    misses: list[str] = Field(default_factory=list)

    def overall(self) -> Tally:
        total = Tally()
        for kind, tally in self.by_kind.items():
            if not kind.startswith("lang:"):  # language tallies split the same items again
                total.add(tally)
        return total

    def tally(self, kind: str) -> Tally:
        return self.by_kind.setdefault(kind, Tally())


def _same_number(a: float, b: float) -> bool:
    return abs(a - b) <= RELATIVE * max(abs(a), abs(b)) + 1e-9


def _match_numbers(stated: list[float], labelled: list[float]) -> int:
    left = list(labelled)
    matched = 0
    for value in stated:
        hit = next((i for i, want in enumerate(left) if _same_number(value, want)), None)
        if hit is not None:
            left.pop(hit)
            matched += 1
    return matched


def score_listings(
    name: str,
    labels: Sequence[LabelledListing],
    texts: Sequence[ListingText],
    parse: Callable[[ListingText], ProductSpecs],
    *,
    numbers_only: bool = False,
) -> SplitScores:
    """`numbers_only` scores numbers alone (parser labels dropped, label labels ignored)."""
    scores = SplitScores(name=name)
    for label, text in zip(labels, texts, strict=True):
        scores.items += 1
        specs = parse(text)
        if numbers_only:
            specs = ProductSpecs(numbers=specs.numbers)
            label = LabelledListing(source=label.source, row=label.row, numbers=label.numbers)
        wrong: list[str] = []
        for attribute in set(specs.numbers) | set(label.numbers):
            stated = sorted(set(specs.numbers.get(attribute, [])))
            wanted = label.numbers.get(attribute, [])
            matched = _match_numbers(stated, wanted)
            scores.tally(attribute).add(
                Tally(matched=matched, stated=len(stated), labelled=len(wanted))
            )
            if matched < max(len(stated), len(wanted)):
                wrong.append(f"{attribute} {stated} vs {wanted}")
        for attribute in set(specs.labels) | set(label.labels):
            got = set(specs.labels.get(attribute, []))
            want = set(label.labels.get(attribute, []))
            scores.tally(attribute).add(
                Tally(matched=len(got & want), stated=len(got), labelled=len(want))
            )
            if got != want:
                wrong.append(f"{attribute} {sorted(got)} vs {sorted(want)}")
        if wrong and len(scores.misses) < MISSES_KEPT:
            scores.misses.append(f"{label.source}#{label.row}: " + "; ".join(sorted(wrong)))
    return scores


def own_listing_parser(text: ListingText) -> ProductSpecs:
    return extract_listing_specs(text.title, text.attributes, brand=text.brand)


def _request_items(specs: RequestSpecs) -> dict[str, list[tuple[object, ...]]]:
    return {
        "numeric": [(n.attribute, n.op, n.value) for n in specs.numeric],
        "label": [(s.attribute, frozenset(s.values), s.negated) for s in specs.labels],
        "sort": [(specs.sort.attribute, specs.sort.descending)] if specs.sort else [],
        "cheapest": [("cheapest",)] if specs.cheapest else [],
        "unchecked": [(" ".join(u.lower().split()),) for u in specs.unchecked],
    }


def _labelled_items(label: LabelledRequest) -> dict[str, list[tuple[object, ...]]]:
    return {
        "numeric": [tuple(n) for n in label.numeric],
        "label": [(a, frozenset(v), neg) for a, v, neg in label.labels],
        "sort": [tuple(label.sort)] if label.sort else [],
        "cheapest": [("cheapest",)] if label.cheapest else [],
        "unchecked": [(" ".join(u.lower().split()),) for u in label.unchecked],
    }


def _item_matches(kind: str, got: tuple[object, ...], want: tuple[object, ...]) -> bool:
    if kind == "numeric":
        return (
            got[:2] == want[:2]
            and isinstance(got[2], float | int)
            and isinstance(want[2], float | int)
            and _same_number(float(got[2]), float(want[2]))
        )
    return got == want


def score_requests(
    name: str,
    labels: Sequence[LabelledRequest],
    parse: Callable[[str], RequestSpecs] = parse_request,
) -> SplitScores:
    scores = SplitScores(name=name)
    for label in labels:
        scores.items += 1
        got_items = _request_items(parse(label.text))
        want_items = _labelled_items(label)
        wrong: list[str] = []
        for kind, want in want_items.items():
            got = got_items[kind]
            left = list(want)
            matched = 0
            for item in got:
                hit = next((i for i, w in enumerate(left) if _item_matches(kind, item, w)), None)
                if hit is not None:
                    left.pop(hit)
                    matched += 1
            for tally in (scores.tally(kind), scores.tally(f"lang:{label.lang}")):
                tally.add(Tally(matched=matched, stated=len(got), labelled=len(want)))
            if matched < max(len(got), len(want)):
                wrong.append(f"{kind} {got} vs {want}")
        if wrong and len(scores.misses) < MISSES_KEPT:
            scores.misses.append(f"{label.text}: " + "; ".join(wrong))
    return scores


_QUANTULUM_UNITS: dict[str, tuple[str, float]] = {
    "metre": ("length", 1.0),
    "centimetre": ("length", 0.01),
    "millimetre": ("length", 0.001),
    "foot": ("length", 0.3048),
    "inch": ("screen_size", 1.0),
    "gigabyte": ("storage", 1.0),
    "terabyte": ("storage", 1000.0),
    "litre": ("volume", 1.0),
    "millilitre": ("volume", 0.001),
    "cubic foot": ("volume", 28.316846592),
    "gallon": ("volume", 3.785411784),
    "milliampere hour": ("battery", 1.0),
    "watt": ("power", 1.0),
    "kilowatt": ("power", 1000.0),
    "megahertz": ("frequency", 1.0),
    "gigahertz": ("frequency", 1000.0),
    "megabyte per second": ("read_speed", 1.0),
    "gigabyte per second": ("read_speed", 1000.0),
    "hertz": ("refresh_rate", 1.0),
    "megapixel": ("camera", 1.0),
    "kilogram": ("weight", 1.0),
    "gram": ("weight", 0.001),
    "pound-mass": ("weight", 0.45359237),
    "ounce": ("weight", 0.028349523125),
}
"""quantulum3 unit names → (our attribute, factor to its canonical unit)."""


def quantulum_listing_parser() -> Callable[[ListingText], ProductSpecs] | None:
    """quantulum3 as a numbers-only listing parser, or None when it is not installed."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from quantulum3 import parser as quantulum
    except ImportError:
        return None

    def parse(text: ListingText) -> ProductSpecs:
        segments = [text.title] + [f"{k}: {', '.join(v)}" for k, v in text.attributes.items()]
        numbers: dict[str, list[float]] = {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for segment in segments:
                for quantity in quantulum.parse(segment):
                    mapped = _QUANTULUM_UNITS.get(quantity.unit.name)
                    if mapped is None:
                        continue
                    attribute, scale = mapped
                    value = float(f"{float(quantity.value) * scale:.6g}")
                    bucket = numbers.setdefault(attribute, [])
                    if value not in bucket:
                        bucket.append(value)
        return ProductSpecs(numbers=numbers)

    return parse


class SpecsReport(BaseModel):
    listings: list[SplitScores] = Field(default_factory=list)
    listing_numbers_own: list[SplitScores] = Field(default_factory=list)
    listing_numbers_quantulum: list[SplitScores] = Field(default_factory=list)
    requests: list[SplitScores] = Field(default_factory=list)
    per_listing_us: float | None = None
    calibration_us: float | None = None
    """`sum(range(1000))` timed in the same run: the machine's speed at the time, so a cost
    measured on a loaded machine reads as a ratio."""
    quantulum_per_listing_us: float | None = None
    timed_listings: int = 0
    skipped: list[str] = Field(default_factory=list)

    def to_markdown(self) -> str:
        lines = ["# Spec parsing: precision and recall on hand-labelled sets", ""]
        lines += [
            "Labels were written before tuning; the parser was tuned on **dev** only, "
            "**test** was never looked at while tuning. Regenerate with "
            "`cartwise eval specs --out docs/reports/specs.md`.",
            "",
        ]
        for title, group in (
            ("Listings (title + attributes)", self.listings),
            ("Requests", self.requests),
        ):
            lines += [f"## {title}", ""]
            for scores in group:
                lines += _table(scores)
        if self.listing_numbers_own:
            lines += [
                "## Numbers only: own patterns vs quantulum3",
                "",
                "Same listings, labels dropped, quantulum3's units mapped onto our attributes.",
                "",
                "| split | parser | precision | recall |",
                "|---|---|---|---|",
            ]
            for own, other in zip(
                self.listing_numbers_own, self.listing_numbers_quantulum, strict=True
            ):
                for parser, scores in (("own", own), ("quantulum3", other)):
                    total = scores.overall()
                    lines.append(f"| {own.name} | {parser} | {total.cell()} |")
            lines.append("")
        if self.per_listing_us is not None:
            lines += [
                "## Cost",
                "",
                f"- own parser: {self.per_listing_us:.0f} µs per listing "
                f"(mean over {self.timed_listings} demo listings, title + attributes, "
                "after warm-up)",
            ]
            if self.calibration_us:
                lines.append(
                    f"- calibration: `sum(range(1000))` took {self.calibration_us:.1f} µs in the "
                    f"same run, so one listing costs {self.per_listing_us / self.calibration_us:.0f}"
                    " such sums"
                )
            if self.quantulum_per_listing_us is not None:
                lines.append(
                    f"- quantulum3: {self.quantulum_per_listing_us:.0f} µs per listing "
                    "(title + attributes, first 500 demo listings)"
                )
            lines.append("")
        for reason in self.skipped:
            lines.append(f"- skipped: {reason}")
        for group in (self.listings, self.requests):
            for scores in group:
                if scores.misses:
                    lines += ["", f"### Differences, {scores.name} (stated vs labelled)", ""]
                    lines += [f"- {miss}" for miss in scores.misses]
        return "\n".join(lines) + "\n"


def _table(scores: SplitScores) -> list[str]:
    lines = [
        f"### {scores.name} ({scores.items} items)",
        "",
        "| kind | precision | recall |",
        "|---|---|---|",
    ]
    for kind in sorted(scores.by_kind):
        if kind.startswith("lang:"):
            continue
        lines.append(f"| {kind} | {scores.by_kind[kind].cell()} |")
    for kind in sorted(k for k in scores.by_kind if k.startswith("lang:")):
        lines.append(f"| {kind} | {scores.by_kind[kind].cell()} |")
    lines.append(f"| **overall** | {scores.overall().cell()} |")
    return [*lines, ""]


def _time_listings(parse: Callable[[ListingText], object], texts: Sequence[ListingText]) -> float:
    for text in texts[:50]:
        parse(text)
    start = time.perf_counter()
    for text in texts:
        parse(text)
    return (time.perf_counter() - start) / max(1, len(texts)) * 1e6


def evaluate_specs(
    catalogs: Path, *, splits: Sequence[Split] = SPLITS, timed_listings: int | None = None
) -> SpecsReport:
    """Both parsers on the chosen splits; listings from the shared catalogs skip when absent."""
    report = SpecsReport()
    quantulum = quantulum_listing_parser()
    if quantulum is None:
        report.skipped.append("quantulum3 not installed: no baseline comparison")
    for split in splits:
        labels = load_listing_labels(split)
        if needs_shared_data(labels) and not catalogs.is_dir():
            report.skipped.append(f"listings {split}: {catalogs} absent; demo listings only")
            labels = [label for label in labels if label.source == DEMO]
        texts = load_listing_texts(catalogs, labels)
        name = f"listings {split}"
        report.listings.append(score_listings(name, labels, texts, own_listing_parser))
        if quantulum is not None:
            report.listing_numbers_own.append(
                score_listings(split, labels, texts, own_listing_parser, numbers_only=True)
            )
            report.listing_numbers_quantulum.append(
                score_listings(split, labels, texts, quantulum, numbers_only=True)
            )
        report.requests.append(score_requests(f"requests {split}", load_request_labels(split)))
    demo = list(demo_listings().values())[:timed_listings]
    report.calibration_us = timeit.timeit("sum(range(1000))", number=2000) / 2000 * 1e6
    report.per_listing_us = _time_listings(own_listing_parser, demo)
    report.timed_listings = len(demo)
    if quantulum is not None:
        report.quantulum_per_listing_us = _time_listings(quantulum, demo[:500])
    return report


def write_report(report: SpecsReport, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(report.to_markdown(), encoding="utf-8")
    return path
