"""The rules of the batched compiled environment (:mod:`hisss.kernel.batch`), as numba pieces:
the layout of its arrays (the columns of a listed action, the rows of a game's ``info``, the
entries of ``conf``), dealing, listing a seat's actions with their indices in the ``v1`` space,
the bots' choices, applying a placement, the end of a game and its rewards, and the mask (the
observation is :mod:`hisss.kernel.batch_observe`'s). :mod:`hisss.kernel.batch` puts them together
in its two entry points.

Compiled code is cached on disk as for :mod:`hisss.kernel.steps`, whose version this file names
in :data:`STEPS_DIGEST` (a test keeps it true).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

from hisss.kernel.steps import (
    _ACT_E,
    _ACT_I,
    _ACT_S,
    _CACHE,
    _J_I,
    _J_IE,
    _J_J,
    _J_JE,
    _TURN_STEP,
    BOT_GREEDY,
    K_MID,
    SC_FIRST_TO,
    SC_LONGEST,
    SC_SNAKES,
    _below,
    _cap,
    _extend,
    _finalise,
    _gain,
    _join,
    _place_new,
    moves,
)

#: The SHA-256 of ``steps.py`` that this file's cached code was compiled against.
STEPS_DIGEST = "c2bdb79a306d36fa132b2da9ee720bc1891040cc5b0b2916640853dcfb9ef2b1"

_inline = njit(cache=_CACHE, inline="always")
#: The larger pieces, compiled once each and called (inlining them all into the two entry
#: points made numba compile for minutes).
# Without numba's reference counts (``_nrt``, as :func:`hisss.kernel.steps._play`): every array
# these pieces receive was counted at each call, which made a step two and a half times slower.
# They allocate nothing, so they need none.
_compile_part = njit(cache=_CACHE, nogil=True, _nrt=False)  # type: ignore[call-overload]

_F = TypeVar("_F", bound=Callable[..., Any])


def _part(fn: _F) -> _F:
    return cast("_F", _compile_part(fn))


#: Columns of a listed action (``acts``): the card's code, the kind of placement, the snake and
#: end (for a join: of side a), the side touching (0 a, 1 b; for a join: snake of side b), the
#: end of side b (joins), the cards it claims, and its index in the space (-1: not offered).
A_CODE, A_TYPE, A_I, A_E, A_S, A_JE, A_GAIN, A_INDEX = range(8)
ACT_FIELDS = 8
T_PLACE, T_JOIN, T_NEW = 0, 1, 2
#: The most actions one decision of a learner lists, and one of a bot.
MAX_ACTIONS = 512
MAX_BOT_ACTIONS = 8192

#: Rows of a game's ``info`` array.
(
    I_SIZE,
    I_SEAT,
    I_TO_MOVE,
    I_LEFT,
    I_DEALT,
    I_TURNS,
    I_OVER,
    I_NACT,
    I_DRAWN,
    I_FORCED,
    I_WINNERS,
) = range(11)
INFO_FIELDS = 11

#: Entries of the configuration array ``conf``.
(
    C_PLAYERS,
    C_FORCED,
    C_JOIN_ALWAYS,
    C_SCORING,
    C_TARGET,
    C_HAND,
    C_OPEN,
    C_SNAKES,
    C_MIDS,
    C_BASE,
    C_OVERFLOW,
    C_SEAT,
    C_SKIP,
    C_DECK,
    C_OBS,
) = range(15)
CONF_FIELDS = 15
#: ``conf[C_SEAT]`` for a learning seat drawn at random at each deal.
RANDOM_SEAT = -1


#: Columns of a game's ``rng`` row: the state of its own splitmix64 generator (its learning seat
#: if drawn, and its draws), the finaliser of its seed (the base of its bots' per-turn
#: generators), and the state of the generator of the bot's decision at hand.
R_GAME, R_BASE, R_TURN = range(3)
RNG_FIELDS = 3


@_inline
def seed_state(seed: Any) -> Any:
    """The splitmix64 state a game of ``seed`` starts from: the finaliser of the seed."""
    return _finalise(np.uint64(seed))


@_inline
def _seed_row(rng: Any, seed: Any) -> None:
    """Start a game's ``rng`` row (see ``R_GAME``) for ``seed``."""
    base = seed_state(seed)
    rng[R_GAME] = base
    rng[R_BASE] = base
    rng[R_TURN] = base


@_inline
def _draw(rng: Any, remaining: Any, left: int) -> int:
    """Draw a card: ``k`` below the cards left, then the copies left in card-code order."""
    k = _below(rng, left)
    for code in range(remaining.shape[0]):
        n = remaining[code]
        if k < n:
            remaining[code] = n - 1
            return code
        k -= n
    return -1


@_inline
def _join_index(conf: Any, i: int, ie: int, j: int, je: int, mid: int) -> Any:
    """The index of a join (side a at end ``ie`` of snake ``i``, side b at ``je`` of ``j``)
    within the join block: ``2m * rank + 2k + f``."""
    pa = 2 * i + ie
    pb = 2 * j + je
    if pa < pb:
        p, q, f = pa, pb, 0
    else:
        p, q, f = pb, pa, 1
    rank = q * (q - 1) // 2 - q // 2 + p
    return 2 * conf[C_MIDS] * rank + 2 * mid + f


@_inline
def _index(conf: Any, kind: int, typ: int, code: int, place: Any, x: int, y: int, mid: int) -> Any:
    """The ``v1`` index of a placement, or -1 when it names a snake past the space's. ``place``
    is the listed action's ``(i, e, s, je)`` (see ``A_I``)."""
    i, e, s, je = place
    snakes = conf[C_SNAKES]
    hand = conf[C_HAND] > 0
    m2 = 2 * conf[C_MIDS]
    if typ == T_NEW:
        return code if hand else 0
    if typ == T_JOIN:
        if i >= snakes or s >= snakes:
            return -1
        ji = _join_index(conf, i, e, s, je, mid)
        if hand:
            return 29 + 28 * snakes + m2 * 2 * snakes + ji
        return 1 + 14 * snakes + ji
    if i >= snakes:
        return -1
    p = 2 * i + e
    if kind != K_MID:
        return 29 + 14 * p + code if hand else 1 + p
    if hand:
        return 29 + 28 * snakes + m2 * p + 2 * mid + s
    colour = x if s == 0 else y
    return 1 + 2 * snakes + 6 * p + colour


@_part
def _list_card(
    arrays: Any, size: int, code: int, lister: Any, acts: Any, n: int, overflow: int
) -> tuple[int, int]:
    """Append the placements of card ``code`` to ``acts`` from row ``n``, in the engine's order;
    return the new count and the overflow indices used. ``lister`` is ``(cards, game, conf,
    midplace)``."""
    work, pairs = arrays
    cards, game, conf, midplace = lister
    turn = moves(arrays, size, code, cards, game)
    total, ne, nj, kind, x, y, _always = turn
    mid = midplace[code]
    for k in range(total):
        if n >= acts.shape[0]:
            raise ValueError("more legal actions than the batched environment lists")
        if k < ne:
            typ = T_PLACE
            i = work[_ACT_I, k]
            e = work[_ACT_E, k]
            s = work[_ACT_S, k]
            je = 0
            gain = _gain(work, pairs, k, turn)
        elif k < ne + nj:
            typ = T_JOIN
            i = pairs[_J_I, k - ne]
            e = pairs[_J_IE, k - ne]
            s = pairs[_J_J, k - ne]
            je = pairs[_J_JE, k - ne]
            gain = _gain(work, pairs, k, turn)
        else:
            typ = T_NEW
            i = 0
            e = 0
            s = 0
            je = 0
            gain = 0
        index = _index(conf, kind, typ, code, (i, e, s, je), x, y, mid)
        if index < 0 and overflow < conf[C_OVERFLOW]:
            index = conf[C_BASE] + overflow
            overflow += 1
        row = acts[n]
        row[A_CODE] = code
        row[A_TYPE] = typ
        row[A_I] = i
        row[A_E] = e
        row[A_S] = s
        row[A_JE] = je
        row[A_GAIN] = gain
        row[A_INDEX] = index
        n += 1
    return n, overflow


@_inline
def _list(arrays: Any, size: int, seat: int, drawn: int, hands: Any, lister: Any, acts: Any) -> Any:
    """List the legal actions of ``seat`` into ``acts``: the drawn card's, or in the hand variant
    every distinct card's of its hand in card order. Return their number. ``lister`` is
    ``(cards, game, conf, midplace)``."""
    n = 0
    overflow = 0
    if lister[2][C_HAND] == 0:
        n, overflow = _list_card(arrays, size, drawn, lister, acts, 0, overflow)
        return n
    for code in range(hands.shape[1]):
        if hands[seat, code] > 0:
            n, overflow = _list_card(arrays, size, code, lister, acts, n, overflow)
    return n


@_inline
def _bot_pick(rng: Any, bot: int, acts: Any, n: int) -> int:
    """The action a bot picks among ``n`` listed: ``greedy`` one taking the most cards (at
    random among the best), ``random`` (or greedy with nothing to take) any; a forced move
    draws nothing."""
    if n == 1:
        return 0
    if bot == BOT_GREEDY:
        best = 0
        ties = 0
        for k in range(n):
            g = acts[k, A_GAIN]
            if g > best:
                best = g
                ties = 1
            elif g == best and g > 0:
                ties += 1
        if best > 0:
            r = 0 if ties == 1 else _below(rng, ties)
            for k in range(n):
                if acts[k, A_GAIN] == best:
                    if r == 0:
                        return k
                    r -= 1
    return _below(rng, n)


@_inline
def _apply(arrays: Any, size: int, act: Any, cards: Any, conf: Any) -> tuple[int, int]:
    """Place the listed action ``act``; return the new size and the cards claimed."""
    work, pairs = arrays
    code = act[A_CODE]
    kind = cards[0][code]
    x = cards[1][code]
    y = cards[2][code]
    typ = act[A_TYPE]
    if typ == T_NEW:
        return _place_new(work, size, kind, x, y), 0
    if typ == T_JOIN:
        pairs[_J_I, 0] = act[A_I]
        pairs[_J_IE, 0] = act[A_E]
        pairs[_J_J, 0] = act[A_S]
        pairs[_J_JE, 0] = act[A_JE]
        return _join(work, pairs, size, 0, conf[C_JOIN_ALWAYS] > 0)
    if kind == K_MID:
        _extend(work, act[A_I], act[A_E], act[A_S], x, y)
        return size, 0
    return _cap(work, size, act[A_I], act[A_E], kind)


@_inline
def _winners(pits: Any, players: int, scoring: int, target: int) -> int:
    """The winners as a bit mask, as :func:`hisss.core.scoring.score` decides them."""
    if scoring == SC_FIRST_TO:
        reached = _reached(pits, players, target)
        if reached != 0 and (reached & (reached - 1)) == 0:
            return reached
    if scoring == SC_SNAKES:
        first, second = 1, 2
    elif scoring == SC_LONGEST:
        first, second = 2, 0
    else:
        first, second = 0, 2
    tied = (1 << players) - 1
    for column in (first, second):
        tied = _tops(pits, players, tied, column)
        if (tied & (tied - 1)) == 0:
            return tied
    return tied


@_inline
def _reached(pits: Any, players: int, target: int) -> int:
    """The seats whose pits hold at least ``target`` cards, as a bit mask."""
    reached = 0
    for s in range(players):
        if pits[s, 0] >= target:
            reached |= 1 << s
    return reached


@_inline
def _tops(pits: Any, players: int, tied: int, column: int) -> int:
    """Of the seats in the bit mask ``tied``, those with the most in the pits' ``column``."""
    top = -1
    for s in range(players):
        if tied & (1 << s):
            top = max(top, pits[s, column])
    out = 0
    for s in range(players):
        if tied & (1 << s) and pits[s, column] == top:
            out |= 1 << s
    return out


@_inline
def _reward(winners: int, players: int, seat: int) -> float:
    """The seat's terminal reward (:func:`hisss.rl.spaces.terminal_rewards`)."""
    k = 0
    for s in range(players):
        if winners & (1 << s):
            k += 1
    if k == players:
        return 0.0
    if winners & (1 << seat):
        return 1.0 / k
    return -1.0 / (players - k)


@_inline
def _is_over(info: Any, hands: Any, conf: Any) -> Any:
    if info[I_OVER] > 0:
        return True
    if info[I_LEFT] > 0:
        return False
    if conf[C_HAND] == 0:
        return info[I_DRAWN] < 0
    for s in range(hands.shape[0]):
        for c in range(hands.shape[1]):
            if hands[s, c] > 0:
                return False
    return True


@_inline
def _start(conf: Any, deck_counts: Any, cards: Any, work: Any, row: Any) -> None:
    """Deal a new game: the learning seat (if drawn at random), the starter, and in the hand
    variant the hands. ``row`` is the game's ``(rng, info, remaining, pits, hands)``."""
    rng, info, remaining, pits, hands = row
    players = conf[C_PLAYERS]
    for c in range(remaining.shape[0]):
        remaining[c] = deck_counts[c]
        for s in range(players):
            hands[s, c] = 0
    for s in range(players):
        pits[s, 0] = 0
        pits[s, 1] = 0
        pits[s, 2] = 0
    info[I_SEAT] = _below(rng, players) if conf[C_SEAT] == RANDOM_SEAT else conf[C_SEAT]
    left = conf[C_DECK]
    code = _draw(rng, remaining, left)
    left -= 1
    info[I_SIZE] = _place_new(work, 0, cards[0][code], cards[1][code], cards[2][code])
    info[I_TO_MOVE] = 0
    info[I_TURNS] = 0
    info[I_OVER] = 0
    info[I_DRAWN] = -1
    info[I_FORCED] = 0
    info[I_WINNERS] = 0
    dealt = 0
    if conf[C_HAND] > 0:
        to_deal = min(conf[C_HAND] * players, conf[C_DECK] - 1)
        while dealt < to_deal:
            code = _draw(rng, remaining, left)
            left -= 1
            hands[dealt % players, code] += 1
            dealt += 1
    info[I_DEALT] = dealt
    info[I_LEFT] = left


@_part
def _play_turn(arrays: Any, act: Any, seat: int, cards: Any, conf: Any, row: Any) -> None:
    """Play a listed action for ``seat`` and move on: the claim, the hand's draw, the next seat.
    ``row`` is the game's ``(rng, info, remaining, pits, hands)``."""
    rng, info, remaining, pits, hands = row
    players = conf[C_PLAYERS]
    size, claimed = _apply(arrays, info[I_SIZE], act, cards, conf)
    info[I_SIZE] = size
    info[I_TURNS] += 1
    if claimed > 0:
        pits[seat, 0] += claimed
        pits[seat, 1] += 1
        pits[seat, 2] = max(pits[seat, 2], claimed)
        if conf[C_SCORING] == SC_FIRST_TO and pits[seat, 0] >= conf[C_TARGET]:
            info[I_OVER] = 1
    nxt = seat + 1 if seat + 1 < players else 0
    info[I_TO_MOVE] = nxt
    if conf[C_HAND] == 0:
        info[I_DRAWN] = -1
        return
    hands[seat, act[A_CODE]] -= 1
    if info[I_OVER] > 0:
        return
    if info[I_LEFT] > 0:
        code = _draw(rng, remaining, info[I_LEFT])
        info[I_LEFT] -= 1
        hands[seat, code] += 1
        return
    # the pile is empty: skip the seats whose hands are empty
    for _ in range(players):
        held = 0
        for c in range(hands.shape[1]):
            held += hands[info[I_TO_MOVE], c]
        if held > 0:
            return
        info[I_TO_MOVE] = info[I_TO_MOVE] + 1 if info[I_TO_MOVE] + 1 < players else 0


@_part
def _advance(arrays: Any, setup: Any, row: Any, acts: Any, scratch_acts: Any) -> bool:
    """Play draws, the bots' turns and (with ``skip``) the learner's forced ones until the
    learner has a choice (its actions listed in ``acts``, their number in ``info``) or the game
    ends; True at the end. ``setup`` is the batch's ``(conf, deck_counts, cards, game, midplace,
    bots)``, ``row`` the game's ``(rng, info, remaining, pits, hands)``."""
    conf, _deck_counts, cards, game, midplace, bots = setup
    rng, info, remaining, _pits, hands = row
    lister = (cards, game, conf, midplace)
    while True:
        if _is_over(info, hands, conf):
            return True
        seat = info[I_TO_MOVE]
        if conf[C_HAND] == 0 and info[I_DRAWN] < 0:
            info[I_DRAWN] = _draw(rng, remaining, info[I_LEFT])
            info[I_LEFT] -= 1
        drawn = info[I_DRAWN]
        if seat == info[I_SEAT]:
            n = _list(arrays, info[I_SIZE], seat, drawn, hands, lister, acts)
            if conf[C_SKIP] > 0 and n == 1:
                info[I_FORCED] += 1
                _play_turn(arrays, acts[0], seat, cards, conf, row)
                continue
            info[I_NACT] = n
            return False
        n = _list(arrays, info[I_SIZE], seat, drawn, hands, lister, scratch_acts)
        # the turn's own generator, decision_rng(seed, turn) of hisss.bots.turns
        rng[R_TURN] = rng[R_BASE] + np.uint64(info[I_TURNS]) * _TURN_STEP
        k = _bot_pick(rng[R_TURN:], bots[seat], scratch_acts, n)
        _play_turn(arrays, scratch_acts[k], seat, cards, conf, row)
