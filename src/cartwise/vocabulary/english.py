"""Whether a Latin word is an English word, by the English word frequencies that
`pyspellchecker` ships (subtitles and books; common misspellings removed). The table loads on
first use: 0.1-0.3 s."""

from __future__ import annotations

from functools import cache

EVERYDAY = 1000


@cache
def english_frequencies() -> dict[str, int]:
    """Lowercase English word → how often it is used (a word it does not hold: never)."""
    from spellchecker import SpellChecker

    return dict(SpellChecker(language="en", distance=1).word_frequency.dictionary)


def is_english_word(word: str, *, everyday: bool = False) -> bool:
    """Whether `word` (any case) is a word English texts use; `everyday`: one they use often
    (a thousand times in the table: "keep", "glass", "tide", not "kindle", "lego", "puma")."""
    return english_frequencies().get(word.lower(), 0) >= (EVERYDAY if everyday else 1)
