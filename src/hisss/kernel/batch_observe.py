"""The learner's observation in the batched compiled environment (:mod:`hisss.kernel.batch`):
the ``v1`` layout of :mod:`hisss.rl.spaces` written from a game's arrays, a numba piece and the
parts it inlines (the hands or the drawn card, the table, the seats, the unseen cards).

Compiled code is cached on disk as for :mod:`hisss.kernel.steps`, whose version this file names
in :data:`STEPS_DIGEST` (a test keeps it true).
"""

from __future__ import annotations

from typing import Any

from hisss.kernel.batch_rules import (
    C_HAND,
    C_OPEN,
    C_PLAYERS,
    C_SNAKES,
    I_DRAWN,
    I_LEFT,
    I_SEAT,
    I_SIZE,
    I_TO_MOVE,
    _inline,
    _part,
)
from hisss.kernel.steps import _LC, _LK, _LN, _RC, _RK, CLOSED, K_HEAD, K_TAIL

#: The SHA-256 of ``steps.py`` that this file's cached code was compiled against.
STEPS_DIGEST = "c2bdb79a306d36fa132b2da9ee720bc1891040cc5b0b2916640853dcfb9ef2b1"


@_part
def _observe(
    obs: Any, scale: Any, work: Any, info: Any, remaining: Any, pits: Any, hands: Any, conf: Any
) -> None:
    """Write the learner's ``v1`` observation (multiplied by ``scale``) into ``obs``."""
    for k in range(obs.shape[0]):
        obs[k] = 0.0
    kinds = remaining.shape[0]
    if conf[C_HAND] > 0:
        base = _observe_hands(obs, scale, info, hands, conf, kinds)
    else:
        if info[I_DRAWN] >= 0:
            obs[info[I_DRAWN]] = scale[info[I_DRAWN]]
        base = kinds
    base = _observe_table(obs, scale, work, info, conf, base)
    base = _observe_seats(obs, scale, info, pits, hands, conf, base)
    _observe_remaining(obs, scale, info, remaining, hands, conf, base)


@_inline
def _observe_hands(obs: Any, scale: Any, info: Any, hands: Any, conf: Any, kinds: Any) -> Any:
    """The hands (the learner's, and the others' when hands are open); returns where the next
    part starts."""
    players = conf[C_PLAYERS]
    seat = info[I_SEAT]
    for k in range(players):
        other = (seat + k) % players
        if other == seat or conf[C_OPEN] > 0:
            base = kinds * k
            for c in range(kinds):
                obs[base + c] = hands[other, c] * scale[base + c]
    return kinds * players


@_inline
def _observe_table(obs: Any, scale: Any, work: Any, info: Any, conf: Any, base: Any) -> Any:
    """The table's snakes from ``base``; returns where the next part starts."""
    snakes = conf[C_SNAKES]
    size = min(info[I_SIZE], snakes)
    for i in range(size):
        b = base + 18 * i
        obs[b] = scale[b]
        lc = work[_LC, i]
        rc = work[_RC, i]
        if lc != CLOSED:
            obs[b + 1 + lc] = scale[b + 1 + lc]
        if rc != CLOSED:
            obs[b + 8 + rc] = scale[b + 8 + rc]
        if work[_LK, i] == K_HEAD:
            obs[b + 15] = scale[b + 15]
        if work[_RK, i] == K_TAIL:
            obs[b + 16] = scale[b + 16]
        obs[b + 17] = work[_LN, i] * scale[b + 17]
    return base + 18 * snakes


@_inline
def _observe_seats(
    obs: Any, scale: Any, info: Any, pits: Any, hands: Any, conf: Any, base: Any
) -> Any:
    """The seats from ``base`` (pits, whose turn, cards held); returns where the next part
    starts."""
    players = conf[C_PLAYERS]
    seat = info[I_SEAT]
    hand = conf[C_HAND] > 0
    kinds = hands.shape[1]
    width = 5 if hand else 4
    for k in range(players):
        other = (seat + k) % players
        b = base + width * k
        obs[b] = pits[other, 0] * scale[b]
        obs[b + 1] = pits[other, 1] * scale[b + 1]
        obs[b + 2] = pits[other, 2] * scale[b + 2]
        if other == info[I_TO_MOVE]:
            obs[b + 3] = scale[b + 3]
        if hand:
            held = 0
            for c in range(kinds):
                held += hands[other, c]
            obs[b + 4] = held * scale[b + 4]
    return base + width * players


@_inline
def _observe_remaining(
    obs: Any, scale: Any, info: Any, remaining: Any, hands: Any, conf: Any, base: Any
) -> None:
    """The unseen cards from ``base``: every card the learner cannot see (the pile, and the
    others' hands when hidden), and the pile's size."""
    players = conf[C_PLAYERS]
    seat = info[I_SEAT]
    hand = conf[C_HAND] > 0
    kinds = remaining.shape[0]
    for c in range(kinds):
        n = remaining[c]
        if hand:
            for s in range(players):
                if s != seat and conf[C_OPEN] == 0:
                    n += hands[s, c]
        obs[base + c] = n * scale[base + c]
    obs[base + kinds] = info[I_LEFT] * scale[base + kinds]
