"""The query-domain reading's rules, on the hashing embedder (the model's quality is measured
in tests/eval/test_domain_classifier.py)."""

from __future__ import annotations

from cartwise.catalog import domain_classifier, taxonomy
from cartwise.catalog.demo import DEMO_VECTORS_MODEL
from cartwise.catalog.domain_classifier import DomainClassifier, DomainReading, anchor_names
from cartwise.embedding.hashing import HashingEmbedder


def read(scope: DomainClassifier, embedder: HashingEmbedder, query: str) -> DomainReading:
    return scope.read(query, embedder.embed_query(query))


def test_the_domain_list_and_anchors_are_the_catalogs() -> None:
    embedder = HashingEmbedder()
    scope = DomainClassifier(embedder)
    assert scope.domains == [info.domain.value for info in taxonomy.domains()]
    names, domains = anchor_names()
    assert len(names) == len(domains) > len(taxonomy.product_types())
    assert set(domains) <= set(scope.domains)


def test_a_named_product_type_fixes_the_primary_domain_and_is_always_possible() -> None:
    embedder = HashingEmbedder()
    scope = DomainClassifier(embedder)
    reading = read(scope, embedder, "sports earbuds for running")
    assert reading.primary == "electronics" and "electronics" in reading.named
    assert scope.possibly_in_scope("electronics", reading)
    assert scope.in_scope("electronics", reading)


def test_an_unsure_reading_makes_every_domain_possible() -> None:
    embedder = HashingEmbedder()
    scope = DomainClassifier(embedder)
    reading = read(scope, embedder, "something nice")  # names nothing, close to nothing
    assert reading.named == frozenset()
    assert reading.possible == frozenset(scope.domains)
    assert not scope.in_scope("garden", reading) or reading.primary == "garden"


def test_an_unknown_stored_domain_is_left_to_the_caller() -> None:
    embedder = HashingEmbedder()
    scope = DomainClassifier(embedder)
    reading = read(scope, embedder, "headphones")
    assert scope.canonical("electronics") == "electronics"
    assert scope.canonical("zzqx-nothing") is None
    assert scope.in_scope("zzqx-nothing", reading) is None
    assert scope.possibly_in_scope("zzqx-nothing", reading) is None


def test_classify_and_may_be_in_embed_the_query_themselves() -> None:
    classifier = DomainClassifier(HashingEmbedder(256))
    assert classifier.classify("headphones 耳机").primary == "electronics"
    assert classifier.may_be_in("headphones 耳机", "electronics") is True
    assert classifier.may_be_in("headphones 耳机", "zzqx-nothing") is None


def test_the_shipped_anchor_vectors_are_those_of_the_taxonomy() -> None:
    """Stale shipped anchors are embedded at a process's first preference read: 1,473 names,
    36-38 s of that shopper's turn at load 4-6. After a taxonomy change, run
    `python scripts/export_domain_anchors.py`."""
    names, _ = anchor_names()
    shipped = domain_classifier._load_shipped(
        DEMO_VECTORS_MODEL, domain_classifier.anchor_digest(names)
    )
    assert shipped is not None, "run python scripts/export_domain_anchors.py"
    assert shipped.shape[0] == len(names)
