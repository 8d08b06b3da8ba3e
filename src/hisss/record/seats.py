"""Seats: who sits at the table. One type for every front end, records and storage.

A seat is a person with a name, or a bot (``kind`` ``bot``) with a level for the front ends'
bots (``easy`` ... ``expert``). The server also marks a seat ``open`` while it waits for somebody
to join. A record keeps only each seat's name.

>>> Seat.person("Ala"), Seat.bot("Bot 2 (hard)", "hard").is_bot
(Seat(name='Ala', kind=<SeatKind.PERSON: 'person'>, level=None, open=False), True)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class SeatKind(StrEnum):
    """Who plays a seat; the value is the protocol's and the database's spelling."""

    PERSON = "person"
    BOT = "bot"


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat at the table: its name, who plays it, a bot's level, and whether it is still open
    for somebody to join (a game of the server waiting for players)."""

    name: str
    kind: SeatKind = SeatKind.PERSON
    #: The level of a bot seat (a name of :data:`hisss.bots.levels.LEVEL_NAMES` in the front
    #: ends, any bot's name in simulations); ``None`` for a person.
    level: str | None = None
    open: bool = False

    @classmethod
    def person(cls, name: str, *, open: bool = False) -> Seat:
        """A person's seat."""
        return cls(name, SeatKind.PERSON, None, open)

    @classmethod
    def bot(cls, name: str, level: str) -> Seat:
        """A bot's seat."""
        return cls(name, SeatKind.BOT, level)

    @property
    def is_bot(self) -> bool:
        """True for a bot's seat."""
        return self.kind is SeatKind.BOT


__all__ = ["Seat", "SeatKind"]
