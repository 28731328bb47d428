"""Natural conversation sets: shoppers' messages with per-turn checks (the `natural_*` format).

One format for three files: the externally written development set
(`../shared/data/eval/natural_dev.jsonl`, whose README defines every check key) and our own
two splits, `data/natural_dev.jsonl` and `data/natural_test.jsonl`, written before the reader
was rebuilt. The test split is a report, never something to tune on.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from cartwise.errors import InvalidInput

Language = Literal["zh", "en", "mix"]
OwnSplit = Literal["dev", "test"]


def _lower_words(value: object) -> object:
    words = value if isinstance(value, list) else []
    if any(not isinstance(w, str) or w != w.lower() or not w for w in words):
        raise ValueError("words must be non-empty lower-case strings")
    return value


Words = Annotated[list[str], BeforeValidator(_lower_words), Field(min_length=1)]


class MemorySpec(BaseModel):
    """`[polarity, category, slug, strength?]`: a long-term entry a check looks for."""

    model_config = ConfigDict(frozen=True)

    polarity: Literal["like", "dislike"]
    category: str | None
    slugs: tuple[str, ...]
    strength: Literal["hard", "soft"] | None = None

    @classmethod
    def parse(cls, value: object) -> MemorySpec:
        if isinstance(value, MemorySpec):
            return value
        if not isinstance(value, list | tuple) or len(value) not in (3, 4):
            raise ValueError("a memory spec is [polarity, category, slug, strength?]")
        polarity, category, slug, *rest = value
        slugs = (slug,) if isinstance(slug, str) else tuple(slug)
        return cls(
            polarity=polarity,
            category=category,
            slugs=tuple(s.lower() for s in slugs),
            strength=rest[0] if rest else None,
        )


Spec = Annotated[MemorySpec, BeforeValidator(MemorySpec.parse)]


class StrengthSpec(BaseModel):
    """`[polarity, slug, strength]` of `lt_none_strength`."""

    model_config = ConfigDict(frozen=True)

    polarity: Literal["like", "dislike"]
    slug: str
    strength: Literal["hard", "soft"]

    @classmethod
    def parse(cls, value: object) -> StrengthSpec:
        if isinstance(value, StrengthSpec):
            return value
        if not isinstance(value, list | tuple) or len(value) != 3:
            raise ValueError("an lt_none_strength spec is [polarity, slug, strength]")
        polarity, slug, strength = value
        return cls(polarity=polarity, slug=str(slug).lower(), strength=strength)


StrengthEntry = Annotated[StrengthSpec, BeforeValidator(StrengthSpec.parse)]


class NaturalCheck(BaseModel):
    """One check object: every key that is set must hold on the output of turn `turn`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    turn: int
    products: Literal["nonempty", "empty"] | None = None
    min_products: int | None = Field(default=None, ge=1)
    title_each_any: Words | None = None
    title_none: Words | None = None
    max_price_base: float | None = Field(default=None, gt=0)
    sorted: Literal["asc"] | None = None
    cheaper_than_prev: Literal[True] | None = None
    no_overlap_prev: Literal[True] | None = None
    question: Literal[True] | None = None
    question_or_cheaper: Literal[True] | None = None
    gap: Literal[True] | None = None
    no_gap: Literal[True] | None = None
    recipient: str | list[str] | None = None
    recipient_self: Literal[True] | None = None
    no_search: Literal[True] | None = None
    reply_any: Words | None = None
    reply_none: Words | None = None
    names_cheapest: Words | None = None
    lt_has: list[Spec] | None = None
    lt_none: list[Spec] | None = None
    lt_none_strength: list[StrengthEntry] | None = None
    lt_empty: Literal[True] | None = None

    def set_keys(self) -> list[str]:
        """The check keys this object sets, in the order of the format."""
        return [name for name in type(self).model_fields if name != "turn" and self.is_set(name)]

    def is_set(self, key: str) -> bool:
        return getattr(self, key) is not None


class NaturalConversation(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    lang: Language
    kind: str
    turns: list[str] = Field(min_length=1)
    new_thread_then: str | None = None
    checks: list[NaturalCheck]

    @property
    def messages(self) -> list[str]:
        """The output sequence the checks index: the turns, then the new-thread message."""
        return [*self.turns, *([self.new_thread_then] if self.new_thread_then else [])]

    def turn_index(self, check: NaturalCheck) -> int:
        """The 0-based position `check.turn` names (a negative value counts from the end)."""
        return check.turn if check.turn >= 0 else len(self.messages) + check.turn


def own_set_path(split: OwnSplit) -> Path:
    return Path(str(resources.files("cartwise.eval").joinpath(f"data/natural_{split}.jsonl")))


def load_natural(path: Path) -> list[NaturalConversation]:
    """Every conversation of a `natural_*` JSON-lines file; InvalidInput names the first bad line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InvalidInput(f"cannot read the conversation set {path}: {exc.strerror}") from exc
    conversations: list[NaturalConversation] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            conversation = NaturalConversation.model_validate_json(line)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            raise InvalidInput(f"{path}:{number}: {where}: {first['msg']}") from None
        for check in conversation.checks:
            if not 0 <= conversation.turn_index(check) < len(conversation.messages):
                raise InvalidInput(
                    f"{path}:{number}: check turn {check.turn} is outside the conversation"
                )
        conversations.append(conversation)
    return conversations
