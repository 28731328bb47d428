"""The one domain classifier's interface, on the hashing embedder (its quality with the real
model is measured in tests/memory/test_relevance_model.py)."""

from __future__ import annotations

from cartwise.catalog.domain_classifier import DOMAIN_DESCRIPTIONS, DomainClassifier
from cartwise.embedding.hashing import HashingEmbedder


def test_classify_ranks_every_described_domain_best_first() -> None:
    ranking = DomainClassifier(HashingEmbedder(256)).classify("headphones 耳机")
    assert ranking[0][0] == "electronics"
    assert sorted(domain for domain, _ in ranking) == sorted(DOMAIN_DESCRIPTIONS)
    assert [score for _, score in ranking] == sorted((s for _, s in ranking), reverse=True)


def test_may_be_in_says_yes_no_or_cannot_tell() -> None:
    classifier = DomainClassifier(HashingEmbedder(256))
    assert classifier.may_be_in("headphones 耳机", "electronics") is True
    assert classifier.may_be_in("headphones 耳机", "clothing") is False
    assert classifier.may_be_in("headphones 耳机", "pet supplies") is None
