"""The result columns of SCENARIO.md ("Results on disk") and the ones measured beside them.

The engine returns one numpy array per column named here; :mod:`uno_stats.store.parts`
turns them into Parquet with these types. Per-seat columns are ``(rows, players)``
arrays stored as lists by seat. What each column means is help text, kept outside the
engine's hashed sources in :mod:`uno_stats.help_text`.
"""

from __future__ import annotations

from dataclasses import dataclass

STATUS_NAMES: tuple[str, ...] = ("won", "void", "capped", "exhausted")
"""A round's end, by status code (the engine writes the code, results the name)."""
STATUS_WON = STATUS_NAMES.index("won")
STATUS_VOID = STATUS_NAMES.index("void")
STATUS_CAPPED = STATUS_NAMES.index("capped")
STATUS_EXHAUSTED = STATUS_NAMES.index("exhausted")  # reshuffle: false, the pile ran out (S17)

# Hand sizes are recorded after turns 5, 10, ..., 100, all in one column (CHECKPOINTS).
CHECKPOINT_EVERY = 5
CHECKPOINT_TURNS: tuple[int, ...] = tuple(range(CHECKPOINT_EVERY, 101, CHECKPOINT_EVERY))
CHECKPOINTS = "hand_checkpoints"
"""The column of every hand-size checkpoint of a round: ``(rows, turns, players)`` bytes in the
engine's output, one fixed-width binary value per round on disk (byte ``k * players + s`` is
seat ``s``'s cards after turn ``CHECKPOINT_TURNS[k]``)."""
NOT_REACHED = 255
"""Checkpoint byte of a turn the round ended before; a hand at a reached checkpoint is stored
only up to 254 cards (a larger one, possible only with several decks, is refused)."""

ROUND_COUNTERS: tuple[str, ...] = (
    "turns",
    "cards_drawn",
    "reshuffles",
    "longest_stack",
    "stack_total",
    "challenges",
    "challenges_won",
    "uno_penalties",
    "seven_swaps",
    "zero_passes",
    "jump_ins",
    "mistakes",
    "hand_shuffles",
    "largest_hand",
    "turn_draws",
    "turn_draw_cards",
    "multi_plays",
    "multi_cards",
    "eliminated",
    "last_standing",
    "roulette_draws",
)
"""The per-round scalar columns the engine counts in its state and records as they stand
(the single list: engine state slots, chunk outputs and test fixtures follow it)."""


@dataclass(frozen=True)
class Column:
    """One result column: name, numpy dtype of the engine array, per-seat or not, nullable,
    and per checkpoint turn (:data:`CHECKPOINTS` only)."""

    name: str
    dtype: str
    per_seat: bool
    nullable: bool = False
    per_checkpoint: bool = False

    def shape(self, rows: int, players: int) -> tuple[int, ...]:
        """The shape of this column's engine array for ``rows`` rows of ``players`` seats."""
        if self.per_checkpoint:
            return (rows, len(CHECKPOINT_TURNS), players)
        return (rows, players) if self.per_seat else (rows,)


# Hand sizes (and the columns made of them) are uint16: with several decks (RULES.md S19) a
# hand can hold more than 255 cards. Counts of events that can happen on every turn are
# uint32, like ``turns``: ``max_turns`` goes up to 1,000,000, past any 16-bit count.
COLUMNS: tuple[Column, ...] = (
    Column("game", "uint64", False),
    Column("round", "uint16", False),
    Column("players", "uint8", False),
    Column("dealer", "uint8", False),
    Column("first_player", "uint8", False),
    Column("winner", "int8", False),
    Column("status", "uint8", False),
    Column("turns", "uint32", False),
    Column("cards_drawn", "uint32", False),
    Column("reshuffles", "uint32", False),
    Column("hand_sizes", "uint16", True),
    Column("points", "uint16", True),
    Column("max_deficit", "uint16", True),
    Column("match_winner", "int8", False, True),
    Column("match_rounds", "uint16", False, True),
    Column("longest_stack", "uint32", False),
    Column("stack_total", "uint32", False),
    Column("challenges", "uint32", False),
    Column("challenges_won", "uint32", False),
    Column("uno_penalties", "uint32", False),
    Column("seven_swaps", "uint32", False),
    Column("zero_passes", "uint32", False),
    Column("jump_ins", "uint32", False),
    Column("mistakes", "uint32", False),
    Column("hand_shuffles", "uint32", False),
    Column("largest_hand", "uint16", False),
    Column("turn_draws", "uint32", False),
    Column("turn_draw_cards", "uint32", False),
    Column("seating", "uint8", True),
    Column("multi_plays", "uint32", False),
    Column("multi_cards", "uint32", False),
    Column("eliminated", "uint8", False),
    Column("last_standing", "uint8", False),
    Column("roulette_draws", "uint32", False),
    Column("knocked_out", "uint8", True),
    Column(CHECKPOINTS, "uint8", True, per_checkpoint=True),  # NOT_REACHED: the round had ended
)
COLUMNS_BY_NAME: dict[str, Column] = {c.name: c for c in COLUMNS}

_missing = [name for name in ROUND_COUNTERS if name not in COLUMNS_BY_NAME]
if _missing:
    raise ImportError(f"round counters without a result column: {', '.join(_missing)}")
