"""Actions: where the drawn card goes, and their notation.

An action names the open ends the card touches and, for a mid-section, which of its sides touches
them. The card itself is not part of the action: it is the card just drawn. Snakes are numbered
from 1 in table order and their ends are ``L`` and ``R``:

==================  ======================================================================
``new``             the card lies alone as a new snake
``3R``              cap: the head or tail goes onto the right end of snake 3
``3R:orange``       extend: the mid-section's orange side goes onto the right end of snake 3
``3R:orange+5L:red`` join: the orange side onto snake 3's right end, the red side onto
                    snake 5's left end (the two ends are written in table order)
==================  ======================================================================

In the hand variant (``Rules.hand_size``) a player chooses which card of the hand to play, and the
action names it before an ``@``: ``M:green-yellow@1L:green``, ``H:purple@new``.

>>> str(parse_action("m:yellow-green @ 1l:green")), parse_action("H:purple@new").card
('M:yellow-green@1L:green', Card.parse('H:purple'))
>>> a = parse_action("5L:yellow+3R:orange")
>>> a.kind, a.snake, a.end, a.side.value, a.snake2, a.end2, a.side2.value
(<ActionKind.JOIN: 'join'>, 2, <End.R: 'R'>, 'orange', 4, <End.L: 'L'>, 'yellow')
>>> str(a)
'3R:orange+5L:yellow'
>>> parse_action(str(NEW)) is NEW
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from hisss.core.cards import MID, Card, Colour, parse_card, parse_colour
from hisss.core.errors import NotationError


class ActionKind(Enum):
    """The four kinds of placement."""

    NEW = "new"
    EXTEND = "extend"
    CAP = "cap"
    JOIN = "join"


class End(Enum):
    """An end of a snake as it lies: left or right."""

    # Members are singletons compared by identity: an identity hash is exact and much faster
    # than the default, which hashes the name in Python on every dictionary look-up.
    __hash__ = object.__hash__

    L = "L"
    R = "R"

    def __str__(self) -> str:
        return self.value


L = End.L
R = End.R


@dataclass(frozen=True, slots=True)
class Action:
    """A placement. ``snake`` and ``snake2`` are 0-based table positions (written from 1).

    ``card`` is the card of the hand it plays, in the hand variant; ``None`` in the classic game,
    where the card is the one just drawn.
    """

    kind: ActionKind
    snake: int = -1
    end: End | None = None
    side: Colour | None = None
    snake2: int = -1
    end2: End | None = None
    side2: Colour | None = None
    card: Card | None = None

    def __post_init__(self) -> None:
        _check_fields(self)
        # A join touches two ends; store them in table order so that each join has one spelling.
        if self.kind is ActionKind.JOIN and (self.snake2, self.end2 is End.R) < (
            self.snake,
            self.end is End.R,
        ):
            first = (self.snake, self.end, self.side)
            object.__setattr__(self, "snake", self.snake2)
            object.__setattr__(self, "end", self.end2)
            object.__setattr__(self, "side", self.side2)
            object.__setattr__(self, "snake2", first[0])
            object.__setattr__(self, "end2", first[1])
            object.__setattr__(self, "side2", first[2])

    def __str__(self) -> str:
        kind = self.kind
        hand = "" if self.card is None else f"{self.card}@"
        if kind is ActionKind.NEW:
            return f"{hand}new"
        text = f"{hand}{self.snake + 1}{self.end}"
        if kind is ActionKind.CAP:
            return text
        text = f"{text}:{self.side}"
        if kind is ActionKind.EXTEND:
            return text
        return f"{text}+{self.snake2 + 1}{self.end2}:{self.side2}"

    def play(self, card: Card) -> Action:
        """This placement playing ``card`` of the hand (the hand variant); a new value, not one
        of the move generator's shared ones. Raises :class:`NotationError` when the card cannot
        be placed so (a mid-section without the side named, a head or tail on a side)."""
        return Action(
            self.kind, self.snake, self.end, self.side, self.snake2, self.end2, self.side2, card
        )

    @property
    def where(self) -> Action:
        """The placement without the card of the hand: where the card goes, as in the classic
        game (the action itself when it names no card)."""
        if self.card is None:
            return self
        return Action(
            self.kind, self.snake, self.end, self.side, self.snake2, self.end2, self.side2
        )

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse an action; see :func:`parse_action`."""
        return parse_action(text)

    @property
    def ends(self) -> tuple[tuple[int, End], ...]:
        """The (snake position, end) pairs the card touches."""
        if self.kind is ActionKind.NEW:
            return ()
        assert self.end is not None
        if self.kind is ActionKind.JOIN:
            assert self.end2 is not None
            return ((self.snake, self.end), (self.snake2, self.end2))
        return ((self.snake, self.end),)


def _check_fields(a: Action) -> None:
    kind = a.kind
    if not isinstance(kind, ActionKind):
        raise NotationError(f"an action's kind must be an ActionKind, not {kind!r}")
    if a.card is not None:
        _check_card(a, a.card)
    if kind is ActionKind.NEW:
        if (a.snake, a.end, a.side, a.snake2, a.end2, a.side2) != (-1, None, None, -1, None, None):
            raise NotationError("a new-snake action touches no snake")
        return
    _check_first_end(a)
    if kind is not ActionKind.JOIN:
        if (a.snake2, a.end2, a.side2) != (-1, None, None):
            raise NotationError(f"only a join touches a second snake ({kind.value})")
        return
    _check_second_end(a)


def _check_card(a: Action, card: object) -> None:
    """The card an action carries fits its kind: a head or tail caps, a mid-section's sides
    extend or join."""
    if not isinstance(card, Card):
        raise NotationError(f"the card of an action is a Card, not {card!r}")
    kind = a.kind
    if kind is ActionKind.CAP and card.kind is MID:
        raise NotationError(f"{card} is a mid-section: say which side touches the end")
    if kind in (ActionKind.EXTEND, ActionKind.JOIN):
        if card.kind is not MID:
            raise NotationError(f"{card} has a single side: it caps an end, as in 1R")
        for side in (a.side, a.side2):
            if side is not None and side is not card.a and side is not card.b:
                raise NotationError(f"{card} has no {side} side")


def _check_first_end(a: Action) -> None:
    """The end an action touches, and the side that touches it (none for a cap)."""
    if isinstance(a.snake, bool) or not isinstance(a.snake, int) or a.snake < 0:
        raise NotationError(f"a snake position is a whole number from 0, not {a.snake!r}")
    if not isinstance(a.end, End):
        raise NotationError(f"an end is End.L or End.R, not {a.end!r}")
    if (a.kind is ActionKind.CAP) != (a.side is None):
        raise NotationError("a cap names no side; an extend or a join names the side that touches")
    if a.side is not None and not isinstance(a.side, Colour):
        raise NotationError(f"a side is a Colour, not {a.side!r}")


def _check_second_end(a: Action) -> None:
    """A join's second end: of another snake, touched by the mid-section's other side."""
    if a.snake2 == -1 or a.end2 is None or a.side2 is None:
        raise NotationError("a join names a second end and the side that touches it")
    if isinstance(a.snake2, bool) or not isinstance(a.snake2, int) or a.snake2 < 0:
        raise NotationError(f"a snake position is a whole number from 0, not {a.snake2!r}")
    if a.snake2 == a.snake:
        raise NotationError("a join links two different snakes")
    if not isinstance(a.end2, End) or not isinstance(a.side2, Colour):
        raise NotationError("a join names a second end and the side that touches it")
    if a.side2 is a.side:
        raise NotationError("a join uses the two different sides of a mid-section")


#: The new-snake action.
NEW = Action(ActionKind.NEW)

# Actions are interned: the move generator hands out shared objects instead of building new ones.
_cache: dict[tuple[int, End, Colour | None, int, End | None, Colour | None], Action] = {}


def _interned(
    kind: ActionKind,
    snake: int,
    end: End,
    side: Colour | None,
    snake2: int = -1,
    end2: End | None = None,
    side2: Colour | None = None,
) -> Action:
    key = (snake, end, side, snake2, end2, side2)
    action = _cache.get(key)
    if action is None:
        action = _cache[key] = Action(kind, snake, end, side, snake2, end2, side2)
    return action


def cap(snake: int, end: End) -> Action:
    """The cap of a head or tail onto an end (``snake`` is 0-based)."""
    return _interned(ActionKind.CAP, snake, end, None)


def extend(snake: int, end: End, side: Colour) -> Action:
    """A mid-section's ``side`` onto an end (``snake`` is 0-based)."""
    return _interned(ActionKind.EXTEND, snake, end, side)


#: ``EXTENDS[side][i]`` is the pair (extend onto the left end, onto the right end) of snake ``i``
#: with the mid-section's ``side``; ``CAPS[i]`` likewise for caps. Grown by :func:`reserve`, these
#: spare the move generator a function call and a dictionary look-up per action.
EXTENDS: dict[Colour, list[tuple[Action, Action]]] = {c: [] for c in Colour}
CAPS: list[tuple[Action, Action]] = []


# Actions of the hand variant, interned too: (card code, where) -> the action naming the card.
_hand_cache: dict[tuple[int, Action], Action] = {}


def with_card(action: Action, card: Card) -> Action:
    """``action`` (a placement naming no card) playing ``card`` from the hand; interned."""
    key = (card.code, action)
    out = _hand_cache.get(key)
    if out is None:
        out = _hand_cache[key] = Action(
            action.kind,
            action.snake,
            action.end,
            action.side,
            action.snake2,
            action.end2,
            action.side2,
            card,
        )
    return out


def reserve(snakes: int) -> None:
    """Make :data:`EXTENDS` and :data:`CAPS` cover table positions below ``snakes``."""
    for i in range(len(CAPS), snakes):
        CAPS.append((cap(i, End.L), cap(i, End.R)))
        for colour, row in EXTENDS.items():
            row.append((extend(i, End.L, colour), extend(i, End.R, colour)))


def join(snake: int, end: End, side: Colour, snake2: int, end2: End, side2: Colour) -> Action:
    """A mid-section's ``side`` onto one end and its ``side2`` onto an end of another snake.

    The two (end, side) pairs are stored in table order, so each join has one spelling.
    """
    if snake2 < snake:
        return _interned(ActionKind.JOIN, snake2, end2, side2, snake, end, side)
    return _interned(ActionKind.JOIN, snake, end, side, snake2, end2, side2)


reserve(16)

_ACTION_RE = re.compile(
    r"^\s*(?P<s1>\d+)(?P<e1>[LRlr])(?::(?P<side>[A-Za-z]+)"
    r"(?:\+(?P<s2>\d+)(?P<e2>[LRlr]):(?P<side2>[A-Za-z]+))?)?\s*$"
)


def parse_action(text: str) -> Action:
    """Parse the notation of an action (see the module docstring).

    >>> parse_action("2l:Blue")
    Action.parse('2L:blue')
    >>> parse_action("0R")
    Traceback (most recent call last):
    ...
    hisss.core.errors.NotationError: bad action '0R': snakes are numbered from 1
    """
    if not isinstance(text, str):
        raise NotationError(f"an action must be text, not {type(text).__name__}")
    if "@" in text:
        card_text, _, where_text = text.partition("@")
        try:
            card = parse_card(card_text)
            where = parse_action(where_text)
            if where.card is not None:
                raise NotationError("an action names one card")
            return where.play(card)
        except NotationError as exc:
            raise NotationError(f"bad action {text!r}: {exc}") from None
    if text.strip().lower() == "new":
        return NEW
    m = _ACTION_RE.match(text)
    if m is None:
        raise NotationError(
            f"bad action {text!r}: expected new, 3R, 3R:orange or 3R:orange+5L:yellow"
        )
    s1 = int(m["s1"])
    if s1 < 1 or (m["s2"] is not None and int(m["s2"]) < 1):
        raise NotationError(f"bad action {text!r}: snakes are numbered from 1")
    # Parsed actions are plain values, equal to the move generator's interned ones; they are not
    # interned themselves, so text from outside cannot grow the cache.
    end1 = End(m["e1"].upper())
    try:
        if m["side"] is None:
            return Action(ActionKind.CAP, s1 - 1, end1)
        side = parse_colour(m["side"])
        if m["s2"] is None:
            return Action(ActionKind.EXTEND, s1 - 1, end1, side)
        side2 = parse_colour(m["side2"])
        return Action(
            ActionKind.JOIN, s1 - 1, end1, side, int(m["s2"]) - 1, End(m["e2"].upper()), side2
        )
    except NotationError as exc:
        raise NotationError(f"bad action {text!r}: {exc}") from None
