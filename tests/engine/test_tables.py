"""The engine's integer slots are tied to their tables by a real import-time check, and the
help text lives outside the hashed engine sources."""

from __future__ import annotations

import re
import shutil
import sys
import types
from pathlib import Path

import pytest
from typer.testing import CliRunner

from uno_stats.cli import app
from uno_stats.engine.jit import ENGINE_SOURCES, engine_source_hash, source_hash
from uno_stats.engine.slots import SlotMismatch, check_slots
from uno_stats.help_text import COLUMN_HELP, KNOB_HELP, RULE_HELP, STRATEGY_HELP

PACKAGE = Path(__file__).resolve().parents[2] / "uno_stats"
ENGINE = PACKAGE / "engine"


def test_check_slots_accepts_a_table_in_step() -> None:
    check_slots({"X_A": 0, "X_B": 1, "X_COUNT": 2, "Y_A": 7}, "X_", ["a", "b"], extra=["X_COUNT"])


@pytest.mark.parametrize(
    "namespace",
    [
        {"X_A": 0, "X_B": 2},  # out of step
        {"X_A": 0},  # a name of the table without its constant
        {"X_A": 0, "X_B": 1, "X_C": 2},  # a constant the table does not have
    ],
)
def test_check_slots_raises(namespace: dict[str, int]) -> None:
    with pytest.raises(SlotMismatch):
        check_slots(namespace, "X_", ["a", "b"])


@pytest.mark.parametrize(
    ("module", "line", "bad"),
    [
        ("rules.py", "R_DRAW = 6", "R_DRAW = 7"),
        ("state.py", "ST_TURNS = 27", "ST_TURNS = 28"),
        ("strategy_table.py", "S_BLUFF = 4", "S_BLUFF = 5"),
    ],
)
def test_a_slot_out_of_step_fails_the_import_even_under_optimize(
    module: str, line: str, bad: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = str(ENGINE / module)  # a real file, for numba's cache locator
    source = (ENGINE / module).read_text()
    assert line in source
    probe = types.ModuleType(f"uno_stats.engine._probe_{module[:-3]}")
    monkeypatch.setitem(sys.modules, probe.__name__, probe)
    exec(compile(source, path, "exec", optimize=2), probe.__dict__)  # in step: imports
    code = compile(source.replace(line, bad), path, "exec", optimize=2)  # asserts removed
    with pytest.raises(SlotMismatch):
        exec(code, probe.__dict__)


def _help_sentences() -> list[str]:
    texts = [h.meaning for h in RULE_HELP.values()]
    texts += [*STRATEGY_HELP.values(), *KNOB_HELP.values(), *COLUMN_HELP.values()]
    # every clause long enough to be prose rather than a name
    return [part for text in texts for part in re.split(r"[;:.(]", text) if len(part) > 30]


def test_hashed_engine_files_hold_no_help_prose() -> None:
    hashed = "\n".join(p.read_text() for pattern in ENGINE_SOURCES for p in PACKAGE.glob(pattern))
    sentences = _help_sentences()
    assert len(sentences) > 50
    assert [s for s in sentences if s.strip() in hashed] == []


def test_help_text_changes_leave_the_engine_hash_alone(tmp_path: Path) -> None:
    copy = tmp_path / "uno_stats"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert source_hash(copy) == engine_source_hash()
    help_file = copy / "help_text.py"
    help_file.write_text(help_file.read_text().replace("cards dealt to each player", "cards dealt"))
    assert source_hash(copy) == engine_source_hash()
    rules_file = copy / "engine" / "rules.py"  # control: a change to the engine does count
    rules_file.write_text(rules_file.read_text() + "\n# a comment\n")
    assert source_hash(copy) != engine_source_hash()


def test_cli_shows_the_help_text() -> None:
    runner = CliRunner()
    rules = runner.invoke(app, ["rules", "--format", "md"])
    assert rules.exit_code == 0
    for key, help_ in RULE_HELP.items():
        row = next(line for line in rules.stdout.splitlines() if line.startswith(f"| {key} "))
        assert help_.meaning in row
    strategies = runner.invoke(app, ["strategies", "--format", "md"])
    assert strategies.exit_code == 0
    for text in [*STRATEGY_HELP.values(), *KNOB_HELP.values()]:
        assert text in strategies.stdout
