"""The ``search`` strategy's look-ahead: determinized Monte Carlo rollouts of every move.

At each decision of a ``search`` seat (SCENARIO.md, "Strategies", ``search``) the engine
calls :func:`search_turn` before a normal turn and :func:`search_penalty` before the seat
answers a pending draw. Each lists the seat's moves (:mod:`uno_stats.engine.search_moves`)
and plays each in rollouts: a copy of the round in which the cards the seat cannot see are
dealt afresh (:mod:`uno_stats.engine.search_world`), the move is made, and play goes on
with every seat playing its rollout strategy, to the round's end or for ``horizon`` turns a
player, after which the hand sizes (an action card or wild counting half) score the
position (:func:`position_value`). The move chosen is written into the memory row's
``FORCE_*`` slots, which the choice functions of :mod:`uno_stats.engine.strategies` read
when the engine asks them: a rollout makes its move through those same slots and the same
turn code, so the game plays exactly the move weighed.

Which move: under ``prior: basic``, basic's own move unless another one won more rollouts
and either basic likes it as well (an equal rank) or it beat basic's move by more than
``margin`` standard errors of their world-by-world difference, a close call (the best other
move ahead, not by ``margin``) played on ``rollouts`` more worlds up to ``close_calls``
times; under ``prior: none``, the most wins. ``allocation: equal`` gives each move
``rollouts``; ``halving`` shares ``rollouts`` x moves in rounds of sequential halving, every
remaining move playing as many rollouts and the worse half dropped (basic's move never).
Every move of a round plays the same dealt worlds (common random numbers). Search draws
only from its own random stream (``RNG_SEARCH``, seeded per game).

Rollouts never search: the rollout seats (``seats[players:]``, rebuilt at each decision)
play each ``search`` seat by its ``rollout_policy``, and each other seat as the scenario
declares it (``opponent_model: declared``) or as the searching seat's own rollout policy and
knobs (``own-policy``). :func:`rollout_turns` is the turn loop without the look-ahead, so
the compiled code has no recursion.
"""

from __future__ import annotations

from uno_stats.engine.cards import (
    CARD_SYMBOL,
    DRAW_TWO,
    REVERSE,
    SKIP,
    SYM_WILD,
    SYM_WILD_DRAW_FOUR,
)
from uno_stats.engine.events import EV_SEARCH, emit
from uno_stats.engine.jit import engine_jit
from uno_stats.engine.memory_row import FORCE_CARD, FORCE_SLOTS
from uno_stats.engine.rng import below, chance, next_u64
from uno_stats.engine.rules import R_MAX_TURNS, R_WD4_CHALLENGE
from uno_stats.engine.schema import STATUS_CAPPED
from uno_stats.engine.search_infer import deal_again
from uno_stats.engine.search_moves import (
    BASIC_CHOICE_BIT,
    BLUFF_BIT,
    WHAT_MASK,
    challengeable,
    force,
    penalty_moves,
    prior_rank,
    traced_detail,
    turn_moves,
)
from uno_stats.engine.search_world import copy_fixed, copy_position, deal, judge_wd4, unseen_pool
from uno_stats.engine.state import (
    RNG_ROLLOUT,
    RNG_SEARCH,
    RNG_STREAMS,
    SEARCH_WORK_ROWS,
    ST_BLUFF,
    ST_CUR,
    ST_OUT,
    ST_PARTNERS,
    ST_PENDING,
    ST_PLAYERS,
    ST_STATUS,
    ST_TURNS,
    ST_WD4_PLAYER,
    ST_WINNER,
    T_HANDS,
    T_HN,
    T_MEMORY,
    T_RULES,
    T_ST,
    table_rows,
)
from uno_stats.engine.strategies import BASIC, SEARCH, bluffs, strategy_of
from uno_stats.engine.strategy_table import (
    S_ALLOCATION,
    S_BLUFF,
    S_CLOSE_CALLS,
    S_HORIZON,
    S_INFERENCE,
    S_KIND,
    S_MARGIN,
    S_MAX_CANDIDATES,
    S_OPPONENT_MODEL,
    S_PRIOR,
    S_ROLLOUT_POLICY,
    S_ROLLOUTS,
    S_SEARCH_MOVES,
)
from uno_stats.engine.turn import CONTINUE_TURN, normal_turn, resolve_penalty

# The work rows after the rollout's copy of the table: counts (and the cards dealt under an
# inference), the unseen cards in card-id order, their dealt order; per move its code, its
# rollouts' worth, rollouts played, the sum of its world-by-world differences from the first
# move's worth and of their squares; the first move's worth in each world of a block.
W_COUNTS, W_POOL, W_DEAL, W_MOVES, W_WORTH, W_PLAYED, W_DIFF, W_SQUARES, W_FIRST = range(9)
if SEARCH_WORK_ROWS != 9:
    raise ImportError("search's work rows are out of step")
SCALE = 1 << 10  # a rollout's worth: SCALE for a win, 0 for a loss
# How steeply a cut rollout's worth falls with hand size: measured 5 December, heads-up against
# random at mattel-2001 (docs/PERFORMANCE.md), 0.7 beat 1, 1.5 and 2 on paired deals.
VALUE_POWER = 0.7
DECLARED = 0  # the encoded values of strategy_table.OPPONENT_MODELS, ALLOCATIONS, PRIORS
HALVING = 0
PRIOR_BASIC = 0
PLAYS, EVERY_MOVE, CARDS_ONLY = 0, 1, 2  # strategy_table.MOVE_SETS
NO_INFERENCE = 0  # strategy_table.INFERENCES


@engine_jit
def rollout_turns(tab, seats, rng, ev, stop):
    """``round.play_turns`` without the look-ahead: play a rollout to the round's end, or
    until ``stop`` turns have been taken."""
    st = tab[T_ST]
    rules = tab[T_RULES]
    max_turns = rules[R_MAX_TURNS]
    challenges = rules[R_WD4_CHALLENGE] != 0
    while st[ST_STATUS] < 0 and st[ST_TURNS] < stop:
        if st[ST_TURNS] >= max_turns:
            st[ST_STATUS] = STATUS_CAPPED
            break
        p = st[ST_CUR]
        st[ST_BLUFF] = 1 if bluffs(strategy_of(seats, p), seats[p], challenges, rng) else 0
        if st[ST_PENDING] > 0:
            outcome = resolve_penalty(tab, p, seats, rng, ev)
            if outcome != CONTINUE_TURN:
                continue
        normal_turn(tab, p, seats, rng, ev)


@engine_jit
def _team(st, p, q):
    """Whether seat ``q`` is ``p`` or, under partners scoring, its partner."""
    return q == p or (st[ST_PARTNERS] != 0 and q % 2 == p % 2)


@engine_jit
def effective_size(hand, n, heads_up):
    """A hand's size as a rollout's score weighs it: each Skip, Draw Two, Wild and Wild Draw
    Four (and heads-up, where it acts as a Skip, each Reverse) counts half a card, since it
    plays whatever the other seat does or makes it draw; every other card counts one."""
    size = float(n)
    for i in range(n):
        symbol = CARD_SYMBOL[hand[i]]
        if symbol in (SKIP, DRAW_TWO, SYM_WILD, SYM_WILD_DRAW_FOUR) or (
            symbol == REVERSE and heads_up
        ):
            size -= 0.5
    return size


@engine_jit
def position_value(sim, p):
    """What a rollout is worth to ``p``, in units of 1/SCALE of a win: the round's result
    when it is over (a round without a winner: nothing), else ``p``'s (team's) share of the
    players' weights, a seat's weight its :func:`effective_size` to the power -VALUE_POWER
    (two players with a and b cards: b^0.7 / (a^0.7 + b^0.7))."""
    st = sim[T_ST]
    if st[ST_STATUS] >= 0:
        return SCALE if st[ST_WINNER] >= 0 and _team(st, p, st[ST_WINNER]) else 0
    hn = sim[T_HN]
    players = st[ST_PLAYERS]
    mine = 0.0
    total = 0.0
    for q in range(players):
        if (st[ST_OUT] >> q) & 1:  # knocked out by the mercy rule (S22): holds no share
            continue
        size = effective_size(sim[T_HANDS + q], hn[q], players == 2)
        if q == st[ST_CUR]:  # it owes the pending draw, and moves first: half a card ahead
            size += st[ST_PENDING] - 0.5
        w = max(size, 0.5) ** -VALUE_POWER
        total += w
        if _team(st, p, q):
            mine += w
    return int(SCALE * mine / total + 0.5)


@engine_jit
def _bluff_chance(rseats, q):
    """The chance that seat ``q``'s Wild Draw Four was a bluff, as the rollout seats model
    it: its ``bluff`` knob (basic never bluffs). An approximation: the knob is the chance of
    treating an illegal Wild Draw Four as playable in a turn, not of having played one."""
    if strategy_of(rseats, q) == BASIC:
        return 0.0
    return rseats[q, S_BLUFF]


@engine_jit
def _rollout(tab, sim, p, move, penalty, m, seats, rng, ev):
    """One rollout of ``move``: copy the round into ``sim``, deal the unseen cards (the
    first ``m`` of the pool row) afresh (under ``inference: last-play``, dealt again until
    the world is kept with :func:`search_infer.world_chance`), make the move through the
    ``FORCE_*`` slots with the turn code, then play on; its :func:`position_value` to ``p``."""
    players = tab[T_ST, ST_PLAYERS]
    work = tab[2 * table_rows(players) :]
    srng = rng[RNG_SEARCH : RNG_SEARCH + 1]
    rrng = rng[RNG_ROLLOUT : RNG_ROLLOUT + 1]
    copy_position(tab, sim, p)
    st = sim[T_ST]
    rseats = seats[players:]
    challenge_open = penalty and challengeable(sim)
    # S7: the Wild Draw Four played on p was legal in this world unless its player bluffed
    legal_wd4 = challenge_open and not chance(srng, _bluff_chance(rseats, st[ST_WD4_PLAYER]))
    cards = work[W_DEAL]
    for i in range(m):
        cards[i] = work[W_POOL, i]
    deal(sim, p, cards, m, work[W_COUNTS], legal_wd4, srng)
    if int(seats[p, S_INFERENCE]) != NO_INFERENCE:
        deal_again(sim, tab[T_MEMORY], p, cards, m, work[W_COUNTS], legal_wd4, srng, rseats)
    if challenge_open:
        judge_wd4(sim)
    rrng[0] = next_u64(srng)
    policy = rseats[p, S_KIND]
    rseats[p, S_KIND] = SEARCH  # the move goes through search's choice functions
    force(sim[T_MEMORY], move, challenge_open)
    if penalty:
        st[ST_BLUFF] = 0
        outcome = resolve_penalty(sim, p, rseats, rrng, ev)
        rseats[p, S_KIND] = policy
        if outcome == CONTINUE_TURN and st[ST_STATUS] < 0:  # its normal turn, by its policy
            challenges = sim[T_RULES, R_WD4_CHALLENGE] != 0
            st[ST_BLUFF] = 1 if bluffs(strategy_of(rseats, p), rseats[p], challenges, rrng) else 0
            normal_turn(sim, p, rseats, rrng, ev)
    else:
        st[ST_BLUFF] = 1 if move & BLUFF_BIT else 0
        normal_turn(sim, p, rseats, rrng, ev)
        rseats[p, S_KIND] = policy
    horizon = int(seats[p, S_HORIZON]) * players
    stop = st[ST_TURNS] + horizon if horizon > 0 else 1 << 62
    rollout_turns(sim, rseats, rrng, ev, stop)
    return position_value(sim, p)


@engine_jit
def _rollout_seats(seats, p, players):
    """Fill the rollout seats ``seats[players:]``: search seats play their rollout policy;
    under ``own-policy`` every other seat is a copy of ``p``'s (its policy and knobs)."""
    own = int(seats[p, S_OPPONENT_MODEL]) != DECLARED
    for q in range(players):
        src = p if own else q
        for c in range(seats.shape[1]):
            seats[players + q, c] = seats[src, c]
        if strategy_of(seats, src) == SEARCH:
            seats[players + q, S_KIND] = seats[src, S_ROLLOUT_POLICY]


@engine_jit
def _put_first(tab, p, n, penalty):
    """Move basic's move (the first move of the highest prior rank) to the front."""
    work = tab[2 * table_rows(tab[T_ST, ST_PLAYERS]) :]
    best = 0
    best_rank = prior_rank(tab, p, work[W_MOVES, 0], penalty)
    for k in range(1, n):
        rank = prior_rank(tab, p, work[W_MOVES, k], penalty)
        if rank > best_rank:
            best = k
            best_rank = rank
    tmp = work[W_MOVES, 0]
    work[W_MOVES, 0] = work[W_MOVES, best]
    work[W_MOVES, best] = tmp


@engine_jit
def _sort_moves(work, start, n):
    """Order moves ``start .. n - 1`` by worth, most first (stable: an insertion sort)."""
    for i in range(start + 1, n):
        j = i
        while j > start and work[W_WORTH, j] > work[W_WORTH, j - 1]:
            for row in (W_MOVES, W_WORTH, W_PLAYED, W_DIFF, W_SQUARES):
                tmp = work[row, j]
                work[row, j] = work[row, j - 1]
                work[row, j - 1] = tmp
            j -= 1


@engine_jit
def _rounds(n, halving):
    """Rounds of sequential halving for ``n`` moves (at least 1): log2(n), rounded up."""
    rounds = 1
    if halving:
        while (1 << rounds) < n:
            rounds += 1
    return rounds


@engine_jit
def _evaluate(tab, p, n, penalty, seats, rng, ev):
    """Play the rollouts of the ``n`` moves in the moves row (:func:`_play_worlds`, round by
    round), then any :func:`_close_calls`; returns how many are left in the last round,
    sorted by worth after the first (basic's move under ``prior: basic``, never dropped)."""
    players = tab[T_ST, ST_PLAYERS]
    rows = table_rows(players)
    work = tab[2 * rows :]
    m = unseen_pool(tab, p, work[W_COUNTS], work[W_POOL])
    copy_fixed(tab, tab[rows : 2 * rows])
    start = 0
    if int(seats[p, S_PRIOR]) == PRIOR_BASIC:
        _put_first(tab, p, n, penalty)
        start = 1
    rounds = _rounds(n, int(seats[p, S_ALLOCATION]) == HALVING)
    budget = max(1, int(seats[p, S_ROLLOUTS])) * n
    alive = n
    for k in range(n):
        for row in (W_WORTH, W_PLAYED, W_DIFF, W_SQUARES):
            work[row, k] = 0
    for r in range(rounds):
        share = max(1, budget // (rounds * alive))
        _play_worlds(tab, p, alive, share, penalty, m, seats, rng, ev)
        _sort_moves(work, start, alive)
        if r < rounds - 1:
            alive = max(2, (alive + 1) // 2)
    if start == 1 and alive >= 2:
        alive = _close_calls(tab, p, alive, penalty, m, seats, rng, ev)
    return alive


@engine_jit
def _play_worlds(tab, p, moves, worlds, penalty, m, seats, rng, ev):
    """Play the first ``moves`` moves of the moves row on ``worlds`` more dealt worlds, every
    move the same ones (in blocks of at most a row's width), summing each move's worth and,
    after the first, its difference from the first world by world and its square."""
    rows = table_rows(tab[T_ST, ST_PLAYERS])
    sim = tab[rows : 2 * rows]
    work = tab[2 * rows :]
    first = work[W_FIRST]
    srng = rng[RNG_SEARCH : RNG_SEARCH + 1]
    done = 0
    while done < worlds:
        block = min(worlds - done, first.shape[0])
        start = srng[0]
        for k in range(moves):
            srng[0] = start  # the same dealt worlds for every move
            move = work[W_MOVES, k]
            for j in range(block):
                worth = _rollout(tab, sim, p, move, penalty, m, seats, rng, ev)
                work[W_WORTH, k] += worth
                if k == 0:
                    first[j] = worth
                else:
                    d = worth - first[j]
                    work[W_DIFF, k] += d
                    work[W_SQUARES, k] += d * d
            work[W_PLAYED, k] += block
        done += block


@engine_jit
def _close_calls(tab, p, alive, penalty, m, seats, rng, ev):
    """Under ``prior: basic``, a close call: the best other move (second in the moves row)
    worth more than basic's (first) in the same worlds (the moves left have all played the
    same ones), basic liking it less and its lead not ``margin`` standard errors. The two
    then play ``rollouts`` more worlds, up to ``close_calls`` times while the call stays
    close; returns the moves left (2 once played on, the others having played fewer worlds)."""
    work = tab[2 * table_rows(tab[T_ST, ST_PLAYERS]) :]
    margin = int(seats[p, S_MARGIN])
    liked = prior_rank(tab, p, work[W_MOVES, 0], penalty)
    more = max(1, int(seats[p, S_ROLLOUTS]))
    for _ in range(int(seats[p, S_CLOSE_CALLS])):
        if (
            work[W_WORTH, 1] <= work[W_WORTH, 0]
            or prior_rank(tab, p, work[W_MOVES, 1], penalty) >= liked
            or significant(work[W_DIFF, 1], work[W_SQUARES, 1], work[W_PLAYED, 1], margin)
        ):
            break
        alive = 2
        _play_worlds(tab, p, 2, more, penalty, m, seats, rng, ev)
    return alive


@engine_jit
def significant(total, squares, worlds, margin):
    """Whether differences summing to ``total`` (their squares to ``squares``) over
    ``worlds`` worlds put a move ahead by more than ``margin`` standard errors of their mean
    (a paired test: mean > margin x sd / sqrt(worlds))."""
    if total <= 0 or worlds < 2:
        return False
    spread = (squares - total * total / worlds) / (worlds - 1)  # the differences' variance
    return total * total > margin * margin * worlds * spread


@engine_jit
def _choose(tab, p, alive, penalty, seats, rng):
    """The position of the move to make among the first ``alive`` (see the module's
    docstring); under ``prior: none`` ties are broken uniformly on search's stream."""
    work = tab[2 * table_rows(tab[T_ST, ST_PLAYERS]) :]
    worth = work[W_WORTH]
    if int(seats[p, S_PRIOR]) != PRIOR_BASIC:
        ties = 1
        while ties < alive and worth[ties] == worth[0]:
            ties += 1
        return below(rng[RNG_SEARCH : RNG_SEARCH + 1], ties) if ties > 1 else 0
    margin = int(seats[p, S_MARGIN])
    liked = prior_rank(tab, p, work[W_MOVES, 0], penalty)
    best = 0
    for k in range(1, alive):
        if worth[k] > worth[best] and (
            prior_rank(tab, p, work[W_MOVES, k], penalty) >= liked
            or significant(work[W_DIFF, k], work[W_SQUARES, k], work[W_PLAYED, k], margin)
        ):
            best = k
    return best


@engine_jit
def _trace(tab, p, n, basic_first, ev):
    """One EV_SEARCH event per move weighed, in the order of the moves row: the move, its
    details (basic's move marked when ``basic_first``), its estimated win chance in tenths
    of a percent, and the rollouts it played."""
    work = tab[2 * table_rows(tab[T_ST, ST_PLAYERS]) :]
    for k in range(n):
        move = work[W_MOVES, k]
        detail = traced_detail(move) | (BASIC_CHOICE_BIT if basic_first and k == 0 else 0)
        played = max(work[W_PLAYED, k], 1)
        permille = (1000 * work[W_WORTH, k] + played * SCALE // 2) // (played * SCALE)
        emit(tab[T_ST], ev, EV_SEARCH, p, move & WHAT_MASK, detail, permille, work[W_PLAYED, k])


@engine_jit
def _search(tab, p, penalty, seats, rng, ev):
    """Search seat ``p``'s decision (a pending draw's when ``penalty``) and write the move
    chosen into the memory row; returns it, or -1 with nothing to choose."""
    st = tab[T_ST]
    memory = tab[T_MEMORY]
    for k in range(FORCE_SLOTS):
        memory[FORCE_CARD + k] = 0
    players = st[ST_PLAYERS]
    rows = table_rows(players)
    if (
        tab.shape[0] < 2 * rows + SEARCH_WORK_ROWS
        or rng.shape[0] < RNG_STREAMS
        or seats.shape[0] < 2 * players
    ):
        return -1
    moves = tab[2 * rows + W_MOVES]
    limit = max(1, int(seats[p, S_MAX_CANDIDATES]))
    kinds = int(seats[p, S_SEARCH_MOVES])
    if penalty:
        n = penalty_moves(tab, p, limit, kinds != CARDS_ONLY, moves)
    else:
        n = turn_moves(tab, p, limit, kinds != CARDS_ONLY, kinds == EVERY_MOVE, moves)
    if n < 2:  # one move (or none): nothing to choose
        return -1
    _rollout_seats(seats, p, players)
    alive = _evaluate(tab, p, n, penalty, seats, rng, ev)
    _trace(tab, p, n, int(seats[p, S_PRIOR]) == PRIOR_BASIC, ev)
    move = moves[_choose(tab, p, alive, penalty, seats, rng)]
    force(memory, move, penalty and challengeable(tab))
    return move


@engine_jit
def search_turn(tab, p, seats, rng, ev):
    """Before seat ``p``'s normal turn: search its move (a bluff is announced to the turn by
    the table's bluff flag). Draws nothing from the game's stream (``rng[0]``)."""
    move = _search(tab, p, False, seats, rng, ev)
    if move >= 0:
        tab[T_ST, ST_BLUFF] = 1 if move & BLUFF_BIT else 0


@engine_jit
def search_penalty(tab, p, seats, rng, ev):
    """Before seat ``p`` answers a pending draw: search whether to challenge, which card to
    answer with, or whether to draw it."""
    _search(tab, p, True, seats, rng, ev)
