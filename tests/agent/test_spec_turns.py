"""Specs through whole turns (rules engine, real stores, hashing embedder): filters with the
unstated top-up, "the cheapest … with …" with every tie, superlatives, follow-ups keeping
the specs, a new product type dropping them, compatibility with a shown item, and a number
that is no budget."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from cartwise.agent.deps import AgentDeps
from cartwise.agent.result import TurnResult
from cartwise.agent.run import run_agent
from cartwise.catalog.product import Domain, Product
from cartwise.catalog.specs import ProductSpecs, check
from cartwise.settings import Settings
from tests.agent.conftest import rules_agent_over
from tests.factories import make_product

CABLES = [
    # (platform, item_id, metres or None, price)
    ("jd", "hdmi-1m", 1.0, 19.0),
    ("jd", "hdmi-3m", 3.0, 29.0),
    ("taobao", "hdmi-5m", 5.0, 39.0),
    ("jd", "hdmi-5m-b", 5.0, 39.0),
    ("taobao", "hdmi-10m", 10.0, 59.0),
    ("jd", "hdmi-x", None, 25.0),
]


def _cable(platform: str, item_id: str, metres: float | None, price: float) -> Product:
    return make_product(
        item_id,
        platform=platform,
        title=f"HDMI cable 高清线 {item_id}",
        brand=f"Brand{item_id}",
        domain=Domain.ELECTRONICS,
        product_type="usb_cable",
        price=price,
        attributes={"model": [item_id]},
        specs=ProductSpecs(
            numbers={"length": [metres]} if metres is not None else {},
            labels={"interface": ["hdmi"]},
        ),
    )


def spec_catalog() -> list[Product]:
    products = [_cable(*row) for row in CABLES]
    products += [
        make_product(
            "board-am5",
            platform="jd",
            title="Asrock B650 motherboard AM5 DDR5",
            category_raw="Hardware > Motherboards",
            domain=Domain.ELECTRONICS,
            price=899.0,
            attributes={"model": ["B650"]},
            specs=ProductSpecs(labels={"socket": ["am5"], "memory_type": ["ddr5"]}),
        ),
        make_product(
            "cpu-am5",
            platform="jd",
            title="AMD Ryzen 7 7700X CPU processor AM5",
            domain=Domain.ELECTRONICS,
            price=1999.0,
            attributes={"model": ["7700X"]},
            specs=ProductSpecs(labels={"socket": ["am5"]}),
        ),
        make_product(
            "cpu-am4",
            platform="jd",
            title="AMD Ryzen 7 5700X CPU processor AM4",
            domain=Domain.ELECTRONICS,
            price=999.0,
            attributes={"model": ["5700X"]},
            specs=ProductSpecs(labels={"socket": ["am4"]}),
        ),
    ]
    return products


@pytest.fixture
def deps(settings: Settings) -> Iterator[AgentDeps]:
    with rules_agent_over(settings, spec_catalog(), max_picks=6) as deps:
        yield deps


class Conversation:
    def __init__(self, deps: AgentDeps) -> None:
        self.deps = deps
        self.user = f"u{uuid.uuid4().hex[:8]}"

    async def say(self, message: str) -> TurnResult:
        return await run_agent(self.deps, user=self.user, thread=f"{self.user}-t", message=message)


def keys(result: TurnResult) -> list[str]:
    return [f"{p.platform}:{p.item_id}" for p in result.products]


def lengths(deps: AgentDeps, result: TurnResult) -> list[float | None]:
    found: list[float | None] = []
    for key in keys(result):
        product = deps.recall.get(key)
        assert product is not None
        found.append(max(product.specs.numbers.get("length", [0.0]) or [0.0]) or None)
    return found


async def test_a_length_filter_never_shows_a_violation_and_marks_unstated(
    deps: AgentDeps,
) -> None:
    result = await Conversation(deps).say("HDMI cables longer than 3 metres")
    specs = result.dialogue.active_search.specs if result.dialogue.active_search else None
    assert specs is not None and [(s.attribute, s.op, s.value) for s in specs.numeric] == [
        ("length", "gt", 3.0)
    ]
    shown = keys(result)
    assert {"taobao:hdmi-5m", "jd:hdmi-5m-b", "taobao:hdmi-10m"} <= set(shown)
    assert "jd:hdmi-1m" not in shown and "jd:hdmi-3m" not in shown  # violations never shown
    for key in shown:
        product = deps.recall.get(key)
        assert product is not None and check(product.specs, specs) != "violates"
    assert "jd:hdmi-x" in result.unstated and set(result.unstated) <= set(shown)
    assert result.dialogue.active_search is not None
    assert result.dialogue.active_search.kind == "cable"
    # The named kind comes first: every cable before anything else.
    is_cable = ["HDMI" in product.title for product in result.products]
    assert is_cable == sorted(is_cable, reverse=True)
    assert any("length > 3 m" in line and line.endswith(": 3 offers") for line in result.applied)
    assert "the listing does not state its length" in result.reply
    assert "budget" not in " ".join(result.applied)  # a length is no budget
    assert "budget_max" not in result.memory.session.slots


async def test_cheapest_with_a_spec_names_every_tie_first(deps: AgentDeps) -> None:
    result = await Conversation(deps).say("the cheapest HDMI cable longer than 3 m")
    answer = result.dialogue.answer
    assert answer is not None and answer.kind == "spec_winner"
    assert sorted(i.item_id for i in answer.items) == ["hdmi-5m", "hdmi-5m-b"]
    assert result.reply.startswith("Cheapest first: the winner is")
    assert "Tied with it" in result.reply


async def test_a_superlative_names_the_winner_and_orders_the_list(deps: AgentDeps) -> None:
    result = await Conversation(deps).say("the longest HDMI cable")
    answer = result.dialogue.answer
    assert answer is not None and answer.kind == "spec_winner"
    assert answer.items[0].item_id == "hdmi-10m" and answer.winner_value == "10 m"
    stated = [v for v in lengths(deps, result) if v is not None]
    assert stated == sorted(stated, reverse=True)


async def test_follow_ups_keep_the_specs_and_a_new_type_drops_them(deps: AgentDeps) -> None:
    talk = Conversation(deps)
    await talk.say("HDMI cables longer than 3 metres")
    cheaper = await talk.say("anything cheaper?")
    search = cheaper.dialogue.active_search
    assert search is not None and [s.attribute for s in search.specs.numeric] == ["length"]
    assert "jd:hdmi-1m" not in keys(cheaper) and "jd:hdmi-3m" not in keys(cheaper)
    other = await talk.say("AMD CPU processor")
    assert other.dialogue.active_search is not None
    assert other.dialogue.active_search.specs.is_empty()


async def test_compatible_with_a_shown_item_filters_by_its_socket(deps: AgentDeps) -> None:
    talk = Conversation(deps)
    first = await talk.say("Asrock B650 motherboard")
    assert keys(first)[0] == "jd:board-am5"
    result = await talk.say("compatible CPU processors for it")
    shown = keys(result)
    assert "jd:cpu-am5" in shown and "jd:cpu-am4" not in shown
    search = result.dialogue.active_search
    assert search is not None and search.kind == "cpu"  # what goes with the board
    assert any("socket: AM5" in line for line in result.applied)


async def test_compatible_with_a_board_named_by_its_model_filters_by_its_socket(
    deps: AgentDeps,
) -> None:
    result = await Conversation(deps).say("a CPU processor compatible with the Asrock B650")
    shown = keys(result)
    assert "jd:cpu-am5" in shown and "jd:cpu-am4" not in shown
    assert any("socket: AM5" in line for line in result.applied)


async def test_a_superlative_no_listing_can_answer_says_so(deps: AgentDeps) -> None:
    """No cable states a power: the reply claims no order and no winner, it says why."""
    result = await Conversation(deps).say("which HDMI cable has the highest wattage")
    assert result.products, "the cables are still shown"
    assert result.dialogue.answer is None or result.dialogue.answer.kind != "spec_winner"
    assert not any("highest power first" in line for line in result.applied)
    assert any("states its power" in notice for notice in result.notices)
    assert "states its power" in result.reply


async def test_a_superlative_said_alone_orders_the_running_search(deps: AgentDeps) -> None:
    """A follow-up superlative naming no product orders what is being shopped for."""
    talk = Conversation(deps)
    await talk.say("HDMI cables longer than 3 metres")
    result = await talk.say("哪根最长")
    search = result.dialogue.active_search
    assert search is not None and search.specs.sort is not None
    assert search.specs.sort.attribute == "length" and search.specs.sort.descending
