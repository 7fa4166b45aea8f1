"""The library API of the package top: the README's notebook example runs as written (on
fewer games, in a temporary folder), results read back as polars DataFrames, every object
shows as one line (and as HTML), and ``import uno_stats`` stays light."""

from __future__ import annotations

import contextlib
import html
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

import uno_stats as uno
from uno_stats.errors import UnoStatsError

ROOT = Path(__file__).resolve().parents[1]


def readme_example() -> str:
    """The Python block under "From Python (a notebook)" in the README."""
    text = (ROOT / "README.md").read_text()
    start = text.index("From Python (a notebook)")
    found = re.search(r"```python\n(.*?)```", text[start:], flags=re.S)
    assert found
    return found.group(1)


def test_the_package_top_exports_the_api() -> None:
    assert set(uno.__all__) == {
        "Results",
        "Scenario",
        "Settled",
        "compare",
        "effects",
        "load_scenario",
        "open_results",
        "settle",
        "simulate",
        "summarise",
    }
    assert all(callable(getattr(uno, name)) for name in uno.__all__)


def test_readme_notebook_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code = readme_example()
    assert "import uno_stats as uno" in code and "from uno_stats." not in code
    small = {
        "games=20_000": "games=1_000",
        "max_games=400_000": "max_games=2_000",
        "batch=20_000": "batch=1_000",
        '"results/settle"': repr(str(tmp_path / "settle")),
        '"results"': repr(str(tmp_path / "results")),
    }
    for old, new in small.items():
        assert old in code, old
        code = code.replace(old, new)
    monkeypatch.chdir(ROOT)  # the example names scenarios/ as in a checkout
    printed = io.StringIO()
    namespace: dict[str, object] = {}
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "<README notebook example>", "exec"), namespace)
    lines = printed.getvalue().splitlines()
    assert (
        lines[0]
        == f"Results {tmp_path / 'results' / 'stacking-draw-two'}: 1 run, 1,000 games, complete"
    )
    answers = namespace["answers"]
    assert isinstance(answers, pl.DataFrame)
    assert "mean_turns" in answers.filter(question="round_length")["metric"].to_list()
    assert answers.columns[:8] == [
        "run",
        "group",
        "question",
        "metric",
        "estimate",
        "low",
        "high",
        "n",
    ]
    effect = namespace["effect"]
    assert isinstance(effect, pl.DataFrame) and effect["metric"].to_list() == ["mean_turns"]
    assert effect["paired"][0] is True and effect["margin"][0] == "2%"
    assert effect["verdict"][0] in lines
    table = namespace["table"]
    assert isinstance(table, pl.DataFrame) and set(table["metric"]) == {"mean_turns"}
    assert sorted(table["term"]) == sorted(f"players={n}" for n in range(3, 11))
    assert table["estimate"].to_list() == sorted(table["estimate"], key=abs, reverse=True)
    rounds = namespace["rounds"]
    assert isinstance(rounds, pl.DataFrame) and rounds.height == 1_000
    assert rounds["game"].to_list() == list(range(1_000))
    settled = namespace["settled"]
    assert isinstance(settled, uno.Settled) and lines[-1] == repr(settled)
    assert settled._repr_html_() == f"<p>{html.escape(lines[-1])}</p>"
    assert settled.result.games <= 2_000 and "stacking-draw-two" in lines[-1]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("api")
    path = root / "tiny.yaml"
    path.write_text("name: tiny\nplayers: 3\ngames: 400\nseed: 5\nrules:\n  jump_in: true\n")
    return root, path


def test_scenario_and_results_show_as_one_line_and_html(tiny: tuple[Path, Path]) -> None:
    root, path = tiny
    scenario = uno.load_scenario(path)
    assert repr(scenario) == (
        "Scenario tiny: players 3; games 400; seed 5; preset mattel-2022; "
        "rules changed jump_in=True; strategies random, random, random"
    )
    assert "<table>" in scenario._repr_html_() and "jump_in=True" in scenario._repr_html_()
    results = uno.simulate(scenario, out=root / "out", workers=1)
    assert repr(results) == f"Results {root / 'out' / 'tiny'}: 1 run, 400 games, complete"
    assert "<table>" in results._repr_html_()
    again = uno.open_results(root / "out" / "tiny")
    assert again.frame().equals(results.frame())


def test_run_gives_the_games_of_the_command(tiny: tuple[Path, Path]) -> None:
    """Same seed, same games: the API run and ``uno-stats run`` store equal rows."""
    from typer.testing import CliRunner

    from uno_stats.cli import app

    root, path = tiny
    api = uno.simulate(path, out=root / "api", games=300, seed=9, workers=1).frame()
    out = root / "cli"
    done = CliRunner().invoke(
        app, ["run", str(path), "--games", "300", "--seed", "9", "--out", str(out), "--quiet"]
    )
    assert done.exit_code == 0, done.output
    assert api.drop("run").equals(uno.open_results(out / "tiny").frame().drop("run"))


def test_summarise_and_compare_of_folders(tiny: tuple[Path, Path]) -> None:
    root, path = tiny
    a = uno.simulate(path, out=root / "a", workers=1)
    b = uno.simulate(path, out=root / "b", workers=1)
    answers = uno.summarise(a, root / "b" / "tiny")
    assert set(answers["run"]) == {"tiny"} and answers.height > 20
    mean = answers.filter(question="round_length", metric="mean_turns")
    assert mean.height == 2 and mean["estimate"].n_unique() == 1  # the same seed: same games
    effect = uno.compare(a, b)
    assert set(effect["status"]) <= {"identical", "absent"}  # nothing differs game by game


TWO_AXES = """\
name: two-axes
players: 3
games: 200
seed: 4
sweep:
  rules.jump_in: [false, true]
  rules.stack_draw_two: [false, true]
"""


def test_effects_are_the_rows_of_the_command(tmp_path: Path) -> None:
    """A 2 x 2 sweep: the API's frame holds the rows of ``uno-stats effects --format json``,
    value for value, for the default metrics and for a metric and margin asked for."""
    import json

    from typer.testing import CliRunner

    from uno_stats.cli import app

    path = tmp_path / "two-axes.yaml"
    path.write_text(TWO_AXES)
    sweep = uno.simulate(path, out=tmp_path, workers=1)
    assert len(sweep.runs) == 4
    folder = tmp_path / "two-axes"
    for options, kwargs in (
        ([], {}),
        (["-m", "mean_turns", "--margin", "5%", "--no-interactions"],
         {"metrics": ["mean_turns"], "margin": "5%", "interactions": False}),
    ):  # fmt: skip
        done = CliRunner().invoke(app, ["effects", str(folder), "--format", "json", *options])
        assert done.exit_code == 0, done.output
        rows = json.loads(done.stdout)["effects"]
        frame = uno.effects(sweep, **kwargs)
        assert frame.to_dicts() == rows
        assert uno.effects(folder, **kwargs).equals(frame)
    terms = set(frame["term"])
    assert terms == {"rules.jump_in", "rules.stack_draw_two"} and set(frame["margin"]) != {None}
    both = uno.effects(sweep, folder, metrics=["mean_turns"])
    assert both.height == 6 and both["sweep"].to_list() == ["two-axes"] * 6
    assert both.columns[:8] == ["sweep", "metric", "term", "estimate", "low", "high", "p", "p_holm"]


def test_effects_refuse_what_is_not_a_sweep(tiny: tuple[Path, Path], tmp_path: Path) -> None:
    root, path = tiny
    single = uno.simulate(path, out=root / "single", workers=1)
    with pytest.raises(UnoStatsError, match="not a sweep point"):
        uno.effects(single)
    with pytest.raises(UnoStatsError, match="not a distribution"):
        uno.effects(single, metrics=["dist_turns"])
    with pytest.raises(UnoStatsError, match="needs a sweep"):
        uno.effects()


def test_errors_are_the_librarys_one_line_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\nplayers: 99\n")
    with pytest.raises(UnoStatsError, match="players"):
        uno.load_scenario(bad)
    with pytest.raises(UnoStatsError, match="no such results folder"):
        uno.open_results(tmp_path / "missing")


def test_import_uno_stats_loads_nothing_heavy() -> None:
    probe = (
        "import uno_stats, sys\n"
        "print(*[m for m in ('numpy', 'polars', 'numba', 'pyarrow', 'scipy', 'yaml') "
        "if m in sys.modules])"
    )
    env = dict(os.environ)
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True, env=env
    )
    assert done.stdout.strip() == ""
