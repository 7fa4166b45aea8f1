"""Input limits: aliases, nesting, sizes, games, sweeps, workers (uno_stats.limits)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from uno_stats import limits
from uno_stats.errors import ScenarioError
from uno_stats.limits import cap_workers, parse_count
from uno_stats.scenario.load import load_scenario, parse_scenario, with_overrides

ALIAS_BOMB = """\
name: bomb
a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]
"""


def fails(text: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(textwrap.dedent(text), "x.yaml")
    assert "\n" not in str(info.value)
    return info.value


def test_alias_bomb_is_refused_at_its_first_anchor() -> None:
    err = fails(ALIAS_BOMB)
    assert err.line == 2
    assert "anchors and aliases" in err.detail


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("name: x\nrules: &r {preset: mattel-2022}\n", 2),
        ("name: x\nplayers: &p 4\n", 2),
        ("name: &n x\n", 1),
        ("name: x\nstrategies:\n  - &s {strategy: basic}\n  - *s\n", 3),
    ],
)
def test_any_anchor_or_alias_is_refused_with_its_line(text: str, line: int) -> None:
    err = fails(text)
    assert err.line == line and "anchors and aliases" in err.detail


def test_alias_bomb_under_a_memory_limit(tmp_path: Path) -> None:
    """In a process limited to 1 GB of address space the bomb is refused, not expanded."""
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(ALIAS_BOMB)
    code = textwrap.dedent(
        f"""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        from uno_stats.errors import ScenarioError
        from uno_stats.scenario.load import load_scenario
        try:
            load_scenario({str(bomb)!r})
        except ScenarioError as exc:
            print(exc)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{bomb}:2: invalid YAML: anchors and aliases")


def test_deep_nesting_names_the_line() -> None:
    depth = limits.MAX_DEPTH + 5
    text = "name: x\ndescription:\n" + "".join(f"{'  ' * i}- \n" for i in range(depth))
    err = fails(text)
    assert "nested more than" in err.detail
    assert err.line is not None and 2 < err.line <= depth + 2


def test_very_deep_flow_nesting_is_refused_without_recursion_error() -> None:
    err = fails("name: x\nsweep: " + "[" * 40_000 + "]" * 40_000 + "\n")
    assert "nested more than" in err.detail and err.line == 2


def test_oversized_file_is_refused_before_parsing(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("name: x\ndescription: " + "a" * limits.MAX_FILE_BYTES + "\n")
    with pytest.raises(ScenarioError, match="larger than 100,000 bytes"):
        load_scenario(big)
    with pytest.raises(ScenarioError, match="larger than 100,000 characters"):
        parse_scenario(big.read_text())


def test_folder_given_as_scenario(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="is a folder"):
        load_scenario(tmp_path)


def test_long_description_and_name() -> None:
    err = fails(f"name: x\ndescription: {'a' * (limits.MAX_DESCRIPTION + 1)}\n")
    assert (err.key, err.line) == ("description", 2) and "at most 2,000" in err.detail
    assert parse_scenario(f"name: x\ndescription: {'a' * limits.MAX_DESCRIPTION}\n")
    err = fails(f"name: {'a' * 300}\n")
    assert (err.key, err.line) == ("name", 1) and "300 characters: at most 64" in err.detail
    assert parse_scenario(f"name: {'a' * limits.MAX_NAME}\n").name == "a" * limits.MAX_NAME


def test_huge_games_and_seed() -> None:
    err = fails("name: x\ngames: 1000000000000\n")
    assert err.key == "games" and "out of range" in err.detail
    assert parse_scenario(f"name: x\ngames: {limits.MAX_GAMES}\n").games == limits.MAX_GAMES
    assert fails(f"name: x\nseed: {2**64}\n").key == "seed"
    s = parse_scenario("name: x\n")
    with pytest.raises(ScenarioError, match=r"games: .* out of range"):
        with_overrides(s, games=10**20)


def test_integer_too_long_for_python_is_one_error() -> None:
    err = fails("name: x\nseed: " + "9" * 5000 + "\n")
    assert "invalid YAML" in str(err)


def test_sweep_axis_of_many_values_is_refused_at_once() -> None:
    values = ", ".join(str(10 + i) for i in range(10_001))
    err = fails(f"name: x\nsweep:\n  rules.max_turns: [{values}]\n")
    assert err.key == "sweep.rules.max_turns" and "10,001 values: at most 10,000" in err.detail
    values = ", ".join(str(i / 100_000) for i in range(100_000))
    assert "larger than" in fails(f"name: x\nsweep:\n  strategies.bluff: [{values}]\n").detail


def test_sweep_product_is_bounded() -> None:
    bluff = ", ".join(str(i / 1000) for i in range(400))
    forget = ", ".join(str(i / 1000) for i in range(300))
    err = fails(
        f"name: x\nsweep:\n  strategies.bluff: [{bluff}]\n  strategies.forget_uno: [{forget}]\n"
    )
    assert err.key == "sweep" and "400 x 300 = 120,000 points: at most 100,000" in err.detail


def test_sweep_duplicate_check_keeps_types_apart() -> None:
    err = fails("name: x\nsweep:\n  strategies.bluff: [0.5, 0.25, 0.5]\n")
    assert "listed twice" in err.detail
    s = parse_scenario("name: x\nsweep:\n  rules.stack_draw_two: [false, true]\n")
    assert s.sweep == {"rules.stack_draw_two": [False, True]}


def test_tournament_longer_than_the_strategy_table() -> None:
    names = ", ".join(["basic", "random"] * 5_000)
    err = fails(f"name: x\ntournament: [{names}]\n")
    assert err.key == "tournament" and "10,000 entries" in err.detail


@pytest.mark.parametrize(
    ("text", "value"),
    [("12", 12), ("1e6", 1_000_000), ("2.5e5", 250_000), ("1_000", 1000), (" 7 ", 7)],
)
def test_parse_count_accepts_whole_numbers(text: str, value: int) -> None:
    assert parse_count("--games", text, 1, limits.MAX_GAMES) == value


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("1e20", "out of range"),
        ("-5", "out of range"),
        ("0", "out of range"),
        ("1.5", "is not allowed"),
        ("nan", "is not allowed"),
        ("inf", "is not allowed"),
        ("ten", "is not allowed"),
        ("1e999999999", "out of range"),
        ("9" * 100, "is not allowed"),
    ],
)
def test_parse_count_rejects_with_one_line(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason) as info:
        parse_count("--games", text, 1, limits.MAX_GAMES)
    assert str(info.value).startswith("--games: ") and "\n" not in str(info.value)


def test_workers_capped_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits.os, "cpu_count", lambda: 2)
    assert cap_workers(8) == (8, None)
    count, warning = cap_workers(1000)
    assert count == 8
    assert warning == "--workers 1,000 is more than 4 per core (2 cores): using 8"
