"""The fixed action space and the observation tensor shared by the reinforcement-learning adapters.

Actions
-------
Every environment configuration has one fixed ``Discrete(n)`` action space. Its indices are built
from the fields of the engine's :class:`~hisss.core.Action` alone (kind, snake, end, side,
snake2, end2, side2), never from the drawn card, so an index names the same placement in every
position. With ``S`` the most snakes the table can hold and ``m`` the number of distinct
mid-sections in the deck:

==========  ==========================================  ==================================
kind        indices                                     index
==========  ==========================================  ==================================
``new``     1                                           ``0``
cap         ``2S``: snake ``i``, end ``e``              ``1 + 2i + e``
extend      ``12S``: snake ``i``, end ``e``, side ``c`` ``1 + 2S + 6(2i + e) + c``
join        ``2S(S - 1) * 2m``                          ``1 + 14S + 2m * r + 2k + f``
==========  ==========================================  ==================================

``e`` is 0 for the left end and 1 for the right; ``c`` the side's place on the colour wheel
(red 0 to purple 5). A join touches two ends of different snakes, numbered ``p = 2i + e`` and
``q = 2j + f`` with ``p < q`` (the engine writes a join's ends in table order); ``r = q(q - 1)/2 + p
- q // 2`` ranks the ``2S(S - 1)`` such pairs. ``k`` is the joining mid-section's place among the
deck's distinct mid-sections (in card-code order) and ``f`` is 0 when its first written colour
touches the first end, 1 when it is turned round. So

    ``n = 1 + 14S + 4mS(S - 1)``.

``S`` is the deck size minus one: with the house rule ``forced_placement=false`` every card may lie
alone, so the table can hold every card but the one being placed. That bound is the same for every
rule set, so an index means the same thing under every option; indices that are illegal in a
position (most of them) are masked out. For the 50-card ``rainbow`` deck (``S = 49``, ``m = 6``)
``n = 57,135``; for ``all-pairs`` (``m = 15``) ``141,807``; for ``double`` (``S = 99``)
``234,235``.

>>> from hisss.core import parse_action
>>> codec = ActionCodec.for_deck("rainbow")
>>> codec.size, codec.max_snakes
(57135, 49)
>>> [codec.action_to_index(parse_action(t)) for t in ("new", "1L", "1R", "1L:red", "2R:purple")]
[0, 1, 2, 99, 122]
>>> str(codec.index_to_action(codec.action_to_index(parse_action("1R:orange+3L:yellow"))))
'1R:orange+3L:yellow'

Observations
------------
The observation of a seat is a ``float32`` vector of raw counts, the same for every seat's point of
view except the seat order, made only of public information (the order of the remaining cards is
not in the engine's state at all). Its parts, in order (``C = 29`` distinct cards, ``P`` players):

==============  ===========  =============================================================
part            length       content
==============  ===========  =============================================================
``drawn``       ``C``        one-hot of the card waiting to be placed (all zero otherwise)
``table``       ``18 * S``   18 numbers per table position, in table order (zeros past the
                             last snake): present (1), left end colour one-hot over the six
                             colours and a wild neck (7; all zero when closed), right end
                             likewise (7), has a head (1), has a tail (1), length in cards
``seats``       ``4 * P``    for each seat from the observer's (the observer first, then the
                             following seats in turn order): cards in its pit, snakes in its
                             pit, its longest pit snake, and 1 if it places the drawn card
``remaining``   ``C``        copies of each card still to be drawn, by card code
``left``        1            the number of cards still to be drawn
==============  ===========  =============================================================

Every value lies between 0 and the deck size. Card codes run: heads red to purple (0-5), wild head
(6), tails (7-12), wild tail (13), then the 15 mid-sections (14-28).

>>> layout = ObservationLayout(ActionCodec.for_deck("rainbow"), players=2)
>>> layout.size, layout.parts["table"], layout.parts["left"]
(949, slice(29, 911, None), slice(948, 949, None))
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache

import numpy as np
import numpy.typing as npt

from hisss.core import (
    Action,
    ActionKind,
    Card,
    ConfigError,
    Deck,
    End,
    SeatView,
    Snake,
    State,
    get_deck,
)
from hisss.core.cards import ALL_CARDS, CARD_KINDS, MID, WHEEL, WILD

#: An end's number in an index (0 left, 1 right), and the ends by number.
END_BIT = {End.L: 0, End.R: 1}
ENDS = (End.L, End.R)
#: Numbers per table position in the observation.
SNAKE_FEATURES = 18
#: Numbers per seat in the observation.
SEAT_FEATURES = 4
_END_SLOT: dict[object, int] = {c: i for i, c in enumerate(WHEEL)}
_END_SLOT[WILD] = 6


def _pair_start(q: int) -> int:
    """The rank of the first join pair whose later end is ``q``."""
    return q * (q - 1) // 2 - q // 2


@dataclass(frozen=True)
class ActionCodec:
    """The mapping between engine actions and the indices of a fixed ``Discrete`` space.

    See the module docstring for the layout. Build one with :meth:`for_deck`; it depends only on
    the deck.
    """

    deck: Deck
    #: A smaller bound on the snakes the space names (the compact ``v1`` space: 16), or 0.
    limit: int = 0
    #: The most snakes the space names: the deck size minus one (the most a table can hold when
    #: a card is to be placed), or :attr:`limit` when that is smaller.
    max_snakes: int = field(init=False)
    #: The deck's distinct mid-sections in card-code order: the joins' ``k``.
    mids: tuple[Card, ...] = field(init=False)
    #: The number of indices, ``n``.
    size: int = field(init=False)
    _mid_place: dict[Card, int] = field(init=False, repr=False, compare=False)
    _starts: list[int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.deck, Deck):
            raise ConfigError(f"deck must be a Deck, not {type(self.deck).__name__}")
        s = self.deck.size - 1
        if self.limit:
            s = min(s, self.limit)
        mids = tuple(c for c in ALL_CARDS if c.kind is MID and self.deck.count(c))
        object.__setattr__(self, "max_snakes", s)
        object.__setattr__(self, "mids", mids)
        object.__setattr__(self, "size", 1 + 14 * s + 4 * len(mids) * s * (s - 1))
        object.__setattr__(self, "_mid_place", {c: k for k, c in enumerate(mids)})
        object.__setattr__(self, "_starts", [_pair_start(q) for q in range(1, 2 * s)])

    @staticmethod
    def for_deck(deck: Deck | str, limit: int = 0) -> ActionCodec:
        """The codec of a deck (a :class:`Deck` or a built-in deck name), shared per deck;
        ``limit``: see :attr:`limit`."""
        if isinstance(deck, str):
            deck = get_deck(deck)
        return _codec(deck, limit)

    @property
    def _join_base(self) -> int:
        return 1 + 14 * self.max_snakes

    def action_to_index(self, action: Action) -> int:
        """The index of ``action``; raises :class:`ValueError` for one outside the space.

        An action is outside the space when it names a snake beyond :attr:`max_snakes` or, for a
        join, a pair of colours that no mid-section of the deck has.
        """
        if not isinstance(action, Action):
            raise ValueError(f"expected an Action, not {type(action).__name__}")
        kind = action.kind
        if kind is ActionKind.NEW:
            return 0
        s = self.max_snakes
        last = max(action.snake, action.snake2)
        if last >= s:
            raise ValueError(
                f"action {action} names snake {last + 1}, but a {self.deck.name} table holds at "
                f"most {s}"
            )
        assert action.end is not None
        p = 2 * action.snake + END_BIT[action.end]
        if kind is ActionKind.CAP:
            return 1 + p
        assert action.side is not None
        if kind is ActionKind.EXTEND:
            return 1 + 2 * s + 6 * p + action.side.index
        assert action.end2 is not None and action.side2 is not None
        q = 2 * action.snake2 + END_BIT[action.end2]
        card = Card.mid(action.side, action.side2)
        k = self._mid_place.get(card)
        if k is None:
            raise ValueError(f"action {action}: the {self.deck.name} deck has no {card}")
        flip = 0 if action.side is card.a else 1
        rank = _pair_start(q) + p
        return self._join_base + 2 * len(self.mids) * rank + 2 * k + flip

    def checked_index(self, index: object) -> int:
        """``index`` as an ``int``; raises :class:`ValueError` unless it is a whole number from
        0 to ``size - 1``."""
        if isinstance(index, bool) or not isinstance(index, int | np.integer):
            raise ValueError(f"an action index is a whole number, not {index!r}")
        index = int(index)
        if not 0 <= index < self.size:
            raise ValueError(f"action index {index} is outside 0 .. {self.size - 1}")
        return index

    def index_to_action(self, index: int) -> Action:
        """The action of ``index``; raises :class:`ValueError` outside ``0 .. size - 1``."""
        index = self.checked_index(index)
        if index == 0:
            return Action(ActionKind.NEW)
        s = self.max_snakes
        i = index - 1
        if i < 2 * s:
            return Action(ActionKind.CAP, i // 2, ENDS[i % 2])
        i -= 2 * s
        if i < 12 * s:
            p, c = divmod(i, 6)
            return Action(ActionKind.EXTEND, p // 2, ENDS[p % 2], WHEEL[c])
        i -= 12 * s
        rank, o = divmod(i, 2 * len(self.mids))
        k, flip = divmod(o, 2)
        q = bisect.bisect_right(self._starts, rank)  # starts[q - 1] <= rank < starts[q]
        p = rank - self._starts[q - 1]
        card = self.mids[k]
        assert card.a is not None and card.b is not None
        side, side2 = (card.a, card.b) if not flip else (card.b, card.a)
        return Action(ActionKind.JOIN, p // 2, ENDS[p % 2], side, q // 2, ENDS[q % 2], side2)

    def legal_indices(self, state: State | SeatView) -> list[int]:
        """The indices of ``state.legal_actions()`` (a position, or in the hand variant a seat's
        view), in the engine's order."""
        return [self.action_to_index(a) for a in state.legal_actions()]

    def mask(self, state: State | SeatView) -> npt.NDArray[np.int8]:
        """An ``int8`` vector of :attr:`size`: 1 at the legal indices of ``state``, else 0."""
        out = np.zeros(self.size, dtype=np.int8)
        out[self.legal_indices(state)] = 1
        return out


@cache
def _codec(deck: Deck, limit: int) -> ActionCodec:
    return ActionCodec(deck, limit)


class ObservationLayout:
    """The observation vector of a configuration: its parts and how to fill it from a state.

    See the module docstring for the layout.
    """

    def __init__(self, codec: ActionCodec, players: int) -> None:
        self.codec = codec
        self.players = players
        #: Each part's slice, and the length of the vector.
        self.parts, self.size = lay_out(self.sizes(codec.max_snakes, players))
        #: The largest value any entry can take: the deck size.
        self.high = float(codec.deck.size)

    @staticmethod
    def sizes(snakes: int, players: int) -> dict[str, int]:
        """The length of each part, in order, for a table of ``snakes`` and ``players``."""
        return {
            "drawn": CARD_KINDS,
            "table": SNAKE_FEATURES * snakes,
            "seats": SEAT_FEATURES * players,
            "remaining": CARD_KINDS,
            "left": 1,
        }

    def encode(self, state: State, seat: int) -> npt.NDArray[np.float32]:
        """The observation of ``state`` for ``seat`` (0-based), a new ``float32`` vector."""
        out = np.zeros(self.size, dtype=np.float32)
        parts = self.parts
        if state.drawn is not None:
            out[parts["drawn"].start + state.drawn.code] = 1.0
        encode_table(out, parts["table"].start, state.table, self.codec.max_snakes)
        base = parts["seats"].start
        mover = state.current_player
        for k in range(self.players):
            other = (seat + k) % self.players
            pit = state.pits[other]
            out[base] = float(sum(len(s.cards) for s in pit))
            out[base + 1] = float(len(pit))
            out[base + 2] = float(max((len(s.cards) for s in pit), default=0))
            out[base + 3] = float(other == mover)
            base += SEAT_FEATURES
        base = parts["remaining"].start
        for card, n in state.remaining_counts().items():
            out[base + card.code] = float(n)
        out[parts["left"].start] = float(state.remaining)
        return out


def lay_out(sizes: dict[str, int]) -> tuple[dict[str, slice], int]:
    """The slice of each part of a vector whose parts have these lengths, in order, and the
    vector's length."""
    parts: dict[str, slice] = {}
    start = 0
    for name, n in sizes.items():
        parts[name] = slice(start, start + n)
        start += n
    return parts, start


def encode_table(
    out: npt.NDArray[np.float32], base: int, table: tuple[Snake, ...], snakes: int
) -> None:
    """Write the ``table`` part of an observation into ``out`` from index ``base``: 18 numbers
    per snake (see the module docstring), for the first ``snakes`` snakes."""
    for snake in table[:snakes]:
        left, right = snake.path[0], snake.path[-1]
        out[base] = 1.0
        if left is not None:
            out[base + 1 + _END_SLOT[left]] = 1.0
        if right is not None:
            out[base + 8 + _END_SLOT[right]] = 1.0
        out[base + 15] = float(snake.has_head)
        out[base + 16] = float(snake.has_tail)
        out[base + 17] = float(snake.length)
        base += SNAKE_FEATURES


def terminal_rewards(winners: tuple[int, ...], players: int) -> tuple[float, ...]:
    """Each seat's reward for a finished game with these ``winners`` (0-based seats).

    The winners share +1 and the losers share -1: a sole winner gets +1 and every loser
    ``-1 / (P - 1)``; ``k`` winners sharing the win get ``1 / k`` each and the ``P - k`` losers
    ``-1 / (P - k)`` each; when every seat shares the win, everybody gets 0. The rewards always sum
    to zero and lie between -1 and +1; with two players they are +1 and -1, or 0 and 0.

    >>> terminal_rewards((0,), 2), terminal_rewards((1, 2), 3), terminal_rewards((0, 1), 2)
    ((1.0, -1.0), (-1.0, 0.5, 0.5), (0.0, 0.0))
    >>> terminal_rewards((2,), 4)
    (-0.3333333333333333, -0.3333333333333333, 1.0, -0.3333333333333333)
    """
    k = len(winners)
    if k == players:
        return (0.0,) * players
    win, loss = 1.0 / k, -1.0 / (players - k)
    return tuple(win if seat in winners else loss for seat in range(players))


def action_index(action: object) -> int:
    """An action as researchers pass it, as an ``int``: a Python ``int``, a numpy integer or a
    0-d integer array (what ``model.predict`` returns for one observation).

    Raises :class:`TypeError` for anything else (a bool, a float, a string, an array with a
    dimension); whether the index is in range and legal is the caller's check.

    >>> [action_index(a) for a in (3, np.int64(3), np.array(3), np.array([3])[0])]
    [3, 3, 3, 3]
    >>> action_index(np.array([3]))
    Traceback (most recent call last):
    ...
    TypeError: an action is one whole number (an int, a numpy integer or a 0-d integer array), \
not an array of shape (1,)
    """
    if isinstance(action, np.ndarray):
        if action.ndim == 0 and np.issubdtype(action.dtype, np.integer):
            return int(action)
        what = f"an array of shape {action.shape}" if action.ndim else f"a {action.dtype} array"
    elif isinstance(action, bool | np.bool_):
        what = f"the bool {action}"
    elif isinstance(action, int | np.integer):
        return int(action)
    else:
        what = f"{type(action).__name__} {action!r}"
    raise TypeError(
        "an action is one whole number (an int, a numpy integer or a 0-d integer array), "
        f"not {what}"
    )


def check_options(options: Mapping[str, object], known: frozenset[str], owner: str) -> None:
    """Raise :class:`TypeError`, as a call with an unknown keyword does, when ``options`` (an
    environment's rarer keyword options) holds one that ``owner`` does not take (``known``)."""
    unexpected = options.keys() - known
    if unexpected:
        raise TypeError(f"{owner} got unexpected options: {', '.join(sorted(unexpected))}")


def check_deck_for_play(deck: Deck) -> None:
    """Raise :class:`ConfigError` for a deck too small for an environment (fewer than 2 cards)."""
    if deck.size < 2:
        raise ConfigError(
            f"the {deck.name} deck has {deck.size} card: an environment needs at least 2 "
            "(the starter is nobody's turn, so a one-card game has no decision)"
        )
