"""Understanding: reader, curator and reply writer behind the `Engine` protocol.

Two engines: `rules` (embedded, no network — the default) and `llm` (any OpenAI-compatible
chat endpoint), which runs wrapped: guarded by the rules engine's reading and answered by the
rules engine whenever a call fails.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from cartwise.errors import ConfigurationError
from cartwise.faces import lazy_face

if TYPE_CHECKING:
    from cartwise.catalog.brands import CatalogBrand
    from cartwise.embedding.base import Embedder
    from cartwise.settings import Settings
    from cartwise.understanding.acts import Act, create_act_classifier
    from cartwise.understanding.base import Engine
    from cartwise.understanding.fallback import FallbackEngine
    from cartwise.understanding.rules.engine import RulesEngine

__all__ = ["Act", "Engine", "create_act_classifier", "create_engine"]

# Imported on first use: `cartwise session show` reads a `Language` from the reading module
# and needs no classifier, engine seam or catalog brands.
__getattr__ = lazy_face(
    __name__,
    {
        "Act": "cartwise.understanding.acts.act",
        "Engine": "cartwise.understanding.base",
        "create_act_classifier": "cartwise.understanding.acts.classifier",
    },
)


def create_engine(
    settings: Settings, brands: Iterable[CatalogBrand] = (), *, embedder: Embedder | None = None
) -> Engine:
    """The engine `settings.engine` names; the llm engine falls back to rules. `brands` (the
    ingested catalogs', `RecallService.catalog_brands()`) teach the rules engine every brand
    they carry; `embedder` (the turn's) lets the act classifier read sentence vectors."""
    from cartwise.understanding.acts import create_act_classifier
    from cartwise.understanding.rules.engine import RulesEngine

    rules = RulesEngine(catalog=brands, acts=create_act_classifier(embedder))
    if settings.engine == "rules":
        return rules
    if not settings.llm_base_url:
        raise ConfigurationError(
            "ENGINE=llm needs LLM_BASE_URL, the base URL of an OpenAI-compatible chat "
            "endpoint (for example http://127.0.0.1:8080/v1); set it, or use ENGINE=rules"
        )
    return guarded_llm_engine(settings, rules)


def guarded_llm_engine(settings: Settings, rules: RulesEngine) -> FallbackEngine:
    """The llm engine checked against `rules`, with `rules` answering any failed call."""
    from cartwise.understanding.counters import EngineCounters
    from cartwise.understanding.fallback import FallbackEngine
    from cartwise.understanding.guarded import GuardedEngine
    from cartwise.understanding.llm import LLMEngine

    counters = EngineCounters()
    guarded = GuardedEngine(
        LLMEngine(settings), rules, counters, log_personal_data=settings.log_personal_data
    )
    return FallbackEngine(guarded, rules, counters)
