"""Safety words (`data/safety.yml`): the one list of words that make a refusal a safety
matter — an allergy, an intolerance, a health condition — which is always global and hard."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from cartwise.errors import ConfigurationError
from cartwise.vocabulary.files import data_file, words


@dataclass(frozen=True)
class SafetyWords:
    """Allergy words by where they stand relative to the thing refused, and health
    conditions."""

    before: tuple[str, ...]
    """Before the thing: "allergic to peanuts", "不能吃辣"."""
    after: tuple[str, ...]
    """After it: "a peanut allergy", "我对花生过敏"."""
    other: tuple[str, ...]
    """Stated without a place: "I'm allergic", "allergens"."""
    health: tuple[str, ...]

    def all(self) -> tuple[str, ...]:
        """Every safety word, once."""
        return tuple(dict.fromkeys((*self.before, *self.after, *self.other, *self.health)))


@cache
def safety_words() -> SafetyWords:
    """The safety words, read once per process."""
    data = data_file("safety")
    try:
        allergy = data["allergy"]
        return SafetyWords(
            words(allergy["before"], "safety allergy.before"),
            words(allergy["after"], "safety allergy.after"),
            words(allergy.get("other", []), "safety allergy.other"),
            words(data.get("health", []), "safety health"),
        )
    except (KeyError, TypeError, AttributeError) as exc:
        raise ConfigurationError(f"vocabulary/data/safety.yml is malformed: {exc}") from exc
