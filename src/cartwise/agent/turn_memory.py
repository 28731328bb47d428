"""What of a shopper's long-term memory one turn reads: a bounded, relevant slice.

The reader (planner and curator) looks at memory to take back what the shopper retracts
("我不讨厌塑料了"), to flip a like ("not anymore"), and to know which stored facts a new
statement supersedes. All of those concern entries the message names or the slugs the
turn states, plus the latest like — never the other 9,990 of a 10,000-entry memory. Handing
the reader everything made a turn at 10,000 entries parse and pass them all (and an LLM
reader would have put them all in its prompt). The slice is looked up in each namespace's
cached term index (`PreferenceStore.named_in`), so its cost follows the message, not the
memory. What a search filters and ranks on (every hard dislike, the relevant likes) is read
separately by `memory.injector.preference_context`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cartwise.memory.store import PreferenceEntry, PreferenceStore

SLICE_PER_NAMESPACE = 32
"""Entries one namespace contributes to a turn's slice at most."""


def turn_memory(
    store: PreferenceStore, user: str, message: str, *, slugs: Sequence[str] = ()
) -> list[PreferenceEntry]:
    """The entries of every namespace that `message` names or whose slug is in `slugs`,
    plus each namespace's latest like (bounded per namespace)."""
    return store.named_in(user, message, slugs=slugs, limit=SLICE_PER_NAMESPACE)


def retracted_slugs(keys: Iterable[str]) -> list[str]:
    """The slugs of retraction keys (`dislike:material::plastic`, `material:plastic`)."""
    return [key.rsplit(":", 1)[-1] for key in keys if key]


def merged(*slices: Iterable[PreferenceEntry]) -> list[PreferenceEntry]:
    """Slices joined, each entry once (by its key across namespaces), first seen first."""
    seen: dict[str, PreferenceEntry] = {}
    for entries in slices:
        for entry in entries:
            seen.setdefault(entry.qualified_key, entry)
    return list(seen.values())
