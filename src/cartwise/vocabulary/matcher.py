"""One multi-pattern matcher over surface forms: every form found in one pass.

`Matcher(forms)` compiles an Aho-Corasick automaton once over every surface form (and its
spelling variants) and `find(text)` returns the forms in `text`: leftmost-longest and
non-overlapping, compared case- and width-folded (`cartwise.text`), each `Match` carrying
every `Entry` its form names. Forms written in Latin letters match on word boundaries only
("ram" is not in "program", "hat" not in "hates"); Chinese forms have no word boundaries and
match as substrings. A form with spaces also matches hyphenated and closed up ("noise
cancelling", "noise-cancelling", "noisecancelling"); nouns also match in the plural.

The automaton is `ahocorasick_rs` (Rust), chosen over `pyahocorasick` by measurement
(`benchmarks/bench_vocabulary.py`, benchmarks/reports/vocabulary.md). It reports every
occurrence, overlaps included; boundaries and the longest-first choice are applied here, so a
form that fails its boundary never hides a shorter one that holds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

import ahocorasick_rs

from cartwise.text import closing_particle_at, narrow, word_at
from cartwise.vocabulary.entries import Entry, Kind
from cartwise.vocabulary.nouns import plurals

Boundary = Literal["alnum", "alpha"]
"""What a Latin form must not touch: letters and digits (words), or letters only (currency
symbols and codes sit against digits: "RM100", "100MYR")."""


@dataclass(frozen=True)
class Match:
    """One surface form found in a text: its span in the original text, the form as the
    vocabulary lists it (folded), and every entry it names."""

    start: int
    end: int
    surface: str
    entries: tuple[Entry, ...]

    def of(self, kind: Kind) -> tuple[Entry, ...]:
        """The entries of one kind."""
        return tuple(e for e in self.entries if e.kind == kind)

    def first(self, kind: Kind) -> Entry | None:
        """The first entry of one kind, or None."""
        return next((e for e in self.entries if e.kind == kind), None)


class Automaton(Protocol):
    """What the matcher needs of an Aho-Corasick library: every occurrence of every
    pattern, overlaps included, as (pattern index, start, end) in characters."""

    def occurrences(self, text: str) -> Iterable[tuple[int, int, int]]: ...


class RustAutomaton:
    """`ahocorasick_rs` in standard (all matches) mode."""

    def __init__(self, patterns: Sequence[str]) -> None:
        self._automaton = ahocorasick_rs.AhoCorasick(
            list(patterns), matchkind=ahocorasick_rs.MATCHKIND_STANDARD
        )

    def occurrences(self, text: str) -> Iterable[tuple[int, int, int]]:
        result: list[tuple[int, int, int]] = self._automaton.find_matches_as_indexes(
            text, overlapping=True
        )
        return result


AutomatonFactory = Callable[[Sequence[str]], Automaton]

Accept = Callable[[str, "Match"], bool]
"""An extra test of a candidate match (the folded text, the match in folded positions)."""


def fold_form(form: str) -> str:
    """A surface form as the matcher compares it: width-narrowed, case-folded, single
    spaces."""
    return " ".join(narrow(form).casefold().split())


def _folded(text: str) -> tuple[str, list[int] | None]:
    """`text` folded character by character, and where each folded character came from
    (None: position for position, the common case)."""
    if text.isascii():
        return text.lower(), None
    folded = narrow(text).casefold()
    if len(folded) == len(text):
        return folded, None
    parts: list[str] = []
    origin: list[int] = []
    for index, char in enumerate(text):
        piece = narrow(char).casefold()
        parts.append(piece)
        origin.extend([index] * len(piece))
    return "".join(parts), origin


def _is_word_char(char: str, boundary: Boundary) -> bool:
    return char.isascii() and (char.isalnum() if boundary == "alnum" else char.isalpha())


def _variants(form: str) -> list[str]:
    """ "noise cancelling" also as "noise-cancelling" and "noisecancelling", "usb-c cable"
    also as "usb c cable" and "usbc cable": people join a name's parts every way."""
    parts = form.replace("-", " ").split()
    if len(parts) == 1:
        return [form]
    return list(dict.fromkeys([form, " ".join(parts), "-".join(parts), "".join(parts)]))


class Matcher:
    """Surface forms → entries, compiled once; `find` is linear in the text.

    `forms` maps each surface form to the entries it names. `plural_kinds`: entries of these
    kinds are nouns, and their Latin forms match in the plural too ("sweaters"). `exact`: forms
    that match only as spelled there, case included (a brand that is also an everyday word:
    "Keep", not "keep")."""

    def __init__(
        self,
        forms: Mapping[str, Sequence[Entry]],
        *,
        plural_kinds: Iterable[Kind] = (),
        exact: Mapping[str, Iterable[str]] | None = None,
        boundary: Boundary = "alnum",
        automaton: AutomatonFactory = RustAutomaton,
    ) -> None:
        self._entries: dict[str, tuple[Entry, ...]] = {}
        for form, entries in forms.items():
            key = fold_form(form)
            if key:
                known = self._entries.get(key, ())
                self._entries[key] = known + tuple(e for e in entries if e not in known)
        self._exact = {fold_form(k): frozenset(v) for k, v in (exact or {}).items()}
        self._boundary = boundary
        nouns = frozenset(plural_kinds)
        surface_of: dict[str, str] = {key: key for key in self._entries}
        for key, entries in self._entries.items():
            spellings = _variants(key)
            if key[-1].isascii() and key[-1].isalpha() and any(e.kind in nouns for e in entries):
                spellings += [p for s in spellings for p in plurals(s)]
            for spelling in spellings:
                surface_of.setdefault(spelling, key)  # a listed form keeps its own meaning
        self._patterns = list(surface_of)
        self._surface = [surface_of[p] for p in self._patterns]
        self._automaton = automaton(self._patterns)

    def __len__(self) -> int:
        """How many spellings the automaton holds."""
        return len(self._patterns)

    def spellings(self) -> list[str]:
        """Every spelling the automaton holds (forms, their variants and plurals)."""
        return list(self._patterns)

    def entries(self, form: str) -> tuple[Entry, ...]:
        """The entries a surface form names (() for an unknown form)."""
        return self._entries.get(fold_form(form), ())

    def forms(self) -> Iterable[tuple[str, tuple[Entry, ...]]]:
        """Every surface form (folded) with its entries."""
        return self._entries.items()

    def candidates(self, text: str) -> list[Match]:
        """Every occurrence that holds its boundaries, overlaps included, in folded
        positions of `text` (see `find` for original positions)."""
        folded, _origin = _folded(text)
        return self._candidates(text, folded, _origin)

    def _candidates(self, text: str, folded: str, origin: list[int] | None) -> list[Match]:
        found: list[Match] = []
        size = len(folded)
        for index, start, end in self._automaton.occurrences(folded):
            pattern = self._patterns[index]
            if (
                start > 0
                and _is_word_char(pattern[0], self._boundary)
                and _is_word_char(folded[start - 1], self._boundary)
            ):
                continue
            if (
                end < size
                and _is_word_char(pattern[-1], self._boundary)
                and _is_word_char(folded[end], self._boundary)
            ):
                continue
            surface = self._surface[index]
            spellings = self._exact.get(surface)
            if spellings is not None:
                first, last = _span(start, end, origin)
                if text[first:last] not in spellings:
                    continue
            found.append(Match(start, end, surface, self._entries[surface]))
        return found

    def find(self, text: str, *, accept: Accept | None = None) -> list[Match]:
        """Every surface form in `text`, leftmost-longest and non-overlapping, with spans in
        the original text. `accept` may refuse a candidate (then a shorter one at the same
        place, or a later one, can take it)."""
        folded, origin = _folded(text)
        candidates = self._candidates(text, folded, origin)
        candidates.sort(key=lambda m: (m.start, m.start - m.end))
        chosen: list[Match] = []
        position = 0
        for match in candidates:
            if match.start < position or (accept is not None and not accept(folded, match)):
                continue
            start, end = _span(match.start, match.end, origin)
            chosen.append(Match(start, end, match.surface, match.entries))
            position = match.end
        return chosen


def _span(start: int, end: int, origin: list[int] | None) -> tuple[int, int]:
    if origin is None:
        return start, end
    return origin[start], origin[end - 1] + 1


def within_words(folded: str, match: Match) -> bool:
    """A Chinese name found in a text heads the words it stands in: it does not end inside a
    longer word of the segmentation (羽毛球 is no racket in 羽毛球包), nor start inside one
    and run on past it (拉面 is no noodle in 撕拉|面膜). The end of a word may be a name (咖啡
    in 喝咖啡: Chinese compounds are head-final). Latin names have their own word
    boundaries."""
    if match.surface.isascii():
        return True
    after = word_at(folded, match.end) if match.end < len(folded) else None
    # The segmentation reads a name's last character and the particle closing its clause as
    # one word (机吧 in 先买个破壁机吧，): that word still ends at the name.
    if (
        after is not None
        and after[0] < match.end
        and not (after[1] == match.end + 1 and closing_particle_at(folded, match.end))
    ):
        return False
    at_start = word_at(folded, match.start)
    return not (at_start is not None and at_start[0] < match.start and at_start[1] < match.end)
