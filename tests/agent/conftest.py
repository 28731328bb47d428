"""Agent fixtures: the real SQLite stores and a real RecallService over a small catalog with
the hashing embedder (fast); the engine is scripted unless a test asks for the rules one."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from cartwise.agent.deps import AgentDeps
from cartwise.catalog.product import Domain, Product
from cartwise.memory import create_preference_store, create_session_store
from cartwise.recall.embedders import create_embedder
from cartwise.recall.service import RecallService
from cartwise.settings import Settings
from cartwise.understanding.base import Engine
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
