"""The Answers section that opens every summary and report: a few plain sentences.

Each sentence quotes an estimate with its 95% interval and sample size, then a verdict
whose words follow from those numbers alone:

- the first mover's edge "helps" / "hurts" only when the exact binomial test gives
  p < 0.05 *and* the edge's interval lies on that side of zero; "no detectable edge" when
  neither; "borderline" when the two disagree;
- a comeback gap "lowers" / "raises" the win chance only when its interval excludes zero;
- a tournament's strategy "is strongest" ("weakest") only when its win share's interval
  lies above (below) every other strategy's interval (non-overlapping 95% intervals imply
  a difference at the 5% level whatever the two estimates' correlation);
- a sweep measure "differs across the sweep" only when the intervals of its lowest and
  highest point do not overlap;
- a skill spread "rejects equal strengths" only when the range (max-statistic) test of
  every strategy's share, which allows for picking best and worst after looking, gives
  p < 0.05;
- a comparison quotes the verdict line of :mod:`uno_stats.present.verdicts` (Holm p and
  interval agree, else "borderline");
- a sweep's effects quote, per main metric, the sentence of
  :func:`uno_stats.present.effects.metric_sentence` on its largest main effect or
  interaction (a term "clearly" changes a metric only at Holm p < 0.05).

Runs of a sweep or a tournament are answered per sweep or tournament, other runs one by one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from uno_stats.analysis.compare import RunComparison
from uno_stats.analysis.effects import SweepEffects
from uno_stats.analysis.estimates import Estimate, format_p, proportion
from uno_stats.analysis.first_mover import FirstMover
from uno_stats.analysis.point_answers import Answered
from uno_stats.analysis.questions import (
    LengthStats,
    MatchLength,
    RunAnswers,
    StatusCounts,
    SweepGroup,
)
from uno_stats.analysis.round_events import MercyRule
from uno_stats.analysis.seats import ComebackCurve
from uno_stats.analysis.tournament import SkillSpread, SpreadDifference, Tournaments
from uno_stats.analysis.tournament import TournamentTable as Table
from uno_stats.present.comparison import comparison_verdict, never_changed_text, unchanged_runs
from uno_stats.present.document import Document
from uno_stats.present.effects import answers as effect_answers
from uno_stats.present.effects_sections import MAIN_METRICS
from uno_stats.present.measures import COMEBACK_K, Measure, measures_for, shown
from uno_stats.present.sections import num

ALPHA = 0.05
ANSWER_METRICS = (
    "mean_turns",
    "first_mover_win_rate",
    "first_mover_edge",
    "seat0_win_rate",
    f"comeback{COMEBACK_K}_rate",
    "mean_match_rounds",
)
"""Metrics whose comparison verdicts open a compare output or a report of a few runs."""
MAX_COMPARED = 4


def side(e: Estimate, reference: float = 0.0) -> int:
    """+1 when the interval lies above ``reference``, -1 below, 0 when it holds it."""
    if e.low > reference:
        return 1
    if e.high < reference:
        return -1
    return 0


def _pct(e: Estimate, k: int = 1) -> str:
    """``26.6% (95% CI 26.4 to 26.8%)``."""
    return f"{100 * e.value:.{k}f}% (95% CI {100 * e.low:.{k}f} to {100 * e.high:.{k}f}%)"


def length_answer(name: str, n: LengthStats) -> str:
    """How long a round lasts: mean with its interval, median, rounds."""
    return (
        f"{name}: a round lasts {num(n.mean.value)} turns on average (95% CI "
        f"{num(n.mean.low)} to {num(n.mean.high)}; median {num(n.median.value, 1)}), "
        f"over {n.n:,} rounds."
    )


def match_answer(name: str, match: MatchLength | None) -> str | None:
    """How long a match lasts, for runs that play matches."""
    if match is None:
        return None
    m = match.length
    return (
        f"{name}: a match lasts {num(m.mean.value)} rounds on average (95% CI "
        f"{num(m.mean.low)} to {num(m.mean.high)}), over {m.n:,} matches."
    )


def first_mover_verdict(edge: Estimate, p: float, alpha: float = ALPHA) -> str:
    """The words for the first mover's edge (see the module doc)."""
    where, small = side(edge), p < alpha
    if small and where > 0:
        return "moving first helps"
    if small and where < 0:
        return "moving first hurts"
    if not small and where == 0:
        return "no detectable first-mover edge"
    return "a borderline first-mover edge (the test and the interval disagree)"


def first_mover_answer(name: str, f: FirstMover | None, mixed: bool = False) -> str | None:
    """The first mover's share of won rounds against the fair share, with the verdict."""
    if f is None:
        return None
    caveat = " Strategies differ by seat here, so this mixes seat and strategy." if mixed else ""
    return (
        f"{name}: the first mover wins {_pct(f.first)} of {f.n_won:,} won rounds "
        f"against a fair {100 * f.fair:.1f}%: {first_mover_verdict(f.edge, f.edge_p)} "
        f"(edge {100 * f.edge.value:+.2f} pp, {format_p(f.edge_p)}).{caveat}"
    )


def comeback_verdict(gap: Estimate) -> str:
    """The words for a comeback gap (rate behind minus rate never behind)."""
    where = side(gap)
    if where < 0:
        return "falling behind lowers the win chance"
    if where > 0:
        return "falling behind raises the win chance"
    return "no detectable difference"


def comeback_answer(name: str, c: ComebackCurve | None, k: int = COMEBACK_K) -> str | None:
    """P(win | ever k+ cards behind) against P(win | never that far behind)."""
    if c is None or k not in c.ks:
        return None
    i = c.ks.index(k)
    rate, never, gap = c.rates[i], c.never[i], c.gap[i]
    if rate.n == 0 or never.n == 0:
        return None
    g = [100 * x for x in (gap.value, gap.low, gap.high)]
    return (
        f"{name}: a player ever {k} or more cards behind the smallest hand wins "
        f"{_pct(rate)} of those {rate.n:,} seat-rounds, against {100 * never.value:.1f}% for "
        f"one never that far behind: {comeback_verdict(gap)} (gap {g[0]:+.2f} pp, 95% CI "
        f"{g[1]:+.2f} to {g[2]:+.2f})."
    )


def outcome_answer(name: str, s: StatusCounts) -> str | None:
    """Rounds that did not end with a player going out (void, capped, exhausted: an
    exhausted round may still have a winner), only when there are any."""
    missing = s.n - s.counts[0]
    if missing == 0:
        return None
    parts = [
        f"{count:,} {name}"
        for count, name in zip(s.counts[1:], ("void", "capped", "exhausted"), strict=True)
        if count
    ]
    lost = proportion(missing, s.n)
    return (
        f"{name}: {missing:,} of {s.n:,} rounds, {_pct(lost, 2)}, did not end with a "
        f"player going out ({', '.join(parts)})."
    )


def mercy_answer(name: str, m: MercyRule | None) -> str | None:
    """How often the mercy rule decided the round (RULES.md S22), when it knocked anyone out."""
    if m is None or m.any_out.value == 0:
        return None
    return (
        f"{name}: the mercy rule ended {_pct(m.last_standing)} of {m.n:,} rounds (won by the "
        f"last player standing) and knocked someone out in {_pct(m.any_out)}; "
        f"{m.eliminated.value:.2f} knock-outs per round (95% CI {m.eliminated.low:.2f} to "
        f"{m.eliminated.high:.2f})."
    )


def run_answers(a: RunAnswers, alone: bool = True) -> list[str]:
    """The sentences about one run: length, match length, first mover, rounds without a
    winner and (``alone``: the run is the only one answered) the comeback rate."""
    name = a.run.name
    found = (
        length_answer(name, a.length),
        match_answer(name, a.match),
        first_mover_answer(name, a.first_mover, a.mixed),
        comeback_answer(name, a.comeback) if alone else None,
        outcome_answer(name, a.status),
        mercy_answer(name, a.events.mercy),
    )
    return [s for s in found if s is not None]


def _names(labels: Sequence[str]) -> str:
    """``a's``, ``a's and b's``, ``a's, b's and c's``."""
    owned = [f"{x}'s" for x in labels]
    return owned[0] if len(owned) == 1 else f"{', '.join(owned[:-1])} and {owned[-1]}"


def _extreme(t: Table, strongest: bool) -> str:
    rows = sorted(t.rows, key=lambda r: r.win.value, reverse=strongest)
    top, rest = rows[0], rows[1:]
    if strongest:
        overlapping = [r.label for r in rest if not top.win.low > r.win.high]
        word, where, extreme = "strongest", "above", "highest"
    else:
        overlapping = [r.label for r in rest if not top.win.high < r.win.low]
        word, where, extreme = "weakest", "below", "lowest"
    if not overlapping:
        return (
            f"{top.label} is {word}: it wins {_pct(top.win)} of its seat-rounds against a fair "
            f"{100 * t.fair:.1f}%, and that interval lies {where} every other strategy's"
        )
    return (
        f"no single {word} strategy: {top.label} has the {extreme} win share, "
        f"{_pct(top.win)}, but its interval overlaps {_names(overlapping)}"
    )


def tournament_answer(t: Table) -> str:
    """The plain verdict of a tournament: which strategy is strongest and which weakest."""
    basis = (
        f"{t.name} ({t.n_won:,} won rounds over {t.games.size:,} deals, "
        f"{'seated at random' if t.random_seating else 'every strategy in every seat'})"
    )
    text = f"{basis}: {_extreme(t, True)}"
    if len(t.rows) > 2:
        text += f"; {_extreme(t, False)}"
    return text + "."


def spread_answer(s: SkillSpread) -> str:
    """How far apart the best and worst strategy are in one tournament."""
    g = [100 * x for x in (s.spread.value, s.spread.low, s.spread.high)]
    name = ", ".join([s.name, *s.same_as])
    test = (
        f"the range test rejects equal strengths, {format_p(s.p)}"
        if s.p < ALPHA
        else f"the range test does not reject equal strengths, {format_p(s.p)}"
    )
    return (
        f"Skill under {' = '.join([s.preset, *s.same_presets])} ({name}): the best strategy "
        f"({s.best}) wins {g[0]:.2f} pp more of its seat-rounds than the worst ({s.worst}) "
        f"(95% CI {g[1]:.2f} to {g[2]:.2f} pp, {s.spread.n:,} deals; best and worst are "
        f"picked after looking, so the gap leans high; {test})."
    )


def difference_answer(differences: Sequence[SpreadDifference], alpha: float = ALPHA) -> str:
    """Whether the skill spread differs between rule sets (Holm over the pairs)."""
    found = []
    for d in differences:
        where = side(d.difference)
        if d.p_holm < alpha and where != 0:
            more, less = (d.first, d.second) if where > 0 else (d.second, d.first)
            v = [100 * x for x in (d.difference.value, d.difference.low, d.difference.high)]
            found.append(
                f"{more} rewards skill more than {less} (difference {v[0]:+.2f} pp, 95% CI "
                f"{v[1]:+.2f} to {v[2]:+.2f}, Holm {format_p(d.p_holm)})"
            )
    if not found:
        return (
            f"No two tournaments' spreads differ detectably ({len(differences)} pair(s), "
            f"every Holm p >= {alpha} or its interval holding zero)."
        )
    return f"Between rule sets: {'; '.join(found)}."


def sweep_verdict(low: Estimate, high: Estimate) -> str:
    """Whether a sweep's lowest and highest point differ (non-overlapping intervals)."""
    if high.low > low.high:
        return "it differs across the sweep (the two intervals do not overlap)"
    return "the two intervals overlap, so this range alone shows no difference"


POINT_WORDS = 60
"""A sweep point is named by its values up to this many characters, else by its number."""
LISTED_POINTS = 4
"""An answer lists at most this many points on one side of a reference, else counts them."""


def _point(run_point: dict[str, object], number: int) -> str:
    """``players=4``, or ``(players=4, rules.reshuffle=True)`` for a point of several keys;
    ``point #17`` (its row ``#`` of the sweep table) when its values would be longer than
    :data:`POINT_WORDS` (five rules and more)."""
    text = ", ".join(f"{k}={v}" for k, v in run_point.items())
    if len(text) > POINT_WORDS:
        return f"point #{number}"
    return f"({text})" if len(run_point) > 1 else text


def sweep_answer(g: SweepGroup, m: Measure, by_path: Mapping[str, Answered]) -> str | None:
    """One measure across a sweep: its lowest and highest point, and whether they differ."""
    points = []
    for number, run in enumerate(g.runs, 1):
        e = m.value(by_path[str(run.path)])
        if e is not None:
            points.append((_point(run.manifest.sweep_assignment or {}, number), e))
    if len(points) < 2:
        return None
    if m.reference is not None:
        return _reference_answer(g, m, points)
    (at_low, low), (at_high, high) = (
        min(points, key=lambda p: p[1].value),
        max(points, key=lambda p: p[1].value),
    )
    return (
        f"Sweep {g.name}: {m.label} runs from {shown(m, low)} at {at_low} to "
        f"{shown(m, high)} at {at_high}; {sweep_verdict(low, high)}."
    )


def _reference_answer(g: SweepGroup, m: Measure, points: Sequence[tuple[str, Estimate]]) -> str:
    """A measure with a reference (an edge around zero): the points whose interval lies
    above it, below it or holds it, and the point farthest from it."""
    ref = m.reference or 0.0
    mark = "zero" if ref == 0 else f"{ref:g}"
    words = {1: "lies above", -1: "lies below", 0: "holds"}
    parts = []
    for where in (1, -1, 0):
        at = [label for label, e in points if side(e, ref) == where]
        if len(at) > LISTED_POINTS:
            parts.append(f"{words[where]} {mark} at {len(at)} of the {len(points)} points")
        elif at:
            parts.append(f"{words[where]} {mark} at {', '.join(at)}")
    at_top, top = max(points, key=lambda p: abs(p[1].value - ref))
    return (
        f"Sweep {g.name}: the interval of the {m.label} {'; '.join(parts)}; the farthest from "
        f"{mark} is {shown(m, top)} at {at_top}."
    )


def sweep_mercy_answer(g: SweepGroup, by_path: Mapping[str, Answered]) -> str | None:
    """How often the mercy rule (RULES.md S22) ended a round at each point of a sweep that
    knocked anyone out (the lowest and highest when more than :data:`LISTED_POINTS`), and
    at how many points it never did; None when it never did."""
    knocked, never = [], []
    for number, run in enumerate(g.runs, 1):
        a = by_path.get(str(run.path))
        if not isinstance(a, RunAnswers):  # not answered here, or a point answered alone
            continue  # (its main answers only: no round events)
        label = _point(run.manifest.sweep_assignment or {}, number)
        m = a.events.mercy
        if m is not None and m.any_out.value > 0:
            knocked.append((label, m))
        else:
            never.append(label)
    if not knocked:
        return None
    knocked.sort(key=lambda p: p[1].last_standing.value)
    shown_points = knocked if len(knocked) <= LISTED_POINTS else [knocked[0], knocked[-1]]
    listed = "; ".join(
        f"{_pct(m.last_standing)} of {m.n:,} rounds at {label}" for label, m in shown_points
    )
    lead = (
        ""
        if len(shown_points) == len(knocked)
        else f"from the lowest to the highest of {len(knocked)} points: "
    )
    tail = ""
    if never:
        where = ", ".join(never) if len(never) <= LISTED_POINTS else f"{len(never)} points"
        tail = f"; it knocked no one out at {where}"
    return (
        f"Sweep {g.name}: the mercy rule ended (the last player standing won) {lead}{listed}{tail}."
    )


BRIEF_MEASURES = ("mean_turns", "first_mover_edge", "mean_match_rounds")
"""The measures a brief answer (the terminal summary after a sweep's ``run``) keeps."""


def sweep_answers(
    g: SweepGroup,
    by_path: Mapping[str, Answered],
    compared: frozenset[str] = frozenset(),
    brief: bool = False,
) -> list[str]:
    """Every main measure across one sweep (``brief``: those of :data:`BRIEF_MEASURES`),
    but those whose paired comparison (a metric in ``compared``) is quoted instead."""
    members = [by_path[str(r.path)] for r in g.runs]
    shown = [m for m in measures_for(members) if m.metric is None or m.metric not in compared]
    shown = [m for m in shown if not brief or m.key in BRIEF_MEASURES]
    found = (sweep_answer(g, m, by_path) for m in shown)
    return [s for s in found if s is not None]


def comparison_answers(
    results: Sequence[RunComparison], metrics: Sequence[str] | None = None
) -> list[str]:
    """The verdict lines of the answer metrics (all of them when ``metrics`` were asked)."""
    wanted = set(metrics) if metrics else set(ANSWER_METRICS)
    unchanged = unchanged_runs(results)
    lines = []
    for r in results:
        if r.run.name in unchanged:
            if unchanged[r.run.name] is r:
                lines.append(never_changed_text(r))
        elif r.comparison.metric in wanted:
            lines.append(comparison_verdict(r))
    return lines


def answer_sentences(
    answers: Sequence[Answered],
    groups: Sequence[SweepGroup] = (),
    found: Tournaments | None = None,
    comparisons: Sequence[RunComparison] = (),
    settled: Sequence[str] = (),
    brief: bool = False,
    effects: Sequence[SweepEffects] = (),
    skill: Sequence[str] = (),
) -> list[str]:
    """Tournaments, sweeps (without the measures a quoted comparison answers), the
    comparison verdicts of :data:`ANSWER_METRICS` (up to :data:`MAX_COMPARED` runs; a
    report of more runs answers per sweep instead), then the
    runs outside sweeps and tournaments one by one; every run on its own when none of
    those answers anything (a sweep of one point, a tournament of one seating).

    ``settled``: the verdict lines of settles among the runs; they come first, and the
    fixed-sample comparison verdicts (secondary to them) are left to the Rule effect.
    ``brief``: a sweep answers with :data:`BRIEF_MEASURES` only. ``effects``: the effects
    of sweeps among the runs; their sentences on the main metrics come right after the
    settles, before the sweeps' ranges (which name points, not rules). ``skill``: the
    answers of skill studies (:mod:`uno_stats.present.skill_sections`), first after the
    settles; then how often the mercy rule ended a round in each sweep where it knocked
    anyone out (:func:`sweep_mercy_answer`), before the effects."""
    out: list[str] = [*settled, *skill]
    by_path = {str(a.run.path): a for a in answers}
    for g in groups:  # No Mercy's own question first: how often the mercy rule ended a round
        if all(r.manifest.tournament for r in g.runs):
            continue
        mercy = sweep_mercy_answer(g, by_path)
        out += [mercy] if mercy else []
    for result in effects:
        name = result.sweep.name
        out += [f"Effects in {name}: {line}" for line in effect_answers(result, MAIN_METRICS)]
    if found is not None:
        out += [tournament_answer(t) for t in found.tables]
        out += [spread_answer(s) for s in found.spreads]
        if found.differences:
            out.append(difference_answer(found.differences))
    grouped = {str(r.path) for g in groups for r in g.runs}
    few = len(answers) <= MAX_COMPARED and not settled
    quoted = comparison_answers(comparisons) if few else []
    compared = frozenset(r.comparison.metric for r in comparisons) if quoted else frozenset()
    for g in groups:
        if not all(r.manifest.tournament for r in g.runs):
            out += sweep_answers(g, by_path, compared, brief)
    out += quoted
    # a sweep point's main answers alone (PointAnswers) are only ever answered per sweep
    whole = [a for a in answers if isinstance(a, RunAnswers)]
    alone = [a for a in whole if str(a.run.path) not in grouped and not a.run.manifest.tournament]
    if len(out) == len(settled) and not alone:
        alone = whole
    for a in alone:
        out += run_answers(a, alone=len(alone) == 1)
    return out


def answers_section(
    doc: Document,
    answers: Sequence[Answered],
    groups: Sequence[SweepGroup] = (),
    found: Tournaments | None = None,
    comparisons: Sequence[RunComparison] = (),
    settled: Sequence[str] = (),
    brief: bool = False,
    effects: Sequence[SweepEffects] = (),
    skill: Sequence[str] = (),
) -> None:
    """The Answers heading and one paragraph per sentence of :func:`answer_sentences`."""
    doc.heading("Answers")
    lines = answer_sentences(answers, groups, found, comparisons, settled, brief, effects, skill)
    for sentence in lines:
        doc.para(sentence)
