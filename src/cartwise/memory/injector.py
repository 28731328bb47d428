"""What the model, the user tower and the hard filter see of a shopper's long-term memory.

- `build_preference_block`: text for the model. Every hard dislike always, in full, however
  many (forgetting one is a broken promise); everything else only when relevant to this
  query (top-k above the threshold), so 1,000 stored entries do not become 1,000 lines.
- `build_user_profile`: likes only. Dislikes never enter a vector: an embedding of "不要塑料"
  sits next to "塑料" (negation collapse), so a dislike in the profile would pull the
  very thing the shopper refuses towards them.
- `dislike_exclude_terms`: the keywords item_picker filters on.

Each function reads the store once (`rank_relevant` over every entry: one query embedding);
`preference_context` gives all three from a single read, for the once-per-turn entry point.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from cartwise.log import logger, redact
from cartwise.memory.store import (
    Polarity,
    PreferenceEntry,
    PreferenceStore,
    ScoredPreference,
)
from cartwise.settings import Settings
from cartwise.text import CJK_CHAR

__all__ = [
    "PreferenceContext",
    "build_preference_block",
    "build_user_profile",
    "count_tokens",
    "dislike_exclude_terms",
    "keyword_fallbacks",
    "preference_context",
]

# rank_relevant takes a top-k; the injector needs every entry scored, so it asks for all.
_EVERY_ENTRY = 2**31 - 1

keyword_fallbacks: Counter[str] = Counter()
"""Dislikes filtered by their whole phrase because they had no keywords, by category.
Each one is a polarity or keyword mistake waiting to be looked at."""

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_SYMBOL = re.compile(r"[^\w\s]", re.UNICODE)


def count_tokens(text: str) -> int:
    """Approximate LLM token count (cl100k-like), computed offline.

    tiktoken's cl100k_base table is downloaded on first use, which an offline machine
    cannot do, so this is an estimate: each CJK character ~1 token, each other word ~1.3
    tokens, each punctuation symbol 1 token. It is stable, which is what the size budget
    and the benchmark need."""
    cjk = len(CJK_CHAR.findall(text))
    words = len(_WORD.findall(CJK_CHAR.sub(" ", text)))
    symbols = len(_SYMBOL.findall(text))
    return math.ceil(cjk + 1.3 * words + symbols)


def build_preference_block(
    store: PreferenceStore, user: str, query: str, *, settings: Settings
) -> str:
    """Compact text of the shopper's preferences for this query ('' when there are none)."""
    return _block(store.rank_relevant(user, query, k=_EVERY_ENTRY), settings)


def build_user_profile(store: PreferenceStore, user: str, query: str, *, settings: Settings) -> str:
    """The user-tower text: likes only, global ones and domain-scoped ones relevant to the
    query, most relevant first, at most `preference_top_k`. '' when there are none."""
    return _profile_text(_profile_likes(store.rank_relevant(user, query, k=_EVERY_ENTRY), settings))


def dislike_exclude_terms(
    store: PreferenceStore, user: str, query: str, *, settings: Settings
) -> list[str]:
    """Keywords item_picker must not let through: every global dislike plus the
    domain-scoped dislikes relevant to the query. Strength does not matter here: nothing
    down-ranks by dislike, so a soft "我不太喜欢黑色" that did not filter would do nothing at
    all; strength decides what `build_preference_block` always injects.

    A dislike without keywords falls back to its slug's words (the whole phrase), with a
    warning and a count in `keyword_fallbacks`."""
    return _exclude_terms(store.rank_relevant(user, query, k=_EVERY_ENTRY), settings)


@dataclass(frozen=True)
class PreferenceContext:
    """All three views of one turn's preferences."""

    block: str
    """`build_preference_block`'s text."""
    profile: str
    """`build_user_profile`'s text."""
    exclude_terms: list[str]
    """`dislike_exclude_terms`' keywords."""
    likes: list[PreferenceEntry]
    """The like entries `profile` was built from."""


def preference_context(
    store: PreferenceStore, user: str, query: str, *, settings: Settings
) -> PreferenceContext:
    """The block, the profile and the exclude terms from ONE read of the store (one scan,
    one query embedding) instead of three; same rules as the three functions."""
    scored = store.rank_relevant(user, query, k=_EVERY_ENTRY)
    likes = _profile_likes(scored, settings)
    return PreferenceContext(
        block=_block(scored, settings),
        profile=_profile_text(likes),
        exclude_terms=_exclude_terms(scored, settings),
        likes=likes,
    )


def _block(scored: Sequence[ScoredPreference], settings: Settings) -> str:
    hard_dislikes = [s.entry for s in scored if s.entry.is_hard_dislike]
    rest = _relevant(
        [s for s in scored if not s.entry.is_hard_dislike],
        threshold=settings.preference_relevance_threshold,
        k=settings.preference_top_k,
    )
    if not hard_dislikes and not rest:
        return ""
    lines = ["Shopper preferences / 用户偏好:"]
    if hard_dislikes:
        lines.append("Never recommend (hard) / 绝不推荐:")
        lines.extend(f"- {_describe(e)}" for e in sorted(hard_dislikes, key=_stable_order))
    likes = [e for e in rest if e.polarity is Polarity.LIKE]
    dislikes = [e for e in rest if e.polarity is Polarity.DISLIKE]
    if likes:
        lines.append("Likes / 喜欢:")
        lines.extend(f"- {_describe(e)}" for e in likes)
    if dislikes:
        lines.append("Rather avoid / 尽量避免:")
        lines.extend(f"- {_describe(e)}" for e in dislikes)
    return "\n".join(lines)


def _profile_likes(scored: Sequence[ScoredPreference], settings: Settings) -> list[PreferenceEntry]:
    return [
        s.entry
        for s in scored
        if s.entry.polarity is Polarity.LIKE and s.applies(settings.preference_relevance_threshold)
    ][: settings.preference_top_k]


def _profile_text(likes: Sequence[PreferenceEntry]) -> str:
    return "; ".join(_profile_phrase(e) for e in likes)


def _exclude_terms(scored: Sequence[ScoredPreference], settings: Settings) -> list[str]:
    terms: list[str] = []
    for item in scored:
        entry = item.entry
        if entry.polarity is not Polarity.DISLIKE:
            continue
        if not item.applies(settings.preference_relevance_threshold):
            continue
        if entry.keywords:
            terms.extend(entry.keywords)
        else:
            keyword_fallbacks[entry.category.value] += 1
            logger.warning(
                "dislike %s has no keywords: falling back to its whole phrase for the filter",
                redact(entry.dedup_key, allowed=settings.log_personal_data),
            )
            terms.append(entry.slug.replace("-", " "))
    return list(dict.fromkeys(terms))


def _relevant(
    scored: Sequence[ScoredPreference], *, threshold: float, k: int
) -> list[PreferenceEntry]:
    # A scoped entry must be about this query's domain; a global one close to the query.
    return [
        s.entry
        for s in scored
        if (s.applies(threshold) if s.entry.domain else s.score >= threshold)
    ][:k]


def _describe(entry: PreferenceEntry) -> str:
    """`plastic [plastic, 塑料] (material, electronics)`: the slug, its surface forms, scope."""
    words = [w for w in entry.keywords if w.casefold() != entry.slug.replace("-", " ")]
    forms = f" [{', '.join(words)}]" if words else ""
    scope = entry.category.value + (f", {entry.domain}" if entry.domain else "")
    return f"{entry.slug}{forms} ({scope})"


def _profile_phrase(entry: PreferenceEntry) -> str:
    return " ".join(dict.fromkeys([entry.slug.replace("-", " "), *entry.keywords]))


def _stable_order(entry: PreferenceEntry) -> tuple[str, str]:
    return entry.category.value, entry.dedup_key
