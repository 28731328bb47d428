"""Each floor's package exports a small, deliberate, sorted surface."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import cartwise
from cartwise.errors import CartwiseError

FACES = {
    "cartwise.agent": ["AgentDeps", "TurnResult", "create_deps", "run_agent"],
    "cartwise.api": ["create_app"],
    "cartwise.catalog": [
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
    ],
    "cartwise.recall": [
        "RecallService",
        "SearchFilters",
        "SearchHit",
        "SearchResponse",
        "search_platforms",
        "user_profile",
    ],
    "cartwise.vocabulary": [
        "Brand",
        "Entry",
        "Kind",
        "Match",
        "Matcher",
        "build_matcher",
        "colour_table",
        "curated_brands",
        "currency_of",
        "currency_table",
        "family_matcher",
        "format_money",
        "fx_to_base",
        "matcher",
        "merge_brands",
        "surface_forms",
        "taxonomy",
    ],
}


@pytest.mark.parametrize("package", sorted(FACES))
def test_public_face_is_exactly_the_intended_names(package: str) -> None:
    module = importlib.import_module(package)
    assert module.__all__ == FACES[package]
    for name in module.__all__:
        assert getattr(module, name) is not None


def test_every_exception_cartwise_defines_derives_from_cartwise_error() -> None:
    strays = []
    for info in pkgutil.walk_packages(cartwise.__path__, "cartwise."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__ == info.name
                and not issubclass(value, CartwiseError)
            ):
                strays.append(f"{info.name}.{name}")
    assert strays == []
