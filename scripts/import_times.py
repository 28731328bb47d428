"""Which imports of a `cartwise` command cost more than a threshold (`python -X importtime`).

    .venv/bin/python scripts/import_times.py [--threshold-ms 100] -- ask --user u "跑步鞋"

Runs the command once in a fresh interpreter (this one, so another checkout's `.venv/bin/python`
measures that checkout) and prints a Markdown table: every module whose import took at
least the threshold, cumulative (with what it imported) and on its own, nested under the
first Cartwise module that imported it. `CARTWISE_HOME` is passed through.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from dataclasses import dataclass, field

RUN = """
import sys
from cartwise.cli import main
sys.argv = ["cartwise", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
"""


@dataclass
class Node:
    name: str
    own_us: int
    total_us: int
    children: list[Node] = field(default_factory=list)


def parse(stderr: str) -> list[Node]:
    """The import tree: `-X importtime` prints children before their parent, one level of
    indentation deeper."""
    pending: dict[int, list[Node]] = {}
    roots: list[Node] = []
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own, total, name = line.removeprefix("import time:").split("|", 2)
        depth = (len(name) - len(name.lstrip()) - 1) // 2
        node = Node(name.strip(), int(own), int(total), pending.pop(depth + 1, []))
        if depth == 0:
            roots.append(node)
        else:
            pending.setdefault(depth, []).append(node)
    return roots


def rows(nodes: list[Node], threshold_us: int, parent: str = "") -> list[tuple[str, str, int, int]]:
    """(module, imported by, cumulative µs, own µs): every Cartwise module and every import a
    Cartwise module makes that costs at least the threshold (a library's own imports are in
    its cumulative figure)."""
    found = []
    for node in nodes:
        if node.total_us < threshold_us:
            continue
        found.append((node.name, parent, node.total_us, node.own_us))
        if node.name.startswith("cartwise"):
            found += rows(node.children, threshold_us, node.name)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threshold-ms", type=float, default=100.0)
    parser.add_argument("args", nargs="+")
    args = parser.parse_args()
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", RUN, *args.args],
        capture_output=True, text=True, env=os.environ, check=False,
    )  # fmt: skip
    tree = parse(result.stderr)
    total = sum(node.total_us for node in tree)
    print(f"`cartwise {' '.join(args.args)}`: {total / 1000:.0f} ms of imports\n")
    print("| module | imported by | cumulative ms | own ms |")
    print("|---|---|---:|---:|")
    for name, parent, total_us, own_us in rows(tree, int(args.threshold_ms * 1000)):
        print(f"| `{name}` | {parent or '—'} | {total_us / 1000:.0f} | {own_us / 1000:.0f} |")


if __name__ == "__main__":
    main()
