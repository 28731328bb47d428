"""Memory of anonymous sign-ins: 120 `POST /api/auth/token` for unknown usernames, 40 at a
time, against `cartwise serve` in its own process, for two password-hashing setups measured
in the same run:

- baseline: the old cost (argon2id 64 MiB, 3 passes) with no bound on concurrent hashes
  (PASSWORD_HASH_CONCURRENCY=40, i.e. every request hashes at once);
- current: the defaults (19 MiB, 2 passes, at most PASSWORD_HASH_CONCURRENCY=2 at a time,
  503 + Retry-After past PASSWORD_HASH_QUEUE_SECONDS).

The server's resident memory is sampled every 10 ms (psutil); the report gives its growth
over the idle server (peak - before) and the answers' status counts. The per-address sign-in
limit is lifted for both runs (an attacker with many addresses), so hashing is what is
measured.

    python -m benchmarks.bench_sign_in [--requests 120] [--concurrency 40]

Writes benchmarks/reports/sign_in.md.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import psutil

from benchmarks.bench_api import cartwise_serve

REPORT = Path(__file__).resolve().parent / "reports" / "sign_in.md"
MIB = 1024 * 1024

SETUPS: dict[str, dict[str, str]] = {
    "baseline (64 MiB, 3 passes, unbounded)": {
        "PASSWORD_HASH_MEMORY_KIB": "65536",
        "PASSWORD_HASH_TIME_COST": "3",
        "PASSWORD_HASH_CONCURRENCY": "40",
    },
    "current defaults (19 MiB, 2 passes, 2 at a time)": {},
}


class PeakMemory:
    """Samples the RSS of a process and its children until stopped."""

    def __init__(self, pid: int) -> None:
        self._process = psutil.Process(pid)
        self.before = self._rss()
        self.peak = self.before
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _rss(self) -> int:
        processes = [self._process, *self._process.children(recursive=True)]
        return sum(p.memory_info().rss for p in processes)

    def _run(self) -> None:
        while not self._stop.wait(0.01):
            self.peak = max(self.peak, self._rss())

    def __enter__(self) -> PeakMemory:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()


async def sign_ins(base_url: str, requests: int, concurrency: int) -> tuple[Counter[int], float]:
    gate = asyncio.Semaphore(concurrency)
    statuses: Counter[int] = Counter()

    async def one(client: httpx.AsyncClient) -> None:
        async with gate:
            name = f"nobody{uuid.uuid4().hex[:10]}"
            response = await client.post(
                "/api/auth/token", data={"username": name, "password": "guess-password-1"}
            )
            statuses[response.status_code] += 1

    limits = httpx.Limits(max_connections=concurrency)
    async with httpx.AsyncClient(base_url=base_url, timeout=120, limits=limits) as client:
        started = time.perf_counter()
        await asyncio.gather(*(one(client) for _ in range(requests)))
    return statuses, time.perf_counter() - started


def bench_setup(
    name: str, overrides: dict[str, str], home: Path, args: argparse.Namespace
) -> dict[str, Any]:
    env = {
        "CARTWISE_HOME": str(home),
        "EMBEDDER": "hashing:256",
        "AUTH_ATTEMPTS_PER_MINUTE": "100000",
        **overrides,
    }
    with cartwise_serve(env) as base_url:
        server_pid = _server_pid(base_url)
        time.sleep(1.0)  # let start-up allocations settle before the idle reading
        with PeakMemory(server_pid) as memory:
            statuses, seconds = asyncio.run(sign_ins(base_url, args.requests, args.concurrency))
    result = {
        "setup": name,
        "growth_mib": (memory.peak - memory.before) / MIB,
        "idle_mib": memory.before / MIB,
        "seconds": seconds,
        "statuses": dict(sorted(statuses.items())),
    }
    print(result, flush=True)
    return result


def _server_pid(base_url: str) -> int:
    port = int(base_url.rsplit(":", 1)[1])
    for connection in psutil.net_connections(kind="tcp"):
        listening = connection.status == "LISTEN" and connection.pid is not None
        if listening and connection.laddr and connection.laddr.port == port:
            return int(connection.pid or 0)
    raise SystemExit(f"no process listens on port {port}")


def write_report(results: list[dict[str, Any]], args: argparse.Namespace) -> None:
    baseline, current = results
    ratio = (
        current["growth_mib"] / baseline["growth_mib"] if baseline["growth_mib"] else float("nan")
    )
    lines = [
        "# Memory of anonymous sign-ins",
        "",
        f"{args.requests} `POST /api/auth/token` for unknown usernames, {args.concurrency} at a "
        "time, against `cartwise serve` (its own process, 127.0.0.1, hashing embedder). Server "
        "RSS (process and children) sampled every 10 ms; growth = peak - idle. Both setups "
        "measured in the same run on this (shared, 2-core) machine. "
        "`python -m benchmarks.bench_sign_in`.",
        "",
        "| setup | RSS growth (MiB) | idle RSS (MiB) | seconds | answers |",
        "|---|---:|---:|---:|---|",
    ]
    for r in results:
        answers = ", ".join(f"{status}×{count}" for status, count in r["statuses"].items())
        lines.append(
            f"| {r['setup']} | {r['growth_mib']:.0f} | {r['idle_mib']:.0f} | "
            f"{r['seconds']:.1f} | {answers} |"
        )
    lines += [
        "",
        f"Growth ratio current / baseline: **{ratio:.2f}**. 401 is the answer for an unknown "
        "name (after a dummy hash of the same cost); 503 + Retry-After is a request that found "
        "no free hashing slot within PASSWORD_HASH_QUEUE_SECONDS.",
        "",
    ]
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text("\n".join(lines), encoding="utf-8")
    print(f"report: {REPORT}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=120)
    parser.add_argument("--concurrency", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cartwise-bench-sign-in-") as tmp:
        home = Path(tmp) / "home"
        results = [bench_setup(name, env, home, args) for name, env in SETUPS.items()]
    write_report(results, args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
