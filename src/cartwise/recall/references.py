"""A product the request points at by a shop URL ("…/product/corsair-5000d-airflow-…"), and
what that reference asks: the same product, or something that goes with it.

The URL's last path segment is a slug of the listing's title (WooCommerce and most shops
build it so); it is resolved against the catalog by a BM25 search of its words and an exact
slug comparison, falling back to the closest title by word overlap. An unresolvable URL is
left out of the search text and reported, never guessed.

Without a URL, a product named by its model after a compatibility phrase ("compatible with
the Corsair 5000D", "the same size as the ASUS VG279Q3A") is resolved the same way, but
only to a listing whose title holds every word of the name, and only when the request asks
for something that goes with it: a name alone is an ordinary search.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

from cartwise.catalog.product import Product
from cartwise.catalog.specs.compatibility import (
    CompatibilityPlan,
    compatibility_specs,
    product_kind,
)
from cartwise.recall.service import RecallService
from cartwise.vocabulary.slugs import slugify

PRODUCT_URL = re.compile(r"(?:https?://|\{\{URL_\d+\}\})[^\s<>\"']+", re.IGNORECASE)
"""An absolute URL, or a WebMall-style `{{URL_n}}/…` placeholder."""
SLUG_CANDIDATES = 10
MIN_OVERLAP = 0.6
"""Share of slug words a title must hold to be the referenced listing without exact match."""


def url_slug(url: str) -> str:
    path = url.split("?")[0].split("#")[0].rstrip("/.,;)")
    return slugify(path.rsplit("/", 1)[-1])


def _overlap(slug: str, title: str) -> float:
    wanted = set(slug.split("-"))
    have = set(slugify(title).split("-"))
    return len(wanted & have) / len(wanted) if wanted else 0.0


def resolve_slug(service: RecallService, slug: str) -> Product | None:
    """The listing whose title (or URL) slug is `slug`; else the closest title."""
    if not slug:
        return None
    hits = service.search(slug.replace("-", " "), k=SLUG_CANDIDATES, mode="lexical").results
    for hit in hits:
        product = hit.product
        if slugify(product.title) == slug or (product.url and url_slug(product.url) == slug):
            return product
    scored = [(_overlap(slug, h.product.title), h.product) for h in hits]
    best = max(scored, key=lambda pair: pair[0], default=None)
    return best[1] if best is not None and best[0] >= MIN_OVERLAP else None


TITLE_REFERENCE = re.compile(
    r"(?:compatible\s+with|works?\s+with|goes\s+with|to\s+go\s+with|fits?|to\s+fit|"
    r"same\s+(?:colou?r|size)\s+as|matches|matching|兼容|适配|适合|搭配|配)\s*"
    r"(?:the\s+|my\s+|a\s+|an\s+|this\s+)?(?P<name>[^,.;:!?()，。；：！？]{3,60})",
    re.IGNORECASE,
)
_NAME_END = re.compile(
    r"\s+(?:and|or|that|which|with|in|for|under|below|from|but|please)\b.*$|的.*$",
    re.IGNORECASE,
)
_MODEL_WORD = re.compile(r"[a-z]*\d[a-z0-9]*", re.IGNORECASE)


def resolve_title(service: RecallService, name: str) -> Product | None:
    """The listing a product name points at: it must carry a model word (a word with a
    digit: "5000D", "VG279Q3A"), and the listing's title must hold every word of the name."""
    words = slugify(name).split("-")
    if not any(_MODEL_WORD.fullmatch(word) for word in words):
        return None
    hits = service.search(" ".join(words), k=SLUG_CANDIDATES, mode="lexical").results
    for hit in hits:
        if set(words) <= set(slugify(hit.product.title).split("-")):
            return hit.product
    return None


def _title_reference(service: RecallService, text: str) -> ReferencePlan | None:
    for match in TITLE_REFERENCE.finditer(text):
        name = _NAME_END.sub("", match.group("name"))
        source = resolve_title(service, name) if name.strip() else None
        if source is None:
            continue
        name_end = match.start("name") + len(name)
        remaining = " ".join((text[: match.start("name")] + " " + text[name_end:]).split())
        plan = compatibility_specs(
            remaining, source.specs, source_kind=product_kind(source.title, source.category_raw)
        )
        if plan.applies:
            return ReferencePlan(query=remaining, source=source, compatibility=plan)
    return None


class ReferencePlan(BaseModel):
    """What a request with a product reference searches."""

    query: str
    """The request's words without the URL, plus the source's title when the request is
    about that product itself (a cheaper offer of it, a substitute)."""
    source: Product | None = None
    compatibility: CompatibilityPlan | None = None
    """Set when the request asks for something that goes with the source."""
    unresolved: list[str] = Field(default_factory=list)
    """URLs that name no listing in the catalog."""


def resolve_references(service: RecallService, text: str) -> ReferencePlan:
    """The request's first resolvable product URL (else a product named by its title after
    a compatibility phrase), and what it asks of it."""
    urls = PRODUCT_URL.findall(text)
    if not urls:
        return _title_reference(service, text) or ReferencePlan(query=" ".join(text.split()))
    remaining = " ".join(PRODUCT_URL.sub(" ", text).split())
    source: Product | None = None
    unresolved: list[str] = []
    for url in urls:
        found = resolve_slug(service, url_slug(url))
        if found is None:
            unresolved.append(url)
        elif source is None:
            source = found
    if source is None:
        return ReferencePlan(query=remaining, unresolved=unresolved)
    plan = compatibility_specs(
        remaining, source.specs, source_kind=product_kind(source.title, source.category_raw)
    )
    if plan.applies:
        return ReferencePlan(
            query=remaining, source=source, compatibility=plan, unresolved=unresolved
        )
    return ReferencePlan(
        query=f"{remaining} {source.title}".strip(), source=source, unresolved=unresolved
    )
