"""Real catalogs re-ingested with changed prices (WebMall shops, Home Depot rows edited in a
temporary copy): the history, the facts and the watches as an ingest leaves them."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from cartwise.catalog.ingest import IngestReport
from cartwise.catalog.model_identity import model_identity
from cartwise.catalog.pipeline import ingest_file
from cartwise.commands.ingest import resolve_mapping
from cartwise.embedding.hashing import HashingEmbedder
from cartwise.memory import create_price_history, create_watch_store
from cartwise.memory.price_facts import model_facts, price_facts, was_price
from cartwise.memory.price_recorder import PriceRecorder
from cartwise.memory.prices import DAY, new_watch
from cartwise.recall.service import RecallService
from cartwise.settings import Settings

pytestmark = pytest.mark.shared_data

T0 = 1_790_000_000.0


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


class Shop:
    """A temporary copy of real catalogs, ingested with a recorder on a test clock."""

    def __init__(self, settings: Settings, tmp_path: Path) -> None:
        self.settings = settings
        self.tmp = tmp_path
        self.clock = Clock()
        self.service = RecallService.open(settings, HashingEmbedder(256))
        self.history = create_price_history(settings)
        self.watches = create_watch_store(settings)

    def ingest(self, path: Path, **options: object) -> IngestReport:
        recorder = PriceRecorder(self.history, self.watches, fx_to_base=self.settings.fx_to_base,
                                 clock=self.clock)  # fmt: skip
        return ingest_file(path, settings=self.settings, service=self.service,
                           embedder=self.service.embedder, progress=False, prices=recorder,
                           **options)  # type: ignore[arg-type]  # fmt: skip

    def close(self) -> None:
        self.service.close()
        self.history.close()
        self.watches.close()


@pytest.fixture
def shop(backend_settings: Settings, tmp_path: Path) -> Iterator[Shop]:
    """On each backend: the history and the watches in SQLite, or in Redis."""
    opened = Shop(backend_settings, tmp_path)
    yield opened
    opened.close()


def copy_webmall(shared_data: Path, tmp_path: Path, number: int) -> Path:
    target = tmp_path / f"webmall_{number}.csv"
    target.write_bytes((shared_data / f"catalogs/webmall/webmall_{number}.csv").read_bytes())
    return target


def edit_rows(path: Path, changes: dict[str, dict[str, str]]) -> None:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        fields, rows = reader.fieldnames or [], list(reader)
    for row in rows:
        row.update(changes.get(row["ID"], {}))
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)


def test_reingested_shops_record_changes_only_and_fire_a_watch_once(
    shop: Shop, shared_data: Path
) -> None:
    one, two = copy_webmall(shared_data, shop.tmp, 1), copy_webmall(shared_data, shop.tmp, 2)
    first = [shop.ingest(one), shop.ingest(two)]
    assert [r.price_points for r in first] == [r.ingested for r in first]

    freezer = shop.service.get("webmall_1:1555")
    assert freezer is not None and freezer.price == 59.99
    model = model_identity(freezer)
    other = shop.service.get("webmall_2:3324")
    assert other is not None and model_identity(other) == model  # the same cooler, shop 2
    live = shop.watches.add(new_watch("ann", model=model, title=freezer.title, kind="price",
                                      target=45, currency="GBP", now=T0))  # fmt: skip
    cancelled = shop.watches.add(new_watch("bob", model=model, title=freezer.title,
                                           kind="price", target=45, currency="GBP", now=T0))  # fmt: skip
    shop.watches.cancel("bob", cancelled.id)
    shop.watches.add(new_watch("cid", model=model, title=freezer.title, kind="price",
                               target=45, currency="GBP", days=3, now=T0))  # fmt: skip

    shop.clock.now = T0 + 10 * DAY  # cid's watch has expired by now
    edit_rows(one, {"1555": {"Sale price": "44.00"}, "1559": {"Sale price": "149.99"}})
    edit_rows(two, {"3324": {"Sale price": "43.50"}})
    second = [shop.ingest(one), shop.ingest(two)]
    assert [r.price_points for r in second] == [2, 1]
    assert sum(r.alerts for r in second) == 1
    (alert,) = shop.watches.alerts("ann")
    assert (alert.watch_id, alert.platform, alert.price) == (live.id, "webmall_1", 44.0)
    assert shop.watches.alerts("bob") == shop.watches.alerts("cid") == []

    shop.clock.now = T0 + 11 * DAY
    edit_rows(two, {"3324": {"Sale price": "39.00"}})
    third = [shop.ingest(one), shop.ingest(two)]
    assert [(r.price_points, r.alerts) for r in third] == [(0, 0), (1, 0)]  # fired already
    # What the history holds, not only what the reports say: one point per price seen.
    offers = ["webmall_1:1555", "webmall_1:1559", "webmall_2:3324", "webmall_1:1556"]
    assert [len(shop.history.points(key)) for key in offers] == [2, 2, 3, 1]
    assert [p.price for p in shop.history.points("webmall_2:3324")][1:] == [43.5, 39.0]

    facts = price_facts(shop.history.points("webmall_2:3324"), now=shop.clock.now)
    assert facts is not None and facts.lowest_90d is not None
    assert (facts.lowest_90d.price, facts.lowest_90d.at) == (39.0, "2026-10-02")
    assert facts.median_90d == 49.24  # ten days at the old price outweigh one at each new one
    assert facts.deal == "lowest_90d" and facts.points == 3
    assert facts.lowest_30d == facts.lowest_180d == facts.lowest_90d
    # The model over both shops: shop 1 sells it at 44.00 now, shop 2 at 39.00 since today.
    both = shop.history.points_many(["webmall_1:1555", "webmall_2:3324"])
    low = model_facts(both, shop.settings.fx_to_base, now=shop.clock.now)
    assert low is not None and (low.platform, low.item_id, low.offers) == ("webmall_2", "3324", 2)
    assert (low.current_platform, low.deal) == ("webmall_2", "lowest_90d")
    rate = shop.settings.fx_to_base["GBP"]
    assert low.lowest_90d_base == low.current_base == round(39.0 * rate, 2)
    # As a turn reads them: the same facts from the history's summaries.
    read = shop.history.summaries(["webmall_2:3324"], now=shop.clock.now)["webmall_2:3324"]
    assert read.facts() == facts


def test_a_shop_listing_a_watched_model_for_the_first_time_fires_its_watches_once(
    shop: Shop, shared_data: Path
) -> None:
    one, two = copy_webmall(shared_data, shop.tmp, 1), copy_webmall(shared_data, shop.tmp, 2)
    edit_rows(one, {"1555": {"In stock?": "0"}})  # the cooler is sold out at shop 1
    shop.ingest(one)
    freezer = shop.service.get("webmall_1:1555")
    assert freezer is not None and not freezer.in_stock
    model = model_identity(freezer)
    stock = shop.watches.add(new_watch("ann", model=model, title=freezer.title, kind="stock",
                                       target=None, currency="GBP", now=T0))  # fmt: skip
    price = shop.watches.add(new_watch("bob", model=model, title=freezer.title, kind="price",
                                       target=50, currency="GBP", now=T0))  # fmt: skip

    shop.clock.now = T0 + DAY  # shop 2 is ingested for the first time: 3324 is the same cooler
    first = shop.ingest(two)
    assert (first.price_points, first.alerts) == (first.ingested, 2)
    (restocked,) = shop.watches.alerts("ann")
    (cheaper,) = shop.watches.alerts("bob")
    assert (restocked.watch_id, restocked.kind, restocked.platform, restocked.item_id) == (
        stock.id, "stock", "webmall_2", "3324"
    )  # fmt: skip
    assert (cheaper.watch_id, cheaper.platform, cheaper.price) == (price.id, "webmall_2", 49.24)

    shop.clock.now = T0 + 2 * DAY  # cheaper at shop 2, back at shop 1: both watches fired
    edit_rows(two, {"3324": {"Sale price": "39.00"}})
    edit_rows(one, {"1555": {"In stock?": "1"}})
    again = [shop.ingest(two), shop.ingest(one)]
    assert [(r.price_points, r.alerts) for r in again] == [(1, 0), (1, 0)]
    assert len(shop.watches.alerts("ann")) == len(shop.watches.alerts("bob")) == 1


def test_an_inflated_was_price_is_flagged_and_a_real_one_is_not(
    shop: Shop, shared_data: Path
) -> None:
    one = copy_webmall(shared_data, shop.tmp, 1)
    shop.ingest(one)
    shop.clock.now = T0 + 20 * DAY
    # 1555 sold at 59.99: a sale "from 59.99" is honest, a sale "from 99.99" is not.
    edit_rows(one, {"1555": {"Sale price": "49.99", "Regular price": "59.99"},
                    "1556": {"Sale price": "89.99", "Regular price": "149.99"}})  # fmt: skip
    shop.ingest(one)
    honest, inflated = shop.service.get("webmall_1:1555"), shop.service.get("webmall_1:1556")
    assert honest is not None and inflated is not None
    for product, seen in ((honest, True), (inflated, False)):
        facts = price_facts(shop.history.points(product.key), now=shop.clock.now,
                            was_price=was_price(product))  # fmt: skip
        assert facts is not None and facts.was_price_seen is seen


def test_home_depot_back_in_stock_fires_a_stock_watch(
    shop: Shop, shared_data: Path, tmp_path: Path
) -> None:
    real = (shared_data / "catalogs/homedepot/homedepot_products.jsonl").read_text("utf-8")
    rows = [json.loads(line) for line in real.splitlines()[:200]]
    rows[0]["in_stock"] = False
    source = tmp_path / "homedepot.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    mapping = resolve_mapping("homedepot")
    assert shop.ingest(source, mapping=mapping, platform="homedepot").price_points == 200
    drill = shop.service.get(f"homedepot:{rows[0]['product_id']}")
    assert drill is not None and not drill.in_stock
    shop.watches.add(new_watch("ann", model=model_identity(drill), title=drill.title,
                               kind="stock", target=None, currency="USD", now=T0))  # fmt: skip
    shop.clock.now = T0 + DAY
    rows[0]["in_stock"] = True
    rows[1]["price"] = round(rows[1]["price"] * 0.9, 2)
    source.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    report = shop.ingest(source, mapping=mapping, platform="homedepot")
    assert (report.price_points, report.alerts) == (2, 1)
    (alert,) = shop.watches.alerts("ann")
    assert alert.kind == "stock" and alert.item_id == rows[0]["product_id"]
