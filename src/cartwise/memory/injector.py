"""What the model, the user tower and the hard filter see of a shopper's long-term memory.

- `build_preference_block`: text for the model. Every hard dislike always, in full, however
  many (forgetting one is a broken promise); everything else only when relevant to this
  query (top-k above the threshold), so 1,000 stored entries do not become 1,000 lines.
- `build_user_profile`: likes only. Dislikes never enter a vector: an embedding of "不要塑料"
  sits next to "塑料" (negation collapse), so a dislike in the profile would pull the
  very thing the shopper refuses towards them.
- `dislike_exclude_terms`: the keywords item_picker filters on: hard dislikes only. A soft
  dislike ("我不太喜欢X", "not a fan of X") is a leaning: `PreferenceContext.demote_terms`
  carries it to the picker, which ranks X lower and says so, but never removes X.

Every function reads ONE recipient's namespace (`recipient`, default the shopper's own):
a search for the shopper is untouched by mum's dislikes, a gift for mum applies hers and
not the shopper's. Each reads the store once (`score_namespace`: one query embedding, the
namespace's stacked vectors scored at once); `preference_context` gives all views from a
single read, for the once-per-turn entry point. What a read filters and demotes on comes from
keyword groups the store precomputed per domain (`DislikeTerms`), and only the entries a view
names are handed on: a shopper with 10,000 entries does not cost 10,000 objects a turn.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from cartwise.embedding.base import normalize_vector
from cartwise.log import logger, redact
from cartwise.memory.store import (
    SELF,
    DislikeTerms,
    Polarity,
    PreferenceEntry,
    PreferenceStore,
    ScoredNamespace,
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


def _scored(store: PreferenceStore, user: str, query: str, recipient: str) -> ScoredNamespace:
    return store.score_namespace(user, query, recipient=recipient)


NAMED_DISLIKES = 16
"""Dislike entries of each strength a read hands on by name, most relevant first (the turn
names them to the shopper and keeps them in its slice); the others are counted. Their
keywords all filter or demote: at 10,000 stored entries a headphones query had 1,515
applicable dislikes behind 58 distinct keywords, and every turn walked, merged and listed
all of them (a 67 KB reply)."""


@dataclass
class _Sorted:
    """One pass over a namespace's scored entries, sorted into what each view needs: the
    selection is array masks and precomputed keyword groups, so only the entries a view
    names become Python objects."""

    hard_dislikes: list[PreferenceEntry] = field(default_factory=list)
    """Every hard dislike, relevant or not (the block always names them all)."""
    exclude_terms: list[str] = field(default_factory=list)
    """Keywords of every hard dislike the query may concern (they filter)."""
    demote_terms: list[str] = field(default_factory=list)
    """Keywords of every soft dislike the query is about (they rank lower)."""
    excluding: list[PreferenceEntry] = field(default_factory=list)
    """Hard dislikes behind `exclude_terms`, most relevant first, at most `NAMED_DISLIKES`."""
    excluding_more: int = 0
    """Distinct slugs behind `exclude_terms` that `excluding` does not hold."""
    demoting: list[PreferenceEntry] = field(default_factory=list)
    """Soft dislikes behind `demote_terms`, most relevant first, at most `NAMED_DISLIKES`."""
    demoting_more: int = 0
    """Distinct slugs behind `demote_terms` that `demoting` does not hold."""
    likes: list[PreferenceEntry] = field(default_factory=list)
    """Likes that apply, most relevant first, at most top-k."""
    profile_vector: np.ndarray | None = None
    """The user-tower vector of `likes`, from their stored vectors (None: no likes, or a
    store that gives no vectors)."""
    rest: list[PreferenceEntry] = field(default_factory=list)
    """Relevant likes and soft dislikes for the block, at most top-k."""


@dataclass(frozen=True)
class _Grouping:
    """Where a namespace's entries apply, per domain rather than per entry."""

    domain_index: np.ndarray
    in_scope: np.ndarray
    possibly_in_scope: np.ndarray
    terms: DislikeTerms

    @classmethod
    def of(cls, scored: ScoredNamespace) -> _Grouping:
        if (
            scored.domain_index is not None
            and scored.domain_in_scope is not None
            and scored.domain_possibly_in_scope is not None
            and scored.dislike_terms is not None
        ):
            return cls(
                scored.domain_index,
                scored.domain_in_scope,
                scored.domain_possibly_in_scope,
                scored.dislike_terms,
            )
        # A store that scores without precomputing: group here (the same rules).
        domains = sorted({e.domain for e in scored.entries} - {""})
        position = {domain: n + 1 for n, domain in enumerate(domains)} | {"": 0}
        index = np.array([position[e.domain] for e in scored.entries], dtype=np.intp)
        in_scope = np.ones(len(domains) + 1, dtype=np.int8)
        possibly = np.ones(len(domains) + 1, dtype=np.int8)
        in_scope[index] = scored.in_scope  # every entry of a domain has its domain's flag
        possibly[index] = scored.possibly_in_scope
        return cls(index, in_scope, possibly, DislikeTerms.of(scored.entries, index.tolist()))


def _sort(scored: ScoredNamespace, settings: Settings) -> _Sorted:
    threshold, k = settings.preference_relevance_threshold, settings.preference_top_k
    hard = scored.hard_dislike
    soft = scored.dislike & ~hard
    applies = scored.applies(threshold)
    # A scoped entry must be about this query's domain; a global one close to the query.
    relevant = np.where(scored.scoped, applies, scored.scores >= threshold)
    grouping = _Grouping.of(scored)
    # Fail safe: a hard dislike filters in any domain the query may be in.
    excluding = hard & scored.may_apply(threshold)
    demoting = soft & applies
    named_excluding = scored.best_positions(excluding, NAMED_DISLIKES)
    named_demoting = scored.best_positions(demoting, NAMED_DISLIKES)
    codes = grouping.terms.slug_codes
    liked = scored.best_positions(~scored.dislike & applies, k)
    return _Sorted(
        hard_dislikes=scored.best_first(hard),
        exclude_terms=_group_terms(
            scored, grouping, grouping.possibly_in_scope, hard, strong=True, settings=settings
        ),
        demote_terms=_group_terms(
            scored, grouping, grouping.in_scope, soft, strong=False, settings=settings
        ),
        excluding=[scored.entries[i] for i in named_excluding.tolist()],
        # Names, not entries: a slug stored for two domains is one thing to the shopper.
        excluding_more=int(np.setdiff1d(codes[excluding], codes[named_excluding]).size),
        demoting=[scored.entries[i] for i in named_demoting.tolist()],
        demoting_more=int(np.setdiff1d(codes[demoting], codes[named_demoting]).size),
        likes=[scored.entries[i] for i in liked.tolist()],
        profile_vector=_mean_direction(scored.own_vectors(liked))
        if scored.own_vectors is not None and liked.size
        else None,
        rest=scored.best_first(~hard & relevant, k),
    )


def _mean_direction(vectors: np.ndarray) -> np.ndarray:
    """The normalised mean of the likes' stored vectors: the user tower's direction. Each
    was embedded once, when it was written; embedding the likes' joined text instead cost a
    model call at every turn that brought up a new set of likes (150–250 ms of a 90 ms
    turn over HTTP on the shared 2-core machine, the whole gap of a Redis shopper with
    1,000 entries to one with none)."""
    return normalize_vector(np.asarray(vectors, dtype=np.float32).mean(axis=0))


def _group_terms(
    scored: ScoredNamespace,
    grouping: _Grouping,
    flags: np.ndarray,
    kind: np.ndarray,
    *,
    strong: bool,
    settings: Settings,
) -> list[str]:
    """The keywords of the dislikes of one strength (`kind`) in every domain `flags` puts
    the query in: whole precomputed groups, and entry by entry only in a domain the
    classifier could not place (there each entry's own score decides)."""
    terms: dict[str, None] = {}
    bare: list[int] = []
    for domain, flag in enumerate(flags.tolist()):
        key = (domain, strong)
        if flag == 1:
            terms.update(dict.fromkeys(grouping.terms.groups.get(key, ())))
            bare.extend(grouping.terms.bare.get(key, ()))
        elif flag < 0:
            threshold = settings.preference_relevance_threshold
            chosen = (grouping.domain_index == domain) & kind & (scored.scores >= threshold)
            for position in np.flatnonzero(chosen).tolist():
                if scored.entries[position].keywords:
                    terms.update(dict.fromkeys(scored.entries[position].keywords))
                else:
                    bare.append(position)
    for position in sorted(bare):
        entry = scored.entries[position]
        keyword_fallbacks[entry.category.value] += 1
        logger.warning(
            "dislike %s has no keywords: falling back to its whole phrase for the filter",
            redact(entry.dedup_key, allowed=settings.log_personal_data),
        )
        terms[entry.slug.replace("-", " ")] = None
    return list(terms)


def build_preference_block(
    store: PreferenceStore, user: str, query: str, *, settings: Settings, recipient: str = SELF
) -> str:
    """Compact text of the recipient's preferences for this query ('' when there are none)."""
    return _block(_sort(_scored(store, user, query, recipient), settings))


def build_user_profile(
    store: PreferenceStore, user: str, query: str, *, settings: Settings, recipient: str = SELF
) -> str:
    """The user-tower text: likes only, global ones and domain-scoped ones relevant to the
    query, most relevant first, at most `preference_top_k`. '' when there are none."""
    return _profile_text(_sort(_scored(store, user, query, recipient), settings).likes)


def dislike_exclude_terms(
    store: PreferenceStore, user: str, query: str, *, settings: Settings, recipient: str = SELF
) -> list[str]:
    """Keywords item_picker must not let through: every global hard dislike plus the
    domain-scoped hard dislikes of every domain the query may be in (fail safe: "sports
    earbuds" may be electronics, so an electronics "no plastic" holds). Soft dislikes only
    demote (`PreferenceContext.demote_terms`).

    A dislike without keywords falls back to its slug's words (the whole phrase), with a
    warning and a count in `keyword_fallbacks`."""
    return _sort(_scored(store, user, query, recipient), settings).exclude_terms


@dataclass(frozen=True)
class PreferenceContext:
    """All views of one turn's preferences."""

    block: str
    """`build_preference_block`'s text."""
    profile: str
    """`build_user_profile`'s text."""
    exclude_terms: list[str]
    """`dislike_exclude_terms`' keywords (hard dislikes: they filter)."""
    likes: list[PreferenceEntry]
    """The like entries `profile` was built from."""
    demote_terms: list[str]
    """Keywords of the soft dislikes relevant to the query: they rank lower, never vanish."""
    dislikes: list[PreferenceEntry]
    """The most relevant dislike entries behind `exclude_terms` and `demote_terms` (at most
    `NAMED_DISLIKES` of each strength): the ones a turn names."""
    excluded_more: int = 0
    """Distinct hard dislikes behind `exclude_terms` that `dislikes` leaves out."""
    demoted_more: int = 0
    """Distinct soft dislikes behind `demote_terms` that `dislikes` leaves out."""
    profile_vector: np.ndarray | None = None
    """`profile` as the user tower's vector, made from the likes' stored vectors (None: no
    likes, or a store that gives no vectors: embed `profile`)."""


def preference_context(
    store: PreferenceStore, user: str, query: str, *, settings: Settings, recipient: str = SELF
) -> PreferenceContext:
    """Every view from ONE read of the recipient's namespace (one scan, one query
    embedding) instead of three; same rules as the three functions."""
    sorted_ = _sort(_scored(store, user, query, recipient), settings)
    return PreferenceContext(
        block=_block(sorted_),
        profile=_profile_text(sorted_.likes),
        exclude_terms=sorted_.exclude_terms,
        likes=sorted_.likes,
        profile_vector=sorted_.profile_vector,
        demote_terms=sorted_.demote_terms,
        dislikes=[*sorted_.excluding, *sorted_.demoting],
        excluded_more=sorted_.excluding_more,
        demoted_more=sorted_.demoting_more,
    )


def _block(sorted_: _Sorted) -> str:
    """One line per category of hard dislikes, one line each for relevant likes and soft
    dislikes: `material: plastic 塑料 @electronics; leather 皮革`. Compact because every hard
    dislike is always in it: 20 of them must not crowd the prompt."""
    if not sorted_.hard_dislikes and not sorted_.rest:
        return ""
    lines = ["Shopper preferences / 用户偏好:"]
    if sorted_.hard_dislikes:
        lines.append("Never recommend (hard) / 绝不推荐:")
        by_category: dict[str, list[str]] = {}
        for entry in sorted(sorted_.hard_dislikes, key=_stable_order):
            by_category.setdefault(entry.category.value, []).append(_describe(entry))
        lines.extend(f"{category}: {'; '.join(items)}" for category, items in by_category.items())
    likes = [_describe(e) for e in sorted_.rest if e.polarity is Polarity.LIKE]
    dislikes = [_describe(e) for e in sorted_.rest if e.polarity is Polarity.DISLIKE]
    if likes:
        lines.append("Likes / 喜欢: " + "; ".join(likes))
    if dislikes:
        lines.append("Rather avoid / 尽量避免: " + "; ".join(dislikes))
    return "\n".join(lines)


def _profile_text(likes: Sequence[PreferenceEntry]) -> str:
    return "; ".join(_profile_phrase(e) for e in likes)


def _describe(entry: PreferenceEntry) -> str:
    """`plastic 塑料 @electronics`: the slug, the surface forms it does not already spell
    (other scripts, other words), the domain when scoped."""
    slug_words = set(entry.slug.split("-"))
    forms = [
        w
        for w in entry.keywords
        if not (w.isascii() and set(w.casefold().replace("-", " ").split()) <= slug_words)
    ]
    scope = f" @{entry.domain}" if entry.domain else ""
    return " ".join([entry.slug, *forms]) + scope


def _profile_phrase(entry: PreferenceEntry) -> str:
    """The like's words, each once: the profile is embedded at every turn that brings up a
    new set of likes, and its cost follows its tokens (183–314 ms for a 157-character
    profile of 8 likes with e5-small on the loaded 2-core machine, 31–66 ms for 19). "solid-wood" with keywords ["solid wood", "实木"] is "solid wood 实木",
    not "solid wood solid wood 实木"."""
    words: dict[str, str] = {}
    for word in [*entry.slug.split("-"), *(w for k in entry.keywords for w in k.split())]:
        words.setdefault(word.casefold(), word)
    return " ".join(words.values())


def _stable_order(entry: PreferenceEntry) -> tuple[str, str]:
    return entry.category.value, entry.dedup_key
