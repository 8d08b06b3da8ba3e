"""Appending a step to a game's log: the hottest write of the server, kept lean.

Two Core statements, compiled once per dialect (:class:`DriverStatement`): the game moves to the
entry's version (only from the version before it), and the entry is added; on PostgreSQL they
are one statement, the entry added only if the game moved. A seat change that goes with an entry
is a compare-and-set on the seat's row. :func:`plan_append` makes them a :class:`Write`, which the
runners send to the driver itself (SQLite's cursor, asyncpg's connection) in a group commit (see
:mod:`hisss.storage.committing`): through SQLAlchemy's execution, even of statements compiled
once, they cost several times more than the statements themselves.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from datetime import UTC, datetime
from functools import cache
from typing import Any

from sqlalchemy import Dialect, Table, bindparam, insert, select, update
from sqlalchemy.sql.dml import Update, UpdateBase

from hisss.record import SeatKind
from hisss.storage.models import ActionRow, GameRow, SeatRow
from hisss.storage.values import (
    GameStatus,
    LogEntry,
    SeatChange,
    SequenceConflictError,
    StorageError,
)

_GAMES: Table = GameRow.__table__  # type: ignore[assignment]
_SEATS: Table = SeatRow.__table__  # type: ignore[assignment]
_ACTIONS: Table = ActionRow.__table__  # type: ignore[assignment]


def utc_now() -> datetime:
    """The time stored with a change: now, in UTC."""
    return datetime.now(UTC)


@cache
def _advance(status: bool, result: bool) -> Update:
    """The statement moving a game to the next version (and a new status, a result), built once:
    the step's values are bound at each call, so SQLAlchemy compiles it once too."""
    games = _GAMES.c
    values: dict[str, Any] = {"version": bindparam("p_seq"), "updated_at": bindparam("p_now")}
    if status:
        values["status"] = bindparam("p_status")
    if result:
        values["result"] = bindparam("p_result")
    return (
        update(_GAMES)
        .where(games.id == bindparam("p_game"), games.version == bindparam("p_previous"))
        .values(**values)
    )


#: The new log entry, with every column named (SQLAlchemy leaves out the columns a statement
#: does not name), so that the statement is the same for every step.
_ADD_ACTION = insert(_ACTIONS).values(
    {
        name: bindparam(name)
        for name in ("game_id", "seq", "kind", "seat", "action", "card", "by_seat", "created_at")
    }
)


class DriverStatement:
    """A Core statement compiled once for a dialect: the driver's own SQL, the names of its
    parameters in order, and SQLAlchemy's conversion of a value (a time, JSON) to what the
    driver takes where the type has one, so that the values stored are those SQLAlchemy itself
    would store.

    >>> from sqlalchemy.dialects import sqlite
    >>> statement = _driver_statement(sqlite.dialect(), _ADD_ACTION)
    >>> statement.sql.split(" (")[0], statement.names[:3]
    ('INSERT INTO actions', ('game_id', 'seq', 'kind'))
    >>> now = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
    >>> row = dict(game_id="g", seq=1, kind="draw", seat=0, action=None, card="T:red",
    ...            by_seat=None, created_at=now)
    >>> statement.values(row)
    ['g', 1, 'draw', 0, None, 'T:red', None, '2026-12-01 20:00:00.000000']
    """

    __slots__ = ("_converted", "_pick", "names", "sql")

    def __init__(self, dialect: Dialect, statement: UpdateBase) -> None:
        compiled = statement.compile(dialect=dialect)
        self.sql: str = compiled.string
        self.names: tuple[str, ...] = tuple(compiled.positiontup or ())
        self._pick = operator.itemgetter(*self.names)
        converters = (
            compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect)
            for name in self.names
        )
        #: The positions whose values are converted, and how.
        self._converted: tuple[tuple[int, Callable[[Any], Any]], ...] = tuple(
            (i, convert) for i, convert in enumerate(converters) if convert is not None
        )

    def values(self, given: dict[str, Any]) -> list[Any]:
        """The parameters in the driver's order, converted."""
        picked = self._pick(given)
        values = list(picked) if len(self.names) > 1 else [picked]
        for i, convert in self._converted:
            values[i] = convert(values[i])
        return values


_driver_statement = cache(DriverStatement)


def _append_values(
    game_id: str, entry: LogEntry, status: GameStatus | None, result: dict[str, Any] | None
) -> tuple[datetime, dict[str, Any], dict[str, Any]]:
    """The moment of an append and the values of its two statements."""
    now = utc_now()
    advance = {
        "p_game": game_id,
        "p_previous": entry.seq - 1,
        "p_seq": entry.seq,
        "p_now": now,
        "p_status": status.value if status is not None else None,
        "p_result": result,
    }
    action = {"game_id": game_id, **entry.values(), "created_at": now}
    return now, advance, action


@cache
def _advance_and_add(status: bool, result: bool) -> UpdateBase:
    """One statement for both, where the database takes a change in a ``WITH`` (PostgreSQL):
    the new entry is inserted only if the game moved to its version."""
    moved = _advance(status, result).returning(_GAMES.c.id).cte("moved")
    columns = ("seq", "kind", "seat", "action", "card", "by_seat", "created_at")
    values = (bindparam(name, type_=_ACTIONS.c[name].type) for name in columns)
    return insert(_ACTIONS).from_select(["game_id", *columns], select(moved.c.id, *values))


class Write:
    """One append, planned: its statements in the driver's own SQL with their values, each of
    which must change exactly one row (else the step is taken or out of order: ``conflict``
    says how), and the entry as it is stored. The runners run it in a group commit (see
    :mod:`hisss.storage.committing`)."""

    __slots__ = ("entry", "game_id", "statements")

    def __init__(
        self, game_id: str, statements: tuple[tuple[str, list[Any], str], ...], entry: LogEntry
    ) -> None:
        self.game_id = game_id
        self.statements = statements
        self.entry = entry

    def another_writer(self) -> SequenceConflictError:
        """The error when the database refuses the step as a duplicate (a unique key)."""
        return SequenceConflictError(
            f"game {self.game_id}: step {self.entry.seq} was stored by another writer"
        )


def plan_append(
    dialect: Dialect,
    game_id: str,
    entry: LogEntry,
    status: GameStatus | None,
    result: dict[str, Any] | None,
    seat_change: SeatChange | None,
) -> Write:
    """The statements that append ``entry`` to the game's log (see :meth:`Store.append`): the
    game moves to the entry's version (only from the one before it) and the entry is added, in
    one statement where the database can (PostgreSQL), else two; then the seat change, if any."""
    now, advance, action = _append_values(game_id, entry, status, result)
    taken = f"game {game_id}: step {entry.seq} is taken or out of order"
    flags = (status is not None, result is not None)
    statements: list[tuple[str, list[Any], str]]
    if dialect.name == "postgresql":
        both = _driver_statement(dialect, _advance_and_add(*flags))
        statements = [(both.sql, both.values({**advance, **action}), taken)]
    else:
        moving = _driver_statement(dialect, _advance(*flags))
        adding = _driver_statement(dialect, _ADD_ACTION)
        statements = [
            (moving.sql, moving.values(advance), taken),
            (adding.sql, adding.values(action), taken),
        ]
    if seat_change is not None:
        statements.append(_change_seat(dialect, game_id, seat_change))
    stored = LogEntry(
        entry.seq, entry.kind, entry.seat, entry.action, entry.card, entry.by_seat, now
    )
    return Write(game_id, tuple(statements), stored)


def write_on_cursor(cursor: Any, dbapi: Any, write: Write) -> LogEntry:
    """Run ``write``'s statements on a DB-API cursor (SQLite's), inside a transaction the caller
    holds; the stored entry. Raises :class:`SequenceConflictError` (the caller rolls back)."""
    try:
        for sql, values, conflict in write.statements:
            cursor.execute(sql, values)
            if cursor.rowcount != 1:
                raise SequenceConflictError(conflict)
    except dbapi.IntegrityError:
        raise write.another_writer() from None
    except dbapi.Error as exc:
        raise StorageError(f"the database failed: {failure_reason(exc)}") from exc
    return write.entry


#: A seat's change, a compare-and-set: a copy of the game that is out of date (a seat was
#: taken since, elsewhere) must not change the seat behind anyone's back.
_CHANGE_SEAT = (
    update(_SEATS)
    .where(
        _SEATS.c.game_id == bindparam("p_game"),
        _SEATS.c.seat == bindparam("p_seat"),
        _SEATS.c.kind == bindparam("p_was"),
        _SEATS.c.open == bindparam("p_was_open"),
    )
    .values(kind=bindparam("p_kind"), level=bindparam("p_level"), open=bindparam("p_open"))
)


def _change_seat(
    dialect: Dialect, game_id: str, seat_change: SeatChange
) -> tuple[str, list[Any], str]:
    statement = _driver_statement(dialect, _CHANGE_SEAT)
    was = SeatKind.PERSON if seat_change.kind is SeatKind.BOT else SeatKind.BOT
    values = {
        "p_game": game_id,
        "p_seat": seat_change.seat,
        "p_was": was.value,
        "p_was_open": seat_change.was_open,
        "p_kind": seat_change.kind.value,
        "p_level": seat_change.level,
        "p_open": False,
    }
    changed = f"game {game_id}: seat {seat_change.seat + 1} changed meanwhile"
    return statement.sql, statement.values(values), changed


def rowcount(result: object) -> int:
    """How many rows a statement changed (-1 when the driver does not say)."""
    count = getattr(result, "rowcount", -1)
    return int(count)


def failure_reason(exc: BaseException) -> str:
    """One line on why a database call failed, without SQLAlchemy's long trailer."""
    original = getattr(exc, "orig", None)
    text = str(original if original is not None else exc) or type(exc).__name__
    return text.strip().splitlines()[0]
