"""Presentation of computed answers: document sections and tidy records (no statistics here).

:mod:`uno_stats.present.report` assembles these into terminal tables, Markdown, HTML, JSON and CSV.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from uno_stats.analysis.estimates import Estimate, format_p
from uno_stats.analysis.point_answers import Answered
from uno_stats.analysis.questions import (
    RunAnswers,
    StatusCounts,
    SweepGroup,
    run_match_target,
    run_preset,
    run_rules,
    run_seats,
)
from uno_stats.analysis.seats import seat_label
from uno_stats.engine.rules import preset_rules
from uno_stats.engine.schema import STATUS_NAMES
from uno_stats.present.document import Document, LazyRows
from uno_stats.scenario.deck import deck_label
from uno_stats.store.runs import Run

DEFICIT_TURNS = (10, 20, 30, 50, 75, 100)
DEFICIT_ROWS = 10
MIN_CELL_N = 30
CONFOUNDED = (
    "Strategies differ by seat here, so seat and strategy are confounded: a seat's share "
    "measures the strategy sitting there as much as the seat"
)
MIXED_MARK = "strategies differ by seat: seat and strategy confounded"
"""The short caption note of one table; :data:`CONFOUNDED` says it in full once per section."""


def confounded_note(doc: Document, answers: Sequence[RunAnswers]) -> None:
    """The confounding caveat, once, when any of ``answers`` seats different strategies."""
    if any(a.mixed for a in answers):
        doc.para(f'{CONFOUNDED} (tables marked "{MIXED_MARK}").')


# --- formatting -----------------------------------------------------------------------------


def num(x: float, digits: int = 2) -> str:
    """A number with ``digits`` decimals (thousands separated); ``n/a`` when not finite."""
    return f"{x:,.{digits}f}" if math.isfinite(x) else "n/a"


def est(e: Estimate, digits: int = 2) -> str:
    """``value [low, high]``."""
    return f"{num(e.value, digits)} [{num(e.low, digits)}, {num(e.high, digits)}]"


def pct(e: Estimate, digits: int = 1) -> str:
    """A proportion in percent: ``25.1% [24.8, 25.4]``."""
    scaled = Estimate(100 * e.value, 100 * e.low, 100 * e.high, e.n)
    return f"{num(scaled.value, digits)}% [{num(scaled.low, digits)}, {num(scaled.high, digits)}]"


def p_cell(p: float) -> str:
    """A p-value for a table cell: ``0.0457``, ``3.1e-12`` or ``< 1e-300``."""
    return format_p(p).removeprefix("p = ").removeprefix("p ")


def pp(e: Estimate, digits: int = 2) -> str:
    """A difference of proportions in percentage points: ``+1.20 pp [+0.80, +1.60]``."""
    v = [100 * x for x in (e.value, e.low, e.high)]
    if not all(math.isfinite(x) for x in v):
        return "n/a"
    return f"{v[0]:+.{digits}f} pp [{v[1]:+.{digits}f}, {v[2]:+.{digits}f}]"


def count_pct(count: int, e: Estimate) -> str:
    """``count (share% [low, high])``."""
    return f"{count:,} ({pct(e, 2)})"


# --- run metadata ---------------------------------------------------------------------------


def rules_changed(run: Run) -> dict[str, Any]:
    """The run's rule values that differ from its preset (all rules if the preset is unknown)."""
    rules = run_rules(run)
    try:
        base = preset_rules(str(run_preset(run)))
    except KeyError:
        return rules
    return {k: v for k, v in rules.items() if base.get(k) != v}


def seats_text(run: Run) -> str:
    """The seats' strategies, e.g. ``4 x random`` or ``0: random; 1: random (bluff=0.2)``."""
    labels = [seat_label(s) for s in run_seats(run)]
    if len(set(labels)) == 1:
        return f"{run.players} x {labels[0]}"
    return "; ".join(f"{i}: {label}" for i, label in enumerate(labels))


def run_meta(run: Run) -> dict[str, Any]:
    """What a report states about a run: identity, seed, version, rules, deck (RULES.md S19),
    seats, size, time."""
    m = run.manifest
    return {
        "run": run.name,
        "path": str(run.path),
        "description": run.scenario.description,
        "seed": m.seed,
        "version": m.version,
        "players": run.players,
        "preset": run_preset(run),
        "deck": deck_label(run.scenario.rules, run.scenario.deck),
        "rules_changed": rules_changed(run),
        "seats": seats_text(run),
        "rows": m.rows,
        "games": m.games,
        "wall_time_s": m.wall_time_s,
        "games_per_s": m.games_per_s,
        "match_target": run_match_target(run),
        "sweep_assignment": m.sweep_assignment,
        "created": m.created,
    }


def descriptions_text(runs: Sequence[Run]) -> list[str]:
    """Each distinct description once: ``Description: ...`` when every run shares it, else
    ``scenario: ...`` per description, naming the scenarios (a sweep or tournament once, not
    each of its runs); runs without a description are left out."""
    by_text: dict[str, dict[str, None]] = {}
    described = 0
    for run in runs:
        if run.scenario.description:
            by_text.setdefault(run.scenario.description, {})[run.manifest.name] = None
            described += 1
    if len(by_text) == 1 and described == len(runs):
        return [f"Description: {next(iter(by_text))}"]
    return [f"{', '.join(names)}: {text}" for text, names in by_text.items()]


def runs_section(doc: Document, runs: Sequence[Run]) -> None:
    """The scenarios' descriptions (each once), then the table of runs: seed, version,
    preset, deck and changed rules, seats, size, time."""
    doc.heading("Runs")
    for text in descriptions_text(runs):
        doc.para(text)
    rows = []
    for run in runs:
        meta = run_meta(run)
        changed = ", ".join(f"{k}={v}" for k, v in meta["rules_changed"].items()) or "none"
        wall = meta["wall_time_s"]
        rows.append(
            [
                meta["run"],
                meta["seed"],
                meta["version"],
                meta["players"],
                meta["preset"],
                meta["deck"],
                changed,
                meta["seats"],
                f"{meta['rows'] or 0:,}",
                num(float(wall), 1) if wall is not None else "n/a",
            ]
        )
    doc.table(
        [
            "run",
            "seed",
            "version",
            "players",
            "preset",
            "deck",
            "rules changed from preset",
            "seats",
            "rows",
            "wall time (s)",
        ],
        rows,
    )


# --- answers --------------------------------------------------------------------------------


def shown_statuses(statuses: Sequence[StatusCounts]) -> list[int]:
    """Status codes a table shows: won, void and capped always; exhausted (RULES.md S17) only
    when some run has exhausted rounds."""
    return [k for k in range(4) if k < 3 or any(s.counts[k] > 0 for s in statuses)]


def status_section(doc: Document, answers: Sequence[RunAnswers]) -> None:
    """Rounds won, void and capped (and exhausted, when a run has any)."""
    doc.heading("Round status")
    shown = shown_statuses([a.status for a in answers])
    doc.table(
        ["run", "rounds", *(STATUS_NAMES[k] for k in shown)],
        [
            [
                a.run.name,
                f"{a.status.n:,}",
                *(count_pct(a.status.counts[k], a.status.shares[k]) for k in shown),
            ]
            for a in answers
        ],
        "count (share [95% Wilson CI]) of all rounds",
    )


def length_section(doc: Document, answers: Sequence[RunAnswers]) -> None:
    """Round length in turns."""
    doc.heading("Round length (turns)")
    doc.table(
        [
            "run",
            "rounds",
            "mean",
            "median",
            "p10",
            "p90",
            "p99",
            "sd",
            "mode (share)",
            "min",
            "max",
        ],
        [
            [
                a.run.name,
                f"{a.length.n:,}",
                est(a.length.mean),
                est(a.length.median, 1),
                est(a.length.p10, 1),
                est(a.length.p90, 1),
                est(a.length.p99, 1),
                num(a.length.sd),
                f"{a.length.mode:.0f} ({pct(a.length.mode_share, 2)})",
                f"{a.length.minimum:.0f}",
                f"{a.length.maximum:.0f}",
            ]
            for a in answers
        ],
        "turns per round, all rounds; mean [95% t CI], median and p-quantiles are "
        "mid-quantiles [95% CI: estimate +- 1.96 bootstrap SE], "
        "mode: the most frequent length with its share [95% Wilson CI]",
    )


def match_section(doc: Document, answers: Sequence[RunAnswers]) -> None:
    """Match length in rounds and match winners (only runs that played matches)."""
    with_matches = [a for a in answers if a.match is not None]
    if not with_matches:
        return
    doc.heading("Match length (rounds)")
    doc.table(
        ["run", "matches", "mean", "median", "p90", "p99"],
        [
            [
                a.run.name,
                f"{a.match.length.n:,}",
                est(a.match.length.mean),
                est(a.match.length.median, 1),
                est(a.match.length.p90, 1),
                est(a.match.length.p99, 1),
            ]
            for a in with_matches
            if a.match is not None
        ],
        "rounds per match, void rounds included; mean [95% t CI], median and p-quantiles "
        "are mid-quantiles [95% CI: estimate +- 1.96 bootstrap SE]",
    )
    for a in with_matches:
        m = a.match
        assert m is not None
        side = "pair" if m.sides == 2 and a.run.players == 4 else "seat"
        doc.table(
            [side, "matches won", "share [95% CI]", "fair share"],
            [
                [i, f"{w:,}", pct(s), f"{100 / m.sides:.1f}%"]
                for i, (w, s) in enumerate(zip(m.wins, m.shares, strict=True))
            ],
            f"{a.run.name}: match winners; chi-square vs equal shares = "
            f"{num(m.chi_square.statistic)} (df {m.chi_square.df}), {format_p(m.chi_square.p)}",
        )


SHARE_HEADERS = ["wins", "win share [95% CI]", "fair share", "share - fair"]
"""Columns of a share-of-wins table after its first (seat or position) column."""


def share_rows(wins: Sequence[int], shares: Sequence[Estimate], fair: float) -> list[list]:
    """One row per seat or position: index, wins, share [CI], fair share, share - fair."""
    return [
        [i, f"{w:,}", pct(e), f"{100 * fair:.1f}%", f"{100 * (e.value - fair):+.2f} pp"]
        for i, (w, e) in enumerate(zip(wins, shares, strict=True))
    ]


def seat_section(doc: Document, answers: Sequence[RunAnswers]) -> None:
    """Win share per seat, chi-square against equal shares, first player's points edge."""
    doc.heading("Seat advantage")
    confounded_note(doc, answers)
    for a in answers:
        s = a.seats
        if s is None:
            doc.para(f"{a.run.name}: no won rounds, no seat statistics.")
            continue
        doc.table(
            ["seat", *SHARE_HEADERS],
            share_rows(s.wins, s.seats, s.fair),
            f"{a.run.name}: share of {s.n_won:,} won rounds; chi-square vs 1/{s.players} = "
            f"{num(s.chi_square.statistic)} (df {s.chi_square.df}), {format_p(s.chi_square.p)}"
            + (f"; {MIXED_MARK}" if a.mixed else ""),
        )
    doc.table(
        ["run", "won rounds", "first player", "other seats (mean)", "edge", "t", "p"],
        [
            [
                a.run.name,
                f"{a.edge.edge.n:,}",
                est(a.edge.first),
                est(a.edge.others),
                est(a.edge.edge),
                num(a.edge.t),
                p_cell(a.edge.p),
            ]
            for a in answers
            if a.edge is not None
        ],
        "points scored per won round by the first player against the other seats' mean "
        "(paired, 95% t CI; winner scores the others' cards)",
    )


def comeback_section(doc: Document, answers: Sequence[RunAnswers]) -> None:
    """P(win | max deficit >= k)."""
    doc.heading("Comeback probability")
    curves = [a for a in answers if a.comeback is not None]
    if curves:
        doc.para(
            "Each table: P(win | at some point held k or more cards above the smallest hand) "
            "against P(win | never that far behind), over the seat-rounds of won rounds; 95% "
            "Wilson CIs, the gap with Newcombe's CI in percentage points."
        )
    for a in curves:
        c = a.comeback
        assert c is not None
        doc.table(
            ["k", "seat-rounds", "wins", "P(win | k+ behind)", "P(win | never k behind)", "gap"],
            [
                [k, f"{e.n:,}", f"{w:,}", pct(e), pct(nv), pp(g)]
                for k, e, w, nv, g in zip(c.ks, c.rates, c.wins, c.never, c.gap, strict=True)
            ],
            a.run.name,
        )


def deficit_section(doc: Document, answers: Sequence[RunAnswers]) -> None:
    """P(win | deficit d at turn t), selected checkpoints."""
    tables = [a for a in answers if a.deficit is not None]
    if not tables:
        return
    doc.heading("Win chance by card deficit during the round")
    doc.para(
        "Each table: P(win) in % [95% Wilson CI] of a seat holding d cards more than the "
        f"smallest hand after turn t; blank where fewer than {MIN_CELL_N} seat-rounds."
    )
    for a in tables:
        t = a.deficit
        assert t is not None
        cols = [i for i, turn in enumerate(t.turns) if turn in DEFICIT_TURNS] or list(
            range(min(6, t.turns.size))
        )
        rows = []
        for d in range(min(t.deficits.size, DEFICIT_ROWS + 1)):
            cells = [
                f"{100 * t.rate[d, j]:.1f} [{100 * t.low[d, j]:.1f}, {100 * t.high[d, j]:.1f}]"
                if t.n[d, j] >= MIN_CELL_N
                else ""
                for j in cols
            ]
            rows.append([d, *cells])
        doc.table(
            ["deficit d", *(f"t={t.turns[j]}" for j in cols)],
            rows,
            a.run.name,
        )


def strategy_section(doc: Document, answers: Sequence[RunAnswers]) -> None:
    """Win share and points per round by strategy."""
    doc.heading("Strategy strength")
    doc.table(
        [
            "run",
            "strategy",
            "seats",
            "seat-rounds",
            "win share [95% CI]",
            "fair share",
            "points scored / round",
            "points left / round",
        ],
        [
            [
                a.run.name,
                r.label,
                ",".join(map(str, r.seats)),
                f"{r.win.n:,}",
                pct(r.win),
                f"{100 / a.run.players:.1f}%",
                est(r.points_scored),
                est(r.points_left),
            ]
            for a in answers
            for r in a.strategies
        ],
        "per seat-round of won rounds; points scored: the winner collects the other hands' "
        "points; points left: own remaining card points (95% t CI)"
        + (
            ". Where strategies sit in fixed seats, the shares include the seats' advantage"
            if any(a.mixed for a in answers)
            else ""
        ),
    )


def _switch(value: object) -> object:
    """A swept value as the table shows it: a switch on/off, anything else as it is."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return value


def sweep_section(
    doc: Document, groups: Sequence[SweepGroup], by_path: Mapping[str, Answered]
) -> None:
    """One row per sweep point: the key metrics against the swept keys; with more than one
    key, a first column ``#`` numbers the points (the Answers name a long point so, and a
    table too wide for the terminal repeats it in each of its pieces). Swept rules are
    headed by their key (``stack_draw_two``, not ``rules.stack_draw_two``), switches
    shown on/off. Rows are built when read (a median and p90 each bootstrap their
    interval): a summary that shows the first rows computes only those."""
    for g in groups:
        doc.heading(f"Sweep {g.name}")
        numbered = len(g.axes) > 1

        def row(index: int, g: SweepGroup = g, numbered: bool = numbered) -> list[object]:
            run = g.runs[index]
            a = by_path[str(run.path)]
            point = run.manifest.sweep_assignment or {}
            return [
                *([index + 1] if numbered else []),
                *(_switch(point[x]) for x in g.axes),
                f"{a.length.n:,}",
                est(a.length.mean),
                est(a.length.median, 1),
                est(a.length.p90, 1),
                pct(a.seat0) if a.seat0 is not None else "n/a",
                pct(a.status.void, 2),
                pct(a.status.capped, 2),
            ]

        doc.table(
            [
                *(["#"] if numbered else []),
                *(x.removeprefix("rules.") for x in g.axes),
                "rounds",
                "mean turns",
                "median turns",
                "p90 turns",
                "seat 0 win share",
                "void rate",
                "capped rate",
            ],
            LazyRows(len(g.runs), row),
            "95% CIs in brackets; median and p90 are mid-quantiles",
        )
