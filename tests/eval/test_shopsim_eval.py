"""The ShopSim harness: the stated-budget reader, the split and sample, judging, the scripted
shopper, and a whole run over a fake agent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cartwise.eval.shopsim import (
    MAX_SHOPPER_REPLIES,
    ScriptedShopper,
    ShopSimAgent,
    Shown,
    evaluate_shopsim,
    full_script,
    judge,
    render_markdown,
    shown_of,
)
from cartwise.eval.shopsim_tasks import (
    ShopSimTask,
    StatedBudget,
    count_by_split,
    load_tasks,
    sample,
    split_of,
    stated_budget,
    zh_amount,
)


def task(**fields: Any) -> ShopSimTask:
    base: dict[str, Any] = {
        "task_id": 7,
        "asin": "T1",
        "instruction_text": "帮我找一款黑色的回音壁音响，价格不超过1800元。",
        "instruction_simple": "想买个回音壁音响，价格不超过1800元。",
        "attributes": ["黑色", "全景声", "3D环绕", "家庭影院"],
        "goal_options": ["国行全新"],
        "price_upper": 2000,
    }
    return ShopSimTask.model_validate(base | fields)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("价格不超过18000元。", StatedBudget(18000, approximate=False)),
        ("价格控制在10元内。", StatedBudget(10, approximate=False)),
        ("价格要在60到70元之间", StatedBudget(70, approximate=False)),
        ("预算1000到1200元。", StatedBudget(1200, approximate=False)),
        ("全款2700元左右。", StatedBudget(2700, approximate=True)),
        ("70块钱上下的就挺好", StatedBudget(70, approximate=True)),
        ("预算的话100出头一点点", StatedBudget(100, approximate=True)),
        ("价格在八十元左右", StatedBudget(80, approximate=True)),
        ("价格两千九附近的", StatedBudget(2900, approximate=True)),
        ("预算在21万元左右", StatedBudget(210000, approximate=True)),
        ("价位在12000左右，最好是白色", StatedBudget(12000, approximate=True)),
        ("预算在440以内，有推荐吗", StatedBudget(440, approximate=False)),
    ],
)
def test_stated_budget_reads_ceilings_ranges_and_approximate_amounts(
    text: str, expected: StatedBudget
) -> None:
    assert stated_budget(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "要6mm左右的珠子，买30瓶",  # a size, not a price
        "尺寸为1.8x2.0米，高190厘米左右",
        "有没有不沾杯的镜面唇釉？",
    ],
)
def test_stated_budget_ignores_amounts_that_are_not_prices(text: str) -> None:
    assert stated_budget(text) is None


def test_approximate_budget_allows_a_margin_a_ceiling_none() -> None:
    assert StatedBudget(100, approximate=True).ceiling == pytest.approx(120)
    assert StatedBudget(100, approximate=False).ceiling == 100


@pytest.mark.parametrize(
    ("text", "value"),
    [("十", 10), ("八十", 80), ("六百", 600), ("两千", 2000), ("三万五", 35000), ("21万", 210000)],
)
def test_zh_amount(text: str, value: float) -> None:
    assert zh_amount(text) == value


def test_split_is_fixed_and_roughly_even() -> None:
    tasks = [task(task_id=n) for n in range(400)]
    counts = count_by_split(tasks)
    assert 160 < counts["dev"] < 240
    assert [split_of(n) for n in range(50)] == [split_of(n) for n in range(50)]


def test_sample_is_seeded_and_a_larger_sample_contains_a_smaller_one() -> None:
    tasks = [task(task_id=n) for n in range(200)]
    small, large = sample(tasks, "dev", 5), sample(tasks, "dev", 20)
    assert small == large[:5]
    assert all(split_of(t.task_id) == "dev" for t in large)
    assert [t.task_id for t in sample(tasks, "dev", 20, seed=1)] != [t.task_id for t in large]


def test_judge_finds_the_target_among_offers_and_checks_both_budgets() -> None:
    one = task()
    shown = [Shown("A", 1500), Shown("B", 1900, offers=("T1",))]
    judged = judge(one, shown)
    assert judged.target_rank == 2
    assert judged.within_stated is False  # 1900 > 1800 stated
    assert judged.within_upper is True  # within the upstream 2000
    assert judge(one, []).within_stated is None


def test_shown_of_reads_the_turn_json_to_the_depth() -> None:
    turn = {
        "products": [
            {"item_id": "A", "price_base": 10.0, "offers": [{"item_id": "A"}, {"item_id": "Z"}]},
            {"item_id": "B", "price_base": 20.0, "offers": []},
        ]
    }
    assert shown_of(turn, 1) == [Shown("A", 10.0, ("A", "Z"))]


def test_scripted_shopper_says_unsaid_attributes_then_the_variant_then_stops() -> None:
    shopper = ScriptedShopper(task(instruction_simple="想买个黑色回音壁音响"))
    assert shopper.opening == "想买个黑色回音壁音响"
    assert shopper.next_message() == "要全景声，3D环绕的"  # 黑色 was already said
    assert shopper.next_message() == "要家庭影院的"
    assert shopper.next_message() == "要国行全新的"
    assert shopper.next_message() is None
    assert shopper.replies <= MAX_SHOPPER_REPLIES


def test_full_script_is_what_the_shopper_would_say_whatever_the_agent_does() -> None:
    one = task(instruction_simple="想买个黑色回音壁音响")
    assert full_script(one) == [
        "想买个黑色回音壁音响",
        "要全景声，3D环绕的",
        "要家庭影院的",
        "要国行全新的",
    ]


def test_scripted_shopper_opens_with_the_full_instruction_when_no_simple_one() -> None:
    one = task(instruction_simple=None)
    assert ScriptedShopper(one).opening == one.instruction_text


class FakeAgent:
    """Shows the target only once the shopper has said 全景声."""

    def __init__(self) -> None:
        self.said: list[str] = []

    async def run_turn(self, user: str, thread: str, message: str) -> dict[str, Any]:
        self.said.append(message)
        products = [{"item_id": "X", "price_base": 1700.0, "offers": []}]
        if "全景声" in message:
            products.append({"item_id": "T1", "price_base": 1750.0, "offers": []})
        return {"products": products, "questions": [] if products else ["?"]}

    def bare_search(self, text: str, k: int) -> list[Shown]:
        return [Shown("X", 2500.0)][:k]


async def test_single_turn_run_scores_agent_and_bare_search() -> None:
    fake = FakeAgent()
    agent = ShopSimAgent(run_turn=fake.run_turn, bare_search=fake.bare_search, depth=8)
    one = task(instruction_text="黑色全景声回音壁音响，价格不超过1800元")
    report = await evaluate_shopsim(agent, [one], mode="single", split="dev")
    assert report.agent.target_shown.hits == 1
    assert report.agent.within_stated.hits == 1
    assert report.bare.target_shown.hits == 0
    assert report.bare.within_stated.hits == 0  # 2500 > 1800
    assert (report.agent_only, report.bare_only) == (1, 0)
    assert "target shown (top 8)" in render_markdown([report], depth=8)


async def test_multi_turn_run_stops_when_the_target_is_shown() -> None:
    fake = FakeAgent()
    agent = ShopSimAgent(run_turn=fake.run_turn, bare_search=fake.bare_search, depth=8)
    report = await evaluate_shopsim(agent, [task()], mode="multi", split="test")
    assert fake.said == ["想买个回音壁音响，价格不超过1800元。", "要黑色，全景声的"]
    assert report.turns_to_target == {2: 1}
    assert report.agent.target_shown.hits == 1
    assert report.bare_opening.target_shown.total == 1
    public = report.public_json()
    assert "全景声" not in public and "回音壁" not in public  # no task text, no reply
    assert '"task_id": 7' in public


async def test_a_turn_that_raises_is_a_failed_task_not_a_failed_run() -> None:
    async def broken(user: str, thread: str, message: str) -> dict[str, Any]:
        raise RuntimeError("boom")

    agent = ShopSimAgent(run_turn=broken, bare_search=lambda text, k: [], depth=8)
    report = await evaluate_shopsim(agent, [task()], mode="single", split="dev")
    assert report.errors == 1
    assert report.agent.target_shown.hits == 0


@pytest.mark.shared_data
def test_real_tasks_load_split_and_mostly_state_a_budget(shared_data: Path) -> None:
    tasks = load_tasks(shared_data / "shopsim" / "tasks_dev.jsonl")
    counts = count_by_split(tasks)
    assert sum(counts.values()) == len(tasks)
    assert min(counts.values()) > len(tasks) // 3
    stated = sum(stated_budget(t.instruction_text) is not None for t in tasks)
    assert stated > 0.9 * len(tasks)
