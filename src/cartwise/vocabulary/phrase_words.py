"""Phrase words (`data/phrase_words.yml`): the words a message uses around what it asks for —
asking, politeness, pronouns, connectives, price labels, measure words, wanting, and the cues
that a wish holds this time only or from now on. None is a word of a listing. Its header says
what each group means."""

from __future__ import annotations

from functools import cache
from typing import Literal, get_args

from cartwise.errors import ConfigurationError
from cartwise.vocabulary.entries import Entry
from cartwise.vocabulary.files import data_file, words
from cartwise.vocabulary.matcher import Match, Matcher

PhraseGroup = Literal[
    "ask",
    "filler",
    "connective",
    "person",
    "price_label",
    "measure",
    "wish",
    "gift",
    "interest",
    "occasion",
    "session",
    "standing",
    "reference",
    "owned",
]
PHRASE_GROUPS: tuple[PhraseGroup, ...] = get_args(PhraseGroup)


@cache
def phrase_word_forms() -> dict[PhraseGroup, tuple[str, ...]]:
    """Each group's surface forms, read once per process."""
    data = data_file("phrase_words")
    try:
        return {group: words(data[group], f"phrase_words {group}") for group in PHRASE_GROUPS}
    except KeyError as exc:
        raise ConfigurationError(f"vocabulary/data/phrase_words.yml lacks group {exc}") from exc


@cache
def phrase_word_matcher() -> Matcher:
    """Every phrase word, each match naming its groups (`Entry.slug`)."""
    forms: dict[str, list[Entry]] = {}
    for group, surfaces in phrase_word_forms().items():
        for form in surfaces:
            forms.setdefault(form, []).append(Entry("phrase_word", group))
    return Matcher(forms)


def groups_of(match: Match) -> frozenset[str]:
    """The groups a matched phrase word belongs to."""
    return frozenset(e.slug for e in match.of("phrase_word"))


def says(text: str, group: PhraseGroup) -> bool:
    """Whether `text` holds a word of `group` of two or more characters, or a Latin word (a
    single Chinese character needs the reader's word segmentation to count)."""
    return any(
        group in groups_of(m) and (len(m.surface) > 1 or m.surface.isascii())
        for m in phrase_word_matcher().candidates(text)
    )
