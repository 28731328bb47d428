"""Which domains may a query be in? The domain classifier, on the catalog floor so that memory
(preference scope) and understanding may both ask it: the one decision a domain-scoped
preference obeys.

The domain list is the catalog's (`cartwise.catalog.taxonomy`: 21 domains, every product type
with its Chinese and English names), never a list of its own. A query is read two ways:

- lexically: a product type named in the query ("蓝牙耳机", "earbuds") puts the query in that
  type's domain for certain;
- semantically: the query's embedding against every product-type name (one anchor per name,
  1,469 of them), the `K_NEAREST` nearest voting for their domain with softmax weights
  (`TEMPERATURE`). The vote shares are a distribution over domains.

`DomainReading.primary` is the domain a like or a soft dislike follows (the named type's
domain, else the largest share). `DomainReading.possible` is what a hard dislike follows,
failing safe: every domain with a share of at least `POSSIBLE_SHARE` plus the named types'
domains — and every domain at all when the reading is unsure (no named type and no share of
`CONFIDENT_SHARE`). "sports earbuds for running" names earbuds (electronics) and its neighbours
include sports gear, so an electronics "no plastic" holds there.

The constants were chosen on the dev split of `cartwise/eval/data/domains` and measured on its
test split, which was never tuned on (docs/reports/domain.md): 0 wrong-domain misses for hard
dislikes on dev, the test figures in the report.

Stored domains are free text and drift ("apparel", "服装"): a domain the catalog does not
name is mapped to the catalog domain whose names it is clearly closest to (`SAME_DOMAIN`);
otherwise `None` leaves the decision to the query's similarity to the entry (the caller's
threshold).
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from cartwise.catalog import taxonomy
from cartwise.embedding.base import Embedder, Matrix, Vector, normalize_rows
from cartwise.log import logger

K_NEAREST = 50
"""Product-type names that vote on a query's domain."""
TEMPERATURE = 0.03
"""Softmax temperature of the vote, on cosine similarity (multilingual-e5-small)."""
POSSIBLE_SHARE = 0.01
"""A domain with at least this share of the vote may be the query's (hard dislikes apply)."""
CONFIDENT_SHARE = 0.5
"""Below this top share, with no product type named, the reading is unsure: every domain
is possible."""
SAME_DOMAIN = 0.84
"""An unknown stored domain word this close to a catalog domain's names is that domain."""

ANCHOR_VECTORS = "data/domain_anchors_{model}.npz"
"""Shipped anchor vectors for the default model (scripts/export_domain_anchors.py): embedding
1,469 names takes about a minute on a busy two-core machine, once per process otherwise."""


@dataclass(frozen=True)
class DomainReading:
    """The domains one query may be in."""

    primary: str
    """The most likely domain ('' when the catalog names none)."""
    named: frozenset[str]
    """Domains of the product types the query names outright."""
    possible: frozenset[str]
    """Every domain the query may be in (fail safe; all of them when unsure)."""

    def is_about(self, domain: str) -> bool:
        return domain == self.primary or domain in self.named


def anchor_names() -> tuple[list[str], list[str]]:
    """Every product-type name of the catalog (both languages, synonyms included) and the
    domain each belongs to, in taxonomy order."""
    names: list[str] = []
    domains: list[str] = []
    for kind in taxonomy.product_types():
        for name in dict.fromkeys([*kind.zh_names, *kind.en_names]):
            names.append(name)
            domains.append(kind.domain.value)
    return names, domains


def anchor_digest(names: list[str]) -> str:
    """Identifies the anchor texts: shipped vectors of other texts are not used."""
    return hashlib.sha256("\n".join(names).encode()).hexdigest()[:16]


def shipped_vectors_path(model: str) -> Path:
    file = ANCHOR_VECTORS.format(model=model.replace(":", "_"))
    return Path(str(resources.files("cartwise.catalog").joinpath(file)))


def _load_shipped(model: str, digest: str) -> Matrix | None:
    path = shipped_vectors_path(model)
    if not path.is_file():
        return None
    with np.load(path, allow_pickle=False) as data:
        if str(data["model"]) != model or str(data["digest"]) != digest:
            return None
        return normalize_rows(data["q"].astype(np.float32) * data["scale"][:, None])


class DomainClassifier:
    """The query-domain classifier of one embedder; anchors are embedded (or loaded) once."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._domains = [info.domain.value for info in taxonomy.domains()]
        self._names, anchor_domains = anchor_names()
        self._anchor_domain = np.array([self._domains.index(d) for d in anchor_domains])
        self._anchors: Matrix | None = None
        self._domain_words: Matrix | None = None
        self._mapped: dict[str, str | None] = {}
        self._lock = threading.Lock()

    @property
    def domains(self) -> list[str]:
        return list(self._domains)

    def _anchor_matrix(self) -> Matrix:
        with self._lock:
            if self._anchors is None:
                digest = anchor_digest(self._names)
                shipped = _load_shipped(self._embedder.name, digest)
                if shipped is None:
                    logger.info("embedding %d domain anchors once", len(self._names))
                    shipped = self._embedder.embed_documents(self._names)
                self._anchors = shipped
            return self._anchors

    def read(self, query: str, query_vector: Vector) -> DomainReading:
        """The domains `query` (embedded as `query_vector`) may be in."""
        named = [kind.domain.value for kind in taxonomy.types_named_in(query)]
        # einsum, not `@`: above ~1,000 rows OpenBLAS splits a matrix-vector product across
        # threads, which on a busy two-core machine took 10-18 ms instead of 0.3 ms.
        similarity = np.einsum("ij,j->i", self._anchor_matrix(), query_vector)
        top = np.argpartition(-similarity, K_NEAREST)[:K_NEAREST]
        nearest = top[np.argsort(-similarity[top], kind="stable")]
        weights = np.exp((similarity[nearest] - similarity[nearest[0]]) / TEMPERATURE)
        shares = np.zeros(len(self._domains))
        np.add.at(shares, self._anchor_domain[nearest], weights)
        shares /= shares.sum()
        primary = named[0] if named else self._domains[int(np.argmax(shares))]
        if named or shares.max() >= CONFIDENT_SHARE:
            voted = {self._domains[i] for i in np.nonzero(shares >= POSSIBLE_SHARE)[0]}
            possible = frozenset(voted | set(named))
        else:
            possible = frozenset(self._domains)
        return DomainReading(primary=primary, named=frozenset(named), possible=possible)

    def classify(self, query: str) -> DomainReading:
        """`read` for a query that is not embedded yet."""
        return self.read(query, self._embedder.embed_query(query))

    def may_be_in(self, query: str, domain: str) -> bool | None:
        """Whether `query` may be about `domain` (failing safe); None for a domain the
        catalog does not name."""
        return self.possibly_in_scope(domain, self.classify(query))

    def canonical(self, domain: str) -> str | None:
        """The catalog domain a stored domain word means, or None when it is none of them."""
        if domain in self._domains:
            return domain
        with self._lock:
            known = domain in self._mapped
        if not known:
            words = self._domain_word_matrix()
            similarity = words @ self._embedder.embed_documents([domain.replace("-", " ")])[0]
            best = int(np.argmax(similarity))
            mapped = self._domains[best] if similarity[best] >= SAME_DOMAIN else None
            with self._lock:
                self._mapped[domain] = mapped
        return self._mapped[domain]

    def _domain_word_matrix(self) -> Matrix:
        with self._lock:
            if self._domain_words is None:
                infos = taxonomy.domains()
                self._domain_words = self._embedder.embed_documents(
                    [f"{info.en} {info.zh}" for info in infos]
                )
            return self._domain_words

    def in_scope(self, domain: str, reading: DomainReading) -> bool | None:
        """Whether the query is about `domain` (likes, soft dislikes); None for a domain
        the catalog does not name."""
        canonical = self.canonical(domain)
        return None if canonical is None else reading.is_about(canonical)

    def possibly_in_scope(self, domain: str, reading: DomainReading) -> bool | None:
        """Whether the query may be about `domain` (hard dislikes, failing safe)."""
        canonical = self.canonical(domain)
        return None if canonical is None else canonical in reading.possible
