"""Typos respelled to the vocabulary's words: "runnign shoes", "a nice candel", "cheapr ones",
"空气进化器" (typed by sound: 进化 for 净化), "电饭宝".

Only a word the reader could not read is respelled, and only to a word it can:
- a Latin word of four letters or more, one edit (a letter added, dropped, changed, or two
  swapped) from the vocabulary's word it is respelled to, and itself no English word (the
  word frequencies of `pyspellchecker`, which hold no common misspelling): "hike" stays hike
  (not like), "sleek" stays sleek;
- a run of three or more Chinese characters that sounds like a vocabulary form (the same
  syllables, the tones and the sounds people merge when typing pinyin ignored: zh/z, ch/c,
  sh/s, -ng/-n) and differs from it in one character (two from five characters on).
Both tables load on the first message that needs them."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from functools import cached_property

from cartwise.text import HAN_RUN
from cartwise.vocabulary.english import english_frequencies
from cartwise.vocabulary.files import data_file, words
from cartwise.vocabulary.phrase_words import phrase_word_forms

LATIN_WORD = re.compile(r"(?<![A-Za-z0-9'’-])[A-Za-z]{4,}(?![A-Za-z0-9'’-])")
MIN_HAN = 3
MAX_HAN = 6
COMMONER = 100
"""A typed word one edit from an English word this many times commoner than the vocabulary's
word it is near is a typo of that English word and stays as typed."""
_SOUNDS = (("zh", "z"), ("ch", "c"), ("sh", "s"), ("ng", "n"))


def _deletes(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


def one_edit_apart(first: str, second: str) -> bool:
    """Whether one letter added, dropped or changed, or two neighbours swapped, turns one
    word into the other (optimal string alignment distance 1)."""
    if first == second or abs(len(first) - len(second)) > 1:
        return False
    if len(first) == len(second):
        differ = [i for i, (a, b) in enumerate(zip(first, second, strict=True)) if a != b]
        if len(differ) == 1:
            return True
        return (
            len(differ) == 2
            and differ[1] == differ[0] + 1
            and first[differ[0]] == second[differ[1]]
            and first[differ[1]] == second[differ[0]]
        )
    shorter, longer = sorted((first, second), key=len)
    return shorter in _deletes(longer)


def _edits(word: str) -> set[str]:
    """Every string one edit from `word` (Norvig's edits1, lowercase Latin letters)."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    return (
        {left + right[1:] for left, right in splits if right}
        | {left + right[1] + right[0] + right[2:] for left, right in splits if len(right) > 1}
        | {left + c + right[1:] for left, right in splits if right for c in letters}
        | {left + c + right for left, right in splits for c in letters}
    )


def _sound(syllable: str) -> str:
    for merged, plain in _SOUNDS:
        syllable = syllable.replace(merged, plain)
    return syllable


class Respeller:
    """Respells the typos of a message to the forms of `surfaces` (the reader's lexicon)."""

    def __init__(self, surfaces: Iterable[str]) -> None:
        self._surfaces = frozenset(surfaces)

    @cached_property
    def _latin(self) -> tuple[frozenset[str], dict[str, frozenset[str]]]:
        known = {word for surface in self._surfaces for word in LATIN_WORD.findall(surface.lower())}
        known.update(w.lower() for w in words(data_file("spelling")["english"], "spelling"))
        known.update(
            word
            for forms in phrase_word_forms().values()
            for form in forms
            for word in LATIN_WORD.findall(form.lower())
        )
        index: dict[str, set[str]] = defaultdict(set)
        for word in known:
            index[word].add(word)
            for deleted in _deletes(word):
                index[deleted].add(word)
        return frozenset(known), {key: frozenset(found) for key, found in index.items()}

    @cached_property
    def _han(self) -> dict[tuple[str, ...], tuple[str, ...]]:
        from pypinyin import lazy_pinyin  # a second to load on a busy machine: on first need

        sounds: dict[tuple[str, ...], list[str]] = defaultdict(list)
        for surface in self._surfaces:
            if MIN_HAN <= len(surface) <= MAX_HAN and HAN_RUN.fullmatch(surface):
                key = tuple(_sound(s) for s in lazy_pinyin(surface))
                sounds[key].append(surface)
        return {key: tuple(forms) for key, forms in sounds.items()}

    def respell(self, text: str) -> str:
        """`text` with its typos respelled (unchanged when it has none)."""
        return self.respell_han(self.respell_latin(text))

    def respell_latin(self, text: str) -> str:
        """`text` with its Latin words' typos respelled: a few lookups a word."""
        return LATIN_WORD.sub(self._respelled_word, text)

    def respell_han(self, text: str) -> str:
        """`text` with its Chinese typos respelled: reads every Chinese run's sounds."""
        return HAN_RUN.sub(lambda run: self._respelled_run(run.group(0)), text)

    def _respelled_word(self, found: re.Match[str]) -> str:
        typed = found.group(0)
        lowered = typed.lower()
        known, index = self._latin
        if lowered in known:
            return typed
        near = {
            word
            for key in (lowered, *_deletes(lowered))
            for word in index.get(key, ())
            if one_edit_apart(lowered, word) and not _inflects(lowered, word)
        }
        if not near:
            return typed
        frequency = english_frequencies()

        # Two letters swapped first ("hoodei" is hoodie, not hooded), then one left out
        # ("cheapr" is cheaper before cheap: the word holds every letter typed), then one
        # mistyped, then one too many; among equals, the commoner word.
        def likelier(word: str) -> tuple[int, int]:
            if len(word) > len(lowered):
                edit = 2
            elif len(word) < len(lowered):
                edit = 0
            else:
                edit = 3 if sorted(word) == sorted(lowered) else 1
            return edit, frequency.get(word, 0)

        best = max(near, key=likelier)
        rivals = [w for w in near if w != best and likelier(w) == likelier(best)]
        if rivals or frequency.get(lowered, 0) > 0:
            return typed
        # "realy" is a typo of really, a far commoner word one edit away, not of the brand
        # Sealy.
        ordinary = max((frequency.get(w, 0) for w in _edits(lowered) if w not in near), default=0)
        return typed if ordinary > COMMONER * max(frequency.get(best, 0), 1) else best

    def _respelled_run(self, run: str) -> str:
        if len(run) < MIN_HAN or run in self._surfaces:
            return run
        from pypinyin import lazy_pinyin

        sounds = [_sound(s) for s in lazy_pinyin(run)]
        if len(sounds) != len(run):
            return run
        pieces: list[str] = []
        start = 0
        while start < len(run):
            for size in range(min(MAX_HAN, len(run) - start), MIN_HAN - 1, -1):
                typed = run[start : start + size]
                form = self._sounding_like(typed, tuple(sounds[start : start + size]))
                if form is not None:
                    pieces.append(form)
                    start += size
                    break
            else:
                pieces.append(run[start])
                start += 1
        return "".join(pieces)

    def _sounding_like(self, typed: str, sounds: tuple[str, ...]) -> str | None:
        allowed = 1 if len(typed) < 5 else 2
        for form in self._han.get(sounds, ()):
            differ = sum(a != b for a, b in zip(form, typed, strict=True))
            if differ <= allowed:
                return form
        return None


def _inflects(typed: str, word: str) -> bool:
    """Whether `typed` is `word` with the plural ending the matcher reads itself."""
    return typed == word + "s"
