"""Decks: which cards, how many of each.

A deck is data, not code: a name and a count per distinct card. The built-in decks are
``rainbow`` (the default, 50 cards), ``all-pairs`` and ``double``; any other deck can be described
as a mapping (read from a TOML or JSON file by :mod:`hisss.record.deckfile`) and checked by
:meth:`Deck.from_mapping`, which names the offending field of a bad description.

The real list of the 36 mid-sections of the published game is not known; ``rainbow`` uses six copies
of each of the six wheel-neighbour pairs, a reconstruction.

>>> RAINBOW.size
50
>>> get_deck("all-pairs").count(Card.mid(Colour.RED, Colour.BLUE))
2
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from hisss.core.cards import (
    ALL_CARDS,
    CARD_KINDS,
    MID,
    WHEEL,
    Card,
    Colour,
    are_neighbours,
    card_from_code,
    parse_card,
)
from hisss.core.errors import DeckError, NotationError, show

#: The largest number of copies of one card a deck may hold.
MAX_COPIES = 1000
#: The largest deck.
MAX_CARDS = 10_000


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck: a name and ``counts[card.code]`` copies of each distinct card."""

    name: str
    counts: tuple[int, ...]
    description: str = ""
    #: The number of cards in the deck (the counts' sum, kept: the engine asks it every turn).
    size: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.counts) != CARD_KINDS:
            raise DeckError("cards", f"expected {CARD_KINDS} counts, got {len(self.counts)}")
        if any((not isinstance(n, int)) or n < 0 for n in self.counts):
            raise DeckError("cards", "counts must be whole numbers of zero or more")
        if sum(self.counts) == 0:
            raise DeckError("cards", "a deck needs at least one card")
        object.__setattr__(self, "size", sum(self.counts))

    @classmethod
    def from_cards(cls, name: str, cards: Iterable[Card], description: str = "") -> Deck:
        """A deck holding exactly the given cards."""
        counts = [0] * CARD_KINDS
        for card in cards:
            counts[card.code] += 1
        return cls(name, tuple(counts), description)

    @classmethod
    def from_mapping(cls, data: object, default_name: str = "custom") -> Deck:
        """Build and check a deck from a mapping such as a parsed TOML or JSON file.

        The mapping has ``name`` (text, optional), ``description`` (text, optional) and ``cards``,
        a table from card notation to a number of copies::

            name = "small"
            [cards]
            "H:red" = 1
            "T:wild" = 1
            "M:red-orange" = 4

        A bad description raises :class:`DeckError` naming the field and the reason.

        >>> Deck.from_mapping({"cards": {"H:red": 1, "M:red-orange": 2}}).size
        3
        >>> Deck.from_mapping({"cards": {"H:red": 0}})
        Traceback (most recent call last):
        ...
        hisss.core.errors.DeckError: cards."H:red": the number of copies must be at least 1, not 0
        """
        if not isinstance(data, Mapping):
            raise DeckError("", f"a deck must be a table of fields, not {show(data)}")
        known = {"name", "description", "cards"}
        for key in data:
            if key not in known:
                raise DeckError(str(key), f"unknown field (expected {', '.join(sorted(known))})")
        name = data.get("name", default_name)
        if not isinstance(name, str) or not name.strip():
            raise DeckError("name", "must be non-empty text")
        description = data.get("description", "")
        if not isinstance(description, str):
            raise DeckError("description", "must be text")
        if "cards" not in data:
            raise DeckError("cards", "missing: list the cards and their numbers of copies")
        cards = data["cards"]
        if not isinstance(cards, Mapping):
            raise DeckError(
                "cards", f"must be a table from card to number of copies, not {show(cards)}"
            )
        counts = _counts(cards)
        return cls(name.strip(), tuple(counts), description)

    def to_mapping(self) -> dict[str, object]:
        """The deck as a mapping that :meth:`from_mapping` reads back."""
        data: dict[str, object] = {"name": self.name}
        if self.description:
            data["description"] = self.description
        data["cards"] = {str(card): n for card, n in self.items()}
        return data

    def count(self, card: Card) -> int:
        """How many copies of ``card`` the deck holds."""
        return self.counts[card.code]

    def items(self) -> list[tuple[Card, int]]:
        """Each distinct card in the deck with its number of copies, in card order."""
        return [(card_from_code(code), n) for code, n in enumerate(self.counts) if n]

    def cards(self) -> list[Card]:
        """Every card of the deck, copies repeated, in card order (shuffle a copy to deal)."""
        return [card for card, n in self.items() for _ in range(n)]

    def __str__(self) -> str:
        return self.name


def _rainbow_cards() -> list[Card]:
    cards: list[Card] = []
    for colour in WHEEL:
        cards.append(Card.head(colour))
        cards.append(Card.tail(colour))
    cards.append(Card.head(None))
    cards.append(Card.tail(None))
    for i, colour in enumerate(WHEEL):
        cards.extend([Card.mid(colour, WHEEL[(i + 1) % 6])] * 6)
    return cards


def _all_pairs_cards() -> list[Card]:
    cards = [c for c in _rainbow_cards() if c.kind is not MID]
    for card in ALL_CARDS:
        if card.kind is MID:
            a, b = card.colours
            cards.extend([card] * (3 if are_neighbours(a, b) else 2))
    return cards


RAINBOW = Deck.from_cards(
    "rainbow",
    _rainbow_cards(),
    "The default 50 cards: a head and a tail of each colour, the wild head and tail, and six "
    "copies of each wheel-neighbour mid-section (a reconstruction).",
)
ALL_PAIRS = Deck.from_cards(
    "all-pairs",
    _all_pairs_cards(),
    "50 cards: heads, tails and wilds as in rainbow; the 15 colour pairs twice each and the six "
    "wheel-neighbour pairs once more (36 mid-sections).",
)
DOUBLE = Deck.from_cards(
    "double", _rainbow_cards() * 2, "Two rainbow decks shuffled together: 100 cards."
)

#: The built-in decks by name.
BUILTIN_DECKS: dict[str, Deck] = {d.name: d for d in (RAINBOW, ALL_PAIRS, DOUBLE)}


def get_deck(name: str) -> Deck:
    """A built-in deck by name (``rainbow``, ``all-pairs``, ``double``)."""
    try:
        return BUILTIN_DECKS[name.strip().lower()]
    except (KeyError, AttributeError):
        known = ", ".join(BUILTIN_DECKS)
        raise DeckError("deck", f"unknown deck {name!r} (built-in decks: {known})") from None


__all__ = ["ALL_PAIRS", "BUILTIN_DECKS", "DOUBLE", "RAINBOW", "Colour", "Deck", "get_deck"]


def _counts(cards: Mapping[object, object]) -> list[int]:
    """The copies of each card code in a deck file's table from card notation to copies;
    raises :class:`DeckError` naming the entry when the table is not a good deck."""
    counts = [0] * CARD_KINDS
    for key, value in cards.items():
        where = f'cards."{key}"'
        try:
            card = parse_card(str(key))
        except NotationError as exc:
            raise DeckError(where, f"not a card: {exc}") from None
        if isinstance(value, bool) or not isinstance(value, int):
            raise DeckError(
                where, f"the number of copies must be a whole number, not {show(value)}"
            )
        if value < 1:
            raise DeckError(where, f"the number of copies must be at least 1, not {value}")
        if value > MAX_COPIES:
            raise DeckError(where, f"at most {MAX_COPIES} copies of a card, not {value}")
        if counts[card.code]:
            raise DeckError(
                where, f"{card} is listed twice (as {show(key)} and in another spelling)"
            )
        counts[card.code] = value
    total = sum(counts)
    if total == 0:
        raise DeckError("cards", "a deck needs at least one card")
    if total > MAX_CARDS:
        raise DeckError("cards", f"at most {MAX_CARDS} cards in a deck, not {total}")
    return counts
