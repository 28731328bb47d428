"""`singular`: the one way an English noun becomes singular ("shoes" → shoe, "movies" →
movie, "knives" → knife, "jeans" → jeans), and `plurals`, the spellings a noun is matched in
("scarf" → scarves, scarfs; "battery" → batteries).

Suffix rules with the exceptions as data (`data/nouns.yml`), a dictionary lookup and a few
string tests per word: microseconds, where a general inflection library costs seconds to
import. Its agreement with `inflect` on real product nouns is measured by
`tests/vocabulary/test_nouns.py`; where the two differ, these rules follow shopping usage
("jeans", "headphones", "lens", "canvas" stay as they are).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from cartwise.errors import ConfigurationError
from cartwise.vocabulary.files import data_file, words

_HEAD = re.compile(r"[a-z]+(?:-[a-z]+)*$")
"""The head noun of a lowercase phrase is its last word ("running shoes" → shoes)."""
_VOWELS = frozenset("aeiouy")


@dataclass(frozen=True)
class _Exceptions:
    unchanged: frozenset[str]
    irregular: dict[str, str]
    compound_heads: dict[str, str]
    ie_nouns: frozenset[str]
    oes_nouns: frozenset[str]
    s_nouns: frozenset[str]
    che_nouns: frozenset[str]


@cache
def _exceptions() -> _Exceptions:
    data = data_file("nouns")
    try:
        return _Exceptions(
            unchanged=frozenset(words(data["unchanged"], "nouns.unchanged")),
            irregular={str(k): str(v) for k, v in data["irregular"].items()},
            compound_heads={str(k): str(v) for k, v in data["compound_heads"].items()},
            ie_nouns=frozenset(words(data["ie_nouns"], "nouns.ie_nouns")),
            oes_nouns=frozenset(words(data["oes_nouns"], "nouns.oes_nouns")),
            s_nouns=frozenset(words(data["s_nouns"], "nouns.s_nouns")),
            che_nouns=frozenset(words(data["che_nouns"], "nouns.che_nouns")),
        )
    except (KeyError, AttributeError) as exc:
        raise ConfigurationError(f"vocabulary file nouns.yml is malformed: {exc}") from exc


def singular(text: str) -> str:
    """The singular of a lowercase English noun, or of a phrase's last word ("running shoes"
    → running shoe, "t-shirts" → t-shirt). Words that are not plurals come back unchanged."""
    head = _HEAD.search(text)
    if head is None:
        return text
    word = head.group()
    if len(word) <= 3:
        return text[: head.start()] + _short_singular(word)
    # A hyphenated head inflects its last part ("slip-ons" → slip-on, "neck-ties" → neck-tie).
    last = word.rsplit("-", 1)[-1]
    return text[: head.end() - len(last)] + _singular_word(last)


@cache
def _irregular_plurals() -> dict[str, tuple[str, ...]]:
    found: dict[str, list[str]] = {}
    for plural, single in _exceptions().irregular.items():
        found.setdefault(single, []).append(plural)
    return {single: tuple(forms) for single, forms in found.items()}


def plurals(noun: str) -> list[str]:
    """The plural spellings a lowercase noun, or a phrase's last word, is matched in: its
    irregular plural, "ies" after a consonant's y, "es" only after a sibilant or an o
    ("boxes", "tomatoes"; "hates" is no "hat"), else "s". A word that never changes has
    none."""
    head = _HEAD.search(noun)
    if head is None:
        return [noun + "s"]
    word, stem = head.group(), noun[: head.start()]
    if word in _exceptions().unchanged:
        return []
    forms = [stem + plural for plural in _irregular_plurals().get(word, ())]
    if word.endswith("y") and len(word) > 1 and word[-2] not in _VOWELS:
        return [*forms, noun[:-1] + "ies"]
    if word.endswith(("s", "x", "z", "ch", "sh", "o")):
        forms.append(noun + "es")
    return [*forms, noun + "s"]


def _short_singular(word: str) -> str:
    if word.endswith("s") and not _VOWELS & set(word[:-1]):
        return word[:-1]  # tvs, pcs, cds: an initialism's plural
    return word  # bus, gas, yes, has


def _singular_word(word: str) -> str:
    rules = _exceptions()
    if word in rules.unchanged or len(word) <= 2:
        return word
    if word in rules.irregular:
        return rules.irregular[word]
    for plural, single in rules.compound_heads.items():
        if word.endswith(plural):
            return word[: -len(plural)] + single
    if word.endswith("ies"):
        if len(word) == 4 or word[:-1] in rules.ie_nouns:
            return word[:-1]  # ties → tie, movies → movie
        return word[:-3] + "y"  # batteries → battery
    if word.endswith("oes"):
        return word[:-2] if word[:-2] in rules.oes_nouns else word[:-1]  # potatoes, shoes
    if word.endswith("ches"):
        return word[:-1] if word[:-1] in rules.che_nouns else word[:-2]  # headaches, watches
    if word.endswith(("sses", "shes", "xes", "zzes", "tzes")):
        return word[:-2]  # dresses, brushes, boxes, buzzes, waltzes
    if word.endswith("ses"):
        return word[:-2] if word[:-2] in rules.s_nouns else word[:-1]  # lenses, cases
    if word.endswith(("ss", "us", "sis", "itis", "ois")) or not word.endswith("s"):
        return word  # glass, cactus, analysis, arthritis, chamois: singular already
    return word[:-1]
