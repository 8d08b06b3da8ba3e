"""The game driver: one game from the deal to the result, the one place a game advances.

Every way a game is played runs through :class:`Game`: simulation, the terminal game, the
server's live games, replays and their checks. It owns the seats, the card order, the position
(a core :class:`~hisss.core.State`), the placements made and the game record, so no front end
deals, draws, works out a claim or builds a record on its own.

The cards come one of two ways:

* *dealt*: from a seed (``random.Random(seed)`` shuffles the deck with :func:`hisss.core.deal`)
  or as a given order (``cards``). :meth:`Game.draw` then takes the next card of the order;
* *as they come*: with neither, or past the end of a given order (a replayed record that goes
  on), each :meth:`Game.draw` names its card (a client that learns the cards from a server, say).

Each :meth:`Game.place` returns the core's :class:`~hisss.core.Placement`: who placed which card
where, and the snake it claimed. :meth:`Game.record` is the game so far as a
:class:`~hisss.record.GameRecord`.

In the hand variant (``Rules.hand_size``) the same steps run: :meth:`Game.draw` takes the starter,
then deals (phase ``deal``), then fills the hand of the seat that played (phase ``draw``);
:meth:`Game.place` plays an action naming a card of the hand; :meth:`Game.view` is what one seat
may know, and ``record(seat=...)`` a record that hides every hand but that seat's.

>>> from hisss.core import RAINBOW, Rules
>>> game = Game(Rules(), RAINBOW, [Seat.person("Ala"), Seat.bot("Bot", "easy")], seed=7)
>>> game.phase, str(game.draw())       # the starter: nobody's turn
(<Phase.STARTING: 'starting'>, 'M:purple-red')
>>> game.phase, game.to_move, str(game.draw())
(<Phase.DRAW: 'draw'>, 0, 'M:yellow-green')
>>> placed = game.place(game.legal_actions()[0])
>>> placed.seat, str(placed.action), placed.claimed is None, game.to_move
(0, 'new', True, 1)
>>> record = game.record()
>>> record.seats, [str(c) for c in record.cards], [str(t.action) for t in record.turns]
(('Ala', 'Bot'), ['M:purple-red', 'M:yellow-green'], ['new'])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum

from hisss.core.actions import Action
from hisss.core.cards import Card
from hisss.core.decks import Deck
from hisss.core.errors import ConfigError, IllegalDrawError
from hisss.core.hands import HandState, SeatView
from hisss.core.rules import Rules
from hisss.core.starting import new_game
from hisss.core.state import Placement, State, deal
from hisss.record.format import GameRecord, Turn, result_to_dict
from hisss.record.seats import Seat
from hisss.record.snakes import SnakeTexts

# A turn's snapshot: the table after it, every seat's pit, and (with hands) every hand, in
# notation.
_Snapshot = tuple[tuple[str, ...], tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...] | None]


class Phase(StrEnum):
    """What a game waits for; the value is the protocol's spelling."""

    #: A game of the server still waiting for people to join: nothing is dealt yet.
    WAITING = "waiting"
    #: The starter is still to be drawn.
    STARTING = "starting"
    #: The hand variant: the cards of the hands are being dealt.
    DEAL = "deal"
    #: The seat to move draws (in the hand variant: the seat that played draws into its hand).
    DRAW = "draw"
    #: The seat to move places the card it drew (in the hand variant: plays a card of its hand).
    PLACE = "place"
    #: The game is over.
    OVER = "over"


class Game:
    """One game being played; see the module docstring.

    ``seats`` gives one :class:`Seat` per player, seat 1 first. ``seed`` deals the cards unless
    ``cards`` gives their order (the starter first); the seed is stored in the record either way.
    With ``snapshots`` every turn of the record also holds the table and the pits after it.
    Raises :class:`~hisss.core.ConfigError` when the rules do not allow that many seats.
    """

    __slots__ = (
        "_cards",
        "_holders",
        "_snapshots",
        "_texts",
        "order",
        "placements",
        "seats",
        "seed",
        "state",
    )

    #: The position.
    state: State
    #: The seats, in seat order.
    seats: tuple[Seat, ...]
    #: The seed that dealt the cards, if any.
    seed: int | None
    #: The whole card order when it is known (dealt or given), the starter first.
    order: tuple[Card, ...] | None
    #: Every placement so far, in turn order.
    placements: list[Placement]

    def __init__(
        self,
        rules: Rules,
        deck: Deck,
        seats: Sequence[Seat],
        *,
        seed: int | None = None,
        cards: Sequence[Card] | None = None,
        snapshots: bool = False,
    ) -> None:
        self.state = new_game(len(seats), rules, deck)
        self.seats = tuple(seats)
        self.seed = seed
        if cards is not None:
            self.order = tuple(cards)
        elif seed is not None:
            self.order = tuple(deal(deck, random.Random(seed)))
        else:
            self.order = None
        self.placements = []
        self._cards: list[Card] = []
        # In the hand variant, the seat whose hand each drawn card went to (-1: the starter).
        self._holders: list[int] = []
        self._snapshots: list[_Snapshot] | None = [] if snapshots else None
        # The snapshots' notation of the snakes a placement left as they were, kept.
        self._texts = SnakeTexts()

    # ------------------------------------------------------------------ queries

    @property
    def rules(self) -> Rules:
        """The rules of the game."""
        return self.state.rules

    @property
    def deck(self) -> Deck:
        """The deck the cards come from."""
        return self.state.deck

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.seats)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards drawn so far, the starter first."""
        return tuple(self._cards)

    @property
    def cards_drawn(self) -> int:
        """The number of cards drawn so far, the starter included."""
        return len(self._cards)

    @property
    def phase(self) -> Phase:
        """What the game waits for: the starter, a draw, a placement, or nothing (over)."""
        state = self.state
        if state.is_terminal():
            return Phase.OVER
        if not state.started:
            return Phase.STARTING
        if not state.is_chance_node():
            return Phase.PLACE
        if isinstance(state, HandState) and state.dealing:
            return Phase.DEAL
        return Phase.DRAW

    @property
    def to_move(self) -> int | None:
        """The seat (from 0) to draw or place next; ``None`` before the starter, during the deal
        of the hand variant and at the end."""
        state = self.state
        if not state.started or state.is_terminal():
            return None
        if isinstance(state, HandState) and state.is_chance_node():
            return state.receiver if not state.dealing else None
        return state.to_move

    @property
    def receiver(self) -> int | None:
        """The seat (from 0) the next draw goes to: the seat to move in the classic game, in the
        hand variant the seat whose hand it fills (during the deal too); ``None`` for the
        starter or when no draw is due."""
        state = self.state
        if not state.started or not state.is_chance_node():
            return None
        if isinstance(state, HandState):
            return state.receiver
        return state.to_move

    @property
    def dealer_draws(self) -> bool:
        """True when the next card is drawn by the game itself rather than by a seat: the
        starter, and in the hand variant every card dealt into a hand (the deal and the
        refills), since only the classic game's seats draw (``Rules.seats_draw``)."""
        phase = self.phase
        return phase is Phase.STARTING or (
            phase in (Phase.DEAL, Phase.DRAW) and not self.rules.seats_draw
        )

    @property
    def has_hands(self) -> bool:
        """True in the hand variant."""
        return isinstance(self.state, HandState)

    @property
    def last(self) -> Placement | None:
        """The last placement, or ``None`` before the first."""
        return self.placements[-1] if self.placements else None

    def is_over(self) -> bool:
        """True when the game has ended."""
        return self.state.is_terminal()

    def legal_actions(self) -> list[Action]:
        """The legal placements of the drawn card, or in the hand variant the legal plays of
        the seat to move (empty unless one is due)."""
        return self.state.legal_actions()

    def view(self, seat: int) -> SeatView:
        """What ``seat`` (from 0) may know of the game in the hand variant; raises
        :class:`~hisss.core.ConfigError` in the classic game, where everything is seen by all."""
        state = self.state
        if not isinstance(state, HandState):
            raise ConfigError("the classic game has no hands: every seat sees the whole state")
        return state.view(seat)

    def next_card(self) -> Card | None:
        """The card the next draw takes when the order is known, else ``None``."""
        order, drawn = self.order, len(self._cards)
        if order is None or drawn >= len(order) or not self.state.is_chance_node():
            return None
        return order[drawn]

    # ------------------------------------------------------------------ steps

    def draw(self, card: Card | None = None) -> Card:
        """Draw the next card (the starter first) and return it.

        While the order is known the card is the order's next one (``card``, if given, must be
        it); past the known order (or with none), cards come as they come and must be named.
        Raises :class:`~hisss.core.IllegalDrawError`, changing nothing, when no draw is due or
        the card is not the one that comes.
        """
        order, drawn = self.order, len(self._cards)
        if order is not None and drawn < len(order):
            expected = order[drawn]
            if card is not None and card != expected:
                raise IllegalDrawError(
                    card, self.state.describe(), f"the next card of the order is {expected}"
                )
            card = expected
        elif card is None:
            reason = (
                "the cards come as they come: say which card is drawn"
                if order is None
                else f"the card order ends after {len(order)} cards: say which card is drawn"
            )
            raise IllegalDrawError("a card", self.state.describe(), reason)
        state = self.state
        if isinstance(state, HandState):
            holder = state.receiver
            state.draw(card)
            self._holders.append(-1 if holder is None else holder)
        else:
            state.draw(card)
        self._cards.append(card)
        return card

    def place(self, action: Action) -> Placement:
        """Place the drawn card as ``action`` after checking it is legal; returns what happened.
        In the hand variant ``action`` names the card of the hand it plays.
        Raises :class:`~hisss.core.IllegalActionError`, changing nothing, when it is not legal."""
        self.state.check_action(action)
        return self.push(action)

    def play(self, card: Card, where: Action) -> Placement:
        """The hand variant: play ``card`` of the hand as ``where`` (a placement naming no
        card), checked as :meth:`place` checks it."""
        return self.place(where.where.play(card))

    def push(self, action: Action) -> Placement:
        """Place the drawn card as ``action`` without checking it (it must be legal)."""
        placement = self.state.push(action)
        self.placements.append(placement)
        snapshots = self._snapshots
        if snapshots is not None:
            state = self.state
            texts = self._texts
            table = tuple(texts.of(state.table))
            pits = tuple(tuple(texts.of(pit)) for pit in state.pits)
            texts.done()
            snapshots.append(
                (
                    table,
                    pits,
                    tuple(tuple(str(c) for c in hand) for hand in state.hands)
                    if isinstance(state, HandState)
                    else None,
                )
            )
        return placement

    def undo(self) -> None:
        """Take back the last draw or placement. Raises ``IndexError`` when there is none."""
        state = self.state
        if not self._cards:
            raise IndexError("nothing to undo: no card has been drawn")
        if isinstance(state, HandState):
            placement = state.last_placed
        else:
            # Without a card waiting to be placed, the last step was a placement, unless only
            # the starter lies on the table.
            placement = state.drawn is None and state.turns > 0
        state.undo()
        if placement:
            self.placements.pop()
            if self._snapshots is not None:
                self._snapshots.pop()
        else:
            self._cards.pop()
            if self._holders:
                self._holders.pop()

    def set_seat(self, seat: int, new: Seat) -> None:
        """Put ``new`` in seat ``seat`` (from 0): a bot takes over, or a person comes back."""
        if not 0 <= seat < len(self.seats):
            raise ConfigError(f"there is no seat {seat + 1} (the game has {len(self.seats)})")
        self.seats = (*self.seats[:seat], new, *self.seats[seat + 1 :])

    # ------------------------------------------------------------------ record

    def record(self, *, with_seed: bool = True, seat: int | None = None) -> GameRecord:
        """The game so far as a record: with the result once it is over. Without ``with_seed``
        the record leaves the seed out (it would tell every card still to come).

        In the hand variant, ``seat`` (from 0) makes the record that seat may see: every card
        drawn into another seat's hand is hidden (``None``, written ``?``), unless hands are seen
        by all; the cards played stay in the turns. Such a record cannot be replayed.
        """
        state = self.state
        snapshots = self._snapshots
        if snapshots is None:
            turns = tuple(Turn(p.seat, p.card, p.action.where) for p in self.placements)
        else:
            turns = tuple(
                Turn(p.seat, p.card, p.action.where, table, pits, hands)
                for p, (table, pits, hands) in zip(self.placements, snapshots, strict=True)
            )
        cards: tuple[Card | None, ...] = tuple(self._cards)
        if seat is not None and isinstance(state, HandState):
            if not 0 <= seat < self.players:
                raise ConfigError(f"there is no seat {seat + 1} (the game has {self.players})")
            if not state.rules.hands_seen_by_all:
                cards = tuple(
                    card if holder in (-1, seat) else None
                    for card, holder in zip(self._cards, self._holders, strict=True)
                )
                if turns and snapshots is not None:
                    turns = tuple(_hide_hands(turn, seat) for turn in turns)
        return GameRecord(
            state.rules,
            state.deck,
            tuple(chair.name for chair in self.seats),
            cards,
            turns,
            self.seed if with_seed else None,
            result_to_dict(state.result()) if state.is_terminal() else None,
        )


def _hide_hands(turn: Turn, seat: int) -> Turn:
    """``turn`` with the snapshots of the hands of every seat but ``seat`` left out."""
    if turn.hands is None:
        return turn
    hands = tuple(hand if i == seat else None for i, hand in enumerate(turn.hands))
    return Turn(turn.player, turn.card, turn.action, turn.table, turn.pits, hands)


__all__ = ["Game", "Phase"]
