"""settle end to end on real scenarios (small), and its input errors."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner, Result

from uno_stats.analysis.compare import compare_runs
from uno_stats.analysis.metrics import parse_margin
from uno_stats.cli import app
from uno_stats.debates.settle import settle
from uno_stats.debates.settle_folder import recut
from uno_stats.errors import RunError
from uno_stats.run.runner import run_scenario
from uno_stats.scenario.load import load_scenario, with_overrides
from uno_stats.store.runs import open_runs
from uno_stats.store.verify import verified_runs

BASE = """\
name: {name}
players: 4
games: 100
seed: {seed}
rules:
  preset: classic-house
{extra}"""


def scenario(tmp_path: Path, name: str, seed: int = 3, extra: str = "") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(BASE.format(name=name, seed=seed, extra=extra))
    return path


def test_settle_runs_paired_batches_and_keeps_the_runs(tmp_path: Path) -> None:
    a = load_scenario(scenario(tmp_path, "off"))
    b = load_scenario(scenario(tmp_path, "on", seed=99, extra="  stack_draw_two: true\n"))
    out = tmp_path / "res"
    r = settle(
        a, b, "mean_turns", max_games=3000, batch=1000, out_dir=out, workers=1, progress=False
    )
    # seeded: these exact values (stacking shortens rounds; decided at the second look)
    assert (r.outcome, r.games, r.record.looks, r.changed_games) == ("different", 2000, 2, 983)
    assert (r.mean_a, r.mean_b) == (pytest.approx(49.609), pytest.approx(48.0045))
    assert r.estimate == pytest.approx(-1.6045)
    assert (r.low, r.high) == (pytest.approx(-3.166344047), pytest.approx(-0.042655953))
    assert "on's seed 99 is replaced by off's seed 3" in r.record.seed_note
    runs = open_runs(out / "off") + open_runs(out / "on")
    assert runs[1].manifest.seed == 3  # b plays a's deals
    assert sum(len(x.scan().collect()) for x in runs) == 2 * r.games
    results, _ = compare_runs(runs, ["mean_turns"])
    c = results[0].comparison
    assert c.paired and c.difference.value == pytest.approx(r.estimate)
    # the same rules: never different, and a wide margin settles "same"; another max games
    # and batch reuse the games on disk (off's 2,000 games are re-cut, not replayed)
    same = load_scenario(scenario(tmp_path, "off-again"))
    r2 = settle(
        a,
        same,
        max_games=2000,
        batch=500,
        out_dir=out,
        workers=1,
        progress=False,
        margin=parse_margin("50%"),
    )
    assert r2.outcome == "undecided" and r2.changed_games == 0 and r2.games == 2000
    assert r2.a.manifest.run_id == runs[0].manifest.run_id
    again = settle(a, same, max_games=2000, batch=1000, out_dir=out, workers=1, progress=False)
    assert (again.games, again.estimate, again.changed_games) == (2000, 0.0, 0)
    assert again.record.seed_note == ""


def test_settle_decides_a_quantile(tmp_path: Path) -> None:
    """median_turns: the time-uniform mid-quantile band. The same rules settle "same" within
    a wide margin; a rule change gives the estimate compare reports for the same games."""
    a = load_scenario(scenario(tmp_path, "q-off"))
    twin = load_scenario(scenario(tmp_path, "q-twin"))
    out = tmp_path / "res"
    r = settle(
        a, twin, "median_turns", parse_margin("50%"), 2000, 1000, out_dir=out, workers=1,
        progress=False,
    )  # fmt: skip
    assert (r.outcome, r.games, r.estimate) == ("same", 1000, 0.0)
    assert r.mean_a == r.mean_b == pytest.approx(42.613636364)
    assert (r.low, r.high) == (pytest.approx(-8.553394627), pytest.approx(8.553394627))
    b = load_scenario(scenario(tmp_path, "q-on", extra="  stack_draw_two: true\n"))
    r = settle(a, b, "p90_turns", None, 2000, 1000, out_dir=out, workers=1, progress=False)
    assert (r.outcome, r.games, r.changed_games) == ("undecided", 2000, 983)
    assert (r.mean_a, r.mean_b, r.estimate) == pytest.approx((83 + 2 / 3, 78.5, -5 - 1 / 6))
    assert (r.low, r.high) == (pytest.approx(-34.999054134), pytest.approx(24.994595049))
    runs = open_runs(out / "q-off") + open_runs(out / "q-on")
    c = compare_runs(runs, ["p90_turns"])[0][0].comparison
    assert c.paired and c.difference.value == pytest.approx(r.estimate)
    assert r.high - r.low > c.difference.high - c.difference.low  # anytime-valid: wider


def test_settle_cli_prints_one_verdict_line(tmp_path: Path) -> None:
    a = scenario(tmp_path, "cli-off")
    b = scenario(tmp_path, "cli-on", extra="  stack_draw_two: true\n")
    args = [
        "settle",
        str(a),
        str(b),
        "--max-games",
        "2000",
        "--batch",
        "1000",
        "--margin",
        "30%",
        "--workers",
        "1",
        "--quiet",
        "--out",
        str(tmp_path / "res"),
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1 and "paired games in" in lines[0] and "confidence sequence" in lines[0]
    assert "cli-on vs cli-off: " in lines[0]


def test_settle_rejects_what_it_cannot_decide(tmp_path: Path) -> None:
    a = load_scenario(scenario(tmp_path, "x"))
    with pytest.raises(RunError, match="two names"):
        settle(a, a, out_dir=tmp_path)
    with pytest.raises(RunError, match="settle decides mean_COL"):
        settle(a, load_scenario(scenario(tmp_path, "y")), "dist_turns", out_dir=tmp_path)
    result = CliRunner().invoke(
        app,
        ["settle", str(scenario(tmp_path, "z")), str(scenario(tmp_path, "w")), "--margin", "abc"],
    )
    assert result.exit_code == 1 and "margin" in result.stderr


def cli(*args: str) -> Result:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result


def test_a_settled_pair_is_complete_for_summary_compare_and_report(tmp_path: Path) -> None:
    """Stopping early is settle's success: its runs are complete runs of the games played,
    read without flags, and every view opens with the settled answer, the fixed-sample
    tables labelled secondary."""
    a = scenario(tmp_path, "sa")
    b = scenario(tmp_path, "sb", extra="  stack_draw_two: true\n")
    out = tmp_path / "res"
    common = ["--workers", "1", "--quiet", "--out", str(out)]
    done = cli("settle", str(a), str(b), "--max-games", "3000", "--batch", "1000", *common)
    line = done.stdout.strip()
    assert line.startswith("sb vs sa: different: sb makes rounds shorter than sa in mean turns")
    assert "(48.0 vs 49.6 turns: -1.604 turns, 95% confidence sequence" in line
    assert "2,000 paired games in" in line and "decided at look 2 of at most 3" in line
    folders = [str(out / "sa"), str(out / "sb")]
    for run in open_runs(out / "sa") + open_runs(out / "sb"):
        assert run.complete and run.manifest.games == 2000
    verdict = line.split(" in ")[0]  # the time differs when re-rendered
    for args in (["summary", *folders], ["compare", *folders, "--format", "md"]):
        shown = cli(*args)
        assert "incomplete" not in shown.output and "Settled" in shown.stdout
        assert verdict in shown.stdout and "decided at look 2" in shown.stdout
    compared = cli("compare", *folders).stdout
    assert "Rule effect (fixed-sample intervals, secondary to the settled answer)" in compared
    assert compared.index("Settled") < compared.index("Rule effect")
    data = json.loads(cli("compare", *folders, "--format", "json").stdout)
    assert [(r["metric"], r["outcome"], r["games"]) for r in data["settled"]] == [
        ("mean_turns", "different", 2000)
    ]
    csv = cli("summary", *folders, "--format", "csv").stdout
    assert "sb vs sa,,settled,mean_turns:B-A,-1.6044999" in csv
    alone = cli("summary", folders[0]).stdout  # one run: the settles it took part in
    assert "Settled" in alone and verdict in alone
    other = scenario(tmp_path, "sc")
    cli("run", str(other), "--games", "2000", "--workers", "1", "--quiet", "--out", str(out))
    unrelated = cli("compare", folders[0], str(out / "sc")).stdout  # not a settled pair
    assert "Settled" not in unrelated and "secondary" not in unrelated
    cli("report", *folders, "--out", str(tmp_path / "rep"))
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "## Settled" in md and verdict in md and "incomplete" not in md
    # another --max-games and --batch resume the games on disk
    again = cli("settle", str(a), str(b), "--max-games", "4000", "--batch", "500", *common)
    assert again.stdout.startswith("sb vs sa: ") and "Error" not in again.output


def test_recut_keeps_the_games_it_can(tmp_path: Path) -> None:
    """Re-cutting 2,000 games in chunks of 1,000 into chunks of 300 keeps games 0-1,799,
    row for row (the last 200 do not fill a chunk and are played again), under a manifest
    the runner resumes; a folder of other games is left alone."""
    a = load_scenario(scenario(tmp_path, "cut"))
    out = tmp_path / "res"
    sealed = with_overrides(a, games=2000)
    run_scenario(sealed, out_dir=out, workers=1, progress=False, chunk_size=1000)
    before = open_runs(out / "cut")[0].scan().collect().sort("game")
    assert recut(out / "cut", with_overrides(a, games=3000), 300) == 1800
    runs = verified_runs(out / "cut")
    assert not runs[0].complete and sorted(runs[0].check.good) == list(range(6))
    after = runs[0].scan().collect().sort("game")
    assert after.equals(before.filter(pl.col("game") < 1800))
    assert recut(out / "cut", with_overrides(a, games=3000), 300) is None  # already so
    other = load_scenario(scenario(tmp_path, "cut", seed=4))
    assert recut(out / "cut", with_overrides(other, games=3000), 300) is None
    done = run_scenario(
        with_overrides(a, games=3000), out_dir=out, workers=1, progress=False, chunk_size=300
    )
    assert done.resumed_chunks == 6 and done.runs[0].complete


def test_settle_says_when_it_replaces_b_seed_and_takes_seed(tmp_path: Path) -> None:
    a = scenario(tmp_path, "seed-a", seed=3)
    b = scenario(tmp_path, "seed-b", seed=99)
    out = tmp_path / "res"
    common = ["--max-games", "1000", "--workers", "1", "--quiet", "--out", str(out)]
    told = cli("settle", str(a), str(b), *common)
    assert "Note: seed-b's seed 99 is replaced by seed-a's seed 3" in told.stderr
    chosen = cli("settle", str(a), str(b), *common, "--seed", "7", "--fresh")
    assert "replaced" not in chosen.stderr
    assert {r.manifest.seed for r in open_runs(out / "seed-a") + open_runs(out / "seed-b")} == {7}
    compared = cli("compare", str(a), str(b), "--games", "500", "--seed", "7", "--workers", "1",
                   "--quiet", "--out", str(tmp_path / "cmp"), "-m", "mean_turns")  # fmt: skip
    assert "paired (same seed" in compared.stdout


@pytest.mark.parametrize(
    ("metric", "value_a", "value_b", "estimate"),
    [
        ("seat0_win_rate", 0.2655, 0.2655, 0.0),
        ("first_mover_win_rate", 0.281, 0.268, -0.013),
        ("first_mover_edge", 0.031, 0.018, -0.013),
        ("comeback3_rate", 0.158524590, 0.150943396, -0.007581194),
    ],
)
def test_settle_decides_shares_as_compare_estimates_them(
    tmp_path: Path, metric: str, value_a: float, value_b: float, estimate: float
) -> None:
    """Seat, first-mover and comeback shares: the settled estimate is compare's paired
    difference of the same games (every round of classic-house is won), seeded values."""
    a = load_scenario(scenario(tmp_path, "m-off"))
    b = load_scenario(scenario(tmp_path, "m-on", extra="  stack_draw_two: true\n"))
    out = tmp_path / "res"
    r = settle(a, b, metric, None, 2000, 1000, out_dir=out, workers=1, progress=False)
    assert (r.outcome, r.games) == ("undecided", 2000)
    assert (r.mean_a, r.mean_b, r.estimate) == pytest.approx((value_a, value_b, estimate))
    assert r.low < r.estimate < r.high
    runs = open_runs(out / "m-off") + open_runs(out / "m-on")
    c = compare_runs(runs, [metric])[0][0].comparison
    assert c.paired and c.difference.value == pytest.approx(r.estimate)
    assert (c.baseline.value, c.other.value) == pytest.approx((value_a, value_b))


def test_settle_first_mover_edge_across_player_counts(tmp_path: Path) -> None:
    """3 against 4 players: each edge is the first mover's share minus its own 1/players."""
    a = load_scenario(scenario(tmp_path, "e-four"))
    three = tmp_path / "e-three.yaml"
    three.write_text(
        BASE.format(name="e-three", seed=3, extra="").replace("players: 4", "players: 3")
    )
    r = settle(a, load_scenario(three), "first_mover_edge", None, 2000, 1000,
               out_dir=tmp_path / "res", workers=1, progress=False)  # fmt: skip
    assert (r.mean_a, r.mean_b) == pytest.approx((0.281 - 1 / 4, 0.3555 - 1 / 3))
    assert r.estimate == pytest.approx(r.mean_b - r.mean_a)
    assert (r.low, r.high) == (pytest.approx(-0.052761823), pytest.approx(0.035095156))
