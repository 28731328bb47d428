"""The retrieval evaluation's own logic, on a tiny hand-made data folder (hashing embedder)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from cartwise.catalog.product import Product
from cartwise.commands import eval as eval_command
from cartwise.commands import eval_retrieval
from cartwise.embedding import create_embedder
from cartwise.eval.retrieval import evaluate_retrieval, recall_at, reciprocal_rank
from cartwise.eval.retrieval_report import render_chart, render_markdown
from cartwise.settings import Settings
from tests.factories import make_product

ZH_TITLES = [
    "华为 降噪耳机 蓝牙",
    "小米 电饭煲 家用",
    "耐克 跑步鞋 男款",
    "华为 手机壳 透明",
    "苹果 数据线",
]


def _write_jsonl(path: Path, rows: list[dict[str, object]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    root = tmp_path / "data"
    _write_jsonl(
        root / "catalogs" / "zh_titles_corpus.jsonl",
        [{"id": f"zh{i}", "title": t} for i, t in enumerate(ZH_TITLES)]
        + [{"id": "dup", "title": ZH_TITLES[1]}],
    )
    _write_jsonl(
        root / "eval" / "zh_query_title_dev.jsonl",
        [
            {"query": "降噪耳机", "gold_titles": [ZH_TITLES[0]]},
            {"query": "电饭煲", "gold_titles": [ZH_TITLES[1]]},
            {"query": "无人知晓", "gold_titles": ["not in the corpus"]},
        ],
    )
    _write_jsonl(
        root / "eval" / "webmall_tasks_dev.jsonl",
        [
            {
                "task": "Find all offers for the AMD Ryzen 9 5900X.",
                "category": "Specific_Product",
                "answers": [{"shop_id": 1, "csv_ID": "10"}, {"shop_id": 2, "csv_ID": "20"}],
            },
            {
                "task": "Find the cheapest Sony headphones.",
                "category": "Cheapest",
                "answers": [{"shop_id": 2, "csv_ID": "21"}],
            },
            {
                "task": "Unresolved task",
                "category": "Cheapest",
                "answers": [{"shop_id": 9, "csv_ID": "1"}],
            },
        ],
    )
    (root / "catalogs" / "webmall").mkdir(parents=True)
    return root


def _shops(_data: Path, _settings: Settings) -> list[Product]:
    return [
        make_product("10", platform="webmall_1", title="AMD Ryzen 9 5900X 12 cores", brand="AMD", category_raw="PC > CPU"),
        make_product("11", platform="webmall_1", title="AMD Ryzen 7 5800X", brand="AMD", category_raw="PC > CPU"),
        make_product("20", platform="webmall_2", title="Ryzen 9 5900X processor", brand="AMD", category_raw="Components > Processors"),
        make_product("21", platform="webmall_2", title="Sony WH-1000XM5 headphones", brand="Sony", category_raw="Audio > Headphones"),
    ]  # fmt: skip


def test_metrics() -> None:
    assert reciprocal_rank(["a", "b", "c"], {"c", "z"}, 10) == pytest.approx(1 / 3)
    assert reciprocal_rank(["a", "b", "c"], {"c"}, 2) == 0.0
    assert recall_at(["a", "b", "c"], {"a", "c", "z", "y"}, 2) == 0.25
    assert recall_at([], set(), 5) == 0.0


def test_evaluation_runs_end_to_end_and_renders(settings: Settings, data_dir: Path) -> None:
    embedder = create_embedder(settings.embedder)
    report = evaluate_retrieval(
        settings=settings, embedder=embedder, data_dir=data_dir, webmall_reader=_shops
    )
    assert report.zh_queries == 2  # the query whose gold title is not in the corpus is dropped
    assert report.zh["lexical"].mrr10 == pytest.approx(1.0)
    assert report.zh["hybrid"].recall == pytest.approx(
        1.0
    )  # both 电饭煲 ids (duplicate title) found
    assert report.webmall.tasks == 2
    assert set(report.webmall.by_category) == {"Specific_Product", "Cheapest"}
    assert report.webmall.overall["hybrid"] == pytest.approx(1.0)
    # The spec path runs on both sets in the same run (no specs here: it finds the same).
    assert report.webmall.overall["hybrid_specs"] == pytest.approx(1.0)
    assert report.zh["hybrid_specs"].recall == pytest.approx(1.0)
    assert set(report.ab.recall) == {"aligned", "unrelated"}
    assert set(report.ab.recall["aligned"]["dense"]) == {"0.0", "0.15"}

    markdown = render_markdown(report, chart_name="retrieval.png", data_dir=data_dir)
    assert "| hybrid | 1.000 |" in markdown and "User tower A/B" in markdown
    assert "| hybrid + specs | 1.000 |" in markdown and "hybrid + specs |\n" in markdown
    chart = settings.home / "reports" / "retrieval.png"
    render_chart(report, chart)
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_command_skips_cleanly_without_shared_data(tmp_path: Path) -> None:
    app = typer.Typer()
    eval_command.register(app)
    eval_retrieval.register(app)
    result = CliRunner().invoke(app, ["eval", "retrieval", "--data", str(tmp_path / "absent")])
    assert result.exit_code == 0
    assert "skipped: no shared evaluation data" in result.stderr
