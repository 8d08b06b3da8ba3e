"""The compiled game kernel: many whole games of random and greedy bots in one call (numba).

The engine (:mod:`hisss.core`) keeps snakes as cards and colours; a bulk run needs far less. Here a
snake on the table is five small numbers: the colour of its left and right ends (0 to 5 around the
wheel, :data:`WILD_END` for a lone wild neck, :data:`CLOSED` for an end closed by a head or tail),
the kind of its left and right cards (:data:`K_HEAD`, :data:`K_TAIL`, :data:`K_MID`) and its length.
The table is a row of such snakes in the engine's table order and orientation (a head at the left,
a tail at the right; a snake turned round exactly when the engine turns it), so the legal actions
come out in the engine's order, numbered as ``State.legal_actions()`` numbers them (extends and
caps by snake and end, then joins, then ``new``). A card is its code (0 to 28, as in
:mod:`hisss.core.cards`).

Randomness: the deal is a Fisher-Yates shuffle from a splitmix64 generator started at the game's
seed; a bot takes candidate ``floor(u * n)`` of its ``n`` (``u`` uniform of 53 bits; a lone one
draws nothing) from :func:`hisss.bots.turns.decision_rng` of the seed and the turn, as
``next_decision`` does. The deal is not the engine's (another shuffle) but is as distributed.

A game is small compiled steps: :func:`moves` lists a turn's legal actions, a bot picks one,
:func:`step` applies it and counts it, :func:`finish` scores the game; :func:`play_games` deals and
plays many games with bots choosing. :mod:`hisss.sim.kernel_replay` plays the same steps with given
choices, to check them against the engine.

This module needs numba; :mod:`hisss.sim.fast` is the Python side (checks, seeds, statistics).
Compiled code is cached on disk when the package directory is writable or ``NUMBA_CACHE_DIR`` is
set, and compiled afresh in each process otherwise. numba checks only the file of the function it
loads, so a cached caller of these steps in another file could run stale code:
:mod:`hisss.kernel.rollout` names the version of this file it was compiled against, and a test
keeps that name true.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

#: End colours beyond the six of the wheel.
WILD_END = 6
CLOSED = 7
#: Card kinds.
K_HEAD = 0
K_TAIL = 1
K_MID = 2
#: Bots the kernel plays.
BOT_RANDOM = 0
BOT_GREEDY = 1
#: Scorings, in the order of :class:`hisss.core.Scoring`'s members as the fast path maps them.
SC_CARDS = 0
SC_SNAKES = 1
SC_LONGEST = 2
SC_FIRST_TO = 3
#: How a game was decided (``Result.decided_by``).
DECIDED = ("cards", "snakes", "longest", "target", "shared")
D_CARDS = 0
D_SNAKES = 1
D_LONGEST = 2
D_TARGET = 3
D_SHARED = 4

#: Columns of a game's row of figures; the per-seat columns follow (cards, snakes, longest).
COL_TURNS = 0
COL_CHOICES = 1
COL_WITH_CHOICE = 2
COL_MAX_CHOICES = 3
COL_NEW = 4
COL_EXTENDS = 5
COL_CAPS = 6
COL_JOINS = 7
COL_TABLE_SNAKES = 8
COL_TABLE_CARDS = 9
COL_DECIDED = 10
COL_WINNERS = 11
COL_SEATS = 12


def row_width(players: int) -> int:
    """The number of columns of a game's row for ``players`` seats."""
    return COL_SEATS + 3 * players


def _cache_wanted() -> bool:
    """Cache compiled code only where numba can write it: never surprise a read-only install."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return True
    here = Path(__file__).resolve().parent
    return os.access(here, os.W_OK)


_CACHE = _cache_wanted()
#: The small steps of a game, inlined into their callers in numba's IR: one compiled loop per game
#: (:func:`_play`), as fast as a single long function.
_step = njit(cache=_CACHE, inline="always")

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53
#: The step between the starting states of neighbouring turns' generators (``decision_rng``).
_TURN_STEP = np.uint64(0xD1B54A32D192ED03)


@_step
def _next(rng: Any) -> Any:
    """The next 64-bit output of the splitmix64 generator whose state is ``rng[0]``."""
    s = rng[0] + _GOLDEN
    rng[0] = s
    z = (s ^ (s >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@_step
def _finalise(z: Any) -> Any:
    """The splitmix64 finaliser of ``z`` (a uint64): a game's seed's is its decisions' base."""
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@_step
def _below(rng: Any, n: int) -> int:
    """A uniform whole number in ``[0, n)``."""
    u = float(_next(rng) >> _S11) * _TO_UNIT
    return int(u * n)


#: Rows of the scratch array ``work`` (:func:`scratch`). The table, one column per snake: the
#: colours and kinds of the left and right ends, and the length.
_LC, _RC, _LK, _RK, _LN = range(5)
#: The turn's extends and caps: snake, end (0 left, 1 right), the mid-section's side touching the
#: end (0: side a, 1: side b).
_ACT_I, _ACT_E, _ACT_S = range(5, 8)
#: The open ends a mid-section's side a (``EX``) and side b (``EY``) may touch: snake and end.
_EX_I, _EX_E, _EY_I, _EY_E = range(8, 12)
WORK_ROWS = 12
#: Rows of the scratch array ``pairs``: each join of the turn, as the snake and end touched by
#: side a, then the snake and end touched by side b.
_J_I, _J_IE, _J_J, _J_JE = range(4)


@njit(cache=_CACHE)
def scratch(size: int) -> Any:
    """The scratch arrays ``(work, pairs)`` for games of ``size`` cards.

    An end takes at most two actions (a wild neck, both sides), and a join pairs an end touched
    by side a with one touched by side b: at most ``2 * size`` of each.
    """
    work = np.zeros((WORK_ROWS, 4 * size + 4), dtype=np.int64)
    pairs = np.zeros((4, 4 * size * size + 4), dtype=np.int64)
    return work, pairs


@_step
def _place_new(work: Any, size: int, kind: int, x: int, y: int) -> int:
    """Lay the card (``kind``, colours ``x`` and ``y``) as a new snake at the table's end."""
    if kind == K_MID:
        work[_LC, size] = x
        work[_RC, size] = y
    elif kind == K_HEAD:
        work[_LC, size] = CLOSED
        work[_RC, size] = x
    else:
        work[_LC, size] = x
        work[_RC, size] = CLOSED
    work[_LK, size] = kind
    work[_RK, size] = kind
    work[_LN, size] = 1
    return size + 1


@_step
def _remove(work: Any, size: int, i: int) -> int:
    """Remove snake ``i`` from the table, keeping the order; return the new size."""
    for k in range(i, size - 1):
        for r in range(_LN + 1):
            work[r, k] = work[r, k + 1]
    return size - 1


@_step
def _add_action(work: Any, ne: int, i: int, e: int, side: int) -> int:
    work[_ACT_I, ne] = i
    work[_ACT_E, ne] = e
    work[_ACT_S, ne] = side
    return ne + 1


@_step
def _add_end(work: Any, row: int, count: int, i: int, e: int) -> int:
    work[row, count] = i
    work[row + 1, count] = e
    return count + 1


@_step
def _scan_end(
    work: Any, i: int, e: int, x: int, y: int, ne: int, nx: int, ny: int
) -> tuple[int, int, int]:
    """The extends of a mid-section (sides ``x``, ``y``) at end ``e`` of snake ``i``, and the end
    noted as one side a or side b may join; return the new counts ``(ne, nx, ny)``."""
    c = work[_RC, i] if e == 1 else work[_LC, i]
    if c == x:
        ne = _add_action(work, ne, i, e, 0)
        nx = _add_end(work, _EX_I, nx, i, e)
    elif c == y:
        ne = _add_action(work, ne, i, e, 1)
        ny = _add_end(work, _EY_I, ny, i, e)
    elif c == WILD_END:
        ne = _add_action(work, ne, i, e, 0)
        ne = _add_action(work, ne, i, e, 1)
        nx = _add_end(work, _EX_I, nx, i, e)
        ny = _add_end(work, _EY_I, ny, i, e)
    return ne, nx, ny


@_step
def _list_joins(work: Any, pairs: Any, nx: int, ny: int) -> int:
    """List the joins (in the engine's order) of the ends noted by :func:`_scan_end`; return
    their number. Two ends of one snake never join, nor two heads, nor two tails."""
    nj = 0
    for a in range(nx):
        i = work[_EX_I, a]
        head = work[_LK, i] == K_HEAD
        tail = work[_RK, i] == K_TAIL
        for b in range(ny):
            j = work[_EY_I, b]
            two_heads = head and work[_LK, j] == K_HEAD
            if i != j and not two_heads and not (tail and work[_RK, j] == K_TAIL):
                pairs[_J_I, nj] = i
                pairs[_J_IE, nj] = work[_EX_E, a]
                pairs[_J_J, nj] = j
                pairs[_J_JE, nj] = work[_EY_E, b]
                nj += 1
    return nj


@_step
def _legal(work: Any, pairs: Any, size: int, kind: int, x: int, y: int) -> tuple[int, int]:
    """The placements of the card (``kind``, colours ``x``, ``y``) in the engine's order:
    ``(ne, nj)``, ``ne`` extends or caps (``work``'s action rows), then ``nj`` joins."""
    ne = 0
    if kind == K_MID:
        nx = 0
        ny = 0
        for i in range(size):
            ne, nx, ny = _scan_end(work, i, 0, x, y, ne, nx, ny)
            ne, nx, ny = _scan_end(work, i, 1, x, y, ne, nx, ny)
        return ne, _list_joins(work, pairs, nx, ny)
    for i in range(size):
        if kind == K_HEAD:
            if work[_LK, i] == K_HEAD:
                continue
        elif work[_RK, i] == K_TAIL:
            continue
        if work[_LK, i] == K_MID and (x == WILD_END or work[_LC, i] == x):
            ne = _add_action(work, ne, i, 0, 0)
        if work[_RK, i] == K_MID and (x == WILD_END or work[_RC, i] == x):
            ne = _add_action(work, ne, i, 1, 0)
    return ne, 0


@_step
def moves(arrays: Any, size: int, code: int, cards: Any, game: Any) -> Any:
    """The turn of the card ``code`` on the table: ``(n, ne, nj, kind, x, y, join_always)``, the
    ``n`` legal actions (``ne`` extends or caps, ``nj`` joins, then ``new`` when allowed: always
    when nothing else is, or with forced placement off) and the card's kind and colours.
    ``cards`` is ``(card_kind, card_a, card_b)``; ``game`` is ``(players, forced, join_always,
    scoring, target)``."""
    work, pairs = arrays
    card_kind, card_a, card_b = cards
    kind = card_kind[code]
    x = card_a[code]
    y = card_b[code]
    ne, nj = _legal(work, pairs, size, kind, x, y)
    n = ne + nj + 1 if ne + nj == 0 or not game[1] else ne + nj
    return n, ne, nj, kind, x, y, game[2]


@_step
def _gain(work: Any, pairs: Any, k: int, turn: Any) -> int:
    """The cards action ``k`` of ``turn`` (not ``new``) claims at once; 0 when none."""
    _n, ne, _nj, kind, _x, _y, join_always = turn
    if k < ne:
        if kind == K_MID:
            return 0
        i = work[_ACT_I, k]
        if kind == K_HEAD:
            return work[_LN, i] + 1 if work[_RK, i] == K_TAIL else 0
        return work[_LN, i] + 1 if work[_LK, i] == K_HEAD else 0
    i = pairs[_J_I, k - ne]
    j = pairs[_J_J, k - ne]
    heads = work[_LK, i] == K_HEAD or work[_LK, j] == K_HEAD
    tails = work[_RK, i] == K_TAIL or work[_RK, j] == K_TAIL
    return work[_LN, i] + work[_LN, j] + 1 if join_always or (heads and tails) else 0


@_step
def best_gain(arrays: Any, turn: Any) -> tuple[int, int]:
    """The most cards one action of ``turn`` claims at once, and how many actions claim that
    many (``(0, 0)`` when none claims any): greedy's aim."""
    work, pairs = arrays
    best = 0
    ties = 0
    for k in range(turn[1] + turn[2]):
        gain = _gain(work, pairs, k, turn)
        if gain > best:
            best = gain
            ties = 1
        elif gain == best and gain > 0:
            ties += 1
    return best, ties


@_step
def _choose(rng: Any, bot: int, arrays: Any, turn: Any) -> int:
    """The action ``bot`` picks: greedy the most cards now (uniformly among the best), random (or
    greedy with nothing to claim) uniformly among all; a forced move draws nothing."""
    n = turn[0]
    if n == 1:
        return 0
    if bot == BOT_GREEDY:
        best, ties = best_gain(arrays, turn)
        if best > 0:
            work, pairs = arrays
            r = 0 if ties == 1 else _below(rng, ties)
            for k in range(turn[1] + turn[2]):
                if _gain(work, pairs, k, turn) == best:
                    if r == 0:
                        return k
                    r -= 1
    return _below(rng, n)


@_step
def _extend(work: Any, i: int, e: int, side: int, x: int, y: int) -> None:
    """Extend end ``e`` of snake ``i`` by the mid-section touching it with side ``side``."""
    other = y if side == 0 else x
    if e == 1:
        work[_RC, i] = other
        work[_RK, i] = K_MID
    else:
        work[_LC, i] = other
        work[_LK, i] = K_MID
    work[_LN, i] += 1


@_step
def _cap(work: Any, size: int, i: int, e: int, kind: int) -> tuple[int, int]:
    """Close end ``e`` of snake ``i`` by a head or tail, turning the snake round when the card
    lands at the wrong end; return the new size and the cards claimed (0, or the snake)."""
    if e == 1:
        work[_RC, i] = CLOSED
        work[_RK, i] = kind
        turn_round = kind == K_HEAD
    else:
        work[_LC, i] = CLOSED
        work[_LK, i] = kind
        turn_round = kind == K_TAIL
    work[_LN, i] += 1
    if turn_round:
        work[_LC, i], work[_RC, i] = work[_RC, i], work[_LC, i]
        work[_LK, i], work[_RK, i] = work[_RK, i], work[_LK, i]
    if work[_LK, i] == K_HEAD and work[_RK, i] == K_TAIL:
        claimed = work[_LN, i]
        return _remove(work, size, i), claimed
    return size, 0


@_step
def _join(work: Any, pairs: Any, size: int, k: int, join_always: bool) -> tuple[int, int]:
    """Join the two snakes of join ``k`` in the lower one's place; return the new size and the
    cards claimed (0, or the joined snake when complete or when every join is claimed)."""
    i = pairs[_J_I, k]
    j = pairs[_J_J, k]
    if i < j:
        si, se, ui, ue = i, pairs[_J_IE, k], j, pairs[_J_JE, k]
    else:
        si, se, ui, ue = j, pairs[_J_JE, k], i, pairs[_J_IE, k]
    # the lower snake turned so the touched end is on its right, the other on its left
    flip_s = se == 0
    if flip_s:
        s_lc, s_lk = work[_RC, si], work[_RK, si]
    else:
        s_lc, s_lk = work[_LC, si], work[_LK, si]
    if ue == 1:
        u_rc, u_rk = work[_LC, ui], work[_LK, ui]
    else:
        u_rc, u_rk = work[_RC, ui], work[_RK, ui]
    n_lc, n_lk, n_rc, n_rk = s_lc, s_lk, u_rc, u_rk
    if n_lk == K_TAIL or n_rk == K_HEAD or (n_lk != K_HEAD and n_rk != K_TAIL and flip_s):
        n_lc, n_lk, n_rc, n_rk = u_rc, u_rk, s_lc, s_lk
    length = work[_LN, si] + work[_LN, ui] + 1
    if (n_lk == K_HEAD and n_rk == K_TAIL) or join_always:
        size = _remove(work, size, ui)
        return _remove(work, size, si), length
    work[_LC, si] = n_lc
    work[_LK, si] = n_lk
    work[_RC, si] = n_rc
    work[_RK, si] = n_rk
    work[_LN, si] = length
    return _remove(work, size, ui), 0


@_step
def _apply(work: Any, pairs: Any, size: int, pick: int, turn: Any, row: Any) -> tuple[int, int]:
    """Play action ``pick`` of the turn (see :func:`step`), counting it by kind in ``row``;
    return the new size and the cards claimed."""
    _n, ne, nj, kind, x, y, join_always = turn
    if pick >= ne + nj:
        row[COL_NEW] += 1
        return _place_new(work, size, kind, x, y), 0
    if pick >= ne:
        row[COL_JOINS] += 1
        return _join(work, pairs, size, pick - ne, join_always)
    i = work[_ACT_I, pick]
    e = work[_ACT_E, pick]
    if kind == K_MID:
        row[COL_EXTENDS] += 1
        _extend(work, i, e, work[_ACT_S, pick], x, y)
        return size, 0
    row[COL_CAPS] += 1
    return _cap(work, size, i, e, kind)


@_step
def begin(order: Any, cards: Any, work: Any, row: Any) -> int:
    """Clear ``row`` and lay the starter ``order[0]`` (if any); return the table's size."""
    for k in range(row.shape[0]):
        row[k] = 0
    row[COL_MAX_CHOICES] = -1
    if order.shape[0] == 0:
        return 0
    card_kind, card_a, card_b = cards
    first = order[0]
    return _place_new(work, 0, card_kind[first], card_a[first], card_b[first])


@_step
def step(
    arrays: Any, size: int, pick: int, turn: Any, game: Any, seat: int, out: Any, claims: int
) -> tuple[int, int, bool]:
    """Play action ``pick`` of ``turn`` (from :func:`moves`) for ``seat``: count the turn in the
    row of ``out`` (``(row, claim_seat, claim_len)``) and its claim in the claim arrays. Return
    the new size, the claims so far and whether the game is over (a target reached)."""
    work, pairs = arrays
    players, _forced, _join_always, scoring, target = game
    row, claim_seat, claim_len = out
    n = turn[0]
    row[COL_TURNS] += 1
    row[COL_CHOICES] += n
    if n > 1:
        row[COL_WITH_CHOICE] += 1
    row[COL_MAX_CHOICES] = max(row[COL_MAX_CHOICES], n)
    size, claimed = _apply(work, pairs, size, pick, turn, row)
    if claimed == 0:
        return size, claims, False
    claim_seat[claims] = seat
    claim_len[claims] = claimed
    cards = COL_SEATS + seat
    row[cards] += claimed
    row[COL_SEATS + players + seat] += 1
    longest = COL_SEATS + 2 * players + seat
    row[longest] = max(row[longest], claimed)
    return size, claims + 1, scoring == SC_FIRST_TO and row[cards] >= target


@_step
def finish(row: Any, work: Any, size: int, game: Any) -> None:
    """Write what is left on the table, the winners and what decided them to ``row``."""
    players, _forced, _join_always, scoring, target = game
    row[COL_TABLE_SNAKES] = size
    total = 0
    for i in range(size):
        total += work[_LN, i]
    row[COL_TABLE_CARDS] = total
    _score(row, players, scoring, target)


@_step
def _top_seats(row: Any, players: int, tied: int, column: int) -> int:
    """The seats of the bit mask ``tied`` with the highest figure in ``column`` (per seat)."""
    top = -1
    for s in range(players):
        if tied & (1 << s):
            v = row[COL_SEATS + column * players + s]
            top = max(top, v)
    out = 0
    for s in range(players):
        if tied & (1 << s) and row[COL_SEATS + column * players + s] == top:
            out |= 1 << s
    return out


@_step
def _single(mask: int) -> bool:
    return mask != 0 and (mask & (mask - 1)) == 0


@_step
def _score(row: Any, players: int, scoring: int, target: int) -> None:
    """Winners (a bit mask) and what decided them, as :func:`hisss.core.scoring.score` does."""
    everyone = (1 << players) - 1
    if scoring == SC_FIRST_TO:
        reached = 0
        for s in range(players):
            if row[COL_SEATS + s] >= target:
                reached |= 1 << s
        if _single(reached):
            row[COL_WINNERS] = reached
            row[COL_DECIDED] = D_TARGET
            return
    # per-seat columns: 0 cards, 1 snakes, 2 longest
    if scoring == SC_SNAKES:
        first, second, d1, d2 = 1, 2, D_SNAKES, D_LONGEST
    elif scoring == SC_LONGEST:
        first, second, d1, d2 = 2, 0, D_LONGEST, D_CARDS
    else:
        first, second, d1, d2 = 0, 2, D_CARDS, D_LONGEST
    tied = _top_seats(row, players, everyone, first)
    if _single(tied):
        row[COL_WINNERS] = tied
        row[COL_DECIDED] = d1
        return
    tied = _top_seats(row, players, tied, second)
    row[COL_WINNERS] = tied
    row[COL_DECIDED] = d2 if _single(tied) else D_SHARED


# The game loop keeps no reference counts (numba's ``_nrt`` option, off; its type stubs leave it
# out): numba counts a reference to every array each inlined step receives, and its pruning leaves
# those counts inside the loops, which made the games twice as slow. This function allocates
# nothing, so it needs none (numba refuses to compile an allocation here).
@njit(cache=_CACHE, _nrt=False)  # type: ignore[call-overload, untyped-decorator]
def _play(order: Any, game: Any, cards: Any, bots: Any, rng: Any, out: Any, arrays: Any) -> None:
    """Play one game of the cards ``order`` (starter first) between ``bots`` (one per seat);
    figures to ``out`` (see :func:`step`), ``arrays`` from :func:`scratch`. Turn ``t`` (from 0)
    draws on ``rng[0] = rng[1] + t * _TURN_STEP``: ``decision_rng``, ``rng[1]`` the finaliser."""
    size = begin(order, cards, arrays[0], out[0])
    claims = 0
    seat = 0
    for t in range(1, order.shape[0]):
        turn = moves(arrays, size, order[t], cards, game)
        rng[0] = rng[1] + np.uint64(t - 1) * _TURN_STEP
        pick = _choose(rng, bots[seat], arrays, turn)
        size, claims, over = step(arrays, size, pick, turn, game, seat, out, claims)
        if over:
            break
        seat = seat + 1 if seat + 1 < game[0] else 0
    finish(out[0], arrays[0], size, game)


@njit(cache=_CACHE)
def game_seeds(base: Any, first: int, count: int) -> Any:
    """The seeds of games ``first`` to ``first + count - 1`` of a run whose base seed is ``base``:
    the splitmix64 finaliser of ``base + number * golden``, shifted to 63 bits."""
    out = np.empty(count, dtype=np.uint64)
    for k in range(count):
        out[k] = _finalise(base + np.uint64(first + k) * _GOLDEN) >> np.uint64(1)
    return out


@_step
def _shuffle(order: Any, deck: Any, rng: Any) -> None:
    """Deal ``deck`` into ``order``: a Fisher-Yates shuffle drawn from ``rng``."""
    size = deck.shape[0]
    for k in range(size):
        order[k] = deck[k]
    for k in range(size - 1, 0, -1):
        j = _below(rng, k + 1)
        tmp = order[k]
        order[k] = order[j]
        order[j] = tmp


@njit(cache=_CACHE)
def play_games(
    deck: Any, seeds: Any, game: Any, cards: Any, bots: Any, rows: Any, seats: Any, lengths: Any
) -> None:
    """Deal and play one game per seed; figures to ``rows``, the claims' seats and lengths to
    ``seats`` and ``lengths`` (one row each).

    ``deck`` holds every card of the deck (copies repeated) in any fixed order; ``game`` is
    ``(players, forced, join_always, scoring, target)``, ``cards`` ``(card_kind, card_a,
    card_b)`` and ``bots`` the code of each seat's bot.
    """
    order = np.empty(deck.shape[0], dtype=np.int64)
    arrays = scratch(deck.shape[0])
    rng = np.zeros(2, dtype=np.uint64)  # the deal's (then the decision's) state; the finaliser
    for g in range(seeds.shape[0]):
        rng[0] = seeds[g]
        _shuffle(order, deck, rng)
        rng[1] = _finalise(seeds[g])
        _play(order, game, cards, bots, rng, (rows[g], seats[g], lengths[g]), arrays)
