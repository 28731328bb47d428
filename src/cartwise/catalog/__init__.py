"""The product model and everything about listings before they are indexed: readers of shop
exports, normalization, domains and sizes. Each name is imported on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cartwise.faces import lazy_face

if TYPE_CHECKING:
    from cartwise.catalog.domain_classifier import DomainClassifier
    from cartwise.catalog.domains import infer_domain
    from cartwise.catalog.product import Domain, Product
    from cartwise.catalog.sizes import canonical_size, same_size
    from cartwise.catalog.taxonomy import ProductType, product_type, product_types, types_named_in

__all__ = [
    "Domain",
    "DomainClassifier",
    "Product",
    "ProductType",
    "canonical_size",
    "infer_domain",
    "product_type",
    "product_types",
    "same_size",
    "types_named_in",
]

__getattr__ = lazy_face(
    __name__,
    {
        "Domain": "cartwise.catalog.product",
        "DomainClassifier": "cartwise.catalog.domain_classifier",
        "Product": "cartwise.catalog.product",
        "ProductType": "cartwise.catalog.taxonomy",
        "canonical_size": "cartwise.catalog.sizes",
        "infer_domain": "cartwise.catalog.domains",
        "product_type": "cartwise.catalog.taxonomy",
        "product_types": "cartwise.catalog.taxonomy",
        "same_size": "cartwise.catalog.sizes",
        "types_named_in": "cartwise.catalog.taxonomy",
    },
)
