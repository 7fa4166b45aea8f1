"""The benchmark: tables by preset and strategy, the report generator and its C yardstick."""

from __future__ import annotations

import shutil

import pytest
from typer.testing import CliRunner

from uno_stats.cli import app
from uno_stats.errors import UnoStatsError
from uno_stats.present.bench_report import bench_document, write_bench_report
from uno_stats.present.document import render_markdown
from uno_stats.run.bench import (
    BenchResult,
    bench_scenario_text,
    benchmark,
    load_bench_scenario,
    results_table,
)
from uno_stats.run.bench_suite import (
    Row,
    Suite,
    machine_info,
    measure_costs,
    measure_yardstick,
    run_suite,
)

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
    measure_yardstick(suite, tmp_path, source, engine_rate=lambda: 100_000.0)
    c_loop, ratio, copies = suite.yardstick
    assert c_loop.value == 400_000.0
    assert ratio.value == pytest.approx(100_000.0 / 400_000.0)
    # two copies at once (the fake suite's top worker count), each printing 400,000/s
    assert copies.value == pytest.approx(2.0) and "800,000 rounds/s" in copies.note


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_yardstick_ratio_is_the_median_of_paired_turns(tmp_path):
    """With repeats, each turn times the C loop and then the engine; the ratio reported is
    the median of the turns' ratios (the engine's timings here: 100k, 300k and 200k/s)."""
    source = tmp_path / "uno_c.c"
    source.write_text(
        '#include <stdio.h>\nint main(void) { printf("c P=4 N=10 games/s=400000.0 '
        'mean_turns=47.0 se=0.1 capped=0 secs=0.1\\n"); return 0; }\n'
    )
    suite = fake_suite()
    suite.repeat = 3
    engine_rates = iter([100_000.0, 300_000.0, 200_000.0])
    measure_yardstick(suite, tmp_path, source, engine_rate=lambda: next(engine_rates))
    c_loop, ratio, copies = suite.yardstick
    assert ratio.value == pytest.approx(0.5) and "median of 3 ratios" in ratio.note
    assert c_loop.note == "median of 3" and "median of 3 ratios" in copies.note
    assert next(engine_rates, None) is None  # the engine was timed once per turn


def test_bench_alternates_worker_counts(monkeypatch):
    """Each turn times every worker count once; each count keeps its median timing."""
    from uno_stats.run import bench

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
    measure_yardstick(suite, tmp_path, tmp_path / "missing" / "uno_c.c")
    assert suite.yardstick == [] and "does not exist" in suite.skipped[0]


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
