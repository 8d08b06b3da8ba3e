"""The hand variant: each player holds ``Rules.hand_size`` cards hidden from the others.

:class:`HandState` is the state of a game with hands; :func:`~hisss.core.new_game` makes one when
the rules ask for hands. Every rule about where a card may go is the classic game's; what changes
is which card is placed and where the cards wait:

* *chance* steps: the starter, then the deal (``hand_size`` cards to each seat, one at a time in
  seat order, seat 1 first; the deal stops if the deck runs out), then after each play, while the
  pile holds cards, the draw of its top card into the hand of the seat that played.
  :meth:`~HandState.receiver` names the seat a draw goes to; the probabilities are exact, as in the
  classic game (every card not yet drawn is equally likely);
* *decision* steps: the seat to move plays one card of its hand. The legal actions are, for each
  distinct card of the hand in card order, that card's legal placements (forced placement applies
  to the chosen card only), each naming its card (``M:green-yellow@1L:green``). A seat whose hand is
  empty is skipped; the game ends when the pile and every hand are empty.

What a seat may know is its :meth:`~HandState.view`, a :class:`SeatView`: the table, the pits, its
own hand (every hand when ``hands_seen_by_all``), how many cards each hand and the pile hold, and
the cards it has not seen, never where they are. Bots and learners see only that view;
:meth:`SeatView.sample` deals the unseen cards into a full state for a search.

>>> from hisss.core.cards import parse_card
>>> from hisss.core.starting import new_game
>>> s = new_game(2, Rules(hand_size=2))
>>> for text in ("M:blue-green", "M:green-yellow", "M:red-orange", "H:purple", "T:red"):
...     s.draw(parse_card(text))                   # the starter, then the deal: 1, 2, 1, 2
>>> [str(c) for c in s.hands[0]], s.current_player
(['H:purple', 'M:yellow-green'], 0)
>>> [str(a) for a in s.legal_actions()]          # the head fits nowhere: it may start a snake
['H:purple@new', 'M:yellow-green@1L:green']
>>> placed = s.apply(s.legal_actions()[1])
>>> s.is_chance_node(), s.receiver, [str(c) for c in s.view(1).hand], s.view(1).hand_sizes
(True, 0, ['T:red', 'M:red-orange'], (1, 2))
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from hisss.core.actions import Action, with_card
from hisss.core.cards import Card, card_from_code
from hisss.core.decks import Deck
from hisss.core.errors import IllegalDrawError
from hisss.core.rules import Rules
from hisss.core.snake import Snake
from hisss.core.state import Placement, State

# A hand undo record: the hands, the cards dealt, the seat due to draw, and whether the step was a
# placement.
_HandUndo = tuple[tuple[tuple[Card, ...], ...], int, int, bool]


def _insert(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    """``hand`` with ``card`` added, kept in card order."""
    code = card.code
    i = 0
    while i < len(hand) and hand[i].code <= code:
        i += 1
    return (*hand[:i], card, *hand[i:])


class HandState(State):
    """A position of the hand variant; see the module docstring. ``drawn`` is always ``None``:
    the card placed is the one an action names."""

    __slots__ = ("_due", "_hand_undo", "_to_deal", "dealt", "hands")

    #: Each seat's hand, in card order.
    hands: tuple[tuple[Card, ...], ...]
    #: The number of cards dealt so far.
    dealt: int

    def __init__(self, rules: Rules, deck: Deck, players: int) -> None:
        super().__init__(rules, deck, players)
        self.hands = ((),) * players
        self.dealt = 0
        self._to_deal = min(rules.hand_size * players, deck.size - 1)
        self._due = -1
        self._hand_undo: list[_HandUndo] = []

    # ------------------------------------------------------------------ queries

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds."""
        return tuple(len(h) for h in self.hands)

    @property
    def dealing(self) -> bool:
        """True while the deal is going on (the starter lies on the table)."""
        return self.started and self.dealt < self._to_deal

    @property
    def receiver(self) -> int | None:
        """The seat whose hand the next draw fills; ``None`` for the starter or when no draw is
        due."""
        if not self.is_chance_node() or not self.started:
            return None
        return self.dealt % self.players if self.dealt < self._to_deal else self._due

    @property
    def last_placed(self) -> bool:
        """True when the last step was a placement (False after a draw or before any step)."""
        return bool(self._hand_undo) and self._hand_undo[-1][3]

    def is_terminal(self) -> bool:
        """True when the game is over: the pile and every hand are empty (or a target reached)."""
        return self._finished or (self._left == 0 and not any(self.hands))

    def is_chance_node(self) -> bool:
        """True when the next step is a draw: the starter, a card of the deal, or the draw of the
        seat that just played."""
        return (
            self._left > 0
            and not self._finished
            and (self._left == self.deck.size or self.dealt < self._to_deal or self._due >= 0)
        )

    @property
    def current_player(self) -> int | None:
        """The seat (0-based) to play a card of its hand, or ``None`` at a draw or at the end."""
        if self.is_chance_node() or self.is_terminal():
            return None
        return self.to_move

    def describe(self) -> str:
        """One line naming the position, for messages."""
        if self.is_terminal():
            where = f"after turn {self.turns}, game over"
        elif not self.started:
            where = "before the starter is drawn"
        elif self.dealing:
            where = f"dealing card {self.dealt + 1} of {self._to_deal}"
        elif self._due >= 0:
            where = f"turn {self.turns}, seat {self._due + 1} to draw"
        else:
            sizes = ", ".join(str(n) for n in self.hand_sizes)
            where = f"turn {self.turns + 1}, seat {self.to_move + 1} to play (hands {sizes})"
        snakes = " | ".join(f"{i + 1}: {s}" for i, s in enumerate(self.table)) or "empty"
        return f"{where}; table {snakes}"

    # ------------------------------------------------------------------ chance

    def draw(self, card: Card) -> None:
        """Apply a chance outcome: ``card`` is the next card of the deck (the starter, a card of
        the deal, or the card the seat that played draws). Raises :class:`IllegalDrawError`,
        changing nothing, when no draw is due or no copy of the card remains."""
        if not self.is_chance_node():
            reason = (
                "the game is over"
                if self.is_terminal()
                else f"seat {self.to_move + 1} must play a card of the hand first"
            )
            raise IllegalDrawError(card, self.describe(), reason)
        State.draw(self, card)

    def push_draw(self, card: Card) -> None:
        """Apply the chance outcome ``card`` without checking it (a draw must be due and a copy
        of ``card`` must remain)."""
        self._hand_undo.append((self.hands, self.dealt, self._due, False))
        if not self.started:
            State.push_draw(self, card)
            return
        code = card.code
        self._undo.append(
            (self.table, self.pits, None, self.to_move, self.turns, self._finished, code)
        )
        self._remaining[code] -= 1
        self._left -= 1
        if self.dealt < self._to_deal:
            seat = self.dealt % self.players
            self.dealt += 1
        else:
            seat = self._due
            self._due = -1
        hands = self.hands
        self.hands = (*hands[:seat], _insert(hands[seat], card), *hands[seat + 1 :])

    # ------------------------------------------------------------------ actions

    def legal_actions(self) -> list[Action]:
        """The legal plays of the seat to move, in a fixed order: by card of the hand (in card
        order, equal cards once), then that card's placements in the classic order. Empty
        unless a play is due."""
        if self.current_player is None:
            return []
        out: list[Action] = []
        previous = None
        try:
            for card in self.hands[self.to_move]:
                if card is previous:
                    continue
                previous = card
                self.drawn = card
                out.extend(with_card(a, card) for a in State.legal_actions(self))
        finally:
            self.drawn = None
        return out

    _nothing_to_place = "a card is to be drawn first"

    def _why_illegal(self, action: Action) -> str:
        card = action.card
        hand = self.hands[self.to_move]
        held = " ".join(str(c) for c in hand)
        if card is None:
            example = f"{hand[0]}@{action}"
            return f"say which card of the hand is played, as in {example} (the hand holds {held})"
        if card not in hand:
            return f"seat {self.to_move + 1} holds no {card} (the hand holds {held})"
        self.drawn = card
        try:
            return State._why_illegal(self, action)
        finally:
            self.drawn = None

    def can_apply(self, action: Action) -> bool:
        """True when ``action`` is legal now."""
        return action in self.legal_actions()

    def push(self, action: Action) -> Placement:
        """Play ``action`` (it must be legal) without checking it; returns what happened."""
        card = action.card
        assert card is not None, "a play of the hand variant names its card"
        seat = self.to_move
        hands = self.hands
        self._hand_undo.append((hands, self.dealt, self._due, True))
        hand = hands[seat]
        i = hand.index(card)
        self.hands = (*hands[:seat], (*hand[:i], *hand[i + 1 :]), *hands[seat + 1 :])
        self.drawn = card
        placement = State.push(self, action)
        if self._left and not self._finished:
            self._due = seat
        elif any(self.hands):
            while not self.hands[self.to_move]:
                self.to_move = (self.to_move + 1) % self.players
        return placement

    def undo(self) -> None:
        """Take back the last draw or play. Raises ``IndexError`` when there is none."""
        State.undo(self)
        self.drawn = None
        self.hands, self.dealt, self._due, _ = self._hand_undo.pop()

    def copy(self) -> HandState:
        """An independent copy of the position (its undo history starts empty)."""
        other = HandState.__new__(HandState)
        for name in State.__slots__:
            setattr(other, name, getattr(self, name))
        other._remaining = self._remaining.copy()
        other._undo = []
        other.hands = self.hands
        other.dealt = self.dealt
        other._to_deal = self._to_deal
        other._due = self._due
        other._hand_undo = []
        return other

    # ------------------------------------------------------------------ views

    def view(self, seat: int) -> SeatView:
        """What ``seat`` (0-based) may know of the position (RULES: the hand variant, what a
        player knows): everything but the hands of the others (unless hands are seen by all)
        and the order of the pile."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IndexError(f"there is no seat {seat!r} (seats 0 to {self.players - 1})")
        open_hands = self.rules.hands_seen_by_all
        unseen = self._remaining.copy()
        shown: list[tuple[Card, ...] | None] = []
        for i, hand in enumerate(self.hands):
            if open_hands or i == seat:
                shown.append(hand)
            else:
                shown.append(None)
                for card in hand:
                    unseen[card.code] += 1
        return SeatView(
            rules=self.rules,
            deck=self.deck,
            players=self.players,
            seat=seat,
            to_move=self.current_player,
            receiver=self.receiver,
            turns=self.turns,
            dealt=self.dealt,
            over=self.is_terminal(),
            table=self.table,
            pits=self.pits,
            hands=tuple(shown),
            hand_sizes=self.hand_sizes,
            pile=self._left,
            unseen=tuple((card_from_code(c), n) for c, n in enumerate(unseen) if n),
        )


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may know of a position of the hand variant (see :meth:`HandState.view`).

    Two positions that differ only in cards the seat has not seen give equal views.
    """

    rules: Rules
    deck: Deck
    players: int
    #: The seat (0-based) whose view this is.
    seat: int
    #: The seat to play a card, or ``None`` at a draw or at the end.
    to_move: int | None
    #: The seat whose hand the next draw fills, or ``None``.
    receiver: int | None
    turns: int
    #: The cards dealt so far.
    dealt: int
    over: bool
    table: tuple[Snake, ...]
    pits: tuple[tuple[Snake, ...], ...]
    #: Each seat's hand when this seat may see it, else ``None``.
    hands: tuple[tuple[Card, ...] | None, ...]
    #: How many cards each seat holds.
    hand_sizes: tuple[int, ...]
    #: How many cards the pile holds.
    pile: int
    #: Every card this seat has not seen (the pile and the hidden hands), with its copies.
    unseen: tuple[tuple[Card, int], ...]

    @property
    def hand(self) -> tuple[Card, ...]:
        """This seat's own hand, in card order."""
        own = self.hands[self.seat]
        assert own is not None
        return own

    def legal_actions(self) -> list[Action]:
        """The seat's legal plays, as :meth:`HandState.legal_actions` gives them; empty unless
        this seat is to play."""
        if self.to_move != self.seat:
            return []
        return self.known().legal_actions()

    def sample(self, rng: random.Random) -> HandState:
        """A full position that agrees with this view: the unseen cards dealt at random into
        the hidden hands (each arrangement equally likely), the rest in the pile."""
        pool = [card for card, n in self.unseen for _ in range(n)]
        rng.shuffle(pool)
        hands: list[tuple[Card, ...]] = []
        for shown, size in zip(self.hands, self.hand_sizes, strict=True):
            if shown is not None:
                hands.append(shown)
            else:
                taken, pool = pool[:size], pool[size:]
                hands.append(tuple(sorted(taken, key=_code)))
        return self._world(tuple(hands), pool)

    def known(self) -> HandState:
        """A position made of this view alone: the hands this seat sees, the hidden hands empty
        and every unseen card in the pile. The seat's own legal plays, and what each does to the
        table and the pits, are those of the real position; what comes after (the draws, the
        other seats' plays) is not, so a search deals the hidden cards with :meth:`sample`."""
        hands = tuple(h if h is not None else () for h in self.hands)
        pool = [card for card, n in self.unseen for _ in range(n)]
        return self._world(hands, pool)

    def _world(self, hands: tuple[tuple[Card, ...], ...], pile: list[Card]) -> HandState:
        state = HandState(self.rules, self.deck, self.players)
        remaining = [0] * len(self.deck.counts)
        for card in pile:
            remaining[card.code] += 1
        state.table = self.table
        state.pits = self.pits
        state.turns = self.turns
        state.hands = hands
        state.dealt = self.dealt
        state._remaining = remaining
        state._left = len(pile)
        state._finished = self.over
        if self.to_move is not None:
            state.to_move = self.to_move
        elif self.receiver is not None and not state.dealing:
            state._due = self.receiver
            state.to_move = (self.receiver + 1) % self.players
        return state


def _code(card: Card) -> int:
    return card.code


__all__ = ["HandState", "SeatView"]
