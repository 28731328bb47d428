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
from cartwise.memory.store import PreferenceEntry, Provenance
from cartwise.understanding.base import CuratorOutput, CuratorTurn
from cartwise.understanding.rules import cues
from cartwise.understanding.rules.negation import split_clauses


def curate(turn: CuratorTurn) -> CuratorOutput:
    planner = turn.planner
    provenance = Provenance(source_turn=turn.source_turn, source_text=turn.user_message)
    long_term: list[PreferenceEntry] = []
    for stated in planner.stated:
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
        if all(e.dedup_key != entry.dedup_key for e in long_term):
            long_term.append(entry)

    # A retraction takes back the turn's recipient's preference; a flip only ever retires
    # the same recipient's opposite (mum disliking what the shopper likes is no flip).
    memory_keys = {e.dedup_key for e in turn.memory if e.recipient == planner.recipient}
    supersede: list[str] = [key for key in planner.retracted if key in memory_keys]
    for entry in long_term:
        for old in turn.memory:
            flipped = (
                old.recipient == entry.recipient
                and old.polarity is entry.polarity.opposite
                and old.category is entry.category
                and old.slug == entry.slug
                and (old.domain == entry.domain or not old.domain or not entry.domain)
            )
            if flipped:
                supersede.append(old.dedup_key)
    new_keys = {e.dedup_key for e in long_term}
    supersede = [k for k in dict.fromkeys(supersede) if k not in new_keys]

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
    return CuratorOutput(long_term=long_term, supersede=supersede, session_patch=patch)


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
