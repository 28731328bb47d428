"""A process registers only the command it runs: every command is reachable that way, and a
lone registered command is still a subcommand, not the root."""

from __future__ import annotations

import json
import sys

import pytest
import typer

from cartwise import cli
from cartwise.commands import COMMANDS, register_all, register_for


def _names(app: typer.Typer) -> set[str]:
    commands = {c.name for c in app.registered_commands}
    return commands | {g.name for g in app.registered_groups}


def test_every_command_is_named_with_the_modules_that_register_it() -> None:
    everything = typer.Typer()
    register_all(everything)
    assert _names(everything) == set(COMMANDS)
    for name in COMMANDS:
        alone = typer.Typer()
        register_for(alone, [name, "--help"])
        assert name in _names(alone)
        assert _names(alone) < _names(everything)


@pytest.mark.parametrize("args", [[], ["--help"], ["no-such-command"]])
def test_help_and_unknown_commands_register_everything(args: list[str]) -> None:
    app = typer.Typer()
    register_for(app, args)
    assert _names(app) == set(COMMANDS)


def test_a_lone_registered_command_still_reads_its_arguments(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """typer makes an app's only command its root: `cartwise understand MESSAGE` would then
    read "understand" as the message."""
    monkeypatch.setattr(cli, "app", typer.Typer(add_completion=False))
    cli.app.callback()(cli._commands)
    monkeypatch.setattr(sys, "argv", ["cartwise", "understand", "--json", "推荐一款降噪耳机"])
    with pytest.raises(SystemExit) as exit_:
        cli.main()
    assert exit_.value.code == 0
    assert json.loads(capsys.readouterr().out)["reading"]["query"]
