"""Bots of the hand variant: what ``random``, ``casual``, ``greedy``, ``careful``, ``expert`` play.

A bot of the hand variant sees only its seat's :class:`~hisss.core.SeatView` (its own hand, the
table, the pits, the sizes of the other hands and of the pile, the cards it has not seen) and
chooses one of the view's legal plays; the core says which plays are legal and what each claims.
Each bot's play lives in its own module, as its class's :attr:`~hisss.bots.base.Bot.hand_policy`;
this module gathers them by name (:data:`HAND_POLICIES`) and gives the exact probability of each
play (:func:`play_distribution`).

* ``random``: every legal play equally likely (:func:`~hisss.bots.random_bot.random_play`).
* ``greedy``: a play taking the most cards over the whole hand, at random among the best; at
  random when no play takes any. ``casual`` is ``greedy`` that plays at random on one turn in three
  with a choice (:mod:`hisss.bots.greedy`).
* ``careful``: ``greedy`` with a look at the next seat, as in the classic game: each play is worth
  its own claim minus the expected best claim of the next seat on the table it leaves, over that
  seat's hand. A hidden hand is ``h`` cards dealt at random from the cards this seat has not seen
  (``h`` the hand's size), and the expectation of its best card is exact (hypergeometric); a hand
  seen by all is known. Claims are valued in the scoring rule's measure
  (:func:`~hisss.bots.careful.claim_value`; :mod:`hisss.bots.careful`).
* ``expert``: a determinized search over the cards it has not seen (:mod:`hisss.bots.hand_expert`).

A forced play consumes no randomness.

>>> import random
>>> from hisss.core import Rules, new_game, parse_action, parse_card
>>> s = new_game(2, Rules(hand_size=2))
>>> for text in ("M:red-orange", "H:red", "T:orange", "M:blue-green", "T:blue"):
...     s.draw(parse_card(text))                  # the starter, then the deal
>>> placed = s.apply(parse_action("H:red@1L"))    # seat 1 caps the starter, then draws
>>> s.draw(parse_card("H:blue"))
>>> [str(a) for a in s.legal_actions()]           # seat 2 holds two tails
['T:orange@1R', 'T:blue@new']
>>> str(greedy_play(s.view(1), random.Random(0)))
'T:orange@1R'
"""

from __future__ import annotations

import random

from hisss.bots.base import HandPolicy
from hisss.bots.careful import careful_play, careful_values, expected_best
from hisss.bots.greedy import CASUAL_MISS, casual_play, greedy_candidates, greedy_play
from hisss.bots.random_bot import random_play
from hisss.bots.registry import hand_policies
from hisss.core import Action, ConfigError, SeatView

#: The bots that play the hand variant, by registry name: each maps a seat's view, a random
#: generator and a time limit in seconds (or ``None``) to a legal play (the bot's
#: :attr:`~hisss.bots.base.Bot.hand_policy`).
HAND_POLICIES: dict[str, HandPolicy] = hand_policies()


def play_distribution(name: str, view: SeatView, rng: random.Random) -> list[tuple[Action, float]]:
    """The probability of each legal play of bot ``name`` in ``view``: exact for ``random``,
    ``casual``, ``greedy`` and ``careful`` (uniform over their ties, ``casual`` mixing in its
    random third), and for the others the one play they choose with ``rng`` (probability 1).
    For exact measures over a whole game (a best response, an exploitability)."""
    legal = view.legal_actions()
    if len(legal) == 1:
        return [(legal[0], 1.0)]
    if name == "random":
        return [(a, 1 / len(legal)) for a in legal]
    if name in ("greedy", "casual"):
        top = set(greedy_candidates(view.known(), legal))
        miss = CASUAL_MISS if name == "casual" else 0.0
        return [
            (a, miss / len(legal) + (1 - miss) * (1 / len(top) if a in top else 0.0)) for a in legal
        ]
    if name == "careful":
        values = careful_values(view)
        best = max(v for _, v in values)
        top_count = sum(v >= best - 1e-9 for _, v in values)
        return [(a, 1 / top_count if v >= best - 1e-9 else 0.0) for a, v in values]
    policy = HAND_POLICIES.get(name)
    if policy is None:
        raise ConfigError(
            f"bot {name!r} does not play the hand variant "
            f"(bots that do: {', '.join(HAND_POLICIES)})"
        )
    chosen = policy(view, rng, None)
    return [(a, 1.0 if a == chosen else 0.0) for a in legal]


__all__ = [
    "CASUAL_MISS",
    "HAND_POLICIES",
    "careful_play",
    "careful_values",
    "casual_play",
    "expected_best",
    "greedy_play",
    "play_distribution",
    "random_play",
]
