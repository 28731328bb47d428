"""What both preference backends share: vector encoding, relevance scoring, raw rows.

The relevance rules live here once so SQLite and Redis cannot drift apart: a backend only
stores rows (key, JSON payload, vector, the tag of the embedder that made the vector) and
`VectorRanking` does the rest.
"""

from __future__ import annotations

import functools
import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from pydantic import ValidationError

from cartwise.catalog.domain_classifier import DomainClassifier
from cartwise.embedding.base import Embedder, Vector
from cartwise.embedding.memo import QueryMemo
from cartwise.errors import CartwiseError, InvalidInput
from cartwise.log import logger
from cartwise.memory.session_state import SessionPrefState
from cartwise.memory.store import PreferenceEntry, ScoredPreference

# Bump when `vector_text` changes: stored vectors made with another recipe are re-embedded.
VECTOR_RECIPE = "v1"
MAX_USER_CHARS = 128
PARSE_CACHE_SIZE = 16_384


def check_user(user: str) -> str:
    """User ids become part of storage keys; braces would break Redis hash tags."""
    if not user or len(user) > MAX_USER_CHARS or any(c in user for c in "{}\n\r\t\0"):
        raise InvalidInput(f"invalid user id {user!r}: 1-{MAX_USER_CHARS} chars, no braces")
    return user


def vector_tag(embedder: Embedder) -> str:
    """Recorded with each vector, so a model (or recipe) change is noticed and re-embedded."""
    return f"{embedder.name}/{VECTOR_RECIPE}"


def vector_text(entry: PreferenceEntry) -> str:
    """The text whose vector decides an entry's relevance to a query.

    A domain-scoped entry applies when the query is about its domain, so its vector is the
    domain's: measured with multilingual-e5-small, "electronics" scores 0.80-0.84 against
    headphone/phone queries and 0.76-0.78 against raincoat/shoe queries, while
    "plastic 塑料 (electronics)" overlaps both ranges (0.78-0.87 vs 0.76-0.82): the slug
    drags a scoped entry towards every query that mentions the material. A global entry
    always applies; its vector only ranks it, so its own words are the right text.
    """
    if entry.domain:
        return entry.domain.replace("-", " ")
    return entry.embedding_text()


def encode_vector(vector: Vector) -> bytes:
    return np.asarray(vector, dtype="<f4").tobytes()


def decode_vector(blob: bytes | None, dim: int) -> Vector | None:
    """None for a missing or malformed vector (it is then re-embedded)."""
    if not blob or len(blob) != dim * 4:
        return None
    return np.frombuffer(blob, dtype="<f4")  # read-only view: vectors are never mutated


@functools.lru_cache(maxsize=PARSE_CACHE_SIZE)
def parse_entry(payload: str) -> PreferenceEntry:
    """A stored JSON payload → entry. Raises `CorruptRow` when it fails validation.

    Cached by payload: every read scores all of a user's entries, and validating 1,000 JSON
    rows was most of a read's time. Entries are frozen values, so sharing them is safe."""
    try:
        data = json.loads(payload)
        if isinstance(data, dict):
            data.pop("dedup_key", None)  # derived; stored only for humans reading the data
        return PreferenceEntry.model_validate(data)
    except (ValueError, ValidationError, CartwiseError) as exc:
        raise CorruptRow(str(exc).splitlines()[0]) from exc


def dump_entry(entry: PreferenceEntry) -> str:
    return entry.model_dump_json()


def dump_session(state: SessionPrefState) -> str:
    """P_t as stored. Derived constraint keys are left out: the model derives them again
    and (extra="forbid") refuses to be handed one."""
    return state.model_dump_json(exclude={"constraints": {"__all__": {"key"}}})


class CorruptRow(CartwiseError):
    """A stored row that no longer validates (found and repaired by `memory doctor`)."""


@dataclass(frozen=True)
class RawRow:
    """One stored row exactly as the backend holds it (for doctor and import only)."""

    key: str
    """The key the row is stored under."""
    payload: str
    """The JSON it holds, unvalidated."""


@dataclass
class VectorRow:
    """A parsed entry with its stored vector (None when missing or stale)."""

    key: str
    payload: str
    entry: PreferenceEntry
    vector: Vector | None


def sort_entries(entries: Sequence[PreferenceEntry]) -> list[PreferenceEntry]:
    """Oldest first; the key breaks ties so both backends list in the same order."""
    return sorted(entries, key=lambda e: (e.provenance.created_at, e.dedup_key))


def parse_rows(rows: Sequence[RawRow]) -> list[PreferenceEntry]:
    """Valid entries of `rows`; corrupt ones are skipped with a warning pointing at doctor."""
    entries = []
    for row in rows:
        try:
            entries.append(parse_entry(row.payload))
        except CorruptRow:
            logger.warning("skipping a corrupt preference row; run `cartwise memory doctor`")
    return sort_entries(entries)


class VectorRanking(ABC):
    """`rank_relevant`/`read_relevant` over rows a backend loads; reads embed only the query."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        # One turn asks for the block, the profile and the exclude terms of the same query:
        # embed it once, not three times (the query embedding is most of a read's cost). The
        # agent hands in a QueryMemo already shared with recall; anyone else gets one here.
        self._query_embedder = embedder if isinstance(embedder, QueryMemo) else QueryMemo(embedder)
        self._domains = DomainClassifier(self._query_embedder)

    @abstractmethod
    def _vector_rows(self, user: str) -> list[VectorRow]:
        """Every valid entry of the user with its vector if it was made by this embedder."""

    @abstractmethod
    def _store_vectors(self, user: str, rows: Sequence[tuple[VectorRow, Vector]]) -> None:
        """Save re-embedded vectors, each only if its row's payload is still unchanged."""

    def rank_relevant(self, user: str, query: str, k: int) -> list[ScoredPreference]:
        return self._score_all(user, query)[: max(k, 0)]

    def read_relevant(
        self, user: str, query: str, *, k: int = 8, threshold: float = 0.8
    ) -> list[PreferenceEntry]:
        return select_relevant(self._score_all(user, query), k, threshold)

    def _score_all(self, user: str, query: str) -> list[ScoredPreference]:
        """Every valid entry of the user scored against the query, best first."""
        rows = sorted(self._vector_rows(check_user(user)), key=lambda row: row.key)
        if not rows:
            return []
        stale = [row for row in rows if row.vector is None]
        if stale:
            # Model changed or rows written by an older recipe: embed them once, keep them.
            logger.info(
                "re-embedding %d preference vectors with %s", len(stale), self.embedder.name
            )
            fresh = self.embedder.embed_documents([vector_text(r.entry) for r in stale])
            for row, vector in zip(stale, fresh, strict=True):
                row.vector = vector
            self._store_vectors(user, list(zip(stale, fresh, strict=True)))
        matrix = np.stack([row.vector for row in rows if row.vector is not None])
        query_vector = self._query_embedder.embed_query(query)
        scores = matrix @ query_vector
        domain_scores = self._domains.scores(query_vector)
        order = np.argsort(-scores, kind="stable")  # rows are in key order: ties break by key
        # model_construct: the fields come from already-validated values, and validating
        # 1,000 wrappers per read was a measurable share of the injector's latency.
        return [
            ScoredPreference.model_construct(
                entry=rows[i].entry,
                score=float(scores[i]),
                in_scope=self._domains.in_domain(rows[i].entry.domain, domain_scores)
                if rows[i].entry.domain
                else True,
            )
            for i in order.tolist()
        ]


def select_relevant(
    scored: Sequence[ScoredPreference], k: int, threshold: float
) -> list[PreferenceEntry]:
    """Every global entry, plus the top-k domain-scoped entries that apply to the query (see
    `ScoredPreference.applies`)."""
    global_entries = [s.entry for s in scored if not s.entry.domain]
    scoped = [s.entry for s in scored if s.entry.domain and s.applies(threshold)][:k]
    return [*global_entries, *scoped]
