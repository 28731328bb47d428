"""A new search that names a product type with a spec the type's listings rarely state
("红色的猫砂": litter states no colour) ranks other red things first; the turn then searches
within the named type before the search speaks for itself, and never at all when a candidate
is of the type. Rules engine, hashing embedder, the real RecallService."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from cartwise.agent.deps import AgentDeps
from cartwise.agent.result import TurnResult
from cartwise.agent.run import run_agent
from cartwise.catalog.product import Domain, Product
from cartwise.catalog.specs import ProductSpecs
from cartwise.recall.service import RecallService
from cartwise.settings import Settings
from tests.agent.conftest import rules_agent_over
from tests.factories import make_product

RED_PET_GOODS = [
    ("red-leash", "红色 狗绳 尼龙", "dog_leash"),
    ("red-collar", "红色 猫项圈 铃铛", "pet_collar"),
    ("red-bowl", "红色 宠物碗 不锈钢", "pet_bowl"),
    ("red-bed", "红色 宠物窝 加厚", "pet_bed"),
    ("red-toy", "红色 逗猫棒 羽毛", "pet_toy"),
]


def listing(item_id: str, title: str, product_type: str, colours: list[str]) -> Product:
    return make_product(
        item_id,
        platform="jd",
        title=title,
        domain=Domain.PETS,
        product_type=product_type,
        price=39.0,
        attributes={"model": [item_id]},
        specs=ProductSpecs(labels={"color_family": colours} if colours else {}),
    )


def catalog(litter: list[tuple[str, list[str]]]) -> list[Product]:
    """The red pet goods, and litter (tofu clumping, no word of the query in its title) of
    the given ids and stated colours."""
    goods = [listing(i, title, kind, ["red"]) for i, title, kind in RED_PET_GOODS]
    return goods + [
        listing(i, f"豆腐 结团 除臭 {i} 6L", "cat_litter", colours) for i, colours in litter
    ]


@contextmanager
def agent(settings: Settings, products: list[Product]) -> Iterator[AgentDeps]:
    # Three candidates a platform: the red goods fill them.
    shallow = settings.model_copy(update={"agent_search_k": 3})
    with rules_agent_over(shallow, products, max_picks=6) as deps:
        yield deps


@pytest.fixture
def recalls(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Each RecallService.search of the turn (the real one runs), with its filters."""
    calls: list[dict[str, Any]] = []
    real: Callable[..., Any] = RecallService.search

    def counted(self: RecallService, query: str, **kwargs: Any) -> Any:
        calls.append(kwargs)
        return real(self, query, **kwargs)

    monkeypatch.setattr(RecallService, "search", counted)
    return calls


async def say(deps: AgentDeps, message: str) -> TurnResult:
    user = f"u{uuid.uuid4().hex[:8]}"
    return await run_agent(deps, user=user, thread=f"{user}-t", message=message)


def kinds(deps: AgentDeps, result: TurnResult) -> list[str]:
    found = []
    for product in result.products:
        stored = deps.recall.get(f"{product.platform}:{product.item_id}")
        assert stored is not None
        found.append(stored.product_type)
    return found


async def test_a_colour_the_types_listings_do_not_state_shows_the_type_marked_unstated(
    settings: Settings, recalls: list[dict[str, Any]]
) -> None:
    litter = [("litter-a", []), ("litter-b", []), ("litter-blue", ["blue"])]
    with agent(settings, catalog(litter)) as deps:
        result = await say(deps, "红色的猫砂")
        assert kinds(deps, result) and set(kinds(deps, result)) == {"cat_litter"}
        shown = {p.item_id for p in result.products}
        # The blue one states a colour breaking the ask: never shown.
        assert shown == {"litter-a", "litter-b"}
        assert set(result.unstated) == {"jd:litter-a", "jd:litter-b"}
    # The first recall found no litter; the second searched within it.
    assert len(recalls) == 2
    assert recalls[0]["filters"].product_types == frozenset()
    assert recalls[1]["filters"].product_types == frozenset({"cat_litter"})


async def test_a_type_whose_listings_all_break_the_spec_shows_no_unrelated_goods(
    settings: Settings, recalls: list[dict[str, Any]]
) -> None:
    litter = [("litter-blue", ["blue"]), ("litter-green", ["green"])]
    with agent(settings, catalog(litter)) as deps:
        result = await say(deps, "a red cat litter")
        assert result.products == []
        assert any("cat litter" in notice for notice in result.notices), result.notices


async def test_a_search_whose_candidates_hold_the_type_is_not_searched_again(
    settings: Settings, recalls: list[dict[str, Any]]
) -> None:
    # A red litter that says the query's words ranks among the three.
    products = [
        *catalog([("litter-a", [])]),
        listing("litter-red", "红色 猫砂", "cat_litter", ["red"]),
    ]
    with agent(settings, products) as deps:
        result = await say(deps, "红色的猫砂")
        assert "cat_litter" in kinds(deps, result)
    assert len(recalls) == 1
    assert recalls[0]["filters"].product_types == frozenset()


async def test_a_type_the_catalog_does_not_list_is_not_searched_again(
    settings: Settings, recalls: list[dict[str, Any]]
) -> None:
    # No litter at all: the scope node says so, and nothing is searched within the type.
    with agent(settings, catalog([])) as deps:
        result = await say(deps, "红色的猫砂")
        assert result.catalog_gap is not None
    assert len(recalls) == 1
