"""The bench report: ``reports/bench.md`` with ``bench.png`` and ``bench.json`` beside it."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from uno_stats.bench.suite import Row, Suite
from uno_stats.bench.throughput import base_result, shown_speed_up, speed_up
from uno_stats.present.document import Document, render_markdown


def _value(row: Row) -> str:
    """Large figures (rounds/s, MiB) whole, small ones (seconds, ratios) to two decimals;
    with its 95% interval where it has one."""
    digits = 0 if abs(row.value) >= 100 else 2
    shown = f"{row.value:,.{digits}f} {row.unit}"
    if row.interval is not None:
        low, high = row.interval
        shown += f" (95%: {low:,.{digits}f}-{high:,.{digits}f})"
    return shown


def _rows(rows: list[Row]) -> list[list[str]]:
    return [[r.what, _value(r), f"`{r.command}`", r.note] for r in rows]


def bench_document(suite: Suite, command: str, image: Path | None) -> Document:
    """The report's blocks: every figure with the command that measured it."""
    doc = Document()
    doc.heading("uno-stats benchmark", 1)
    doc.para(
        f"Written by `{command}` in {suite.seconds:,.0f} s. Engine figures are timed after the "
        "engine was compiled (or loaded from its cache) and every worker had played a warm-up "
        f"chunk; each is the median of {suite.repeat} timing(s) of {suite.games:,} rounds. "
        "A shared or busy machine moves every figure by 15% or more: compare ratios taken in "
        "the same run."
    )
    doc.heading("Machine")
    doc.table(["", "value"], [[k, v] for k, v in suite.machine.items()])
    headers = ["what", "value", "command", "note"]
    doc.heading("Engine speed by preset and strategy (1 worker)")
    doc.table(headers, _rows(suite.throughput))
    if image is not None:
        doc.image(image, "Rounds per second by preset and strategy, scaling and end to end")
    doc.heading("Scaling over workers (4 players, mattel-2022, random)")
    base = base_result(suite.scaling)
    doc.table(
        ["workers", "where", "rounds/s", "speed-up over 1 worker", "chunk", "timings"],
        [
            [
                r.workers,
                r.where,
                f"{r.rounds_per_s:,.0f}",
                shown_speed_up(speed_up(r, base)),
                f"{r.chunk_size:,}",
                r.repeats,
            ]
            for r in suite.scaling
        ],
    )
    doc.para(
        f"Command: `{suite.scaling_command}`. The worker counts take turns, one timing each "
        "per turn; rounds/s is each count's median timing, and a speed-up the median of the "
        "ratios of the two timings of each turn (the machine's drift between turns cancels)."
    )
    doc.heading("End to end against the engine")
    doc.para(
        "A whole `uno-stats run` (process start, Parquet parts, manifest and the printed "
        "summary included) as a share of the engine's rounds/s at the same worker count."
    )
    doc.table(headers, _rows(suite.end_to_end))
    if suite.costs:
        doc.para(
            "Where a run's CPU goes, per round. With one worker the Parquet part of one chunk "
            "is written on the second core while the next chunk plays; when every core plays, "
            "writing takes its share of them, which bounds a whole run below the engine."
        )
        doc.table(headers, _rows(suite.costs))
    doc.heading("Start-up")
    doc.table(headers, _rows(suite.starts))
    doc.heading("Peak memory")
    doc.table(headers, _rows(suite.memory))
    if len(suite.memory) == 2 and suite.memory[1].value > 0:
        big, small = suite.memory
        doc.para(f"{big.what} against {small.what}: {big.value / small.value:.2f}x the memory.")
    if suite.summary_memory:
        doc.heading("Summary memory and time")
        doc.para(
            "`summary` reduces slices of rows to counts, exact sums and histograms, so its "
            "memory does not grow with the rounds it reads."
        )
        doc.table(headers, _rows(suite.summary_memory))
        small, big = suite.summary_memory[:2]
        if small.value > 0:
            doc.para(f"{big.what} against {small.what}: {big.value / small.value:.2f}x the memory.")
    if suite.sweeps or suite.sweep_plans:
        doc.heading("Sweeps")
        doc.para(
            "A sweep is one run of every point's games (issue 22: within 1.3x of one run of "
            "the same games). Its points differ only in a turn cap that never binds, so they "
            "play games as long as the single run's; each pair of timings runs both, the "
            "order alternating, and the median of the ratios is kept."
        )
        doc.table(headers, _rows(suite.sweeps))
        doc.para(
            "A sweep's plan and manifest do not grow with its points: the manifest records "
            "the sweep's scenario, from which each point is built when it is played or read."
        )
        doc.table(headers, _rows(suite.sweep_plans))
    doc.heading("C yardstick")
    if suite.yardstick:
        doc.table(headers, _rows(suite.yardstick))
    if suite.skipped:
        doc.heading("Not measured")
        for reason in suite.skipped:
            doc.para(f"- {reason}")
    return doc


def bench_plot(suite: Suite, path: Path) -> Path:
    """Two panels: rounds/s by preset and strategy; engine vs end to end vs the C loop."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    fig = Figure(figsize=(10.0, 4.5), dpi=120)
    FigureCanvasAgg(fig)
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
    labels = [r.what for r in suite.throughput]
    left.barh(labels[::-1], [r.value for r in suite.throughput][::-1], color="#1f77b4")
    left.set_xlabel("rounds/s, 1 worker")
    left.set_title("Engine by preset and strategy")
    bars: list[tuple[str, float]] = [
        (f"engine, {r.workers}w{'' if r.where == 'local' else ' dask'}", r.rounds_per_s)
        for r in suite.scaling
    ]
    for workers, rate in suite.run_rates.items():
        bars.append((f"run, {workers}w", rate))
    if suite.yardstick:
        bars.append(("C loop, 1 core", suite.yardstick[0].value))
    right.bar([b[0] for b in bars], [b[1] for b in bars], color="#2ca02c")
    right.set_ylabel("rounds/s")
    right.set_title("Engine, whole run and C yardstick")
    right.tick_params(axis="x", labelrotation=30)
    thousands = FuncFormatter(lambda x, _pos: f"{x / 1000:,.0f}k")
    left.xaxis.set_major_formatter(thousands)
    left.xaxis.set_major_locator(MaxNLocator(6))
    right.yaxis.set_major_formatter(thousands)
    for ax in (left, right):
        ax.grid(True, alpha=0.3)
        ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    fig.savefig(path)
    return path


def write_bench_report(suite: Suite, out: Path, command: str) -> list[Path]:
    """Write ``out`` (Markdown), a PNG and a JSON of every figure beside it; the paths."""
    out.parent.mkdir(parents=True, exist_ok=True)
    image = bench_plot(suite, out.with_suffix(".png"))
    out.write_text(render_markdown(bench_document(suite, command, image.relative_to(out.parent))))
    data = asdict(suite) | {"command": command}
    out.with_suffix(".json").write_text(json.dumps(data, indent=2, default=str) + "\n")
    return [out, image, out.with_suffix(".json")]
