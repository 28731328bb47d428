"""`cartwise ingest` through the CLI runner, honouring CARTWISE_HOME."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from cartwise.commands import ingest as ingest_command
from cartwise.settings import Settings, get_settings

FIXTURES = Path(__file__).resolve().parents[1] / "catalog" / "fixtures"


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[typer.Typer]:
    monkeypatch.setenv("CARTWISE_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("EMBEDDER", "hashing:256")
    get_settings.cache_clear()
    cli = typer.Typer()
    ingest_command.register(cli)
    cli.command("noop")(lambda: None)  # a second command keeps `ingest` a named subcommand
    yield cli
    get_settings.cache_clear()


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def test_ingest_json_report_lists_row_errors_with_line_numbers(
    app: typer.Typer, runner: CliRunner, tmp_path: Path
) -> None:
    result = runner.invoke(
        app, ["ingest", str(FIXTURES / "woocommerce.csv"), "--platform", "shop_a", "--json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert (report["ingested"], report["skipped"], report["platforms"]) == (3, 3, ["shop_a"])
    assert [e["line"] for e in report["errors"]] == [5, 6, 7]
    assert (tmp_path / "home" / "embedding_cache.sqlite").is_file()

    again = runner.invoke(
        app, ["ingest", str(FIXTURES / "woocommerce.csv"), "--platform", "shop_a", "--json"]
    )
    assert json.loads(again.stdout.strip().splitlines()[-1])["cached"] == 3


def test_ingest_prints_a_readable_report(app: typer.Typer, runner: CliRunner) -> None:
    result = runner.invoke(
        app,
        [
            "ingest",
            str(FIXTURES / "generic.csv"),
            "--mapping",
            str(FIXTURES / "generic_mapping.yml"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "2 products upserted into localshop" in " ".join(result.stdout.split())
    assert "no title" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ingest", "/nonexistent/catalog.jsonl"], "no such file"),
        (["ingest", str(FIXTURES / "generic.csv")], "needs --mapping"),
        (
            ["ingest", str(FIXTURES / "generic.csv"), "--mapping", "nosuchmapping"],
            "no such mapping",
        ),
        (["ingest", str(FIXTURES / "native.jsonl"), "--format", "xml"], "unknown format"),
        (["ingest"], "either PATH or --demo"),
    ],
)
def test_bad_input_is_one_clear_line_and_exit_2(
    app: typer.Typer, runner: CliRunner, args: list[str], message: str
) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_a_file_whose_rows_are_all_refused_exits_1_with_its_report(
    app: typer.Typer, runner: CliRunner, tmp_path: Path
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(
        '{"platform": "jd", "item_id": "1", "title": "x", "price": "free"}\n', encoding="utf-8"
    )
    result = runner.invoke(app, ["ingest", str(path), "--json"])
    assert result.exit_code == 1
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert (report["format"], report["ingested"], report["errors"][0]["line"]) == ("jsonl", 0, 1)


def test_ingest_reports_price_points_and_the_alerts_it_raised(
    app: typer.Typer, runner: CliRunner, tmp_path: Path
) -> None:
    from cartwise.catalog.model_identity import model_identity
    from cartwise.catalog.product import Product
    from cartwise.memory import create_watch_store
    from cartwise.memory.prices import new_watch

    source = tmp_path / "shop.jsonl"
    row = {"platform": "jd", "item_id": "A1", "title": "Sony WH-1000XM5 headphones",
           "brand": "Sony", "price": 2299, "currency": "CNY"}  # fmt: skip
    source.write_text(json.dumps(row) + "\n", encoding="utf-8")
    first = json.loads(
        runner.invoke(app, ["ingest", str(source), "--json"]).stdout.splitlines()[-1]
    )
    assert (first["price_points"], first["alerts"]) == (1, 0)

    store = create_watch_store(get_settings())
    store.add(new_watch("ann", model=model_identity(Product.model_validate(row)), title="x",
                        kind="price", target=2000, currency="CNY"))  # fmt: skip
    store.close()
    source.write_text(json.dumps({**row, "price": 1999}) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["ingest", str(source)])
    assert result.exit_code == 0, result.output
    assert "1 price points, 1 alerts raised" in " ".join(result.stdout.split())


@pytest.mark.slow
def test_the_report_is_printed_before_a_silent_webhook_is_waited_for(
    tmp_path: Path, settings: Settings
) -> None:
    """`cartwise ingest` as a process: an alert whose shopper's webhook never answers is
    posted while the command ends (bounded), after the report is out — not before it."""
    import subprocess
    import sys
    import threading
    import time
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from cartwise.catalog.model_identity import model_identity
    from cartwise.catalog.product import Product
    from cartwise.memory import create_watch_store
    from cartwise.memory.prices import new_watch

    release = threading.Event()

    class Silent(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            release.wait(30)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Silent)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = {**os.environ, "CARTWISE_HOME": str(settings.cartwise_home), "EMBEDDER": "hashing:256",
           "ALERT_WEBHOOK_SECRET": "test-webhook-secret"}  # fmt: skip
    command = [str(Path(sys.executable).with_name("cartwise")), "ingest", "--json"]
    source = tmp_path / "shop.jsonl"
    row = {"platform": "jd", "item_id": "A1", "title": "Sony WH-1000XM5 headphones",
           "brand": "Sony", "price": 2299, "currency": "CNY"}  # fmt: skip
    try:
        source.write_text(json.dumps(row) + "\n", encoding="utf-8")
        subprocess.run([*command, str(source)], env=env, check=True, capture_output=True,
                       timeout=120)  # fmt: skip
        store = create_watch_store(settings)
        store.add(new_watch("ann", model=model_identity(Product.model_validate(row)), title="x",
                            kind="price", target=2000, currency="CNY"))  # fmt: skip
        store.set_webhook("ann", f"http://127.0.0.1:{server.server_address[1]}/hook")
        store.close()
        source.write_text(json.dumps({**row, "price": 1999}) + "\n", encoding="utf-8")
        started = time.monotonic()
        with subprocess.Popen([*command, str(source)], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True) as process:  # fmt: skip
            assert process.stdout is not None
            report = json.loads(process.stdout.readline())
            reported = time.monotonic() - started
            assert process.wait(timeout=120) == 0
            ended = time.monotonic() - started
    finally:
        release.set()
        server.shutdown()
        server.server_close()
    assert report["alerts"] == 1
    assert ended - reported > 5  # the command then gave the post its time (10 s at most)
    assert ended < reported + 15
