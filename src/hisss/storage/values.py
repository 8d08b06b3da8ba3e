"""What the repository stores and hands back: frozen values, never live ORM objects.

A game is stored with its seats (the one :class:`~hisss.record.Seat` type of the front ends, with
the SHA-256 of each reserved seat's secret token kept apart and out of every ``repr``) and an
append-only log of :class:`LogEntry` values, each one step of the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from hisss.core import HisssError
from hisss.record import Seat, SeatKind


class StorageError(HisssError):
    """The database cannot be opened or used, or holds something this code cannot read."""


class SequenceConflictError(StorageError):
    """Another writer stored this step of the game's log first."""


class SeatTakenError(StorageError):
    """The seat asked for is not open (taken, a bot, or no such seat)."""


class GameStatus(StrEnum):
    """Where a game is in its life."""

    #: Waiting for people to join its open seats.
    OPEN = "open"
    #: Being played.
    RUNNING = "running"
    #: Over; its result is stored.
    FINISHED = "finished"


class EntryKind(StrEnum):
    """The kinds of step in a game's log; the value is the stored spelling."""

    #: The server draws the starter: nobody's turn.
    STARTER = "starter"
    #: A seat draws (``card``: the card drawn).
    DRAW = "draw"
    #: A seat places the drawn card (``action``: the placement in notation; ``card``: the card).
    PLAY = "play"
    #: A person's seat is handed to a bot (``action``: the bot's level).
    BOT = "bot"
    #: The seat's person takes it back from the bot.
    PERSON = "person"
    #: After the end: a seat asks for a rematch (``seat``), or the rematch is made (no seat;
    #: ``action``: the new game's code).
    REMATCH = "rematch"


@dataclass(frozen=True, slots=True)
class LogEntry:
    """An entry of a game's log (``seq`` counts from 1; seats from 0). To append one, ``seq``
    must be the game's version plus one; ``created_at`` is set when it is stored."""

    seq: int
    kind: EntryKind
    seat: int | None = None
    action: str | None = None
    card: str | None = None
    by_seat: int | None = None
    created_at: datetime | None = field(default=None, compare=False)

    def values(self) -> dict[str, Any]:
        """The entry's fields as plain values (``kind`` as text), without ``created_at``: what
        a row of the log and the news of a step hold."""
        return {
            "seq": self.seq,
            "kind": self.kind.value,
            "seat": self.seat,
            "action": self.action,
            "card": self.card,
            "by_seat": self.by_seat,
        }


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game row with its seats."""

    id: str
    code: str
    status: GameStatus
    rules: dict[str, Any]
    deck: dict[str, Any]
    seed: int = field(repr=False)
    players: int
    title: str
    version: int
    result: dict[str, Any] | None
    created_at: datetime
    updated_at: datetime
    seats: tuple[Seat, ...]
    #: The SHA-256 of each reserved person seat's token, by seat (from 0).
    token_hashes: dict[int, str] = field(default_factory=dict, repr=False)
    #: Whether the lobby lists the game.
    public: bool = False
    #: How fast its bots play: ``fast``, ``normal`` or ``slow``.
    pace: str = "normal"


@dataclass(frozen=True, slots=True)
class StoredReplay:
    """An uploaded game record."""

    id: str
    record: str = field(repr=False)
    players: int
    turns: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class NewGame:
    """A game to create."""

    rules: dict[str, Any]
    deck: dict[str, Any]
    seed: int = field(repr=False)
    seats: tuple[Seat, ...]
    status: GameStatus
    title: str = ""
    #: The SHA-256 of each reserved person seat's token, by seat (from 0).
    token_hashes: dict[int, str] = field(default_factory=dict, repr=False)
    #: Whether the lobby lists the game.
    public: bool = False
    #: How fast its bots play: ``fast``, ``normal`` or ``slow``.
    pace: str = "normal"


@dataclass(frozen=True, slots=True)
class SeatChange:
    """A change of a seat's player stored with a log entry (a person handed to a bot, or back);
    the seat is no longer open."""

    seat: int
    kind: SeatKind
    level: str | None
    #: Whether the seat is expected to be open (an open seat of a game waiting for players can
    #: go to a bot); the change is refused when it is not as expected.
    was_open: bool = False


__all__ = [
    "EntryKind",
    "GameStatus",
    "LogEntry",
    "NewGame",
    "SeatChange",
    "SeatTakenError",
    "SequenceConflictError",
    "StorageError",
    "StoredGame",
    "StoredReplay",
]
