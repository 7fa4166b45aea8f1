"""The Answers section: first in every output, and every kind of claim checked against the
numbers it is derived from."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from helpers import run_manifest, synthetic_rows, write_run, write_sweep

from uno_stats.analysis.estimates import Estimate
from uno_stats.analysis.questions import answer_run, sweep_groups
from uno_stats.analysis.tournament import (
    SpreadDifference,
    TournamentRow,
    TournamentTable,
    tournaments,
)
from uno_stats.present import answers as ans
from uno_stats.present import report
from uno_stats.present.measures import MEASURES, shown
from uno_stats.store.runs import open_runs

NUMBER = r"[+-]?[0-9][0-9,]*\.?[0-9]*"


def numbers(text: str) -> list[float]:
    """Every number in ``text`` but the level of "95% CI", in order (no thousands commas)."""
    return [float(x.replace(",", "")) for x in re.findall(NUMBER, text.replace("95% CI", ""))]


def first_heading(md: str) -> str:
    return re.findall(r"^## (.+)$", md, flags=re.M)[0]


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> dict[str, list[Path]]:
    root = tmp_path_factory.mktemp("answers")
    tour = root / "tour"
    names = ["random", "basic", "aggressive", "hoarder"]
    for r in range(2):
        seats = [{"strategy": names[(s + r) % 4]} for s in range(3)]
        meta = run_manifest(
            "tour", 400, 3, 10, seats=seats, sweep_label=f"rotation-{r}",
            sweep_assignment={"rotation": r}, tournament=names,
        )  # fmt: skip
        frame = synthetic_rows(400, 3, 10 + r, win_probs=[0.5, 0.3, 0.2])
        write_run(tour, f"rotation-{r}", manifest=meta, frame=frame)
    return {
        "base": [write_run(root, "base", games=1500, seed=3, mean_turns=35)],
        "longer": [write_run(root, "longer", games=1500, seed=3, mean_turns=45)],
        "void": [write_run(root, "void", games=1500, seed=4, void_p=0.1)],
        "sweep": [write_sweep(root, "by-players", {"players": [2, 3, 4]}, games=400)],
        "tour": [tour / "rotation-0", tour / "rotation-1"],
    }


def runs_of(folders: dict[str, list[Path]], *keys: str) -> list:
    return [run for k in keys for folder in folders[k] for run in open_runs(folder)]


# --- Answers first, everywhere -------------------------------------------------------------


@pytest.mark.parametrize(
    "keys", [("base",), ("base", "longer"), ("sweep",), ("tour",), ("base", "void", "sweep")]
)
def test_every_report_opens_with_answers(folders, tmp_path, keys) -> None:
    out = tmp_path / "report"
    report.write_report(runs_of(folders, *keys), out)
    md = (out / "report.md").read_text()
    assert first_heading(md) == "Answers"
    body = md.split("## Answers", 1)[1].split("\n## ", 1)[0]
    assert "95% CI" in body and len(body.strip().split("\n\n")) >= 1
    page = (out / "report.html").read_text()
    assert re.findall(r"<h2 [^>]*>([^<]+)</h2>", page)[0] == "Answers"


def test_summaries_and_compare_open_with_answers(folders) -> None:
    runs = runs_of(folders, "base", "longer")
    for fmt in ("table", "md"):
        text = report.summary_text(runs, fmt)
        assert text.lstrip().startswith(("Answers\n", "## Answers\n")), fmt
        compared = report.compare_text(runs, fmt)
        assert compared.lstrip().startswith(("Answers\n", "## Answers\n")), fmt
    assert report.run_summary_text(runs[0]).startswith("Answers\n")
    compared = report.compare_text(runs)
    answers_part = " ".join(compared.split("Runs\n", 1)[0].split())
    assert "longer makes 4-player rounds" in answers_part and "mean turns" in answers_part


def test_compare_answers_follow_the_metrics_asked(folders) -> None:
    runs = runs_of(folders, "base", "longer")
    text = report.compare_text(runs, metrics=["p90_turns"])
    answers_part = text.split("Runs\n", 1)[0]
    assert "p90 turns" in answers_part and "mean turns" not in answers_part


def test_report_contents_link_every_section(folders, tmp_path) -> None:
    out = tmp_path / "report"
    report.write_report(runs_of(folders, "base", "longer"), out)
    md = (out / "report.md").read_text()
    contents = next(line for line in md.splitlines() if line.startswith("Contents: "))
    links = re.findall(r"\[([^\]]+)\]\(#([^)]+)\)", contents)
    assert [t for t, _ in links] == re.findall(r"^## (.+)$", md, flags=re.M)
    page = (out / "report.html").read_text()
    ids = set(re.findall(r'<h[1-6] id="([^"]+)"', page))
    assert {a for _, a in links} <= ids
    assert ("Answers", "answers") in links and (
        "Round length (turns)",
        "round-length-turns",
    ) in links


def test_a_description_appears_once(folders, tmp_path) -> None:
    out = tmp_path / "report"
    report.write_report(runs_of(folders, "sweep"), out)
    md = (out / "report.md").read_text()
    assert md.count("A synthetic test run") == 1
    assert "Description: A synthetic test run" in md
    # the comeback and deficit tables of three runs explain themselves once, not per table
    assert md.count("at some point held k or more cards") == 1
    assert md.count("cards more than the smallest hand after turn t") == 1


# --- each kind of claim against its numbers ------------------------------------------------


def test_length_and_first_mover_sentences_quote_the_numbers(folders) -> None:
    a = answer_run(runs_of(folders, "base")[0])
    length = ans.length_answer(a.run.name, a.length)
    m = a.length
    assert numbers(length)[:5] == pytest.approx(
        [round(m.mean.value, 2), round(m.mean.low, 2), round(m.mean.high, 2),
         round(m.median.value, 1), m.n]
    )  # fmt: skip
    f = a.first_mover
    assert f is not None
    text = ans.first_mover_answer(a.run.name, f)
    assert text is not None
    got = numbers(text.split(": ", 1)[1])
    want = [100 * f.first.value, 100 * f.first.low, 100 * f.first.high, f.n_won, 100 * f.fair]
    assert got[:5] == pytest.approx([round(x, 1) for x in want])
    assert ans.first_mover_verdict(f.edge, f.edge_p) in text


@pytest.mark.parametrize(
    ("edge", "p", "words"),
    [
        (Estimate(0.02, 0.01, 0.03, 100), 0.001, "moving first helps"),
        (Estimate(-0.02, -0.03, -0.01, 100), 0.001, "moving first hurts"),
        (Estimate(0.01, -0.01, 0.03, 100), 0.4, "no detectable first-mover edge"),
        (Estimate(0.02, 0.001, 0.04, 100), 0.06, "borderline"),
        (Estimate(0.02, -0.001, 0.04, 100), 0.04, "borderline"),
    ],
)
def test_first_mover_verdict_follows_test_and_interval(edge, p, words) -> None:
    assert words in ans.first_mover_verdict(edge, p)


def test_comeback_claim_follows_the_gap_interval(folders) -> None:
    a = answer_run(runs_of(folders, "base")[0])
    c = a.comeback
    assert c is not None
    text = ans.comeback_answer(a.run.name, c)
    assert text is not None
    i = c.ks.index(3)
    gap = c.gap[i]
    tail = numbers(text.rsplit("gap", 1)[1])
    assert tail == pytest.approx([round(100 * x, 2) for x in (gap.value, gap.low, gap.high)])
    expected = {1: "raises", -1: "lowers", 0: "no detectable difference"}[ans.side(gap)]
    assert expected in text
    assert ans.comeback_verdict(Estimate(-0.1, -0.2, -0.05, 9)).endswith("lowers the win chance")
    assert ans.comeback_verdict(Estimate(0.1, 0.05, 0.2, 9)).endswith("raises the win chance")
    assert ans.comeback_verdict(Estimate(0.1, -0.05, 0.2, 9)) == "no detectable difference"


def test_rounds_without_a_winner_are_counted(folders) -> None:
    a = answer_run(runs_of(folders, "void")[0])
    text = ans.outcome_answer(a.run.name, a.status)
    assert text is not None
    missing = a.status.n - a.status.counts[0]
    assert numbers(text.split(": ", 1)[1])[:2] == [missing, a.status.n]
    assert f"{a.status.counts[1]:,} void" in text
    plain = answer_run(runs_of(folders, "base")[0])
    if plain.status.counts[0] == plain.status.n:
        assert ans.outcome_answer("base", plain.status) is None


def _table(shares: dict[str, tuple[float, float, float]]) -> TournamentTable:
    rows = tuple(
        TournamentRow(k, 1000, int(1000 * v), Estimate(v, lo, hi, 500), Estimate(1, 0, 2, 500))
        for k, (v, lo, hi) in shares.items()
    )
    return TournamentTable("t", 4, 5, 4000, 0.25, rows, (), 1, np.arange(500), {})


def test_tournament_strongest_only_when_its_interval_lies_above_all_others() -> None:
    clear = _table({"basic": (0.30, 0.29, 0.31), "a": (0.25, 0.24, 0.26), "b": (0.2, 0.19, 0.21)})
    text = ans.tournament_answer(clear)
    assert "basic is strongest: it wins 30.0% (95% CI 29.0 to 31.0%)" in text
    assert "b is weakest" in text
    close = _table({"basic": (0.30, 0.28, 0.32), "a": (0.29, 0.27, 0.31), "b": (0.2, 0.19, 0.21)})
    text = ans.tournament_answer(close)
    assert "no single strongest strategy: basic has the highest" in text
    assert "overlaps a's" in text and "b is weakest" in text
    three = _table({"x": (0.3, 0.28, 0.32), "y": (0.29, 0.27, 0.31), "z": (0.295, 0.27, 0.31)})
    assert "overlaps z's and y's" in ans.tournament_answer(three)
    assert "strongest" in ans.tournament_answer(
        _table({"x": (0.6, 0.55, 0.65), "y": (0.4, 0.35, 0.45)})
    )


def test_skill_differences_need_holm_and_interval() -> None:
    d = SpreadDifference("a", "b", Estimate(0.02, 0.01, 0.03, 9), 3.0, 0.001, 0.002, True)
    assert ans.difference_answer([d]).startswith("Between rule sets: a rewards skill more than b")
    flipped = SpreadDifference("a", "b", Estimate(-0.02, -0.03, -0.01, 9), -3.0, 0.001, 0.002, True)
    assert "b rewards skill more than a" in ans.difference_answer([flipped])
    weak = SpreadDifference("a", "b", Estimate(0.02, 0.01, 0.03, 9), 3.0, 0.01, 0.08, True)
    assert ans.difference_answer([weak]).startswith("No two tournaments")


def test_sweep_sentences_name_the_lowest_and_highest_point(folders) -> None:
    runs = runs_of(folders, "sweep")
    by_path = {str(r.path): answer_run(r) for r in runs}
    (g,) = sweep_groups(runs)
    mean = MEASURES[0]
    text = ans.sweep_answer(g, mean, by_path)
    assert text is not None
    values = {
        r.manifest.sweep_assignment["players"]: by_path[str(r.path)].length.mean for r in runs
    }
    low = min(values, key=lambda k: values[k].value)
    high = max(values, key=lambda k: values[k].value)
    assert f"{shown(mean, values[low])} at players={low}" in text
    assert f"{shown(mean, values[high])} at players={high}" in text
    differs = values[high].low > values[low].high
    assert ("it differs across the sweep" in text) == differs
    assert ans.sweep_verdict(Estimate(1, 0.9, 1.1, 9), Estimate(2, 1.9, 2.1, 9)).startswith(
        "it differs"
    )
    assert "overlap" in ans.sweep_verdict(Estimate(1, 0.9, 1.5, 9), Estimate(1.3, 1.2, 1.4, 9))


def test_an_edge_across_a_sweep_is_placed_against_zero(folders) -> None:
    runs = runs_of(folders, "sweep")
    by_path = {str(r.path): answer_run(r) for r in runs}
    (g,) = sweep_groups(runs)
    edge = next(m for m in MEASURES if m.key == "first_mover_edge")
    text = ans.sweep_answer(g, edge, by_path)
    assert text is not None
    for r in runs:
        e = by_path[str(r.path)].first_mover.edge
        where = {1: "lies above zero at", -1: "lies below zero at", 0: "holds zero at"}
        part = text.split(where[ans.side(e)], 1)[1].split(";", 1)[0]
        assert f"players={r.manifest.sweep_assignment['players']}" in part


def test_a_tournament_report_answers_per_tournament(folders, tmp_path) -> None:
    runs = runs_of(folders, "tour")
    found = tournaments(runs)
    out = tmp_path / "report"
    report.write_report(runs, out)
    md = (out / "report.md").read_text()
    body = md.split("## Answers", 1)[1].split("\n## ", 1)[0]
    assert ans.tournament_answer(found.tables[0]) in body
    assert "rotation-0" not in body  # the seatings are answered as one tournament


def test_a_report_of_a_few_runs_answers_with_the_comparison_verdict(folders, tmp_path) -> None:
    out = tmp_path / "report"
    report.write_report(runs_of(folders, "base", "longer"), out)
    md = (out / "report.md").read_text()
    body = md.split("## Answers", 1)[1].split("\n## ", 1)[0]
    paragraphs = [p for p in body.strip().split("\n\n")]
    assert paragraphs[0].startswith("longer makes 4-player rounds")  # the verdict comes first
    assert sum("a round lasts" in p for p in paragraphs) == 2  # then each run, briefly
    assert not any("cards behind the smallest hand" in p for p in paragraphs)


def test_comparison_answers_pass_the_verdict_checker(folders) -> None:
    from uno_stats.analysis.compare import compare_runs
    from uno_stats.present.verdicts import check_verdict

    runs = runs_of(folders, "base", "longer")
    results, _ = compare_runs(runs)
    lines = ans.comparison_answers(results)
    assert {r.comparison.metric for r in results} & set(ans.ANSWER_METRICS)
    assert lines and all(check_verdict(line) is None for line in lines)
    text = " ".join(report.compare_text(runs).split("Runs\n", 1)[0].split())
    assert all(line in text for line in lines)


def test_the_confounding_caveat_is_said_once_per_section(folders) -> None:
    text = report.summary_text(runs_of(folders, "tour"), "md")
    for section in ("## First mover", "## Seat advantage"):
        body = text.split(section, 1)[1].split("\n## ", 1)[0]
        assert body.count("seat and strategy are confounded") == 1
        assert body.count("seat and strategy confounded") == 1 + 2  # the note, then each table


def test_a_sweep_of_one_point_is_answered_run_by_run(tmp_path) -> None:
    folder = write_sweep(tmp_path, "single", {"players": [3]}, games=300)
    runs = open_runs(folder)
    answers = [answer_run(r) for r in runs]
    sentences = ans.answer_sentences(answers, sweep_groups(runs))
    assert sentences and sentences[0].startswith(f"{runs[0].name}: a round lasts")


def test_every_measure_holds_its_estimate_inside_its_interval(folders) -> None:
    for key in ("base", "void", "sweep"):
        for a in (answer_run(r) for r in runs_of(folders, key)):
            for m in MEASURES:
                e = m.value(a)
                if e is not None:
                    assert e.low <= e.value <= e.high, (key, m.key, e)  # errorbar needs it
    everything_won = answer_run(runs_of(folders, "base")[0])
    if everything_won.status.counts[0] == everything_won.status.n:
        out = next(m for m in MEASURES if m.key == "not_out_rate").value(everything_won)
        assert out is not None and out.value == out.low == 0.0


def test_a_small_sweep_quotes_the_paired_verdict_instead_of_the_range(folders) -> None:
    from uno_stats.analysis.compare import compare_runs

    runs = runs_of(folders, "sweep")
    answers = [answer_run(r) for r in runs]
    results, _ = compare_runs(runs)
    sentences = ans.answer_sentences(answers, sweep_groups(runs), None, results)
    assert not any(s.startswith("Sweep by-players: mean round length") for s in sentences)
    assert any("in mean turns" in s for s in sentences)  # the paired verdict
    assert any(s.startswith("Sweep by-players: the interval of the first mover") for s in sentences)
    alone = ans.answer_sentences(answers, sweep_groups(runs))
    assert any(s.startswith("Sweep by-players: mean round length") for s in alone)


def test_the_skill_sentence_follows_the_range_test() -> None:
    from uno_stats.analysis.tournament import SkillSpread

    def spread(p: float) -> SkillSpread:
        gap = Estimate(0.05, 0.03, 0.07, 900)
        return SkillSpread("t", "mattel-2022", "basic", "random", gap, p, np.arange(3), np.zeros(3))

    assert "the range test rejects equal strengths, p = 0.001" in ans.spread_answer(spread(0.001))
    assert "does not reject equal strengths, p = 0.2" in ans.spread_answer(spread(0.2))


def test_a_brief_sweep_answer_keeps_length_and_the_first_mover(folders) -> None:
    runs = runs_of(folders, "sweep")
    answers = [answer_run(r) for r in runs]
    brief = ans.answer_sentences(answers, sweep_groups(runs), brief=True)
    full = ans.answer_sentences(answers, sweep_groups(runs))
    assert len(brief) == 2
    assert "mean round length" in brief[0] and "first mover's edge" in brief[1]
    assert len(full) > len(brief) and set(brief) <= set(full)


# --- No Mercy: how often the mercy rule ends a round -----------------------------------------


def test_a_no_mercy_sweep_answers_how_often_the_mercy_rule_ended_a_round(tmp_path) -> None:
    """The sweep's mercy answer quotes, for the No Mercy point, the share of rounds won by
    the last player standing as counted from its rows (Wilson interval), and names the
    classic point as one where no one was knocked out; a report opens with it."""
    import polars as pl

    from uno_stats.analysis.estimates import proportion
    from uno_stats.run.runner import run_scenario
    from uno_stats.scenario.load import parse_scenario

    text = (
        "name: nm\nplayers: 6\ngames: 400\nseed: 3\nrules: {preset: mattel-2022}\n"
        "sweep: {rules.preset: [mattel-2022, no-mercy]}\n"
    )
    run_scenario(parse_scenario(text, "nm.yaml"), tmp_path, workers=1, progress=False)
    runs = open_runs(tmp_path / "nm")
    by_path = {str(r.path): answer_run(r) for r in runs}
    (group,) = sweep_groups(runs)
    line = ans.sweep_mercy_answer(group, by_path)
    assert line is not None
    mercy_run = next(r for r in runs if r.manifest.sweep_assignment["rules.preset"] == "no-mercy")
    rows = mercy_run.scan().select(pl.col("last_standing").cast(pl.Int64)).collect()
    ended = int((rows["last_standing"] > 0).sum())
    assert 0 < ended < rows.height  # 6 random players: the mercy rule ends some rounds
    e = proportion(ended, rows.height)
    assert numbers(line)[:4] == pytest.approx(
        [round(100 * e.value, 1), round(100 * e.low, 1), round(100 * e.high, 1), rows.height]
    )
    assert line.endswith("it knocked no one out at rules.preset=mattel-2022.")
    out = tmp_path / "report"
    report.write_report(runs, out)
    body = (out / "report.md").read_text().split("## Answers", 1)[1].split("\n## ", 1)[0]
    assert body.strip().split("\n\n")[0] == line  # the report's first answer
