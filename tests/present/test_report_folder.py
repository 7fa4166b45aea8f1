"""``report --out``: an existing folder is refused without --force; with it, stale files go."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from uno_stats.cli import app
from uno_stats.errors import ResultsError
from uno_stats.present.report import write_report
from uno_stats.present.report_folder import prepare_report_folder
from uno_stats.store.runs import open_runs


def test_new_and_empty_folders_are_used(tmp_path) -> None:
    assert prepare_report_folder(tmp_path / "a" / "b").is_dir()
    (tmp_path / "empty").mkdir()
    assert prepare_report_folder(tmp_path / "empty") == tmp_path / "empty"


def test_an_existing_report_is_refused_without_force(tmp_path) -> None:
    out = tmp_path / "rep"
    out.mkdir()
    (out / "report.md").write_text("old")
    with pytest.raises(ResultsError, match="--force"):
        prepare_report_folder(out)
    assert (out / "report.md").read_text() == "old"


def test_force_clears_the_previous_report(tmp_path) -> None:
    out = tmp_path / "rep"
    out.mkdir()
    for name in ("report.md", "report.html", "deficit_gone.png"):
        (out / name).write_text("old")
    prepare_report_folder(out, force=True)
    assert list(out.iterdir()) == []


def test_force_never_deletes_other_files(tmp_path) -> None:
    out = tmp_path / "rep"
    (out / "sub").mkdir(parents=True)
    (out / "notes.txt").write_text("mine")
    (out / "old.png").write_text("old")
    with pytest.raises(ResultsError, match=r"notes\.txt, sub"):
        prepare_report_folder(out, force=True)
    assert {p.name for p in out.iterdir()} == {"sub", "notes.txt", "old.png"}
    file = tmp_path / "file"
    file.write_text("x")
    with pytest.raises(ResultsError, match="not a folder"):
        prepare_report_folder(file, force=True)


def test_report_command_refuses_then_replaces_with_force(tmp_path) -> None:
    scenario = tmp_path / "small.yaml"
    scenario.write_text(
        "name: small\nplayers: 3\ngames: 300\nseed: 5\nrules:\n  preset: mattel-2022\n"
    )
    cli = CliRunner()
    ran = cli.invoke(app, ["run", str(scenario), "--out", str(tmp_path), "-q", "--workers", "1"])
    assert ran.exit_code == 0, ran.output
    run = tmp_path / "small"
    out = tmp_path / "rep"
    write_report(open_runs(run), out)
    stale = out / "deficit_an-earlier-run.png"
    stale.write_bytes(b"old")
    refused = cli.invoke(app, ["report", str(run), "--out", str(out)])
    assert refused.exit_code == 1
    assert refused.stderr.startswith("Error: ") and "--force" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1 and stale.exists()
    done = cli.invoke(app, ["report", str(run), "--out", str(out), "--force"])
    assert done.exit_code == 0, done.stderr
    assert not stale.exists() and (out / "report.md").exists()
    assert sorted(p.name for p in out.iterdir()) == sorted(
        p.rsplit("/", 1)[-1] for p in done.stdout.split()
    )
