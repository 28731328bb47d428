"""Voice cues (`data/voices.yml`): the words that say a stretch of a message is not the
shopper's own standing preference — quoted, pasted, supposed, revoked, or someone else's."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from cartwise.errors import ConfigurationError
from cartwise.vocabulary.files import data_file, words

VOICE_GROUPS = (
    "quoting",
    "quote_marks",
    "listing",
    "hypothetical",
    "past",
    "revocation",
    "continuing",
    "people",
    "speech",
    "third_person",
)


@dataclass(frozen=True)
class VoiceCues:
    """One tuple of surface forms per group of `data/voices.yml` (its header says what each
    group means)."""

    quoting: tuple[str, ...]
    quote_marks: tuple[str, ...]
    listing: tuple[str, ...]
    hypothetical: tuple[str, ...]
    past: tuple[str, ...]
    revocation: tuple[str, ...]
    continuing: tuple[str, ...]
    people: tuple[str, ...]
    speech: tuple[str, ...]
    third_person: tuple[str, ...]


@cache
def voice_cues() -> VoiceCues:
    """The voice cues, read once per process."""
    data = data_file("voices")
    try:
        return VoiceCues(**{group: words(data[group], f"voices {group}") for group in VOICE_GROUPS})
    except (KeyError, TypeError) as exc:
        raise ConfigurationError(f"vocabulary/data/voices.yml is malformed: {exc}") from exc
