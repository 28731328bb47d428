"""Runs every benchmark module, each in its own process so peak-memory figures don't mix."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    modules = sorted(p.stem for p in HERE.glob("bench_*.py"))
    failed = []
    for module in modules:
        print(f"\n=== benchmarks.{module} ===", flush=True)
        result = subprocess.run([sys.executable, "-m", f"benchmarks.{module}"], check=False)
        if result.returncode != 0:
            failed.append(module)
    print(f"\nreports in {HERE / 'reports'}")
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
