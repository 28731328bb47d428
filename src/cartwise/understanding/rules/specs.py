"""A message's specs ("longer than 3 m", "17寸以上", "the lightest") and where they sit, so
the budget and size grammars never read a spec's number as money or a size: "more than
550 W" is a power, "5000毫安以上" a battery, and only money is a budget."""

from __future__ import annotations

from collections.abc import Sequence

from cartwise.catalog.specs import RequestSpecs, parse_request_specs
from cartwise.memory.store import Category
from cartwise.understanding.reading import StatedPreference

Span = tuple[int, int]


def spec_spans(text: str, specs: RequestSpecs) -> list[Span]:
    """Where each quantity's own words occur in `text` (every occurrence; case-insensitive).
    Labels and superlatives carry no number a budget could take."""
    folded = text.casefold()
    phrases = [s.text for s in specs.numeric if s.text]
    spans: list[Span] = []
    for phrase in dict.fromkeys(p.casefold() for p in phrases):
        start = folded.find(phrase)
        while start >= 0:
            spans.append((start, start + len(phrase)))
            start = folded.find(phrase, start + len(phrase))
    return sorted(spans)


def masked(text: str, spans: list[Span]) -> str:
    """`text` with the spans blanked (same length: other grammars' spans stay valid)."""
    chars = list(text)
    for start, end in spans:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def read_specs(text: str, context: str = "") -> tuple[RequestSpecs, list[Span]]:
    specs = parse_request_specs(text, context)
    return specs, spec_spans(text, specs)


def without_stated_colours(specs: RequestSpecs, stated: Sequence[StatedPreference]) -> RequestSpecs:
    """`specs` minus colour filters on colours the message states a liking or a dislike for:
    those are preferences, with their own strength ("我不太喜欢黑色的" ranks black lower, it
    is neither a filter for black nor one against it). A colour said plainly ("a black
    keyboard", "not coloured black or white") stays a filter."""
    liked_or_not = {p.slug for p in stated if p.category is Category.COLOR}
    if not liked_or_not:
        return specs
    labels = [
        label
        for label in specs.labels
        if label.attribute != "color_family" or not set(label.values) & liked_or_not
    ]
    return specs.model_copy(update={"labels": labels})
