"""The product model and everything about listings before they are indexed: readers of shop
exports, normalization, domains and sizes."""

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
