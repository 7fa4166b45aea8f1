"""Document sections for the first mover and for what happens inside a round."""

from __future__ import annotations

from collections.abc import Sequence

from uno_stats.analysis.estimates import format_p
from uno_stats.analysis.questions import RunAnswers
from uno_stats.present.document import Document
from uno_stats.present.sections import (
    MIXED_MARK,
    SHARE_HEADERS,
    confounded_note,
    est,
    num,
    pct,
    pp,
    share_rows,
)


def first_mover_section(doc: Document, answers: Sequence[RunAnswers]) -> None:
    """Win share by position from the player who moved first; the first mover's edge."""
    movers = [a for a in answers if a.first_mover is not None]
    if not movers:
        return
    doc.heading("First mover")
    doc.para(
        "Position 0 took the first turn, position 1 was next in the direction of play at the "
        "start, and so on. The opening card (Skip, Draw Two, Reverse) and a rotating dealer "
        "move the first turn off seat 0, so this, not the seat table, says whether moving "
        "first helps."
    )
    doc.table(
        ["run", "won rounds", "seat 0 moved first", "first mover wins", "fair", "edge", "p"],
        [
            [
                a.run.name,
                f"{f.n_won:,}",
                pct(f.seat0_first),
                pct(f.first),
                f"{100 * f.fair:.1f}%",
                pp(f.edge),
                format_p(f.edge_p).removeprefix("p = "),
            ]
            for a in movers
            if (f := a.first_mover) is not None
        ],
        "first mover's share of won rounds [95% Wilson CI]; edge = share - 1/players in "
        "percentage points; p: exact binomial test of a fair share",
    )
    if any(a.first_mover is not None and a.first_mover.positions is not None for a in movers):
        confounded_note(doc, movers)
    for a in movers:
        f = a.first_mover
        assert f is not None
        if f.positions is None or f.wins is None or f.chi_square is None:
            doc.para(f"{a.run.name}: {f.note}.")
            continue
        chi = f.chi_square
        doc.table(
            ["position", *SHARE_HEADERS],
            share_rows(f.wins, f.positions, f.fair),
            f"{a.run.name}: share of {f.n_won:,} won rounds by position from the first player; "
            f"chi-square vs 1/{f.players} = {num(chi.statistic)} (df {chi.df}), {format_p(chi.p)}"
            + (f"; {MIXED_MARK}" if a.mixed else ""),
        )


def events_section(doc: Document, answers: Sequence[RunAnswers]) -> None:
    """Stacking chains, reshuffles, cards per own-turn draw and the largest hand."""
    doc.heading("Inside a round")
    stacks = [(a.run.name, a.events.stacks) for a in answers if a.events.stacks is not None]
    chained = [(name, s) for name, s in stacks if s is not None and s.longest >= 2]
    if chained:
        doc.table(
            ["run", "rounds", "chain of 2+", "chain of 3+", "mean longest chain", "longest"],
            [
                [name, f"{s.n:,}", pct(s.chain2, 2), pct(s.chain3, 2), est(s.mean, 3), s.longest]
                for name, s in chained
            ],
            "stacking chains: draw cards in each round's longest penalty chain, all rounds; "
            "shares [95% Wilson CI], mean [95% t CI]",
        )
    unchained = [name for name, s in stacks if s is not None and s.longest < 2]
    if unchained:
        doc.para(
            "No penalty chain of two or more draw cards (no stacking) in: "
            + ", ".join(unchained)
            + "."
        )
    shuffles = [(a.run.name, a.events.reshuffles) for a in answers if a.events.reshuffles]
    if shuffles:
        doc.table(
            ["run", "rounds", "reshuffles / round", "rounds with any", "most in a round"],
            [
                [name, f"{r.n:,}", est(r.mean, 3), pct(r.any, 2), r.most]
                for name, r in shuffles
                if r is not None
            ],
            "discard pile shuffled into the draw pile; mean [95% t CI], share [95% Wilson CI]",
        )
    draws = [(a.run.name, a.events.draws) for a in answers if a.events.draws is not None]
    if draws:
        doc.table(
            ["run", "rounds", "own-turn draws", "draws / round", "cards per draw"],
            [
                [name, f"{d.n:,}", f"{d.draws:,}", est(d.per_round), est(d.per_draw)]
                for name, d in draws
                if d is not None
            ],
            "a draw: one player's drawing on their own turn (under draw-until-playable, the "
            "whole run); cards per draw = cards drawn / draws [95% CI, cluster-robust over "
            "rounds]; draws per round [95% t CI]",
        )
    hands = [(a.run.name, a.events.largest_hand) for a in answers if a.events.largest_hand]
    if hands:
        doc.table(
            ["run", "rounds", "mean", "median", "p90", "largest"],
            [
                [name, f"{h.n:,}", est(h.mean), est(h.median, 1), est(h.p90, 1), h.largest]
                for name, h in hands
                if h is not None
            ],
            "the most cards any seat held during the round; mean [95% t CI], median and p90 "
            "are mid-quantiles [95% CI: estimate +- 1.96 bootstrap SE]",
        )
    mercy = [(a.run.name, a.events.mercy) for a in answers if a.events.mercy is not None]
    if mercy:
        doc.table(
            [
                "run",
                "rounds",
                "ended by mercy",
                "any knock-out",
                "knock-outs / round",
                "most",
                "roulette cards / round",
            ],
            [
                [
                    name,
                    f"{m.n:,}",
                    pct(m.last_standing, 2),
                    pct(m.any_out, 2),
                    est(m.eliminated, 3),
                    m.most,
                    est(m.roulette, 3),
                ]
                for name, m in mercy
                if m is not None
            ],
            "the mercy rule (RULES.md S22): rounds won by the last player standing, rounds "
            "with a knock-out [95% Wilson CI]; knock-outs and cards turned up by Color "
            "Roulettes per round [95% t CI]",
        )
    for note in dict.fromkeys(n for a in answers for n in a.events.notes):
        doc.para(f"Note: {note}.")
