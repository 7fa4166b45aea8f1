"""What every rule, strategy, knob and result column means: the help text shown by
``uno-stats rules`` / ``uno-stats strategies`` and written into the docs.

It lives outside ``uno_stats/engine`` on purpose: the engine's source hash (which keys
compiled code and results) covers only the facts that decide how games play out, so
rewording a sentence here never invalidates results. Keyed by rule key, strategy name,
knob key and column name; an import-time check requires text for every key of the
engine's tables and no text for a key they do not have.
"""

from __future__ import annotations

from typing import NamedTuple

from uno_stats.engine.rules import RULES
from uno_stats.engine.schema import CHECKPOINTS, COLUMNS, NOT_REACHED
from uno_stats.engine.strategy_table import KNOBS, STRATEGIES


class RuleHelp(NamedTuple):
    """A rule key's meaning and the rule sources (RULES.md numbering) it comes from."""

    meaning: str
    sources: str


RULE_HELP: dict[str, RuleHelp] = {
    "shuffle_hands_cards": RuleHelp(
        (
            "Wild Shuffle Hands cards added: every hand is collected, shuffled and dealt out "
            "from the player's left; the player names the color"
        ),
        "002",
    ),
    "custom_cards": RuleHelp(
        "Wild Customizable (blank) cards added, acting per custom_card_rule",
        "002",
    ),
    "custom_card_rule": RuleHelp(
        "extra-turn: a wild after which its player takes another turn; wild: a plain wild",
        "002",
    ),
    "hand_size": RuleHelp(
        "cards dealt to each player",
        "all",
    ),
    "opening_action": RuleHelp(
        (
            "apply: an opening action or wild takes effect on the first player; redraw: it is"
            " covered by the next card turned until a number card shows; ignore: it is only"
            " matched, its action does nothing (a wild's color is still named)"
        ),
        "000, 002",
    ),
    "opening_reverse": RuleHelp(
        "who plays first after an opening Reverse (play then runs counterclockwise)",
        "000, 001",
    ),
    "draw": RuleHelp(
        ("a player who cannot or will not play draws one card, or keeps drawing until a card fits"),
        "all, 003",
    ),
    "drawn_card": RuleHelp(
        (
            "a playable drawn card may be kept, or must be played at once; an older card may "
            "never be played after drawing"
        ),
        "000, 003",
    ),
    "voluntary_draw": RuleHelp(
        (
            "a player holding a playable card may draw instead (whether they do is the "
            "strategy's choice)"
        ),
        "002",
    ),
    "two_player_rules": RuleHelp(
        (
            "with two players a Reverse acts as a Skip (a Skip, Draw Two or Wild Draw Four "
            "already gives its player another turn)"
        ),
        "000-004",
    ),
    "no_action_finish": RuleHelp(
        "a card that would be its player's last may not be an action card or wild",
        "003",
    ),
    "deadlock": RuleHelp(
        (
            "void-round: when nothing can be drawn and every player passes in a row the round"
            " is void; cap: play on until max_turns"
        ),
        "000",
    ),
    "max_turns": RuleHelp(
        "safety cap on turns; a capped round is recorded as capped, never as a win",
        "-",
    ),
    "wd4_restriction": RuleHelp(
        (
            "a Wild Draw Four is legal only without a card of the active color (color), nor a"
            " Wild (color-or-wild), nor a card matching color or number (color-or-number); "
            "none: always; no-other-play: only when no other card in hand is playable"
        ),
        "000-003",
    ),
    "wd4_challenge": RuleHelp(
        ("the victim of a Wild Draw Four may challenge it; without challenges nobody bluffs"),
        "000, 002-004",
    ),
    "challenge_penalty": RuleHelp(
        "cards a failed challenger draws (4 + 2)",
        "000, 002, 004",
    ),
    "stack_draw_two": RuleHelp(
        "a player owing a Draw Two penalty may pass it on with their own Draw Two (+2)",
        "002, 003",
    ),
    "stack_draw_four": RuleHelp(
        ("a player owing a Wild Draw Four penalty may pass it on with a Wild Draw Four (+4)"),
        "002, 003",
    ),
    "stack_cross": RuleHelp(
        "a Draw Two may answer a Wild Draw Four and the other way round; totals add",
        "002, 003",
    ),
    "stack_victim_skips": RuleHelp(
        ("the player who draws a pending draw total also loses their turn; false: they then play"),
        "002",
    ),
    "final_penalty": RuleHelp(
        (
            "a round won on a Draw Two or Wild Draw Four: the next player still draws it "
            "before scoring"
        ),
        "000-002",
    ),
    "seven_zero": RuleHelp(
        (
            "a 7 swaps hands with an opponent of the player's choice; a 0 passes every hand "
            "one seat in the direction of play"
        ),
        "002, 003",
    ),
    "jump_in": RuleHelp(
        (
            "a player holding the exact card just played (not a wild) may play it at once out"
            " of turn"
        ),
        "002, 003",
    ),
    "uno_penalty": RuleHelp(
        "cards drawn by a player caught not calling UNO (0: calls not modelled)",
        "000-004",
    ),
    "invalid_play_penalty": RuleHelp(
        ("a wrong card played is taken back; the player draws this many cards and plays legally"),
        "000, 004",
    ),
    "scoring": RuleHelp(
        (
            "none: single rounds; points: the winner scores the other hands, first to the "
            "target; low-score: each seat adds its own hand, lowest total wins; partners: 4 "
            "players, seats 0+2 vs 1+3"
        ),
        "000-003",
    ),
    "seating": RuleHelp(
        (
            "fixed: scenario seat k sits at position k; random: each game (round or match) "
            "seats them in a random order from a stream of its own (result column seating)"
        ),
        "-",
    ),
    "deflect": RuleHelp(
        (
            "a player owing a draw total may answer with a Skip (it passes on) or a Reverse "
            "(it goes back to its sender) of the active color; combines with stacking"
        ),
        "-",
    ),
    "multi_play": RuleHelp(
        (
            "off; same-number: two or more cards of one number (any colors) may be played "
            "together, the first legal alone, the last on top, acting as one number card; "
            "same-number-color: only identical cards"
        ),
        "-",
    ),
    "multi_play_actions": RuleHelp(
        (
            "with multi_play on, Skips, Reverses or Draw Twos of one symbol may be played "
            "together too, each acting once (two Skips skip two players, two Draw Twos give 4)"
        ),
        "-",
    ),
    "reshuffle": RuleHelp(
        (
            "true: an empty draw pile is refilled from the discards; false: never, and the "
            "round ends as exhausted the moment a draw finds the pile empty"
        ),
        "-",
    ),
    "exhausted_winner": RuleHelp(
        (
            "who wins an exhausted round: the seat with the fewest cards, or the fewest card "
            "points; a tie for fewest: no winner"
        ),
        "-",
    ),
    "stack_draws": RuleHelp(
        (
            "UNO Show 'Em No Mercy stacking, beside the classic keys: a player owing a draw "
            "total may answer with any draw card (+2, +4, +6, +10) of equal or higher value "
            "than the top one (equal-or-higher), of equal value only (equal), or of any value "
            "(any), color ignored; off: only stack_draw_two / stack_draw_four / stack_cross"
        ),
        "005",
    ),
    "mercy_limit": RuleHelp(
        (
            "the mercy rule: a player whose hand reaches this many cards during play is "
            "knocked out at once (nothing more is drawn for them); a round ends when a hand "
            "is empty or one player is left; 0: off"
        ),
        "005",
    ),
    "mercy_cards": RuleHelp(
        (
            "where a knocked-out player's cards go: under the discard pile (discard-bottom, "
            "reshuffled in with the discards) or under the draw pile (draw-bottom)"
        ),
        "005",
    ),
    "roulette_namer": RuleHelp(
        (
            "who names the color of a Wild Color Roulette: the next player, who then turns "
            "up cards until that color shows and takes them all (victim), or the player of "
            "the card, as for any wild (player)"
        ),
        "005",
    ),
}

STRATEGY_HELP: dict[str, str] = {
    "random": (
        "Plays a legal card chosen uniformly among the legal cards in hand (two red 5s are "
        "two choices); draws only when it holds none, or when voluntary_draw fires; plays a "
        "legal drawn card unless drawn_card: may-play lets it keep the card and its "
        "keep_drawn knob fires; names a wild's color uniformly; swaps with a uniformly random"
        " opponent on a 7; stacks or deflects a pending draw whenever it can (uniform among "
        "its stacking and deflecting cards); jumps in "
        "whenever it can; challenges and bluffs only as its knobs say. With multi_play on it "
        "picks uniformly among every legal move, single cards and multi-plays alike (a move "
        "is the cards put down and the card left on top; identical cards are one move)."
    ),
    "basic": (
        "What a careful casual player does: plays a card of the active color if it has one, "
        "else a number or symbol match, keeps Wilds for when nothing else fits and a Wild "
        "Draw Four for last (never bluffing it), names the color it holds most of, and swaps "
        "with the opponent holding the fewest cards on a 7. Ties are broken uniformly at "
        "random; it plays a legal drawn card (unless keep_drawn fires, as for random), stacks"
        " or deflects a pending draw (uniformly among those cards, like every strategy) and "
        "jumps in whenever it can. With multi_play on it plays its chosen card first together "
        "with every other card of that symbol the rules allow (keeping one back rather than "
        "going out on action cards under no_action_finish), ending on the color the rest of "
        "its hand holds most of. With the No Mercy cards it keeps draw cards of 4 or more "
        "for last (to answer a stack), plays first a Discard All that would discard other "
        "cards of its color (the one that empties its hand most), and as a Color Roulette's "
        "victim names the color with the most cards it has not seen."
    ),
    "aggressive": (
        "Attacks a player about to win: when the next player holds two cards or fewer it "
        "plays Draw Twos, Wild Draw Fours, Skips and Reverses first (the highest-point "
        "first); otherwise it dumps its highest-point card. Names the color it holds most of "
        "and swaps with the opponent holding the fewest cards; ties are broken uniformly at "
        "random. With multi_play on it sheds every other card of its chosen card's symbol "
        "with it, as basic does."
    ),
    "hoarder": (
        "Holds its wilds and action cards to the end: plays number cards first (the highest "
        "number first, shedding points), then Skips, Reverses and Draw Twos, then a Wild, and"
        " a Wild Draw Four last. Names the color it holds most of and swaps with the opponent"
        " holding the fewest cards; ties are broken uniformly at random. With multi_play on "
        "it keeps its cards: it always plays a single card."
    ),
    "color-denier": (
        "Switches play to a color the next player lacks, judged only from what everyone saw: "
        "a player seen drawing on their turn with nothing to play lacked the active color "
        "(the mark is cleared when they later play that color, and for everyone when hands "
        "move on a 7, 0 or Shuffle Hands). Plays a card of such a color first, otherwise as "
        "basic; on a wild names the lacking color it holds most of, else its commonest color."
        " With multi_play on it plays every other card of its chosen card's symbol with it, "
        "as basic does, ending on a color the next player lacks if it can."
    ),
    "search": (
        "Thinks ahead (determinized Monte Carlo search): at each decision with two moves or "
        "more (which card, a wild's color, the seat a 7 swaps with, a Wild Draw Four played as "
        "a bluff when challenges are on, challenging, stacking or drawing a pending total; "
        "drawing instead with search_moves: all) it plays each move in rollouts: copies of the "
        "round with the cards it cannot see (the deck minus its own hand and the discard pile) "
        "dealt afresh to the other hands (sizes kept) and the draw pile, a seat seen unable to "
        "play (its last 3 such turns, nested) dealt none of the cards it could have played "
        "then; the round goes on with its own seat playing rollout_policy and the others as "
        "declared (opponent_model), for horizon turns a player, then scored by hand sizes "
        "(action cards and wilds half). It makes basic's move unless another is worth more and "
        "either basic likes it as well or it beat basic's by margin standard errors over the "
        "same dealt worlds, a close call played on more worlds (prior: basic, close_calls); "
        "rollouts a move (allocation). It never reads another hand, the pile's order or whether"
        " a Wild Draw Four was legal, and samples from a random stream of its own, so the "
        "game's stream is untouched. Not searched: keeping a drawn card and jumping in (as "
        "basic); cards it knows are in another hand after a 7/0 swap are not tracked. With "
        "inference: last-play the opponents' recent plays weigh the deal too. Its cost grows "
        "with rollouts x moves x horizon."
    ),
}

KNOB_HELP: dict[str, str] = {
    "forget_uno": "probability of not calling UNO on the next-to-last card",
    "catch_uno": "probability that this player catches an opponent's missed call",
    "challenge": "when to challenge a Wild Draw Four",
    "bluff": "per turn: probability of treating illegal Wild Draw Fours as playable",
    "voluntary_draw": "probability of drawing while holding a playable card",
    "mistake": "probability of first trying an invalid card",
    "keep_drawn": "probability of keeping a playable drawn card when drawn_card is may-play",
    "rollouts": "search only: rollouts (copies of the round played on) a move, on average",
    "rollout_policy": "search only: the strategy its own seat plays in its rollouts",
    "max_candidates": "search only: the most distinct legal cards it weighs at one decision",
    "opponent_model": (
        "search only: how its rollouts play the other seats: declared (as the scenario seats "
        "them) or own-policy (all as its own rollout_policy and knobs: no model of them)"
    ),
    "allocation": (
        "search only: equal (rollouts each) or halving (rounds that drop the worse half of the "
        "moves, basic's kept)"
    ),
    "prior": (
        "search only: basic (makes basic's move unless another is significantly better) or "
        "none (the move worth most)"
    ),
    "margin": (
        "search only: how many standard errors of the paired difference a move must beat "
        "basic's by (prior: basic)"
    ),
    "search_moves": (
        "search only: plays (card, color, 7 target, a bluff, challenging, stacking or drawing"
        " a pending total), all (plays and drawing instead) or cards (card, color, target)"
    ),
    "horizon": (
        "search only: turns a player a rollout plays before hand sizes score it (0: to the "
        "round's end)"
    ),
    "inference": (
        "search only: none deals its worlds as above; last-play also deals again (at most 64 "
        "times a rollout) a world whose hands the basic-modeled opponents would not have made "
        "their recent plays from (kept with chance 0.02 a play): random ones are not judged"
    ),
    "close_calls": (
        "search only: how many times a close call (the best other move ahead of basic's, not "
        "by margin) plays both moves rollouts more worlds (prior: basic)"
    ),
}

COLUMN_HELP: dict[str, str] = {
    "game": "index of the round (or match) within the run",
    "round": "round number within its match (0 without match)",
    "players": "seats",
    "dealer": "dealer's seat this round",
    "first_player": "seat that took the first turn",
    "winner": (
        "seat that went out; -1 for a void or capped round; exhausted: the seat "
        "exhausted_winner names, -1 on a tie"
    ),
    "status": (
        "won, void (deadlock remedy), capped, or exhausted (reshuffle: false, the pile ran out)"
    ),
    "turns": "turns taken (RULES.md semantic 1 and Passing)",
    "cards_drawn": "all cards drawn, penalties included",
    "reshuffles": "times the discard pile became the draw pile",
    "hand_sizes": "every seat's cards at the end, by seat",
    "points": "every seat's remaining-card points at the end, by seat",
    "max_deficit": "by seat, the most cards it held above the smallest hand, after each turn",
    "match_winner": "winning seat (partners: 0 or 1) on a match's last round, null elsewhere",
    "match_rounds": "rounds the match took (void ones included) on its last round, null elsewhere",
    "longest_stack": "draw cards in the longest penalty chain of the round",
    "stack_total": "largest pending draw total of the round",
    "challenges": "Wild Draw Four challenges made",
    "challenges_won": "challenges that caught an illegal Wild Draw Four",
    "uno_penalties": "players caught not calling UNO",
    "seven_swaps": "hand swaps on a 7 (seven_zero)",
    "zero_passes": "hand passes on a 0 (seven_zero)",
    "jump_ins": "cards played out of turn (jump_in)",
    "mistakes": "invalid cards tried and taken back",
    "hand_shuffles": "Wild Shuffle Hands cards that took effect",
    "largest_hand": "the most cards any seat held at any moment of the round",
    "turn_draws": (
        "times a player drew on their own turn because they could not or chose not to play "
        "(penalty draws excluded; one per turn, however many cards draw: until-playable took)"
    ),
    "turn_draw_cards": "cards drawn in those turn draws (over turn_draws: cards per draw)",
    "seating": "at each position, which scenario seat sat there (0..P-1 unless seating: random)",
    "multi_plays": "plays of two cards or more at once (multi_play; 0 when off)",
    "multi_cards": "cards put down in those multi-plays (over multi_plays: cards per multi-play)",
    "eliminated": "players knocked out by the mercy rule in the round (mercy_limit)",
    "last_standing": "1 when the round was won by the last player left (the mercy rule), else 0",
    "roulette_draws": "cards turned up and taken by Wild Color Roulette victims",
    "knocked_out": "by seat: 0, or k when the seat was the k-th knocked out in the round",
    CHECKPOINTS: (
        "every seat's cards after turns 5, 10, ..., 100, as bytes: byte k*players+s is seat s "
        f"after turn 5(k+1), {NOT_REACHED} when the round ended earlier"
    ),
}


def _check(kind: str, text: dict[str, object], keys: list[str]) -> None:
    missing = [key for key in keys if key not in text]
    orphaned = [key for key in text if key not in keys]
    if missing or orphaned:
        raise ImportError(
            f"{kind} help out of step with the engine's table: "
            f"missing {missing or 'none'}, orphaned {orphaned or 'none'}"
        )
    empty = [k for k, v in text.items() if not (v.meaning if isinstance(v, RuleHelp) else v)]
    if empty:
        raise ImportError(f"{kind} help: empty text for {empty}")


_check("rule", dict(RULE_HELP), [spec.key for spec in RULES])
_check("strategy", dict(STRATEGY_HELP), [info.name for info in STRATEGIES])
_check("knob", dict(KNOB_HELP), [knob.key for knob in KNOBS])
_check("column", dict(COLUMN_HELP), [column.name for column in COLUMNS])
