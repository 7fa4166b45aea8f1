"""Small real runs of shipped scenarios (the engine plays them), shared by the tests of what
a person reads: Markdown tables and terminal widths. Played once per test session."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from uno_stats.cli import app

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "scenarios"
PLAYED = {
    # name: (scenario file, games)
    "mattel-2022-4p": ("mattel-2022-4p.yaml", 600),
    "stacking-off": ("stacking-off.yaml", 600),
    "stacking-all": ("stacking-all.yaml", 600),
    "seven-zero": ("seven-zero.yaml", 300),
    "tournament": ("tournament.yaml", 60),
}


def engine_runs(base: Path) -> dict[str, Path]:
    """Results folders of :data:`PLAYED` under ``base/engine-runs`` (played on first use),
    with the ``run`` command's standard output of each as ``NAME.txt`` beside them."""
    out = base / "engine-runs"
    folders = {name: out / name for name in PLAYED}
    if (out / "done").exists():
        return folders
    cli = CliRunner()
    for name, (scenario, games) in PLAYED.items():
        args = ["run", str(SCENARIOS / scenario), "--games", str(games), "--out", str(out)]
        result = cli.invoke(app, [*args, "--workers", "1", "--quiet", "--fresh"])
        assert result.exit_code == 0, result.output
        (out / f"{name}.txt").write_text(result.stdout)
    (out / "done").write_text("")
    return folders
