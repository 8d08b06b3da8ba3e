"""The greedy bot, the rulebook's advice and nothing more, and a casual player that sometimes errs.

``greedy`` completes a snake whenever it can, the longer one first: it plays an action that takes
the most cards (:func:`~hisss.bots.features.claim_of`), choosing uniformly at random among the
actions that take that many. When no action takes any card it plays any legal action uniformly at
random. It is the baseline that the strength of the other bots is measured against.

``casual`` is ``greedy`` that sometimes misses a move: on every turn with a choice, with probability
:attr:`CasualBot.miss` (one in three) it plays a uniformly random legal action instead. It still
takes most snakes it is offered, so it feels like a player, but is easier to beat.

In the hand variant both play the same way over the whole hand (:func:`greedy_play`,
:func:`casual_play`): a play taking the most cards, at random among the best.

>>> import random
>>> from hisss.core import new_game, parse_card
>>> s = new_game(2)
>>> for text in ("H:red", "M:red-orange", "M:yellow-green", "T:green"):
...     s.draw(parse_card(text))
...     if s.drawn is not None:
...         _ = s.push(s.legal_actions()[0])
>>> [str(t) for t in s.table]
['H:red M:red-orange', 'M:yellow-green T:green']
>>> s.draw(parse_card("M:orange-yellow"))  # extend either snake, or join both for 5 cards
>>> str(GreedyBot().choose(s, random.Random(0)))
'1R:orange+2L:yellow'
"""

from __future__ import annotations

import random
from typing import ClassVar

from hisss.bots.base import Bot, HandPolicy, legal_choices, pick
from hisss.bots.features import claim_of
from hisss.core import Action, SeatView, State

#: ``casual``'s chance of a uniformly random action on a turn with a choice.
CASUAL_MISS = 1 / 3


def greedy_candidates(state: State, legal: list[Action]) -> list[Action]:
    """The actions of ``legal`` taking the most cards; all of ``legal`` when none takes any."""
    best = 0
    top: list[Action] = []
    for action in legal:
        n = claim_of(state, action)
        if n > best:
            best = n
            top = [action]
        elif n == best and n:
            top.append(action)
    return top if best else legal


def greedy_action(state: State, legal: list[Action], rng: random.Random) -> Action:
    """An action of ``legal`` taking the most cards, uniformly at random among the best.

    With no taking action every legal action is among the best. A single best action consumes
    no randomness.
    """
    top = greedy_candidates(state, legal)
    return top[0] if len(top) == 1 else top[rng.randrange(len(top))]


def greedy_play(
    view: SeatView, rng: random.Random, seconds: float | None = None, miss: float = 0.0
) -> Action:
    """The hand variant: a play taking the most cards over the whole hand, at random among the
    best; with probability ``miss`` on a turn with a choice, a uniformly random play instead. It
    never searches, so it takes no time limit (``seconds``)."""
    legal = view.legal_actions()
    if len(legal) == 1:
        return legal[0]
    if miss and rng.random() < miss:
        return pick(legal, rng)
    return greedy_action(view.known(), legal, rng)


def casual_play(view: SeatView, rng: random.Random, seconds: float | None = None) -> Action:
    """The hand variant: ``greedy`` that misses one turn in three with a choice."""
    return greedy_play(view, rng, miss=CASUAL_MISS)


class GreedyBot(Bot):
    """Takes the most cards it can now; otherwise a uniformly random legal action."""

    name = "greedy"
    hand_policy: ClassVar[HandPolicy | None] = greedy_play
    #: The chance of a uniformly random legal action instead of the greedy one, on each turn with a
    #: choice (0 for ``greedy`` itself).
    miss: float = 0.0

    def choose(self, state: State, rng: random.Random) -> Action:
        """The greedy action (see the module docstring); a forced move consumes no randomness."""
        legal = legal_choices(state)
        if len(legal) == 1:
            return legal[0]
        if self.miss and rng.random() < self.miss:
            return legal[rng.randrange(len(legal))]
        return greedy_action(state, legal, rng)


class CasualBot(GreedyBot):
    """``greedy`` that plays a uniformly random legal action on one turn in three with a choice.

    The bot of the ``easy`` level.
    """

    name = "casual"
    miss = CASUAL_MISS
    hand_policy: ClassVar[HandPolicy | None] = casual_play


__all__ = [
    "CASUAL_MISS",
    "CasualBot",
    "GreedyBot",
    "casual_play",
    "greedy_action",
    "greedy_candidates",
    "greedy_play",
]
