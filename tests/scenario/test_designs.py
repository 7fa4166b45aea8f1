"""Sweep designs (uno_stats.scenario.designs): the tabulated fractional factorials, their
defining relations and alias tables, the full factorial and the Latin hypercube."""

from __future__ import annotations

import importlib.util
import itertools
import math
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from uno_stats.scenario.designs import (
    LETTERS,
    MONTGOMERY,
    NIST,
    RESOLUTIONS,
    SEARCHED,
    TABLE,
    DesignError,
    TableRow,
    alias_table,
    aliases,
    defining_words,
    design_from_record,
    fractional_design,
    fractional_plan,
    full_design,
    max_factors,
    random_design,
    resolution_of,
    word_length_pattern,
)

SEVEN = tuple("ABCDEFG")


def coded(levels: np.ndarray) -> np.ndarray:
    """Level indices 0/1 as the -1/+1 coding."""
    return 2 * levels.astype(int) - 1


def rows(name: str) -> list:
    return [row for row in TABLE if row.source == name]


# --- known designs ------------------------------------------------------------------------------


def test_bhh_2_7_3_resolution_iv() -> None:
    """BHH's 2^(7-3) IV: E=ABC, F=BCD, G=ACD; every word of length 4; every main effect
    clear of two-factor interactions; each two-factor interaction aliased with two others."""
    d = fractional_design(SEVEN, 4)
    assert d.kind == "fractional"
    assert d.generators == ("E=ABC", "F=BCD", "G=ACD")
    assert set(d.words) == {"ABCE", "BCDF", "ACDG", "ADEF", "BDEG", "ABFG", "CEFG"}
    assert d.resolution == 4
    assert d.levels.shape == (16, 7) and d.levels.dtype == np.int32
    table = dict(alias_table(d))
    assert all(table[f] == [] for f in SEVEN)
    assert table["A:B"] == ["C:E", "F:G"]
    assert table["A:C"] == ["B:E", "D:G"]
    assert all(len(found) == 2 for term, found in table.items() if ":" in term)
    assert aliases(d, ["A"]) == (("B", "C", "E"), ("B", "F", "G"), ("C", "D", "G"), ("D", "E", "F"))


def test_yates_order_and_generated_columns_as_products() -> None:
    d = fractional_design(SEVEN, 4)
    x = coded(d.levels)
    base = np.array(list(itertools.product([-1, 1], repeat=4)))[:, ::-1]  # A fastest
    assert (x[:, :4] == base).all()
    a, b, c, dd = x[:, 0], x[:, 1], x[:, 2], x[:, 3]
    assert (x[:, 4] == a * b * c).all()
    assert (x[:, 5] == b * c * dd).all()
    assert (x[:, 6] == a * c * dd).all()
    assert (d.levels[0] == 0).all()  # the first run: every base factor at its first value


def test_2_5_1_resolution_v_and_2_7_4_resolution_iii() -> None:
    five = fractional_design(list("ABCDE"), 5)
    assert (five.generators, five.words, five.resolution) == (("E=ABCD",), ("ABCDE",), 5)
    assert five.levels.shape == (16, 5)
    assert all(found == [] for _, found in alias_table(five))  # mains and 2fis all clear
    assert aliases(five, ["A", "B"]) == (("C", "D", "E"),)
    three = fractional_design(SEVEN, 3)
    assert three.generators == ("D=AB", "E=AC", "F=BC", "G=ABC")
    assert three.levels.shape == (8, 7) and three.resolution == 3
    assert dict(alias_table(three))["A"] == ["B:D", "C:E", "F:G"]


def test_alias_terms_use_factor_names() -> None:
    names = ["rules.jump_in", "players", "rules.seven_zero", "deck.decks", "rules.deflect"]
    d = fractional_design(names, 3)  # 2^(5-2): D=AB, E=AC
    assert d.generators == ("D=AB", "E=AC")
    table = dict(alias_table(d))
    assert table["rules.jump_in"] == ["players:deck.decks", "rules.seven_zero:rules.deflect"]
    assert table["rules.jump_in:players"] == ["deck.decks"]


# --- every tabulated design ---------------------------------------------------------------------


@pytest.mark.parametrize("row", TABLE, ids=lambda r: f"{r.k}f-{r.runs}")
def test_tabulated_design_resolution_balance_and_orthogonality(row) -> None:
    words = defining_words(row.generators)
    p = len(row.generators)
    assert len(words) == 2**p - 1
    assert resolution_of(words) == row.resolution
    assert row.runs == 2 ** (row.k - p)
    letters = LETTERS[: row.k]
    assert all(g[0] == letters[row.k - p + i] for i, g in enumerate(row.generators))
    assert all(set(g[2:]) <= set(letters[: row.k - p]) for g in row.generators)
    x = coded(_levels(row))
    assert x.shape == (row.runs, row.k)
    assert (x.sum(axis=0) == 0).all()  # balanced
    assert (x.T @ x == row.runs * np.eye(row.k, dtype=int)).all()  # orthogonal
    assert len({tuple(r) for r in x}) == row.runs  # distinct runs


def _levels(row) -> np.ndarray:
    """The row's runs built independently: Yates base columns, generated columns as products."""
    base = row.k - len(row.generators)
    x = np.array(list(itertools.product([-1, 1], repeat=base)))[:, ::-1]
    columns = [x[:, i] for i in range(base)]
    for g in row.generators:
        columns.append(np.prod([columns[LETTERS.index(c)] for c in g[2:]], axis=0))
    return (np.column_stack(columns) + 1) // 2


@pytest.mark.parametrize("resolution", RESOLUTIONS)
def test_the_design_chosen_is_the_table_row_with_the_fewest_runs(resolution: int) -> None:
    for k in range(1, max_factors(resolution) + 1):
        runs, generators, reached = fractional_plan(k, resolution)
        fitting = [r.runs for r in TABLE if r.k == k and r.resolution >= resolution]
        assert runs == min([*fitting, 2**k])
        d = fractional_design(LETTERS[:k], resolution)
        assert (coded(d.levels) == coded(_levels_of(k, runs, generators))).all()
        assert d.resolution == reached and (reached is None or reached >= resolution)


def _levels_of(k: int, runs: int, generators: tuple[str, ...]) -> np.ndarray:
    if not generators:
        return np.array(list(itertools.product([0, 1], repeat=k)))[:, ::-1]
    return _levels(next(r for r in TABLE if r.k == k and r.runs == runs))


def test_fewest_runs_the_issue_names() -> None:
    assert fractional_plan(8, 4)[0] == 16  # 8 toggles at resolution IV in 16 points
    assert fractional_plan(15, 5)[0] <= 256  # 15 at resolution V in 256 or fewer
    # the smallest two-level designs there can be: N - 1 >= k (III), N >= 2k (IV)
    for k in range(3, 16):
        assert fractional_plan(k, 3)[0] == 2 ** math.ceil(math.log2(k + 1))
    for k in range(4, 17):
        assert fractional_plan(k, 4)[0] == 2 ** math.ceil(math.log2(2 * k))


def test_no_fraction_where_the_full_product_is_as_small() -> None:
    """SCENARIO.md: 2 axes or fewer, 3 at resolution 4 or 5, 4 at resolution 5: the full
    product; 4 at resolution 3 get the 8-point resolution IV design."""
    full = [(1, 3), (2, 3), (1, 4), (2, 4), (3, 4), (1, 5), (2, 5), (3, 5), (4, 5)]
    for k in range(1, 6):
        for resolution in RESOLUTIONS:
            runs, generators, _ = fractional_plan(k, resolution)
            assert (generators == ()) == ((k, resolution) in full), (k, resolution)
            assert runs == (2**k if generators == () else runs)
    assert fractional_plan(4, 3) == (8, ("D=ABC",), 4)


def test_one_design_per_factors_and_runs_and_every_source_cited() -> None:
    keys = [(r.k, r.runs) for r in TABLE]
    assert len(keys) == len(set(keys))
    assert {r.source for r in TABLE} == {MONTGOMERY, NIST, SEARCHED}
    assert max_factors(3) >= 15 and max_factors(4) >= 15 and max_factors(5) >= 15


def _pattern(columns: list[int], base: int, k: int) -> tuple[int, ...]:
    gens = [
        LETTERS[base + j] + "=" + "".join(LETTERS[i] for i in range(base) if c >> i & 1)
        for j, c in enumerate(columns)
    ]
    return word_length_pattern(defining_words(gens), k)


@pytest.mark.parametrize("row", [r for r in TABLE if r.runs <= 64], ids=lambda r: f"{r.k}f")
def test_no_single_generator_exchange_lowers_the_aberration(row) -> None:
    """Minimum aberration, checked locally: replacing any one generator by any other
    interaction of the base factors never gives a smaller word-length pattern."""
    _no_better_exchange(row)


@pytest.mark.slow
@pytest.mark.parametrize("row", [r for r in TABLE if r.runs > 64], ids=lambda r: f"{r.k}f")
def test_no_single_generator_exchange_lowers_the_aberration_large(row) -> None:
    _no_better_exchange(row)


def _no_better_exchange(row) -> None:
    base = row.k - len(row.generators)
    columns = [sum(1 << LETTERS.index(c) for c in g[2:]) for g in row.generators]
    pattern = _pattern(columns, base, row.k)
    assert pattern == word_length_pattern(defining_words(row.generators), row.k)
    for j in range(len(columns)):
        for other in range(1, 1 << base):
            if bin(other).count("1") < 2 or other in columns:
                continue
            trial = [*columns[:j], other, *columns[j + 1 :]]
            assert _pattern(trial, base, row.k) >= pattern, (row.generators, j, other)


@pytest.mark.slow
def test_every_row_is_minimum_aberration_by_exhaustive_search() -> None:
    """scripts/minimum_aberration.py searches every regular design of each row's size and
    resolution (up to relabelling): none has a smaller word-length pattern than the row, and
    from no bound the search finds the row's pattern again."""
    search = _script("minimum_aberration")
    for row in TABLE:
        better, _ = search.check(row)
        assert better is None, (row.k, row.runs, better)
        base = row.k - len(row.generators)
        found, _, _ = search.search(row.k, base, row.resolution)
        assert (
            found
            == word_length_pattern(defining_words(row.generators), row.k)[row.resolution - 3 :]
        ), (row.k, row.runs)


@pytest.mark.slow
def test_the_exhaustive_search_finds_a_better_design_where_there_is_one() -> None:
    """A 2^(7-3) of resolution III (E=AB F=AC G=BC) is beaten at resolution III by the
    resolution IV design (no words of length 3), and a poor 2^(13-5) at resolution V by one
    with the tabulated pattern; the better design the search returns has the pattern it says."""
    search = _script("minimum_aberration")
    poor = TableRow(7, 16, 3, ("E=AB", "F=AC", "G=BC"), "test")
    better, _ = search.check(poor)
    assert better is not None
    assert word_length_pattern(defining_words(better), 7)[0] == 0
    row13 = next(r for r in TABLE if r.k == 13 and r.runs == 256)
    pattern = list(word_length_pattern(defining_words(row13.generators), 13))[2:]
    worse = [pattern[0] + 1, *pattern[1:]]
    found, generators, _ = search.search(13, 8, 5, worse)
    assert found == tuple(pattern) and generators is not None
    assert list(word_length_pattern(defining_words(generators), 13))[2:] == pattern


def _script(name: str) -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # registered under its name first: numba's cache of its compiled functions records the
    # module to import when the cache is loaded again (unregistered: '<dynamic>', which the
    # second run of these tests, with the cache written by the first, could not import)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


# --- refusals -----------------------------------------------------------------------------------


def test_refusals_say_what_is_possible() -> None:
    with pytest.raises(DesignError, match="at most 16 at resolution 3, 16 at resolution 4, 15"):
        fractional_plan(16, 5)
    with pytest.raises(DesignError, match="17 two-level axes"):
        fractional_plan(17, 4)
    with pytest.raises(DesignError, match="3, 4 or 5"):
        fractional_plan(7, 6)


# --- full and random ------------------------------------------------------------------------------


def test_full_design_is_the_product_first_axis_slowest() -> None:
    d = full_design(["players", "rules.jump_in"], [3, 2])
    assert d.kind == "full" and d.generators == () and d.words == () and d.resolution is None
    assert d.levels.tolist() == [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1]]
    assert alias_table(d)[0] == ("players", [])
    assert aliases(d, ["players"]) == ()


def test_random_design_is_a_latin_hypercube_of_distinct_points() -> None:
    d = random_design(["players", "rules.hand_size", "rules.jump_in"], [5, 4, 2], 20, seed=7)
    assert d.kind == "random" and d.levels.shape == (20, 3)
    assert len({tuple(r) for r in d.levels.tolist()}) == 20
    for j, size in enumerate([5, 4, 2]):
        counts = np.bincount(d.levels[:, j], minlength=size)
        assert counts.tolist() == [20 // size] * size  # each value equally often
    again = random_design(["players", "rules.hand_size", "rules.jump_in"], [5, 4, 2], 20, 7)
    assert (again.levels == d.levels).all()
    other = random_design(["players", "rules.hand_size", "rules.jump_in"], [5, 4, 2], 20, 8)
    assert not (other.levels == d.levels).all()
    uneven = random_design(["a", "b"], [3, 4], 10, seed=1)  # 10 points over 3 and 4 values
    assert sorted(np.bincount(uneven.levels[:, 0]).tolist()) == [3, 3, 4]
    assert sorted(np.bincount(uneven.levels[:, 1]).tolist()) == [2, 2, 3, 3]
    with pytest.raises(DesignError, match="from 2 to 40"):
        random_design(["a", "b", "c"], [5, 4, 2], 41, 0)


def test_record_rebuilds_the_design() -> None:
    d = fractional_design(SEVEN, 4)
    again = design_from_record(SEVEN, [2] * 7, d.record())
    assert again.generators == d.generators and (again.levels == d.levels).all()
    full = full_design(["a", "b"], [2, 3])
    assert (design_from_record(["a", "b"], [2, 3], None).levels == full.levels).all()
    assert (design_from_record(["a", "b"], [2, 3], full.record()).levels == full.levels).all()
    with pytest.raises(DesignError):
        design_from_record(SEVEN, [2] * 7, {**d.record(), "generators": ["E=AB"]})
    six = fractional_design(list("ABCDEF"), 5)  # reaches resolution VI: F=ABCDE
    assert six.resolution == 6
    assert design_from_record(list("ABCDEF"), [2] * 6, six.record()).generators == ("F=ABCDE",)


# --- the sweep manifest records the design ------------------------------------------------------


def test_sweep_manifest_records_the_design(tmp_path) -> None:
    from uno_stats.run.sweep_plan import new_sweep_manifest
    from uno_stats.scenario.load import parse_scenario
    from uno_stats.store.manifest import (
        PointFoldersManifest,
        SweepManifest,
        read_manifest,
        write_manifest,
    )

    axes = "".join(f"  rules.{k}: [false, true]\n" for k in ("jump_in", "seven_zero", "deflect"))
    text = f"name: frac\nsweep:\n{axes}  rules.draw: [one, until-playable]\n"
    s = parse_scenario(text + "design: {type: fractional, resolution: 3}\n")
    manifest = new_sweep_manifest(s, 100)
    assert manifest.design == {
        "kind": "fractional",
        "resolution": 4,
        "generators": ["D=ABC"],
        "points": 8,
    }
    write_manifest(tmp_path, manifest)
    back = read_manifest(tmp_path)
    assert isinstance(back, SweepManifest) and back.design == manifest.design
    rebuilt = design_from_record(list(back.axes), [2] * 4, back.design)
    assert rebuilt.generators == ("D=ABC",) and rebuilt.points == 8
    full = new_sweep_manifest(parse_scenario(text), 100)
    assert full.design is not None and full.design["kind"] == "full"
    old = {"sweep": True, "name": "frac", "version": "0.1.0", "seed": 1, "games": 10}
    old |= {"axes": dict(full.axes), "points": ["a", "b"], "config_hash": "h" * 16}
    old |= {"tournament": None, "complete": True, "wall_time_s": 1.0, "games_per_s": None}
    # a per-point folder written before designs: read as the full factorial
    assert PointFoldersManifest.from_json(old, tmp_path / "manifest.json").design is None
