"""The action space and the observation of the hand variant (``Rules.hand_size``), for the
reinforcement-learning adapters; :func:`action_codec` and :func:`observation_layout` give the
classic game's or these, by the rules.

Actions
-------
A play of the hand variant names its card, so the fixed ``Discrete(n)`` space counts the card
too. With ``S``, ``m`` and the join ranks of :mod:`hisss.rl.spaces` and ``C = 29`` distinct cards:

==========  ===============================  ==================================================
kind        indices                          index
==========  ===============================  ==================================================
``new``     ``C``: the card                  ``code``
cap         ``28S``: end ``p``, the card      ``C + 14p + code`` (heads and tails: codes 0-13)
extend      ``4mS``: end ``p``, the card      ``C + 28S + 2m * p + 2k + f``
join        ``2S(S - 1) * 2m``               ``C + 28S + 4mS + 2m * r + 2k + f``
==========  ===============================  ==================================================

``p = 2i + e`` is an end as in the classic space, ``k`` the mid-section's place among the deck's
distinct mid-sections and ``f`` 0 when its first written colour touches (the end, or the first end
of a join). A join's two sides name its card, as in the classic space. So
``n = C + 28S + 4mS^2``: 59,025 for ``rainbow``.

>>> from hisss.core import parse_action
>>> codec = HandActionCodec.for_deck("rainbow")
>>> codec.size
59025
>>> plays = [parse_action(t) for t in ("H:red@new", "T:wild@1R", "M:red-orange@1L:red")]
>>> [codec.action_to_index(a) for a in plays]
[0, 56, 1401]
>>> join = parse_action("M:yellow-orange@1R:orange+3L:yellow")
>>> str(codec.index_to_action(codec.action_to_index(join)))
'M:orange-yellow@1R:orange+3L:yellow'

Observations
------------
A seat's observation is made from its :class:`~hisss.core.SeatView` alone (``P`` players):

==============  ===========  =============================================================
part            length       content
==============  ===========  =============================================================
``hands``       ``C * P``    copies of each card in each hand this seat sees, from the
                             observer's seat on (all zero for a hidden hand)
``table``       ``18 * S``   as in the classic observation
``seats``       ``5 * P``    for each seat from the observer's: cards, snakes and longest
                             snake in its pit, 1 if it is to play, the cards in its hand
``unseen``      ``C``        copies of each card this seat has not seen
``pile``        1            the cards in the pile
==============  ===========  =============================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from hisss.core import (
    Action,
    ActionKind,
    Card,
    Deck,
    HandState,
    Rules,
    SeatView,
    State,
    get_deck,
)
from hisss.core.cards import CARD_KINDS, card_from_code
from hisss.rl.spaces import (
    END_BIT,
    ENDS,
    SNAKE_FEATURES,
    ActionCodec,
    ObservationLayout,
    encode_table,
)

#: Cards that cap: the heads and tails, codes 0 to 13.
_CAPPERS = 14
#: Numbers per seat in the observation of the hand variant.
HAND_SEAT_FEATURES = 5


@dataclass(frozen=True)
class HandActionCodec(ActionCodec):
    """The mapping between plays of the hand variant and a fixed ``Discrete`` space; see the
    module docstring. It depends only on the deck; a join's index is the classic one, moved."""

    def __post_init__(self) -> None:
        super().__post_init__()
        s = self.max_snakes
        object.__setattr__(self, "size", CARD_KINDS + 28 * s + 4 * len(self.mids) * s * s)

    @staticmethod
    def for_deck(deck: Deck | str, limit: int = 0) -> HandActionCodec:
        """The codec of a deck (a :class:`Deck` or a built-in deck name), shared per deck;
        ``limit`` bounds the snakes named, as for :class:`~hisss.rl.spaces.ActionCodec`."""
        if isinstance(deck, str):
            deck = get_deck(deck)
        return _hand_codec(deck, limit)

    def action_to_index(self, action: Action) -> int:
        """The index of a play; raises :class:`ValueError` for one outside the space (no card,
        a snake beyond :attr:`max_snakes`, a card the deck has not)."""
        if not isinstance(action, Action):
            raise ValueError(f"expected an Action, not {type(action).__name__}")
        card = action.card
        if card is None:
            raise ValueError(f"action {action} names no card of the hand")
        if not self.deck.count(card):
            raise ValueError(f"action {action}: the {self.deck.name} deck has no {card}")
        kind = action.kind
        if kind is ActionKind.NEW:
            return card.code
        s = self.max_snakes
        if max(action.snake, action.snake2) >= s:
            raise ValueError(f"action {action} names a snake beyond the {s} a table holds")
        assert action.end is not None
        p = 2 * action.snake + END_BIT[action.end]
        if kind is ActionKind.CAP:
            return CARD_KINDS + _CAPPERS * p + card.code
        m2 = 2 * len(self.mids)
        if kind is ActionKind.EXTEND:
            flip = 0 if action.side is card.a else 1
            return CARD_KINDS + 28 * s + m2 * p + 2 * self._mid_place[card] + flip
        join = ActionCodec.action_to_index(self, action.where) - (1 + 14 * s)
        return CARD_KINDS + 28 * s + m2 * 2 * s + join

    def index_to_action(self, index: int) -> Action:
        """The play of ``index``; raises :class:`ValueError` outside ``0 .. size - 1``."""
        index = self.checked_index(index)
        s = self.max_snakes
        m2 = 2 * len(self.mids)
        if index < CARD_KINDS:
            return Action(ActionKind.NEW, card=card_from_code(index))
        i = index - CARD_KINDS
        if i < 28 * s:
            p, code = divmod(i, _CAPPERS)
            return Action(ActionKind.CAP, p // 2, ENDS[p % 2], card=card_from_code(code))
        i -= 28 * s
        if i < m2 * 2 * s:
            p, o = divmod(i, m2)
            k, flip = divmod(o, 2)
            card = self.mids[k]
            side = card.a if not flip else card.b
            return Action(ActionKind.EXTEND, p // 2, ENDS[p % 2], side, card=card)
        i -= m2 * 2 * s
        where = ActionCodec.index_to_action(self, 1 + 14 * s + i)
        assert where.side is not None and where.side2 is not None
        return where.play(Card.mid(where.side, where.side2))


@cache
def _hand_codec(deck: Deck, limit: int) -> HandActionCodec:
    return HandActionCodec(deck, limit)


class HandObservationLayout(ObservationLayout):
    """The observation vector of a configuration of the hand variant; see the module docstring."""

    @staticmethod
    def sizes(snakes: int, players: int) -> dict[str, int]:
        """The length of each part, in order, for a table of ``snakes`` and ``players``."""
        return {
            "hands": CARD_KINDS * players,
            "table": SNAKE_FEATURES * snakes,
            "seats": HAND_SEAT_FEATURES * players,
            "unseen": CARD_KINDS,
            "pile": 1,
        }

    def encode(self, state: State, seat: int) -> npt.NDArray[np.float32]:
        """The observation of ``state`` for ``seat`` (0-based), made from its view alone."""
        assert isinstance(state, HandState)
        return self.encode_view(state.view(seat))

    def encode_view(self, view: SeatView) -> npt.NDArray[np.float32]:
        """The observation of a seat's view, a new ``float32`` vector."""
        out = np.zeros(self.size, dtype=np.float32)
        parts = self.parts
        players = self.players
        base = parts["hands"].start
        for k in range(players):
            hand = view.hands[(view.seat + k) % players]
            for card in hand or ():
                out[base + CARD_KINDS * k + card.code] += 1.0
        encode_table(out, parts["table"].start, view.table, self.codec.max_snakes)
        base = parts["seats"].start
        for k in range(players):
            other = (view.seat + k) % players
            pit = view.pits[other]
            out[base] = float(sum(len(s.cards) for s in pit))
            out[base + 1] = float(len(pit))
            out[base + 2] = float(max((len(s.cards) for s in pit), default=0))
            out[base + 3] = float(other == view.to_move)
            out[base + 4] = float(view.hand_sizes[other])
            base += HAND_SEAT_FEATURES
        base = parts["unseen"].start
        for card, n in view.unseen:
            out[base + card.code] = float(n)
        out[parts["pile"].start] = float(view.pile)
        return out


def action_codec(rules: Rules, deck: Deck, limit: int = 0) -> ActionCodec | HandActionCodec:
    """The action space of a configuration: the classic game's, or the hand variant's
    (``limit``: a bound on the snakes named, 0 for none)."""
    if rules.hand_size:
        return HandActionCodec.for_deck(deck, limit)
    return ActionCodec.for_deck(deck, limit)


def observation_layout(
    codec: ActionCodec | HandActionCodec, players: int
) -> ObservationLayout | HandObservationLayout:
    """The observation of a configuration, for its action space's codec."""
    if isinstance(codec, HandActionCodec):
        return HandObservationLayout(codec, players)
    return ObservationLayout(codec, players)


__all__ = [
    "HAND_SEAT_FEATURES",
    "HandActionCodec",
    "HandObservationLayout",
    "action_codec",
    "observation_layout",
]
