"""Snakes: rows of cards on the table or in a pit, and their notation.

A snake is stored as its cards from its left end to its right end and its *path*: the colours
where the cards touch, with the colours of the two ends at either side. ``path[i]`` is the colour
on the left of ``cards[i]`` and ``path[i + 1]`` the colour on its right; ``None`` marks an end
closed by a head or tail, and ``WILD`` the open neck of a lone wild head or tail. The path says
which way round every mid-section lies, even next to a wild neck.

A head always sits at the left end and a tail at the right end (the engine turns a snake round
when needed), so a snake with a head is open only on the right and one with a tail only on the left.

>>> s = parse_snake("H:red M:red-orange M:orange-yellow")
>>> s.right, s.has_head, s.has_tail, s.length
(<Colour.YELLOW: 'yellow'>, True, False, 3)
>>> str(parse_snake("M:orange-red")), str(parse_snake("M:orange-red").reversed())
('M:orange-red', 'M:red-orange')
"""

from __future__ import annotations

from typing import NamedTuple

from hisss.core.cards import HEAD, MID, TAIL, WILD, Card, Colour, Wild, parse_card
from hisss.core.errors import NotationError, SnakeError

#: A mid-section's notation as it lies, by its left and right colours (written for every state a
#: server sends).
_MID_LAID: dict[tuple[Colour, Colour], str] = {
    (left, right): f"M:{left}-{right}" for left in Colour for right in Colour if left is not right
}

#: The colour of one end of a snake: a colour, ``WILD`` (a lone wild neck) or ``None`` (closed).
EndColour = Colour | Wild | None


class Snake(NamedTuple):
    """A row of cards; see the module docstring for ``path``. Immutable and cheap to build."""

    cards: tuple[Card, ...]
    path: tuple[EndColour, ...]

    @property
    def length(self) -> int:
        """The number of cards."""
        return len(self.cards)

    @property
    def left(self) -> EndColour:
        """The colour of the left end (``None`` when a head closes it)."""
        return self.path[0]

    @property
    def right(self) -> EndColour:
        """The colour of the right end (``None`` when a tail closes it)."""
        return self.path[-1]

    @property
    def has_head(self) -> bool:
        """True when the snake has a head."""
        return self.cards[0].kind is HEAD

    @property
    def has_tail(self) -> bool:
        """True when the snake has a tail."""
        return self.cards[-1].kind is TAIL

    @property
    def mid_count(self) -> int:
        """The number of mid-sections."""
        return sum(1 for c in self.cards if c.kind is MID)

    @property
    def is_complete(self) -> bool:
        """True with a head, a tail and at least one mid-section."""
        return self.has_head and self.has_tail and len(self.cards) >= 3

    def reversed(self) -> Snake:
        """The same snake read from the other end."""
        return Snake(self.cards[::-1], self.path[::-1])

    def placed(self) -> list[str]:
        """Each card's notation as it lies, mid-sections written left colour first."""
        out = []
        for i, card in enumerate(self.cards):
            if card.kind is MID:
                left = self.path[i]
                if not isinstance(left, Colour) or left not in (card.a, card.b):
                    right = self.path[i + 1]
                    assert isinstance(right, Colour)
                    left = card.other(right)
                out.append(_MID_LAID[left, card.other(left)])
            else:
                out.append(str(card))
        return out

    def __str__(self) -> str:
        return " ".join(self.placed())

    def __repr__(self) -> str:
        return f"Snake({str(self)!r})"


def lone(card: Card) -> Snake:
    """A snake of one card, as it lies when placed alone (a head opens right, a tail left)."""
    if card.kind is MID:
        return Snake((card,), (card.a, card.b))
    neck: EndColour = WILD if card.a is None else card.a
    if card.kind is HEAD:
        return Snake((card,), (None, neck))
    return Snake((card,), (neck, None))


def parse_snake(text: str) -> Snake:
    """Parse a snake written left to right, mid-sections in the order they lie.

    The text must describe a valid snake: touching colours equal, at most one head (at the left)
    and one tail (at the right), and a mid-section between them.
    """
    words = text.split()
    if not words:
        raise NotationError("an empty snake")
    try:
        cards = [parse_card(w) for w in words]
    except NotationError as exc:
        raise NotationError(f"bad snake {text!r}: {exc}") from None
    if len(cards) == 1 and cards[0].kind is not MID:
        return lone(cards[0])
    path: list[EndColour] = []
    for i, (word, card) in enumerate(zip(words, cards, strict=True)):
        if card.kind is MID:
            left, right = _sides(word)
            if i == 0:
                path.append(left)
            elif path[-1] is not left:
                raise NotationError(
                    f"bad snake {text!r}: card {i + 1} ({word}) does not touch {path[-1]} "
                    "with a matching colour"
                )
            path.append(right)
        elif card.kind is HEAD:
            if i != 0:
                raise NotationError(f"bad snake {text!r}: a head must be at the left end")
            path.append(None)
            path.append(_neck(text, words, cards))
        else:
            _check_tail(text, i, word, cards, path)
            path.append(None)
    return Snake(tuple(cards), tuple(path))


def _sides(word: str) -> tuple[Colour, Colour]:
    """The left and right colours of a mid-section as written (``M:red-orange``), in that order
    (the card itself keeps its colours in card order)."""
    left_name, _, right_name = word.partition(":")[2].partition("-")
    return Colour(left_name.strip().lower()), Colour(right_name.strip().lower())


def _neck(text: str, words: list[str], cards: list[Card]) -> Colour:
    """The colour at the neck of the head that starts a snake: its own, or for a wild head the
    touching side of the mid-section after it."""
    head = cards[0]
    if head.a is not None:
        return head.a
    if cards[1].kind is not MID:
        raise NotationError(f"bad snake {text!r}: a head must touch a mid-section")
    return _sides(words[1])[0]


def _check_tail(text: str, i: int, word: str, cards: list[Card], path: list[EndColour]) -> None:
    """Card ``i`` of a snake (``word`` as written), a tail, ends it after a mid-section of its
    colour."""
    card = cards[i]
    if i != len(cards) - 1:
        raise NotationError(f"bad snake {text!r}: a tail must be at the right end")
    if cards[i - 1].kind is not MID:
        raise NotationError(f"bad snake {text!r}: a tail must touch a mid-section")
    if card.a is not None and path[-1] is not card.a:
        raise NotationError(f"bad snake {text!r}: the tail ({word}) does not match {path[-1]}")


def check_snake(snake: Snake) -> None:
    """Raise :class:`~hisss.core.errors.SnakeError` unless ``snake`` is well formed (every card
    lies with matching colours, a head only at the left end, a tail only at the right); used by
    the property tests. It raises rather than asserts, so it checks under ``python -O`` too.

    >>> check_snake(parse_snake("H:red M:red-orange T:orange"))
    >>> check_snake(Snake((parse_card("H:red"), parse_card("T:red")), (None, Colour.RED, None)))
    Traceback (most recent call last):
    ...
    hisss.core.errors.SnakeError: malformed snake H:red T:red: head and tail touch
    """
    cards, path = snake.cards, snake.path

    def require(condition: bool, reason: str) -> None:
        if not condition:
            raise SnakeError(f"malformed snake {' '.join(str(c) for c in cards)}: {reason}")

    require(len(cards) >= 1 and len(path) == len(cards) + 1, "path length")
    heads = [i for i, c in enumerate(cards) if c.kind is HEAD]
    tails = [i for i, c in enumerate(cards) if c.kind is TAIL]
    require(not (heads and tails and len(cards) == 2), "head and tail touch")
    require(heads in ([], [0]), "a head must be alone at the left end")
    require(tails in ([], [len(cards) - 1]), "a tail must be alone at the right end")
    for i, card in enumerate(cards):
        left, right = path[i], path[i + 1]
        if card.kind is MID:
            require({left, right} == {card.a, card.b}, f"card {i + 1} lies with wrong colours")
        elif card.kind is HEAD:
            require(left is None, "a head closes the left end")
            if len(cards) == 1:
                require(right is (WILD if card.a is None else card.a), "lone head neck")
            else:
                require(isinstance(right, Colour), "head touches a colour")
                require(card.a is None or right is card.a, "head colour matches")
        else:
            require(right is None, "a tail closes the right end")
            if len(cards) == 1:
                require(left is (WILD if card.a is None else card.a), "lone tail neck")
            else:
                require(isinstance(left, Colour), "tail touches a colour")
                require(card.a is None or left is card.a, "tail colour matches")
