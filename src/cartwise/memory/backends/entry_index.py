"""`EntryIndex`: the query-independent lookups over one namespace's entries, patched by a write.

What a read selects on (hard dislike, dislike, domain), which entries a message names (the
term index), the dislikes' keywords by domain and strength, the latest like. All of it is
derived once when a namespace is read whole; a write then patches it with the rows it
touched. Rebuilding it from every entry after each write took ~150 ms of the next turn at
10,000 entries (folding every keyword again), for a write that changed one entry.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cartwise.memory.store import DislikeTerms, Polarity, PreferenceEntry, Strength
from cartwise.text import fold

if TYPE_CHECKING:
    import numpy as np

Group = tuple[str, bool]
"""(domain, hard): where a dislike applies and whether it filters."""


def entry_terms(entry: PreferenceEntry) -> frozenset[str]:
    """The folded forms a text names an entry by: its keywords, its slug, the slug's words."""
    return frozenset(
        {
            fold(entry.slug),
            fold(entry.slug.replace("-", " ")),
            *(fold(word) for word in entry.keywords),
        }
        - {""}
    )


def _group(entry: PreferenceEntry) -> Group | None:
    if entry.polarity is not Polarity.DISLIKE:
        return None
    return entry.domain, entry.strength is Strength.HARD


@dataclass(frozen=True)
class _Rows:
    """Per-entry facts as arrays aligned with the namespace's sorted keys."""

    hard_dislike: np.ndarray
    dislike: np.ndarray
    like: np.ndarray
    updated: np.ndarray
    """`provenance.updated_at` as a POSIX timestamp."""
    domain_code: np.ndarray
    """Code of the entry's domain in `EntryIndex.domain_codes`."""
    slug_code: np.ndarray
    """Code of the entry's slug in `EntryIndex.slug_codes`."""

    @classmethod
    def of(
        cls, entries: Sequence[PreferenceEntry], domains: dict[str, int], slugs: dict[str, int]
    ) -> _Rows:
        """Facts of `entries`; codes of new domains and slugs are added to the tables."""
        import numpy as np

        return cls(
            hard_dislike=np.array([e.is_hard_dislike for e in entries], dtype=np.bool_),
            dislike=np.array([e.polarity is Polarity.DISLIKE for e in entries], dtype=np.bool_),
            like=np.array([e.polarity is Polarity.LIKE for e in entries], dtype=np.bool_),
            updated=np.array(
                [e.provenance.updated_at.timestamp() for e in entries], dtype=np.float64
            ),
            domain_code=np.array(
                [domains.setdefault(e.domain, len(domains)) for e in entries], dtype=np.intp
            ),
            slug_code=np.array(
                [slugs.setdefault(e.slug, len(slugs)) for e in entries], dtype=np.int32
            ),
        )

    def joined(self, fresh: _Rows, source: np.ndarray) -> _Rows:
        """Rows `source` of these stacked on `fresh` (indexes past these are `fresh`'s)."""
        import numpy as np

        def join(old: np.ndarray, new: np.ndarray) -> np.ndarray:
            joined: np.ndarray = np.concatenate([old, new])[source]
            return joined

        return _Rows(
            hard_dislike=join(self.hard_dislike, fresh.hard_dislike),
            dislike=join(self.dislike, fresh.dislike),
            like=join(self.like, fresh.like),
            updated=join(self.updated, fresh.updated),
            domain_code=join(self.domain_code, fresh.domain_code),
            slug_code=join(self.slug_code, fresh.slug_code),
        )


class EntryIndex:
    """Lookups over one namespace version's entries (`keys` sorted, `entries` aligned)."""

    def __init__(
        self,
        keys: list[str],
        entries: list[PreferenceEntry],
        rows: _Rows,
        *,
        domain_codes: dict[str, int],
        slug_codes: dict[str, int],
        term_keys: dict[str, frozenset[str]],
        row_terms: dict[str, frozenset[str]],
        groups: dict[Group, dict[str, int]],
        bare: dict[Group, frozenset[str]],
    ) -> None:
        import numpy as np

        self._keys, self._entries, self._rows = keys, entries, rows
        self._domain_codes, self._slug_codes = domain_codes, slug_codes
        self._term_keys, self._row_terms = term_keys, row_terms
        self._groups, self._bare = groups, bare
        self._positions = {key: position for position, key in enumerate(keys)}
        used = set(rows.domain_code.tolist())
        present = sorted({name for name, code in domain_codes.items() if code in used} - {""})
        self.domains: list[str] = present
        """The distinct non-empty domains of the namespace."""
        index_of = {name: n + 1 for n, name in enumerate(present)} | {"": 0}
        lookup = np.zeros(max(len(domain_codes), 1), dtype=np.intp)
        for name, code in domain_codes.items():
            lookup[code] = index_of.get(name, 0)
        self.domain_index: np.ndarray = lookup[rows.domain_code]
        """Per entry: 0 for a global entry, else 1 + its domain's position in `domains`."""
        self.hard_dislike: np.ndarray = rows.hard_dislike
        self.dislike: np.ndarray = rows.dislike
        likes = np.flatnonzero(rows.like)
        self.latest_like: int | None = (
            int(likes[np.argmax(rows.updated[likes])]) if likes.size else None
        )
        """The most recently written like ("not anymore" takes it back), None without likes."""
        self.dislike_terms = DislikeTerms(
            groups={
                (index_of[domain], hard): tuple(words)
                for (domain, hard), words in groups.items()
                if words and domain in index_of
            },
            bare={
                (index_of[domain], hard): tuple(sorted(self._positions[k] for k in keys_))
                for (domain, hard), keys_ in bare.items()
                if keys_ and domain in index_of
            },
            slug_codes=rows.slug_code,
        )
        """The dislikes' keywords by domain and strength: what a read filters and demotes on."""

    @classmethod
    def build(cls, keys: list[str], entries: list[PreferenceEntry]) -> EntryIndex:
        """Everything derived from every entry (a namespace read whole)."""
        domain_codes: dict[str, int] = {}
        slug_codes: dict[str, int] = {}
        rows = _Rows.of(entries, domain_codes, slug_codes)
        term_keys: dict[str, set[str]] = {}
        row_terms: dict[str, frozenset[str]] = {}
        groups: dict[Group, dict[str, int]] = {}
        bare: dict[Group, frozenset[str]] = {}
        for key, entry in zip(keys, entries, strict=True):
            row_terms[key] = terms = entry_terms(entry)
            for term in terms:
                term_keys.setdefault(term, set()).add(key)
            _count(groups, bare, key, entry, +1)
        return cls(
            keys,
            entries,
            rows,
            domain_codes=domain_codes,
            slug_codes=slug_codes,
            term_keys={term: frozenset(found) for term, found in term_keys.items()},
            row_terms=row_terms,
            groups=groups,
            bare=bare,
        )

    def patched(
        self,
        keys: list[str],
        entries: list[PreferenceEntry],
        *,
        source: np.ndarray,
        written: Sequence[tuple[str, PreferenceEntry]],
        touched: Iterable[str],
    ) -> EntryIndex:
        """The index of the next version: row n of `keys`/`entries` is row `source[n]` of
        this version's rows stacked on the `written` ones; `touched` are the keys written
        or deleted. Only the written rows are derived again."""
        domain_codes, slug_codes = dict(self._domain_codes), dict(self._slug_codes)
        fresh = _Rows.of([entry for _, entry in written], domain_codes, slug_codes)
        term_keys, row_terms = dict(self._term_keys), dict(self._row_terms)
        groups = dict(self._groups)
        bare: dict[Group, frozenset[str]] = dict(self._bare)
        copied: set[Group] = set()

        def own(group: Group) -> None:
            # Groups are shared with the version this one is patched from: copy on write.
            if group not in copied:
                groups[group] = dict(groups.get(group, {}))
                copied.add(group)

        old = {
            key: self._entries[self._positions[key]] for key in touched if key in self._positions
        }
        for key, entry in old.items():
            for term in row_terms.pop(key, frozenset()):
                left = term_keys[term] - {key}
                if left:
                    term_keys[term] = left
                else:
                    del term_keys[term]
            if (group := _group(entry)) is not None:
                own(group)
            _count(groups, bare, key, entry, -1)
        for key, entry in written:
            row_terms[key] = terms = entry_terms(entry)
            for term in terms:
                term_keys[term] = term_keys.get(term, frozenset()) | {key}
            if (group := _group(entry)) is not None:
                own(group)
            _count(groups, bare, key, entry, +1)
        return EntryIndex(
            keys,
            entries,
            self._rows.joined(fresh, source),
            domain_codes=domain_codes,
            slug_codes=slug_codes,
            term_keys=term_keys,
            row_terms=row_terms,
            groups={group: words for group, words in groups.items() if words},
            bare={group: found for group, found in bare.items() if found},
        )

    def named(self, pieces: set[str], slugs: set[str]) -> list[int]:
        """Positions of the entries one of `pieces` names or whose slug is in `slugs`."""
        found = {key for piece in pieces | slugs for key in self._term_keys.get(piece, ())}
        return sorted(self._positions[key] for key in found)


def _count(
    groups: dict[Group, dict[str, int]],
    bare: dict[Group, frozenset[str]],
    key: str,
    entry: PreferenceEntry,
    step: int,
) -> None:
    """Add (`step` +1) or take away (-1) a dislike's keywords in its group's counts, or its
    key among the group's keyword-less dislikes. The group's dict must be this version's."""
    group = _group(entry)
    if group is None:
        return
    if not entry.keywords:
        found = set(bare.get(group, ()))
        if step > 0:
            found.add(key)
        else:
            found.discard(key)
        bare[group] = frozenset(found)
        return
    counts = groups.setdefault(group, {})
    for word in dict.fromkeys(entry.keywords):
        left = counts.get(word, 0) + step
        if left > 0:
            counts[word] = left
        else:
            counts.pop(word, None)
