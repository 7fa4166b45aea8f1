"""Tournaments: scenario expansion, the pooled strategy and pairwise table, and the CLI end to end."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from helpers import run_manifest, synthetic_rows, write_run
from scipy import stats as st
from typer.testing import CliRunner

from uno_stats.analysis import questions as stats
from uno_stats.cli import app
from uno_stats.errors import ScenarioError
from uno_stats.present.report import summary_text, write_report
from uno_stats.run.results import open_runs
from uno_stats.run.scenario import Scenario, parse_scenario, scenario_from_dict

FIVE = ["random", "basic", "aggressive", "hoarder", "color-denier"]


def parse(text: str) -> Scenario:
    return parse_scenario(textwrap.dedent(text), "x.yaml")


def fails(text: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        parse(text)
    assert info.value.file == "x.yaml"
    assert "\n" not in str(info.value)
    return info.value


# --- scenario -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 7])
def test_every_strategy_sits_in_every_seat_equally_often(players: int) -> None:
    s = parse(
        f"""
        name: t
        players: {players}
        tournament: [{", ".join(FIVE)}]
        """
    )
    points = s.sweep_points()
    assert [p.label for p in points] == [f"rotation-{r}" for r in range(5)]
    assert [p.assignment for p in points] == [{"rotation": r} for r in range(5)]
    for seat in range(players):
        column = [p.scenario.seats[seat]["strategy"] for p in points]
        assert sorted(column) == sorted(FIVE)  # each strategy exactly once in this seat
    assert [seat["strategy"] for seat in points[1].scenario.seats] == [
        FIVE[(s_ + 1) % 5] for s_ in range(players)
    ]


def test_knobs_and_table_are_carried_to_every_rotation() -> None:
    s = parse(
        """
        name: t
        players: 3
        games: 123
        seed: 9
        rules: {preset: classic-house, stack_draw_two: true}
        strategies:
          - {bluff: 0.25, challenge: smart}
        tournament: [basic, random]
        """
    )
    assert s.tournament == ("basic", "random")
    for point in s.sweep_points():
        p = point.scenario
        assert (p.players, p.games, p.seed, p.preset) == (3, 123, 9, "classic-house")
        assert p.rules["stack_draw_two"] is True
        assert p.tournament is None and p.sweep_points() == []
        assert all(seat["bluff"] == 0.25 and seat["challenge"] == "smart" for seat in p.seats)
    first = [seat["strategy"] for seat in s.sweep_points()[0].scenario.seats]
    assert first == ["basic", "random", "basic"]


def test_to_dict_round_trips_the_tournament() -> None:
    s = parse(
        """
        name: t
        players: 4
        strategies: [{mistake: 0.1}]
        tournament: [hoarder, basic, random]
        """
    )
    data = s.to_dict()
    assert data["tournament"] == ["hoarder", "basic", "random"]
    again = scenario_from_dict(json.loads(json.dumps(data)))
    assert again.to_dict() == data
    assert [p.scenario.seats for p in again.sweep_points()] == [
        p.scenario.seats for p in s.sweep_points()
    ]
    assert "tournament" not in s.sweep_points()[0].scenario.to_dict()


@pytest.mark.parametrize(
    ("body", "key", "line", "message"),
    [
        ("tournament: [basic, agressive]", "tournament[1]", 3, "did you mean 'aggressive'"),
        ("tournament: [basic, random, basic]", "tournament[2]", 3, "listed twice"),
        ("tournament: [basic]", "tournament", 3, "2 or more"),
        ("tournament: basic", "tournament", 3, "2 or more"),
        (
            "tournament: [basic, random]\nsweep:\n  players: [2, 3]",
            "sweep",
            4,
            "cannot combine sweep with tournament",
        ),
        (
            "tournament: [basic, random]\nstrategies:\n  - {strategy: basic}\n  - {strategy: random}",
            "strategies",
            4,
            "1 entry",
        ),
    ],
)
def test_tournament_errors(body: str, key: str, line: int, message: str) -> None:
    err = fails(f"name: t\nplayers: 2\n{body}\n")
    assert err.key == key
    assert err.line == line
    assert message in str(err)


# --- stats ----------------------------------------------------------------------------------


def _pair(tmp_path: Path) -> list:
    """Rotations 0 and 1 of [random, basic, aggressive, hoarder] at a 3-player table."""
    names = ["random", "basic", "aggressive", "hoarder"]
    for r in range(2):
        seats = [{"strategy": names[(s + r) % 4]} for s in range(3)]
        meta = run_manifest(
            "tour", 400, 3, 10 + r, seats=seats, sweep_label=f"rotation-{r}",
            sweep_assignment={"rotation": r}, tournament=names,
        )  # fmt: skip
        frame = synthetic_rows(400, 3, 10 + r, win_probs=[0.5, 0.3, 0.2], void_p=0.05)
        write_run(tmp_path, f"rotation-{r}", manifest=meta, frame=frame)
    return [open_runs(tmp_path / f"rotation-{r}")[0] for r in range(2)]


def test_tournament_table_matches_a_hand_count(tmp_path: Path) -> None:
    runs = _pair(tmp_path)
    seats_of = [["random", "basic", "aggressive"], ["basic", "aggressive", "hoarder"]]
    n: dict[str, int] = {}
    wins: dict[tuple[int, str], int] = {}
    scores: dict[str, list[float]] = {}
    for r, run in enumerate(runs):
        frame = run.scan().collect()
        for row in frame.iter_rows(named=True):
            if row["status"] != "won":
                continue
            for seat, name in enumerate(seats_of[r]):
                n[name] = n.get(name, 0) + 1
                won = row["winner"] == seat
                wins[r, name] = wins.get((r, name), 0) + won
                scores.setdefault(name, []).append(float(sum(row["points"])) if won else 0.0)
    table = stats.tournament_table(runs)
    assert [row.label for row in table.rows] == ["random", "basic", "aggressive", "hoarder"]
    assert table.players == 3 and table.rotations == 2 and table.fair == pytest.approx(1 / 3)
    assert table.n_won == sum(wins.values())
    for row in table.rows:
        k = sum(w for (_, name), w in wins.items() if name == row.label)
        assert (row.wins, row.win.n) == (k, n[row.label])
        assert row.win.value == pytest.approx(k / n[row.label])
        wilson = st.binomtest(k, n[row.label]).proportion_ci(method="wilson")  # independent
        assert (row.win.low, row.win.high) == pytest.approx((wilson.low, wilson.high))
        xs = scores[row.label]
        mean = sum(xs) / len(xs)
        assert row.points_scored.value == pytest.approx(mean)
        assert row.points_scored.low < mean < row.points_scored.high
    pairs = {(p.label, p.opponent): p for p in table.pairs}
    assert len(pairs) == 12
    # basic and aggressive meet in both rotations; random and hoarder never meet
    wa = wins[0, "basic"] + wins[1, "basic"]
    wb = wins[0, "aggressive"] + wins[1, "aggressive"]
    ba = pairs["basic", "aggressive"]
    assert (ba.wins, ba.opponent_wins, ba.ahead.n) == (wa, wb, wa + wb)
    assert ba.ahead.value == pytest.approx(wa / (wa + wb))
    assert pairs["aggressive", "basic"].ahead.value == pytest.approx(wb / (wa + wb))
    rb = pairs["random", "basic"]  # only rotation 0 seats both
    assert (rb.wins, rb.opponent_wins) == (wins[0, "random"], wins[0, "basic"])
    assert pairs["random", "hoarder"].ahead.n == 0


def test_tournament_groups_and_summary_section(tmp_path: Path) -> None:
    runs = _pair(tmp_path)
    assert [name for name, _ in stats.tournament_groups(runs)] == ["tour"]
    text = summary_text(runs)
    assert "Tournament\n==========" in text
    assert "strategy vs opponent" in text
    written = write_report(runs, tmp_path / "report")
    assert (tmp_path / "report" / "tournament_win_share_tour.png") in written
    assert "## Tournament" in (tmp_path / "report" / "report.md").read_text()


def test_runs_without_a_tournament_have_no_tournament_section(tmp_path: Path) -> None:
    run = open_runs(write_run(tmp_path, "plain", games=300))
    assert stats.tournament_groups(run) == []
    assert "Tournament" not in summary_text(run)


# --- end to end -----------------------------------------------------------------------------


def test_cli_runs_a_tiny_tournament(tmp_path: Path) -> None:
    scenario = tmp_path / "tiny-tournament.yaml"
    scenario.write_text(
        f"name: tiny-tournament\nplayers: 4\ngames: 300\nseed: 4\ntournament: [{', '.join(FIVE)}]\n"
    )
    out = tmp_path / "out"
    cli = CliRunner()
    result = cli.invoke(app, ["run", str(scenario), "--out", str(out), "--quiet", "--workers", "1"])
    assert result.exit_code == 0, result.output
    root = out / "tiny-tournament"
    manifest = json.loads((root / "manifest.json").read_text())
    assert manifest["tournament"] == FIVE
    assert manifest["points"] == [f"rotation-{r}" for r in range(5)]
    summary = cli.invoke(app, ["summary", str(root)])
    assert summary.exit_code == 0, summary.output
    text = summary.stdout
    assert "Tournament\n==========" in text
    section = text.split("Tournament\n==========")[1]
    for name in FIVE:
        assert f"\n{name} " in section
    assert "5 rotations" in section


def test_skill_spread_matches_newcombes_published_example() -> None:
    """Newcombe (1998, Stat Med 17:873, Table II, example a): 56/70 vs 48/80 gives the
    hybrid score interval 0.0524 to 0.3339 for the difference (method 10)."""

    def row(label: str, k: int, m: int) -> stats.TournamentRow:
        ci = st.binomtest(k, m).proportion_ci(method="wilson")
        est = stats.Estimate(k / m, ci.low, ci.high, m)
        return stats.TournamentRow(label, k, est, est)

    table = stats.TournamentTable(
        "t", 4, 3, 1000, 0.25, (row("a", 56, 70), row("b", 48, 80), row("c", 50, 80)), ()
    )
    spread = stats.skill_spread(table, "mattel-2022")
    assert (spread.best, spread.worst, spread.preset) == ("a", "b", "mattel-2022")
    assert spread.spread.value == pytest.approx(0.2)
    assert spread.spread.low == pytest.approx(0.0524, abs=5e-5)
    assert spread.spread.high == pytest.approx(0.3339, abs=5e-5)
    assert spread.spread.n == 70


def test_report_of_two_tournaments_compares_skill(tmp_path: Path) -> None:
    cli = CliRunner()
    roots = []
    for preset in ("mattel-2022", "draw-until-playable"):
        name = f"tiny-{preset}"
        scenario = tmp_path / f"{name}.yaml"
        scenario.write_text(
            f"name: {name}\nplayers: 3\ngames: 200\nseed: 4\nrules:\n  preset: {preset}\n"
            "tournament: [random, basic, hoarder]\n"
        )
        result = cli.invoke(
            app, ["run", str(scenario), "--out", str(tmp_path / "out"), "--quiet", "-w", "1"]
        )
        assert result.exit_code == 0, result.output
        roots.append(tmp_path / "out" / name)
    runs = [run for root in roots for run in open_runs(root)]
    written = write_report(runs, tmp_path / "report")
    text = (tmp_path / "report" / "report.md").read_text()
    assert "## Skill vs luck" in text
    assert "| tiny-mattel-2022 " in text and "| draw-until-playable " in text
    assert (tmp_path / "report" / "skill_vs_luck.png") in written
    assert "## Rule effect" not in text  # rotations are not rule changes
