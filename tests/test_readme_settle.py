"""The README's settled answers are what their commands print (section "Comparing rules").

Each ``console`` block of that section that starts ``$ uno-stats settle`` is run as the
README gives it, plus ``--workers 1 --quiet`` and a temporary ``--out`` (none changes a
game), and must print the line shown below it; only the time ("in 6.1 s") may differ.
The commands share one ``--out``, so later ones reuse the games of earlier ones, as a
reader's would. Slow: about 500,000 games a side.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from uno_stats.cli import app

ROOT = Path(__file__).resolve().parents[1]
SECTION = "## Comparing rules: paired games, verdicts and `settle`"
TIME = re.compile(r" in [0-9.]+ s,")


def readme_settles() -> list[tuple[str, str]]:
    """(command, printed line) of every settle example in the README's section."""
    text = (ROOT / "README.md").read_text()
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```console\n(.*?)```", section, re.S)
    out = []
    for block in blocks:
        lines = block.strip().splitlines()
        if lines and lines[0].startswith("$ uno-stats settle "):
            assert len(lines) == 2, block
            out.append((lines[0].removeprefix("$ uno-stats "), lines[1]))
    return out


def test_the_readme_shows_settle_examples() -> None:
    examples = readme_settles()
    assert len(examples) >= 5
    assert all(TIME.search(line) for _, line in examples)


@pytest.mark.slow
def test_each_readme_settle_prints_what_the_readme_says(tmp_path: Path) -> None:
    out = tmp_path / "settle"
    for command, shown in readme_settles():
        args = [*shlex.split(command), "--workers", "1", "--quiet", "--out", str(out)]
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, (command, result.output)
        printed = result.stdout.strip()
        assert TIME.sub(" in ... s,", printed) == TIME.sub(" in ... s,", shown), command
