"""Draws for the environments: a stacked deal if one is given, then random draws from a seeded
``numpy`` generator, each applied through the engine's chance step.

An environment never holds the order of the cards still to come: each draw is decided when it is
due, from the exact remaining counts (:meth:`~hisss.core.State.draw_weights`), so nothing an agent
could observe depends on it. A *deal* (``reset(options={"deal": [...]})``) fixes the first cards
drawn, the starter first, for tests and for evaluation over mirrored deals; the cards after it are
drawn at random.

>>> import numpy as np
>>> from hisss.core import new_game
>>> dealer = Dealer()
>>> dealer.start(np.random.default_rng(7), read_deal(new_game().deck, ["H:red", "M:red-orange"]))
>>> s = new_game()
>>> str(dealer.draw(s)), str(s.table[0])  # the starter lies alone on the table
('H:red', 'H:red')
>>> str(dealer.draw(s)), dealer.draw(s) is None
('M:red-orange', True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from hisss.core import Card, ConfigError, Deck, NotationError, State, parse_card


def read_deal(deck: Deck, deal: object) -> tuple[Card, ...]:
    """Check a deal (a sequence of cards or card notation) against ``deck`` and return its cards.

    Raises :class:`~hisss.core.ConfigError` naming the first card that is not a card or that
    the deck has no copy left of.
    """
    if isinstance(deal, str | bytes) or not isinstance(deal, Sequence):
        raise ConfigError(f"a deal is a list of cards, not {type(deal).__name__}")
    left = list(deck.counts)
    cards: list[Card] = []
    for place, item in enumerate(deal, start=1):
        if isinstance(item, Card):
            card = item
        elif isinstance(item, str):
            try:
                card = parse_card(item)
            except NotationError as exc:
                raise ConfigError(f"deal card {place}: {exc}") from None
        else:
            raise ConfigError(f"deal card {place}: expected a card, not {type(item).__name__}")
        if left[card.code] == 0:
            have = deck.count(card)
            raise ConfigError(
                f"deal card {place}: {card} is one more than the {have} of the {deck.name} deck"
            )
        left[card.code] -= 1
        cards.append(card)
    return tuple(cards)


_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _finalise(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class SplitMix(random.Random):
    """The splitmix64 generator of the compiled kernel (:mod:`hisss.kernel.batch`), in Python:
    a game of seed ``s`` starts from the finaliser of ``s``; ``randrange(n)`` and
    ``integers(n)`` are ``floor(u * n)`` for a 53-bit uniform ``u``, as the kernel draws them.
    With it the ``v1`` environment and the batched environment play the same games.

    >>> rng = SplitMix(7)
    >>> [rng.randrange(10) for _ in range(5)]
    [5, 3, 9, 8, 6]
    """

    def __init__(self, seed: int = 0) -> None:
        self._state = _finalise(int(seed) & _MASK)
        super().__init__(seed)

    def seed(self, a: object = None, version: int = 2) -> None:
        """Restart from the finaliser of ``a`` (an int)."""
        if isinstance(a, int):
            self._state = _finalise(a & _MASK)

    def _next(self) -> int:
        self._state = (self._state + _GOLDEN) & _MASK
        return _finalise(self._state)

    def random(self) -> float:
        """A uniform float in [0, 1) of 53 bits."""
        return (self._next() >> 11) * (1.0 / 9007199254740992.0)

    def getrandbits(self, k: int) -> int:
        """``k`` random bits (at most 64)."""
        if not 0 <= k <= 64:
            raise ValueError("SplitMix gives at most 64 bits at a time")
        return self._next() >> (64 - k) if k else 0

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        """``floor(u * n)`` below ``start`` (one argument), or in ``range(start, stop)``."""
        if stop is None:
            start, stop = 0, start
        n = stop - start
        if step != 1 or n <= 0:
            raise ValueError(f"SplitMix.randrange takes a non-empty range, not {start}, {stop}")
        return start + int(self.random() * n)

    def integers(self, n: int) -> int:
        """As :meth:`randrange`: the numpy-style name the :class:`Dealer` calls."""
        return self.randrange(n)


class Dealer:
    """Decides each draw of one game: the deal's cards in order, then at random."""

    def __init__(self) -> None:
        self._rng: np.random.Generator | SplitMix = np.random.default_rng(0)
        self._deal: tuple[Card, ...] = ()
        self._next = 0

    def start(self, rng: np.random.Generator | SplitMix, deal: tuple[Card, ...] = ()) -> None:
        """Start a game: draws come from ``deal`` first (checked by :func:`read_deal`), then
        from ``rng``."""
        self._rng = rng
        self._deal = deal
        self._next = 0

    def draw(self, state: State) -> Card | None:
        """Apply the next draw to ``state`` if one is due, and return the card (else ``None``)."""
        if not state.is_chance_node():
            return None
        if self._next < len(self._deal):
            card = self._deal[self._next]
            self._next += 1
        else:
            k = int(self._rng.integers(state.remaining))
            for card, n in state.draw_weights():  # noqa: B007 (the loop finds the card)
                if k < n:
                    break
                k -= n
        state.draw(card)
        return card
