"""The rules curator: one turn (the planner's output reused, never re-parsed) → CuratorOutput.

- Long-term upserts come from the planner's long_term stated preferences; keywords are every
  surface form the lexicon knows for the slug in both languages, so a Chinese "不要塑料" also
  filters an English "plastic" title.
- Supersede: a flip retires the opposite-polarity key of the same category and slug, in the
  same domain or where either side is global; a retraction retires every stored dislike of
  the slug (all domains) and drops the session constraint.
- Session: slots and session constraints from the planner, the reply's questions become open
  questions, answered ones are resolved; decisions_made only for operational facts.
- A price rejection ("这件超预算了", "too expensive") is never turned into a dislike: the
  planner extracts none from it, and rejected_options are folded in by item_picker, not here.
"""

from __future__ import annotations

from cartwise.memory.session_state import SessionPatch
from cartwise.memory.store import SELF, PreferenceEntry, Provenance
from cartwise.understanding.base import CuratorOutput, CuratorTurn, RecipientMemory, flipped_keys
from cartwise.understanding.rules import cues
from cartwise.understanding.rules.negation import split_clauses


def curate(turn: CuratorTurn) -> CuratorOutput:
    planner = turn.reading
    provenance = Provenance(source_turn=turn.source_turn, source_text=turn.user_message)
    entries: dict[str, list[PreferenceEntry]] = {}
    for stated in planner.stated:
        # Session and request scopes are never remembered across sessions.
        if stated.scope != "long_term":
            continue
        entry = PreferenceEntry(
            recipient=stated.recipient,
            polarity=stated.polarity,
            category=stated.category,
            domain=stated.domain,
            slug=stated.slug,
            strength=stated.strength,
            keywords=stated.keywords or [stated.slug.replace("-", " ")],
            provenance=provenance,
        )
        namespace = entries.setdefault(stated.recipient, [])
        if all(e.dedup_key != entry.dedup_key for e in namespace):
            namespace.append(entry)

    long_term = entries.pop(SELF, [])
    supersede = _supersede(long_term, turn.memory, planner.retracted)
    recipients = [
        RecipientMemory(
            recipient=recipient,
            long_term=upserts,
            supersede=_supersede(upserts, turn.recipient_memory.get(recipient, []), []),
        )
        for recipient, upserts in entries.items()
    ]

    session_keys = {c.key for c in turn.session.constraints}
    retracted_pairs = {_category_slug(key) for key in planner.retracted}
    flipped_pairs = {
        f"{c.category.value}:{c.slug}"
        for c in turn.session.constraints
        for s in planner.stated
        if s.slug == c.slug and s.polarity is not c.polarity
    }
    remove = sorted((retracted_pairs | flipped_pairs) & session_keys)
    patch = SessionPatch(
        category=planner.domain or None,
        current_intent=planner.current_intent or None,
        slots_patch=dict(planner.slots),
        constraints=list(planner.constraints),
        remove_constraints=remove,
        new_open_questions=list(turn.asked_questions),
        resolved_questions=list(planner.answered_questions),
        decisions_made=_decisions(turn.user_message),
    )
    return CuratorOutput(
        long_term=long_term, supersede=supersede, recipients=recipients, session_patch=patch
    )


def _supersede(
    upserts: list[PreferenceEntry], memory: list[PreferenceEntry], retracted: list[str]
) -> list[str]:
    """Keys of one namespace to retire: retractions, and what each upsert flips."""
    memory_keys = {entry.dedup_key for entry in memory}
    written = {entry.dedup_key for entry in upserts}
    retired = [key for key in retracted if key in memory_keys and key not in written]
    return list(dict.fromkeys([*retired, *flipped_keys(upserts, memory)]))


def _category_slug(key: str) -> str:
    parts = key.split(":")
    return f"{parts[-3]}:{parts[-1]}" if len(parts) == 4 else key


def _decisions(message: str) -> list[str]:
    """Operational facts in the shopper's own words ("用默认地址")."""
    lowered = message.lower()
    return [
        message[start:end].strip()
        for start, end in split_clauses(lowered)
        if cues.DECISION.search(lowered[start:end])
    ]
