"""Replaying a stacked deal through the compiled kernel's steps with given choices (numba).

:func:`replay_game` plays the cards in the order given, taking the action index given for each
turn instead of asking a bot, and notes each turn's legal-action counts: the tests compare them,
and the outcome, with the engine's on the same deal and choices (:func:`hisss.sim.fast.
replay_counts`). It is built from the very steps :func:`hisss.kernel.steps.play_games` runs, so the
games the bots play are checked, while that kernel keeps no branch for replaying.

Cached on disk as :mod:`hisss.kernel.rollout` is: numba checks only this file, so
:data:`STEPS_DIGEST` names the version of ``steps.py`` this file's cached code was compiled
against, and a test fails when ``steps.py`` changes without it (the edit that updates it makes
numba compile this file afresh).
"""

from __future__ import annotations

from typing import Any

from numba import njit

from hisss.kernel.steps import _CACHE, begin, best_gain, finish, moves, scratch, step

#: The SHA-256 of ``steps.py`` that this file's cached code was compiled against.
STEPS_DIGEST = "c2bdb79a306d36fa132b2da9ee720bc1891040cc5b0b2916640853dcfb9ef2b1"


@njit(cache=_CACHE)
def replay_game(order: Any, choices: Any, game: Any, cards: Any, counts: Any, out: Any) -> int:
    """Replay the cards ``order`` (starter first) choosing action ``choices[t]`` on turn ``t``;
    return the number of claims, or ``-1 - t`` when the choice of turn ``t`` is missing or out of
    range (the game stops there).

    Row ``t`` of ``counts`` receives turn ``t``'s number of legal actions, the most cards one of
    them claims at once and the number greedy chooses among (those claiming that many, or all when
    none claims any). ``game`` and ``cards`` are as for :func:`hisss.kernel.steps.moves`, ``out`` as
    for :func:`hisss.kernel.steps.step`.
    """
    arrays = scratch(order.shape[0])
    size = begin(order, cards, arrays[0], out[0])
    claims = 0
    seat = 0
    for t in range(1, order.shape[0]):
        turn = moves(arrays, size, order[t], cards, game)
        n = turn[0]
        best, ties = best_gain(arrays, turn)
        counts[t - 1, 0] = n
        counts[t - 1, 1] = best
        counts[t - 1, 2] = ties if best > 0 else n
        if t - 1 >= choices.shape[0] or not 0 <= choices[t - 1] < n:
            return -t
        pick = choices[t - 1]
        size, claims, over = step(arrays, size, pick, turn, game, seat, out, claims)
        if over:
            break
        seat = seat + 1 if seat + 1 < game[0] else 0
    finish(out[0], arrays[0], size, game)
    return claims
