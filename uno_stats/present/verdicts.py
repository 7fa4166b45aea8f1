"""Verdict sentences for comparisons: one plain-words line per metric, and the pairing line.

Every sentence that names a direction (longer, shorter, higher, lower, raises, lowers,
tend to be higher/lower) is only written when the Holm-corrected p is below alpha *and*
the 95% difference interval printed with it lies on that side of zero; a test that
rejects while its interval still holds zero is called "borderline". The interval is always
printed signed (b - a), so :func:`check_verdict` can re-read any line and check it.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from uno_stats.analysis.compare import Pairing
from uno_stats.analysis.estimates import format_p
from uno_stats.analysis.metrics import RATE_KINDS, Equivalence, MetricComparison, metric_spec

if TYPE_CHECKING:
    from uno_stats.debates.settle_record import SettleRecord

ALPHA = 0.05
UP_WORDS = ("longer", "higher", "raises")
DOWN_WORDS = ("shorter", "lower", "lowers")


def pairing_text(p: Pairing, a_name: str, b_name: str, same_table: bool = True) -> str:
    """How the two runs are compared: paired by common random numbers, or independent.

    ``same_table``: both runs seat the same number of players and play the same deck
    (otherwise game k draws on the same random numbers but cannot deal the same hands).
    """
    if p.paired:
        start = "start from the same deal" if same_table else "draw on the same random numbers"
        return (
            f"{b_name} vs {a_name}: paired (same seed: game k of {a_name} and game k of "
            f"{b_name} {start}), so paired methods are used."
        )
    if p.seed_a != p.seed_b:
        why = f"seeds {p.seed_a} and {p.seed_b}"
    else:
        why = f"same seed but {p.games_a} and {p.games_b} games"
    return f"{b_name} vs {a_name}: independent samples ({why}), so two-sample methods are used."


def _signed(x: float, digits: int) -> str:
    """``x`` with an explicit sign, never "-0.00"."""
    if not math.isfinite(x):
        return "n/a"
    rounded = round(x, digits) or 0.0
    return f"{rounded:+.{digits}f}"


def _digits(*xs: float) -> int:
    """Decimals that give the smallest nonzero number of ``xs`` two significant digits."""
    finite = [abs(x) for x in xs if math.isfinite(x) and x != 0]
    if not finite:
        return 2
    return max(0, min(6, 1 - math.floor(math.log10(min(finite)))))


def p_text(c: MetricComparison) -> str:
    """The p-value as printed: Holm-corrected when the family has more than one test."""
    text = format_p(c.p_holm)
    return ("Holm " + text) if c.family > 1 else text


def _change(c: MetricComparison) -> str:
    """The signed difference b - a with its 95% interval, in pp for rates."""
    d = c.difference
    if c.kind in RATE_KINDS:
        v, lo, hi = (100 * x for x in (d.value, d.low, d.high))
        k = max(2, _digits(lo, hi))
        return f"{_signed(v, k)} pp, 95% CI {_signed(lo, k)} to {_signed(hi, k)} pp"
    k = _digits(d.low, d.high, d.high - d.low)
    unit = f" {c.unit}" if c.unit else ""
    return f"{_signed(d.value, k)}{unit}, 95% CI {_signed(d.low, k)} to {_signed(d.high, k)}"


def _n_text(c: MetricComparison) -> str:
    n_a, n_b = c.baseline.n, c.other.n
    if c.paired and c.kind == "comeback":  # paired by game; the rates count seat-rounds
        return f"{c.difference.n:,} paired games"
    if c.paired:
        return f"{n_a:,} paired games"
    return f"n = {n_a:,} each" if n_a == n_b else f"n = {n_a:,} and {n_b:,}"


def _equivalence_text(e: Equivalence, c: MetricComparison) -> str:
    rate = c.kind in RATE_KINDS
    scale, unit = (100, " pp") if rate else (1, f" {c.unit}" if c.unit else "")
    k = 2 if rate else _digits(e.bound, e.high - e.low)
    bound = f"+-{scale * e.bound:.{k}f}{unit}"
    within = f"margin +-{e.margin.text()} = {bound}; 90% CI {_signed(scale * e.low, k)} to "
    within += f"{_signed(scale * e.high, k)}"
    if e.outcome == "same":
        return f"Equivalence: practically the same (within +-{e.margin.text()}; {within})."
    if e.outcome == "different":
        return f"Equivalence: different, by more than the margin ({within}; 95% CI outside it)."
    more = (
        f"about {e.games_needed:,} games per run would decide it if the estimate holds"
        if e.games_needed
        else "the estimate sits on the margin, so more games may never decide it"
    )
    return f"Equivalence: undecided at this sample size ({within}); {more}."


def verdict(
    c: MetricComparison,
    a_name: str,
    b_name: str,
    players: int | None = None,
    alpha: float = ALPHA,
) -> str:
    """One plain-words line: the effect of b against baseline a on ``c``'s metric."""
    line = _verdict(c, a_name, b_name, players, alpha)
    if c.equivalence is not None:
        line += " " + _equivalence_text(c.equivalence, c)
    return line


def _verdict(
    c: MetricComparison, a_name: str, b_name: str, players: int | None, alpha: float
) -> str:
    if c.status == "identical":
        return (
            f"{b_name} vs {a_name}: the rule difference never changed a game's {c.label} "
            f"(every one of {c.baseline.n:,} paired games gave the same value); nothing to test."
        )
    if c.status == "absent":
        return (
            f"{b_name} vs {a_name}: {c.label} is zero in every round of both runs; nothing to test."
        )
    tail = f"{p_text(c)}, {_n_text(c)}"
    significant = c.p_holm < alpha
    if c.kind == "distribution":
        if not significant:
            return (
                f"{b_name} vs {a_name}: no detectable difference in the {c.label} "
                f"({c.test}, {c.effect_name} = {c.effect:+.3f}; {tail})."
            )
        word = "higher" if c.direction > 0 else "lower"
        return (
            f"{b_name} vs {a_name}: the {c.label} differs; {b_name}'s values tend to be {word} "
            f"({c.test}, {c.effect_name} = {c.effect:+.3f}; {tail})."
        )
    change = _change(c)
    if not significant:
        return f"{b_name} vs {a_name}: no detectable difference in {c.label} ({change}; {tail})."
    d = c.difference
    agrees = (c.direction > 0 and d.low > 0) or (c.direction < 0 and d.high < 0)
    if not agrees:
        return (
            f"{b_name} vs {a_name}: borderline difference in {c.label}: the {c.test} test gives "
            f"{tail}, but the 95% CI includes zero ({change})."
        )
    up = c.direction > 0
    if c.kind in RATE_KINDS:
        word = "raises" if up else "lowers"
        return (
            f"{b_name} {word} the {c.label} from {100 * c.baseline.value:.2f}% to "
            f"{100 * c.other.value:.2f}% against {a_name} ({change}; {tail})."
        )
    rel = ""
    if math.isfinite(c.ratio.value) and c.ratio.value != 1:
        rel = f"{abs(100 * (c.ratio.value - 1)):.1f}% "
    if c.unit in ("turns", "rounds"):
        subject = (
            "matches"
            if c.unit == "rounds"
            else (f"{players}-player rounds" if players else "rounds")
        )
        word = "longer" if up else "shorter"
        return (
            f"{b_name} makes {subject} {rel}{word} than {a_name} in {c.label} ({change}; {tail})."
        )
    word = "higher" if up else "lower"
    return f"{b_name} has {rel}{word} {c.label} than {a_name} ({change}; {tail})."


_P = re.compile(r"p ([<=]) ([0-9.eE+-]+)")
_CI = re.compile(r"95% CI ([+-][0-9.]+|n/a) to ([+-][0-9.]+|n/a)")
_R = re.compile(r"= ([+-][0-9.]+);")


def check_verdict(line: str, alpha: float = ALPHA) -> str | None:
    """Why a verdict line contradicts itself (direction vs p-value vs interval), or None.

    A line naming a direction must have p < alpha and its 95% CI on that side of zero (a
    distribution row: its effect size of that sign); "no detectable difference" needs
    p >= alpha.
    """
    words = set(re.findall(r"[a-z]+", line.lower()))
    m = _P.search(line)
    if m is None:
        return None if "nothing to test" in line else "no p-value"
    p = float(m[2])
    small = m[1] == "<" or p < alpha
    if "no detectable difference" in line:
        return "p below alpha but 'no detectable difference'" if small else None
    if "borderline" in line:
        return None
    up, down = bool(words & set(UP_WORDS)), bool(words & set(DOWN_WORDS))
    if up == down:
        return "no single direction"
    if not small:
        return "a direction with p >= alpha"
    if "differs" in line:
        r = _R.search(line)
        if r is None or (float(r[1]) > 0) != up:
            return "direction disagrees with the effect size"
        return None
    ci = _CI.search(line)
    if ci is None or "n/a" in (ci[1], ci[2]):
        return "no interval"
    low, high = float(ci[1]), float(ci[2])
    if (up and not low > 0) or (down and not high < 0):
        return "direction disagrees with the interval"
    return None


def _stopped(r: SettleRecord, unit_games: str) -> str:
    """How a settle stopped: at which look, after how many games, and why."""
    if r.stopped == "decided":
        return f"decided at look {r.looks:,} of at most {math.ceil(r.max_games / r.batch):,}"
    return f"undecided at all {r.looks:,} looks of {r.batch:,} {unit_games}"


def settle_text(r: SettleRecord) -> str:
    """The one verdict line of ``settle``: outcome, both values, the difference and its
    confidence sequence, games used and time (re-rendered from the record by reports)."""
    spec = metric_spec(r.metric)
    rate = spec.kind in RATE_KINDS
    scale, unit = (100, " pp") if rate else (1, f" {spec.unit}" if spec.unit else "")
    k = max(2 if rate else 0, _digits(scale * r.low, scale * r.high, scale * (r.high - r.low)))
    v = max(2 if rate else 1, _digits(scale * (r.high - r.low)))  # values: to the width
    if rate:
        values = f"{scale * r.value_b:.{v}f}% vs {scale * r.value_a:.{v}f}%"
    else:
        values = f"{r.value_b:.{v}f} vs {r.value_a:.{v}f}{unit}"
    interval = (
        f"{values}: {_signed(scale * r.estimate, k)}{unit}, "
        f"{round(100 * (1 - r.alpha))}% confidence sequence "
        f"{_signed(scale * r.low, k)} to {_signed(scale * r.high, k)}"
    )
    a_name, b_name = r.a, r.b
    names = f"{b_name} vs {a_name}"
    unit_games = "matches" if spec.column == "match_rounds" else "games"
    where = f"{r.games:,} paired {unit_games} in {r.seconds:.1f} s, {_stopped(r, unit_games)}"
    margin = ""
    if r.margin is not None and r.bound is not None:
        margin = f"; margin +-{r.margin} = +-{scale * r.bound:.{k}f}{unit}"
    if r.outcome == "different":
        up = r.estimate > 0
        if spec.unit in ("turns", "rounds"):
            subject = "matches" if spec.unit == "rounds" else "rounds"
            word = "longer" if up else "shorter"
            effect = f"{b_name} makes {subject} {word} than {a_name} in {spec.label}"
        else:
            word = "higher" if up else "lower"
            effect = f"{b_name} has a {word} {spec.label} than {a_name}"
        what = "different" if r.margin is None else "different by more than the margin"
        what = f"{what}: {effect}"
    elif r.outcome == "same":
        what = f"practically the same {spec.label}, within +-{r.margin or ''}"
    elif r.changed_games == 0:
        what = (
            f"undecided at the maximum of {r.max_games:,} games: the rule difference never "
            f"changed a game's {spec.label}"
        )
    else:
        what = f"undecided on the {spec.label} at the maximum of {r.max_games:,} games"
    return f"{names}: {what} ({interval}{margin}; {where})."
