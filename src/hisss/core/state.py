"""The state of a game of Hisss: the table, the pits, the remaining cards and whose turn it is.

A game alternates two kinds of step, as in OpenSpiel:

* a *chance* step draws the next card. :meth:`State.chance_outcomes` lists every card that can come
  next with its exact probability, so a search can enumerate draws; :meth:`State.draw` applies one,
  and :meth:`State.sample_draw` picks one with an injected random generator. The first draw is the
  starter, which lies alone on the table and is nobody's turn;
* a *decision* step places the drawn card: :meth:`State.legal_actions` lists the choices in a fixed
  order, :meth:`State.apply` plays one after checking it, and :meth:`State.push` plays a known-legal
  one without checking. Both return a :class:`Placement`: who placed which card where, and the
  snake it claimed, if any. :meth:`State.undo` takes back the last step of either kind.

A search that enumerates draws applies them with :meth:`State.push_draw`, the unchecked twin of
:meth:`State.draw`.

Snakes on the table and in the pits are immutable, so :meth:`State.copy` and :meth:`State.undo` cost
a few microseconds. Every card is seen by all players in the classic game: nothing in the state is
hidden except the order of the remaining cards, which is not in the state at all (it is decided by
each chance step).

The hand variant (``Rules.hand_size``: each player holds cards the others cannot see) is a
subclass, :class:`hisss.core.hands.HandState`, which :func:`~hisss.core.starting.new_game` makes
when the rules ask for hands: dealing into a hand is a further kind of chance outcome, an action
names the card of the hand it plays, and what a seat may see is a view of the state for that seat.

>>> import random
>>> from hisss.core.cards import parse_card
>>> from hisss.core import new_game
>>> s = new_game(players=2)
>>> s.draw(parse_card("M:blue-green"))          # the starter
>>> s.draw(parse_card("M:green-yellow"))        # seat 1 draws
>>> [str(a) for a in s.legal_actions()]
['1L:green']
>>> s.apply(s.legal_actions()[0])
Placement(seat=0, card=Card.parse('M:yellow-green'), action=Action.parse('1L:green'), claimed=None)
>>> str(s.table[0])
'M:yellow-green M:green-blue'
>>> s.current_player is None and s.is_chance_node()
True
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import NamedTuple

from hisss.core.actions import CAPS, EXTENDS, NEW, Action, ActionKind, End, join, reserve
from hisss.core.cards import HEAD, MID, TAIL, WILD, Card, card_from_code
from hisss.core.decks import Deck
from hisss.core.errors import IllegalActionError, IllegalDrawError
from hisss.core.rules import JoinClaim, Rules, Scoring
from hisss.core.scoring import Result, score
from hisss.core.snake import EndColour, Snake, lone

_L = End.L
_R = End.R
_EXTEND = ActionKind.EXTEND
_CAP = ActionKind.CAP
_JOIN = ActionKind.JOIN
_NEW = ActionKind.NEW

# An undo record: table, pits, drawn card, seat to move, turns played, finished flag, and the code
# of the card a draw took from the remaining cards (-1 for a placement).
_Undo = tuple[tuple[Snake, ...], tuple[tuple[Snake, ...], ...], Card | None, int, int, bool, int]


class Placement(NamedTuple):
    """What one placement did: returned by :meth:`State.apply` and :meth:`State.push`.

    A named tuple rather than a frozen dataclass: it is made on every move of every search, and a
    tuple is made in a third of the time. Front ends report it and records store it; nobody works
    out a claim again by comparing pits.

    >>> from hisss.core.cards import parse_card
    >>> from hisss.core import new_game
    >>> s = new_game(players=2)
    >>> for text in ("M:red-orange", "H:red", "T:orange"):
    ...     s.draw(parse_card(text))
    ...     if s.drawn is not None:
    ...         placed = s.apply(s.legal_actions()[0])
    >>> placed.seat, str(placed.card), str(placed.action), str(placed.claimed), placed.pit
    (1, 'T:orange', '1R', 'H:red M:red-orange T:orange', 1)
    """

    #: The seat (0-based) that placed the card.
    seat: int
    #: The card placed.
    card: Card
    #: Where it went.
    action: Action
    #: The snake it completed and claimed (now in the pit of :attr:`pit`), or ``None``.
    claimed: Snake | None

    @property
    def pit(self) -> int | None:
        """The seat whose pit the claimed snake went to (the placer); ``None`` without a claim."""
        return self.seat if self.claimed is not None else None


# Made straight from the tuple: half the time of calling the named tuple's own constructor, on
# the path of every move of every search.
_new_placement = tuple.__new__


class State:
    """A position in a game; see the module docstring. Build one with
    :func:`~hisss.core.starting.new_game`."""

    __slots__ = (
        "_finished",
        "_left",
        "_remaining",
        "_undo",
        "deck",
        "drawn",
        "pits",
        "players",
        "rules",
        "table",
        "to_move",
        "turns",
    )

    rules: Rules
    deck: Deck
    players: int
    #: The snakes under construction, in table order.
    table: tuple[Snake, ...]
    #: Each seat's claimed snakes, in the order claimed.
    pits: tuple[tuple[Snake, ...], ...]
    #: The card drawn and waiting to be placed, or ``None`` at a chance step or at the end.
    drawn: Card | None
    #: The seat (0-based) that places the next drawn card.
    to_move: int
    #: The number of cards placed so far, the starter not counted.
    turns: int

    def __init__(self, rules: Rules, deck: Deck, players: int) -> None:
        rules.check_players(players)
        self.rules = rules
        self.deck = deck
        self.players = players
        self.table = ()
        self.pits = ((),) * players
        self.drawn = None
        self.to_move = 0
        self.turns = 0
        self._remaining = list(deck.counts)
        self._left = deck.size
        self._finished = False
        self._undo: list[_Undo] = []

    # ------------------------------------------------------------------ queries

    @property
    def remaining(self) -> int:
        """The number of cards not yet drawn."""
        return self._left

    def remaining_counts(self) -> dict[Card, int]:
        """How many copies of each card are still to be drawn."""
        return {card_from_code(c): n for c, n in enumerate(self._remaining) if n}

    @property
    def started(self) -> bool:
        """True once the starter lies on the table."""
        return self._left < self.deck.size

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self._finished or (self._left == 0 and self.drawn is None)

    def is_chance_node(self) -> bool:
        """True when the next step is a draw."""
        return self.drawn is None and self._left > 0 and not self._finished

    @property
    def current_player(self) -> int | None:
        """The seat (0-based) to place the drawn card, or ``None`` at a draw or at the end."""
        return self.to_move if self.drawn is not None else None

    def pit_cards(self, seat: int) -> int:
        """The number of cards in a seat's pit."""
        return sum(len(s.cards) for s in self.pits[seat])

    def result(self) -> Result:
        """The score and winners; meaningful at the end, a running score before it."""
        return score(self.pits, self.rules)

    def describe(self) -> str:
        """One line naming the position, for messages."""
        if self.is_terminal():
            where = f"after turn {self.turns}, game over"
        elif self.drawn is None:
            where = (
                "before the starter is drawn"
                if not self.started
                else (f"turn {self.turns + 1}, seat {self.to_move + 1} to draw")
            )
        else:
            where = f"turn {self.turns + 1}, seat {self.to_move + 1} to place {self.drawn}"
        snakes = " | ".join(f"{i + 1}: {s}" for i, s in enumerate(self.table)) or "empty"
        return f"{where}; table {snakes}"

    def __repr__(self) -> str:
        return f"<State {self.describe()}>"

    # ------------------------------------------------------------------ chance

    def chance_outcomes(self) -> list[tuple[Card, Fraction]]:
        """Every card that can be drawn next with its exact probability, in card order."""
        if not self.is_chance_node():
            return []
        total = self._left
        return [(card_from_code(c), Fraction(n, total)) for c, n in enumerate(self._remaining) if n]

    def draw_weights(self) -> list[tuple[Card, int]]:
        """Like :meth:`chance_outcomes` with integer weights (copies left) instead of fractions."""
        if not self.is_chance_node():
            return []
        return [(card_from_code(c), n) for c, n in enumerate(self._remaining) if n]

    def sample_draw(self, rng: random.Random) -> Card:
        """Draw a card at random with ``rng``, each remaining copy equally likely; returns it."""
        if not self.is_chance_node():
            raise IllegalDrawError("a card", self.describe(), "no draw is due")
        k = rng.randrange(self._left)
        for code, n in enumerate(self._remaining):
            if k < n:
                card = card_from_code(code)
                self.push_draw(card)
                return card
            k -= n
        raise AssertionError("remaining counts out of step")  # pragma: no cover

    def draw(self, card: Card) -> None:
        """Apply a chance outcome: ``card`` is the next card of the deck.

        Raises :class:`IllegalDrawError` (changing nothing) when no draw is due or no copy of the
        card remains.
        """
        if not self.is_chance_node():
            reason = (
                "the game is over" if self.is_terminal() else f"{self.drawn} must be placed first"
            )
            raise IllegalDrawError(card, self.describe(), reason)
        if not isinstance(card, Card):
            reason = f"expected a Card, not {type(card).__name__} (read text with parse_card)"
            raise IllegalDrawError(card, self.describe(), reason)
        if self._remaining[card.code] == 0:
            raise IllegalDrawError(card, self.describe(), "no copy of this card remains")
        self.push_draw(card)

    def push_draw(self, card: Card) -> None:
        """Apply the chance outcome ``card`` without checking it: the fast path for a search that
        enumerates :meth:`draw_weights`. A draw must be due and a copy of ``card`` must remain."""
        code = card.code
        self._undo.append(
            (self.table, self.pits, None, self.to_move, self.turns, self._finished, code)
        )
        self._remaining[code] -= 1
        self._left -= 1
        if self._left + 1 == self.deck.size:
            self.table = (lone(card),)
        else:
            self.drawn = card

    # ------------------------------------------------------------------ actions

    def legal_actions(self) -> list[Action]:
        """The legal placements of the drawn card, in a fixed order (empty unless one is due).

        Order: extends and caps by snake and end (left before right; for a wild neck the
        mid-section's first colour first); then joins, by the end that the mid-section's first
        colour touches and then by the other end, both in table order; then ``new``.
        """
        card = self.drawn
        if card is None:
            return []
        out: list[Action] = []
        table = self.table
        if len(table) > len(CAPS):
            reserve(len(table))
        if card.kind is MID:
            _mid_placements(table, card, out)
        else:
            # A head goes onto a snake without a head, a tail onto one without a tail, and only
            # onto the open end of a mid-section (never onto a lone head's or tail's neck).
            colour = card.a
            if card.kind is HEAD:
                closed_at, blocker = 0, HEAD
            else:
                closed_at, blocker = -1, TAIL
            for i, s in enumerate(table):
                cards = s.cards
                if cards[closed_at].kind is blocker:
                    continue
                if cards[0].kind is MID and (colour is None or s.path[0] is colour):
                    out.append(CAPS[i][0])
                if cards[-1].kind is MID and (colour is None or s.path[-1] is colour):
                    out.append(CAPS[i][1])
        if not out or not self.rules.forced_placement:
            out.append(NEW)
        return out

    def check_action(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` unless ``action`` is legal now."""
        if not isinstance(action, Action):
            reason = (
                f"expected an Action, not {type(action).__name__} (read text with parse_action)"
            )
            raise IllegalActionError(action, self.describe(), reason)
        if self.current_player is None:
            reason = "the game is over" if self.is_terminal() else self._nothing_to_place
            raise IllegalActionError(action, self.describe(), reason)
        if action in self.legal_actions():
            return
        raise IllegalActionError(action, self.describe(), self._why_illegal(action))

    #: Why no action is legal before the game is over, for messages.
    _nothing_to_place = "no card has been drawn"

    def can_apply(self, action: Action) -> bool:
        """True when ``action`` is legal now."""
        return self.drawn is not None and action in self.legal_actions()

    def apply(self, action: Action) -> Placement:
        """Place the drawn card as ``action`` after checking it is legal; returns what happened.

        A completed snake goes at once to the pit of the player who placed the card. Raises
        :class:`IllegalActionError`, changing nothing, when the action is not legal.
        """
        self.check_action(action)
        return self.push(action)

    def push(self, action: Action) -> Placement:
        """Place the drawn card as ``action`` without checking it (it must be legal); returns
        what happened, as :meth:`apply` does."""
        card = self.drawn
        assert card is not None
        table = self.table
        self._undo.append((table, self.pits, card, self.to_move, self.turns, self._finished, -1))
        kind = action.kind
        claimed: Snake | None = None
        if kind is _EXTEND:
            i = action.snake
            s = table[i]
            side = action.side
            other = card.b if side is card.a else card.a
            if action.end is _R:
                new = Snake(s.cards + (card,), s.path[:-1] + (side, other))
            else:
                new = Snake((card, *s.cards), (other, side, *s.path[1:]))
            row = list(table)
            row[i] = new
            self.table = tuple(row)
        elif kind is _CAP:
            claimed = self._push_cap(table, action, card)
        elif kind is _JOIN:
            claimed = self._push_join(table, action, card)
        else:
            self.table = (*table, lone(card))
        seat = self.to_move
        if claimed is not None:
            pits = self.pits
            self.pits = (*pits[:seat], (*pits[seat], claimed), *pits[seat + 1 :])
            if self.rules.scoring is Scoring.FIRST_TO and self.pit_cards(seat) >= self.rules.target:
                self._finished = True
        self.drawn = None
        self.turns += 1
        self.to_move = (seat + 1) % self.players
        return _new_placement(Placement, (seat, card, action, claimed))

    def _push_cap(self, table: tuple[Snake, ...], action: Action, card: Card) -> Snake | None:
        """The table part of :meth:`push` for a cap: sets the table and returns the snake the
        cap completes, which is claimed."""
        i = action.snake
        s = table[i]
        if action.end is _R:
            new = Snake(s.cards + (card,), s.path + (None,))
            if card.kind is HEAD:
                new = Snake(new.cards[::-1], new.path[::-1])
        else:
            new = Snake((card, *s.cards), (None, *s.path))
            if card.kind is TAIL:
                new = Snake(new.cards[::-1], new.path[::-1])
        if new.cards[0].kind is HEAD and new.cards[-1].kind is TAIL:
            self.table = (*table[:i], *table[i + 1 :])
            return new
        self.table = (*table[:i], new, *table[i + 1 :])
        return None

    def _push_join(self, table: tuple[Snake, ...], action: Action, card: Card) -> Snake | None:
        """The table part of :meth:`push` for a join: sets the table and returns the joined snake
        when it is claimed."""
        i, j = action.snake, action.snake2
        s, u = table[i], table[j]
        side = action.side
        other = action.side2
        flip_s = action.end is _L
        flip_u = action.end2 is _R
        if flip_s:
            s = Snake(s.cards[::-1], s.path[::-1])
        if flip_u:
            u = Snake(u.cards[::-1], u.path[::-1])
        cards = (*s.cards, card, *u.cards)
        path: tuple[EndColour, ...] = (*s.path[:-1], side, other, *u.path[1:])
        first, last = cards[0].kind, cards[-1].kind
        if (
            first is TAIL
            or last is HEAD
            or (first is not HEAD and last is not TAIL and (flip_s if i < j else flip_u))
        ):
            cards = cards[::-1]
            path = path[::-1]
            first, last = cards[0].kind, cards[-1].kind
        new = Snake(cards, path)
        lo, hi = (i, j) if i < j else (j, i)
        if (first is HEAD and last is TAIL) or self.rules.join_claim is JoinClaim.ALWAYS:
            self.table = (*table[:lo], *table[lo + 1 : hi], *table[hi + 1 :])
            return new
        self.table = (*table[:lo], new, *table[lo + 1 : hi], *table[hi + 1 :])
        return None

    def undo(self) -> None:
        """Take back the last draw or placement. Raises ``IndexError`` when there is none."""
        table, pits, drawn, to_move, turns, finished, code = self._undo.pop()
        self.table = table
        self.pits = pits
        self.drawn = drawn
        self.to_move = to_move
        self.turns = turns
        self._finished = finished
        if code >= 0:
            self._remaining[code] += 1
            self._left += 1

    def copy(self) -> State:
        """An independent copy of the position (its undo history starts empty)."""
        other = State.__new__(State)
        other.rules = self.rules
        other.deck = self.deck
        other.players = self.players
        other.table = self.table
        other.pits = self.pits
        other.drawn = self.drawn
        other.to_move = self.to_move
        other.turns = self.turns
        other._remaining = self._remaining.copy()
        other._left = self._left
        other._finished = self._finished
        other._undo = []
        return other

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds in hand: none in the classic game (empty)."""
        return ()

    def _why_illegal(self, action: Action) -> str:
        card = self.drawn
        assert card is not None
        n = len(self.table)
        for snake, end in action.ends:
            if not 0 <= snake < n:
                return f"there is no snake {snake + 1} (the table has {n})"
            colour = self.table[snake].path[0 if end is _L else -1]
            if colour is None:
                return f"the {end} end of snake {snake + 1} is closed"
        if action.kind is _NEW:
            return f"{card} fits onto a snake, so it may not start a new one"
        if action.kind is _CAP:
            return self._why_cap_illegal(action, card)
        return self._why_mid_illegal(action, card)

    def _why_cap_illegal(self, action: Action, card: Card) -> str:
        if card.kind is MID:
            return f"{card} is a mid-section: say which side touches (e.g. {action}:{card.a})"
        s = self.table[action.snake]
        if s.length == 1 and s.cards[0].kind is not MID:
            return "a head or tail never goes onto a lone head or tail"
        if (card.kind is HEAD and s.has_head) or (card.kind is TAIL and s.has_tail):
            return f"snake {action.snake + 1} already has a {card.kind.name.lower()}"
        return f"{card} does not fit the {action.end} end of snake {action.snake + 1}"

    def _why_mid_illegal(self, action: Action, card: Card) -> str:
        if card.kind is not MID:
            return f"{card} has a single side: write a cap such as {action.snake + 1}{action.end}"
        if action.side not in (card.a, card.b):
            return f"{card} has no {action.side} side"
        if action.kind is _JOIN and action.side2 not in (card.a, card.b):
            return f"{card} has no {action.side2} side"
        if action.kind is _JOIN:
            s, u = self.table[action.snake], self.table[action.snake2]
            if s.has_head and u.has_head:
                return "the joined snake would have two heads"
            if s.has_tail and u.has_tail:
                return "the joined snake would have two tails"
        return "the colours do not match"


def _mid_placements(table: tuple[Snake, ...], card: Card, out: list[Action]) -> None:
    """The extends and joins of the mid-section ``card`` onto ``table``, added to ``out`` in the
    order :meth:`State.legal_actions` gives."""
    x = card.a
    y = card.b
    ext_x = EXTENDS[x]  # type: ignore[index]
    ext_y = EXTENDS[y]  # type: ignore[index]
    ends_x: list[tuple[int, End, Snake]] = []
    ends_y: list[tuple[int, End, Snake]] = []
    for i, s in enumerate(table):
        path = s.path
        # A closed end (None) is none of the colours: it adds nothing.
        c = path[0]
        if c is x:
            out.append(ext_x[i][0])
            ends_x.append((i, _L, s))
        elif c is y:
            out.append(ext_y[i][0])
            ends_y.append((i, _L, s))
        elif c is WILD:
            out.append(ext_x[i][0])
            out.append(ext_y[i][0])
            ends_x.append((i, _L, s))
            ends_y.append((i, _L, s))
        c = path[-1]
        if c is x:
            out.append(ext_x[i][1])
            ends_x.append((i, _R, s))
        elif c is y:
            out.append(ext_y[i][1])
            ends_y.append((i, _R, s))
        elif c is WILD:
            out.append(ext_x[i][1])
            out.append(ext_y[i][1])
            ends_x.append((i, _R, s))
            ends_y.append((i, _R, s))
    if ends_x and ends_y:
        for i, e, s in ends_x:
            h = s.cards[0].kind is HEAD
            t = s.cards[-1].kind is TAIL
            for j, f, u in ends_y:
                if (
                    i != j
                    and not (h and u.cards[0].kind is HEAD)
                    and not (t and u.cards[-1].kind is TAIL)
                ):
                    out.append(join(i, e, x, j, f, y))  # type: ignore[arg-type]


def deal(deck: Deck, rng: random.Random) -> list[Card]:
    """The deck's cards in a random order from ``rng``: the starter first, then each draw."""
    cards = deck.cards()
    rng.shuffle(cards)
    return cards
