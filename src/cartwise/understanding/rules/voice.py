"""Whose words: for each clause of a message, whether it is the shopper's own standing word
or something that must not become their memory.

`read_voices(text, clauses, mentions, buying_for=...)` → one `Voice` per clause:

- `own`: the shopper speaking for themself (or for a recipient the planner already named);
- `quoted`: someone else's text — inside quotation marks, after a quoting cue ("a review
  says", "评论说", "copied from"), or a pasted listing ("Material: …", "参数：…");
- `hypothetical`: a sentence opened by a supposition ("if I were…", "假如…", "suppose");
- `revoked`: a past state that a later clause says no longer holds ("last year I hated red,
  but that has changed"); the planner takes such a dislike back;
- `others`: people in general ("some people can't stand…", "很多人不喜欢…"), or someone
  reporting or advising ("he says…", "店员让我别买…"). `holder` names the recipient when one
  is named in the clause ("my husband says he never wears…"): theirs, not the shopper's;
  None when there is nobody to store it for. A "he" or "she" while the conversation buys
  for someone (`buying_for`) is that person, as the planner already reads it.

The cue words are data (`cartwise/vocabulary/data/voices.yml`); only what a cue means for
the clauses around it is decided here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

from cartwise.understanding.rules.recipients import SELF, Mention
from cartwise.vocabulary.voices import VoiceCues, voice_cues

VoiceKind = Literal["own", "quoted", "hypothetical", "revoked", "others"]
_SELF_SPEAKER = re.compile(r"我|(?<![a-z])(?:i|we|i'm|i've)(?![a-z])")


@dataclass(frozen=True)
class Voice:
    """Whose words one clause is (see the module docstring)."""

    kind: VoiceKind = "own"
    holder: str | None = None
    """For `others`: the named recipient the words belong to; None for nobody."""

    @property
    def stores_nothing(self) -> bool:
        """Nothing in the clause may become memory (no recipient to give it to either)."""
        return self.kind != "own" and self.holder is None


OWN = Voice()
_SENTENCE_END = re.compile(r"[.?!。？！\n]")


def _alternation(forms: Sequence[str]) -> re.Pattern[str]:
    """English forms on word boundaries, Chinese ones as substrings; longest first."""
    parts = []
    for form in sorted(set(forms), key=len, reverse=True):
        escaped = re.escape(form.lower())
        parts.append(rf"(?<![a-z]){escaped}(?![a-z])" if form.isascii() else escaped)
    return re.compile("|".join(parts) or r"(?!)")


@dataclass(frozen=True)
class _Patterns:
    quoting: re.Pattern[str]
    quoted_span: re.Pattern[str]
    listing: re.Pattern[str]
    hypothetical: re.Pattern[str]
    past: re.Pattern[str]
    revocation: re.Pattern[str]
    continuing: re.Pattern[str]
    people: re.Pattern[str]
    speech: re.Pattern[str]
    third_person: re.Pattern[str]


@cache
def _patterns() -> _Patterns:
    cues: VoiceCues = voice_cues()
    marks = "".join(re.escape(m) for m in cues.quote_marks)
    labels = _alternation(cues.listing).pattern
    return _Patterns(
        quoting=_alternation(cues.quoting),
        quoted_span=re.compile(rf"[{marks}][^{marks}]+[{marks}]"),
        # A field label opening a line, a sentence or a 【】 heading: "Material: …", "材质：…".
        listing=re.compile(rf"(?:^|[\n.;；。]\s*|【)\s*(?:{labels})\s*(?:[:：]|】)"),
        hypothetical=_alternation(cues.hypothetical),
        past=_alternation(cues.past),
        revocation=_alternation(cues.revocation),
        continuing=_alternation(cues.continuing),
        people=_alternation(cues.people),
        speech=_alternation(cues.speech),
        third_person=_alternation(cues.third_person),
    )


def _sentence(text: str, position: int) -> tuple[int, int]:
    starts = [m.end() for m in _SENTENCE_END.finditer(text, 0, position)]
    end = _SENTENCE_END.search(text, position)
    return (starts[-1] if starts else 0), (end.start() if end else len(text))


def _quoted_from(lowered: str, patterns: _Patterns) -> int | None:
    """Where someone else's text begins: after a quoting cue or at a listing label."""
    hits = (patterns.quoting.search(lowered), patterns.listing.search(lowered))
    starts = [hit.start() for hit in hits if hit is not None]
    return min(starts) if starts else None


def read_voices(
    text: str,
    clauses: Sequence[tuple[int, int]],
    mentions: Sequence[Mention],
    *,
    buying_for: str | None = None,
) -> list[Voice]:
    """One `Voice` per clause of `text` (clause spans as the planner split them);
    `buying_for`: the recipient this conversation buys for, if any."""
    lowered = text.lower()
    patterns = _patterns()
    voices = [OWN] * len(clauses)
    quoted_spans = [m.span() for m in patterns.quoted_span.finditer(text)]
    quoted_from = _quoted_from(lowered, patterns)
    hypotheses = [_sentence(lowered, m.start()) for m in patterns.hypothetical.finditer(lowered)]
    revoked_before = _revoked_before(lowered, patterns)
    for index, (start, end) in enumerate(clauses):
        clause = lowered[start:end]
        if any(a <= start and end <= b for a, b in quoted_spans) or (
            quoted_from is not None and end > quoted_from
        ):
            voices[index] = Voice("quoted")
        elif any(a <= start < b for a, b in hypotheses):
            voices[index] = Voice("hypothetical")
        elif revoked_before is not None and end <= revoked_before and patterns.past.search(clause):
            voices[index] = Voice("revoked")
        elif patterns.people.search(clause):
            voices[index] = Voice("others")
        else:
            voices[index] = _spoken_by(clause, start, end, patterns, mentions, buying_for)
    return voices


def _revoked_before(lowered: str, patterns: _Patterns) -> int | None:
    """Where a revocation of an earlier past state starts ("…, but that has changed"), when
    the message does not say it still holds; None otherwise."""
    past = patterns.past.search(lowered)
    if past is None or patterns.continuing.search(lowered):
        return None
    later = patterns.revocation.search(lowered, past.end())
    return later.start() if later else None


def _spoken_by(
    clause: str,
    start: int,
    end: int,
    patterns: _Patterns,
    mentions: Sequence[Mention],
    buying_for: str | None,
) -> Voice:
    """A clause someone else says or advises, or whose subject is someone else: theirs when
    they are named in it, nobody's otherwise."""
    named = [m for m in mentions if start <= m.start < end]
    speech = patterns.speech.search(clause)
    subject = patterns.third_person.match(clause.strip())
    if speech is not None and subject is None:
        speaker = clause[: speech.start()]
        if not patterns.third_person.search(speaker) and (
            not speaker.strip() or _SELF_SPEAKER.search(speaker)
        ):
            speech = None  # "我说不要塑料" / "as I said": the shopper's own words
    if speech is None and subject is None:
        return OWN
    if named:
        return OWN  # the planner already gives a named person's words to them
    if any(m.start < start for m in mentions) or buying_for not in (None, SELF):
        return OWN  # "she" continues the person named before, or the one bought for
    return Voice("others")
