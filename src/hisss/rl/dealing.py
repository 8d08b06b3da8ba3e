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

from collections.abc import Sequence

import numpy as np

from hisss.bots.turns import SplitMix
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
