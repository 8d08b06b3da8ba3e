"""Actions: where the drawn card goes, and their notation.

An action names the open ends the card touches and, for a mid-section, which of its sides touches
them. The card itself is not part of the action: it is the card just drawn. Snakes are numbered
from 1 in table order and their ends are ``L`` and ``R``:

==================  ======================================================================
``new``             the card lies alone as a new snake
``3R``              cap: the head or tail goes onto the right end of snake 3
``3R:orange``       extend: the mid-section's orange side goes onto the right end of snake 3
``3R:orange+5L``    join: the orange side onto snake 3's right end, the other side onto
                    snake 5's left end
==================  ======================================================================

>>> a = parse_action("3R:orange+5L")
>>> a.kind, a.snake, a.end, a.side, a.snake2, a.end2
(<ActionKind.JOIN: 'join'>, 2, <End.R: 'R'>, <Colour.ORANGE: 'orange'>, 4, <End.L: 'L'>)
>>> str(a)
'3R:orange+5L'
>>> parse_action(str(NEW)) is NEW
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from hisss.core.cards import Colour, parse_colour
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
    """A placement. ``snake`` and ``snake2`` are 0-based table positions (written from 1)."""

    kind: ActionKind
    snake: int = -1
    end: End | None = None
    side: Colour | None = None
    snake2: int = -1
    end2: End | None = None

    def __str__(self) -> str:
        kind = self.kind
        if kind is ActionKind.NEW:
            return "new"
        text = f"{self.snake + 1}{self.end}"
        if kind is ActionKind.CAP:
            return text
        text = f"{text}:{self.side}"
        if kind is ActionKind.EXTEND:
            return text
        return f"{text}+{self.snake2 + 1}{self.end2}"

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


#: The new-snake action.
NEW = Action(ActionKind.NEW)

_cache: dict[tuple[int, End | None, Colour | None, int, End | None], Action] = {}


def _interned(
    kind: ActionKind, snake: int, end: End, side: Colour | None, snake2: int, end2: End | None
) -> Action:
    key = (snake, end, side, snake2, end2)
    action = _cache.get(key)
    if action is None:
        action = _cache[key] = Action(kind, snake, end, side, snake2, end2)
    return action


def cap(snake: int, end: End) -> Action:
    """The cap of a head or tail onto an end (``snake`` is 0-based)."""
    return _interned(ActionKind.CAP, snake, end, None, -1, None)


def extend(snake: int, end: End, side: Colour) -> Action:
    """A mid-section's ``side`` onto an end (``snake`` is 0-based)."""
    return _interned(ActionKind.EXTEND, snake, end, side, -1, None)


def join(snake: int, end: End, side: Colour, snake2: int, end2: End) -> Action:
    """A mid-section's ``side`` onto one end and its other side onto an end of another snake."""
    if snake == snake2:
        raise NotationError("a join links two different snakes")
    return _interned(ActionKind.JOIN, snake, end, side, snake2, end2)


_ACTION_RE = re.compile(
    r"^\s*(?P<s1>\d+)(?P<e1>[LRlr])(?::(?P<side>[A-Za-z]+)(?:\+(?P<s2>\d+)(?P<e2>[LRlr]))?)?\s*$"
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
    if text.strip().lower() == "new":
        return NEW
    m = _ACTION_RE.match(text)
    if m is None:
        raise NotationError(
            f"bad action {text!r}: expected new, 3R, 3R:orange or 3R:orange+5L"
        )
    s1 = int(m["s1"])
    if s1 < 1 or (m["s2"] is not None and int(m["s2"]) < 1):
        raise NotationError(f"bad action {text!r}: snakes are numbered from 1")
    end1 = End(m["e1"].upper())
    if m["side"] is None:
        return cap(s1 - 1, end1)
    try:
        side = parse_colour(m["side"])
    except NotationError as exc:
        raise NotationError(f"bad action {text!r}: {exc}") from None
    if m["s2"] is None:
        return extend(s1 - 1, end1, side)
    s2 = int(m["s2"])
    if s2 == s1:
        raise NotationError(f"bad action {text!r}: a join links two different snakes")
    return join(s1 - 1, end1, side, s2 - 1, End(m["e2"].upper()))
