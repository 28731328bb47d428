"""Cross-checks of an LLM answer against the rules engine's reading of the same message.

The failure models are known for: a model labels "不要X" ("no X") a *like*; X then bypasses
the hard filter and enters the user vector. The rules engine's negation scopes are exact,
so when it saw a slug inside a negation and the model said like, the entry is corrected to
a dislike. The other guards:
- safety statements (allergies) are forced global and hard;
- a refused term left in the search query is replaced by the rules query (an embedding
  hears "塑料" in "不要塑料");
- a budget or size "preference" that is this turn's slot is dropped, and a long-term entry
  the rules engine read as this-session-only becomes a session constraint;
- a long-term entry naming nothing the shopper said is dropped, and so is a brand dislike
  in a price or stock complaint ("这件超预算了", "小米这款太贵了");
- whose: a preference the rules engine attributed to a recipient ("我女朋友不喜欢紫色") is
  never the shopper's own — it moves to that recipient; the purchase's recipient the rules
  engine found stands when the model says "self";
- a this-request exclusion ("除了小米都行") is never remembered: scope `request`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field, replace

from cartwise.memory.session_state import SessionConstraint
from cartwise.memory.store import (
    SELF,
    Category,
    Polarity,
    PreferenceEntry,
    Strength,
    normalize_keywords,
)
from cartwise.understanding.base import CuratorOutput, RecipientMemory
from cartwise.understanding.reading import Reading, StatedPreference
from cartwise.vocabulary import matcher

# A complaint about price or stock is about that one item, never about its brand: "too
# expensive" must not become a standing dislike of the brand.
PRICE_OR_STOCK_CUE = re.compile(
    r"超预算|超出预算|太贵|贵了|价格太高|缺货|没货|over (?:my |the )?budget|too expensive|"
    r"too pricey|out of stock|sold out",
    re.IGNORECASE,
)


def _says_safety(message: str) -> bool:
    """Whether the message states an allergy, an intolerance or a health condition (the
    vocabulary's safety words)."""
    return bool(matcher("safety").find(message))


@dataclass(frozen=True)
class RulesReading:
    """What the rules engine found in the message: slugs with their surface forms."""

    negated: dict[str, frozenset[str]]
    """Slugs the rules engine saw inside a negation scope → their casefolded keywords."""
    seen: dict[str, list[str]]
    """Every slug it found (any polarity) → its keywords in first-seen order."""
    session_only: frozenset[str] = frozenset()
    """Slugs it found only with this-session scope ("这次不要黑色的")."""
    slot_values: frozenset[str] = frozenset()
    """Casefolded values of the slots it found (a budget, a size)."""
    query: str = ""
    """Its search query, negated terms already removed."""
    holders: dict[str, str] = field(default_factory=dict)
    """Slugs it attributed to a recipient (not the shopper) → that recipient."""
    request_only: frozenset[str] = frozenset()
    """Slugs it read as excluded for this request only ("除了小米都行")."""
    recipient: str = SELF
    """Whom it read the purchase to be for."""

    @classmethod
    def from_planner(cls, planner: Reading) -> RulesReading:
        negated: dict[str, set[str]] = {}
        seen: dict[str, list[str]] = {}
        items: Iterable[StatedPreference | SessionConstraint] = [
            *planner.stated,
            *planner.constraints,
        ]
        for item in items:
            seen.setdefault(item.slug, [])
            seen[item.slug] = normalize_keywords([*seen[item.slug], *item.keywords])
            if item.polarity is Polarity.DISLIKE:
                negated.setdefault(item.slug, set()).update(k.casefold() for k in item.keywords)
        long_term = {s.slug for s in planner.stated if s.scope == "long_term"}
        session = {s.slug for s in planner.stated if s.scope == "session"}
        session |= {c.slug for c in planner.constraints}
        request = {s.slug for s in planner.stated if s.scope == "request"}
        return cls(
            holders={s.slug: s.recipient for s in planner.stated if s.recipient != SELF},
            request_only=frozenset(request - long_term - session),
            recipient=planner.recipient,
            negated={s: frozenset(k) for s, k in negated.items()},
            seen=seen,
            session_only=frozenset(session - long_term),
            slot_values=frozenset(v.casefold() for v in planner.slots.values() if v),
            query=planner.query,
        )

    def with_negated(self, slugs: Iterable[str]) -> RulesReading:
        """This reading plus slugs known to sit inside a negation scope."""
        negated = dict(self.negated)
        for slug in slugs:
            negated.setdefault(slug, frozenset())
        return replace(self, negated=negated)

    def is_slot(self, entry: PreferenceEntry, extra_slot_values: frozenset[str]) -> bool:
        """A budget or size "preference" that is really a slot value of this turn."""
        if entry.category not in (Category.BUDGET, Category.SIZE):
            return False
        words = {entry.slug, *(k.casefold() for k in entry.keywords)}
        return bool(words & (self.slot_values | extra_slot_values))

    def is_negated(self, slug: str, keywords: Iterable[str]) -> bool:
        if slug in self.negated:
            return True
        words = {k.casefold() for k in keywords}
        return any(words & surface for surface in self.negated.values())


@dataclass
class GuardReport:
    """What the guards changed in one answer (for counters and logs)."""

    polarity_corrections: int = 0
    safety_corrections: int = 0
    scope_corrections: int = 0
    query_corrections: int = 0
    recipient_corrections: int = 0
    dropped_ungrounded: int = 0
    corrected_slugs: list[str] = field(default_factory=list)


def guard_planner(
    planner: Reading, reading: RulesReading, message: str, report: GuardReport
) -> Reading:
    """Correct negated likes and unsafe safety statements in a planner answer."""
    safety = _says_safety(message)
    stated: list[StatedPreference] = []
    for item in planner.stated:
        update: dict[str, object] = {}
        if item.polarity is Polarity.LIKE and reading.is_negated(item.slug, item.keywords):
            update["polarity"] = Polarity.DISLIKE
            update["strength"] = Strength.HARD
            report.polarity_corrections += 1
            report.corrected_slugs.append(item.slug)
        if item.scope == "long_term" and item.slug in reading.session_only and not safety:
            update["scope"] = "session"
            report.scope_corrections += 1
        if item.scope != "request" and item.slug in reading.request_only and not safety:
            update["scope"] = "request"
            report.scope_corrections += 1
        holder = reading.holders.get(item.slug)
        if item.recipient == SELF and holder is not None:
            update["recipient"] = holder
            report.recipient_corrections += 1
        polarity = update.get("polarity", item.polarity)
        strength = update.get("strength", item.strength)
        if (
            safety
            and polarity is Polarity.DISLIKE
            and (item.domain or strength is not Strength.HARD)
        ):
            update.update(domain="", strength=Strength.HARD, scope="long_term")
            report.safety_corrections += 1
        stated.append(item.model_copy(update=update) if update else item)
    constraints = _guard_constraints(planner.constraints, reading, report)
    query = planner.query
    dislikes: list[StatedPreference | SessionConstraint] = [
        *(item for item in stated if item.polarity is Polarity.DISLIKE),
        *(item for item in constraints if item.polarity is Polarity.DISLIKE),
    ]
    refused = [
        *(word for surface in reading.negated.values() for word in surface),
        *(keyword for item in dislikes for keyword in item.keywords),
    ]
    if _mentions_any(query, refused):
        # A refused term in the query would be embedded as if wanted (negation collapse):
        # the rules engine's query has negated terms removed by construction.
        query = reading.query
        report.query_corrections += 1
    recipient = planner.recipient
    if recipient == SELF and reading.recipient != SELF:
        recipient = reading.recipient
        report.recipient_corrections += 1
    return planner.model_copy(
        update={
            "stated": _unique(
                stated, lambda s: (s.polarity, s.category, s.domain, s.slug, s.recipient)
            ),
            "constraints": constraints,
            "query": query,
            "recipient": recipient,
        }
    )


def _mentions_any(text: str, words: Iterable[str]) -> bool:
    """Whole-word match for ASCII words (so "abs" is not found in "absorbent"), substring
    match for CJK."""
    folded = text.casefold()
    for word in {w.casefold().strip() for w in words}:
        if not word:
            continue
        if word.isascii():
            if re.search(rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9])", folded):
                return True
        elif word in folded:
            return True
    return False


def guard_curator(
    output: CuratorOutput,
    reading: RulesReading,
    message: str,
    report: GuardReport,
    *,
    planner_slots: Mapping[str, str],
) -> CuratorOutput:
    """Correct negated likes, force safety entries global+hard, drop ungrounded entries,
    and never supersede the key an entry of this same answer writes."""
    safety = _says_safety(message)
    price_complaint = bool(PRICE_OR_STOCK_CUE.search(message))
    folded_message = message.casefold()
    slot_values = frozenset(
        v.casefold()
        for v in [*output.session_patch.slots_patch.values(), *planner_slots.values()]
        if v
    )
    entries: dict[str, PreferenceEntry] = {}
    moved: list[SessionConstraint] = []
    to_recipients: dict[str, list[PreferenceEntry]] = {}
    for entry in output.long_term:
        if entry.slug in reading.request_only and not safety:
            # "除了小米都行" excludes for this request: never remembered.
            report.scope_corrections += 1
            continue
        holder = reading.holders.get(entry.slug)
        if holder is not None:
            # Someone else's taste is never the shopper's own memory.
            to_recipients.setdefault(holder, []).append(entry)
            report.recipient_corrections += 1
            continue
        if not _grounded(entry, folded_message, reading) or (
            price_complaint
            and entry.category is Category.BRAND
            and entry.polarity is Polarity.DISLIKE
            and not reading.is_negated(entry.slug, entry.keywords)
        ):
            report.dropped_ungrounded += 1
            continue
        if reading.is_slot(entry, slot_values):
            # "这次预算500" is a session slot (the patch carries it), never a preference.
            report.scope_corrections += 1
            continue
        if entry.slug in reading.session_only and not safety:
            moved.append(_as_constraint(entry))
            report.scope_corrections += 1
            continue
        update: dict[str, object] = {}
        if entry.polarity is Polarity.LIKE and reading.is_negated(entry.slug, entry.keywords):
            update.update(polarity=Polarity.DISLIKE, strength=Strength.HARD)
            report.polarity_corrections += 1
            report.corrected_slugs.append(entry.slug)
        polarity = update.get("polarity", entry.polarity)
        strength = update.get("strength", entry.strength)
        if (
            safety
            and polarity is Polarity.DISLIKE
            and (entry.domain or strength is not Strength.HARD)
        ):
            update.update(domain="", strength=Strength.HARD)
            report.safety_corrections += 1
        known = reading.seen.get(entry.slug, [])
        update["keywords"] = normalize_keywords([*entry.keywords, *known])
        # Rebuilt through validation, so a corrected entry is as checked as an original.
        fixed = PreferenceEntry.model_validate(
            {**entry.model_dump(exclude={"dedup_key"}), **update}
        )
        previous = entries.get(fixed.dedup_key)
        entries[fixed.dedup_key] = previous.merged_with(fixed) if previous else fixed
    written = set(entries)
    recipients = {group.recipient: group for group in output.recipients}
    for holder, moved_entries in to_recipients.items():
        group = recipients.get(holder, RecipientMemory(recipient=holder))
        keys = {e.dedup_key for e in group.long_term}
        extra = [e for e in moved_entries if e.dedup_key not in keys]
        recipients[holder] = group.model_copy(update={"long_term": [*group.long_term, *extra]})
    patch = output.session_patch.model_copy(
        update={
            "constraints": _guard_constraints(
                [*output.session_patch.constraints, *moved], reading, report
            )
        }
    )
    return CuratorOutput(
        long_term=list(entries.values()),
        supersede=[key for key in output.supersede if key not in written],
        recipients=list(recipients.values()),
        session_patch=patch,
    )


def _guard_constraints(
    constraints: list[SessionConstraint], reading: RulesReading, report: GuardReport
) -> list[SessionConstraint]:
    guarded: dict[str, SessionConstraint] = {}
    for constraint in constraints:
        if constraint.polarity is Polarity.LIKE and reading.is_negated(
            constraint.slug, constraint.keywords
        ):
            constraint = SessionConstraint(
                polarity=Polarity.DISLIKE,
                category=constraint.category,
                slug=constraint.slug,
                strength=Strength.HARD,
                keywords=constraint.keywords,
            )
            report.polarity_corrections += 1
            report.corrected_slugs.append(constraint.slug)
        guarded[constraint.key] = constraint
    return list(guarded.values())


def _as_constraint(entry: PreferenceEntry) -> SessionConstraint:
    return SessionConstraint(
        polarity=entry.polarity,
        category=entry.category,
        slug=entry.slug,
        strength=entry.strength,
        keywords=entry.keywords,
    )


def _grounded(entry: PreferenceEntry, folded_message: str, reading: RulesReading) -> bool:
    """The entry names something the shopper actually said."""
    if entry.slug in reading.seen:
        return True
    surfaces = [entry.slug.replace("-", " "), entry.slug, *entry.keywords]
    return any(word.casefold() in folded_message for word in surfaces if word.strip())


def _unique(
    items: list[StatedPreference], identity: Callable[[StatedPreference], Hashable]
) -> list[StatedPreference]:
    seen: set[Hashable] = set()
    out: list[StatedPreference] = []
    for item in items:
        key = identity(item)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out
