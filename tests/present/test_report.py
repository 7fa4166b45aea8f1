"""Reports: terminal tables, machine-readable formats, Markdown/HTML files and PNG plots."""

from __future__ import annotations

import csv
import io
import json
import re
import struct
from pathlib import Path

import pytest
from helpers import run_manifest, write_run, write_sweep

from uno_stats.analysis.metrics import parse_margin
from uno_stats.errors import ResultsError
from uno_stats.present import report
from uno_stats.store.manifest import write_manifest
from uno_stats.store.runs import open_runs

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (which must come first)."""
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE, f"{path.name}: not a PNG"
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13
    return struct.unpack(">II", data[16:24])


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("results")
    manifest = run_manifest(
        "stacking-on",
        2000,
        4,
        9,
        description="Stack Draw Twos",
        rules={"stack_draw_two": True},
        seats=[{}, {}, {}, {"strategy": "random", "bluff": 0.3}],
    )
    return {
        "base": write_run(root, "baseline", games=2000, seed=8, mean_turns=35),
        "stack": write_run(
            root, "stacking-on", games=2000, seed=9, mean_turns=42, manifest=manifest
        ),
        "match": write_run(root, "matches", games=900, seed=10, match=True),
        "three": write_run(root, "three", games=600, players=3, seed=11),
        "sweep1": write_sweep(root, "by-players", {"players": [2, 3, 4]}, games=300),
        "sweep2": write_sweep(
            root, "grid", {"players": [2, 4], "mean_turns": [20, 30]}, games=300, checkpoints=False
        ),
    }


@pytest.fixture(scope="module")
def written(results, tmp_path_factory) -> tuple[Path, list[Path]]:
    out = tmp_path_factory.mktemp("report") / "reports" / "demo"
    runs = open_runs(results["base"]) + open_runs(results["stack"]) + open_runs(results["sweep2"])
    return out, report.write_report(runs, out, title="Demo report")


def test_run_summary_text(results) -> None:
    text = report.run_summary_text(open_runs(results["base"])[0], games_per_s=123456.0)
    assert "2,000" in text and "123,456 games/s" in text
    for word in ("mean", "median", "p90", "95% CI", "Wilson", "fair share", "chi-square"):
        assert word in text
    assert re.search(r"\d+\.\d+ to \d+\.\d+", text), "every estimate has an interval"


def test_summary_table_and_markdown(results) -> None:
    runs = open_runs(results["base"]) + open_runs(results["match"])
    table = report.summary_text(runs)
    for heading in (
        "Round length (turns)",
        "Match length (rounds)",
        "Seat advantage",
        "Comeback probability",
        "Win chance by card deficit",
        "Strategy strength",
    ):
        assert heading in table
    md = report.summary_text(runs[:1], "md")
    assert "## Seat advantage" in md and "|---" in md


def test_summary_json_and_csv(results) -> None:
    runs = open_runs(results["base"]) + open_runs(results["three"])
    data = json.loads(report.summary_text(runs, "json"))
    assert data["runs"][0]["run"] == "baseline"
    questions = {a["question"] for a in data["answers"]}
    assert {
        "round_length",
        "first_mover",
        "seat_advantage",
        "comeback",
        "deficit_at_turn",
        "stacking_chains",
        "reshuffles",
        "strategy_strength",
    } <= questions
    mean = next(
        a for a in data["answers"] if a["run"] == "baseline" and a["metric"] == "mean_turns"
    )
    assert mean["low"] < mean["estimate"] < mean["high"] and mean["n"] == 2000
    seed = runs[0].manifest.seed
    assert (mean["method"], mean["level"], mean["seed"]) == ("Student t interval", 0.95, seed)
    for a in data["answers"]:  # every row says how it was made; an interval has its level
        assert a["method"] and a["seed"] is not None
        assert (a["level"] == 0.95) == (a["low"] is not None)
    rows = list(csv.DictReader(io.StringIO(report.summary_text(runs, "csv"))))
    assert list(rows[0]) == [
        "run", "group", "question", "metric", "estimate", "low", "high", "n", "method", "level",
        "seed",
    ]  # fmt: skip
    assert {r["run"] for r in rows} == {"baseline", "three"}
    float(rows[0]["estimate"])


def test_summary_of_a_sweep_has_one_row_per_point(results) -> None:
    text = report.summary_text(open_runs(results["sweep2"]))
    section = text[text.index("Sweep grid") :]
    assert len(re.findall(r"^[1-4]\s+[24]\s+(20|30)\s+300\s", section, re.MULTILINE)) == 4
    # the short summary of one sweep: its answers (effects first), points and main effects,
    # never a block per point per question (those are in the report, JSON and CSV)
    assert text.startswith("Answers\n=======\n\nEffects in grid: ")
    assert "Main effects: grid" in text
    for per_point in ("Seat advantage", "Comeback probability", "Round length (turns)"):
        assert per_point not in text
    md = report.summary_text(open_runs(results["sweep2"]), "md")
    assert md.startswith("## Answers") and "## Main effects: grid" in md
    # the same table in JSON: every point's values and metrics, tagged with the sweep
    rows = json.loads(report.summary_text(open_runs(results["sweep2"]), "json"))["answers"]
    points = {(r["run"], r["metric"]) for r in rows if r["question"] == "sweep_point"}
    assert len(points) == 8  # 4 points x 2 axes
    assert {r["group"] for r in rows} == {"grid"}
    assert len([r for r in rows if r["metric"] == "mean_turns"]) == 4


def test_compare_text_verdicts(results) -> None:
    runs = open_runs(results["base"]) + open_runs(results["stack"])
    text = report.compare_text(runs)
    assert "Holm p" in text and "Welch t" in text and "Mann-Whitney U" in text
    assert "stacking-on makes 4-player rounds" in text and "longer than baseline" in text
    data = json.loads(report.compare_text(runs, "json"))
    assert data["baseline"] == "baseline" and len(data["comparisons"]) == 8
    assert {c["question"] for c in data["comparisons"]} >= {"round length", "round outcome"}
    rows = list(csv.DictReader(io.StringIO(report.compare_text(runs, "csv"))))
    assert {"difference_low", "ratio_high", "p_holm", "verdict", "method", "level"} <= set(rows[0])
    assert {"seed_baseline", "seed_run", "paired", "holm_family"} <= set(rows[0])


def test_compare_text_with_metrics_and_margin(results) -> None:
    runs = open_runs(results["base"]) + open_runs(results["stack"])
    text = report.compare_text(runs, metrics=["mean_turns"], margin=parse_margin("2%"))
    assert "mean turns" in text and "void rate" not in text
    assert "Equivalence: " in text and "margin +-2%" in text
    rows = json.loads(report.compare_text(runs, "json", ["mean_turns"], parse_margin("2%")))
    # seeded synthetic runs (seeds 8 and 9, mean turns 35 and 42): exact values
    (row,) = rows["comparisons"]
    assert (row["equivalence"], row["margin"], row["games_needed"]) == ("different", "2%", None)
    assert (row["baseline_estimate"], row["run_estimate"]) == (34.468, 42.8745)
    assert row["difference"] == pytest.approx(8.4065, rel=1e-12)
    assert (row["equivalence_low_90"], row["equivalence_high_90"]) == pytest.approx(
        (7.369874061251769, 9.443125938748219), rel=1e-9
    )
    shown = " ".join(text.split())  # the terminal text wraps at 100 columns
    assert "(margin +-2% = +-0.69 turns; 90% CI +7.37 to +9.44; 95% CI outside it)" in shown


def test_compare_text_notes_skipped_seat_metric(results) -> None:
    text = report.compare_text(open_runs(results["base"]) + open_runs(results["three"]))
    assert "seat 0 win rate not compared for three: 3 players against 4" in text


def test_bad_inputs_raise_one_line(results, tmp_path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    write_manifest(empty, run_manifest("empty", 10))
    calls = [
        lambda: open_runs(tmp_path / "missing"),
        lambda: open_runs(empty),
        lambda: report.summary_text(open_runs(results["base"]), "xml"),
        lambda: report.compare_text(open_runs(results["base"])),
        lambda: report.summary_text([]),
    ]
    zero = write_run(tmp_path, "zero-rows", games=5, seed=1)
    frame_path = next((zero / "parts").glob("*.parquet"))
    import polars as pl

    pl.read_parquet(frame_path).head(0).write_parquet(frame_path)
    calls.append(lambda: report.summary_text(open_runs(zero)))
    for call in calls:
        with pytest.raises(ResultsError) as info:
            call()
        assert str(info.value) and "\n" not in str(info.value)


def test_report_files(written) -> None:
    out, paths = written
    assert paths[0] == out / "report.md" and paths[1] == out / "report.html"
    assert all(p.exists() for p in paths)
    pngs = sorted(out.glob("*.png"))
    assert sorted(p for p in paths if p.suffix == ".png") == pngs
    assert {
        "turns_histogram.png",
        "survival.png",
        "seat_win_rates.png",
        "comeback.png",
        "sweep_grid.png",
        "deficit_baseline.png",
    } <= {p.name for p in pngs}
    for png in pngs:
        width, height = png_size(png)
        assert 300 <= width <= 3000 and 300 <= height <= 3000, png.name


def test_markdown_links_every_png(written) -> None:
    out, _ = written
    md = (out / "report.md").read_text()
    linked = re.findall(r"!\[[^\n]*?\]\(([^)\s]+\.png)\)", md)
    assert sorted(linked) == sorted(p.name for p in out.glob("*.png"))
    assert linked and all((out / name).exists() for name in linked)


def test_html_shows_each_png_stored_once_beside_it(written) -> None:
    out, _ = written
    page = (out / "report.html").read_text()
    shown = re.findall(r'<img [^>]*src="([^"]+)"', page)
    assert sorted(shown) == sorted(p.name for p in out.glob("*.png"))
    assert "base64" not in page, "plots are files, not embedded copies"
    assert "<table>" in page and "Demo report" in page


def test_report_states_every_run(written) -> None:
    out, _ = written
    md = (out / "report.md").read_text()
    for text in (
        "stacking-on",
        "Stack Draw Twos",
        "mattel-2022",
        "stack_draw_two=True",
        "0: random; 1: random; 2: random; 3: random (bluff=0.3)",
        "2,000",
        "1.2",
        "| 9 ",
        "0.1.0",
        "## Rule effect",
        "## Methods",
        "Holm",
    ):
        assert text in md, text


def test_one_axis_sweep_plot(results, tmp_path) -> None:
    from uno_stats.analysis.questions import round_length
    from uno_stats.present import plots
    from uno_stats.present.measures import MEASURES

    runs = open_runs(results["sweep1"])
    points = [(r.manifest.sweep_assignment, round_length(r.scan()).mean) for r in runs]
    path = plots.sweep("by-players", ["players"], [(MEASURES[0], points)], tmp_path / "sweep.png")
    assert 300 <= png_size(path)[0] <= 3000


def test_report_meta_reads_the_recorded_scenario(tmp_path) -> None:
    """Preset, changed rules, per-seat knobs and the match target come from the manifest."""
    meta = run_manifest(
        "house",
        400,
        4,
        3,
        preset="classic-house",
        rules={"seven_zero": True},
        seats=[{"strategy": "random", "bluff": 0.1}] + [{}] * 3,
        match_target=500,
    )
    folder = write_run(tmp_path, "house", games=400, seed=3, manifest=meta, match=True)
    data = json.loads(report.summary_text(open_runs(folder), "json"))
    meta_out = data["runs"][0]
    assert meta_out["preset"] == "classic-house"
    assert meta_out["rules_changed"] == {"seven_zero": True}
    assert meta_out["seats"] == "0: random (bluff=0.1); 1: random; 2: random; 3: random"
    assert meta_out["match_target"] == 500
    same = run_manifest("plain", 400, 3, 4)
    assert same.scenario_data["strategies"] == [same.scenario_data["strategies"][0]]
    plain = write_run(tmp_path, "plain", games=400, players=3, seed=4, manifest=same)
    assert json.loads(report.summary_text(open_runs(plain), "json"))["runs"][0]["seats"] == (
        "3 x random"
    )


def test_stacking_chains_and_mixed_seat_caveat(tmp_path) -> None:
    import polars as pl
    from helpers import synthetic_rows

    frame = synthetic_rows(500, 4, 3)
    chains = pl.Series("longest_stack", [1, 2, 3, 0, 2] * 100, dtype=pl.UInt8)
    stacked = write_run(tmp_path, "stacked", frame=frame.with_columns(chains), games=500)
    plain = write_run(tmp_path, "plain", games=500, seed=4)
    text = report.summary_text(open_runs(stacked) + open_runs(plain))
    section = text.split("Inside a round")[1]
    assert "chain of 2+" in section and "\nstacked " in section
    assert "60.00% [" in section and "20.00% [" in section  # 3 of 5 rounds chain 2+, 1 of 5 3+
    assert "(no stacking) in: plain." in section
    assert "confounded" not in text  # every seat plays the same strategy here
    seats = [{}, {}, {}, {"strategy": "random", "bluff": 0.3}]
    manifest = run_manifest("mixed", 500, 4, 5, seats=seats)
    mixed = write_run(tmp_path, "mixed", games=500, seed=5, manifest=manifest)
    assert "seat and strategy are confounded" in report.summary_text(open_runs(mixed))
    assert "seat and strategy are confounded" in report.run_summary_text(open_runs(mixed)[0])


def test_the_deck_is_stated_and_other_decks_deal_other_hands(tmp_path) -> None:
    """RULES.md S19: the deck shows in the run summary, the runs table and the JSON; two runs
    with the same seed but other decks draw on the same random numbers, not the same deal."""
    two = run_manifest("two-decks", 400, 4, 5, deck={"decks": 2, "counts": {"wild": 6}})
    one = write_run(tmp_path, "one-deck", games=400, seed=5)
    both = write_run(tmp_path, "two-decks", games=400, seed=5, manifest=two)
    runs = open_runs(one) + open_runs(both)
    label = "2 x 114 = 228 cards (counts changed: wild 6)"
    assert f"deck {label}, seed 5" in report.run_summary_text(runs[1])
    data = json.loads(report.summary_text(runs, "json"))
    assert [r["deck"] for r in data["runs"]] == ["1 x 112 cards", label]
    assert label in report.summary_text(runs, "md")
    text = " ".join(report.compare_text(runs).split())  # paragraphs wrap at 100 columns
    assert "game k of two-decks draw on the same random numbers" in text
    alike = write_run(tmp_path, "alike", games=400, seed=5)
    same = report.compare_text(open_runs(one) + open_runs(alike))
    assert "start from the same deal" in " ".join(same.split())


def test_report_has_every_section_of_the_summary_in_its_order(results, written) -> None:
    """A section added to the summary (report._summary_document) but not to write_report, or
    in another place, fails here (CONTRIBUTING.md: a report section)."""
    out, _ = written
    runs = [r for key in ("base", "stack", "sweep2") for r in open_runs(results[key])]  # as written
    headings = re.findall(r"^#+ (.+)$", report.summary_text(runs, "md"), flags=re.M)
    in_report = re.findall(r"^#+ (.+)$", (out / "report.md").read_text(), flags=re.M)
    assert len(headings) >= 8
    assert [h for h in in_report if h in headings] == headings
