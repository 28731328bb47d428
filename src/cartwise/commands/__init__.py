"""CLI command groups; each module adds its commands to the root app.

A process registers only the modules of the command it runs (`register_for`): every module
imports what its options name, and `cartwise memory list` paid for the turn's result models,
the reader's face and the evaluation harnesses it never runs. `--help` (or an unknown
command) registers them all.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

import typer

# Each module exposes `register(app)`. Add one line per command module.
COMMAND_MODULES: list[str] = [
    "memory",
    "watches",
    "session",
    "understand",
    "search",
    "ingest",
    "eval",
    "eval_embedders",
    "eval_retrieval",
    "eval_understanding",
    "eval_dialogue",
    "eval_natural",
    "eval_shopsim",
    "eval_acts",
    "eval_catalog",
    "eval_specs",
    "ask",
    "serve",
    "bench",
]


COMMANDS: dict[str, tuple[str, ...]] = {
    "memory": ("memory",),
    "watch": ("watches",),
    "alerts": ("watches",),
    "session": ("session",),
    "understand": ("understand",),
    "search": ("search",),
    "ingest": ("ingest",),
    "eval": tuple(name for name in COMMAND_MODULES if name == "eval" or name.startswith("eval_")),
    "ask": ("ask",),
    "chat": ("ask",),
    "serve": ("serve",),
    "bench": ("bench",),
}
"""Each top-level command (or group) and the modules that register it."""


def register_all(app: typer.Typer) -> None:
    for name in COMMAND_MODULES:
        importlib.import_module(f"cartwise.commands.{name}").register(app)


def register_for(app: typer.Typer, args: Sequence[str]) -> None:
    """What running `args` needs registered: its command's modules, or every module when the
    first argument names no command (`--help`, a typo typer then reports)."""
    modules = COMMANDS.get(args[0]) if args else None
    if modules is None:
        register_all(app)
        return
    for name in modules:
        importlib.import_module(f"cartwise.commands.{name}").register(app)
