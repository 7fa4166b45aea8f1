"""The Effects section of a report of a sweep: its place, its tables and its pictures, and
that every picture draws the effects rows (tornado bars, interaction cells, level points)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from uno_stats.analysis.effects import ranked
from uno_stats.cli import app
from uno_stats.present import effects_plots as ep
from uno_stats.present.document import Document
from uno_stats.present.effects_sections import effects_section, ranking_rows, report_effects
from uno_stats.store.verify import verified_runs

FULL = """\
name: small
players: 4
games: 200
seed: 5
rules:
  preset: classic-house
sweep:
  players: [2, 3, 4]
  rules.jump_in: [false, true]
  rules.draw: [one, until-playable]
"""
FRACTION = """\
name: frac
players: 4
games: 200
seed: 5
rules:
  preset: classic-house
sweep:
  rules.jump_in: [false, true]
  rules.draw: [one, until-playable]
  rules.seven_zero: [false, true]
  rules.no_action_finish: [false, true]
  rules.reshuffle: [true, false]
design: {type: fractional, resolution: 3}
"""


def _run(tmp: Path, name: str, text: str) -> Path:
    path = tmp / f"{name}.yaml"
    path.write_text(text)
    args = ["run", str(path), "--out", str(tmp / "results"), "--workers", "1", "--quiet"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return tmp / "results" / name


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("effects-report")
    return {"full": _run(tmp, "small", FULL), "frac": _run(tmp, "frac", FRACTION)}


@pytest.fixture(scope="module")
def full_report(folders, tmp_path_factory) -> tuple[Path, str]:
    from uno_stats.present.report import write_report

    out = tmp_path_factory.mktemp("report") / "small"
    write_report(verified_runs(folders["full"]), out)
    return out, (out / "report.md").read_text()


def test_the_report_of_a_sweep_opens_with_its_effects_and_their_pictures(full_report):
    out, md = full_report
    assert md.index("## Effects: small") < md.index("## Runs")
    for name in (
        "effects_small_tornado_mean-turns.png",
        "effects_small_tornado_first-mover-edge.png",
        "effects_small_interactions_mean-turns.png",
        "effects_small_levels_players.png",
    ):
        assert (out / name).stat().st_size > 10_000
        assert f"]({name})" in md
    assert "Answers: " in md
    assert "deal groups" in md  # the pairing sentence: players change the deal
    assert "### Effects on mean turns" in md
    assert "confounded with" not in md  # a full factorial has no aliases


def test_a_report_of_plain_runs_has_no_effects_section(tmp_path):
    doc = Document()
    plain = FULL.split("sweep:")[0].replace("name: small", "name: plain")
    runs = verified_runs(_run(tmp_path, "plain", plain))
    assert report_effects(runs) == []
    effects_section(doc, report_effects(runs), tmp_path, lambda p: p)
    assert doc.blocks == []


def test_tornado_bars_are_the_main_effects_in_size_order(folders):
    (result,) = report_effects(verified_runs(folders["full"]))
    for metric in ("mean_turns", "first_mover_edge"):
        main = ranked([e for e in result.effects if e.metric == metric and e.term.order == 1])
        bars = ep.tornado_bars(result, metric)
        assert [b.term for b in bars] == [e.term.name for e in main]
        scale = 100 if metric == "first_mover_edge" else 1
        assert [b.estimate for b in bars] == pytest.approx([scale * e.estimate for e in main])
        assert [b.low for b in bars] == pytest.approx([scale * e.low for e in main])
        sizes = [abs(b.estimate) for b in bars if b.tested]
        assert sizes == sorted(sizes, reverse=True)
        # the figure draws them top to bottom: bar widths in the same order
        ax = ep.tornado_figure(result, metric).axes[0]
        drawn = sorted(ax.patches, key=lambda p: -p.get_y())
        assert [p.get_width() for p in drawn] == pytest.approx([b.estimate for b in bars])
        labels = [t.get_text() for t in ax.get_yticklabels()]  # ticks set top first
        assert labels == [b.subject for b in bars]


def test_margin_band_is_drawn_when_a_margin_is_given(folders):
    from dataclasses import replace

    (result,) = report_effects(verified_runs(folders["full"]))
    with_margin = replace(result, effects=[replace(e, bound=0.5) for e in result.effects])
    ax = ep.tornado_figure(with_margin, "mean_turns").axes[0]
    assert any("margin +-0.5 turns" in t.get_text() for t in ax.get_legend().get_texts())
    ax = ep.tornado_figure(result, "mean_turns").axes[0]
    assert not any("margin" in t.get_text() for t in ax.get_legend().get_texts())


def test_interaction_cells_give_back_the_interaction(folders):
    (result,) = report_effects(verified_runs(folders["full"]))
    cells = ep.interaction_cells(result, "mean_turns")
    assert cells and len(cells) <= ep.INTERACTIONS_SHOWN
    sizes = [abs(c.effect.estimate) for c in cells]
    assert sizes == sorted(sizes, reverse=True)
    for c in cells:
        (m00, m01), (m10, m11) = c.means
        # half the difference of A's effect at B's two values (docs/METHODS.md "Effects")
        assert ((m11 - m01) - (m10 - m00)) / 2 == pytest.approx(c.effect.estimate, abs=1e-9)


def test_level_points_are_the_level_effects_along_the_axis(folders):
    (result,) = report_effects(verified_runs(folders["full"]))
    assert ep.many_level_axes(result) == ["players"]
    points = ep.level_points(result, "players", "mean_turns")
    assert [p.value for p in points] == [2, 3, 4]
    assert points[0].estimate == points[0].low == points[0].high == 0
    rows = {e.term.name: e for e in result.effects if e.metric == "mean_turns"}
    for p in points[1:]:
        e = rows[f"players={p.value}"]
        assert (p.estimate, p.low, p.high) == pytest.approx((e.estimate, e.low, e.high))
    line = ep.levels_figure(result, "players", ["mean_turns"]).axes[0].lines[0]
    assert list(line.get_xdata()) == [2, 3, 4]  # a numeric axis: numeric x, one line
    assert line.get_linestyle() == "-"


def test_a_categorical_many_level_axis_is_drawn_as_categories_without_a_line(folders):
    from dataclasses import replace

    (result,) = report_effects(verified_runs(folders["full"]))
    renamed = {"players": ("two", "three", "four")}
    sweep = replace(result.sweep, axes={**result.sweep.axes, **renamed})
    fig = ep.levels_figure(replace(result, sweep=sweep), "players", ["mean_turns"])
    ax = fig.axes[0]
    line = ax.lines[0]
    assert line.get_linestyle() == "None"
    assert list(line.get_xdata()) == [0, 1, 2]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["two", "three", "four"]


def test_ranking_rows_rank_every_main_effect_on_each_metric(folders):
    (result,) = report_effects(verified_runs(folders["full"]))
    rows = ranking_rows(result)
    main = ranked([e for e in result.effects if e.metric == "mean_turns" and e.term.order == 1])
    assert len(rows) == len(main) == 4  # jump_in, draw, players=3, players=4
    assert rows[0][1].endswith("#1")
    assert len(rows[0]) == 5  # the term and four metrics


def test_a_fractional_sweeps_effects_name_the_aliases(folders, tmp_path):
    from uno_stats.present.report import write_report

    runs = verified_runs(folders["frac"])
    write_report(runs, tmp_path)
    md = (tmp_path / "report.md").read_text()
    assert "fractional factorial of resolution 3" in md
    assert "| term " in md and "confounded with" in md
    # a resolution III design: each main effect is aliased with two-factor interactions
    (result,) = report_effects(runs)
    main = [e for e in result.effects if e.metric == "mean_turns" and e.term.order == 1]
    assert main and all(e.aliases for e in main)
    for e in main:
        assert "aliased with " + ", ".join(e.aliases) in md
    assert (tmp_path / "effects_frac_tornado_mean-turns.png").exists()
    assert np.isfinite([e.estimate for e in main]).all()


def test_cell_means_of_a_rate_are_in_percent_and_the_edge_in_points():
    assert ep.level_unit("comeback3_rate") == "%"
    assert ep.unit_label("comeback3_rate") == "pp"  # its effects are differences
    assert ep.level_unit("first_mover_edge") == "pp"
    assert ep.level_unit("mean_turns") == "turns"
