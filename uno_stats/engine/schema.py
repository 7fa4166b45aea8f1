"""The result columns of SCENARIO.md ("Results on disk") and the ones measured beside them.

The engine returns one numpy array per column named here; :mod:`uno_stats.run.results`
turns them into Parquet with these types. Per-seat columns are ``(rows, players)``
arrays stored as lists by seat.
"""

from __future__ import annotations

from dataclasses import dataclass

STATUS_WON, STATUS_VOID, STATUS_CAPPED = 0, 1, 2
STATUS_NAMES: tuple[str, ...] = ("won", "void", "capped")

# Hand sizes are recorded after turns 5, 10, ..., 100 (columns hands_t5 ... hands_t100).
CHECKPOINT_EVERY = 5
CHECKPOINT_TURNS: tuple[int, ...] = tuple(range(CHECKPOINT_EVERY, 101, CHECKPOINT_EVERY))


@dataclass(frozen=True)
class Column:
    """One result column: name, numpy dtype of the engine array, per-seat or not, meaning."""

    name: str
    dtype: str
    per_seat: bool
    meaning: str
    nullable: bool = False


COLUMNS: tuple[Column, ...] = (
    Column("game", "uint64", False, "index of the round (or match) within the run"),
    Column("round", "uint16", False, "round number within its match (0 without match)"),
    Column("players", "uint8", False, "seats"),
    Column("dealer", "uint8", False, "dealer's seat this round"),
    Column("first_player", "uint8", False, "seat that took the first turn"),
    Column("winner", "int8", False, "seat that went out; -1 for a void or capped round"),
    Column("status", "uint8", False, "won, void (deadlock remedy) or capped"),
    Column("turns", "uint32", False, "turns taken (RULES.md semantic 1 and Passing)"),
    Column("cards_drawn", "uint32", False, "all cards drawn, penalties included"),
    Column("reshuffles", "uint16", False, "times the discard pile became the draw pile"),
    Column("hand_sizes", "uint8", True, "every seat's cards at the end, by seat"),
    Column("points", "uint16", True, "every seat's remaining-card points at the end, by seat"),
    Column(
        "max_deficit",
        "uint8",
        True,
        "by seat, the most cards it held above the smallest hand, after each turn",
    ),
    Column(
        "match_winner",
        "int8",
        False,
        "winning seat (partners: 0 or 1) on a match's last round, null elsewhere",
        True,
    ),
    Column(
        "match_rounds",
        "uint16",
        False,
        "rounds the match took (void ones included) on its last round, null elsewhere",
        True,
    ),
    Column("longest_stack", "uint8", False, "draw cards in the longest penalty chain of the round"),
    Column("stack_total", "uint16", False, "largest pending draw total of the round"),
    Column("challenges", "uint8", False, "Wild Draw Four challenges made"),
    Column("challenges_won", "uint8", False, "challenges that caught an illegal Wild Draw Four"),
    Column("uno_penalties", "uint8", False, "players caught not calling UNO"),
    Column("seven_swaps", "uint16", False, "hand swaps on a 7 (seven_zero)"),
    Column("zero_passes", "uint16", False, "hand passes on a 0 (seven_zero)"),
    Column("jump_ins", "uint16", False, "cards played out of turn (jump_in)"),
    Column("mistakes", "uint16", False, "invalid cards tried and taken back"),
    Column("hand_shuffles", "uint16", False, "Wild Shuffle Hands cards that took effect"),
    *(
        Column(
            f"hands_t{t}",
            "uint8",
            True,
            f"every seat's cards after turn {t}, null when the round ended earlier",
            True,
        )
        for t in CHECKPOINT_TURNS
    ),
)
COLUMNS_BY_NAME: dict[str, Column] = {c.name: c for c in COLUMNS}
