"""The commands are registered in one explicit list: its order is the order of --help."""

from __future__ import annotations

from typer.testing import CliRunner

from uno_stats.cli import COMMANDS, app


def test_every_command_comes_from_the_list_in_its_order():
    assert [c.name for c in app.registered_commands] == [name for name, _ in COMMANDS]
    assert [c.callback for c in app.registered_commands] == [command for _, command in COMMANDS]


def test_help_lists_the_commands_in_the_lists_order():
    shown = CliRunner().invoke(app, ["--help"]).stdout
    listed = shown[shown.index("Commands:") :].splitlines()[1:]
    names = [line.split()[0] for line in listed if line.startswith("  ") and line.split()]
    assert [n for n in names if n in dict(COMMANDS)] == [name for name, _ in COMMANDS]
