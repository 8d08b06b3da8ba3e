"""The versions of the environments' spaces: ``v0`` (sized for every table the deck allows) and
``v1`` (compact: sized for the tables that occur, with an exact fallback beyond).

``v0``
    The action space of :mod:`hisss.rl.spaces` (classic) or :mod:`hisss.rl.hand_spaces` (hands)
    with ``S`` the deck size minus one: 57,135 indices for ``rainbow`` (59,025 with hands), and
    the observation with ``18S`` table numbers (949 numbers for two players).

``v1``
    The same layouts with ``S = 16`` (:data:`V1_SNAKES`), then :data:`V1_OVERFLOW` more indices:
    ``n = 1 + 14*16 + 4m*16*15 + 32`` (6,017 for ``rainbow``) in the classic game and
    ``n = 29 + 28*16 + 4m*16^2 + 32`` (6,653) with hands. A legal action that names a table snake
    beyond the 16th (no random game of 12,839 ever had more than 11 on the table) takes the
    first free overflow index, in the engine's order of the legal actions, so every legal action
    of every position has an index and the mask is exact; overflow indices mean the ``k``-th
    such action of the position at hand (past the 32nd, such actions are not offered; a position
    needs more than 16 snakes on the table and more than 32 placements among them for that). The
    observation shows the first 16 table snakes (355 numbers for two players).

Either version can be *normalised*: every number divided by the largest it can take, so the
observation lies between 0 and 1 (:meth:`Space.highs`).

>>> from hisss.core import Rules, get_deck
>>> v1 = Space(Rules(), get_deck("rainbow"), players=2, version="v1")
>>> v1.size, v1.layout.size
(6017, 355)
>>> Space(Rules(hand_size=3), get_deck("rainbow"), players=2, version="v1").size
6653
>>> Space(Rules(), get_deck("rainbow"), players=2).size
57135
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from hisss.core import Action, ConfigError, Deck, Rules, State
from hisss.core.rules import MAX_HAND_SIZE
from hisss.rl.hand_spaces import (
    HAND_SEAT_FEATURES,
    HandObservationLayout,
    action_codec,
    observation_layout,
)
from hisss.rl.spaces import SEAT_FEATURES, SNAKE_FEATURES

#: The versions of the spaces.
VERSIONS = ("v0", "v1")
#: The table snakes the ``v1`` space names and shows.
V1_SNAKES = 16
#: The ``v1`` space's overflow indices: legal actions naming a snake beyond :data:`V1_SNAKES`.
V1_OVERFLOW = 32


class Space:
    """One version of the action space and the observation of a configuration."""

    def __init__(
        self,
        rules: Rules,
        deck: Deck,
        players: int,
        version: str = "v0",
        normalize: bool = False,
    ) -> None:
        if version not in VERSIONS:
            raise ConfigError(f"space must be one of {', '.join(VERSIONS)}, not {version!r}")
        if not isinstance(normalize, bool):
            raise ConfigError(f"normalize must be true or false, not {normalize!r}")
        self.version = version
        self.normalize = normalize
        self.codec = action_codec(rules, deck, V1_SNAKES if version == "v1" else 0)
        self.layout = observation_layout(self.codec, players)
        #: Indices past the codec's: the overflow of ``v1``.
        self.overflow = V1_OVERFLOW if version == "v1" else 0
        #: The number of actions, ``n``.
        self.size = self.codec.size + self.overflow
        self._scale = (1.0 / self.highs(deck, rules)).astype(np.float32)
        #: The largest value of an observation's number: 1 when normalised.
        self.high = 1.0 if normalize else self.layout.high

    def highs(self, deck: Deck, rules: Rules) -> npt.NDArray[np.float64]:
        """The largest value each number of the observation can take."""
        layout = self.layout
        out = np.ones(layout.size)
        copies = float(max(deck.counts))
        cards = float(deck.size)
        table = layout.parts["table"]
        out[table.start + SNAKE_FEATURES - 1 : table.stop : SNAKE_FEATURES] = cards  # lengths
        seats = layout.parts["seats"]
        width = HAND_SEAT_FEATURES if isinstance(layout, HandObservationLayout) else SEAT_FEATURES
        out[seats.start : seats.stop : width] = cards  # pit cards
        out[seats.start + 1 : seats.stop : width] = max(cards // 3, 1.0)  # pit snakes
        out[seats.start + 2 : seats.stop : width] = cards  # longest pit snake
        if isinstance(layout, HandObservationLayout):
            out[seats.start + 4 : seats.stop : width] = float(rules.hand_size or MAX_HAND_SIZE)
            out[layout.parts["hands"]] = copies
            out[layout.parts["unseen"]] = copies
            out[layout.parts["pile"]] = cards
        else:
            out[layout.parts["remaining"]] = copies
            out[layout.parts["left"]] = cards
        return out

    def encode(self, state: State, seat: int) -> npt.NDArray[np.float32]:
        """The observation of ``state`` for ``seat`` (from its view alone in the hand variant)."""
        obs = self.layout.encode(state, seat)
        if self.normalize:
            obs *= self._scale
        return obs

    def legal(self, state: State) -> dict[int, Action]:
        """The legal actions of the seat to move in ``state`` by index, in the engine's order."""
        codec = self.codec
        out: dict[int, Action] = {}
        extra = codec.size
        for action in state.legal_actions():
            try:
                out[codec.action_to_index(action)] = action
            except ValueError:
                if extra < self.size:  # v1: a snake beyond the 16th; v0 never gets here
                    out[extra] = action
                    extra += 1
        return out

    def index_to_action(self, index: int, legal: dict[int, Action]) -> Action:
        """The action of ``index`` in a position whose legal actions are ``legal``; raises
        :class:`ValueError` for an index outside the space or an overflow index not in use."""
        if not 0 <= index < self.size:
            raise ValueError(f"action index {index} is outside 0 .. {self.size - 1}")
        if index >= self.codec.size:
            if index not in legal:
                raise ValueError(f"overflow index {index} names no action in this position")
            return legal[index]
        return self.codec.index_to_action(index)

    def mask(self, legal: dict[int, Action]) -> npt.NDArray[np.int8]:
        """An ``int8`` vector of :attr:`size`, 1 at the indices of ``legal``."""
        out = np.zeros(self.size, dtype=np.int8)
        out[list(legal)] = 1
        return out


__all__ = ["V1_OVERFLOW", "V1_SNAKES", "VERSIONS", "Space"]
