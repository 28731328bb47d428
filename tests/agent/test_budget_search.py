"""A budget filters the index query: cheap items ranked below the top-k are still found, and
the best few over-budget hits are still reported as rejected, without a second embedding."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

import pytest

from cartwise.agent.budget_search import outside_budget, within_budget
from cartwise.agent.deps import AgentDeps
from cartwise.agent.picker import Budget
from cartwise.agent.run import run_agent
from cartwise.agent.state import Candidate
from cartwise.catalog.product import Domain
from cartwise.embedding import create_embedder
from cartwise.embedding.base import Embedder, Matrix, Vector
from cartwise.embedding.memo import QueryMemo
from cartwise.memory import create_preference_store, create_session_store
from cartwise.recall.indexes.base import SearchFilters
from cartwise.recall.service import RecallService
from cartwise.settings import Settings
from tests.doubles import ScriptedEngine
from tests.factories import make_product


class CountingEmbedder:
    """Counts the query texts the model itself embeds."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.queries: Counter[str] = Counter()

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed_query(self, text: str) -> Vector:
        self.queries[text] += 1
        return self.inner.embed_query(text)

    def embed_documents(self, texts: Sequence[str]) -> Matrix:
        return self.inner.embed_documents(texts)


@pytest.fixture
def priced_agent(settings: Settings) -> Iterator[tuple[AgentDeps, CountingEmbedder]]:
    """One platform whose best-matching headphones are all dearer than the budget; the
    cheap pair matches the query less well and ranks below the search depth."""
    settings = settings.model_copy(update={"agent_search_k": 2})
    counting = CountingEmbedder(create_embedder(settings.embedder))
    memo = QueryMemo(counting)
    recall = RecallService.open(settings, memo)
    dear = [
        make_product(
            f"dear-{n}",
            title=f"wireless headphones headphones over-ear model {n}",
            domain=Domain.ELECTRONICS,
            price=900.0 + n,
        )
        for n in range(4)
    ]
    cheap = make_product(
        "cheap",
        title="basic wired headphones with a long cable, foldable band and a carry pouch",
        domain=Domain.ELECTRONICS,
        price=150.0,
    )
    catalog = [*dear, cheap]
    recall.upsert(catalog, memo.embed_documents([p.embedding_text() for p in catalog]))
    deps = AgentDeps(
        settings=settings,
        preferences=create_preference_store(settings, memo),
        sessions=create_session_store(settings),
        recall=recall,
        engine=ScriptedEngine(
            {
                "headphones, budget 600": {
                    "language": "en",
                    "query": "headphones",
                    "domain": "electronics",
                    "slots": {"budget_max": "600", "budget_currency": "CNY"},
                }
            }
        ),
        embedder=memo,
    )
    yield deps, counting
    deps.preferences.close()
    deps.sessions.close()
    recall.close()


async def test_a_budget_finds_cheap_items_below_the_unfiltered_top_k(
    priced_agent: tuple[AgentDeps, CountingEmbedder],
) -> None:
    deps, counting = priced_agent
    unfiltered = deps.recall.search("headphones", k=2, profile="")
    assert all(hit.product.price_base > 600 for hit in unfiltered.results), "premise"
    counting.queries.clear()
    assert isinstance(deps.embedder, QueryMemo)
    deps.embedder.clear()

    result = await run_agent(deps, user="ann", thread="t1", message="headphones, budget 600")

    assert [p.item_id for p in result.products] == ["cheap"]
    over = [r for r in result.rejected if r.reason.startswith("over budget")]
    assert {r.item_id for r in over} == {"dear-0", "dear-1"}
    assert all(r.reason.endswith("> 600 CNY)") for r in over)
    # The probe without the budget reuses the query's vector: no text is embedded twice.
    assert counting.queries["headphones"] == 1
    assert max(counting.queries.values()) == 1


def test_the_budget_narrows_price_bounds_and_keeps_a_tighter_cheaper_bound() -> None:
    cheaper = SearchFilters(max_price_base=200.0, brands=["Sony"])
    assert within_budget(cheaper, Budget(max_base=600.0)).max_price_base == 200.0
    narrowed = within_budget(SearchFilters(), Budget(max_base=600.0, min_base=100.0))
    assert (narrowed.min_price_base, narrowed.max_price_base) == (100.0, 600.0)
    assert within_budget(cheaper, Budget()) == cheaper


def test_only_probe_hits_outside_the_budget_are_kept() -> None:
    filters = SearchFilters(max_price_base=600.0)
    probe = [
        Candidate(product=make_product("in", price=100.0), score=0.9),
        Candidate(product=make_product("over", price=700.0), score=0.8),
    ]
    assert [c.product.item_id for c in outside_budget(probe, filters)] == ["over"]
