"""A message's specs ("longer than 3 m", "17寸以上", "the lightest") and where they sit, so
the budget and size grammars never read a spec's number as money or a size: "more than
550 W" is a power, "5000毫安以上" a battery, and only money is a budget."""

from __future__ import annotations

from cartwise.catalog.specs import RequestSpecs, parse_request_specs

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


def read_specs(text: str) -> tuple[RequestSpecs, list[Span]]:
    specs = parse_request_specs(text)
    return specs, spec_spans(text, specs)
