"""The embedder evaluation's metrics and plumbing, on a tiny data folder written here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cartwise.embedding.hashing import HashingEmbedder
from cartwise.eval.embedders import (
    EmbedderScores,
    evaluate_embedders,
    recall,
    reciprocal_rank,
    render_report,
    winner,
)
from cartwise.settings import Settings

WOO_HEADER = "ID,Name,Regular price,Categories\n"


def _write_jsonl(path: Path, rows: list[dict[str, object]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    root = tmp_path / "data"
    titles = ["红色羊毛大衣", "蓝牙耳机 头戴式", "跑步鞋 男款", "不锈钢炒锅", "婴儿纸尿裤"]
    _write_jsonl(
        root / "catalogs" / "zh_titles_corpus.jsonl",
        [{"id": f"zh{i}", "title": t} for i, t in enumerate(titles)],
    )
    _write_jsonl(
        root / "eval" / "zh_query_title_dev.jsonl",
        [
            {"query": "羊毛大衣", "gold_titles": ["红色羊毛大衣"]},
            {"query": "纸尿裤", "gold_titles": ["婴儿纸尿裤"]},
        ],
    )
    shops = root / "catalogs" / "webmall"
    shops.mkdir(parents=True)
    for shop in range(1, 5):
        rows = [
            f'{shop}01,AMD Ryzen 9 5900X processor,"251,26",CPUs',
            f"{shop}02,Corsair DDR5 memory kit,99.99,Memory",
        ]
        (shops / f"webmall_{shop}.csv").write_text(
            WOO_HEADER + "\n".join(rows) + "\n", encoding="utf-8"
        )
    answers = [{"shop_id": s, "csv_ID": f"{s}01"} for s in range(1, 5)]
    _write_jsonl(
        root / "eval" / "webmall_tasks_dev.jsonl",
        [{"task": "Find all offers for the AMD Ryzen 9 5900X processor.", "answers": answers}],
    )
    return root


def test_metrics() -> None:
    assert reciprocal_rank([5, 3, 9], {3}, 10) == 0.5
    assert reciprocal_rank([5, 3, 9], {3}, 1) == 0.0
    assert recall([1, 2, 3, 4], {2, 4, 7, 8}, 3) == 0.25


def test_evaluation_runs_end_to_end_and_ranks_exact_matches_first(
    data_dir: Path, settings: Settings
) -> None:
    results = evaluate_embedders(
        ["hashing:256"], settings=settings, data_dir=data_dir,
        create=lambda spec: HashingEmbedder(256), progress=False,
    )  # fmt: skip
    [scores] = results
    assert (scores.zh_queries, scores.webmall_tasks, scores.dim) == (2, 1, 256)
    assert scores.zh_mrr10 == 1.0 and scores.zh_recall10 == 1.0
    assert scores.webmall_recall20 == 1.0 and scores.webmall_mrr10 == 1.0
    assert scores.docs_per_second > 0 and scores.queries_per_second > 0
    report = render_report(results, data_dir=data_dir)
    assert "| `hashing:256` | 256 | 1.000 | 1.000 | 1.000 | 1.000 |" in report
    assert "**Default: `hashing:256`**" in report


def _scores(name: str, zh: float, webmall: float, speed: float) -> EmbedderScores:
    return EmbedderScores(name, 8, zh, 0.0, 1, 0.0, webmall, 1, speed, speed)


def test_winner_is_chosen_by_quality_and_speed_breaks_near_ties() -> None:
    better = _scores("a", 0.50, 0.40, 10.0)
    faster = _scores("b", 0.40, 0.40, 100.0)
    assert winner([better, faster]).embedder == "a"
    near_tie = _scores("c", 0.495, 0.40, 100.0)
    assert winner([better, near_tie]).embedder == "c"
