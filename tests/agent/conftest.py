"""Agent fixtures: the real SQLite stores and a real RecallService over a small catalog with
the hashing embedder (fast); the engine is scripted unless a test asks for the rules one."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cartwise.agent.deps import AgentDeps
from cartwise.catalog.product import Domain, Product
from cartwise.embedding import create_embedder
from cartwise.embedding.base import Embedder
from cartwise.embedding.memo import QueryMemo
from cartwise.memory import create_preference_store, create_session_store
from cartwise.recall.service import RecallService
from cartwise.settings import Settings
from cartwise.understanding.base import Engine
from cartwise.understanding.rules.engine import RulesEngine
from tests.factories import make_product

PLATFORMS = ("jd", "taobao", "amazon")


def small_catalog() -> list[Product]:
    products: list[Product] = []
    for platform in PLATFORMS:
        products += [
            make_product(
                f"{platform}-plastic",
                platform=platform,
                title="over-ear headphones plastic headband",
                attributes={"material": ["plastic"]},
                url=f"https://example.com/{platform}/plastic-headphones",
                domain=Domain.ELECTRONICS,
                price=199.0,
            ),
            make_product(
                f"{platform}-wood",
                platform=platform,
                title="over-ear headphones walnut wood cups",
                attributes={"material": ["wood"]},
                domain=Domain.ELECTRONICS,
                price=629.0,
            ),
            make_product(
                f"{platform}-shoe",
                platform=platform,
                title="running shoes mesh",
                attributes={"sizes": ["40", "41", "42"]},
                domain=Domain.SHOES,
                price=399.0,
            ),
        ]
    return products


DepsFactory = Callable[[Engine], AgentDeps]


@pytest.fixture
def make_deps(settings: Settings) -> Iterator[DepsFactory]:
    embedder = create_embedder(settings.embedder)
    recall = RecallService.open(settings, embedder)
    catalog = small_catalog()
    recall.upsert(catalog, embedder.embed_documents([p.embedding_text() for p in catalog]))
    opened: list[AgentDeps] = []

    def factory(engine: Engine) -> AgentDeps:
        deps = AgentDeps(
            settings=settings,
            preferences=create_preference_store(settings, embedder),
            sessions=create_session_store(settings),
            recall=recall,
            engine=engine,
            embedder=embedder,
        )
        opened.append(deps)
        return deps

    yield factory
    for deps in opened:
        deps.preferences.close()
        deps.sessions.close()
    recall.close()


@contextmanager
def rules_agent_over(
    settings: Settings, catalog: Sequence[Product], *, max_picks: int
) -> Iterator[AgentDeps]:
    """The rules engine and real stores over `catalog`, indexed with the settings' embedder."""
    settings = settings.model_copy(update={"agent_max_picks": max_picks})
    embedder = create_embedder(settings.embedder)
    recall = RecallService.open(settings, embedder)
    recall.upsert(catalog, embedder.embed_documents([p.embedding_text() for p in catalog]))
    deps = AgentDeps(
        settings=settings,
        preferences=create_preference_store(settings, embedder),
        sessions=create_session_store(settings),
        recall=recall,
        engine=RulesEngine(),
        embedder=embedder,
    )
    try:
        yield deps
    finally:
        deps.preferences.close()
        deps.sessions.close()
        recall.close()


# --- The real thing: rules engine, bundled e5 model, a slice of the demo catalog ----------


def _in_slice(row: dict[str, Any]) -> bool:
    """Headphones, shoes, coats/jackets and raincoats: what the conversations talk about."""
    if row.get("product_type") == "raincoat":
        return True
    text = json.dumps(row, ensure_ascii=False).casefold()
    if any(word in text for word in ("耳机", "headphone", "earphone", "earbud")):
        return True
    if row.get("domain") == "shoes":
        return True
    return row.get("domain") == "clothing" and any(
        word in text for word in ("coat", "jacket", "外套")
    )


@dataclass(frozen=True)
class DemoSlice:
    recall: RecallService
    embedder: Embedder


def index_demo_slice(home: Path, keep: Callable[[dict[str, Any]], bool]) -> DemoSlice:
    """The demo catalog's rows that `keep` accepts, indexed with e5 under `home`."""
    from cartwise.catalog.demo import demo_catalog_path, seed_demo_vectors
    from cartwise.catalog.pipeline import ingest_file
    from cartwise.embedding.cache import CachedEmbedder

    settings = Settings(_env_file=None, cartwise_home=home, embedder="e5:small")  # type: ignore[call-arg]
    embedder = QueryMemo(create_embedder(settings.embedder))
    with gzip.open(demo_catalog_path(), "rt", encoding="utf-8") as source:
        rows = [line for line in source if line.strip() and keep(json.loads(line))]
    sliced = home / "demo_slice.jsonl"
    sliced.write_text("".join(rows), encoding="utf-8")
    recall = RecallService.open(settings, embedder)
    # The shipped e5 vectors of the demo texts (int8, cosine > 0.999 to fresh ones) seed the
    # cache, so a fresh machine does not spend minutes embedding the slice; queries are
    # embedded by the real model.
    cached = CachedEmbedder(embedder, home / "embedding-cache.sqlite")
    seed_demo_vectors(cached)
    try:
        ingest_file(
            sliced, settings=settings, service=recall, embedder=cached, fmt="jsonl", progress=False
        )
    finally:
        cached.close()
    return DemoSlice(recall=recall, embedder=embedder)


@pytest.fixture(scope="session")
def demo_slice(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoSlice]:
    """The demo catalog's headphones, shoes and coats indexed once per session with e5."""
    indexed = index_demo_slice(tmp_path_factory.mktemp("demo-e5"), _in_slice)
    yield indexed
    indexed.recall.close()
