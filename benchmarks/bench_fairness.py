"""Fair sharing: another shopper's turn with a hostile request in flight, and turn time as a
shopper's stored memory grows, against baselines measured in the same run.

`cartwise serve` (its own process, the bundled e5 model, the demo catalog, the rules engine)
on loopback. A quiet shopper runs short turns ("推荐头戴式耳机", "over-ear headphones", …):

- alone (the baseline), and with each hostile load running in a loop meanwhile: a memory write
  with an 8,000-character keyword (refused with 422), the largest write the API accepts (24
  keywords of 64 characters), a turn with a 2,000-character message (the longest accepted),
  and the long message and the long keyword at once. Reported: the quiet shopper's turn p95
  with ÷ without (goal ≤ 2×). Run once with `EMBEDDER_ENGINES=1` (one engine behind one lock,
  as before the pool) and once with the default pool, so the two designs are compared in the
  same conditions.
- at 0 / 1,000 / 10,000 stored entries (written through the store directly, past the API's
  cap, as `memory import` did): the same turns' p50/p95, the first turn apart (it reads the
  namespace whole once per process). Goal: 10,000 entries ≤ 2× none.

    python -m benchmarks.bench_fairness [--turns 12] [--store sqlite|redis] [--home PATH]

Writes benchmarks/reports/fairness.md and docs/reports/fairness.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

from benchmarks.bench_api import cartwise_serve, one_turn, percentile
from benchmarks.bench_memory import synthetic_entries

REPORT = Path(__file__).resolve().parent / "reports" / "fairness.md"
DOCS_REPORT = Path(__file__).resolve().parents[1] / "docs" / "reports" / "fairness.md"
PASSWORD = "bench-password-123"
QUIET_TURNS = [
    "推荐头戴式耳机",
    "over-ear headphones",
    "跑步鞋",
    "running shoes",
    "雨衣",
    "a desk lamp",
]
LONG_MESSAGE = (
    "我想买一副降噪耳机，不要塑料的，最好是金属外壳，颜色黑色或者白色，预算五百以内，"
    "I also need it to be comfortable for long flights, with good battery life. "
) * 40
SIZES = (0, 1_000, 10_000)


class Client:
    """One signed-in shopper."""

    def __init__(self, base_url: str, name: str) -> None:
        self.base_url = base_url
        self.name = name
        self.headers: dict[str, str] = {}

    async def sign_up(self) -> None:
        async with httpx.AsyncClient(base_url=self.base_url, timeout=60) as client:
            body = {"username": self.name, "password": PASSWORD}
            (await client.post("/api/auth/register", json=body)).raise_for_status()
            token = await client.post("/api/auth/token", data=body)
            token.raise_for_status()
            self.headers = {"Authorization": f"Bearer {token.json()['access_token']}"}

    async def turn(self, message: str) -> float:
        async with httpx.AsyncClient(base_url=self.base_url, timeout=300) as client:
            outcome = await one_turn(
                client, self.headers, f"{self.name}-{uuid.uuid4().hex[:8]}", message
            )
        if not outcome.ok:
            raise SystemExit(f"a turn failed: {outcome.failure}")
        return outcome.seconds

    async def write(self, keywords: list[str]) -> int:
        body = {
            "polarity": "dislike",
            "category": "material",
            "slug": f"bench-{uuid.uuid4().hex[:8]}",
            "strength": "hard",
            "keywords": keywords,
        }
        async with httpx.AsyncClient(base_url=self.base_url, timeout=300) as client:
            response = await client.post("/api/memory", json=body, headers=self.headers)
        return response.status_code


async def quiet_turns(shopper: Client, turns: int) -> list[float]:
    return [await shopper.turn(f"{QUIET_TURNS[n % len(QUIET_TURNS)]}") for n in range(turns)]


async def with_load(
    shopper: Client, turns: int, loads: list[Callable[[], Awaitable[object]]]
) -> tuple[list[float], int]:
    """The quiet shopper's turns while every load repeats until they are done."""
    done = asyncio.Event()
    rounds = 0

    async def repeat(load: Callable[[], Awaitable[object]]) -> None:
        nonlocal rounds
        while not done.is_set():
            await load()
            rounds += 1

    hostile = [asyncio.create_task(repeat(load)) for load in loads]
    await asyncio.sleep(0.3)  # the hostile request is in flight first
    try:
        samples = await quiet_turns(shopper, turns)
    finally:
        done.set()
        await asyncio.gather(*hostile)
    return samples, rounds


async def fairness(base_url: str, turns: int) -> dict[str, Any]:
    quiet, hostile = (
        Client(base_url, f"quiet{uuid.uuid4().hex[:6]}"),
        Client(base_url, f"hostile{uuid.uuid4().hex[:6]}"),
    )
    await quiet.sign_up()
    await hostile.sign_up()
    await quiet.turn("耳机")  # warm-up
    statuses: dict[str, set[int]] = {}

    def write(label: str, keywords: list[str]) -> Callable[[], Awaitable[object]]:
        async def call() -> None:
            statuses.setdefault(label, set()).add(await hostile.write(keywords))

        return call

    long_keyword = write("8,000-character keyword", ["塑" * 8_000])
    largest_write = write("largest accepted write", [f"{n:02d}" + "x" * 62 for n in range(24)])

    async def long_message() -> None:
        await hostile.turn(LONG_MESSAGE[:2_000])

    scenarios: dict[str, list[Callable[[], Awaitable[object]]]] = {
        "8,000-character keyword (refused)": [long_keyword],
        "largest accepted memory write": [largest_write],
        "2,000-character message": [long_message],
        "2,000-character message + 8,000-character keyword": [long_message, long_keyword],
    }
    alone = await quiet_turns(quiet, turns)
    rows: dict[str, Any] = {}
    for label, loads in scenarios.items():
        samples, rounds = await with_load(quiet, turns, loads)
        rows[label] = {"samples": samples, "hostile_rounds": rounds}
    alone += await quiet_turns(quiet, turns)  # before and after: drift touches both alike
    return {
        "alone": alone,
        "rows": rows,
        "statuses": {k: sorted(v) for k, v in statuses.items()},
        "long_message_alone_s": await hostile.turn(LONG_MESSAGE[:2_000]),
    }


def fill(settings_env: dict[str, str], users: dict[int, str]) -> dict[int, float]:
    """Store `size` synthetic entries for each user straight through the store (no cap)."""
    from cartwise.embedding import create_embedder
    from cartwise.memory import create_preference_store
    from cartwise.settings import Settings

    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        cartwise_home=Path(settings_env["CARTWISE_HOME"]),
        store_backend=settings_env["STORE_BACKEND"],  # type: ignore[arg-type]
        redis_url=settings_env.get("REDIS_URL", "redis://localhost:6379/0"),
        max_preferences_per_user=max(SIZES) + 1,
    )
    store = create_preference_store(settings, create_embedder("e5:small", settings))
    seconds = {}
    try:
        for size, user in users.items():
            begun = time.perf_counter()
            store.replace_all(user, synthetic_entries(size))  # type: ignore[attr-defined]
            seconds[size] = time.perf_counter() - begun
    finally:
        store.close()
    return seconds


async def scale(base_url: str, turns: int, env: dict[str, str]) -> dict[str, Any]:
    shoppers = {size: Client(base_url, f"mem{size}x{uuid.uuid4().hex[:6]}") for size in SIZES}
    for shopper in shoppers.values():
        await shopper.sign_up()
    filled = await asyncio.to_thread(fill, env, {s: c.name for s, c in shoppers.items() if s})
    rows: dict[int, Any] = {}
    for size, shopper in shoppers.items():
        first = await shopper.turn("耳机")
        rows[size] = {"first_s": first, "samples": await quiet_turns(shopper, turns)}
    # Interleaved second pass: a drift in the machine's speed touches every size alike.
    for size, shopper in shoppers.items():
        rows[size]["samples"] += await quiet_turns(shopper, turns // 2)
    return {"rows": rows, "fill_s": filled}


def ms(values: list[float], q: float) -> float:
    return percentile(values, q) * 1000


def render(results: dict[str, Any], args: argparse.Namespace) -> str:
    lines = [
        "# Fair sharing and memory at scale",
        "",
        f"Generated by `python -m benchmarks.bench_fairness` on {time.strftime('%Y-%m-%d %H:%M')} "
        f"({os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the end: other work "
        "shares the machine, so absolute times move; ratios are measured in the same run). "
        f"`cartwise serve` on loopback, e5:small, the demo catalog, rules engine, "
        f"{args.store}. Whole turns over HTTP, request to RUN_FINISHED.",
        "",
        "## Another shopper's turn with a hostile request in flight",
        "",
        f"The quiet shopper runs {args.turns} short turns per row (alone: {args.turns} before "
        "and after the hostile rows). Each hostile load repeats for as long as they run.",
        "",
        "| engines | hostile load | quiet p50 ms | quiet p95 ms | p95 ÷ alone p95 | goal ≤ 2× | hostile requests meanwhile |",
        "|---:|---|---:|---:|---:|:---:|---:|",
    ]
    for engines, run in results["fairness"].items():
        base95 = ms(run["alone"], 0.95)
        lines.append(
            f"| {engines} | none (alone) | {ms(run['alone'], 0.5):.0f} | {base95:.0f} | 1.00× | | |"
        )
        for label, row in run["rows"].items():
            p95 = ms(row["samples"], 0.95)
            ratio = p95 / base95
            lines.append(
                f"| {engines} | {label} | {ms(row['samples'], 0.5):.0f} | {p95:.0f} "
                f"| {ratio:.2f}× | {'yes' if ratio <= 2 else '**no**'} | {row['hostile_rounds']} |"
            )
    for engines, run in results["fairness"].items():
        lines.append("")
        lines.append(
            f"- {engines} engine(s): the 2,000-character turn alone took "
            f"{run['long_message_alone_s']:.2f} s; hostile write answers: "
            + ", ".join(f"{k} → {v}" for k, v in run["statuses"].items())
        )
    scale_run = results["scale"]
    base = scale_run["rows"][0]
    base95 = ms(base["samples"], 0.95)
    base50 = ms(base["samples"], 0.5)
    lines += [
        "",
        "## Turn time by stored entries",
        "",
        "Entries written through the store directly (no cap), 2 % hard dislikes (always applied "
        "in full), the rest soft likes and dislikes over 4 categories, global and scoped "
        f"(benchmarks/bench_memory.py's mix). {len(base['samples'])} turns per size after a first.",
        "",
        "| stored entries | first turn ms | p50 ms | p95 ms | p50 ÷ none | p95 ÷ none | goal ≤ 2× | fill s |",
        "|---:|---:|---:|---:|---:|---:|:---:|---:|",
    ]
    for size, row in scale_run["rows"].items():
        p50, p95 = ms(row["samples"], 0.5), ms(row["samples"], 0.95)
        lines.append(
            f"| {size:,} | {row['first_s'] * 1000:.0f} | {p50:.0f} | {p95:.0f} | {p50 / base50:.2f}× "
            f"| {p95 / base95:.2f}× | {'yes' if p95 / base95 <= 2 else '**no**'} "
            f"| {scale_run['fill_s'].get(size, 0):.0f} |"
        )
    lines += [
        "",
        "Reading it: the first turn of a shopper in a process reads their namespace whole (then "
        "it is cached and patched by each write); later turns look the message's words up in "
        "the namespace's term index and score the stacked vectors once. The reader gets a "
        "bounded slice (agent/turn_memory.py), not the whole memory.",
        "",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--store", choices=["sqlite", "redis"], default="sqlite")
    parser.add_argument("--redis-url", default=os.environ.get("CARTWISE_TEST_REDIS_URL", ""))
    parser.add_argument("--home", type=Path, default=None)
    args = parser.parse_args()
    if args.store == "redis" and not args.redis_url:
        raise SystemExit("--store redis needs --redis-url or CARTWISE_TEST_REDIS_URL")
    results: dict[str, Any] = {"fairness": {}}
    with tempfile.TemporaryDirectory(prefix="cartwise-bench-fair-") as tmp:
        home = args.home or Path(tmp)
        env = {
            "CARTWISE_HOME": str(home),
            "EMBEDDER": "e5:small",
            "STORE_BACKEND": args.store,
            "RATE_LIMIT_PER_MINUTE": "100000",
            "LOG_PERSONAL_DATA": "false",
            "MAX_THREADS_PER_USER": "100000",
        }
        if args.store == "redis":
            import redis

            env["REDIS_URL"] = args.redis_url
            redis.Redis.from_url(args.redis_url).flushdb()
        for engines in ("1", "2"):
            with cartwise_serve({**env, "EMBEDDER_ENGINES": engines}) as base_url:
                print(f"[fairness] {engines} engine(s) on {base_url}", flush=True)
                results["fairness"][engines] = asyncio.run(fairness(base_url, args.turns))
        with cartwise_serve(env) as base_url:
            print(f"[scale] {base_url}", flush=True)
            results["scale"] = asyncio.run(scale(base_url, args.turns, env))
    text = render(results, args)
    for path in (REPORT, DOCS_REPORT):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    print(text)
    print(f"report: {REPORT}, {DOCS_REPORT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
