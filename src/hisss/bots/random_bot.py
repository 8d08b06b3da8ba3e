"""The uniformly random bot: every legal action equally likely.

This is the reference player of the statistics in ``hisss simulate``: the rules make the set of
legal actions exact, so "uniformly random" is well defined. In the hand variant it plays every
legal play of its hand equally likely (:func:`random_play`).
"""

from __future__ import annotations

import random
from typing import ClassVar

from hisss.bots.base import Bot, HandPolicy, legal_choices, pick
from hisss.core import Action, SeatView, State


def random_play(view: SeatView, rng: random.Random, seconds: float | None = None) -> Action:
    """The hand variant: a uniformly random legal play."""
    return pick(view.legal_actions(), rng)


class RandomBot(Bot):
    """Picks each legal action with equal probability."""

    name = "random"
    hand_policy: ClassVar[HandPolicy | None] = random_play

    def choose(self, state: State, rng: random.Random) -> Action:
        """A uniformly random legal action; a forced move consumes no randomness."""
        legal = legal_choices(state)
        n = len(legal)
        return legal[0] if n == 1 else legal[rng.randrange(n)]


__all__ = ["RandomBot", "random_play"]
