"""The hand-labelled spec sets and `cartwise eval specs`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from cartwise.catalog.specs import ATTRIBUTES, ProductSpecs, parse_request_specs
from cartwise.commands import eval as eval_command
from cartwise.commands import eval_specs
from cartwise.eval.specs import evaluate_specs, score_listings, score_requests
from cartwise.eval.specs_data import (
    SPLITS,
    LabelledListing,
    LabelledRequest,
    ListingText,
    load_listing_labels,
    load_request_labels,
)
from cartwise.settings import Settings, get_settings

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "catalogs"


def test_the_labelled_sets_are_big_enough_and_bilingual() -> None:
    labels = [label for split in SPLITS for label in load_listing_labels(split)]
    values = sum(len(v) for label in labels for v in label.numbers.values())
    values += sum(len(v) for label in labels for v in label.labels.values())
    requests = [r for split in SPLITS for r in load_request_labels(split)]
    specs = sum(
        len(r.numeric)
        + len(r.labels)
        + int(r.sort is not None)
        + int(r.cheapest)
        + len(r.unchecked)
        for r in requests
    )
    assert values >= 200
    assert specs >= 100
    assert {r.lang for r in requests} == {"en", "zh"}


def test_dev_and_test_share_no_listing_and_no_request() -> None:
    dev, test = (load_listing_labels(s) for s in SPLITS)
    assert not {(x.source, x.row) for x in dev} & {(x.source, x.row) for x in test}
    dev_requests, test_requests = (load_request_labels(s) for s in SPLITS)
    assert not {r.text for r in dev_requests} & {r.text for r in test_requests}


def test_labels_speak_the_attribute_vocabulary() -> None:
    for split in SPLITS:
        for label in load_listing_labels(split):
            assert set(label.numbers) | set(label.labels) <= set(ATTRIBUTES)
        for request in load_request_labels(split):
            named = {n[0] for n in request.numeric} | {lab[0] for lab in request.labels}
            assert named <= set(ATTRIBUTES)


def test_listing_scores_count_matches_within_one_percent() -> None:
    label = LabelledListing(
        source="demo", row="1", numbers={"length": [3.0, 1.0]}, labels={"socket": ["am5"]}
    )
    stated = ProductSpecs(numbers={"length": [3.02, 7.0]}, labels={"socket": ["am5", "am4"]})
    scores = score_listings("t", [label], [ListingText(title="x")], lambda _: stated)
    assert (scores.tally("length").matched, scores.tally("length").stated) == (1, 2)
    assert scores.tally("length").labelled == 2
    assert scores.tally("socket").precision == 0.5
    assert scores.overall().recall == pytest.approx(2 / 3)
    assert scores.misses


def test_request_scores_need_the_right_operator() -> None:
    label = LabelledRequest(text="over 3 m", lang="en", numeric=[("length", "ge", 3.0)])
    scores = score_requests("t", [label], parse_request_specs)
    assert scores.overall().matched == 0  # "over" is gt, the label says ge: a miss
    right = LabelledRequest(text="over 3 m", lang="en", numeric=[("length", "gt", 3.0)])
    assert score_requests("t", [right], parse_request_specs).overall().recall == 1.0


@pytest.mark.slow
def test_without_the_shared_catalogs_only_demo_listings_are_scored(tmp_path: Path) -> None:
    report = evaluate_specs(tmp_path / "absent", splits=["dev"], timed_listings=20)
    assert any("absent" in reason for reason in report.skipped)
    assert 0 < report.listings[0].items < len(load_listing_labels("dev"))
    assert report.requests[0].items == len(load_request_labels("dev"))
    assert report.per_listing_us is not None and report.timed_listings == 20


@pytest.mark.slow
@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data absent")
def test_listing_labels_resolve_to_real_rows() -> None:
    report = evaluate_specs(SHARED, splits=["test"], timed_listings=20)
    assert report.listings[0].items == len(load_listing_labels("test"))
    assert report.listing_numbers_quantulum  # the baseline ran on the same listings


@pytest.fixture
def app(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[typer.Typer]:
    monkeypatch.setenv("CARTWISE_HOME", str(settings.cartwise_home))
    get_settings.cache_clear()
    cli = typer.Typer()
    eval_command.register(cli)
    eval_specs.register(cli)
    cli.command("noop")(lambda: None)
    yield cli
    get_settings.cache_clear()


@pytest.mark.slow
def test_the_command_writes_the_report(app: typer.Typer, tmp_path: Path) -> None:
    out = tmp_path / "specs.md"
    result = CliRunner().invoke(
        app,
        ["eval", "specs", "--catalogs", str(tmp_path / "none"), "--split", "dev",
         "--timed-listings", "20", "--out", str(out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "requests dev: precision" in result.stdout
    assert "| **overall** |" in out.read_text("utf-8")


def test_a_bad_split_is_a_one_line_error(app: typer.Typer) -> None:
    result = CliRunner().invoke(app, ["eval", "specs", "--split", "train"])
    assert result.exit_code == 2
    assert "--split must be dev, test or both" in result.output
