"""What the llm engine asks the model for, and how an answer becomes engine output.

The wire schemas differ from `Reading`/`CuratorOutput` in one way that matters: the
model names stored facts by their fields (`PreferenceRef`), never by a key string, and it
never supplies provenance. Code derives every key. Every model forbids extra fields, so an
answer that supplies a `key`/`dedup_key` is rejected whole, like one with a wrong enum
value or a malformed slug.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cartwise.memory.session_state import SessionConstraint, SessionPatch
from cartwise.memory.store import (
    DOMAIN_PATTERN,
    SELF,
    SLUG_PATTERN,
    Category,
    Polarity,
    PreferenceEntry,
    Provenance,
    Strength,
    normalize_keywords,
)
from cartwise.understanding.acts.act import Act
from cartwise.understanding.base import CuratorOutput, CuratorTurn, RecipientMemory, flipped_keys
from cartwise.understanding.reading import (
    Followup,
    GiftContext,
    Intent,
    Language,
    Reading,
    Scope,
    SmallTalk,
    StatedPreference,
)

SLOT_NAME_PATTERN = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$")
KEY_FIELD_NAMES = frozenset({"key", "dedup_key"})


def _valid_slug(value: str) -> str:
    if not SLUG_PATTERN.fullmatch(value) or len(value) > 64:
        raise ValueError("slug must be lowercase ASCII words joined by hyphens")
    return value


def _valid_domain(value: str) -> str:
    if not DOMAIN_PATTERN.fullmatch(value) or len(value) > 48:
        raise ValueError("domain must be empty or lowercase ASCII like 'electronics'")
    return value


def _string_slots(value: Any) -> Any:
    """Models often write numbers for numeric slots; a number is a valid string value."""
    if isinstance(value, dict):
        return {
            name: str(v) if isinstance(v, int | float) and not isinstance(v, bool) else v
            for name, v in value.items()
        }
    return value


def _valid_slot_names(value: dict[str, str]) -> dict[str, str]:
    for name in value:
        if not SLOT_NAME_PATTERN.fullmatch(name):
            raise ValueError(f"slot names are snake_case English, got {name!r}")
    return value


class _Strict(BaseModel):
    # Field docstrings become descriptions in the JSON schema the model is given.
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class PreferenceRef(_Strict):
    """A stored long-term fact named by its fields, e.g. to retract or supersede it."""

    polarity: Polarity
    category: Category
    domain: str = ""
    """Empty when the fact is global (or the shopper did not say which domain)."""
    slug: str

    _slug = field_validator("slug")(_valid_slug)
    _domain = field_validator("domain")(_valid_domain)

    @property
    def key(self) -> str:
        return f"{self.polarity.value}:{self.category.value}:{self.domain}:{self.slug}"


class ConstraintAnswer(_Strict):
    """A this-session-only like/dislike."""

    polarity: Polarity
    """"不要X"/"no X" is ALWAYS a dislike."""
    category: Category
    slug: str
    """Lowercase ASCII, hyphen-separated, singular English."""
    strength: Strength = Strength.HARD
    keywords: list[str] = Field(default_factory=list)
    """Surface forms in every language seen."""

    _slug = field_validator("slug")(_valid_slug)

    def to_constraint(self) -> SessionConstraint:
        return SessionConstraint(
            polarity=self.polarity,
            category=self.category,
            slug=self.slug,
            strength=self.strength,
            keywords=self.keywords,
        )


class StatedAnswer(ConstraintAnswer):
    """A like or dislike stated in this message."""

    domain: str = ""
    """Product domain it was said about; empty when unsure or a safety matter."""
    strength: Strength = Strength.SOFT
    """hard: 不要/讨厌/绝不/过敏/never/hate/can't stand (filters); soft: 不太喜欢/尽量不要/
    not a fan/rather not/not really into (ranks lower)."""
    scope: Scope = "long_term"
    """long_term (always/never/allergic/vegan/"I don't eat X", or a plain statement);
    session (这次/这回/先/this time/today/for now; "only X" for this search); request
    ("除了X都行", "anything but X": this request only, never remembered)."""
    recipient: str = SELF
    """Whose taste: "self", or the canonical slug of the person it is about (mum, dad,
    wife, husband, girlfriend, boyfriend, son, daughter, friend-<name> ...). "我女朋友不喜欢
    紫色" → girlfriend; never the shopper's own."""

    _domain = field_validator("domain")(_valid_domain)
    _recipient = field_validator("recipient")(_valid_slug)


class LongTermAnswer(StatedAnswer):
    """A long-term preference to upsert (no scope: everything here is long-term)."""

    scope: Scope = "long_term"

    @field_validator("scope")
    @classmethod
    def _long_term_only(cls, value: Scope) -> Scope:
        if value != "long_term":
            raise ValueError("long_term entries cannot have session or request scope")
        return value


class ReadingAnswer(_Strict):
    """The reader's answer for one message: the `Reading`'s fields the model reads (specs, URLs and
    budget validity are parsed by code)."""

    # language, intent and query are required: an empty object is not an answer.
    language: Language
    intent: Intent
    domain: str = ""
    """Product domain when known, lowercase ASCII; empty when unsure."""
    query: str
    """The product and its positive qualities; negated terms removed."""
    product_type: str = ""
    """The product noun the message names (耳机, running shoes); empty when it names none."""
    followup: Followup | None = None
    """Set when the message builds on the shown results or the running search."""
    current_intent: str = ""
    slots: dict[str, str] = Field(default_factory=dict)
    """snake_case English names (size, budget_max, budget_min, budget_currency...), string values."""
    constraints: list[ConstraintAnswer] = Field(default_factory=list)
    stated: list[StatedAnswer] = Field(default_factory=list)
    retracted: list[PreferenceRef] = Field(default_factory=list)
    brands: list[str] = Field(default_factory=list)
    platforms: list[str] = Field(default_factory=list)
    answered_questions: list[str] = Field(default_factory=list)
    recipient: str = SELF
    """Whom this purchase is for: "self" or a recipient slug ("再给我妈买条围巾" → mum)."""
    acts: list[Act] = Field(default_factory=list)
    """Every dialogue act the message performs."""
    vague: bool = False
    """It asks for something but names no kind of product ("help me find something")."""
    gift: GiftContext | None = None
    """Set when the message is about a gift."""
    vague_budget: bool = False
    """A wish about price with no number ("别太贵", "not too expensive")."""
    small_talk: SmallTalk = ""
    """The kind of small talk, when the message is only that."""

    _domain = field_validator("domain")(_valid_domain)
    _recipient = field_validator("recipient")(_valid_slug)
    _slots_as_strings = field_validator("slots", mode="before")(_string_slots)
    _slot_names = field_validator("slots")(_valid_slot_names)

    def to_output(self, open_questions: list[str]) -> Reading:
        """Engine output; answered questions only count when they are really open."""
        return Reading(
            language=self.language,
            intent=self.intent,
            domain=self.domain,
            query=self.query.strip(),
            product_type=self.product_type.strip(),
            followup=self.followup,
            current_intent=self.current_intent.strip(),
            slots=self.slots,
            constraints=[c.to_constraint() for c in self.constraints],
            stated=[
                StatedPreference(
                    polarity=s.polarity,
                    category=s.category,
                    slug=s.slug,
                    domain=s.domain,
                    strength=s.strength,
                    keywords=normalize_keywords(s.keywords),
                    scope=s.scope,
                    recipient=s.recipient,
                )
                for s in self.stated
            ],
            retracted=list(dict.fromkeys(ref.key for ref in self.retracted)),
            brands=self.brands,
            platforms=self.platforms,
            answered_questions=[q for q in self.answered_questions if q in open_questions],
            recipient=self.recipient,
            acts=self.acts,
            vague=self.vague,
            gift=self.gift,
            vague_budget=self.vague_budget,
            small_talk=self.small_talk,
        )


class SessionPatchAnswer(_Strict):
    """The change to this session's state P_t."""

    current_intent: str | None = None
    """A full sentence, or null to keep the current one."""
    slots_patch: dict[str, str] = Field(default_factory=dict)
    constraints: list[ConstraintAnswer] = Field(default_factory=list)
    new_open_questions: list[str] = Field(default_factory=list)
    resolved_questions: list[str] = Field(default_factory=list)
    decisions_made: list[str] = Field(default_factory=list)
    """Only operational facts that fit nowhere else."""

    _slots_as_strings = field_validator("slots_patch", mode="before")(_string_slots)
    _slot_names = field_validator("slots_patch")(_valid_slot_names)


class CuratorAnswer(_Strict):
    """The curator's answer: long-term upserts, facts to retire, a session patch."""

    # Every part is required: an empty object is not an answer.
    long_term: list[LongTermAnswer]
    supersede: list[PreferenceRef]
    session_patch: SessionPatchAnswer

    def to_output(self, turn: CuratorTurn) -> CuratorOutput:
        """Engine output with code-derived keys and provenance."""
        provenance = Provenance(source_turn=turn.source_turn, source_text=turn.user_message)
        by_recipient: dict[str, list[PreferenceEntry]] = {}
        for item in self.long_term:
            by_recipient.setdefault(item.recipient, []).append(
                PreferenceEntry(
                    polarity=item.polarity,
                    category=item.category,
                    domain=item.domain,
                    slug=item.slug,
                    strength=item.strength,
                    keywords=item.keywords,
                    provenance=provenance,
                )
            )
        entries = by_recipient.pop(SELF, [])
        recipients = [
            RecipientMemory(
                recipient=recipient,
                long_term=upserts,
                supersede=flipped_keys(upserts, turn.recipient_memory.get(recipient, [])),
            )
            for recipient, upserts in by_recipient.items()
        ]
        patch = self.session_patch
        open_now = set(turn.session.open_questions)
        return CuratorOutput(
            long_term=entries,
            recipients=recipients,
            supersede=list(
                dict.fromkeys(
                    [
                        *_resolve_refs(self.supersede, turn.memory),
                        *_resolve_retracted(turn.reading.retracted, turn.memory),
                    ]
                )
            ),
            session_patch=SessionPatch(
                category=turn.reading.domain or None,
                current_intent=(patch.current_intent or "").strip() or None,
                slots_patch=patch.slots_patch,
                constraints=[c.to_constraint() for c in patch.constraints],
                new_open_questions=list(
                    dict.fromkeys([*patch.new_open_questions, *turn.asked_questions])
                ),
                resolved_questions=[
                    q
                    for q in dict.fromkeys(
                        [*patch.resolved_questions, *turn.reading.answered_questions]
                    )
                    if q in open_now
                ],
                decisions_made=list(dict.fromkeys(d.strip() for d in patch.decisions_made if d)),
            ),
        )


def _resolve_refs(refs: list[PreferenceRef], memory: list[PreferenceEntry]) -> list[str]:
    """Keys to retire. A ref without a domain ("actually plastic is fine") retires the fact
    in every domain it is stored under."""
    keys: list[str] = []
    for ref in refs:
        keys.append(ref.key)
        if not ref.domain:
            keys.extend(
                entry.dedup_key
                for entry in memory
                if (entry.polarity, entry.category, entry.slug)
                == (ref.polarity, ref.category, ref.slug)
            )
    return list(dict.fromkeys(keys))


def _resolve_retracted(keys: list[str], memory: list[PreferenceEntry]) -> list[str]:
    """The planner's retractions — full dedup_keys, or `category:slug` (any polarity, any
    domain) — as the stored keys they name."""
    resolved: list[str] = []
    for key in keys:
        parts = key.split(":")
        if len(parts) == 4:
            resolved.append(key)
        elif len(parts) == 2:
            category, slug = parts
            resolved.extend(
                entry.dedup_key
                for entry in memory
                if (entry.category.value, entry.slug) == (category, slug)
            )
    return resolved
