"""Understanding: reader, curator and reply writer behind the `Engine` protocol.

Two engines: `rules` (embedded, no network — the default) and `llm` (any OpenAI-compatible
chat endpoint), which runs wrapped: guarded by the rules engine's reading and answered by the
rules engine whenever a call fails.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
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
    settings: Settings,
    brands: Iterable[CatalogBrand] = (),
    *,
    embedder: Embedder | None = None,
    offload_reads: bool = False,
) -> Engine:
    """The engine `settings.engine` names; the llm engine falls back to rules. `brands` (the
    ingested catalogs', `RecallService.catalog_brands()`) teach the rules engine every brand
    they carry; `embedder` (the turn's) lets the act classifier read sentence vectors.

    `offload_reads` (a server's engine): the rules engine reads a message longer than
    `settings.read_offload_chars` in a worker process (`OffloadEngine`), started in the
    background; the caller closes it. A one-shot command keeps every read in its process."""
    from cartwise.understanding.acts import create_act_classifier
    from cartwise.understanding.rules.engine import RulesEngine

    brands = list(brands)
    acts = create_act_classifier(embedder)
    rules = RulesEngine(catalog=brands, acts=acts)
    if settings.engine == "rules":
        if not offload_reads or not settings.read_offload_chars:
            return rules
        from cartwise.understanding.offload import OffloadEngine, SentenceVectors

        offloaded = OffloadEngine(
            rules,
            partial(worker_rules_engine, brands),
            min_chars=settings.read_offload_chars,
            vectors=(
                SentenceVectors(embedder) if embedder is not None and acts.reads_sentences else None
            ),
            workers=settings.read_offload_workers,
        )
        offloaded.start()
        return offloaded
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


def worker_rules_engine(brands: list[CatalogBrand], embedder: Embedder | None) -> RulesEngine:
    """A reader worker's rules engine: the same brands, and an act classifier over the
    vectors sent with each message (`OffloadEngine`)."""
    from cartwise.understanding.acts import create_act_classifier
    from cartwise.understanding.rules.engine import RulesEngine

    return RulesEngine(catalog=brands, acts=create_act_classifier(embedder))
