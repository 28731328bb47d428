"""CLI command groups; each module adds its commands to the root app."""

from __future__ import annotations

import importlib

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


def register_all(app: typer.Typer) -> None:
    for name in COMMAND_MODULES:
        importlib.import_module(f"cartwise.commands.{name}").register(app)
