"""Turn latency of the agent, per stage, on the demo catalog with the rules engine.

Replays the issue's conversations (Chinese and English: a dislike then a search, a like
then a search, a budget, shoes then a size) for fresh users, `--rounds` times, through
`run_agent` in-process, and reports p50/p95 of every stage. Baseline: a bare
`RecallService.search` of each searched query in the same run, so the ratio
turn ÷ search means something on a loaded machine.

    python -m benchmarks.bench_agent [--rounds 3] [--embedder e5:small] [--home PATH]
                                     [--store sqlite|redis|both] [--redis-url URL]

`both` (the default) measures Redis too when CARTWISE_TEST_REDIS_URL is set (`make bench`).

`--home` reuses an indexed Cartwise home (the demo catalog is indexed when it is empty;
product vectors are cached under the temp dir between runs). Writes
benchmarks/reports/agent.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
import uuid
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from cartwise.agent.deps import create_deps
from cartwise.agent.events import STAGES
from cartwise.agent.run import run_agent
from cartwise.catalog.demo import ingest_demo
from cartwise.embedding import create_embedder
from cartwise.embedding.memo import QueryMemo
from cartwise.settings import Settings

REPORT = Path(__file__).resolve().parent / "reports" / "agent.md"
"""Shared with the agent tests' demo slice (keyed by model and text, so sharing is safe)."""

CONVERSATIONS: list[list[str]] = [
    ["不要塑料的耳机", "推荐头戴式耳机"],
    ["我喜欢木质的", "推荐耳机"],
    ["预算300", "推荐耳机"],
    ["我想买跑步鞋", "42"],
    ["no plastic headphones, please", "over-ear headphones"],
    ["I like wooden things", "headphones"],
    ["headphones under $50"],
    ["I need running shoes", "size 42"],
]
SEARCHED_TOTAL = "total, turns that showed products"
SPEC_REQUESTS: list[str] = [
    "10000毫安以上的充电宝",
    "15寸以上的笔记本",
    "a backpack of at least 30 L",
    "the lightest laptop",
]
"""Requests with specs (a filter with its unstated top-up, a superlative): timed apart."""
SPEC_TOTAL = "total, turns with specs (filter, superlative)"
FOLLOWUPS: list[list[str]] = [
    [
        "推荐跑步鞋",
        "有没有更便宜的",
        "换一批",
        "按价格从低到高排序",
        "第二个有链接吗",
        "对比一下1和3",
    ],
    [
        "over-ear headphones",
        "anything cheaper?",
        "show me more",
        "sort by rating",
        "more like the first one",
        "where is the 2nd one cheapest?",
    ],
]
"""Follow-ups on the results shown (timed apart: the conversations above stay comparable)."""
FOLLOWUP_TOTAL = "total, follow-up turns (cheaper, more, sort, similar, reference, compare)"
K = Settings.model_fields["agent_search_k"].default
"""Candidates per platform: the shipped default."""
BASELINE_QUERIES = [
    "耳机",
    "头戴式耳机",
    "跑步鞋",
    "headphones",
    "over-ear headphones",
    "running shoes",
]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


async def replay(
    settings: Settings, rounds: int
) -> tuple[dict[str, list[float]], list[float], int]:
    deps = create_deps(settings)
    try:
        if deps.recall.count() == 0:
            # The shipped demo vectors make this a seconds-long step, not an embedding run.
            ingest_demo(settings, deps.recall, deps.embedder, progress=True)
        # Warm-up: model load and first-query costs are not turn latency.
        await run_agent(deps, user="warmup", thread="w", message="耳机")
        deps.recall.search("warm", k=1)

        timings: dict[str, list[float]] = {
            stage: [] for stage in [*STAGES, "total", SEARCHED_TOTAL, FOLLOWUP_TOTAL, SPEC_TOTAL]
        }
        baseline: list[float] = []
        turns = 0
        for _ in range(rounds):
            for conversation in CONVERSATIONS:
                user = f"bench-{uuid.uuid4().hex[:8]}"
                thread = f"{user}-t1"
                for message in conversation:
                    # Cold: a repeated query must not ride on an earlier turn's vectors.
                    if isinstance(deps.embedder, QueryMemo):
                        deps.embedder.clear()
                    result = await run_agent(deps, user=user, thread=thread, message=message)
                    turns += 1
                    for stage, ms in result.timings.items():
                        timings.setdefault(stage, []).append(ms)
                    if result.products:
                        timings[SEARCHED_TOTAL].append(result.timings["total"])
            for conversation in FOLLOWUPS:
                user = f"bench-{uuid.uuid4().hex[:8]}"
                for index, message in enumerate(conversation):
                    if isinstance(deps.embedder, QueryMemo):
                        deps.embedder.clear()
                    result = await run_agent(deps, user=user, thread=f"{user}-f", message=message)
                    if index:
                        timings[FOLLOWUP_TOTAL].append(result.timings["total"])
            for message in SPEC_REQUESTS:
                if isinstance(deps.embedder, QueryMemo):
                    deps.embedder.clear()
                user = f"bench-{uuid.uuid4().hex[:8]}"
                result = await run_agent(deps, user=user, thread=f"{user}-s", message=message)
                timings[SPEC_TOTAL].append(result.timings["total"])
            for query in BASELINE_QUERIES:
                started = time.perf_counter()
                deps.recall.search(f"{query} {uuid.uuid4().hex[:4]}", k=settings.agent_search_k)
                baseline.append((time.perf_counter() - started) * 1000.0)
        return timings, baseline, turns
    finally:
        deps.close()


@dataclass
class Run:
    """One backend's measurements."""

    store: str
    timings: dict[str, list[float]]
    baseline: list[float]
    turns: int


def _stage_rows(run: Run) -> list[str]:
    return [
        f"| {run.store} | {stage} | {percentile(values, 0.5):.1f} | "
        f"{percentile(values, 0.95):.1f} | {statistics.fmean(values) if values else 0:.1f} |"
        for stage, values in run.timings.items()
    ]


def _ratio_line(run: Run) -> str:
    base50, base95 = percentile(run.baseline, 0.5), percentile(run.baseline, 0.95)
    searched = run.timings[SEARCHED_TOTAL]
    total50, total95 = percentile(searched, 0.5), percentile(searched, 0.95)
    return (
        f"- {run.store}: bare `RecallService.search` (all platforms, k={K}) p50 {base50:.1f} ms, "
        f"p95 {base95:.1f} ms over {len(run.baseline)} searches; a turn that showed products "
        f"÷ bare search: p50 {total50 / base50 if base50 else 0:.1f}×, "
        f"p95 {total95 / base95 if base95 else 0:.1f}×."
    )


def write_report(embedder: str, runs: list[Run], seconds: float) -> str:
    load = os.getloadavg()[0]
    turns = sum(run.turns for run in runs)
    text = "\n".join(
        [
            "# Agent turn latency by stage",
            "",
            f"Generated by `python -m benchmarks.bench_agent` on {datetime.now():%Y-%m-%d %H:%M} "
            f"({os.cpu_count()} CPUs, load average {load:.1f} at the end).",
            "",
            f"{turns} turns through `run_agent` in-process: rules engine, embedder "
            f"`{embedder}`, the bundled demo catalog (six platforms, one parallel search "
            f"each, k={K}). Conversations: the issue's Chinese and English ones (dislike → "
            "search, like → search, budget → search, shoes → size), fresh users each round. "
            "Follow-up turns on the results shown (cheaper, more, sort, similar, a reference, "
            "compare, where cheapest) are timed apart and counted in their own row only, and "
            "so are requests with specs (a filter with its unstated top-up, a superlative).",
            "",
            "| store | stage | p50 ms | p95 ms | mean ms |",
            "|---|---|---|---|---|",
            *(row for run in runs for row in _stage_rows(run)),
            "",
            "Baseline, measured in the same run:",
            "",
            *(_ratio_line(run) for run in runs),
            "",
            "`searching` spans the parallel per-platform searches (one query and one profile "
            "embedding per turn thanks to the single-flight query memo, which is cleared "
            "before every measured turn); `remembering` runs after the reply has streamed, so "
            "the shopper waits for understanding → replying only. Turns without a product to "
            f"search (a bare budget or like) skip the searches. Wall time {seconds:.0f} s.",
            "",
        ]
    )
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(text, encoding="utf-8")
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--embedder", default="e5:small")
    parser.add_argument("--home", type=Path, default=None)
    parser.add_argument("--store", choices=["sqlite", "redis", "both"], default="both")
    parser.add_argument("--redis-url", default=os.environ.get("CARTWISE_TEST_REDIS_URL", ""))
    args = parser.parse_args()

    stores = ["sqlite", "redis"] if args.store == "both" else [args.store]
    if "redis" in stores and not args.redis_url:
        if args.store == "redis":
            raise SystemExit("--store redis needs --redis-url or CARTWISE_TEST_REDIS_URL")
        stores = ["sqlite"]
    home = args.home or Path(tempfile.mkdtemp(prefix="cartwise-bench-agent-"))
    create_embedder(args.embedder)  # fail fast on a bad spec
    started = time.perf_counter()
    runs: list[Run] = []
    for store in stores:
        settings = Settings(
            _env_file=None,
            cartwise_home=home,
            embedder=args.embedder,
            store_backend=store,
            redis_url=args.redis_url or "redis://127.0.0.1:6379/0",
            agent_search_k=K,
        )
        timings, baseline, turns = asyncio.run(replay(settings, args.rounds))
        runs.append(Run(store, timings, baseline, turns))
    print(write_report(args.embedder, runs, time.perf_counter() - started))


if __name__ == "__main__":
    main()
