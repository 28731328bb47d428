"""Long-term preference memory: the `PreferenceEntry` model and the `PreferenceStore` seam.

An entry's identity is `dedup_key = polarity:category:domain:slug`, a read-only property
derived from its fields: nobody (no LLM, no caller) ever supplies a key string, so the key
and the fields can never disagree. The domain is part of the write-side identity only; at
read time domain-scoped entries apply by semantic relevance to the query, never by string
match (domains drift: "clothing" vs "apparel" vs "服装").
"""

from __future__ import annotations

import builtins
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, computed_field, field_validator

from cartwise.errors import InvalidPreference
from cartwise.memory.namespaces import SELF as SELF  # the name every caller imports from here
from cartwise.text import looks_like_personal_data, redact_personal_data

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

SLUG_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
DOMAIN_PATTERN = re.compile(r"^(?:[a-z0-9]+(?:-[a-z0-9]+)*)?$")
MAX_KEYWORDS = 24
MAX_KEYWORD_CHARS = 64
"""A surface form is a word or a short phrase ("abs plastic", "塑料感太重"); anything longer
is no keyword, and every stored keyword is embedded and matched against every title."""
MAX_SLUG_CHARS = 64
MAX_DOMAIN_CHARS = 48
MAX_RECIPIENT_CHARS = 48


def check_recipient(value: str) -> str:
    """A canonical recipient slug (self, mum, husband, friend-lily): it becomes part of
    storage keys, so it is held to the slug format."""
    if not SLUG_PATTERN.fullmatch(value) or len(value) > MAX_RECIPIENT_CHARS:
        raise InvalidPreference(
            "recipient",
            value,
            "must be a lowercase ASCII slug such as 'self', 'mum' or 'friend-lily'",
        )
    return value


class Polarity(StrEnum):
    LIKE = "like"
    DISLIKE = "dislike"

    @property
    def opposite(self) -> Polarity:
        return Polarity.DISLIKE if self is Polarity.LIKE else Polarity.LIKE


class Category(StrEnum):
    MATERIAL = "material"
    STYLE = "style"
    BRAND = "brand"
    BUDGET = "budget"
    COLOR = "color"
    SIZE = "size"
    OTHER = "other"


class Strength(StrEnum):
    HARD = "hard"
    SOFT = "soft"


def utcnow() -> datetime:
    return datetime.now(UTC)


class Provenance(BaseModel):
    """Where an entry came from."""

    model_config = ConfigDict(frozen=True)

    source_turn: str = ""
    """Identifier of the turn (thread and message) that produced or last refreshed the entry."""
    source_text: str = ""
    """The user's words the entry was derived from (personal data: never logged by default;
    e-mail addresses and phone, ID or card numbers in them are stored as `[redacted]`)."""
    created_at: datetime = Field(default_factory=utcnow)
    """When the entry was first written."""
    updated_at: datetime = Field(default_factory=utcnow)
    """When the entry was last merged or refreshed."""

    @field_validator("source_text")
    @classmethod
    def _without_personal_data(cls, value: str) -> str:
        return redact_personal_data(value)


def check_keyword_bounds(keywords: Sequence[str]) -> None:
    """`InvalidPreference` naming the bound when a shopper-written keyword list is past one
    (where input enters: an import row; the API's schemas hold the same bounds)."""
    if len(keywords) > MAX_KEYWORDS:
        raise InvalidPreference("keywords", len(keywords), f"at most {MAX_KEYWORDS} keywords")
    for word in keywords:
        if len(word.strip()) > MAX_KEYWORD_CHARS:
            raise InvalidPreference(
                "keywords", word[:20] + "…", f"a keyword has at most {MAX_KEYWORD_CHARS} characters"
            )


def normalize_keywords(keywords: Sequence[str]) -> list[str]:
    """Trim, drop empties, overlong words, personal data (e-mail addresses, phone, ID or
    card numbers are never stored) and case-insensitive duplicates, keep first-seen order,
    at most MAX_KEYWORDS."""
    seen: set[str] = set()
    out: list[str] = []
    for raw in keywords:
        word = raw.strip()
        folded = word.casefold()
        usable = len(word) <= MAX_KEYWORD_CHARS and not looks_like_personal_data(word)
        if word and usable and folded not in seen:
            seen.add(folded)
            out.append(word)
    return out[:MAX_KEYWORDS]


def qualify_key(recipient: str, key: str) -> str:
    """`mum/dislike:color::purple`; the shopper's own keys stay bare."""
    return key if recipient == SELF else f"{recipient}/{key}"


class PreferenceEntry(BaseModel):
    """One atomic, long-term fact about what a shopper, or someone the shopper buys for,
    likes or refuses."""

    model_config = ConfigDict(extra="forbid", frozen=True, validate_default=True)

    recipient: str = SELF
    """Whose preference this is: `self` (the shopper) or a canonical recipient slug (mum,
    dad, wife, husband, girlfriend, son, friend-<name>). Each recipient is its own namespace
    with its own dedup keys, applied only to turns that buy for that recipient."""
    polarity: Polarity
    """like or dislike. A "不要X"/"no X" statement is ALWAYS a dislike."""
    category: Category
    """Closed enum: material, style, brand, budget, color, size, other."""
    domain: str = ""
    """Product domain the preference was stated about (electronics, clothing, ...), lowercase
    ASCII. Empty means global. When unsure, leave it empty. Safety (allergies, health) is
    always global."""
    slug: str
    """One atomic canonical identifier: lowercase ASCII, hyphen-separated, singular English
    (plastic, leather, nike, purple, 42)."""
    strength: Strength = Strength.SOFT
    """hard: must be obeyed (filters); soft: a leaning (ranking only)."""
    keywords: list[str] = Field(default_factory=list)
    """Surface forms used for hard filtering, in every language seen: ["plastic", "塑料"]."""
    provenance: Provenance = Field(default_factory=Provenance)
    """Source turn and times."""

    @field_validator("polarity", mode="before")
    @classmethod
    def _check_polarity(cls, value: object) -> object:
        if value not in {p.value for p in Polarity} and not isinstance(value, Polarity):
            raise InvalidPreference("polarity", value, "must be 'like' or 'dislike'")
        return value

    @field_validator("category", mode="before")
    @classmethod
    def _check_category(cls, value: object) -> object:
        if value not in {c.value for c in Category} and not isinstance(value, Category):
            allowed = ", ".join(c.value for c in Category)
            raise InvalidPreference("category", value, f"must be one of {allowed}")
        return value

    @field_validator("strength", mode="before")
    @classmethod
    def _check_strength(cls, value: object) -> object:
        if value not in {s.value for s in Strength} and not isinstance(value, Strength):
            raise InvalidPreference("strength", value, "must be 'hard' or 'soft'")
        return value

    @field_validator("recipient")
    @classmethod
    def _check_recipient(cls, value: str) -> str:
        return check_recipient(value)

    @field_validator("slug")
    @classmethod
    def _check_slug(cls, value: str) -> str:
        if not SLUG_PATTERN.fullmatch(value) or len(value) > MAX_SLUG_CHARS:
            raise InvalidPreference(
                "slug", value, "must be lowercase ASCII words joined by hyphens (e.g. 'plastic')"
            )
        if looks_like_personal_data(value):
            raise InvalidPreference("slug", "…", "looks like a phone, ID or card number")
        return value

    @field_validator("domain")
    @classmethod
    def _check_domain(cls, value: str) -> str:
        if not DOMAIN_PATTERN.fullmatch(value) or len(value) > MAX_DOMAIN_CHARS:
            raise InvalidPreference(
                "domain", value, "must be empty (global) or lowercase ASCII like 'electronics'"
            )
        return value

    @field_validator("keywords")
    @classmethod
    def _check_keywords(cls, value: list[str]) -> list[str]:
        return normalize_keywords(value)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def dedup_key(self) -> str:
        """`polarity:category:domain:slug`, derived; never supplied by anyone."""
        return f"{self.polarity.value}:{self.category.value}:{self.domain}:{self.slug}"

    @property
    def qualified_key(self) -> str:
        """The key unique across all of a user's namespaces (reports, messages)."""
        return qualify_key(self.recipient, self.dedup_key)

    @property
    def opposite_key(self) -> str:
        """The key of the same fact with the other polarity (which must never coexist)."""
        return f"{self.polarity.opposite.value}:{self.category.value}:{self.domain}:{self.slug}"

    @property
    def is_hard_dislike(self) -> bool:
        return self.polarity is Polarity.DISLIKE and self.strength is Strength.HARD

    def embedding_text(self) -> str:
        """The text embedded once at write time for `rank_relevant`."""
        words = " ".join(self.keywords)
        scope = f" ({self.domain})" if self.domain else ""
        return f"{self.slug.replace('-', ' ')} {words}{scope}".strip()

    def merged_with(self, newer: PreferenceEntry) -> PreferenceEntry:
        """Same key written again: merge keywords, take the newer strength, refresh time."""
        provenance = Provenance(
            source_turn=newer.provenance.source_turn or self.provenance.source_turn,
            source_text=newer.provenance.source_text or self.provenance.source_text,
            created_at=self.provenance.created_at,
            updated_at=newer.provenance.updated_at,
        )
        return self.model_copy(
            update={
                "keywords": normalize_keywords([*self.keywords, *newer.keywords]),
                "strength": newer.strength,
                "provenance": provenance,
            }
        )

    @classmethod
    def parse_key(cls, key: str) -> tuple[str, str, str, str]:
        """Split a dedup_key into its four parts (for supersede requests and the CLI)."""
        parts = key.split(":")
        if len(parts) != 4:
            raise InvalidPreference("dedup_key", key, "must be polarity:category:domain:slug")
        polarity, category, domain, slug = parts
        return polarity, category, domain, slug


@dataclass(frozen=True, slots=True)
class ScoredPreference:
    """A stored preference with its semantic relevance to a query. A plain slotted value:
    a read scores every entry of a namespace, and building 1,000 validated models per turn
    was most of the read path's time."""

    entry: PreferenceEntry
    score: float
    """Cosine similarity between the query and the entry's stored vector."""
    in_scope: bool | None = True
    """Global entries: True. Domain-scoped entries: whether the query is about the entry's
    domain (`cartwise.catalog.domain_classifier`); None when that domain could not be
    placed, and then `score` against a threshold decides."""
    possibly_in_scope: bool | None = True
    """Like `in_scope`, but true whenever the query MAY be about the entry's domain (the
    domain classifier cannot rule it out): what a hard dislike obeys, failing safe."""

    def applies(self, threshold: float) -> bool:
        """Whether the entry applies to the query it was scored against."""
        return self.in_scope if self.in_scope is not None else self.score >= threshold

    def may_apply(self, threshold: float) -> bool:
        """Whether the query may concern the entry at all (the fail-safe reading)."""
        if self.possibly_in_scope is None:
            return self.score >= threshold
        return self.possibly_in_scope


@dataclass(frozen=True)
class DislikeTerms:
    """A namespace's dislike keywords grouped by where they apply, computed once per write
    version of the namespace (query-independent). What a turn filters on is every hard
    dislike the query may concern and what it demotes on every soft one that applies: at
    10,000 entries that was ~1,500 entries walked per turn for ~60 distinct keywords. A read
    unions a few groups instead."""

    groups: dict[tuple[int, bool], tuple[str, ...]]
    """(domain index, hard) → the keywords of that group's dislikes, deduplicated, in stored
    key order. Domain index 0 is global, else 1 + the domain's position in `domains`."""
    bare: dict[tuple[int, bool], tuple[int, ...]]
    """(domain index, hard) → positions of the group's dislikes that have no keywords (a
    read filters on their phrase and warns, each time: they are mistakes to look at)."""
    slug_codes: npt.NDArray[np.int32]
    """Per entry: one code per distinct slug, so a read counts the names it does not list."""

    @classmethod
    def of(cls, entries: Sequence[PreferenceEntry], domain_index: Sequence[int]) -> DislikeTerms:
        import numpy as np

        groups: dict[tuple[int, bool], dict[str, None]] = {}
        bare: dict[tuple[int, bool], list[int]] = {}
        codes: dict[str, int] = {}
        slug_codes = np.empty(len(entries), dtype=np.int32)
        for position, (entry, domain) in enumerate(zip(entries, domain_index, strict=True)):
            slug_codes[position] = codes.setdefault(entry.slug, len(codes))
            if entry.polarity is not Polarity.DISLIKE:
                continue
            key = (int(domain), entry.strength is Strength.HARD)
            if entry.keywords:
                groups.setdefault(key, {}).update(dict.fromkeys(entry.keywords))
            else:
                bare.setdefault(key, []).append(position)
        return cls(
            groups={key: tuple(terms) for key, terms in groups.items()},
            bare={key: tuple(positions) for key, positions in bare.items()},
            slug_codes=slug_codes,
        )


@dataclass(frozen=True)
class ScoredNamespace:
    """Every entry of one namespace scored against one query, as arrays: a read at 1,000
    entries selects what each view needs without building an object per entry."""

    entries: Sequence[PreferenceEntry]
    """In stored-key order (score ties break by key)."""
    scores: npt.NDArray[np.float32]
    """`ScoredPreference.score` of each entry."""
    in_scope: npt.NDArray[np.int8]
    """`ScoredPreference.in_scope` of each entry: 1 true, 0 false, -1 None."""
    possibly_in_scope: npt.NDArray[np.int8]
    """`ScoredPreference.possibly_in_scope` of each entry, encoded the same way."""
    hard_dislike: npt.NDArray[np.bool_]
    dislike: npt.NDArray[np.bool_]
    scoped: npt.NDArray[np.bool_]
    """Domain-scoped entries."""
    domain_index: npt.NDArray[np.intp] | None = None
    """Per entry: 0 for a global entry, else 1 + its domain's position among the namespace's
    distinct domains (None: not given, then `in_scope` is read entry by entry)."""
    domain_in_scope: npt.NDArray[np.int8] | None = None
    """Per domain index: `in_scope` of its entries (1 true, 0 false, -1 not placed)."""
    domain_possibly_in_scope: npt.NDArray[np.int8] | None = None
    """Per domain index: `possibly_in_scope` of its entries, encoded the same way."""
    dislike_terms: DislikeTerms | None = None
    """The dislikes' keywords by domain and strength, precomputed (None: computed on use)."""
    own_vectors: Callable[[npt.NDArray[np.intp]], npt.NDArray[np.float32]] | None = None
    """The stored vectors of the entries at some positions, each of the entry's own words
    (None: not given, then the user tower embeds the likes' text)."""

    @classmethod
    def empty(cls) -> ScoredNamespace:
        import numpy as np  # scoring needs it; a command listing entries does not

        no = np.zeros(0, dtype=np.bool_)
        none = np.zeros(0, dtype=np.int8)
        return cls([], np.zeros(0, dtype=np.float32), none, none, no, no, no)

    def applies(self, threshold: float) -> npt.NDArray[np.bool_]:
        """`ScoredPreference.applies` of each entry."""
        import numpy as np

        return np.where(self.in_scope < 0, self.scores >= threshold, self.in_scope == 1)

    def may_apply(self, threshold: float) -> npt.NDArray[np.bool_]:
        """`ScoredPreference.may_apply` of each entry."""
        import numpy as np

        unknown = self.possibly_in_scope < 0
        return np.where(unknown, self.scores >= threshold, self.possibly_in_scope == 1)

    def best_first(
        self, mask: npt.NDArray[np.bool_], limit: int | None = None
    ) -> builtins.list[PreferenceEntry]:
        """The entries `mask` selects, most relevant first (ties by key), at most `limit`."""
        return [self.entries[i] for i in self.best_positions(mask, limit).tolist()]

    def best_positions(
        self, mask: npt.NDArray[np.bool_], limit: int | None = None
    ) -> npt.NDArray[np.intp]:
        """The positions of `best_first`'s entries."""
        import numpy as np

        chosen = np.flatnonzero(mask)
        return chosen[np.argsort(-self.scores[chosen], kind="stable")][:limit]

    def ranked(self) -> builtins.list[ScoredPreference]:
        """Every entry as a `ScoredPreference`, best first."""
        import numpy as np

        flag = {1: True, 0: False, -1: None}
        return [
            ScoredPreference(
                self.entries[i],
                float(self.scores[i]),
                flag[int(self.in_scope[i])],
                flag[int(self.possibly_in_scope[i])],
            )
            for i in np.argsort(-self.scores, kind="stable").tolist()
        ]


@runtime_checkable
class PreferenceStore(Protocol):
    """Per-user long-term preferences. Every call names the user; none reads across users.

    Within a user, each recipient (`self`, `mum`, ...) is a namespace of its own: keys,
    supersedes, merges and relevance reads never cross namespaces. An entry is stored in
    the namespace of its `recipient` field; calls that take keys name the namespace.

    Implementations must be safe under concurrent writers (processes included): an upsert is
    atomic, a supersede + upsert is one atomic step, and a crash leaves only whole entries.
    A store opened with a cap refuses a new key past it (`QuotaExceeded`) inside the same
    atomic step, so concurrent writers cannot overshoot it.

    Generations: `erase` removes everything of a user and gives the user a new generation.
    A write given `generation` happens only while the user is still at it (`AccountErased`
    otherwise), so work that began before an erase cannot write after it.
    """

    def upsert(
        self,
        user: str,
        entry: PreferenceEntry,
        *,
        supersede: Sequence[str] = (),
        generation: str | None = None,
    ) -> PreferenceEntry:
        """Insert or merge by `dedup_key` in the entry's recipient namespace; in the same
        atomic step delete the keys in `supersede` and the entry's opposite-polarity twin
        (both in that namespace). Returns the stored entry."""
        ...

    def supersede(
        self,
        user: str,
        keys: Sequence[str],
        *,
        recipient: str = SELF,
        generation: str | None = None,
    ) -> int:
        """Delete entries of one namespace by key; returns how many existed."""
        ...

    def get(self, user: str, key: str, *, recipient: str = SELF) -> PreferenceEntry | None: ...

    def list(self, user: str, *, recipient: str | None = None) -> list[PreferenceEntry]:
        """The entries of one namespace, or of all of them when `recipient` is None; oldest
        first."""
        ...

    def delete(
        self, user: str, key: str, *, recipient: str = SELF, generation: str | None = None
    ) -> bool: ...

    def generation(self, user: str) -> str:
        """The user's current generation ("" until the user is first erased)."""
        ...

    def erase(self, user: str) -> None:
        """Atomically remove every entry of every namespace of the user (vectors, versions
        and change logs too) and move the user to a new generation."""
        ...

    def rank_relevant(
        self, user: str, query: str, k: int, *, recipient: str = SELF
    ) -> builtins.list[ScoredPreference]:
        """One namespace's entries ranked by semantic relevance to `query`, best first (top
        k). Embeds only the query: entry vectors were computed when the entries were
        written."""
        ...

    def score_namespace(self, user: str, query: str, *, recipient: str = SELF) -> ScoredNamespace:
        """Every entry of one namespace scored against `query` (what `rank_relevant` ranks),
        as arrays: the once-per-turn read path."""
        ...

    def read_relevant(
        self,
        user: str,
        query: str,
        *,
        recipient: str = SELF,
        k: int = 8,
        threshold: float = 0.8,
    ) -> builtins.list[PreferenceEntry]:
        """Global entries always, plus domain-scoped entries relevant to the query."""
        ...

    def named_in(
        self, user: str, text: str, *, slugs: Sequence[str] = (), limit: int = 32
    ) -> builtins.list[PreferenceEntry]:
        """A bounded slice of every namespace: entries `text` names (a keyword, the slug or
        its words occur in it) or whose slug is in `slugs`, plus each namespace's latest
        like; at most `limit` per namespace. Sub-linear in the stored entries (an index per
        namespace, not a scan): what a turn hands the reader and the curator."""
        ...

    def close(self) -> None: ...
