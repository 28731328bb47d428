"""`cartwise eval understanding` through the CLI runner, with the real rules engine."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from cartwise.commands import eval as eval_command
from cartwise.commands import eval_understanding
from cartwise.eval.understanding import real_text_coverage
from cartwise.settings import Settings, get_settings
from cartwise.understanding.rules.engine import RulesEngine

DEV_CASES = [
    {
        "id": "zh-t-1",
        "turns": ["不要塑料的耳机"],
        "expect": {
            "domain": "electronics",
            "stated": ["dislike/material/plastic/electronics/hard/long_term"],
        },
    },
    {
        "id": "zh-t-2",
        "turns": ["这次预算500"],
        "expect": {"slots": {"budget_max": "500", "budget_currency": "CNY"}},
    },
]


@pytest.fixture
def app(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[typer.Typer]:
    monkeypatch.setenv("CARTWISE_HOME", str(settings.cartwise_home))
    monkeypatch.setenv("ENGINE", "rules")
    get_settings.cache_clear()
    cli = typer.Typer()
    eval_command.register(cli)
    eval_understanding.register(cli)
    cli.command("noop")(lambda: None)
    yield cli
    get_settings.cache_clear()


@pytest.fixture
def dev_set(tmp_path: Path) -> Path:
    path = tmp_path / "dev.jsonl"
    path.write_text("\n".join(json.dumps(c, ensure_ascii=False) for c in DEV_CASES), "utf-8")
    return path


def test_report_is_written_and_absent_data_is_skipped(
    app: typer.Typer, dev_set: Path, settings: Settings, tmp_path: Path
) -> None:
    result = CliRunner().invoke(
        app,
        ["eval", "understanding", "--dev-set", str(dev_set), "--data", str(tmp_path / "none")],
    )

    assert result.exit_code == 0, result.output
    assert "polarity accuracy 1.000" in result.stdout
    assert "skipped: WebShop" in result.stdout
    report = (settings.cartwise_home / "reports" / "understanding.md").read_text("utf-8")
    assert "| polarity accuracy | 1.000 | ≥ 0.98 | pass |" in report
    assert "| dedup_key F1 | 1.000 | ≥ 0.90 | pass |" in report
    assert "| slot accuracy | 1.000 | ≥ 0.95 | pass |" in report
    assert "skipped: PrefEval" in report


@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "cannot read"), ('{"id": "x"}\n', "not a dev case")],
    ids=["missing", "malformed"],
)
def test_bad_dev_set_is_a_clear_error(
    app: typer.Typer, tmp_path: Path, content: str | None, message: str
) -> None:
    path = tmp_path / "dev.jsonl"
    if content is not None:
        path.write_text(content, "utf-8")

    result = CliRunner().invoke(app, ["eval", "understanding", "--dev-set", str(path)])

    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_coverage_reads_webshop_files_in_place(tmp_path: Path) -> None:
    goals = tmp_path / "nlu" / "webshop" / "human_goals.json"
    goals.parent.mkdir(parents=True)
    goals.write_text(
        json.dumps(
            [
                "i need a usb microphone, and price lower than 40.00 dollars",
                "black running shoes in size 10, and price lower than 60.00 dollars",
                "a queen size bedspread set",  # states no price: not eligible
            ]
        ),
        "utf-8",
    )
    coverage, skipped = real_text_coverage(RulesEngine(), tmp_path)

    assert skipped == []
    by_name = {c.name: c for c in coverage}
    assert (
        by_name["webshop price ceiling"].eligible,
        by_name["webshop price ceiling"].covered,
    ) == (
        2,
        2,
    )
    assert set(by_name) == {"webshop price ceiling"}
