"""Price history: what recording it costs an ingest, and what reading one offer's facts costs.

What is measured, exactly:
1. The demo catalog (17,926 offers, its shipped vectors: nothing is embedded) ingested into
   two fresh homes in the same run: without history (PRICE_HISTORY off) and with it (the
   demo's synthesized 180-day past written: ~150k points). Then each home ingests the same
   file again — the steady state of a daily re-ingest, where history only checks for
   changes. Ratios are with/without, per pair. Each pair runs REPEATS times, alternating
   which goes first; the median ratio is reported.
2. One offer's facts at 180 points: `PriceHistory.points(key)` + `price_facts(...)`, for
   offers each holding 180 points (SQLite, and Redis when CARTWISE_TEST_REDIS_URL is set:
   `make bench` starts one), p50/p95/max over READS reads of random offers; and the facts
   of a turn's 8 picks (`offer_facts`, one batched read).

Run: `python -m benchmarks.bench_prices` (`make bench` runs it). Environment:
BENCH_PRICES_REPEATS (2), BENCH_PRICES_READS (3000), BENCH_PRICES_EMBEDDER (e5:small, the
model whose vectors ship with the demo). Writes benchmarks/reports/prices.md.
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from cartwise.agent.price_answers import offer_facts
from cartwise.catalog.demo import ingest_demo
from cartwise.catalog.product import Product
from cartwise.embedding import create_embedder
from cartwise.embedding.base import Embedder
from cartwise.memory import create_price_history, create_price_recorder
from cartwise.memory.price_facts import price_facts
from cartwise.memory.prices import DAY, PriceHistory, PricePoint
from cartwise.recall.service import RecallService
from cartwise.settings import Settings

REPEATS = int(os.environ.get("BENCH_PRICES_REPEATS", "2"))
READS = int(os.environ.get("BENCH_PRICES_READS", "3000"))
EMBEDDER = os.environ.get("BENCH_PRICES_EMBEDDER", "e5:small")
OFFERS = 1000
POINTS = 180
REPORT = Path(__file__).resolve().parent / "reports" / "prices.md"


def settings_for(home: Path, *, history: bool, **extra: object) -> Settings:
    return Settings(  # type: ignore[call-arg]
        _env_file=None, cartwise_home=home, embedder=EMBEDDER, price_history=history, **extra
    )


def timed_ingest(settings: Settings, embedder: Embedder) -> tuple[float, int]:
    """Seconds of one demo ingest (the whole pipeline, history included) and points written."""
    recall = RecallService.open(settings, embedder)
    try:
        with_prices = create_price_recorder(settings, demo=True)
        try:
            started = time.perf_counter()
            report = ingest_demo(settings, recall, embedder, progress=False, prices=with_prices)
            return time.perf_counter() - started, report.price_points
        finally:
            if with_prices is not None:
                with_prices.close()
    finally:
        recall.close()


def bench_ingest(root: Path, embedder: Embedder) -> list[dict[str, float]]:
    runs = []
    for repeat in range(REPEATS):
        homes = {h: root / f"r{repeat}-{'with' if h else 'without'}" for h in (False, True)}
        order = (False, True) if repeat % 2 == 0 else (True, False)
        first: dict[bool, float] = {}
        again: dict[bool, float] = {}
        points: dict[bool, int] = {}
        for history in order:
            first[history], points[history] = timed_ingest(
                settings_for(homes[history], history=history), embedder
            )
        for history in order:
            again[history], _ = timed_ingest(
                settings_for(homes[history], history=history), embedder
            )
        runs.append(
            {
                "first_without": first[False],
                "first_with": first[True],
                "again_without": again[False],
                "again_with": again[True],
                "points": points[True],
                "db_mb": (homes[True] / "prices.sqlite3").stat().st_size / 1e6,
            }
        )
        print(f"repeat {repeat}: {runs[-1]}", flush=True)
    return runs


def fill(history: PriceHistory, now: float) -> list[str]:
    rng = random.Random(7)
    keys = []
    batch: list[PricePoint] = []
    for n in range(OFFERS):
        price = rng.uniform(50, 3000)
        for i in range(POINTS):
            price *= rng.uniform(0.97, 1.03)
            batch.append(
                PricePoint("jd", f"o{n}", round(price, 2), "CNY", True, now - (POINTS - i) * DAY)
            )
        keys.append(f"jd:o{n}")
    history.backfill(batch)
    return keys


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_reads(settings: Settings) -> dict[str, float]:
    history = create_price_history(settings)
    try:
        now = time.time()
        keys = fill(history, now)
        rng = random.Random(11)
        one = []
        for _ in range(READS):
            key = rng.choice(keys)
            started = time.perf_counter()
            facts = price_facts(history.points(key), now=now)
            one.append((time.perf_counter() - started) * 1000)
            assert facts is not None and facts.points == POINTS
        products = [
            Product(platform="jd", item_id=f"o{n}", title=f"offer {n}", price=100.0)
            for n in range(OFFERS)
        ]
        turn = []
        for _ in range(READS // 10):
            picks = rng.sample(products, 8)
            started = time.perf_counter()
            offer_facts(history, picks, now=now)
            turn.append((time.perf_counter() - started) * 1000)
        return {
            "p50": percentile(one, 0.5),
            "p95": percentile(one, 0.95),
            "max": max(one),
            "turn_p50": percentile(turn, 0.5),
            "turn_p95": percentile(turn, 0.95),
        }
    finally:
        history.close()


def render(runs: list[dict[str, float]], reads: dict[str, dict[str, float]], seconds: float) -> str:
    first = statistics.median(r["first_with"] / r["first_without"] for r in runs)
    again = statistics.median(r["again_with"] / r["again_without"] for r in runs)
    lines = [
        "# Price history benchmark",
        "",
        f"`python -m benchmarks.bench_prices` — {REPEATS} repeats, {seconds:.0f} s in all, on this",
        "machine (2 shared cores). Data: the bundled demo catalog (17,926 offers on six platforms)",
        f"with its shipped `{EMBEDDER}` vectors; synthetic 180-point histories for the reads.",
        "",
        "## Ingest of the demo catalog, with history vs without (same run)",
        "",
        "| repeat | first ingest without | with (past written) | ratio | re-ingest without | with | ratio | points | prices.sqlite3 |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for i, r in enumerate(runs):
        lines.append(
            f"| {i} | {r['first_without']:.1f} s | {r['first_with']:.1f} s | "
            f"{r['first_with'] / r['first_without']:.2f}× | {r['again_without']:.1f} s | "
            f"{r['again_with']:.1f} s | {r['again_with'] / r['again_without']:.2f}× | "
            f"{int(r['points']):,} | {r['db_mb']:.1f} MB |"
        )
    lines += [
        "",
        f"Median ratio: first ingest (writes the demo's past) **{first:.2f}×**, re-ingest of an",
        f"unchanged catalog (checks every offer, writes nothing) **{again:.2f}×** — the target is ≤ 1.2×.",
        "Nothing of the past is shipped: it is computed from each offer at its first ingest.",
        "",
        f"## One offer's facts at {POINTS} points ({READS:,} reads of random offers among {OFFERS:,})",
        "",
        "| backend | p50 | p95 | max | a turn's 8 picks p50 | p95 |",
        "|---|---|---|---|---|---|",
    ]
    for name, r in reads.items():
        lines.append(
            f"| {name} | {r['p50']:.3f} ms | {r['p95']:.3f} ms | {r['max']:.2f} ms | "
            f"{r['turn_p50']:.2f} ms | {r['turn_p95']:.2f} ms |"
        )
    lines += ["", "Target: one offer's facts ≤ 1 ms p95 at 180 points (read + compute).", ""]
    return "\n".join(lines)


def main() -> None:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="cartwise-bench-prices-") as tmp:
        root = Path(tmp)
        reads = {"sqlite": bench_reads(settings_for(root / "reads", history=True))}
        redis_url = os.environ.get("CARTWISE_TEST_REDIS_URL")
        if redis_url:
            import redis

            redis.Redis.from_url(redis_url).flushdb()
            reads["redis"] = bench_reads(
                settings_for(
                    root / "reads-redis", history=True, store_backend="redis", redis_url=redis_url
                )
            )
        print(reads, flush=True)
        embedder = create_embedder(EMBEDDER)
        runs = bench_ingest(root, embedder)
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(render(runs, reads, time.perf_counter() - started), encoding="utf-8")
    print(f"wrote {REPORT}")


if __name__ == "__main__":
    main()
