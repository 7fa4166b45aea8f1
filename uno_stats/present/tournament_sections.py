"""Document sections for tournaments: strategies, pairwise shares, skill vs luck."""

from __future__ import annotations

from uno_stats.analysis.tournament import RANGE_DRAWS, Tournaments
from uno_stats.present.document import Document
from uno_stats.present.sections import est, p_cell, pct, pp

CLUSTER = "95% CI cluster-robust over deals: every seating replays the same deals"


def tournament_section(doc: Document, found: Tournaments) -> None:
    """Per tournament: win share and points per strategy, and the pairwise table."""
    if not found.tables:
        return
    doc.heading("Tournament")
    for t in found.tables:
        same = (
            f" {', '.join(t.same_as)} gave the same results game by game (their rule "
            "difference never changed a game), so they are reported once, under this name."
            if t.same_as
            else ""
        )
        if t.random_seating:
            design = (
                f"{t.rotations} table{'s' if t.rotations > 1 else ''} of {t.players} seats, "
                "each game seated in a random order drawn from its own stream (seating: "
                "random), so seats and neighbours are random and cancel on average rather "
                "than by design"
            )
        else:
            design = (
                f"{t.rotations} seatings of {t.players} seats, balanced so that each strategy "
                "sits in every seat and has every other strategy as its next player equally "
                "often: seat and neighbour effects cancel"
            )
        doc.para(
            f"{t.name}: {len(t.rows)} strategies in {design}; "
            f"{t.n_won:,} won rounds pooled over {t.games.size:,} deals.{same}"
        )
        doc.table(
            [
                "strategy",
                "seat-rounds",
                "wins",
                "win share [95% CI]",
                "fair share",
                "share - fair",
                "points scored / round",
            ],
            [
                [
                    r.label,
                    f"{r.seat_rounds:,}",
                    f"{r.wins:,}",
                    pct(r.win),
                    f"{100 * t.fair:.1f}%",
                    f"{100 * (r.win.value - t.fair):+.2f} pp",
                    est(r.points_scored),
                ]
                for r in t.rows
            ],
            f"{t.name}: share of its seat-rounds in won rounds against 1/{t.players}; points "
            f"scored per seat-round: the winner collects the other hands' points; {CLUSTER} "
            "(n: deals)",
        )
        labels = [r.label for r in t.rows]
        cell = {(p.label, p.opponent): p for p in t.pairs}
        doc.table(
            ["P(row wins | row or column wins)", *labels],
            [
                [
                    a,
                    *(
                        f"{pct(cell[a, b].ahead)} n={cell[a, b].wins + cell[a, b].opponent_wins:,}"
                        if a != b
                        else "-"
                        for b in labels
                    ),
                ]
                for a in labels
            ],
            f"{t.name}: P(A wins | A or B wins), seat-balanced: 1/2 + A's share of the rounds "
            "A or B won where both sit - the share the positions they held give by themselves "
            "(estimated from every seating); seated at random, the plain share (balanced by "
            f"design); identical strategies give 50%; {CLUSTER}; n = rounds one of the two won",
        )


def skill_section(doc: Document, found: Tournaments) -> None:
    """Skill vs luck: each tournament's best-minus-worst win share, and whether they differ."""
    if not found.spreads:
        return
    doc.heading("Skill vs luck")
    doc.para(
        "The gap between the best and the worst strategy's win share in each tournament: "
        "the bigger the gap, the more the rules reward playing well; near zero, the cards decide."
    )
    doc.table(
        ["tournament", "preset", "best", "worst", "spread [95% CI]", "p", "deals"],
        [
            [
                ", ".join([s.name, *s.same_as]),
                " = ".join([s.preset, *s.same_presets]),
                s.best,
                s.worst,
                pp(s.spread),
                p_cell(s.p),
                f"{s.spread.n:,}",
            ]
            for s in found.spreads
        ],
        "best minus worst win share over every seating; both shares come from the same deals, "
        f"so the difference's {CLUSTER}; p tests equal shares for every strategy by the range "
        "of all shares (a max-statistic test, valid although best and worst are picked after "
        f"looking; {RANGE_DRAWS:,} normal draws)",
    )
    if found.differences:
        doc.table(
            ["tournament", "against", "spread difference [95% CI]", "z", "p", "Holm p", "paired"],
            [
                [
                    d.first,
                    d.second,
                    pp(d.difference),
                    f"{d.z:+.2f}",
                    p_cell(d.p),
                    p_cell(d.p_holm),
                    "yes" if d.paired else "no",
                ]
                for d in found.differences
            ],
            "does the skill spread differ between rule sets? z test of the difference of two "
            "spreads; paired by deal when both tournaments share the seed (same deals), "
            f"Holm-corrected over {len(found.differences)} pair(s) of tournaments",
        )
