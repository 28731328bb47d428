"""`cartwise bench`: run the benchmarks of a source checkout (they are not part of the wheel)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import typer


def _checkout_root() -> Path | None:
    for folder in (Path.cwd(), *Path.cwd().parents):
        if (folder / "benchmarks" / "__main__.py").is_file():
            return folder
    return None


def bench() -> None:
    """Run every benchmark (ratios against a same-run baseline; reports in benchmarks/reports)."""
    root = _checkout_root()
    if root is None:
        typer.echo(
            "error: no benchmarks/ folder here or above; run from a Cartwise source checkout",
            err=True,
        )
        raise typer.Exit(2)
    result = subprocess.run([sys.executable, "-m", "benchmarks"], cwd=root, check=False)
    raise typer.Exit(result.returncode)


def register(app: typer.Typer) -> None:
    app.command(name="bench")(bench)
