"""The README cannot rot: every `cartwise ...` command it shows exists with the options it
uses, and every document it links to is in the repository."""

from __future__ import annotations

import re
import shlex
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import typer
import typer.main

from cartwise.commands import register_all

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _bash_blocks() -> list[str]:
    return re.findall(r"```bash\n(.*?)```", README, flags=re.DOTALL)


def _readme_commands() -> list[list[str]]:
    commands = []
    for block in _bash_blocks():
        for line in block.splitlines():
            code = line.split("  #", 1)[0].strip()
            if code.startswith("cartwise "):
                commands.append(shlex.split(code)[1:])
    return commands


@cache
def _root() -> Any:
    """Every command as click sees it. Walking this tree, not rendering each command's rich
    `--help`, is what keeps the test fast (2.5–5.5 s a README line that way)."""
    app = typer.Typer()
    register_all(app)
    return typer.main.get_command(app)


def test_readme_opens_with_the_two_commands() -> None:
    first_block = _bash_blocks()[0]
    assert first_block.splitlines()[0].startswith("make run")
    assert first_block.splitlines()[1].startswith("make test")


@pytest.mark.parametrize("argv", _readme_commands(), ids=lambda argv: " ".join(argv[:2]))
def test_every_readme_command_exists_with_its_options(argv: list[str]) -> None:
    words = [a for a in argv if not a.startswith("-")]
    # Walk down to the deepest (sub)command the line names.
    command = _root()
    path: list[str] = []
    for word in words:
        subcommands = getattr(command, "commands", {})
        if word not in subcommands:
            break
        command = subcommands[word]
        path.append(word)
    assert path, f"README shows an unknown command: cartwise {' '.join(argv)}"
    is_group = hasattr(command, "commands")
    assert not (is_group and len(path) < len(words)), (
        f"README shows an unknown subcommand: cartwise {' '.join(argv)}"
    )
    options = {"--help", *(o for p in command.params for o in [*p.opts, *p.secondary_opts])}
    for option in (a.split("=", 1)[0] for a in argv if a.startswith("--")):
        assert option in options, f"cartwise {' '.join(path)} has no {option}"


def test_readme_links_point_at_files_in_the_repository() -> None:
    for target in re.findall(r"\]\(((?!https?:)[^)#]+)\)", README):
        assert (ROOT / target).exists(), f"README links to a missing {target}"
