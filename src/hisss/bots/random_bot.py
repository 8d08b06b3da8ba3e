"""The uniformly random bot: every legal action equally likely.

This is the reference player of the statistics in ``hisss simulate``: the rules make the set of
legal actions exact, so "uniformly random" is well defined.
"""

from __future__ import annotations

import random

from hisss.bots.base import Bot
from hisss.core import Action, IllegalActionError, State


class RandomBot(Bot):
    """Picks each legal action with equal probability."""

    name = "random"

    def choose(self, state: State, rng: random.Random) -> Action:
        """A uniformly random legal action; a forced move consumes no randomness."""
        legal = state.legal_actions()
        n = len(legal)
        if n == 1:
            return legal[0]
        if n == 0:
            raise IllegalActionError(
                "a choice", state.describe(), "no card is waiting to be placed"
            )
        return legal[rng.randrange(n)]
