"""Colours and cards, and their notation.

The six colours sit on a wheel: red, orange, yellow, green, blue, purple, then back to red.
A card is a head (``H``), a tail (``T``) or a mid-section (``M``). A head or tail has one colour or
is wild (the rainbow head and tail); a mid-section has two different colours, one at each end, and
may be turned either way round, so ``M:red-orange`` and ``M:orange-red`` are the same card.

>>> parse_card("M:orange-red")
Card.parse('M:red-orange')
>>> str(parse_card("H:wild"))
'H:wild'
>>> parse_card("M:red-orange").colours
(<Colour.RED: 'red'>, <Colour.ORANGE: 'orange'>)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from hisss.core.errors import NotationError


class Colour(Enum):
    """One of the six colours of the wheel; the value is the notation."""

    # Members are singletons compared by identity: an identity hash is exact and much faster
    # than the default, which hashes the name in Python on every dictionary look-up.
    __hash__ = object.__hash__

    RED = "red"
    ORANGE = "orange"
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"
    PURPLE = "purple"

    @property
    def index(self) -> int:
        """Position on the wheel, 0 (red) to 5 (purple)."""
        return _COLOUR_INDEX[self]

    def __str__(self) -> str:
        return self.value


WHEEL: tuple[Colour, ...] = tuple(Colour)
_COLOUR_INDEX = {c: i for i, c in enumerate(WHEEL)}


class Wild(Enum):
    """The rainbow colour of a wild head or tail: its neck matches any colour."""

    # Members are singletons compared by identity: an identity hash is exact and much faster
    # than the default, which hashes the name in Python on every dictionary look-up.
    __hash__ = object.__hash__

    WILD = "wild"

    def __str__(self) -> str:
        return self.value


WILD = Wild.WILD


class CardKind(Enum):
    """What a card is; the value is the letter of the notation."""

    # Members are singletons compared by identity: an identity hash is exact and much faster
    # than the default, which hashes the name in Python on every dictionary look-up.
    __hash__ = object.__hash__

    HEAD = "H"
    TAIL = "T"
    MID = "M"

    def __str__(self) -> str:
        return self.value


HEAD = CardKind.HEAD
TAIL = CardKind.TAIL
MID = CardKind.MID


def are_neighbours(x: Colour, y: Colour) -> bool:
    """True when two colours sit next to each other on the wheel."""
    return (x.index - y.index) % 6 in (1, 5)


def canonical_pair(x: Colour, y: Colour) -> tuple[Colour, Colour]:
    """The written order of a mid-section's colours: along the wheel for neighbours, else by index.

    >>> [str(c) for c in canonical_pair(Colour.RED, Colour.PURPLE)]
    ['purple', 'red']
    >>> [str(c) for c in canonical_pair(Colour.BLUE, Colour.RED)]
    ['red', 'blue']
    """
    i, j = x.index, y.index
    if (j - i) % 6 == 1:
        return x, y
    if (i - j) % 6 == 1:
        return y, x
    return (x, y) if i < j else (y, x)


@dataclass(frozen=True, slots=True)
class Card:
    """A card. ``a`` is the colour of a head or tail (``None`` when wild), or a mid-section's first
    colour in written order; ``b`` is a mid-section's second colour and ``None`` otherwise.

    Build cards with :meth:`head`, :meth:`tail`, :meth:`mid` or :func:`parse_card`.
    ``code`` is a small dense number (0 to 28) used to index per-card tables.
    """

    kind: CardKind
    a: Colour | None
    b: Colour | None = None
    code: int = field(init=False, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        if self.kind is MID:
            if self.a is None or self.b is None:
                raise NotationError("a mid-section needs two colours")
            if self.a is self.b:
                raise NotationError(
                    f"a mid-section needs two different colours, not {self.a} twice"
                )
            if canonical_pair(self.a, self.b) != (self.a, self.b):
                raise NotationError(
                    f"mid-section colours go in written order: use Card.mid({self.a}, {self.b})"
                )
        elif self.b is not None:
            raise NotationError(f"a {self.kind.name.lower()} has one colour")
        object.__setattr__(self, "code", _code(self.kind, self.a, self.b))

    @classmethod
    def head(cls, colour: Colour | None) -> Card:
        """A head of one colour, or the wild head when ``colour`` is ``None``."""
        return _INTERNED[_code(HEAD, colour, None)]

    @classmethod
    def tail(cls, colour: Colour | None) -> Card:
        """A tail of one colour, or the wild tail when ``colour`` is ``None``."""
        return _INTERNED[_code(TAIL, colour, None)]

    @classmethod
    def mid(cls, x: Colour, y: Colour) -> Card:
        """The mid-section with colours ``x`` and ``y``, in either order."""
        if x is y:
            raise NotationError(f"a mid-section needs two different colours, not {x} twice")
        a, b = canonical_pair(x, y)
        return _INTERNED[_code(MID, a, b)]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse the notation of a card; see :func:`parse_card`."""
        return parse_card(text)

    @property
    def is_wild(self) -> bool:
        """True for the rainbow head and tail."""
        return self.kind is not MID and self.a is None

    @property
    def colours(self) -> tuple[Colour, ...]:
        """The card's colours: two for a mid-section, one for a plain head or tail, none if wild."""
        if self.kind is MID:
            return (self.a, self.b)  # type: ignore[return-value]
        return () if self.a is None else (self.a,)

    def other(self, side: Colour) -> Colour:
        """The colour at the other end of a mid-section from ``side``."""
        if self.kind is not MID or side not in (self.a, self.b):
            raise ValueError(f"{self} has no side {side}")
        return self.b if side is self.a else self.a  # type: ignore[return-value]

    def __str__(self) -> str:
        # Written once per card (_TEXTS): cards are written for every state a server sends.
        return _TEXTS[self.code]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


def _code(kind: CardKind, a: Colour | None, b: Colour | None) -> int:
    if kind is MID:
        assert a is not None and b is not None
        return _MID_CODE[(a, b)]
    base = 0 if kind is HEAD else 7
    return base + (6 if a is None else a.index)


_MID_PAIRS: list[tuple[Colour, Colour]] = []
for _i in range(6):
    for _j in range(_i + 1, 6):
        _MID_PAIRS.append(canonical_pair(WHEEL[_i], WHEEL[_j]))
_MID_CODE = {pair: 14 + k for k, pair in enumerate(_MID_PAIRS)}

#: Number of distinct cards: 6 heads, wild head, 6 tails, wild tail, 15 mid-sections.
CARD_KINDS = 29

_INTERNED: list[Card] = [None] * CARD_KINDS  # type: ignore[list-item]
for _c in [*WHEEL, None]:
    _h = Card(HEAD, _c)
    _INTERNED[_h.code] = _h
    _t = Card(TAIL, _c)
    _INTERNED[_t.code] = _t
for _a, _b in _MID_PAIRS:
    _m = Card(MID, _a, _b)
    _INTERNED[_m.code] = _m

#: Every distinct card, in code order: heads, wild head, tails, wild tail, mid-sections.
ALL_CARDS: tuple[Card, ...] = tuple(_INTERNED)


def _notation(card: Card) -> str:
    if card.kind is MID:
        return f"M:{card.a}-{card.b}"
    return f"{card.kind}:{'wild' if card.a is None else card.a}"


#: The notation of each card, by code.
_TEXTS: tuple[str, ...] = tuple(_notation(card) for card in ALL_CARDS)


def card_from_code(code: int) -> Card:
    """The card with a given ``code``."""
    return _INTERNED[code]


_COLOUR_BY_NAME = {c.value: c for c in WHEEL}


def parse_colour(text: str) -> Colour:
    """Parse a colour name (``red``, ``orange``, ``yellow``, ``green``, ``blue``, ``purple``)."""
    try:
        return _COLOUR_BY_NAME[text.strip().lower()]
    except KeyError:
        names = ", ".join(_COLOUR_BY_NAME)
        raise NotationError(f"unknown colour {text!r} (expected one of {names})") from None


def parse_card(text: str) -> Card:
    """Parse a card: ``H:red``, ``T:blue``, ``M:red-orange`` (either order), ``H:wild``, ``T:wild``.

    >>> parse_card("T:wild").is_wild
    True
    >>> parse_card("M:red-red")
    Traceback (most recent call last):
    ...
    hisss.core.errors.NotationError: bad card 'M:red-red': a mid-section needs two different colours
    """
    if not isinstance(text, str):
        raise NotationError(f"a card must be text, not {type(text).__name__}")
    cleaned = text.strip()
    letter, sep, rest = cleaned.partition(":")
    if not sep:
        raise NotationError(f"bad card {text!r}: expected H:colour, T:colour or M:colour-colour")
    letter = letter.upper()
    rest = rest.strip().lower()
    if letter in ("H", "T"):
        kind = HEAD if letter == "H" else TAIL
        if rest == "wild":
            return Card.head(None) if kind is HEAD else Card.tail(None)
        try:
            colour = parse_colour(rest)
        except NotationError as exc:
            raise NotationError(f"bad card {text!r}: {exc}") from None
        return Card.head(colour) if kind is HEAD else Card.tail(colour)
    if letter == "M":
        left, dash, right = rest.partition("-")
        if not dash:
            raise NotationError(f"bad card {text!r}: a mid-section is written M:colour-colour")
        try:
            x, y = parse_colour(left), parse_colour(right)
        except NotationError as exc:
            raise NotationError(f"bad card {text!r}: {exc}") from None
        if x is y:
            raise NotationError(f"bad card {text!r}: a mid-section needs two different colours")
        return Card.mid(x, y)
    raise NotationError(f"bad card {text!r}: the kind must be H, T or M")
