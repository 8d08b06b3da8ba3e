"""The gentle bot, for playing with young children: it quietly lets weaker players keep up.

It only ever plays legal actions; its kindness is in which one it picks. Policy, on each turn with a
choice (``lead`` is the bot's pit cards minus the most cards in any other pit):

* **Behind by more than** :attr:`GentleBot.slack` **cards** (``lead < -slack``): it plays like
  ``greedy``, taking the most cards it can (uniformly at random among the best, and among all
  actions when none takes a card), so it stays in the game and the children have a real opponent.
* **Leading or near the lead** (``lead >= -slack``): it holds back.

  1. It takes no snake when it can avoid it: only the actions taking the fewest cards are
     considered (none, unless every action takes a snake).
  2. Among those, when the next player has no more cards than the bot, it helps them: it plays an
     action that leaves them the greatest expected claim on their draw (the one-draw lookahead of
     ``careful`` with the sign turned round, over the exact remaining cards).
     When the next player has more cards than the bot it plays any of those actions at random.
  3. Ties are broken uniformly at random.

Being generous in the lead and greedy when clearly behind keeps the scores close, so the game stays
exciting for everyone and the children win often. A forced move consumes no randomness.

>>> import random
>>> from hisss.core import new_game, parse_card
>>> s = new_game(2)
>>> for text in ("H:red", "M:red-orange", "M:yellow-green", "T:green"):
...     s.draw(parse_card(text))
...     if s.drawn is not None:
...         _ = s.push(s.legal_actions()[0])
>>> s.draw(parse_card("M:orange-yellow"))  # greedy would join the two snakes and take 5 cards
>>> sorted({str(GentleBot().choose(s, random.Random(k))) for k in range(20)})  # level: it extends
['1R:orange', '2L:yellow']
"""

from __future__ import annotations

import random

from hisss.bots.base import Bot, Budget, legal_choices
from hisss.bots.careful import lookahead_values
from hisss.bots.features import claim_of
from hisss.bots.greedy import greedy_action
from hisss.core import Action, State


class GentleBot(Bot):
    """Generous while leading or near the lead, greedy when clearly behind; never breaks a rule."""

    name = "gentle"
    #: How many cards behind the leader the bot still holds back.
    slack: int = 3

    def __init__(self, budget: Budget | None = None, slack: int | None = None) -> None:
        super().__init__(budget)
        if slack is not None:
            self.slack = slack

    def choose(self, state: State, rng: random.Random) -> Action:
        """The gentle action (see the module docstring); a forced move consumes no randomness."""
        legal = legal_choices(state)
        if len(legal) == 1:
            return legal[0]
        seat = state.to_move
        mine = state.pit_cards(seat)
        others = [state.pit_cards(s) for s in range(state.players) if s != seat]
        if mine - max(others) < -self.slack:
            return greedy_action(state, legal, rng)
        claims = [claim_of(state, a) for a in legal]
        fewest = min(claims)
        top = [a for a, n in zip(legal, claims, strict=True) if n == fewest]
        nxt = (seat + 1) % state.players
        if len(top) > 1 and state.remaining and state.pit_cards(nxt) <= mine:
            # Every action in ``top`` takes the same cards, so the lowest lookahead value is the
            # greatest expected gift to the next player.
            values = lookahead_values(state, top)
            least = min(values)
            top = [a for a, v in zip(top, values, strict=True) if v == least]
        return top[0] if len(top) == 1 else top[rng.randrange(len(top))]


__all__ = ["GentleBot"]
