"""Fair sharing: another shopper's turn with a hostile request in flight, and turn time as a
shopper's stored memory grows, against baselines measured in the same run.

`cartwise serve` (its own process, the bundled e5 model, the demo catalog, the rules engine)
on loopback. A quiet shopper runs short turns ("推荐头戴式耳机", "over-ear headphones", …):

- alone (the baseline), and with each hostile load running in a loop meanwhile: a memory write
  with an 8,000-character keyword (refused with 422), the largest write the API accepts (24
  keywords of 64 characters), a turn with a 2,000-character message (the longest accepted),
  and the long message and the long keyword at once. Reported: the quiet shopper's turn p95
  with ÷ without (goal ≤ 2×). The hostile shopper runs in a process of its own (its client
  work shares neither the quiet client's GIL nor its event loop). Run with the default
  server (threads shared, nobody held back, a message past 300 characters read in a worker
  process), with every message read in the server's process (READ_OFFLOAD_CHARS=0: what the
  default was before) and with the busy rule on (TURN_BUSY_SHARE=4), so the designs are
  compared in the same conditions.
- at 0 / 10 / 1,000 / 10,000 stored entries (written through the store directly, past the API's
  cap, as `memory import` did): the same turns' p50/p95, the first turn apart (it reads the
  namespace whole once per process), after a shopper with nothing stored has sent every
  message once (no size rides on another's query vectors). Goal: 10,000 entries ≤ 2× none.

    python -m benchmarks.bench_fairness [--turns 20] [--store sqlite|redis|both] [--home PATH]
                                        [--redis-url URL]
                                        [--skip-scale | --scale-only | --hostile-only]
                                        [--default-only]

`--scale-only` and `--hostile-only` rewrite only their section of the report; the other
stays as it was measured, under its own date and load.

On Redis it uses `--redis-url` (flushed; `make bench` passes its own server) or starts a
redis-server of its own on a free port.

Writes benchmarks/reports/fairness.md and docs/reports/fairness.md.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import re
import secrets
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from contextlib import ExitStack
from functools import partial
from pathlib import Path
from typing import Any

import httpx
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from benchmarks.bench_api import cartwise_serve, one_turn, percentile
from benchmarks.bench_memory import synthetic_entries
from benchmarks.redis_server import redis_server

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
SIZES = (0, 10, 1_000, 10_000)
"""Stored entries per shopper of the scale rows: 10 shows what any memory costs (a profile
of likes to embed), 1,000 and 10,000 how that grows."""
CONFIGS: list[tuple[str, dict[str, str]]] = [
    ("default", {}),
    ("reader in-process", {"READ_OFFLOAD_CHARS": "0"}),
    ("busy rule on", {"TURN_BUSY_SHARE": "4"}),
]
"""Server settings the fairness rows run under, in the same run: the first is what `cartwise
serve` runs; the second reads every message in the server's process, as before long messages
went to a worker (understanding/offload.py); the third also holds a busy shopper back
(api/fair.py, TURN_BUSY_SHARE)."""


class Client:
    """One signed-in shopper, with one connection pool for all their requests."""

    def __init__(self, base_url: str, name: str, headers: dict[str, str] | None = None) -> None:
        self.base_url = base_url
        self.name = name
        self.headers = headers or {}
        self._client: httpx.AsyncClient | None = None

    @property
    def client(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = httpx.AsyncClient(base_url=self.base_url, timeout=300)
        return self._client

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    async def sign_up(self) -> None:
        body = {"username": self.name, "password": PASSWORD}
        (await self.client.post("/api/auth/register", json=body)).raise_for_status()
        token = await self.client.post("/api/auth/token", data=body)
        token.raise_for_status()
        self.headers = {"Authorization": f"Bearer {token.json()['access_token']}"}

    async def turn(self, message: str) -> float:
        thread = f"{self.name}-{uuid.uuid4().hex[:8]}"
        outcome = await one_turn(self.client, self.headers, thread, message)
        if not outcome.ok:
            raise SystemExit(f"a turn failed: {outcome.failure}")
        return outcome.seconds

    async def write(self, keywords: list[str]) -> int:
        body = {
            "polarity": "dislike",
            "category": "material",
            # Letters only: a slug of 8 hex digits that are all digits looks like a phone
            # or ID number and is refused with 422 (the personal-data rule).
            "slug": "bench-" + "".join(chr(97 + int(c, 16)) for c in uuid.uuid4().hex[:8]),
            "strength": "hard",
            "keywords": keywords,
        }
        response = await self.client.post("/api/memory", json=body, headers=self.headers)
        return response.status_code


Tick = Callable[[], None]
"""Called after each quiet turn (the progress bar)."""


def _no_tick() -> None:
    return None


async def quiet_turns(shopper: Client, turns: int, tick: Tick = _no_tick) -> list[float]:
    samples = []
    for n in range(turns):
        samples.append(await shopper.turn(QUIET_TURNS[n % len(QUIET_TURNS)]))
        tick()
    return samples


HOSTILE_LOADS: dict[str, tuple[str, ...]] = {
    "8,000-character keyword (refused)": ("long_keyword",),
    "largest accepted memory write": ("largest_write",),
    "2,000-character message": ("long_message",),
    "2,000-character message + 8,000-character keyword": ("long_message", "long_keyword"),
}
"""Each row's hostile requests (`hostile_call`'s names), repeated while the quiet shopper runs."""


WRITES = {"long_keyword": "8,000-character keyword", "largest_write": "largest accepted write"}


def hostile_call(shopper: Client, name: str) -> Callable[[], Awaitable[object]]:
    if name == "long_message":
        return lambda: shopper.turn(LONG_MESSAGE[:2_000])
    keywords = {
        "long_keyword": ["塑" * 8_000],
        "largest_write": [f"{n:02d}" + "x" * 62 for n in range(24)],
    }[name]
    return lambda: shopper.write(keywords)


def hostile_process(
    base_url: str,
    shopper: tuple[str, dict[str, str]],
    loads: tuple[str, ...],
    started: Any,
    stop: Any,
    results: Any,
) -> None:
    """The hostile shopper in a process of its own: its client work never shares the quiet
    client's GIL or event loop, so only the server's sharing is measured."""

    async def run() -> tuple[int, dict[str, list[int]], list[float]]:
        hostile = Client(base_url, shopper[0], shopper[1])
        rounds = 0
        statuses: dict[str, set[int]] = {}
        long_turns: list[float] = []

        async def repeat(name: str) -> None:
            nonlocal rounds
            call = hostile_call(hostile, name)
            while not stop.is_set():
                answer = await call()
                if name == "long_message":
                    long_turns.append(float(answer))  # type: ignore[arg-type]
                else:
                    statuses.setdefault(name, set()).add(int(answer))  # type: ignore[call-overload]
                rounds += 1

        tasks = [asyncio.create_task(repeat(name)) for name in loads]
        started.set()
        await asyncio.gather(*tasks)
        await hostile.close()
        return rounds, {k: sorted(v) for k, v in statuses.items()}, long_turns

    results.put(asyncio.run(run()))


async def with_load(
    quiet: Client, hostile: Client, turns: int, loads: tuple[str, ...], tick: Tick
) -> dict[str, Any]:
    """The quiet shopper's turns while every load repeats, from another process, until they
    are done: their times, how many hostile requests ran meanwhile (and in how long), the
    hostile long turns' times and the write answers."""
    context = multiprocessing.get_context("spawn")
    started, stop, results = context.Event(), context.Event(), context.Queue()
    process = context.Process(
        target=hostile_process,
        args=(quiet.base_url, (hostile.name, hostile.headers), loads, started, stop, results),
    )
    process.start()
    try:
        if not await asyncio.to_thread(started.wait, 120):
            raise SystemExit("the hostile shopper's process did not start")
        await asyncio.sleep(0.3)  # the hostile request is in flight first
        begun = time.perf_counter()
        samples = await quiet_turns(quiet, turns, tick)
        seconds = time.perf_counter() - begun + 0.3
    finally:
        stop.set()
    rounds, statuses, long_turns = await asyncio.to_thread(results.get, True, 600)
    await asyncio.to_thread(process.join, 60)
    return {
        "samples": samples,
        "hostile_rounds": rounds,
        "row_s": seconds,
        "hostile_long_s": long_turns,
        "statuses": statuses,
    }


async def fairness(base_url: str, turns: int, tick: Tick = _no_tick) -> dict[str, Any]:
    quiet, hostile = (
        Client(base_url, f"quiet{uuid.uuid4().hex[:6]}"),
        Client(base_url, f"hostile{uuid.uuid4().hex[:6]}"),
    )
    await quiet.sign_up()
    await hostile.sign_up()
    await quiet.turn("耳机")  # warm-up
    statuses: dict[str, list[int]] = {}
    alone = await quiet_turns(quiet, turns, tick)
    rows: dict[str, Any] = {}
    for label, loads in HOSTILE_LOADS.items():
        rows[label] = await with_load(quiet, hostile, turns, loads, tick)
        for name, codes in rows[label].pop("statuses").items():
            statuses[name] = sorted({*statuses.get(name, []), *codes})
    alone += await quiet_turns(quiet, turns, tick)  # before and after: drift touches both alike
    long_alone = await hostile.turn(LONG_MESSAGE[:2_000])
    load = os.getloadavg()
    long_reads = await read_where(quiet)
    await quiet.close()
    await hostile.close()
    return {
        "alone": alone,
        "rows": rows,
        "statuses": statuses,
        "long_message_alone_s": long_alone,
        "load": load,
        "long_reads": long_reads,
    }


async def read_where(shopper: Client) -> dict[str, int]:
    """Where the server read long messages (its /metrics; empty when it read every message
    in-process)."""
    text = (await shopper.client.get("/metrics")).text
    found = re.findall(r'^cartwise_long_reads_total\{where="(\w+)"\} ([\d.]+)$', text, re.M)
    return {where: int(float(count)) for where, count in found}


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
    # The server remembers query vectors for every shopper: without this, whichever size
    # went first paid for embedding the turns' messages and the others rode on it. What is
    # left for a size is its own work (a shopper with likes also embeds their profile).
    warm = Client(base_url, f"warm{uuid.uuid4().hex[:6]}")
    await warm.sign_up()
    await quiet_turns(warm, len(QUIET_TURNS))
    await warm.close()
    rows: dict[int, Any] = {}
    for size, shopper in shoppers.items():
        first = await shopper.turn("耳机")
        rows[size] = {"first_s": first, "samples": await quiet_turns(shopper, turns)}
    # Interleaved second pass: a drift in the machine's speed touches every size alike.
    for size, shopper in shoppers.items():
        rows[size]["samples"] += await quiet_turns(shopper, turns // 2)
    for shopper in shoppers.values():
        await shopper.close()
    return {"rows": rows, "fill_s": filled}


def ms(values: list[float], q: float) -> float:
    return percentile(values, q) * 1000


def fairness_lines(results: dict[str, Any], args: argparse.Namespace) -> list[str]:
    lines = [
        "",
        "## Another shopper's turn with a hostile request in flight",
        "",
        f"The quiet shopper runs {args.turns} short turns per row (alone: {args.turns} before "
        "and after the hostile rows). Each hostile load repeats for as long as they run. "
        "Servers: default is what `cartwise serve` runs (a message past 300 characters is "
        "read in a worker process of its own); reader in-process reads every message in the "
        "server's process (READ_OFFLOAD_CHARS=0, what the default did before); busy rule on "
        "is the default with TURN_BUSY_SHARE=4.",
        "",
        "| store | server | hostile load | quiet p50 ms | quiet p95 ms | p95 ÷ alone p95 "
        "| goal ≤ 2× | hostile requests meanwhile (per s) | hostile long turn p50 ms |",
        "|---|---|---|---:|---:|---:|:---:|---:|---:|",
    ]
    notes = []
    for store, store_results in results.items():
        for config, run in store_results["fairness"].items():
            base95 = ms(run["alone"], 0.95)
            lines.append(
                f"| {store} | {config} | none (alone) | {ms(run['alone'], 0.5):.0f} "
                f"| {base95:.0f} | 1.00× | | | |"
            )
            for label, row in run["rows"].items():
                p95 = ms(row["samples"], 0.95)
                ratio = p95 / base95
                rate = row["hostile_rounds"] / row["row_s"] if row.get("row_s") else 0.0
                long_turns = row.get("hostile_long_s") or []
                lines.append(
                    f"| {store} | {config} | {label} | {ms(row['samples'], 0.5):.0f} | {p95:.0f} "
                    f"| {ratio:.2f}× | {'yes' if ratio <= 2 else '**no**'} "
                    f"| {row['hostile_rounds']} ({rate:.1f}) "
                    f"| {f'{ms(long_turns, 0.5):.0f}' if long_turns else ''} |"
                )
            load = " / ".join(f"{value:.1f}" for value in run.get("load", ()))
            where = run.get("long_reads")
            read = (
                "long messages read in the worker "
                f"{where.get('worker', 0)}, in-process {where.get('in_process', 0)}; "
                if where
                else ""
            )
            notes.append(
                f"- {store}, {config}: the 2,000-character turn alone took "
                f"{run['long_message_alone_s']:.2f} s; hostile write answers: "
                + ", ".join(f"{WRITES[k]} → {v}" for k, v in run["statuses"].items())
                + "; "
                + read
                + (f"load average {load} at its end" if load else "")
            )
    lines += [
        "",
        *notes,
        "",
        f"A row's p95 is about its second-slowest of {args.turns} turns (alone: of "
        f"{2 * args.turns}), so one stall of the shared machine moves a row. What the quiet "
        "shopper waits for (profiled): docs/reports/hardening.md.",
    ]
    return lines


def render(results: dict[str, Any], args: argparse.Namespace) -> str:
    load = " / ".join(f"{value:.1f}" for value in os.getloadavg())
    lines = [
        "# Fair sharing and memory at scale",
        "",
        f"Generated by `python -m benchmarks.bench_fairness` on {time.strftime('%Y-%m-%d %H:%M')} "
        f"({os.cpu_count()} CPUs shared with other work: load average {load} over 1 / 5 / 15 "
        "minutes at the end, so absolute times move; every ratio compares turns of the same "
        "run). `cartwise serve` on loopback, e5:small, the demo catalog, rules engine. Whole "
        "turns over HTTP, request to RUN_FINISHED.",
    ]
    if any(r["fairness"] for r in results.values()):
        lines += fairness_lines(results, args)
    scaled = {store: r["scale"] for store, r in results.items() if "scale" in r}
    if scaled:
        lines += [
            "",
            "## Turn time by stored entries",
            "",
            "Entries written through the store directly (no cap), 2 % hard dislikes (always "
            "applied in full), the rest soft likes and dislikes over 4 categories, global and "
            "scoped (benchmarks/bench_memory.py's mix). "
            f"{args.turns + args.turns // 2} turns per size after a first.",
            "",
            "| store | stored entries | first turn ms | p50 ms | p95 ms | p50 ÷ none "
            "| p95 ÷ none | goal ≤ 2× | fill s |",
            "|---|---:|---:|---:|---:|---:|---:|:---:|---:|",
        ]
    for store, scale_run in scaled.items():
        base = scale_run["rows"][0]
        base95 = ms(base["samples"], 0.95)
        base50 = ms(base["samples"], 0.5)
        for size, row in scale_run["rows"].items():
            p50, p95 = ms(row["samples"], 0.5), ms(row["samples"], 0.95)
            lines.append(
                f"| {store} | {size:,} | {row['first_s'] * 1000:.0f} | {p50:.0f} | {p95:.0f} "
                f"| {p50 / base50:.2f}× | {p95 / base95:.2f}× "
                f"| {'yes' if p95 / base95 <= 2 else '**no**'} "
                f"| {scale_run['fill_s'].get(size, 0):.0f} |"
            )
    if scaled:
        lines += [
            "",
            "Reading it: the first turn of a shopper in a process reads their namespace whole "
            "(then it is cached, and each write patches it and its lookups with the rows it "
            "touched); later turns look the message's words up in the namespace's term index, "
            "score the stacked vectors once and take what they filter and demote on from "
            "keyword groups precomputed per domain. The reader gets a bounded slice "
            "(agent/turn_memory.py); a read hands on at most 16 of the dislikes a search "
            "applies of each strength (memory/injector.py) and the reply names five and "
            "counts the others, while filtering uses every hard dislike. The user tower is "
            "the normalised mean of the applicable likes' stored vectors (each of its own "
            "words, embedded when it was written): no model call for a new set of likes.",
        ]
    lines.append("")
    return "\n".join(lines)


SCALE_HEADING = "## Turn time by stored entries"


def with_earlier_sections(path: Path, text: str, args: argparse.Namespace) -> str:
    """`--scale-only` replaces only the report's scale section, `--hostile-only` only its
    fairness section: the rows a run did not measure stay as they were measured, under
    their own date and load."""
    if not (args.scale_only or args.hostile_only) or not path.exists():
        return text
    earlier = path.read_text(encoding="utf-8")
    if args.scale_only:
        if SCALE_HEADING not in text:
            return text
        generated, _, scale = text.partition(SCALE_HEADING)
        stamp = generated.split("\n")[2].replace("Generated by", "Measured by", 1)
        stamp = stamp.replace("bench_fairness`", "bench_fairness --scale-only`", 1)
        kept = earlier.split(SCALE_HEADING)[0].rstrip()
        return f"{kept}\n\n{SCALE_HEADING}\n\n{stamp}{scale}"
    if SCALE_HEADING not in earlier:
        return text
    header, _, scale = earlier.partition(SCALE_HEADING)
    if not scale.lstrip().startswith("Measured by"):
        # The scale rows came with the whole report: they keep that report's date and load.
        stamp = header.split("\n")[2].replace("Generated by", "Measured by", 1)
        scale = f"\n\n{stamp}{scale}"
    generated = text.replace("bench_fairness`", "bench_fairness --hostile-only`", 1)
    return f"{generated.rstrip()}\n\n{SCALE_HEADING}{scale}"


def progress_bar() -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), TimeRemainingColumn(),
    )  # fmt: skip


def bench_store(
    store: str, args: argparse.Namespace, redis_url: str, progress: Progress
) -> dict[str, Any]:
    """The fairness rows and the scale rows on one backend, each in a fresh `cartwise serve`."""
    results: dict[str, Any] = {"fairness": {}}
    with tempfile.TemporaryDirectory(prefix="cartwise-bench-fair-") as tmp:
        home = args.home / store if args.home else Path(tmp)
        env = {
            "CARTWISE_HOME": str(home),
            "EMBEDDER": "e5:small",
            "STORE_BACKEND": store,
            "RATE_LIMIT_PER_MINUTE": "100000",
            "LOG_PERSONAL_DATA": "false",
            "MAX_THREADS_PER_USER": "100000",
        }
        if store == "redis":
            import redis

            env["REDIS_URL"] = redis_url
            # Redis means replicas may share it, so serve wants a secret they share.
            env["AUTH_SECRET"] = secrets.token_urlsafe(32)
            redis.Redis.from_url(redis_url).flushdb()
        for label, extra in CONFIGS[: 0 if args.scale_only else 1 if args.default_only else None]:
            # Alone before and after, and one set per hostile load.
            task = progress.add_task(
                f"{store}, {label}", total=args.turns * (2 + len(HOSTILE_LOADS))
            )
            with cartwise_serve({**env, **extra}) as base_url:
                progress.console.print(f"[fairness] {store}, {label} on {base_url}", markup=False)
                results["fairness"][label] = asyncio.run(
                    fairness(base_url, args.turns, partial(progress.advance, task))
                )
        if not (args.skip_scale or args.hostile_only):
            with cartwise_serve(env) as base_url:
                progress.console.print(f"[scale] {store} on {base_url}", markup=False)
                results["scale"] = asyncio.run(scale(base_url, args.turns, env))
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--store", choices=["sqlite", "redis", "both"], default="both")
    parser.add_argument(
        "--redis-url",
        default=os.environ.get("CARTWISE_TEST_REDIS_URL", ""),
        help="a Redis database the bench may flush (default: its own redis-server)",
    )
    parser.add_argument("--home", type=Path, default=None)
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--skip-scale", action="store_true", help="only the fairness rows")
    only.add_argument(
        "--scale-only", action="store_true", help="only the turn time by stored entries"
    )
    only.add_argument(
        "--hostile-only",
        action="store_true",
        help="only the fairness rows, keeping the report's scale section as it was",
    )
    parser.add_argument(
        "--default-only", action="store_true", help="not also with the busy rule on"
    )
    parser.add_argument("--no-report", action="store_true", help="print, write no report")
    args = parser.parse_args()
    stores = ["sqlite", "redis"] if args.store == "both" else [args.store]
    results: dict[str, Any] = {}
    with ExitStack() as stack:
        redis_url = args.redis_url
        if "redis" in stores and not redis_url:
            redis_url = stack.enter_context(redis_server())
        progress = stack.enter_context(progress_bar())
        for store in stores:
            results[store] = bench_store(store, args, redis_url, progress)
    text = render(results, args)
    if not args.no_report:
        for path in (REPORT, DOCS_REPORT):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(with_earlier_sections(path, text, args), encoding="utf-8")
        print(f"report: {REPORT}, {DOCS_REPORT}")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
