"""The benchmark: tables by preset and strategy, the report generator and its C yardstick."""

from __future__ import annotations

import shutil

import pytest
from typer.testing import CliRunner

from uno_stats.bench.suite import (
    Row,
    Suite,
    build_yardstick,
    machine_info,
    measure_costs,
    measure_end_to_end,
    measure_summary,
    measure_throughput,
    measure_yardstick,
    median_interval,
    run_suite,
    yardstick_loop,
)
from uno_stats.bench.throughput import (
    BenchResult,
    bench_scenario_text,
    benchmark,
    load_bench_scenario,
    median_result,
    results_table,
    speed_up,
)
from uno_stats.cli import app
from uno_stats.errors import UnoStatsError
from uno_stats.present.bench_report import bench_document, write_bench_report
from uno_stats.present.document import render_markdown

cli = CliRunner()


def test_bench_table_by_preset_and_strategy():
    scenario = load_bench_scenario(None, "classic-house", "aggressive")
    assert scenario.players == 4
    assert scenario.preset == "classic-house"
    assert {seat["strategy"] for seat in scenario.seats} == {"aggressive"}
    assert "classic-house" in bench_scenario_text("classic-house")


def test_bench_table_rejects_file_and_preset(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(bench_scenario_text())
    with pytest.raises(UnoStatsError, match="not both"):
        load_bench_scenario(path, preset="mattel-2022")


def test_bench_repeats_and_counts_every_round():
    (result,) = benchmark(load_bench_scenario(None), 600, [1], repeat=3)
    assert (result.workers, result.games, result.rounds, result.repeats) == (1, 600, 600, 3)
    assert result.seconds > 0
    assert "1.00x" in results_table([result])


def test_bench_cli_strategy_and_bad_preset():
    ok = cli.invoke(app, ["bench", "-n", "500", "-w", "1", "--strategy", "basic"])
    assert ok.exit_code == 0, ok.output
    assert "rounds/s" in ok.stdout
    bad = cli.invoke(app, ["bench", "-n", "500", "-w", "1", "--preset", "nope"])
    assert bad.exit_code == 1
    assert bad.output.startswith("Error:") and "nope" in bad.output


def fake_suite() -> Suite:
    suite = Suite(1000, 1, machine_info())
    suite.throughput = [
        Row("mattel-2022, random", 150_000.0, "rounds/s", "uno-stats bench --preset mattel-2022"),
        Row("mattel-2022, basic", 120_000.0, "rounds/s", "uno-stats bench --strategy basic"),
    ]
    suite.scaling = [
        BenchResult(1, 1000, 1000, 0.01, 0.1, 250),
        BenchResult(2, 1000, 1000, 0.006, 0.1, 125),
    ]
    suite.scaling_command = "uno-stats bench --workers 2"
    suite.end_to_end = [Row("1 worker", 0.8, "of the engine", "uno-stats run x")]
    suite.run_rates = {1: 80_000.0}
    suite.costs = [Row("play a round", 4.5, "us CPU", "measure_costs")]
    suite.memory = [
        Row("run of 10,000 rounds", 300.0, "MiB", "a"),
        Row("run of 100 rounds", 200.0, "MiB", "b"),
    ]
    suite.skipped = ["C yardstick: /nowhere/uno_c.c does not exist"]
    return suite


def test_bench_document_names_machine_commands_and_ratios(tmp_path):
    text = render_markdown(bench_document(fake_suite(), "uno-stats bench --report", None))
    for needle in (
        "| cpu ",
        "| python ",
        "| numba ",
        "`uno-stats bench --strategy basic`",
        "1.67x",  # 2 workers: 0.01 s / 0.006 s
        "0.80 of the engine",
        "4.50 us CPU",
        "150,000 rounds/s",
        "1.50x the memory",
        "/nowhere/uno_c.c does not exist",
    ):
        assert needle in text, needle
    paths = write_bench_report(fake_suite(), tmp_path / "r" / "bench.md", "uno-stats bench")
    assert [p.name for p in paths] == ["bench.md", "bench.png", "bench.json"]
    assert paths[1].read_bytes().startswith(b"\x89PNG")
    assert "![" in paths[0].read_text() and "bench.png" in paths[0].read_text()


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_yardstick_compiled_run_and_parsed(tmp_path):
    """A stand-in C program that prints the yardstick's line: compiled, run, ratio taken."""
    source = tmp_path / "uno_c.c"
    source.write_text(
        '#include <stdio.h>\nint main(void) { printf("c P=4 N=10 games/s=400000.0 '
        'mean_turns=47.0 se=0.1 capped=0 secs=0.1\\n"); return 0; }\n'
    )
    suite = fake_suite()
    timed: list[int] = []
    binary = build_yardstick(suite, tmp_path, source)
    assert binary is not None
    measure_yardstick(
        suite, binary, source, engine_rate=lambda n: timed.append(n) or 100_000.0, pairs=1
    )
    c_loop, ratio, copies = suite.yardstick
    assert c_loop.value == 400_000.0
    assert ratio.value == pytest.approx(100_000.0 / 400_000.0) and ratio.interval is None
    assert timed == [1000]  # the engine plays as many rounds as the C loop: the suite's games
    # two copies at once (the fake suite's top worker count), each printing 400,000/s
    assert copies.value == pytest.approx(2.0) and "800,000 rounds/s" in copies.note


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_yardstick_ratio_is_the_median_of_paired_turns(tmp_path):
    """Each turn times the C loop and then the engine; the ratio reported is the median of
    the turns' ratios, with the order-statistics interval of that median (15 turns: the 4th
    smallest to the 4th largest ratio)."""
    source = tmp_path / "uno_c.c"
    source.write_text(
        '#include <stdio.h>\nint main(void) { printf("c P=4 N=10 games/s=400000.0 '
        'mean_turns=47.0 se=0.1 capped=0 secs=0.1\\n"); return 0; }\n'
    )
    suite = fake_suite()
    # the engine's timings, 10k to 150k rounds/s in a scrambled order: ratios 0.025 .. 0.375
    engine_rates = iter(float(10_000 * ((7 * k) % 15 + 1)) for k in range(15))
    binary = build_yardstick(suite, tmp_path, source)
    assert binary is not None
    measure_yardstick(suite, binary, source, engine_rate=lambda n: next(engine_rates))
    c_loop, ratio, copies = suite.yardstick
    assert ratio.value == pytest.approx(80_000 / 400_000) and "median of 15 ratios" in ratio.note
    assert ratio.interval == pytest.approx((40_000 / 400_000, 120_000 / 400_000))
    assert "fastest engine timing / fastest C timing 0.38" in ratio.note
    assert c_loop.note.startswith("median of 15 timings") and "median of 15 ratios" in copies.note
    assert next(engine_rates, None) is None  # the engine was timed once per turn
    shown = render_markdown(bench_document(suite, "uno-stats bench --report", None))
    assert "0.20 ratio (95%: 0.10-0.30)" in shown


@pytest.mark.parametrize(
    ("n", "ranks"), [(5, None), (6, (1, 6)), (9, (2, 8)), (15, (4, 12)), (30, (10, 21))]
)
def test_median_interval_order_statistics(n, ranks):
    """The k-th smallest to the k-th largest value, k from the Binomial(n, 1/2) tail
    (published table values: n = 9: 2nd and 8th; 15: 4th and 12th; 30: 10th and 21st)."""
    values = [float(v) for v in range(n, 0, -1)]  # n .. 1: ranks are the values themselves
    interval = median_interval(values)
    assert interval == (None if ranks is None else tuple(float(r) for r in ranks))


def test_median_interval_covers_the_median():
    """Coverage of the median of a skewed law, measured over 4,000 samples of 15: at least
    95% (exactly 96.5% by the binomial tail); the tolerance is 3 standard errors."""
    import numpy as np

    rng = np.random.default_rng(11)
    true_median = np.log(2.0)  # of an exponential law of rate 1
    samples = rng.exponential(size=(4000, 15))
    covered = [lo <= true_median <= hi for lo, hi in map(median_interval, samples.tolist())]
    expected = 1 - 2 * 0.017578125  # 1 - 2 P(Binomial(15, 1/2) <= 3)
    se = (expected * (1 - expected) / len(covered)) ** 0.5
    assert abs(np.mean(covered) - expected) < 3 * se


def test_bench_alternates_worker_counts(monkeypatch):
    """Each turn times every worker count once; each count keeps its median timing."""
    from uno_stats.bench import throughput as bench

    order: list[int] = []
    seconds = iter([3.0, 2.0, 1.0, 1.5, 2.0, 1.2])

    def fake_measure(config, games, workers, chunk_size, repeat=1, scheduler=None):
        order.append(workers)
        return BenchResult(workers, games, games, next(seconds), 0.0, chunk_size)

    monkeypatch.setattr(bench, "measure", fake_measure)
    one, two = benchmark(load_bench_scenario(None), 600, [1, 2], repeat=3)
    assert order == [1, 2, 1, 2, 1, 2]
    assert (one.seconds, one.repeats) == (2.0, 3)  # of 3.0, 1.0, 2.0
    assert (two.seconds, two.repeats) == (1.5, 3)  # of 2.0, 1.5, 1.2


def test_costs_of_play_and_write(tmp_path):
    """Per-round CPU of playing and of writing a part, and the ceiling they imply."""
    suite = fake_suite()
    suite.games, suite.costs = 400, []
    measure_costs(suite, tmp_path)
    play, write, ceiling = suite.costs
    assert play.value > 0 and write.value > 0
    assert ceiling.value == pytest.approx(play.value / (play.value + write.value))
    assert not (tmp_path / "costs").exists()  # its parts are removed


def test_yardstick_skipped_without_source(tmp_path):
    suite = fake_suite()
    suite.skipped = []
    assert build_yardstick(suite, tmp_path, tmp_path / "missing" / "uno_c.c") is None
    assert "does not exist" in suite.skipped[0]


def test_yardstick_timed_only_when_given(tmp_path, monkeypatch):
    """Without --yardstick PATH no C loop is looked for (a checkout has none); with one it is
    built from that path."""
    import uno_stats.bench.suite as bench_suite

    built: list[object] = []
    monkeypatch.setattr(bench_suite, "build_yardstick", lambda *args: built.append(args[2]))
    suite = fake_suite()
    suite.skipped = []
    assert yardstick_loop(suite, tmp_path, None) is None
    assert built == [] and suite.skipped == [
        "C yardstick: not timed (bench --report --yardstick PATH times one)"
    ]
    yardstick_loop(suite, tmp_path, tmp_path / "uno_c.c")
    assert built == [tmp_path / "uno_c.c"]


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_throughput_rows_paired_with_the_c_loop(tmp_path):
    """Each case's timing follows a C timing; the row notes the median of those ratios (a
    stand-in C loop that always does 400,000 rounds/s: the ratio is the case's rate / 400k)."""
    source = tmp_path / "uno_c.c"
    source.write_text(
        '#include <stdio.h>\nint main(void) { printf("c P=4 N=10 games/s=400000.0 '
        'mean_turns=47.0 se=0.1 capped=0 secs=0.1\\n"); return 0; }\n'
    )
    suite = fake_suite()
    suite.games, suite.repeat, suite.throughput = 300, 1, []
    binary = build_yardstick(suite, tmp_path, source)
    measure_throughput(suite, ["mattel-2001"], ["random", "basic"], binary)
    assert [row.what for row in suite.throughput] == ["mattel-2001, random", "mattel-2022, basic"]
    for row in suite.throughput:
        share = float(row.note.split(" of the C loop")[0])
        assert share == pytest.approx(row.value / 400_000, abs=0.005), row.note
        assert "median of 1 ratios" in row.note
    measure_throughput(suite, ["mattel-2001"], [], None)  # no C loop: no ratio
    assert suite.throughput[-1].note == ""


@pytest.mark.slow
def test_report_end_to_end_tiny(tmp_path):
    """A tiny whole report: every section measured by real commands (no cold compile)."""
    suite = run_suite(300, workers=2, cold=False, yardstick=tmp_path / "none.c")
    assert len(suite.throughput) >= 8
    assert [r.workers for r in suite.scaling] == [1, 2]
    assert len(suite.end_to_end) == 2 and all(r.value > 0 for r in suite.end_to_end)
    assert len(suite.costs) == 3
    assert [r.what for r in suite.starts][:2] == ["--help", "validate"]
    assert len(suite.memory) == 2
    assert len(suite.sweeps) == 2 and all(r.value > 0 for r in suite.sweeps)
    assert [r.unit for r in suite.sweep_plans] == ["MiB peak traced", "KiB"] * 3


def test_end_to_end_is_the_median_of_paired_ratios(monkeypatch, tmp_path):
    """Each whole run is set against the engine timing made just before it: the row keeps the
    median of those ratios, not the ratio of two medians taken minutes apart."""
    import uno_stats.bench.suite as suite_module

    engine_s = iter([1.0, 0.5, 2.0, 1.0, 1.0, 0.5])  # a machine that slows down, then recovers
    run_s = iter([1.25, 1.0, 2.2, 1.25, 1.6, 0.8])
    calls: list[list[str]] = []

    def fake_benchmark(scenario, games, workers_list):
        (workers,) = workers_list
        return [BenchResult(workers, games, games, next(engine_s), 0.1, 250)]

    def fake_run(args, env=None):
        calls.append(args)
        return next(run_s), 1.0

    monkeypatch.setattr(suite_module, "benchmark", fake_benchmark)
    monkeypatch.setattr(suite_module, "_timed_cpu", fake_run)
    suite = Suite(1000, 3, machine_info())
    suite.scaling = [
        BenchResult(1, 1000, 1000, 9.0, 0.1, 250),
        BenchResult(2, 1000, 1000, 9.0, 0.1, 250),
    ]
    measure_end_to_end(suite, tmp_path)
    one, two = suite.end_to_end
    assert one.value == pytest.approx(0.8)  # 1/1.25, 2/2.2, 1/1.6 (medians: 1/1.6 = 0.625)
    assert two.value == pytest.approx(0.625)  # 0.5/1, 1/1.25, 0.5/0.8 (medians: 0.5/1 = 0.5)
    assert "median of 3 paired ratios (0.62-0.91)" in one.note
    assert suite.run_rates == {1: pytest.approx(1000 / 1.6), 2: pytest.approx(1000 / 1.0)}
    assert [a[a.index("--workers") + 1] for a in calls] == ["1", "2"] * 3


def test_speed_up_is_the_median_of_the_ratios_of_one_turn():
    """Timings taken in turn are paired: a machine that slows down during the second turn
    slows both worker counts alike, and the speed-up stays 2x; two medians taken apart would
    give 1x here."""
    one = median_result([BenchResult(1, 100, 100, t, 0.0, 25) for t in (1.0, 2.0, 1.0)])
    two = median_result([BenchResult(2, 100, 100, t, 0.0, 25) for t in (0.5, 1.0, 1.25)])
    assert one.timings == (1.0, 2.0, 1.0) and one.repeats == 3 and one.seconds == 1.0
    assert two.rounds_per_s / one.rounds_per_s == pytest.approx(1.0)
    assert speed_up(two, one) == pytest.approx(2.0)  # 1/0.5, 2/1, 1/1.25
    assert speed_up(one, one) == 1.0 and speed_up(two, None) is None
    lone = BenchResult(2, 100, 100, 0.4, 0.0, 25)  # no timings of its turns (a Dask cluster)
    assert speed_up(lone, one) == pytest.approx(2.5)  # the ratio of the rates
    assert "2.00x" in results_table([one, two])


def test_summary_memory_rows_and_the_synthetic_time(tmp_path):
    """A summary's peak memory at games and 10x games, the 100x time, and their section."""
    suite = Suite(300, 1, {})
    measure_summary(suite, tmp_path)
    rows = suite.summary_memory
    assert [r.what for r in rows] == [
        "summary of 300 rounds",
        "summary of 3,000 rounds",
        "summary of 30,000 rounds (synthetic)",
    ]
    assert [r.unit for r in rows] == ["MiB peak", "MiB peak", "s"]
    assert all(r.value > 0 for r in rows)
    assert "uno-stats summary OUT/mattel-2022-4p --format json" in rows[0].command
    assert not (tmp_path / "summary").exists()
    text = render_markdown(bench_document(suite, "uno-stats bench --report", None))
    assert "Summary memory and time" in text and "the memory." in text


def test_search_is_timed_on_a_five_thousandth_of_the_games_and_at_least_a_hundred() -> None:
    from uno_stats.bench.suite import _games_for

    assert _games_for("search", 1_000_000) == 200
    assert _games_for("search", 20_000) == 100
    assert _games_for("basic", 200_000) == 200_000
