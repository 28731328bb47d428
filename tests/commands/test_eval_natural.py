"""`cartwise eval natural` through the CLI runner on a tiny catalog and a tiny set."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from cartwise.catalog.demo import demo_catalog_path
from cartwise.commands import eval as eval_command
from cartwise.commands import eval_natural
from cartwise.settings import Settings, get_settings

CONVERSATIONS = [
    {
        "id": "T01",
        "lang": "en",
        "kind": "greeting-smalltalk",
        "turns": ["hello there", "i need an electric kettle"],
        "checks": [
            {"turn": 0, "no_search": True},
            {"turn": 1, "products": "nonempty", "title_each_any": ["kettle", "水壶"]},
        ],
    },
    {
        "id": "T02",
        "lang": "zh",
        "kind": "impossible",
        "turns": ["推荐个电热水壶"],
        "checks": [{"turn": 0, "products": "empty", "title_none": ["kettle", "水壶"]}],
    },
]


@pytest.fixture
def app(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[typer.Typer]:
    monkeypatch.setenv("CARTWISE_HOME", str(settings.cartwise_home))
    monkeypatch.setenv("EMBEDDER", settings.embedder)
    monkeypatch.setenv("CATALOG_RELEVANCE_FLOOR", "-1")
    monkeypatch.setenv("CATALOG_CLOSEST_FLOOR", "-1")
    get_settings.cache_clear()
    app = typer.Typer()
    eval_command.register(app)
    eval_natural.register(app)
    yield app
    get_settings.cache_clear()


def kettle_catalog(path: Path) -> Path:
    with gzip.open(demo_catalog_path(), "rt", encoding="utf-8") as source:
        rows = [line for line in source if '"product_type": "electric_kettle"' in line]
    path.write_text("".join(rows[:12]), encoding="utf-8")
    return path


def test_eval_natural_runs_a_set_and_reports_what_passed_and_what_failed(
    app: typer.Typer, tmp_path: Path
) -> None:
    conversations = tmp_path / "tiny.jsonl"
    conversations.write_text("".join(json.dumps(c) + "\n" for c in CONVERSATIONS), "utf-8")
    out = tmp_path / "reports" / "natural.md"
    result = CliRunner().invoke(
        app,
        [
            "eval", "natural", "--set-file", str(conversations),
            "--catalog", str(kettle_catalog(tmp_path / "kettles.jsonl")), "--out", str(out),
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "| tiny | 1/2 (50.0%) | 2/3 (66.7%)" in result.stdout
    assert "T02#0 `products`" in result.stdout
    (report,) = json.loads(out.with_suffix(".json").read_text("utf-8"))
    assert report["conversations"] == {"passed": 1, "total": 2}
    assert {r["id"]: r["passed"] for r in report["results"]} == {"T01": True, "T02": False}
    assert "# Natural conversation sets" in out.read_text("utf-8")


def test_eval_natural_refuses_an_unknown_set_and_skips_an_absent_shared_set(
    app: typer.Typer, tmp_path: Path
) -> None:
    unknown = CliRunner().invoke(app, ["eval", "natural", "--sets", "holdout"])
    assert unknown.exit_code == 2
    assert "unknown set 'holdout'" in unknown.output
    absent = CliRunner().invoke(
        app, ["eval", "natural", "--sets", "shared-dev", "--data", str(tmp_path / "none")]
    )
    assert absent.exit_code == 2
    assert "skipping shared-dev" in absent.output
    assert "no conversation set to run" in absent.output
