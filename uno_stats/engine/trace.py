"""Trace events as text: a round move by move, as ``uno-stats trace`` prints it."""

from __future__ import annotations

import numpy as np

from uno_stats.engine import events as E
from uno_stats.engine.cards import COLOR_NAMES, card_name
from uno_stats.engine.schema import STATUS_NAMES

_DRAW_REASONS = {
    E.DRAW_TURN: "draws",
    E.DRAW_PENALTY: "draws (penalty)",
    E.DRAW_CHALLENGE: "draws (challenge)",
    E.DRAW_UNO: "draws (UNO penalty)",
    E.DRAW_MISTAKE: "draws (invalid-play penalty)",
    E.DRAW_FINAL: "draws (final penalty)",
    E.DRAW_ROULETTE: "turns up (Color Roulette)",
}
_PLAY_HOW = {
    E.PLAY_NORMAL: "plays",
    E.PLAY_DRAWN: "plays the drawn",
    E.PLAY_STACK: "stacks",
    E.PLAY_JUMP: "jumps in with",
    E.PLAY_DEFLECT: "deflects the pending draw with",
    E.PLAY_MULTI: "adds",
}
_LOSE_REASONS = {
    E.LOST_TO_SKIP: "skipped",
    E.LOST_TO_PENALTY: "loses the turn to the penalty",
    E.LOST_TO_CHALLENGE: "loses the turn (challenge lost)",
}
_UNO = {
    E.UNO_CALLED: "calls UNO",
    E.UNO_FORGOT: "forgets to call UNO, nobody catches it",
    E.UNO_CAUGHT: "forgets to call UNO and is caught",
}
_TURNED_UP = {
    E.TURN_UP_COVERED: "covered by the next card",
    E.TURN_UP_KEPT: "opens the discard pile",
    E.TURN_UP_RETURNED: "goes back; reshuffle",
}


def _direction(d: int) -> str:
    return "clockwise" if d > 0 else "counterclockwise"


_SEARCH_SPECIAL = {
    E.SEARCH_DRAW: "drawing instead",
    E.SEARCH_CHALLENGE: "challenging",
    E.SEARCH_DECLINE: "drawing the pending total",
}


def _searched_move(what: int, detail: int) -> str:
    """A move search weighed (EV_SEARCH): a card with the color it names, the seat it swaps
    with and whether it is a bluff, or drawing or challenging."""
    if what in _SEARCH_SPECIAL:
        return _SEARCH_SPECIAL[what]
    text = card_name(what)
    if detail & 7:
        text += f" naming {COLOR_NAMES[(detail & 7) - 1]}"
    if (detail >> 3) & 31:
        text += f" swapping with seat {((detail >> 3) & 31) - 1}"
    if detail >> 8 & 1:
        text += " (a bluff)"
    return text


def _line(ev: np.ndarray) -> str | None:
    kind, seat, a, b, c, d = (int(x) for x in ev)
    s = f"seat {seat}"
    if kind == E.EV_TURN:
        return f"turn {a}: {s} to play on {card_name(b)} ({COLOR_NAMES[c]}, {_direction(d)})"
    if kind == E.EV_PLAY:
        return f"  {s} {_PLAY_HOW[b]} {card_name(a)} ({c} left)"
    if kind == E.EV_COLOR:
        return f"  {s} names {COLOR_NAMES[a]}"
    if kind == E.EV_DRAW:
        return f"  {s} {_DRAW_REASONS[b]} {card_name(a)}"
    if kind == E.EV_PASS:
        return f"  {s} passes: nothing playable, nothing to draw"
    if kind == E.EV_LOSE_TURN:
        return f"  {s} {_LOSE_REASONS[a]}"
    if kind == E.EV_REVERSE:
        return f"  direction is now {_direction(a)}"
    if kind == E.EV_PENALTY:
        return f"  {s} owes {a} card(s) ({_DRAW_REASONS[b].split('(')[-1].rstrip(')')})"
    if kind == E.EV_CHALLENGE:
        verdict = "illegal: the player draws 4" if b else "legal: the challenger pays"
        return f"  {s} challenges seat {a}'s Wild Draw Four: {verdict}"
    if kind == E.EV_UNO:
        return f"  {s} {_UNO[a]}"
    if kind == E.EV_SWAP:
        return f"  {s} swaps hands with seat {a}"
    if kind == E.EV_ROTATE:
        return f"  every hand passes one seat {_direction(a)}"
    if kind == E.EV_SHUFFLE_HANDS:
        return f"  {s} shuffles all {a} cards in hand and deals them from their left"
    if kind == E.EV_REFILL:
        return f"  the discards are shuffled into a new draw pile ({a} cards)"
    if kind == E.EV_MISTAKE:
        return f"  {s} tries {card_name(a)}, which does not fit, and takes it back"
    if kind == E.EV_STACK:
        return f"  the pending draw total is now {a}"
    if kind == E.EV_EXTRA_TURN:
        return f"  {s} takes another turn (Wild Customizable)"
    if kind == E.EV_JUMP:
        return f"turn: {s} jumps in on seat {a}'s {card_name(b)}"
    if kind == E.EV_KEEP:
        return f"  {s} keeps the drawn {card_name(a)}"
    if kind == E.EV_VOLUNTARY:
        return f"  {s} draws instead of playing"
    if kind == E.EV_TURN_UP:
        return f"turned up: {card_name(a)} ({_TURNED_UP[b]})"
    if kind == E.EV_MULTI:
        return f"  {s} plays {a} cards together (multi-play), {card_name(c)} last, on top"
    if kind == E.EV_DEFLECT:
        return f"  the pending draw total ({a}) now falls to {s}"
    if kind == E.EV_EXHAUSTED:
        who = f"seat {a} wins (exhausted_winner)" if a >= 0 else "a tie for fewest: no winner"
        return f"  {s} finds the draw pile empty (reshuffle: false): round over, {who}"
    if kind == E.EV_IGNORED:
        return f"  the opening {card_name(a)} has no effect (opening_action: ignore)"
    if kind == E.EV_SEARCH:
        basic = ", basic's choice" if b >> 9 & 1 else ""
        return (
            f"  {s} weighs {_searched_move(a, b)}: estimated win chance {c / 10:.1f}% "
            f"({d} rollouts{basic})"
        )
    if kind == E.EV_KNOCKOUT:
        return f"  {s} holds {a} cards: knocked out by the mercy rule ({b}. out)"
    if kind == E.EV_SKIP_ALL:
        return f"  every other seat is skipped: {s} plays again"
    if kind == E.EV_DISCARD_ALL:
        return f"  {s} discards all its {COLOR_NAMES[a]} cards ({b} more)"
    if kind == E.EV_ROULETTE:
        return f"  seat {b} names {COLOR_NAMES[a]}: {s} turns up cards until one shows"
    if kind == E.EV_START:
        return f"seat {seat} starts, {_direction(b)}, color {COLOR_NAMES[c]}; dealer seat {a}"
    if kind == E.EV_END:
        status = STATUS_NAMES[a]
        if status == "won":
            return f"round over after {b} turns: seat {seat} wins"
        if status == "exhausted" and seat >= 0:  # S17: the fewest cards (or points) win
            return f"round over after {b} turns: exhausted, seat {seat} wins"
        return f"round over after {b} turns: {status}"
    return None  # EV_DEAL and EV_HAND are summarised as hands, not printed one by one


def _hands_line(hands: dict[int, list[int]]) -> list[str]:
    return [
        f"  seat {s}: " + ", ".join(card_name(c) for c in sorted(cards))
        for s, cards in sorted(hands.items())
    ]


def describe(
    events: np.ndarray,
    players: int,
    cols: dict[str, np.ndarray] | None = None,
    truncated: bool = False,
) -> list[str]:
    """Lines of text for a game's events, with the hands after the deal and, given the
    game's result columns ``cols``, each round's result."""
    lines: list[str] = []
    dealt: dict[int, list[int]] = {}
    estimates: list[str] = []  # search's estimates for the coming turn
    rnd = 0
    for ev in events:
        kind = int(ev[0])
        if kind == E.EV_DEAL:
            dealt.setdefault(int(ev[1]), []).append(int(ev[2]))
            continue
        if dealt:
            lines.append(f"round {rnd}: dealt hands")
            lines += _hands_line(dealt)
            dealt = {}
        if kind == E.EV_END:
            rnd += 1
        text = _line(ev)
        if kind == E.EV_SEARCH:  # search weighs its moves before the turn: shown after its line
            estimates.append(str(text))
            continue
        if text is not None:
            lines.append(text)
        if kind == E.EV_TURN and estimates:
            lines += estimates
            estimates = []
    if truncated:
        lines.append("(trace truncated: event buffer full)")
    if cols is None:
        return lines
    for row in range(len(cols["turns"])):
        sizes = ", ".join(str(int(x)) for x in cols["hand_sizes"][row])
        points = ", ".join(str(int(x)) for x in cols["points"][row])
        lines.append(
            f"round {int(cols['round'][row])} result: {STATUS_NAMES[int(cols['status'][row])]}, "
            f"hand sizes by seat [{sizes}], points by seat [{points}], "
            f"cards drawn {int(cols['cards_drawn'][row])}"
        )
        seating = [int(x) for x in cols["seating"][row]] if "seating" in cols else []
        if seating != list(range(len(seating))):  # seating: random (S16)
            lines.append(
                f"round {int(cols['round'][row])} seating: by position, scenario seats "
                f"[{', '.join(str(x) for x in seating)}]"
            )
        if cols["match_winner__valid"][row]:
            lines.append(
                f"match over after {int(cols['match_rounds'][row])} rounds: "
                f"winner {int(cols['match_winner'][row])}"
            )
    return lines
