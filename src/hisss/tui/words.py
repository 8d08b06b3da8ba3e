"""What the terminal game says: the seats' names (and which one is "you"), placements in the
list of choices and in the move log, the "Hisss!" words, and the game's rules and deck by name.

Every word comes from the game's catalog. A seat named as the catalog's default person ("You",
"Ty", in any language) is spoken to: "Hisss! You take a snake", "Zabierasz węża".

>>> from hisss.core import Rules
>>> from hisss.i18n import get_catalog
>>> from hisss.record import Seat
>>> names = SeatNames.of([Seat.person("Ty"), Seat.bot("bot:easy", "easy")], get_catalog("en"))
>>> names.names, names.you
(('You', 'Bot (easy)'), 0)
>>> names.banner(0, 3), names.banner(1, 1)
('Hisss! You take a snake of 3 cards', 'Hisss! Bot (easy) takes a snake of 1 card')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hisss.core import Action, ActionKind, CardKind, End, Placement, Snake, State
from hisss.i18n import LANGUAGES, Catalog, get_catalog
from hisss.record import Seat


def is_you(name: str) -> bool:
    """True when ``name`` is the default person's name of some language ("You", "Ty")."""
    key = name.casefold()
    defaults = (get_catalog(lang).text("seat.default_person") for lang in LANGUAGES)
    return any(default.casefold() == key for default in defaults)


@dataclass(frozen=True)
class SeatNames:
    """The names the game shows for its seats, and the seat spoken to as "you" (if any)."""

    catalog: Catalog
    names: tuple[str, ...]
    you: int | None

    @classmethod
    def of(cls, seats: Sequence[Seat], catalog: Catalog) -> SeatNames:
        """People by name (the first one named "You" or "Ty" as this language says it), bots by
        level, numbered when the table has more than one bot."""
        bots = [i for i, seat in enumerate(seats) if seat.is_bot]
        names: list[str] = []
        you: int | None = None
        for i, seat in enumerate(seats):
            if not seat.is_bot:
                if you is None and is_you(seat.name):
                    you = i
                    names.append(catalog.text("seat.default_person"))
                else:
                    names.append(seat.name)
                continue
            level = catalog.text(f"level.{seat.level}")
            if len(bots) > 1:
                number = bots.index(i) + 1
                names.append(catalog.text("seat.bot_numbered", number=number, level=level))
            else:
                names.append(catalog.text("seat.bot", level=level))
        return cls(catalog, tuple(names), you)

    def __getitem__(self, seat: int) -> str:
        return self.names[seat]

    def key(self, key: str, seat: int) -> str:
        """The message ``key``, or its form that speaks to the seat when it is "you"."""
        return f"{key}.you" if seat == self.you else key

    def banner(self, seat: int, length: int) -> str:
        """The words of "Hisss!": who takes a snake of ``length`` cards."""
        key = self.key("banner.hisss", seat)
        return self.catalog.plural(key, length, name=self.names[seat])

    def undone(self, seat: int) -> str:
        """The message after a move of ``seat`` was taken back."""
        return self.catalog.text(self.key("undo.done", seat), name=self.names[seat])


def describe_action(catalog: Catalog, action: Action) -> str:
    """A placement as the list of choices offers it, such as "snake 2, right end (orange side)"
    (the snakes as they lie before the card goes down)."""
    if action.kind is ActionKind.NEW:
        return catalog.text("action.new")
    assert action.end is not None
    if action.kind is ActionKind.EXTEND:
        return catalog.text(
            f"action.extend.{action.end.value}",
            snake=action.snake + 1,
            side=catalog.colour_side(action.side),
        )
    if action.kind is ActionKind.CAP:
        return catalog.text(f"action.cap.{action.end.value}", snake=action.snake + 1)
    assert action.end2 is not None
    return catalog.text(
        "action.join",
        snake=action.snake + 1,
        end=catalog.text(f"end.short.{action.end.value}"),
        snake2=action.snake2 + 1,
        end2=catalog.text(f"end.short.{action.end2.value}"),
    )


def where_placed(placement: Placement, table: Sequence[Snake]) -> tuple[int, End | None] | None:
    """Where the card of ``placement`` lies on ``table``, the table just after it: the snake's
    index and the end it is at (``None`` for the card that joined two snakes), or ``None`` when
    the snake it went into was claimed and left the table.

    The engine turns a snake round so that a head lies at its left end and a tail at its right
    (see :mod:`hisss.core.snake`), and a join leaves the joined snake where the first of the two
    was: so a head capped on the right of a snake is seen on its left.
    """
    action = placement.action
    if placement.claimed is not None:
        return None
    if action.kind is ActionKind.NEW:
        return len(table) - 1, End.L
    if action.kind is ActionKind.JOIN:
        return min(action.snake, action.snake2), None
    if action.kind is ActionKind.CAP:
        return action.snake, End.L if placement.card.kind is CardKind.HEAD else End.R
    assert action.end is not None
    return action.snake, action.end


def describe_placement(catalog: Catalog, placement: Placement, table: Sequence[Snake]) -> str:
    """Where the card went, worded as the board shows it just after (``table``): "snake 1, right
    end", "new snake 4", "joins snakes 1 and 3 into snake 1", "completes snake 2"."""
    action = placement.action
    where = where_placed(placement, table)
    if where is None:
        if action.kind is ActionKind.JOIN:
            return catalog.text("log.join_claim", snake=action.snake + 1, snake2=action.snake2 + 1)
        return catalog.text("log.claim", snake=action.snake + 1)
    snake, end = where
    if action.kind is ActionKind.NEW:
        return catalog.text("log.new", snake=snake + 1)
    if end is None:
        return catalog.text(
            "log.join", snake=action.snake + 1, snake2=action.snake2 + 1, result=snake + 1
        )
    return catalog.text(f"log.end.{end.value}", snake=snake + 1)


def setup_names(catalog: Catalog, state: State) -> tuple[str, str]:
    """The rules and the deck of a game as the game names them: a preset or "custom" (with the
    size of the hands in the hand variant), a built-in deck in the catalog's words, any other deck
    by the name its file gives."""
    hands = state.rules.hand_size
    preset = state.rules.without_variant().preset
    rules = catalog.text(f"rules.short.{preset}" if preset else "rules.custom")
    if hands:
        key = "rules.hands_up" if state.rules.hands_seen_by_all else "rules.hands"
        rules = catalog.plural(key, hands, rules=rules)
    deck = state.deck.name
    key = f"deck.short.{deck}"
    return rules, catalog.text(key) if catalog.has(key) else deck


__all__ = [
    "SeatNames",
    "describe_action",
    "describe_placement",
    "is_you",
    "setup_names",
    "where_placed",
]
