"""`slugify`: the one way a name becomes an ASCII slug — brands, recipients, refused things,
listing titles, directory names.

Latin letters lose their accents ("Estée" → estee), apostrophes vanish ("Levi's" → levis),
every other run of non-alphanumerics becomes one separator. A name written only in Chinese
becomes its pinyin ("方太" → fangtai, "香菜" → xiangcai); a name with Latin letters keeps only
those ("华为 Huawei" → huawei), so a mixed name and its Latin name meet in one slug.
"""

from __future__ import annotations

import re
import unicodedata

from cartwise.text import has_han

_APOSTROPHES = re.compile(r"['’]")
_NOT_ALNUM = re.compile(r"[^a-z0-9]+")


def slugify(text: str, *, separator: str = "-") -> str:
    """Lowercase ASCII words joined by `separator` ("" when nothing nameable is left)."""
    latin = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    if not _NOT_ALNUM.sub("", latin.lower()) and has_han(text):
        latin = pinyin(text)
    words = _NOT_ALNUM.sub(" ", _APOSTROPHES.sub("", latin.lower())).split()
    return separator.join(words)


def pinyin(text: str) -> str:
    """The toneless pinyin of the Chinese in `text`, syllables run together ("香菜" →
    xiangcai); other characters pass through."""
    from pypinyin import lazy_pinyin  # a second to load: only when a Chinese name needs it

    return "".join(lazy_pinyin(text))
