"""`cartwise eval catalog`: the facts about a catalog, and that they can come out bad."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from cartwise.commands import eval as eval_group
from cartwise.commands import eval_catalog
from cartwise.eval.catalog import catalog_report, render_lines
from tests.factories import make_product


def _cli() -> typer.Typer:
    app = typer.Typer()
    eval_group.register(app)
    eval_catalog.register(app)
    return app


def test_report_counts_links_images_and_spread_and_catches_bad_ones() -> None:
    good = dict(
        product_type="bookshelf",
        url="https://item.taobao.com/item.htm?id=1",
        image_url="/images/bookshelf/white.svg",
        attributes={"model": ["Billy"]},
        brand="IKEA",
    )
    products = [
        make_product("1", platform="taobao", price=100.0, **good),
        make_product("2", platform="jd", price=120.0, **{**good, "url": "https://search.jd.com/Search?keyword=2"}),
        make_product("3", platform="amazon", price=80.0, **{**good, "image_url": "/images/spaceship/white.svg"}),
        make_product("4", platform="walmart", price=10.0, title="No links"),
    ]  # fmt: skip
    report = catalog_report(products)
    assert report.offers == 4 and report.with_url == 3
    assert report.with_product_url == 1, "a search page or another host is not a product page"
    assert (report.with_image, report.with_resolving_image) == (3, 2)
    assert report.untyped == 1 and "bookshelf" not in report.missing_types
    assert report.multi_platform_models == 1
    assert report.spreads == [(120 - 80) / 100]
    text = "\n".join(render_lines(report))
    assert "1/4 (25.0%)" in text and "40.0%" in text


def test_command_on_a_small_file_and_a_missing_one(tmp_path: Path) -> None:
    path = tmp_path / "shop.jsonl"
    rows = [
        {"platform": "taobao", "item_id": "1", "title": "书架", "price": 99, "currency": "CNY",
         "product_type": "bookshelf", "url": "https://s.taobao.com/search?q=%E4%B9%A6%E6%9E%B6",
         "image_url": "/images/bookshelf/brown.svg"},
        {"platform": "taobao", "item_id": "2", "title": "", "price": 1, "currency": "CNY"},
    ]  # fmt: skip
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    result = CliRunner().invoke(_cli(), ["eval", "catalog", str(path)])
    assert result.exit_code == 0, result.output
    assert "offers: 1" in result.stdout and "1/1 (100.0%)" in result.stdout
    assert "rows with errors: 1" in result.stdout
    missing = CliRunner().invoke(_cli(), ["eval", "catalog", str(tmp_path / "nope.jsonl")])
    assert missing.exit_code == 2 and "error:" in missing.output
    assert "Traceback" not in missing.output


@pytest.mark.slow
def test_the_demo_catalog_report() -> None:
    """The Must-show: domains, types, offers per platform, price spread, links, images."""
    result = CliRunner().invoke(_cli(), ["eval", "catalog"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert re.search(r"domains: 2\d ", out)
    assert re.search(r"product types: (\d+) of \1 in the taxonomy\n", out)
    for platform in ("taobao", "jd", "pinduoduo", "amazon", "walmart", "shopee"):
        assert re.search(rf"{platform} \d{{1,2}},\d{{3}}", out), platform
    spread = re.search(r"max (\d+\.\d)%", out)
    assert spread and float(spread.group(1)) <= 2 * 25 / 75 * 100  # ±25 % around one price
    assert "https product page of their platform: 1" in out and out.count("(100.0%)") == 4
