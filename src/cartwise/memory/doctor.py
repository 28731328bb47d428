"""Finds and repairs polluted preference memory, in either backend.

The successor of the seed's one-off clean-up script. It reads rows raw (through a backend's
`raw_rows`) because what it looks for cannot pass through the validated API:

- invalid:   a row that no longer validates (bad enum, bad slug, broken JSON);
- duplicate: two rows holding the same fact (same recipient and derived dedup_key) — only
  corruption or a hand edit makes that possible, since writes key rows by the derived key;
- conflict:  a like and a dislike of the same category/domain/slug side by side, in one
  recipient's namespace (mum disliking what the shopper likes is no conflict);
- misfiled:  a valid row stored under a key or a recipient namespace other than its own
  (`get` by its real key would miss it).

Keys in the report are qualified by recipient (`mum/dislike:color::purple`); the shopper's
own stay bare.

`repair` drops invalid rows, merges duplicates (keywords united, newest wins the rest) and
keeps the newer side of each conflict, then swaps the whole cleaned memory in atomically.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, Field

from cartwise.memory.backends.common import CorruptRow, RawRow, parse_entry, sort_entries
from cartwise.memory.store import PreferenceEntry, qualify_key


@runtime_checkable
class RawPreferenceAccess(Protocol):
    """The raw hooks both backends offer to doctor and import, and to nothing else."""

    def raw_rows(self, user: str, *, recipient: str | None = None) -> list[RawRow]: ...

    def replace_all(self, user: str, entries: Sequence[PreferenceEntry]) -> None: ...


class InvalidRow(BaseModel):
    """A stored row that fails validation."""

    key: str
    """The key the row is stored under."""
    reason: str
    """The first validation error."""


class DoctorReport(BaseModel):
    """What doctor found for one user (and, after `--fix`, what it kept)."""

    user: str
    rows: int
    """Rows stored before any repair."""
    invalid: list[InvalidRow] = Field(default_factory=list)
    duplicates: list[str] = Field(default_factory=list)
    """dedup_keys held by more than one row."""
    conflicts: list[tuple[str, str]] = Field(default_factory=list)
    """(like key, dislike key) pairs for one category/domain/slug."""
    misfiled: list[str] = Field(default_factory=list)
    """Stored keys that differ from the derived dedup_key of the row they hold."""
    fixed: bool = False
    kept: int | None = None
    """Entries left after the repair."""

    @property
    def healthy(self) -> bool:
        return not (self.invalid or self.duplicates or self.conflicts or self.misfiled)


def diagnose(store: RawPreferenceAccess, user: str) -> DoctorReport:
    report, _ = _examine(store.raw_rows(user), user)
    return report


def repair(store: RawPreferenceAccess, user: str) -> DoctorReport:
    """Diagnose, and when anything is wrong replace the memory with its cleaned form."""
    rows = store.raw_rows(user)
    report, cleaned = _examine(rows, user)
    if report.healthy:
        return report.model_copy(update={"kept": len(cleaned)})
    store.replace_all(user, cleaned)
    return report.model_copy(update={"fixed": True, "kept": len(cleaned)})


def _examine(rows: Sequence[RawRow], user: str) -> tuple[DoctorReport, list[PreferenceEntry]]:
    invalid: list[InvalidRow] = []
    misfiled: list[str] = []
    by_key: dict[str, list[PreferenceEntry]] = {}
    for row in rows:
        stored_key = qualify_key(row.recipient, row.key)
        try:
            entry = parse_entry(row.payload)
        except CorruptRow as exc:
            invalid.append(InvalidRow(key=stored_key, reason=str(exc)))
            continue
        by_key.setdefault(entry.qualified_key, []).append(entry)
        if stored_key != entry.qualified_key:
            misfiled.append(stored_key)

    duplicates = sorted(key for key, group in by_key.items() if len(group) > 1)
    merged = {key: _merge(group) for key, group in by_key.items()}

    conflicts: list[tuple[str, str]] = []
    for key, entry in sorted(merged.items()):
        twin = merged.get(qualify_key(entry.recipient, entry.opposite_key))
        if entry.polarity.value == "like" and twin is not None:
            conflicts.append((key, twin.qualified_key))
    for like_key, dislike_key in conflicts:
        like, dislike = merged[like_key], merged[dislike_key]
        # The newer statement is what the shopper means now; on a tie the dislike wins,
        # because wrongly keeping a like would let the refused thing into the user vector.
        loser = (
            like_key if like.provenance.updated_at <= dislike.provenance.updated_at else dislike_key
        )
        del merged[loser]

    report = DoctorReport(
        user=user,
        rows=len(rows),
        invalid=invalid,
        duplicates=duplicates,
        conflicts=conflicts,
        misfiled=misfiled,
    )
    return report, sort_entries(list(merged.values()))


def _merge(group: Sequence[PreferenceEntry]) -> PreferenceEntry:
    ordered = sorted(group, key=lambda e: e.provenance.updated_at)
    result = ordered[0]
    for newer in ordered[1:]:
        result = result.merged_with(newer)
    return result
