"""Careful play and rollouts to the end of the game, compiled (numba): the expert's search.

:func:`careful_pick` plays exactly as :class:`hisss.bots.careful.CarefulBot` decides (the same
whole-number values: own claim times the cards left, minus the next player's best claim summed
over the copies still to come), on the compiled table of :mod:`hisss.kernel.steps`.
:func:`rollouts` estimates, for every legal placement of a decision, the share of the win it
leads to when every seat plays ``careful`` from then on: each rollout deals the unseen cards in a
random order and plays that deal once after each placement, with the same order and the same
tie-breaks for all of them (common random numbers), so the placements are compared on the same
luck. The expert (:mod:`hisss.bots.expert`) reads the per-rollout results.

Compiled code is cached on disk beside this file (see :mod:`hisss.kernel.steps`). numba checks
only the file of the function it loads, and these functions inline the steps of
``steps.py``: :data:`STEPS_DIGEST` names the steps they were written against, and a test fails
when ``steps.py`` changes without it, so that the edit that updates it also makes numba compile
this file afresh. The entry points release the GIL, so a server thread rolling out does not
stall the others.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from numba import njit

from hisss.core import State, new_game, parse_card
from hisss.kernel.steps import (
    _ACT_E,
    _ACT_I,
    _ACT_S,
    _CACHE,
    _LN,
    BOT_GREEDY,
    COL_SEATS,
    COL_WINNERS,
    K_MID,
    SC_FIRST_TO,
    SC_SNAKES,
    WORK_ROWS,
    _below,
    _cap,
    _choose,
    _extend,
    _join,
    _place_new,
    _shuffle,
    best_gain,
    finish,
    moves,
    step,
)
from hisss.kernel.tables import card_arrays, game_tuple, position

#: The SHA-256 of ``steps.py`` that this file's cached code was compiled against.
STEPS_DIGEST = "c2bdb79a306d36fa132b2da9ee720bc1891040cc5b0b2916640853dcfb9ef2b1"
#: :mod:`hisss.bots.careful`'s values of a snake under ``snakes`` scoring and of reaching a target.
SNAKE_VALUE = 1000
WIN_VALUE = 1_000_000

_inline = njit(cache=_CACHE, inline="always")
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@_inline
def _value(cards: int, scoring: int, pit: int, target: int) -> int:
    """A claim of ``cards`` cards in the scoring rule's measure (``careful``'s ``claim_value``)."""
    if cards == 0:
        return 0
    if scoring == SC_SNAKES:
        return SNAKE_VALUE + cards
    if scoring == SC_FIRST_TO and pit + cards >= target:
        return WIN_VALUE + cards
    return cards


@_inline
def _place_on(work: Any, pairs: Any, side: Any, size: int, k: int, turn: Any) -> tuple[int, int]:
    """Play action ``k`` of ``turn`` (listed in ``work`` and ``pairs``) on the table ``side``, a
    copy of ``work``'s table; return its new size and the cards claimed."""
    _n, ne, nj, kind, x, y, join_always = turn
    if k >= ne + nj:
        return _place_new(side, size, kind, x, y), 0
    if k >= ne:
        return _join(side, pairs, size, k - ne, join_always)
    i = work[_ACT_I, k]
    e = work[_ACT_E, k]
    if kind == K_MID:
        _extend(side, i, e, work[_ACT_S, k], x, y)
        return size, 0
    return _cap(side, size, i, e, kind)


@_inline
def _careful_values(
    buffers: Any, size: int, turn: Any, counts: Any, left: int, tables: Any, seat: int
) -> tuple[int, int]:
    """``careful``'s value of each action of ``turn`` into ``values``; return the best value and
    how many actions have it. ``left`` cards are still to be drawn, ``counts`` of each code;
    ``buffers`` is ``(arrays, side, row, values)`` and ``tables`` ``(cards, game)`` (see
    :func:`careful_pick`)."""
    arrays, side, row, values = buffers
    cards, game = tables
    work, pairs = arrays
    side_work = side[0]
    players, _forced, _join_always, scoring, target = game
    nxt = seat + 1 if seat + 1 < players else 0
    pit = row[COL_SEATS + seat]
    best = -(1 << 62)
    ties = 0
    for k in range(turn[0]):
        for r in range(_LN + 1):
            for c in range(size):
                side_work[r, c] = work[r, c]
        after, own = _place_on(work, pairs, side_work, size, k, turn)
        value = _value(own, scoring, pit, target) * left
        if not (scoring == SC_FIRST_TO and own > 0 and pit + own >= target):
            for code in range(counts.shape[0]):
                if counts[code]:
                    gift, _ties = best_gain(side, moves(side, after, code, cards, game))
                    value -= counts[code] * _value(gift, scoring, row[COL_SEATS + nxt], target)
        values[k] = value
        if value > best:
            best = value
            ties = 1
        elif value == best:
            ties += 1
    return best, ties


@_inline
def careful_pick(
    rng: Any, buffers: Any, size: int, turn: Any, counts: Any, left: int, tables: Any, seat: int
) -> int:
    """The action ``careful`` plays on ``turn`` for ``seat``: the best value, ties uniformly at
    random; greedy's choice after the last card; a forced move draws nothing.

    ``buffers`` is ``(arrays, side, row, values)``: the scratch arrays of the table, a second
    pair of them (the table after each action), the game's row of figures (the pits) and a
    scratch row of values; ``tables`` is ``(cards, game)`` (:mod:`hisss.kernel.tables`).
    """
    n = turn[0]
    if n == 1 or left == 0:
        return _choose(rng, BOT_GREEDY, buffers[0], turn)
    best, ties = _careful_values(buffers, size, turn, counts, left, tables, seat)
    values = buffers[3]
    r = 0 if ties == 1 else _below(rng, ties)
    for k in range(n):
        if values[k] == best:
            if r == 0:
                return k
            r -= 1
    return 0


@_inline
def _buffers(size: int, counts: Any, players: int) -> Any:
    """The scratch arrays for a game of ``size`` snakes and ``counts`` cards to come."""
    cap = size + int(counts.sum()) + 2
    work = np.zeros((WORK_ROWS, 4 * cap + 4), dtype=np.int64)
    pairs = np.zeros((4, 4 * cap * cap + 4), dtype=np.int64)
    side = (np.zeros((WORK_ROWS, 4 * cap + 4), dtype=np.int64), np.zeros_like(pairs))
    row = np.zeros(COL_SEATS + 3 * players, dtype=np.int64)
    claims = (row, np.zeros(cap, dtype=np.int8), np.zeros(cap, dtype=np.int32))
    return (work, pairs), side, claims, np.zeros(4 * cap * cap + 4, dtype=np.int64)


@_inline
def _set_up(table: Any, size: int, pits: Any, players: int, work: Any, row: Any) -> None:
    """Lay the position's ``table`` in ``work`` and its ``pits`` in ``row``."""
    for r in range(_LN + 1):
        for c in range(size):
            work[r, c] = table[r, c]
    for k in range(row.shape[0]):
        row[k] = 0
    for s in range(players):
        for column in range(3):
            row[COL_SEATS + column * players + s] = pits[column, s]


@njit(cache=_CACHE, nogil=True)
def careful_values(position: Any, seat: int, game: Any, cards: Any, values: Any) -> int:
    """``careful``'s value of every legal action of the drawn card in ``position`` (``(table,
    size, drawn, counts, pits)``, as :func:`hisss.kernel.tables.position` gives it) into
    ``values``; return their number. For checks: with cards still to come, the values are those
    of :func:`hisss.bots.careful.lookahead_values`."""
    table, size, drawn, counts, pits = position
    arrays, side, claims, _scratch = _buffers(size, counts, game[0])
    _set_up(table, size, pits, game[0], arrays[0], claims[0])
    turn = moves(arrays, size, drawn, cards, game)
    buffers = (arrays, side, claims[0], values)
    _careful_values(buffers, size, turn, counts, int(counts.sum()), (cards, game), seat)
    return int(turn[0])


@njit(cache=_CACHE, nogil=True)
def rollouts(position: Any, seat: int, game: Any, cards: Any, seed: Any, out: Any) -> int:
    """Roll the ``position`` (``(table, size, drawn, counts, pits)``, as
    :func:`hisss.kernel.tables.position` gives it) out ``out.shape[1]`` times after each legal
    action of the drawn card.

    ``out[a, r]`` receives ``seat``'s share of the win (1, a fraction when shared, or 0) when it
    places the card by action ``a`` and every seat then plays ``careful`` on the ``r``-th deal of
    the unseen cards (``counts``). The deals and the tie-breaks come from ``seed``. Returns the
    number of legal actions (``out`` must have a row for each).
    """
    table, size, drawn, counts, pits = position
    players = game[0]
    arrays, side, claims, values = _buffers(size, counts, players)
    buffers = (arrays, side, claims[0], values)
    tables = (cards, game)
    work = arrays[0]
    row = claims[0]
    total = int(counts.sum())
    unseen = np.zeros(total, dtype=np.int64)  # the unseen cards, in code order
    p = 0
    for code in range(counts.shape[0]):
        for _copy in range(counts[code]):
            unseen[p] = code
            p += 1
    order = np.zeros(total, dtype=np.int64)
    left = np.zeros(counts.shape[0], dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    _set_up(table, size, pits, players, work, row)
    actions = moves(arrays, size, drawn, cards, game)[0]
    for r in range(out.shape[1]):
        rng[0] = seed + np.uint64(r) * _GOLDEN
        _shuffle(order, unseen, rng)
        ties = rng[0]
        for a in range(actions):
            _set_up(table, size, pits, players, work, row)
            for code in range(counts.shape[0]):
                left[code] = counts[code]
            rng[0] = ties
            turn = moves(arrays, size, drawn, cards, game)
            now, taken, over = step(arrays, size, a, turn, game, seat, claims, 0)
            mover = seat
            t = 0
            while not over and t < total:
                mover = mover + 1 if mover + 1 < players else 0
                code = order[t]
                left[code] -= 1
                t += 1
                turn = moves(arrays, now, code, cards, game)
                pick = careful_pick(rng, buffers, now, turn, left, total - t, tables, mover)
                now, taken, over = step(arrays, now, pick, turn, game, mover, claims, taken)
            finish(row, work, now, game)
            winners = row[COL_WINNERS]
            share = 0.0
            if winners & (1 << seat):
                shared = 0
                for s in range(players):
                    shared += (winners >> s) & 1
                share = 1.0 / shared
            out[a, r] = share
    return int(actions)


def win_shares(state: State, count: int, seed: int) -> Any:
    """The rollouts of :func:`rollouts` for the decision of ``state``: an array with a row per
    legal action (in ``state.legal_actions()``'s order) and a column per rollout."""
    out = np.zeros((len(state.legal_actions()), count), dtype=np.float64)
    game = game_tuple(state.players, state.rules)
    cards = card_arrays()
    rollouts(position(state), state.to_move, game, cards, np.uint64(seed), out)
    return out


def warm_up() -> float:
    """Compile :func:`rollouts` (or load it from numba's cache) on a small position; return the
    seconds it took."""
    start = time.perf_counter()
    state = new_game(2)
    for text in ("M:red-orange", "M:orange-yellow"):
        state.draw(parse_card(text))
    win_shares(state, 1, 0)
    return time.perf_counter() - start
