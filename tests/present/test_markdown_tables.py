"""Every Markdown table parses with a GFM table parser (markdown-it-py's ``table`` rule) into
the cells that were meant: as many per row as the header has, each value in its column.

The generated outputs (``summary``, ``compare``, ``rules``, ``strategies`` with ``--format
md``, a sweep, a tournament, a written report) are checked cell by cell against the tables
the renderer was given; the shipped reports, whose source tables are not at hand, are
checked row by row: each row splits into exactly the header's cells.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from engine_runs import engine_runs
from markdown_it import MarkdownIt
from markdown_it.token import Token
from typer.testing import CliRunner

from uno_stats.cli import app
from uno_stats.present import document
from uno_stats.present.document import markdown_table, md_cell

ROOT = Path(__file__).resolve().parents[2]
GFM = MarkdownIt("commonmark").enable("table")
DELIMITER = re.compile(r"^\|(?:\s*:?-+:?\s*\|)+\s*$")


def _text(inline: Token) -> str:
    """What a cell shows: its inline content with escapes and entities resolved."""
    return "".join(child.content for child in inline.children or [])


def parsed_tables(md: str) -> list[list[list[str]]]:
    """Every table markdown-it finds in ``md``: rows (header first) of cell texts."""
    tables: list[list[list[str]]] = []
    row: list[str] = []
    tokens = GFM.parse(md)
    for i, tok in enumerate(tokens):
        if tok.type == "table_open":
            tables.append([])
        elif tok.type == "tr_open":
            row = []
        elif tok.type in ("th_open", "td_open"):
            row.append(_text(tokens[i + 1]).strip())
        elif tok.type == "tr_close":
            tables[-1].append(row)
    return tables


def delimiter_rows(md: str) -> int:
    return sum(1 for line in md.splitlines() if DELIMITER.match(line))


def cells_of(line: str, columns: int) -> bool:
    """Whether the table row ``line`` holds exactly ``columns`` cells, as the parser reads it:
    a table whose header is that line and whose delimiter row has ``columns`` cells is a
    table only when the counts agree."""
    probe = f"{line}\n|{'---|' * columns}\n"
    return any(t.type == "table_open" for t in GFM.parse(probe))


@pytest.fixture
def given(monkeypatch) -> list[list[list[str]]]:
    """The tables handed to :func:`markdown_table` (header first), as their cells read."""
    seen: list[list[list[str]]] = []

    def spy(headers: Sequence[object], rows: Sequence[Sequence[object]]) -> str:
        seen.append(
            [[str(h).strip() for h in headers], *[[str(c).strip() for c in r] for r in rows]]
        )
        return markdown_table(headers, rows)

    monkeypatch.setattr(document, "markdown_table", spy)
    return seen


def assert_tables_read_as_given(md: str, given: list[list[list[str]]]) -> None:
    assert given, "no table was rendered"
    parsed = parsed_tables(md)
    assert delimiter_rows(md) == len(parsed) == len(given), "a table did not parse as a table"
    for want, got in zip(given, parsed, strict=True):
        assert got == want


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    return engine_runs(tmp_path_factory.getbasetemp())


cli = CliRunner()


def md_output(args: list[str]) -> str:
    result = cli.invoke(app, args)
    assert result.exit_code == 0, result.output
    return result.stdout


# --- the cell escaping ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        "P(win | k+ behind)",
        "P(row wins | row or column wins)",
        "a || b",
        "trailing \\",
        "back\\slash | pipe \\| both",
        "< 1e-300",
        "<b>bold?</b>",
        "`code | inside`",
        "line one\nline two",
    ],
)
def test_a_cell_parses_as_itself(value: str) -> None:
    md = markdown_table(["first", value, "last"], [[value, "x", value], ["1", value, "3"]])
    (table,) = parsed_tables(md)
    shown = value.replace("\n", "")  # a line break becomes <br>, a break in the rendered cell
    if "\n" in value:
        assert "<br>" in md
        table = [[c.replace("<br>", "") for c in row] for row in table]
    if value.startswith("`"):
        shown = value.strip("`")  # inline code: the pipe stays inside it
    assert table == [["first", shown, "last"], [shown, "x", shown], ["1", shown, "3"]]


def test_md_cell_leaves_plain_text_alone() -> None:
    assert md_cell("49.65 [48.60, 50.70]") == "49.65 [48.60, 50.70]"
    assert md_cell("shuffle_hands_cards") == "shuffle_hands_cards"
    assert md_cell("< 1e-300") == "< 1e-300"


# --- every --format md output and a report ---------------------------------------------------


def test_compare_comeback_metric_lands_in_its_columns(runs, given) -> None:
    """The issue's case: the label carries a '|'; every value must sit under its header."""
    pair = [str(runs["stacking-off"]), str(runs["stacking-all"])]
    md = md_output(["compare", *pair, "-m", "comeback3_rate", "--format", "md"])
    assert_tables_read_as_given(md, given)
    header, *rows = parsed_tables(md)[-1]
    (row,) = rows
    cell = dict(zip(header, row, strict=True))
    assert cell["metric"] == "P(win | 3+ cards behind)"
    assert re.fullmatch(r"\d+\.\d\d% \[\d+\.\d\d, \d+\.\d\d\]", cell["baseline [95% CI]"])
    assert re.fullmatch(r"\d+\.\d\d% \[\d+\.\d\d, \d+\.\d\d\]", cell["run [95% CI]"])
    assert re.fullmatch(r"[\d.e-]+|< 1e-300|no test", cell["Holm p"])


@pytest.mark.parametrize(
    "args",
    [
        ["summary", "{mattel-2022-4p}", "--format", "md"],
        ["summary", "{seven-zero}", "--format", "md"],
        ["summary", "{tournament}", "--format", "md"],
        ["compare", "{stacking-off}", "{stacking-all}", "--format", "md"],
        ["rules", "--format", "md"],
        ["strategies", "--format", "md"],
    ],
    ids=["summary", "sweep", "tournament", "compare", "rules", "strategies"],
)
def test_every_md_output_parses_into_its_cells(runs, given, args) -> None:
    md = md_output([a.format_map({k: str(v) for k, v in runs.items()}) for a in args])
    assert_tables_read_as_given(md, given)


def test_a_report_parses_into_its_cells(runs, given, tmp_path) -> None:
    out = tmp_path / "report"
    folders = [str(runs[name]) for name in ("stacking-off", "stacking-all", "seven-zero")]
    result = cli.invoke(app, ["report", *folders, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert_tables_read_as_given((out / "report.md").read_text(), given)


# --- the shipped reports ----------------------------------------------------------------------

SHIPPED = sorted((ROOT / "reports").glob("**/*.md"))


@pytest.mark.parametrize("path", SHIPPED, ids=[str(p.relative_to(ROOT)) for p in SHIPPED])
def test_every_table_of_a_shipped_report_parses(path: Path) -> None:
    md = path.read_text()
    tables = parsed_tables(md)
    assert len(tables) == delimiter_rows(md), "a table that does not parse as a table"
    lines = md.splitlines()
    for i, line in enumerate(lines):
        if DELIMITER.match(line):
            columns = line.count("|") - 1
            body = itertools.takewhile(lambda row: row.startswith("|"), lines[i + 1 :])
            for k, row in enumerate([lines[i - 1], *body]):
                assert cells_of(row, columns), f"table at line {i}, row {k}: not {columns} cells"
