"""The search phrase of a message, built from what the reader recognised in it.

Every character of the message is one of: inside a span the reader has read as something
else (a refused term, a budget, a size, a platform, a step from shown items, a clause of
context), a phrase word (`cartwise.vocabulary.phrase_words`: asking, politeness, pronouns,
measure words…), a separator, or a word of what is asked for — a term of the vocabulary or a
word it does not know. The phrase is the last kind, in the message's order, one space wherever
anything else stood between them: "请帮我找Dione型号的回音壁音响，要黑色的全新未拆封款" searches for
"dione型号 回音壁音响 黑色 全新未拆封款".

A phrase word of one Chinese character counts only where the segmentation makes it a word of
its own (的 in 黑色的, not in 的确良; 个 in 买个包, not in 个性); a Latin phrase word is never
part of a hyphenated word ("in" in "clip-in"); no phrase word counts inside a term of the
vocabulary written in Latin letters ("The North Face" keeps its "the").
"""

from __future__ import annotations

from collections.abc import Sequence

from cartwise.text import closing_particle_at, word_at
from cartwise.understanding.rules.lexicon import Match
from cartwise.vocabulary.matcher import Match as VocabularyMatch
from cartwise.vocabulary.phrase_words import groups_of, phrase_word_matcher

_KEPT_MARKS = frozenset("-+&#%")
"""Characters that belong to a word of a listing ("usb-c", "c++", "40%")."""


def search_phrase(text: str, removed: Sequence[tuple[int, int]], terms: Sequence[Match]) -> str:
    """The words of `text` a search looks for (lowercased): `removed` are the spans read as
    something else, `terms` the vocabulary's terms found in the message."""
    size = len(text)
    word = [True] * size
    for start, end in removed:
        for index in range(max(0, start), min(size, end)):
            word[index] = False
    masked = "".join(ch if word[i] else " " for i, ch in enumerate(text))
    # Chinese terms may end in a particle ("黑色的"); the segmentation decides there.
    protected = [
        (t.start, t.end)
        for t in terms
        if t.first("platform") is None and text[t.start : t.end].isascii()
    ]
    singles: list[int] = []

    def standalone(folded: str, match: VocabularyMatch) -> bool:
        if any(match.start < end and start < match.end for start, end in protected):
            return False
        if match.surface.isascii():
            before = folded[match.start - 1 : match.start]
            after = folded[match.end : match.end + 1]
            return before != "-" and after != "-"
        if len(match.surface) > 1:
            return True
        singles.append(match.start)
        if closing_particle_at(folded, match.start):
            return True  # 吧 of 破壁机吧, which the segmentation reads as one word
        return word_at(folded, match.start) == (match.start, match.end)

    found_words = phrase_word_matcher().find(masked, accept=standalone)
    starts = {found.start for found in found_words}
    for found in found_words:
        if groups_of(found) == {"occasion"} and _names_a_kind(masked, found.end, starts):
            continue  # "wedding dress", "生日蛋糕", "christmas tree": part of the product's name
        for index in range(found.start, found.end):
            word[index] = False
    # A single character left of a word whose rest is gone is a word of its own (个 of 买个
    # once 想买 is read: "想买个通勤用的双肩包").
    for position in singles:
        found_word = word_at(masked, position)
        if found_word is None or not word[position]:
            continue
        first, last = found_word
        if last - first > 1 and all(not word[i] for i in range(first, last) if i != position):
            word[position] = False
    pieces: list[str] = []
    current: list[str] = []
    for index, char in enumerate(masked):
        if word[index] and _in_word(masked, index):
            current.append(char)
        elif current:
            pieces.append("".join(current))
            current = []
    if current:
        pieces.append("".join(current))
    return " ".join(piece.lower() for piece in pieces)


def _names_a_kind(text: str, end: int, phrase_word_starts: set[int]) -> bool:
    """Whether the word after an occasion word is a word of the request it modifies: next to
    it in Chinese ("生日蛋糕"), after one space in English ("wedding dress"), and no phrase word
    itself ("birthday is next week", "生日礼物")."""
    following = end + 1 if text[end : end + 1] == " " and text[:end][-1:].isascii() else end
    if following >= len(text) or not text[following].isalnum():
        return False
    if text[following].isascii() != text[end - 1 : end].isascii():
        return False
    return following not in phrase_word_starts


def _in_word(text: str, index: int) -> bool:
    char = text[index]
    if char.isalnum() or char in _KEPT_MARKS:
        return True
    # A decimal point or an apostrophe inside a word ("3.5mm", "men's" read whole elsewhere).
    if char in ".'’" and 0 < index < len(text) - 1:
        return text[index - 1].isalnum() and text[index + 1].isalnum()
    return False
