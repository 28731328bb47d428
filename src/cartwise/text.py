"""Text facts every layer shares: which script a text is written in, and how to fold text
for comparison (width and case).

Chinese has no spaces between words, so code that tokenizes, labels or detects language
must know which characters are Han; these ranges are the one definition of that.
"""

from __future__ import annotations

import functools
import logging
import re
import sys
import threading
import unicodedata
from bisect import bisect_right
from typing import Any, Literal

Language = Literal["zh", "en"]
"""The languages the assistant reads and answers in (`cartwise.understanding.reading` names
it for the rest of the product; a command's options name it from here without importing the
reader's models)."""

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
"""Chinese characters: CJK Unified Ideographs, Extension A and the compatibility block
(a regex character-class body)."""
CJK = "\u3040-\u30ff\uac00-\ud7af" + HAN
"""Han plus Japanese kana and Korean hangul: the scripts written without word spaces."""

SENTENCE_FINAL_PARTICLES = frozenset("吧呢啊呀嘛啦哦呗咯")
"""Chinese particles that close a clause's tone ("要这个吧", "有吗呀"); part of no name."""
HAN_CHAR = re.compile(f"[{HAN}]")
HAN_RUN = re.compile(f"[{HAN}]+")
CJK_CHAR = re.compile(f"[{CJK}]")
WORD = re.compile(f"[{CJK}]|[^\\s{CJK}]+")
"""A word as length is counted: one CJK character, or a run of other non-space characters."""


def has_han(text: str) -> bool:
    """Whether any Chinese character occurs (mixed "我要买 Sony 耳机" counts)."""
    return HAN_CHAR.search(text) is not None


def han_runs(text: str) -> list[str]:
    """The maximal runs of Chinese characters, in order."""
    return HAN_RUN.findall(text)


def leading_words(text: str, limit: int) -> str:
    """The start of `text` up to the end of its `limit`-th word (`WORD`: a CJK character
    counts as one); `text` itself when it has no more. Costs what the kept start costs."""
    end = 0
    for count, match in enumerate(WORD.finditer(text), start=1):
        if count > limit:
            return text[:end]
        end = match.end()
    return text


def narrow(text: str) -> str:
    """NFKC: full-width letters, digits and punctuation become their ASCII forms
    ("ＸＬ" → "XL", "４２" → "42")."""
    return unicodedata.normalize("NFKC", text)


def fold(text: str) -> str:
    """Width-narrowed, case-folded, whitespace runs collapsed: the form two texts are
    compared in."""
    return " ".join(narrow(text).casefold().split())


# What looks like personal data wherever text is stored: an e-mail address, or a run of 7+
# digits (spaces, dots, dashes and a leading + allowed between them) — a phone number, an ID
# number (18 characters, the last may be X) or a card number. Prices and sizes are shorter.
PERSONAL_DATA = re.compile(
    r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\+?\d(?:[\s.-]?\d){6,}[xX]?",
)
REDACTED = "[redacted]"


def looks_like_personal_data(text: str) -> bool:
    return PERSONAL_DATA.search(text) is not None


def redact_personal_data(text: str) -> str:
    """`text` with every e-mail address and long digit run replaced by `[redacted]`."""
    return PERSONAL_DATA.sub(REDACTED, text)


INVALID_TEXT = re.compile("[\ud800-\udfff\x00\ufffe\uffff]")
"""Lone UTF-16 surrogates, NUL and the noncharacters U+FFFE/U+FFFF: text no store or
stream can encode."""


def invalid_text(value: str) -> bool:
    return INVALID_TEXT.search(value) is not None


_jieba_import = threading.Lock()


@functools.cache
def jieba_segmenter() -> Any:
    """The `jieba` module (Chinese word segmentation), imported once, its log level set once
    (setting it per call cleared every logger's cache under logging's global lock).

    jieba reads its dictionary files through `pkg_resources` when that imports, and through
    `open` otherwise; importing `pkg_resources` (setuptools' whole distribution scanner)
    cost ~0.15 s of a one-shot `cartwise ask` on a quiet machine and 0.4 s on a busy one,
    so jieba is imported with it absent (unless something imported it already).

    Its prefix dictionary is read from a memory-mapped table (`cartwise.jieba_table`), not
    unmarshalled whole at the first segmentation (0.4–0.9 s on a quiet machine)."""
    from cartwise.jieba_table import use_prefix_table

    with _jieba_import:
        hidden = "pkg_resources" not in sys.modules
        if hidden:
            sys.modules["pkg_resources"] = None  # type: ignore[assignment]
        try:
            import jieba
        finally:
            if hidden:
                del sys.modules["pkg_resources"]
        use_prefix_table(jieba)
    jieba.setLogLevel(logging.WARNING)
    return jieba


@functools.cache
def chinese_verbs() -> frozenset[str]:
    """The plain verbs of jieba's dictionary (`cartwise.jieba_table.dictionary_verbs`)."""
    from cartwise.jieba_table import dictionary_verbs

    return dictionary_verbs(jieba_segmenter())


@functools.lru_cache(maxsize=8)
def _blocks(text: str) -> tuple[list[int], list[tuple[int, int]]]:
    """The runs of `text` jieba segments each on its own (its `re_han_default` blocks:
    Chinese characters, letters, digits and a few joiners), as their starts and spans."""
    jieba = jieba_segmenter()  # loaded only when a Chinese word needs checking
    spans = [hit.span() for hit in jieba.re_han_default.finditer(text)]
    return [start for start, _ in spans], spans


@functools.lru_cache(maxsize=512)
def _block_words(block: str) -> tuple[tuple[int, int], ...]:
    """jieba's words of one block as (start, end) within it."""
    return tuple((start, end) for _word, start, end in jieba_segmenter().tokenize(block))


def closing_particle_at(text: str, position: int) -> bool:
    """Whether `text[position]` is a particle closing its clause (吧 in "破壁机吧，", not in
    "去酒吧喝"): the text ends or a non-word character follows it."""
    after = position + 1
    return (
        position < len(text)
        and text[position] in SENTENCE_FINAL_PARTICLES
        and (after == len(text) or not text[after].isalnum())
    )


def word_at(text: str, position: int) -> tuple[int, int] | None:
    """The span of jieba's word of `text` that holds `position`. jieba cuts a text block by
    block and never across one, so only the block holding `position` is segmented (once:
    a pasted message's one-character nouns share a few blocks), not the whole text — a
    2,000-character message spent ~25 ms segmenting itself whole."""
    starts, spans = _blocks(text)
    at = bisect_right(starts, position) - 1
    if at < 0 or not spans[at][0] <= position < spans[at][1]:
        return None
    offset, end = spans[at]
    for first, last in _block_words(text[offset:end]):
        if first <= position - offset < last:
            return offset + first, offset + last
    return None
