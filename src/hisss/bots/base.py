"""The interface every bot implements.

A bot is asked for one decision at a time: given the position with a drawn card waiting to be
placed, it returns one of ``state.legal_actions()``. It sees only the public position (in the
classic game everything on the table, in the pits and in the remaining counts is public; the order
of the remaining cards is not in the state at all). A bot may search by copying the state
(:meth:`~hisss.core.State.copy`) or by pushing and undoing moves, but it must hand the state back as
it found it. All randomness comes from the ``rng`` it is given, so a seeded game is reproducible.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from hisss.core import Action, State


class Bot(ABC):
    """A player that chooses where each drawn card goes."""

    #: The registry name of the bot (``random``, ...), used in records and reports.
    name: str = "bot"

    @abstractmethod
    def choose(self, state: State, rng: random.Random) -> Action:
        """Return one of ``state.legal_actions()`` for the drawn card ``state.drawn``.

        ``state`` must be a decision point (a card is drawn and waits to be placed) and must be left
        unchanged. ``rng`` is the only source of randomness the bot may use.
        """

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
