"""What both preference backends share: vector encoding, relevance scoring, raw rows.

The relevance rules live here once so SQLite and Redis cannot drift apart: a backend only
stores rows (key, JSON payload, vector, the tag of the embedder that made the vector) and
`VectorRanking` does the rest.
"""

from __future__ import annotations

import functools
import json
import re
import threading
import uuid
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Self

from pydantic import ValidationError

from cartwise.embedding.base import Embedder, query_start
from cartwise.embedding.memo import QueryMemo
from cartwise.errors import CartwiseError, InvalidInput
from cartwise.log import logger
from cartwise.memory.backends.entry_index import EntryIndex
from cartwise.memory.store import (
    SELF,
    PreferenceEntry,
    ScoredNamespace,
    ScoredPreference,
    check_recipient,
)
from cartwise.text import fold, han_runs

if TYPE_CHECKING:
    import numpy as np

    from cartwise.catalog.domain_classifier import DomainClassifier
    from cartwise.embedding.base import Matrix, Vector
    from cartwise.memory.session_state import SessionPrefState

# Bump when `vector_text` changes: stored vectors made with another recipe are re-embedded.
VECTOR_RECIPE = "v2"
VECTOR_TEXT_CHARS = 160
"""At most this much of an entry's text is embedded. A stored preference is tens of tokens
(its slug and a few keywords); the largest the API accepts (24 keywords of 64 characters)
filled e5's 512 tokens and took 2.5 s of an engine per write on the 2-core machine, against
~26 ms for 60 characters and ~157 ms for 250. The vector only ranks entries; the whole entry
is still stored and matched by its words. (Entries embedded whole before keep their vectors:
the recipe did not change for any text this short.)"""
MAX_USER_CHARS = 128
PARSE_CACHE_SIZE = 16_384
NAMESPACE_CACHE_SIZE = 512
"""Prepared (entries, vector matrix) namespaces kept in-process, least recently used out."""
MAX_TERM_HAN = 8
"""Longest Chinese surface form looked up in a text (longer keywords are rare phrases)."""
MAX_TERM_WORDS = 4
"""Longest run of Latin words looked up in a text ("abs plastic", "noise cancelling")."""
_LATIN_WORD = re.compile(r"[a-z0-9]+")


def check_user(user: str) -> str:
    """User ids become part of storage keys; braces would break Redis hash tags."""
    if not user or len(user) > MAX_USER_CHARS or any(c in user for c in "{}\n\r\t\0"):
        raise InvalidInput(f"invalid user id {user!r}: 1-{MAX_USER_CHARS} chars, no braces")
    return user


def vector_tag(embedder: Embedder) -> str:
    """Recorded with each vector, so a model (or recipe) change is noticed and re-embedded."""
    return f"{embedder.name}/{VECTOR_RECIPE}"


def vector_text(entry: PreferenceEntry) -> str:
    """The text of an entry's stored vector: its own words, scoped or not. A like's vector
    is the user tower's material (`PreferenceContext.profile_vector`); a global entry's also
    ranks it against a query. (Recipe v1 stored a scoped entry's domain instead, so its
    words were lost to the user tower; its relevance is still its domain's, `domain_text`.)
    """
    text = f"{entry.slug.replace('-', ' ')} {' '.join(entry.keywords)}".strip()
    if len(text) <= VECTOR_TEXT_CHARS:
        return text
    start = text[: VECTOR_TEXT_CHARS + 1]
    # Whole words only, unless the first word is itself longer than the bound.
    return start.rsplit(" ", 1)[0] if " " in start else start[:VECTOR_TEXT_CHARS]


def domain_text(domain: str) -> str:
    """The text whose vector decides a domain-scoped entry's relevance to a query.

    A domain-scoped entry applies when the query is about its domain, so its relevance is
    the domain's: measured with multilingual-e5-small, "electronics" scores 0.80-0.84 against
    headphone/phone queries and 0.76-0.78 against raincoat/shoe queries, while
    "plastic 塑料 (electronics)" overlaps both ranges (0.78-0.87 vs 0.76-0.82): the slug
    drags a scoped entry towards every query that mentions the material."""
    return domain.replace("-", " ")


def encode_vector(vector: Vector) -> bytes:
    import numpy as np  # numpy only where vectors are: listing entries reads none

    return np.asarray(vector, dtype="<f4").tobytes()


def decode_vector(blob: bytes | None, dim: int) -> Vector | None:
    """None for a missing or malformed vector (it is then re-embedded)."""
    if not blob or len(blob) != dim * 4:
        return None
    import numpy as np

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
    recipient: str = SELF
    """The namespace the row is stored in."""


@dataclass
class VectorRow:
    """A parsed entry with its stored vector (None when missing or stale)."""

    key: str
    payload: str
    entry: PreferenceEntry
    vector: Vector | None


def sort_entries(entries: Sequence[PreferenceEntry]) -> list[PreferenceEntry]:
    """Oldest first; the key breaks ties so both backends list in the same order."""
    return sorted(entries, key=lambda e: (e.provenance.created_at, e.recipient, e.dedup_key))


def parse_rows(rows: Sequence[RawRow]) -> list[PreferenceEntry]:
    """Valid entries of `rows`; corrupt ones are skipped with a warning pointing at doctor."""
    entries = []
    for row in rows:
        try:
            entries.append(parse_entry(row.payload))
        except CorruptRow:
            logger.warning("skipping a corrupt preference row; run `cartwise memory doctor`")
    return sort_entries(entries)


CHANGE_LOG_SLACK = 1_024
"""Change records a namespace may hold beyond one per live entry (the keys of deleted
entries). Past that a write clears the log and starts a new epoch: readers rebuild once."""


@dataclass(frozen=True)
class NamespaceVersion:
    """A namespace's write version, stored as `epoch.seq`: every write adds one to `seq`
    and records the keys it touched at that `seq`; a new `epoch` (a fresh random token: a
    recreated file can never repeat one) means the change log no longer reaches back, so a
    reader of another epoch reads the whole namespace again."""

    epoch: str
    seq: int

    @classmethod
    def parse(cls, text: str) -> NamespaceVersion:
        """'' (never written) and versions of another format are epoch '' (none)."""
        epoch, dot, seq = text.rpartition(".")
        if not dot or not epoch or not seq.isdigit():
            return cls("", 0)
        return cls(epoch, int(seq))

    @staticmethod
    def fresh_epoch() -> str:
        return uuid.uuid4().hex

    def __str__(self) -> str:
        return f"{self.epoch}.{self.seq}" if self.epoch else ""

    def follows(self, earlier: NamespaceVersion) -> bool:
        """Whether the change log leads from `earlier` to this version."""
        return bool(self.epoch) and self.epoch == earlier.epoch and self.seq > earlier.seq


@dataclass(frozen=True)
class NamespaceChanges:
    """What changed in a namespace since a version: the rows written (with their vectors)
    and the keys deleted, read in one snapshot with the version they lead to."""

    version: NamespaceVersion
    written: list[VectorRow]
    deleted: list[str]


@dataclass(frozen=True)
class PreparedNamespace:
    """One namespace's valid entries with their vectors stacked, ready to score."""

    version: NamespaceVersion
    """The namespace's write version when it was read (any write changes it)."""
    keys: list[str]
    """Stored keys, sorted (so score ties break by key)."""
    entries: list[PreferenceEntry]
    """One per key, in the same order."""
    matrix: np.ndarray
    """One row per entry: the vector of `vector_text(entry)`."""
    index: EntryIndex | None = None
    """What each entry is, the term index, the dislikes' keyword groups (query-independent);
    derived from the entries when not given (a namespace read whole)."""

    def __post_init__(self) -> None:
        if self.index is None:
            object.__setattr__(self, "index", EntryIndex.build(self.keys, self.entries))

    @property
    def lookups(self) -> EntryIndex:
        assert self.index is not None  # set by __post_init__
        return self.index

    @classmethod
    def of_rows(cls, version: NamespaceVersion, rows: Sequence[VectorRow], dim: int) -> Self:
        """From rows whose vectors are all present."""
        ordered = sorted(rows, key=lambda row: row.key)
        return cls(
            version=version,
            keys=[row.key for row in ordered],
            entries=[row.entry for row in ordered],
            matrix=_stack([row.vector for row in ordered], dim),
        )

    def patched(self, changes: NamespaceChanges) -> Self:
        """This namespace with `changes` applied: the untouched rows' vectors and facts are
        copied, never re-read, parsed, stacked or derived again (a write changes one entry,
        not 10,000)."""
        import numpy as np

        touched = {row.key for row in changes.written} | set(changes.deleted)
        kept = [i for i, key in enumerate(self.keys) if key not in touched]
        keys = [*(self.keys[i] for i in kept), *(row.key for row in changes.written)]
        entries = [*(self.entries[i] for i in kept), *(row.entry for row in changes.written)]
        # Nearly sorted already (kept rows in order, a few written ones after): timsort's
        # runs make this linear.
        order = sorted(range(len(keys)), key=keys.__getitem__)
        stacked = np.concatenate(
            [np.asarray(kept, dtype=np.intp), len(self.keys) + np.arange(len(changes.written))]
        )
        source = stacked[np.asarray(order, dtype=np.intp)]
        keys = [keys[i] for i in order]
        entries = [entries[i] for i in order]
        fresh = _stack([row.vector for row in changes.written], self.matrix.shape[1])
        return type(self)(
            version=changes.version,
            keys=keys,
            entries=entries,
            matrix=_spliced(self.matrix, fresh, source),
            index=self.lookups.patched(
                keys,
                entries,
                source=source,
                written=[(row.key, row.entry) for row in changes.written],
                touched=touched,
            ),
        )


def _spliced(old: np.ndarray, fresh: np.ndarray, source: np.ndarray) -> np.ndarray:
    """Rows `source` of `old` stacked on `fresh` (indexes past `old` are `fresh`'s), copied
    run by run: one gather of 10,000 rows of 384 floats took 45 ms on the loaded 2-core
    machine, the few runs a write leaves take a copy's time."""
    import numpy as np

    out = np.empty((len(source), old.shape[1]), dtype=np.float32)
    if not len(source):
        return out
    breaks = np.flatnonzero((np.diff(source) != 1) | (source[1:] == len(old))) + 1
    starts = [0, *breaks.tolist()]
    ends = [*breaks.tolist(), len(source)]
    for start, end in zip(starts, ends, strict=True):
        first = int(source[start])
        rows = old if first < len(old) else fresh
        offset = first if first < len(old) else first - len(old)
        out[start:end] = rows[offset : offset + end - start]
    return out


def text_pieces(text: str) -> set[str]:
    """Every piece of `text` an entry's term could be: runs of up to `MAX_TERM_WORDS` Latin
    words (joined by a space and by a hyphen) and Chinese substrings of up to
    `MAX_TERM_HAN` characters. A 2,000-character message has at most ~20,000 of them,
    however many entries are stored."""
    folded = fold(text)
    pieces: set[str] = set()
    words = _LATIN_WORD.findall(folded)
    for start in range(len(words)):
        for end in range(start + 1, min(start + MAX_TERM_WORDS, len(words)) + 1):
            pieces.add(" ".join(words[start:end]))
            pieces.add("-".join(words[start:end]))
    for run in han_runs(folded):
        for start in range(len(run)):
            for end in range(start + 1, min(start + MAX_TERM_HAN, len(run)) + 1):
                pieces.add(run[start:end])
    # Whole whitespace-separated tokens too: "42码", "t恤" mix scripts.
    pieces.update(folded.split())
    return pieces


def _stack(vectors: Sequence[Vector | None], dim: int) -> np.ndarray:
    import numpy as np

    present = [vector for vector in vectors if vector is not None]
    if len(present) != len(vectors):
        raise ValueError("every row needs its vector before it is stacked")
    if not present:
        return np.zeros((0, dim), dtype=np.float32)
    return np.stack(present).astype(np.float32, copy=False)


class VectorRanking(ABC):
    """`rank_relevant`/`read_relevant` over rows a backend loads; reads embed only the query.

    A turn's read costs one small store read (the namespace's write version) when nothing
    was written since the last read: the parsed entries and their stacked vectors are kept
    in-process per (user, recipient), keyed by that version. Any write, by any process,
    bumps the version and records the keys it touched in the same transaction, so a read
    after a write fetches only those rows and patches the cached namespace; a reader whose
    version the change log no longer leads from (another epoch) reads the namespace whole."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        # One turn asks for the block, the profile and the exclude terms of the same query:
        # embed it once, not three times (the query embedding is most of a read's cost). The
        # agent hands in a QueryMemo already shared with recall; anyone else gets one here.
        self._query_embedder = embedder if isinstance(embedder, QueryMemo) else QueryMemo(embedder)
        self._domain_classifier: DomainClassifier | None = None
        self._prepared: OrderedDict[tuple[str, str], PreparedNamespace] = OrderedDict()
        self._prepared_lock = threading.Lock()
        self._domain_vectors: dict[str, Vector] = {}

    @property
    def _domains(self) -> DomainClassifier:
        """Made on the first scored read (a store opened to list entries needs none); racing
        threads may both make one, and either serves."""
        if self._domain_classifier is None:
            from cartwise.catalog.domain_classifier import DomainClassifier

            self._domain_classifier = DomainClassifier(self._query_embedder)
        return self._domain_classifier

    @abstractmethod
    def _recipients(self, user: str) -> list[str]:
        """Every namespace of the user that was ever written, `self` first."""

    @abstractmethod
    def _namespace_version(self, user: str, recipient: str) -> NamespaceVersion:
        """The namespace's current write version (epoch '' when it was never written)."""

    @abstractmethod
    def _vector_rows(self, user: str, recipient: str) -> tuple[NamespaceVersion, list[VectorRow]]:
        """The namespace's write version and every valid entry in it with its vector if it
        was made by this embedder, read in one consistent snapshot."""

    @abstractmethod
    def _changes_since(self, user: str, recipient: str, seq: int) -> NamespaceChanges:
        """The rows written and the keys deleted after write `seq` of the current epoch,
        with the version they lead to, in one consistent snapshot (a corrupt row counts as
        deleted: a full read skips it too)."""

    @abstractmethod
    def _store_vectors(
        self, user: str, recipient: str, rows: Sequence[tuple[VectorRow, Vector]]
    ) -> None:
        """Save re-embedded vectors, each only if its row's payload is still unchanged. Not a
        write of the namespace's content: the version stays."""

    def rank_relevant(
        self, user: str, query: str, k: int, *, recipient: str = SELF
    ) -> list[ScoredPreference]:
        return self._score_all(user, recipient, query)[: max(k, 0)]

    def read_relevant(
        self,
        user: str,
        query: str,
        *,
        recipient: str = SELF,
        k: int = 8,
        threshold: float = 0.8,
    ) -> list[PreferenceEntry]:
        return select_relevant(self._score_all(user, recipient, query), k, threshold)

    def _namespace(self, user: str, recipient: str) -> PreparedNamespace:
        """The namespace's entries and vector matrix: cached, patched with what changed
        since the cached version, or read whole."""
        check_user(user)
        check_recipient(recipient)
        cache_key = (user, recipient)
        version = self._namespace_version(user, recipient)
        with self._prepared_lock:
            cached = self._prepared.get(cache_key)
            if cached is not None:
                self._prepared.move_to_end(cache_key)
        if cached is not None and cached.version == version:
            return cached
        prepared = None
        if cached is not None and version.follows(cached.version):
            changes = self._changes_since(user, recipient, cached.version.seq)
            if changes.version.follows(cached.version):
                self._embed_stale(user, recipient, changes.written)
                prepared = cached.patched(changes)
        if prepared is None:
            version, rows = self._vector_rows(user, recipient)
            self._embed_stale(user, recipient, rows)
            prepared = PreparedNamespace.of_rows(version, rows, self.embedder.dim)
        with self._prepared_lock:
            current = self._prepared.get(cache_key)
            # A concurrent reader may have cached a newer version meanwhile: keep that one.
            if current is None or not current.version.follows(prepared.version):
                self._prepared[cache_key] = prepared
                self._prepared.move_to_end(cache_key)
            while len(self._prepared) > NAMESPACE_CACHE_SIZE:
                self._prepared.popitem(last=False)
        return prepared

    def _embed_stale(self, user: str, recipient: str, rows: Sequence[VectorRow]) -> None:
        """Model changed or rows written by an older recipe: embed them once, keep them."""
        stale = [row for row in rows if row.vector is None]
        if not stale:
            return
        logger.info("re-embedding %d preference vectors with %s", len(stale), self.embedder.name)
        fresh = self.embedder.embed_documents([vector_text(r.entry) for r in stale])
        for row, vector in zip(stale, fresh, strict=True):
            row.vector = vector
        self._store_vectors(user, recipient, list(zip(stale, fresh, strict=True)))

    def _domain_matrix(self, domains: Sequence[str]) -> Matrix:
        """The vectors of `domain_text(d)` for `domains`, each embedded once per process (a
        namespace has a few domains; racing threads may both embed one, and either serves)."""
        import numpy as np

        missing = [d for d in domains if d not in self._domain_vectors]
        if missing:
            fresh = self.embedder.embed_documents([domain_text(d) for d in missing])
            self._domain_vectors.update(zip(missing, fresh, strict=True))
        return np.stack([self._domain_vectors[d] for d in domains])

    def score_namespace(self, user: str, query: str, *, recipient: str = SELF) -> ScoredNamespace:
        import numpy as np

        prepared = self._namespace(user, recipient)
        if not prepared.entries:
            return ScoredNamespace.empty()
        query_vector = self._query_embedder.embed_query(query_start(query))
        # einsum, not `@`: OpenBLAS threads a large matrix-vector product, which costs more
        # than it saves on a busy machine (see DomainClassifier.read).
        scores = np.einsum("ij,j->i", prepared.matrix, query_vector)
        flags = prepared.lookups
        if flags.domains:
            # A scoped entry is as relevant as its domain (`domain_text`); its vector is its words.
            domain_scores = np.einsum(
                "ij,j->i", self._domain_matrix(flags.domains), query_vector
            ).astype(scores.dtype)
            by_index = np.concatenate((np.zeros(1, dtype=scores.dtype), domain_scores))
            scores = np.where(flags.domain_index > 0, by_index[flags.domain_index], scores)
        reading = self._domains.read(query, query_vector)
        # Each distinct domain is placed once per read, not once per entry; index 0 = global.
        in_scope = [1] + [_flag(self._domains.in_scope(d, reading)) for d in flags.domains]
        possibly = [1] + [_flag(self._domains.possibly_in_scope(d, reading)) for d in flags.domains]
        by_domain = np.array(in_scope, dtype=np.int8)
        possibly_by_domain = np.array(possibly, dtype=np.int8)
        return ScoredNamespace(
            entries=prepared.entries,
            scores=scores.astype(np.float32, copy=False),
            in_scope=by_domain[flags.domain_index],
            possibly_in_scope=possibly_by_domain[flags.domain_index],
            hard_dislike=flags.hard_dislike,
            dislike=flags.dislike,
            scoped=flags.domain_index > 0,
            domain_index=flags.domain_index,
            domain_in_scope=by_domain,
            domain_possibly_in_scope=possibly_by_domain,
            dislike_terms=flags.dislike_terms,
            own_vectors=prepared.matrix.__getitem__,
        )

    def named_in(
        self, user: str, text: str, *, slugs: Sequence[str] = (), limit: int = 32
    ) -> list[PreferenceEntry]:
        """A bounded, relevant slice of every namespace of the user: the entries `text`
        names (a keyword, the slug or its words occur in it) or whose slug is in `slugs`,
        plus each namespace's latest like; at most `limit` per namespace, named ones first.
        Looked up in the cached namespace's term index: its cost follows the text, not the
        number of stored entries."""
        check_user(user)
        pieces: set[str] | None = None  # a shopper with nothing stored needs none of them
        wanted = {fold(slug) for slug in slugs}
        chosen: list[PreferenceEntry] = []
        for recipient in self._recipients(user):
            prepared = self._namespace(user, recipient)
            if not prepared.entries:
                continue
            if pieces is None:
                pieces = text_pieces(text)
            positions = prepared.lookups.named(pieces, wanted)[:limit]
            latest = prepared.lookups.latest_like
            if latest is not None and latest not in positions and len(positions) < limit:
                positions.append(latest)
            chosen.extend(prepared.entries[i] for i in positions)
        return sort_entries(chosen)

    def _score_all(self, user: str, recipient: str, query: str) -> list[ScoredPreference]:
        """Every valid entry of the namespace scored against the query, best first."""
        return self.score_namespace(user, query, recipient=recipient).ranked()


def _flag(value: bool | None) -> int:
    return -1 if value is None else int(value)


def select_relevant(
    scored: Sequence[ScoredPreference], k: int, threshold: float
) -> list[PreferenceEntry]:
    """Every global entry, plus the top-k domain-scoped entries that apply to the query (see
    `ScoredPreference.applies`)."""
    global_entries = [s.entry for s in scored if not s.entry.domain]
    scoped = [s.entry for s in scored if s.entry.domain and s.applies(threshold)][:k]
    return [*global_entries, *scoped]
