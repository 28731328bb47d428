"""Dislikes of things the lexicon does not know ("I avoid graphic violence").

English only: the object after a strong refusal or aversion verb becomes a slug of up to
three words (category other). Chinese objects are skipped — a slug must be ASCII, and a
transliteration would be a key nobody can read. Only clauses where the lexicon found no
refused term are considered, so this never competes with a canonical slug.
"""

from __future__ import annotations

import re

from cartwise.understanding.rules.negation import Scoping

_OPEN_TRIGGER = re.compile(
    r"\b(?:(?:dislike|aversion|distaste) (?:for|of|to)|"
    r"(?:refuse|prefer not|rather not) (?:to )?[a-z]+(?: to| with| in| on)?|prefer not [a-z]+ing|"
    r"(?:don'?t|do not|cannot|can'?t|won'?t|will not) (?:consume|eat|drink|watch|read|play|listen to|engage with|engage in)|"
    r"avoid(?:ing|s)?|hate|dislike|don'?t like|do not like|don'?t want|do not want|"
    r"can'?t stand|cannot stand|not a (?:big )?fan of|aversion to|allergic to|allergy to|"
    r"refuse to (?:buy|wear|eat|use|watch|take)|stay away from|steer clear of|don'?t enjoy|"
    r"do not enjoy|not into|don'?t eat|do not eat|don'?t wear|do not wear|don'?t use|"
    r"do not use|never (?:buy|wear|eat|use)|against|scared of|afraid of|phobia of|"
    r"(?:prefer|rather) not (?:to )?(?:use|play|attend|watch|eat|wear|read|visit|stay in|stay at|"
    r"take|go to|do|buy|have|drive|listen to|own)|"
    r"strongly dislike|really dislike)\s+(?P<obj>[a-z][a-z\s'-]{2,80})"
)
_CUT = re.compile(
    r"\b(?:that|which|who|because|due|as|since|so|when|while|if|or|and|but|with|in|on|at|for|"
    r"from|to|like|such|unless|than|i|it|they|my|is|are|was|were|whether|especially|including)\b"
)
_PREPOSITIONS = {"through", "in", "with", "on", "at", "to", "into", "about", "for"}
_LEADING = {
    "any",
    "the",
    "a",
    "an",
    "all",
    "most",
    "too",
    "much",
    "many",
    "very",
    "eating",
    "wearing",
    "using",
    "buying",
    "having",
    "getting",
    "being",
    "watching",
    "consuming",
    "anything",
    "something",
    "things",
    "stuff",
    "items",
    "products",
    "product",
    "made",
    "of",
    "foods",
    "food",
    "certain",
    "overly",
    "extremely",
    "highly",
    "strong",
    "really",
    "super",
    "heavy",
}
_REJECT = {
    "thanks",
    "problem",
    "worries",
    "idea",
    "way",
    "more",
    "less",
    "sure",
    "one",
    "it",
    "that",
    "this",
    "them",
    "expensive",
    "cheap",
    "big",
    "small",
    "spend",
    "pay",
    "go",
    "know",
    "care",
    "budget",
    "money",
    "hassle",
    "waiting",
    "it's",
    "you",
    "he",
    "she",
    "we",
    "these",
    "those",
    "anyone",
    "people",
    "when",
}


def _singular(word: str) -> str:
    if len(word) > 3 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def free_dislikes(text: str, scoping: Scoping) -> list[tuple[str, str]]:
    """(slug, clause) pairs for refused objects outside the lexicon."""
    lowered = text.lower()
    found: list[tuple[str, str]] = []
    for index, (start, end) in enumerate(scoping.clauses):
        if any(t.clause == index and t.stance in ("dislike", "retract") for t in scoping.terms):
            continue
        clause = lowered[start:end]
        hit = _OPEN_TRIGGER.search(clause)
        if not hit:
            continue
        words = [w.strip("'-") for w in hit.group("obj").split()]
        while words and (words[0] in _LEADING or words[0].endswith("ing")):
            # "learning through online courses" → "online courses"
            gerund = words.pop(0).endswith("ing")
            if gerund and words and words[0] in _PREPOSITIONS:
                words.pop(0)
        words = _CUT.split(" ".join(words), maxsplit=1)[0].split()
        words = [w for w in words if re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", w)][:3]
        if not words or words[0] in _REJECT or len(words[0]) < 3:
            continue
        words[-1] = _singular(words[-1])
        found.append(("-".join(words), clause))
    return found
