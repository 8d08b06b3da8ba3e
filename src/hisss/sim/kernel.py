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

Randomness: each game owns a splitmix64 generator seeded with the game's seed. The deal is a
Fisher-Yates shuffle of the deck; a choice among ``n`` actions takes ``floor(u * n)`` for a 53-bit
uniform ``u``, and a forced move (or a single best greedy action) draws nothing, as with the
engine's bots. The kernel's games are therefore not the engine's games for the same seed, but
they follow the same distribution: every placement is drawn from the same legal set.

This module needs numba; :mod:`hisss.sim.fast` is the Python side (checks, seeds, statistics).
Compiled code is cached on disk when the package directory is writable or ``NUMBA_CACHE_DIR`` is
set, and compiled afresh in each process otherwise.
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

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=_CACHE)
def _next(rng: Any) -> Any:
    """The next 64-bit output of the splitmix64 generator whose state is ``rng[0]``."""
    s = rng[0] + _GOLDEN
    rng[0] = s
    z = (s ^ (s >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=_CACHE)
def _below(rng: Any, n: int) -> int:
    """A uniform whole number in ``[0, n)``."""
    u = float(_next(rng) >> _S11) * _TO_UNIT
    return int(u * n)


@njit(cache=_CACHE)
def _remove(lc: Any, rc: Any, lk: Any, rk: Any, ln: Any, size: int, i: int) -> int:
    """Remove snake ``i`` from the table, keeping the order; return the new size."""
    for k in range(i, size - 1):
        lc[k] = lc[k + 1]
        rc[k] = rc[k + 1]
        lk[k] = lk[k + 1]
        rk[k] = rk[k + 1]
        ln[k] = ln[k + 1]
    return size - 1


@njit(cache=_CACHE)
def _play(
    order: Any,
    players: int,
    forced: bool,
    join_always: bool,
    scoring: int,
    target: int,
    bots: Any,
    card_kind: Any,
    card_a: Any,
    card_b: Any,
    rng: Any,
    choices: Any,
    counts: Any,
    row: Any,
    claim_seat: Any,
    claim_len: Any,
    work: Any,
) -> int:
    """Play one game of the cards ``order`` (starter first); return the number of claims.

    With ``choices`` non-empty the game replays those action indices (engine numbering) instead
    of asking the bots, and row ``t`` of ``counts`` receives turn ``t``'s number of legal actions,
    the most cards one of them takes and the number greedy chooses among; a choice out of range
    stops the game and returns -1 - turn. Figures go to ``row`` (see ``COL_*``), the
    claims in order to ``claim_seat`` and ``claim_len``. ``work`` is scratch space of 12 rows of at
    least the deck's size.
    """
    size_deck = order.shape[0]
    replay = choices.shape[0] > 0
    lc = work[0]
    rc = work[1]
    lk = work[2]
    rk = work[3]
    ln = work[4]
    # extends and caps: snake, end (0 L, 1 R), the mid-section's side touching (0: a, 1: b)
    act_i = work[5]
    act_e = work[6]
    act_s = work[7]
    # open ends matching the mid-section's side a (x) and side b (y): snake and end
    ex_i = work[8]
    ex_e = work[9]
    ey_i = work[10]
    ey_e = work[11]
    for k in range(row.shape[0]):
        row[k] = 0
    base = COL_SEATS
    row[COL_MAX_CHOICES] = -1
    size = 0
    claims = 0
    to_move = 0
    finished = False
    if size_deck > 0:
        first = order[0]
        kind = card_kind[first]
        if kind == K_MID:
            lc[0] = card_a[first]
            rc[0] = card_b[first]
        elif kind == K_HEAD:
            lc[0] = CLOSED
            rc[0] = card_a[first]
        else:
            lc[0] = card_a[first]
            rc[0] = CLOSED
        lk[0] = kind
        rk[0] = kind
        ln[0] = 1
        size = 1
    turn = 0
    for t in range(1, size_deck):
        if finished:
            break
        card = order[t]
        kind = card_kind[card]
        x = card_a[card]
        y = card_b[card]
        ne = 0
        nx = 0
        ny = 0
        joins = 0
        if kind == K_MID:
            for i in range(size):
                c = lc[i]
                if c != CLOSED:
                    if c == x:
                        act_i[ne] = i
                        act_e[ne] = 0
                        act_s[ne] = 0
                        ne += 1
                        ex_i[nx] = i
                        ex_e[nx] = 0
                        nx += 1
                    elif c == y:
                        act_i[ne] = i
                        act_e[ne] = 0
                        act_s[ne] = 1
                        ne += 1
                        ey_i[ny] = i
                        ey_e[ny] = 0
                        ny += 1
                    elif c == WILD_END:
                        act_i[ne] = i
                        act_e[ne] = 0
                        act_s[ne] = 0
                        act_i[ne + 1] = i
                        act_e[ne + 1] = 0
                        act_s[ne + 1] = 1
                        ne += 2
                        ex_i[nx] = i
                        ex_e[nx] = 0
                        nx += 1
                        ey_i[ny] = i
                        ey_e[ny] = 0
                        ny += 1
                c = rc[i]
                if c != CLOSED:
                    if c == x:
                        act_i[ne] = i
                        act_e[ne] = 1
                        act_s[ne] = 0
                        ne += 1
                        ex_i[nx] = i
                        ex_e[nx] = 1
                        nx += 1
                    elif c == y:
                        act_i[ne] = i
                        act_e[ne] = 1
                        act_s[ne] = 1
                        ne += 1
                        ey_i[ny] = i
                        ey_e[ny] = 1
                        ny += 1
                    elif c == WILD_END:
                        act_i[ne] = i
                        act_e[ne] = 1
                        act_s[ne] = 0
                        act_i[ne + 1] = i
                        act_e[ne + 1] = 1
                        act_s[ne + 1] = 1
                        ne += 2
                        ex_i[nx] = i
                        ex_e[nx] = 1
                        nx += 1
                        ey_i[ny] = i
                        ey_e[ny] = 1
                        ny += 1
            if nx > 0 and ny > 0:
                for a in range(nx):
                    i = ex_i[a]
                    h = lk[i] == K_HEAD
                    tl = rk[i] == K_TAIL
                    for b in range(ny):
                        j = ey_i[b]
                        if i != j and not (h and lk[j] == K_HEAD) and not (tl and rk[j] == K_TAIL):
                            joins += 1
        else:
            for i in range(size):
                if kind == K_HEAD:
                    if lk[i] == K_HEAD:
                        continue
                elif rk[i] == K_TAIL:
                    continue
                if lk[i] == K_MID and (x == WILD_END or lc[i] == x):
                    act_i[ne] = i
                    act_e[ne] = 0
                    ne += 1
                if rk[i] == K_MID and (x == WILD_END or rc[i] == x):
                    act_i[ne] = i
                    act_e[ne] = 1
                    ne += 1
        n = ne + joins
        new_ok = n == 0 or not forced
        if new_ok:
            n += 1
        # ---- choose
        greedy = not replay and n > 1 and bots[to_move] == BOT_GREEDY
        # greedy: the most cards taken now, uniformly among the best; else uniformly
        best = 0
        ties = 0
        if replay or greedy:
            if kind != K_MID:
                for a in range(ne):
                    i = act_i[a]
                    if kind == K_HEAD:
                        gain = ln[i] + 1 if rk[i] == K_TAIL else 0
                    else:
                        gain = ln[i] + 1 if lk[i] == K_HEAD else 0
                    if gain > best:
                        best = gain
                        ties = 1
                    elif gain == best and gain > 0:
                        ties += 1
            elif joins > 0:
                for a in range(nx):
                    i = ex_i[a]
                    h = lk[i] == K_HEAD
                    tl = rk[i] == K_TAIL
                    for b in range(ny):
                        j = ey_i[b]
                        if i != j and not (h and lk[j] == K_HEAD) and not (tl and rk[j] == K_TAIL):
                            if join_always or ((h or lk[j] == K_HEAD) and (tl or rk[j] == K_TAIL)):
                                gain = ln[i] + ln[j] + 1
                            else:
                                gain = 0
                            if gain > best:
                                best = gain
                                ties = 1
                            elif gain == best and gain > 0:
                                ties += 1
        if replay:
            counts[turn, 0] = n
            counts[turn, 1] = best
            counts[turn, 2] = ties if best > 0 else n
            if turn >= choices.shape[0] or choices[turn] < 0 or choices[turn] >= n:
                return -1 - turn
            pick = choices[turn]
        elif n == 1:
            pick = 0
        elif not greedy or best == 0:
            pick = _below(rng, n)
        else:
            r = 0 if ties == 1 else _below(rng, ties)
            # find the r-th best action in engine order
            pick = -1
            if kind != K_MID:
                for a in range(ne):
                    i = act_i[a]
                    if kind == K_HEAD:
                        gain = ln[i] + 1 if rk[i] == K_TAIL else 0
                    else:
                        gain = ln[i] + 1 if lk[i] == K_HEAD else 0
                    if gain == best:
                        if r == 0:
                            pick = a
                            break
                        r -= 1
            else:
                m = ne
                for a in range(nx):
                    if pick >= 0:
                        break
                    i = ex_i[a]
                    h = lk[i] == K_HEAD
                    tl = rk[i] == K_TAIL
                    for b in range(ny):
                        j = ey_i[b]
                        if i != j and not (h and lk[j] == K_HEAD) and not (tl and rk[j] == K_TAIL):
                            if join_always or ((h or lk[j] == K_HEAD) and (tl or rk[j] == K_TAIL)):
                                gain = ln[i] + ln[j] + 1
                            else:
                                gain = 0
                            if gain == best:
                                if r == 0:
                                    pick = m
                                    break
                                r -= 1
                            m += 1
        row[COL_CHOICES] += n
        if n > 1:
            row[COL_WITH_CHOICE] += 1
        row[COL_MAX_CHOICES] = max(row[COL_MAX_CHOICES], n)
        turn += 1
        # ---- apply
        claimed = 0
        if pick >= ne + joins:
            if kind == K_MID:
                lc[size] = x
                rc[size] = y
            elif kind == K_HEAD:
                lc[size] = CLOSED
                rc[size] = x
            else:
                lc[size] = x
                rc[size] = CLOSED
            lk[size] = kind
            rk[size] = kind
            ln[size] = 1
            size += 1
            row[COL_NEW] += 1
        elif pick < ne:
            i = act_i[pick]
            e = act_e[pick]
            if kind == K_MID:
                other = y if act_s[pick] == 0 else x
                if e == 1:
                    rc[i] = other
                    rk[i] = K_MID
                else:
                    lc[i] = other
                    lk[i] = K_MID
                ln[i] += 1
                row[COL_EXTENDS] += 1
            else:
                if e == 1:
                    rc[i] = CLOSED
                    rk[i] = kind
                    turn_round = kind == K_HEAD
                else:
                    lc[i] = CLOSED
                    lk[i] = kind
                    turn_round = kind == K_TAIL
                ln[i] += 1
                if turn_round:
                    tmp = lc[i]
                    lc[i] = rc[i]
                    rc[i] = tmp
                    tmp = lk[i]
                    lk[i] = rk[i]
                    rk[i] = tmp
                row[COL_CAPS] += 1
                if lk[i] == K_HEAD and rk[i] == K_TAIL:
                    claimed = ln[i]
                    size = _remove(lc, rc, lk, rk, ln, size, i)
        else:
            # the (pick - ne)-th join in engine order
            want = pick - ne
            m = 0
            si = -1
            se = 0
            ui = -1
            ue = 0
            for a in range(nx):
                if si >= 0:
                    break
                i = ex_i[a]
                h = lk[i] == K_HEAD
                tl = rk[i] == K_TAIL
                for b in range(ny):
                    j = ey_i[b]
                    if i != j and not (h and lk[j] == K_HEAD) and not (tl and rk[j] == K_TAIL):
                        if m == want:
                            if i < j:
                                si, se, ui, ue = i, ex_e[a], j, ey_e[b]
                            else:
                                si, se, ui, ue = j, ey_e[b], i, ex_e[a]
                            break
                        m += 1
            # the lower snake turned so the touched end is on its right, the other on its left
            flip_s = se == 0
            if flip_s:
                s_lc, s_lk = rc[si], rk[si]
            else:
                s_lc, s_lk = lc[si], lk[si]
            if ue == 1:
                u_rc, u_rk = lc[ui], lk[ui]
            else:
                u_rc, u_rk = rc[ui], rk[ui]
            n_lc, n_lk, n_rc, n_rk = s_lc, s_lk, u_rc, u_rk
            if n_lk == K_TAIL or n_rk == K_HEAD or (n_lk != K_HEAD and n_rk != K_TAIL and flip_s):
                n_lc, n_lk, n_rc, n_rk = u_rc, u_rk, s_lc, s_lk
            length = ln[si] + ln[ui] + 1
            row[COL_JOINS] += 1
            if (n_lk == K_HEAD and n_rk == K_TAIL) or join_always:
                claimed = length
                size = _remove(lc, rc, lk, rk, ln, size, ui)
                size = _remove(lc, rc, lk, rk, ln, size, si)
            else:
                lc[si] = n_lc
                lk[si] = n_lk
                rc[si] = n_rc
                rk[si] = n_rk
                ln[si] = length
                size = _remove(lc, rc, lk, rk, ln, size, ui)
        if claimed > 0:
            claim_seat[claims] = to_move
            claim_len[claims] = claimed
            claims += 1
            cards_col = base + to_move
            row[cards_col] += claimed
            row[base + players + to_move] += 1
            row[base + 2 * players + to_move] = max(row[base + 2 * players + to_move], claimed)
            if scoring == SC_FIRST_TO and row[cards_col] >= target:
                finished = True
        to_move += 1
        if to_move == players:
            to_move = 0
    row[COL_TURNS] = turn
    row[COL_TABLE_SNAKES] = size
    total = 0
    for i in range(size):
        total += ln[i]
    row[COL_TABLE_CARDS] = total
    _score(row, players, scoring, target)
    return claims


@njit(cache=_CACHE)
def _best(row: Any, players: int, tied: int, column: int) -> int:
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


@njit(cache=_CACHE)
def _single(mask: int) -> bool:
    return mask != 0 and (mask & (mask - 1)) == 0


@njit(cache=_CACHE)
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
    tied = _best(row, players, everyone, first)
    if _single(tied):
        row[COL_WINNERS] = tied
        row[COL_DECIDED] = d1
        return
    tied = _best(row, players, tied, second)
    row[COL_WINNERS] = tied
    row[COL_DECIDED] = d2 if _single(tied) else D_SHARED


@njit(cache=_CACHE)
def game_seeds(base: Any, first: int, count: int) -> Any:
    """The seeds of games ``first`` to ``first + count - 1`` of a run whose base seed is ``base``.

    The splitmix64 finaliser of ``base + number * golden``, shifted to 63 bits.
    """
    out = np.empty(count, dtype=np.uint64)
    for k in range(count):
        z = base + np.uint64(first + k) * _GOLDEN
        z = (z ^ (z >> _S30)) * _MIX1
        z = (z ^ (z >> _S27)) * _MIX2
        out[k] = (z ^ (z >> _S31)) >> np.uint64(1)
    return out


@njit(cache=_CACHE)
def play_games(
    deck: Any,
    seeds: Any,
    players: int,
    forced: bool,
    join_always: bool,
    scoring: int,
    target: int,
    bots: Any,
    card_kind: Any,
    card_a: Any,
    card_b: Any,
    rows: Any,
    claim_seat: Any,
    claim_len: Any,
) -> None:
    """Deal and play one game per seed; figures to ``rows``, claims to ``claim_*`` (one row each).

    ``deck`` holds every card of the deck (copies repeated) in any fixed order.
    """
    size = deck.shape[0]
    order = np.empty(size, dtype=np.int64)
    work = np.zeros((12, 4 * size + 4), dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    none = np.zeros(0, dtype=np.int64)
    no_counts = np.zeros((0, 3), dtype=np.int64)
    for g in range(seeds.shape[0]):
        rng[0] = seeds[g]
        for k in range(size):
            order[k] = deck[k]
        for k in range(size - 1, 0, -1):
            j = _below(rng, k + 1)
            tmp = order[k]
            order[k] = order[j]
            order[j] = tmp
        _play(
            order,
            players,
            forced,
            join_always,
            scoring,
            target,
            bots,
            card_kind,
            card_a,
            card_b,
            rng,
            none,
            no_counts,
            rows[g],
            claim_seat[g],
            claim_len[g],
            work,
        )


@njit(cache=_CACHE)
def replay_game(
    order: Any,
    choices: Any,
    players: int,
    forced: bool,
    join_always: bool,
    scoring: int,
    target: int,
    card_kind: Any,
    card_a: Any,
    card_b: Any,
    counts: Any,
    row: Any,
    claim_seat: Any,
    claim_len: Any,
) -> int:
    """Replay the cards ``order`` with the action indices ``choices``; see :func:`_play`."""
    size = order.shape[0]
    work = np.zeros((12, 4 * size + 4), dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    bots = np.zeros(players, dtype=np.int64)
    return _play(
        order,
        players,
        forced,
        join_always,
        scoring,
        target,
        bots,
        card_kind,
        card_a,
        card_b,
        rng,
        choices,
        counts,
        row,
        claim_seat,
        claim_len,
        work,
    )
