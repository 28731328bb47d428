"""What a listing itself says about a question: the values of the attribute asked about,
else its own sentence mentioning the question's content words."""

from __future__ import annotations

import re

from cartwise.catalog.product import Product
from cartwise.text import HAN, fold

STATEMENT_CHARS = 160
_SENTENCE = re.compile(r"[^.。;；!！?？\n]+[.。;；!！?？]?")


QUESTION_WORDS = frozenset(
    [
        "how",
        "what",
        "which",
        "when",
        "where",
        "who",
        "why",
        "long",
        "much",
        "many",
        "does",
        "do",
        "did",
        "is",
        "are",
        "was",
        "it",
        "its",
        "this",
        "that",
        "they",
        "them",
        "have",
        "has",
        "had",
        "can",
        "could",
        "will",
        "would",
        "come",
        "comes",
        "with",
        "for",
        "and",
        "the",
        "any",
    ]
)
"""Words of a question that say nothing about the product ("how long does the battery last")."""


def _content_words(asked: str) -> list[str]:
    words = re.findall(f"[a-z0-9][a-z0-9-]+|[{HAN}]+", fold(asked))
    return [w for w in words if w not in QUESTION_WORDS]


def _mentions(sentence: str, word: str) -> bool:
    if not word.isascii():
        return word in sentence
    # "last" matches "lasts", "waterproof" matches "waterproofing"; no match inside a word.
    return re.search(rf"(?<![a-z0-9]){re.escape(word)}", sentence) is not None


ATTRIBUTE_CUES: dict[str, tuple[str, ...]] = {
    "color": ("颜色", "配色", "colour", "color"),
    "material": ("材质", "面料", "材料", "material", "made of", "fabric"),
    "sizes": ("尺码", "码数", "号码", "size"),
    "style": ("款式", "style"),
}
"""Questions about an attribute ("有几种颜色", "what sizes does it come in") are answered by
that attribute's listed values, not by a sentence repeating the question's words."""


def listing_statement(product: Product, asked: str) -> str:
    """The listing's own sentence about `asked` ("" when it says nothing about it): the
    values of the attribute asked about, else the sentence mentioning the most of the
    question's content words — all of one or two, at least half of more."""
    folded_question = fold(asked)
    for name, cues in ATTRIBUTE_CUES.items():
        values = product.attributes.get(name)
        if values and any(cue in folded_question for cue in cues):
            return f"{name}: {', '.join(values)}"[:STATEMENT_CHARS]
    words = _content_words(asked)
    if not words:
        return ""
    needed = len(words) if len(words) <= 2 else (len(words) + 1) // 2
    text = " ".join(p for p in (product.title, product.description) if p)
    sentences = [m.group().strip() for m in _SENTENCE.finditer(text)]
    sentences += [f"{name}: {', '.join(values)}" for name, values in product.attributes.items()]
    best, best_hits = "", 0
    for sentence in sentences:
        folded = fold(sentence)
        hits = sum(_mentions(folded, w) for w in words)
        if hits >= needed and hits > best_hits:
            best, best_hits = sentence, hits
    return best[:STATEMENT_CHARS]
