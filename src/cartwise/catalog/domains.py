"""Best-effort normalized domain of a listing, from a platform's own category text and the
title, read with the vocabulary's one domain vocabulary (the taxonomy: every product type's
names, the umbrella words, generic nouns and the words shops file listings under).

Category text is the stronger signal (a shop filed the item there on purpose), so a form found
in it counts three times as much as one in the title. Between domains scoring the same, the
one named last wins: a category path narrows to the right ("Home & Kitchen › Cookware") and
a title ends in its head noun ("婴儿 连体衣" is clothing for a baby, "dog food bowl" a bowl).
A Chinese name counts only where it heads the words it stands in, as the reader reads a
message (拉面 is no noodle in 撕拉面膜, 羽毛球 no racket in 羽毛球包).
No match gives `other`: a wrong domain would scope a preference to the wrong searches, an
unknown one does not.
"""

from __future__ import annotations

from cartwise.catalog.product import Domain
from cartwise.vocabulary import Kind, matcher
from cartwise.vocabulary.matcher import within_words

CATEGORY_WEIGHT = 3
DOMAIN_KINDS: tuple[Kind, ...] = ("product_type", "type_group", "product_noun", "domain_word")
"""The vocabulary a listing's domain is read from."""


def infer_domain(category_raw: str, title: str = "") -> Domain:
    """The most likely domain; `other` when nothing matches."""
    scores: dict[str, int] = {}
    latest: dict[str, int] = {}
    order = 0
    for text, weight in ((title, 1), (category_raw, CATEGORY_WEIGHT)):
        counted: set[tuple[str, str]] = set()
        for match in matcher(*DOMAIN_KINDS).find(text, accept=within_words):
            order += 1
            for domain in {e.domain for e in match.entries if e.domain}:
                if (domain, match.surface) in counted:
                    continue  # one form, once per text
                counted.add((domain, match.surface))
                scores[domain] = scores.get(domain, 0) + weight
                latest[domain] = order
    if not scores:
        return Domain.OTHER
    best = max(scores, key=lambda d: (scores[d], latest[d]))
    return Domain(best)
