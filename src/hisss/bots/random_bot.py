"""The uniformly random bot: every legal action equally likely.

This is the reference player of the statistics in ``hisss simulate``: the rules make the set of
legal actions exact, so "uniformly random" is well defined.
"""

from __future__ import annotations

import random

from hisss.bots.base import Bot, legal_choices
from hisss.core import Action, State


class RandomBot(Bot):
    """Picks each legal action with equal probability."""

    name = "random"

    def choose(self, state: State, rng: random.Random) -> Action:
        """A uniformly random legal action; a forced move consumes no randomness."""
        legal = legal_choices(state)
        n = len(legal)
        return legal[0] if n == 1 else legal[rng.randrange(n)]
