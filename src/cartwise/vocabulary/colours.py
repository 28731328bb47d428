"""The one colour table (`data/colours.yml`): every colour a shopper names or a listing
states, the family it filters as, its names in both languages and its pictogram fills.

Three uses read it: a shopper's colour preference (`names`, matched with the other attribute
terms), a listing's or a request's colour family (`family_matcher`: names and shades in
running text, Chinese hues before 色), and the families of one colour value
(`value_families`: "深灰色" → grey, where a bare hue counts).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from cartwise.errors import ConfigurationError
from cartwise.text import has_han
from cartwise.vocabulary.entries import Entry
from cartwise.vocabulary.files import data_file, words
from cartwise.vocabulary.matcher import Matcher


@dataclass(frozen=True)
class Colour:
    """One colour: a preference slug, the family it filters as ("" for patterns and effects
    such as floral), what shoppers call it, further shades, Chinese hues, pictogram fills."""

    slug: str
    family: str
    names: tuple[str, ...]
    shades: tuple[str, ...] = ()
    hues: tuple[str, ...] = ()
    pictures: tuple[tuple[str, str], ...] = ()
    """(colour name used by demo listings, hex fill)."""


@dataclass(frozen=True)
class ColourTable:
    """The families (slug → Chinese name) and the colours."""

    families: dict[str, str]
    colours: tuple[Colour, ...]

    def family_name(self, family: str, language: str) -> str:
        """A family as a reply names it ("黑色" / "black")."""
        return self.families.get(family, family) if language == "zh" else family


@cache
def colour_table() -> ColourTable:
    """The colour table, read once per process."""
    data = data_file("colours")
    try:
        families = {str(k): str(v) for k, v in data["families"].items()}
        colours = tuple(
            Colour(
                slug=slug,
                family=str(row.get("family") or ""),
                names=words(row["names"], f"colour {slug} names"),
                shades=words(row.get("shades", []), f"colour {slug} shades"),
                hues=words(row.get("hues", []), f"colour {slug} hues"),
                pictures=tuple((str(k), str(v)) for k, v in (row.get("pictures") or {}).items()),
            )
            for slug, row in data["colours"].items()
        )
    except (KeyError, TypeError, AttributeError) as exc:
        raise ConfigurationError(f"vocabulary/data/colours.yml is malformed: {exc}") from exc
    for colour in colours:
        if colour.family and colour.family not in families:
            raise ConfigurationError(f"colour {colour.slug}: unknown family {colour.family}")
    return ColourTable(families, colours)


def picture_fills() -> dict[str, str]:
    """Colour name of a demo listing → its pictogram fill."""
    return {name: fill for c in colour_table().colours for name, fill in c.pictures}


def _family_entry(colour: Colour) -> Entry:
    return Entry("colour_shade", colour.slug, "color", detail=colour.family)


@cache
def family_matcher() -> Matcher:
    """Colour words in running text (a title, a request), each naming its colour with the
    family in `detail`: English names and shades, Chinese names and hues followed by 色
    (in running text 黑 alone is no colour: 黑珍珠 is a pearl, 黑五 a sale)."""
    forms: dict[str, list[Entry]] = {}
    for colour in colour_table().colours:
        if not colour.family:
            continue
        entry = _family_entry(colour)
        latin = [w for w in (*colour.names, *colour.shades) if not has_han(w)]
        chinese = [h if h.endswith("色") else h + "色" for h in colour.hues]
        for form in (*latin, *chinese):
            forms.setdefault(form, []).append(entry)
    return Matcher(forms)


@cache
def _hue_matcher() -> Matcher:
    forms: dict[str, list[Entry]] = {}
    for colour in colour_table().colours:
        for hue in colour.hues:
            forms.setdefault(hue, []).append(_family_entry(colour))
    return Matcher(forms)


def hue_matches(value: str) -> list[tuple[int, int, str]]:
    """The Chinese hues in a colour value, as (start, end, family), longest first at a place
    (玫瑰金 is one metallic hue, not 金 after 玫瑰)."""
    return [(m.start, m.end, m.entries[0].detail) for m in _hue_matcher().find(value)]
