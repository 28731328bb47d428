"""Throughput of the HTTP API on loopback: 8 concurrent clients, zero lost memory writes.

`cartwise serve` (real uvicorn, its own process) serves the real agent (rules engine) on
the demo catalog, indexed on first start. Eight async httpx
clients, all signed in as ONE shopper (so their memory writes race on the same user), each
run `--turns` full turns on their own thread ("I like <x>, show me <product>"); every
turn states a preference no other turn states. Afterwards every write a turn acknowledged (the `memory_updated` event) must be in
the store: lost = acknowledged - stored. Throughput is compared with the same clients
hammering `/healthz` in the same run, so the ratio is meaningful on a loaded machine.

    python -m benchmarks.bench_api [--turns 5] [--clients 8] [--store sqlite|redis|both]
                                   [--embedder hashing:256] [--max-seconds 180]

Writes benchmarks/reports/api.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import secrets
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from cartwise.vocabulary.attributes import attribute_terms
from cartwise.vocabulary.colours import colour_table

REPORT = Path(__file__).resolve().parent / "reports" / "api.md"
PASSWORD = "bench-password-123"


PRODUCTS = ("headphones", "t-shirts", "running shoes", "jackets")
"""What the turns search for, in rotation: every turn is a full turn (plan, search, pick,
reply, remember), not a preference-only one."""


def stated_preferences() -> list[tuple[str, str]]:
    """(slug, English surface form) for every material and colour the rules engine knows:
    each turn says "I like <form>, show me <product>", a distinct long-term like."""
    pairs: list[tuple[str, str]] = []
    materials = [(t.slug, t.forms) for t in attribute_terms() if t.category == "material"]
    colours = [(c.slug, c.names) for c in colour_table().colours]
    for slug, forms in (*materials, *colours):
        english = next((f for f in forms if f.isascii()), None)
        if english:
            pairs.append((slug, english))
    return pairs


@dataclass
class TurnOutcome:
    seconds: float
    ok: bool
    failure: str = ""
    added: list[str] = field(default_factory=list)
    superseded: list[str] = field(default_factory=list)


async def one_turn(
    client: httpx.AsyncClient, headers: dict[str, str], thread: str, message: str
) -> TurnOutcome:
    body = {
        "threadId": thread,
        "runId": uuid.uuid4().hex,
        "messages": [{"id": uuid.uuid4().hex, "role": "user", "content": message}],
    }
    started = time.perf_counter()
    added: list[str] = []
    superseded: list[str] = []
    finished = False
    failure = ""
    async with client.stream("POST", "/api/agent", json=body, headers=headers) as response:
        if response.status_code != 200:
            await response.aread()
            failure = f"{response.status_code} {response.text[:200]}"
            return TurnOutcome(time.perf_counter() - started, ok=False, failure=failure)
        async for line in response.aiter_lines():
            if not line.startswith("data:"):
                continue
            event = json.loads(line[5:])
            if event["type"] == "CUSTOM" and event["name"] == "memory_updated":
                added += [e["dedup_key"] for e in event["value"].get("added", [])]
                superseded += [e["dedup_key"] for e in event["value"].get("superseded", [])]
            if event["type"] == "RUN_ERROR":
                failure = f"RUN_ERROR {event['message'][:200]}"
            finished = finished or event["type"] == "RUN_FINISHED"
    return TurnOutcome(time.perf_counter() - started, finished, failure, added, superseded)


async def turn_client(
    base_url: str,
    headers: dict[str, str],
    thread: str,
    messages: list[str],
    deadline: float,
) -> list[TurnOutcome]:
    outcomes: list[TurnOutcome] = []
    async with httpx.AsyncClient(base_url=base_url, timeout=120) as client:
        for message in messages:
            if time.perf_counter() > deadline:
                break
            outcomes.append(await one_turn(client, headers, thread, message))
    return outcomes


async def healthz_client(base_url: str, requests: int, deadline: float) -> list[float]:
    latencies: list[float] = []
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
        for _ in range(requests):
            if time.perf_counter() > deadline:
                break
            started = time.perf_counter()
            (await client.get("/healthz")).raise_for_status()
            latencies.append(time.perf_counter() - started)
    return latencies


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def run_bench(base_url: str, args: argparse.Namespace) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as client:
        user = f"bench{uuid.uuid4().hex[:8]}"
        (
            await client.post("/api/auth/register", json={"username": user, "password": PASSWORD})
        ).raise_for_status()
        token = await client.post("/api/auth/token", data={"username": user, "password": PASSWORD})
        token.raise_for_status()
        headers = {"Authorization": f"Bearer {token.json()['access_token']}"}

    # Warm-up turn (lexical index, jieba, caches) outside the measurement.
    async with httpx.AsyncClient(base_url=base_url, timeout=120) as client:
        await one_turn(client, headers, f"{user}-warmup", "推荐头戴式耳机")

    preferences = stated_preferences()
    needed = args.clients * args.turns
    if needed > len(preferences):
        raise SystemExit(f"only {len(preferences)} distinct preferences; lower --turns/--clients")
    plan = [
        [
            f"I like {preferences[c * args.turns + t][1]}, show me {PRODUCTS[t % len(PRODUCTS)]}"
            for t in range(args.turns)
        ]
        for c in range(args.clients)
    ]

    deadline = time.perf_counter() + args.max_seconds
    started = time.perf_counter()
    health = await asyncio.gather(
        *(healthz_client(base_url, args.healthz_requests, deadline) for _ in range(args.clients))
    )
    health_seconds = time.perf_counter() - started
    health_latencies = [x for per_client in health for x in per_client]

    deadline = time.perf_counter() + args.max_seconds
    started = time.perf_counter()
    per_client = await asyncio.gather(
        # Thread ids are global: name them after this run's account so a reused --home
        # (whose threads belong to an earlier run's account) cannot collide.
        *(
            turn_client(base_url, headers, f"{user}-{c}", plan[c], deadline)
            for c in range(args.clients)
        )
    )
    turn_seconds = time.perf_counter() - started
    outcomes = [o for client_outcomes in per_client for o in client_outcomes]

    acknowledged = {k for o in outcomes for k in o.added} - {
        k for o in outcomes for k in o.superseded
    }
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as client:
        stored = {e["dedup_key"] for e in (await client.get("/api/memory", headers=headers)).json()}
    lost = sorted(acknowledged - stored)

    turns_per_second = len(outcomes) / turn_seconds
    health_per_second = len(health_latencies) / health_seconds
    return {
        "turns": len(outcomes),
        "turns_failed": sum(not o.ok for o in outcomes),
        "failures": sorted({o.failure for o in outcomes if not o.ok})[:3],
        "turn_seconds": turn_seconds,
        "turns_per_second": turns_per_second,
        "turn_p50_ms": percentile([o.seconds for o in outcomes], 0.5) * 1000,
        "turn_p95_ms": percentile([o.seconds for o in outcomes], 0.95) * 1000,
        "healthz_requests": len(health_latencies),
        "healthz_per_second": health_per_second,
        "healthz_p50_ms": percentile(health_latencies, 0.5) * 1000,
        "ratio": turns_per_second / health_per_second,
        "stated": len(outcomes),
        "acknowledged": len(acknowledged),
        "stored": len(stored),
        "lost": lost,
    }


@contextmanager
def cartwise_serve(env: dict[str, str]) -> Iterator[str]:
    """`cartwise serve --port 0` in its own process (so client and server do not share a
    GIL); yields the URL it prints once it accepts requests."""
    command = [str(Path(sys.executable).with_name("cartwise")), "serve", "--port", "0"]
    process = subprocess.Popen(
        command, env={**os.environ, **env}, stderr=subprocess.PIPE, text=True, bufsize=1
    )
    try:
        assert process.stderr is not None
        url = ""
        for line in process.stderr:
            print(f"  serve: {line.rstrip()}", flush=True)
            if match := re.search(r"running at (http://\S+)", line):
                url = match.group(1)
                break
        if not url:
            raise SystemExit(f"cartwise serve exited with {process.wait()}")
        # Keep draining its log so the pipe never fills and blocks the server.
        threading.Thread(target=process.stderr.read, daemon=True).start()
        with httpx.Client(base_url=url, timeout=60) as client:
            client.get("/readyz").raise_for_status()
        yield url
    finally:
        process.terminate()
        process.wait(timeout=60)


def bench_backend(
    backend: str, embedder: str, args: argparse.Namespace, home: Path
) -> dict[str, Any]:
    env = {
        "CARTWISE_HOME": str(home),
        "EMBEDDER": embedder,
        "STORE_BACKEND": backend,
        "RATE_LIMIT_PER_MINUTE": "100000",
        "LOG_PERSONAL_DATA": "false",
    }
    if backend == "redis":
        import redis

        env["REDIS_URL"] = args.redis_url
        # Redis means replicas may share it, so serve wants a secret they share.
        env["AUTH_SECRET"] = secrets.token_urlsafe(32)
        redis.Redis.from_url(args.redis_url).flushdb()
    with cartwise_serve(env) as base_url:
        print(f"[{backend}] serving on {base_url}", flush=True)
        result = asyncio.run(run_bench(base_url, args))
    result["backend"] = backend
    result["embedder"] = embedder
    print(json.dumps(result, indent=2), flush=True)
    return result


def write_report(results: list[dict[str, Any]], args: argparse.Namespace) -> None:
    lines = [
        "# API throughput on loopback",
        "",
        f"Generated by `python -m benchmarks.bench_api` on {time.strftime('%Y-%m-%d %H:%M')} "
        f"({os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the end).",
        "",
        "`cartwise serve --port 0` in its own process (uvicorn on 127.0.0.1), real agent "
        f"(rules engine), demo catalog. {args.clients} concurrent httpx clients signed in as one shopper "
        f"(their memory writes race on one user), {args.turns} turns each on their own "
        'thread, every turn a full turn stating a distinct like ("I like <material/colour>, '
        'show me <product>"). Baseline: '
        f"the same {args.clients} clients calling `/healthz` in the same run.",
        "",
        "| embedder | store | turns | failed | turns/s | turn p50 ms | turn p95 ms | /healthz req/s "
        "| turns/s ÷ healthz/s | writes acknowledged | stored | lost |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(
            f"| `{r['embedder']}` | {r['backend']} | {r['turns']} | {r['turns_failed']} | {r['turns_per_second']:.2f} "
            f"| {r['turn_p50_ms']:.0f} | {r['turn_p95_ms']:.0f} | {r['healthz_per_second']:.0f} "
            f"| {r['ratio']:.4f} | {r['acknowledged']} | {r['stored']} | {len(r['lost'])} |"
        )
    for r in results:
        for failure in r["failures"]:
            lines.append(f"\nFailed turn ({r['embedder']}, {r['backend']}): `{failure}`")
    lines += [
        "",
        "Lost = writes a turn acknowledged in its `memory_updated` event but absent from "
        "`GET /api/memory` afterwards. It must be 0 (the run exits non-zero otherwise).",
        "",
        "Reading it: all eight clients write to the same shopper's memory at once, so a lost "
        "update (a read-modify-write race in a store) would show as lost > 0. Latencies are "
        "client-side, whole turns including the SSE stream, with eight turns contending for "
        "the CPUs; the `/healthz` baseline is what the same clients and server manage when a "
        "request does no work, so turns/s ÷ healthz/s is the share of a no-op's throughput a "
        "real turn keeps, comparable across machines and loads. Per-stage latency of a single "
        "turn is in agent.md.",
        "",
    ]
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text("\n".join(lines), encoding="utf-8")
    print(f"report: {REPORT}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--turns", type=int, default=7, help="turns per client")
    parser.add_argument("--healthz-requests", type=int, default=200, help="per client")
    parser.add_argument("--max-seconds", type=float, default=180.0)
    parser.add_argument("--store", choices=["sqlite", "redis", "both"], default="both")
    parser.add_argument(
        "--embedder",
        nargs="+",
        default=["hashing:256"],
        help="one run per embedder (e5:small indexes the catalog once per --home: minutes)",
    )
    parser.add_argument("--redis-url", default=os.environ.get("CARTWISE_TEST_REDIS_URL", ""))
    parser.add_argument("--home", type=Path, default=None, help="keep the index here")
    args = parser.parse_args()

    backends = ["sqlite", "redis"] if args.store == "both" else [args.store]
    if "redis" in backends and not args.redis_url:
        if args.store == "redis":
            raise SystemExit("--store redis needs --redis-url or CARTWISE_TEST_REDIS_URL")
        print("no Redis URL: benchmarking sqlite only", flush=True)
        backends = ["sqlite"]
    results = []
    with tempfile.TemporaryDirectory(prefix="cartwise-bench-api-") as tmp:
        for embedder in args.embedder:
            for backend in backends:
                home = (args.home or Path(tmp)) / embedder.replace(":", "-") / backend
                results.append(bench_backend(backend, embedder, args, home))
    write_report(results, args)
    return 1 if any(r["lost"] or r["turns_failed"] for r in results) else 0


if __name__ == "__main__":
    raise SystemExit(main())
