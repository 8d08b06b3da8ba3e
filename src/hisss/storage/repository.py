"""The repository: every read and write of games, logs and replays goes through :class:`Store`.

A write is one transaction, committed before the method returns, so a caller that acknowledges
an action after :meth:`Store.append` returns never acknowledges something the database could
lose. :meth:`Store.append` adds the next entry of a game's log only if the game's version is the
one before it (and the ``(game_id, seq)`` unique constraint backs that up), so two writers racing
for the same step cannot both win: the loser gets :class:`SequenceConflictError` and must reload.

Rows come back as frozen dataclasses (:class:`StoredGame`, ...), never as live ORM objects, so
nothing is loaded lazily behind the caller's back. Token hashes are kept out of their ``repr``,
and statement parameters out of logs and error messages.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import event, func, select, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    async_sessionmaker,
    create_async_engine,
)

from hisss.core import HisssError
from hisss.storage.database import SCHEMA_VERSION, display_url
from hisss.storage.models import ActionRow, Base, GameRow, MetaRow, ReplayRow, SeatRow

# aiosqlite logs every statement with its parameters at DEBUG level; parameters hold token
# hashes, which never go into a log.
logging.getLogger("aiosqlite").setLevel(logging.INFO)

#: Letters of the short public game codes: no 0/O, 1/I/L to misread.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


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


@dataclass(frozen=True, slots=True)
class StoredSeat:
    """A seat as stored (``seat`` counts from 0)."""

    seat: int
    kind: str
    name: str
    level: str | None
    open: bool
    token_hash: str | None = field(default=None, repr=False)


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
    seats: tuple[StoredSeat, ...]


@dataclass(frozen=True, slots=True)
class StoredAction:
    """An entry of a game's log (``seq`` counts from 1; seats from 0)."""

    seq: int
    kind: str
    seat: int | None
    action: str | None
    card: str | None
    by_seat: int | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class StoredReplay:
    """An uploaded game record."""

    id: str
    record: str = field(repr=False)
    players: int
    turns: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class NewSeat:
    """A seat of a game to create."""

    kind: str
    name: str
    level: str | None = None
    open: bool = False
    token_hash: str | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class NewGame:
    """A game to create."""

    rules: dict[str, Any]
    deck: dict[str, Any]
    seed: int = field(repr=False)
    seats: tuple[NewSeat, ...]
    status: GameStatus
    title: str = ""


@dataclass(frozen=True, slots=True)
class NewAction:
    """A log entry to append: ``seq`` must be the game's version plus one."""

    seq: int
    kind: str
    seat: int | None = None
    action: str | None = None
    card: str | None = None
    by_seat: int | None = None


@dataclass(frozen=True, slots=True)
class SeatChange:
    """A change of a seat's player stored with a log entry (a person handed to a bot, or back);
    the seat is no longer open."""

    seat: int
    kind: str
    level: str | None
    #: Whether the seat is expected to be open (an open seat of a game waiting for players can
    #: go to a bot); the change is refused when it is not as expected.
    was_open: bool = False


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; every stored time is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _game(row: GameRow, seats: Sequence[SeatRow]) -> StoredGame:
    return StoredGame(
        id=row.id,
        code=row.code,
        status=GameStatus(row.status),
        rules=dict(row.rules),
        deck=dict(row.deck),
        seed=row.seed,
        players=row.players,
        title=row.title,
        version=row.version,
        result=dict(row.result) if row.result is not None else None,
        created_at=_aware(row.created_at),
        updated_at=_aware(row.updated_at),
        seats=tuple(
            StoredSeat(s.seat, s.kind, s.name, s.level, s.open, s.token_hash)
            for s in sorted(seats, key=lambda s: s.seat)
        ),
    )


def _action(row: ActionRow) -> StoredAction:
    return StoredAction(
        row.seq, row.kind, row.seat, row.action, row.card, row.by_seat, _aware(row.created_at)
    )


class Store:
    """The games database. Open one with :meth:`open`; close it with :meth:`close`."""

    def __init__(self, engine: AsyncEngine, url: str) -> None:
        self.engine = engine
        self.url = url
        self._sessions = async_sessionmaker(engine, expire_on_commit=False)

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.engine.dialect.name

    @classmethod
    async def open(cls, url: str) -> Store:
        """Connect to the database at ``url`` (an async SQLAlchemy URL), creating the tables.

        Raises :class:`StorageError` naming the database (password hidden) and the reason.
        """
        shown = display_url(url)
        try:
            # Statement parameters hold token hashes: never in logs or error messages.
            if url.startswith("sqlite"):
                # One connection: SQLite has one writer at a time, and writers on several
                # connections wait for each other in its busy handler, which sleeps; queueing for
                # the one connection instead cut the load test's p99 latency by more than half.
                engine = create_async_engine(
                    url,
                    connect_args={"timeout": 30},
                    hide_parameters=True,
                    pool_size=1,
                    max_overflow=0,
                )
                event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
            else:
                engine = create_async_engine(url, pool_pre_ping=True, hide_parameters=True)
        except (SQLAlchemyError, ImportError, ValueError) as exc:
            raise StorageError(f"cannot use database {shown}: {_reason(exc)}") from None
        store = cls(engine, url)
        try:
            await store._prepare()
        except (TimeoutError, SQLAlchemyError, OSError) as exc:
            await engine.dispose()
            raise StorageError(f"cannot open database {shown}: {_reason(exc)}") from None
        except StorageError:
            await engine.dispose()
            raise
        return store

    async def _prepare(self) -> None:
        async with self.engine.begin() as conn:
            await conn.run_sync(Base.metadata.create_all)
        async with self._sessions.begin() as session:
            row = await session.get(MetaRow, "schema_version")
            if row is None:
                session.add(MetaRow(key="schema_version", value=str(SCHEMA_VERSION)))
            elif not row.value.isdigit() or int(row.value) > SCHEMA_VERSION:
                raise StorageError(
                    f"database {display_url(self.url)} has schema version {row.value!r}, newer "
                    f"than this hisss reads ({SCHEMA_VERSION}); upgrade hisss"
                )

    async def close(self) -> None:
        """Close every connection."""
        await self.engine.dispose()

    async def ping(self, timeout: float = 5.0) -> None:
        """Check that the database answers within ``timeout`` seconds; raises
        :class:`StorageError` saying why not."""
        try:
            async with asyncio.timeout(timeout), self.engine.connect() as conn:
                await conn.execute(select(1))
        except (TimeoutError, SQLAlchemyError, OSError) as exc:
            raise StorageError(f"the database does not answer: {_reason(exc)}") from None

    async def schema_version(self) -> int:
        """The schema version stored in the database."""
        async with self._sessions() as session:
            row = await session.get(MetaRow, "schema_version")
            return int(row.value) if row is not None else 0

    # ------------------------------------------------------------------ games

    async def create_game(self, new: NewGame) -> StoredGame:
        """Store a new game with its seats; returns it with its id and short code."""
        for _attempt in range(8):
            now = _now()
            game_id = uuid.uuid4().hex
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            row = GameRow(
                id=game_id,
                code=code,
                status=new.status.value,
                rules=new.rules,
                deck=new.deck,
                seed=new.seed,
                players=len(new.seats),
                title=new.title,
                version=0,
                result=None,
                created_at=now,
                updated_at=now,
            )
            seats = [
                SeatRow(
                    game_id=game_id,
                    seat=i,
                    kind=s.kind,
                    name=s.name,
                    level=s.level,
                    open=s.open,
                    token_hash=s.token_hash,
                )
                for i, s in enumerate(new.seats)
            ]
            try:
                async with self._sessions.begin() as session:
                    session.add(row)
                    await session.flush()
                    session.add_all(seats)
            except IntegrityError:
                continue  # a code already taken: draw another
            return _game(row, seats)
        raise StorageError("could not find a free game code after 8 tries")  # pragma: no cover

    async def get_game(self, key: str) -> StoredGame | None:
        """The game with id ``key``, or with the short code ``key`` (any case); else ``None``."""
        if not _is_key(key):
            return None
        async with self._sessions() as session:
            row = await session.get(GameRow, key)
            if row is None:
                found = await session.execute(select(GameRow).where(GameRow.code == key.upper()))
                row = found.scalar_one_or_none()
            if row is None:
                return None
            seats = (
                await session.execute(select(SeatRow).where(SeatRow.game_id == row.id))
            ).scalars()
            return _game(row, list(seats))

    async def list_games(
        self, status: GameStatus | None = None, limit: int = 50
    ) -> list[StoredGame]:
        """Games, the most recently changed first; only those of ``status`` if given."""
        async with self._sessions() as session:
            query = select(GameRow).order_by(GameRow.updated_at.desc(), GameRow.id).limit(limit)
            if status is not None:
                query = query.where(GameRow.status == status.value)
            rows = list((await session.execute(query)).scalars())
            if not rows:
                return []
            seats = (
                await session.execute(
                    select(SeatRow).where(SeatRow.game_id.in_([r.id for r in rows]))
                )
            ).scalars()
            by_game: dict[str, list[SeatRow]] = {}
            for seat in seats:
                by_game.setdefault(seat.game_id, []).append(seat)
            return [_game(r, by_game.get(r.id, [])) for r in rows]

    async def game_ids(self, status: GameStatus) -> list[str]:
        """The ids of every game of ``status``, oldest change first."""
        async with self._sessions() as session:
            query = select(GameRow.id).where(GameRow.status == status.value)
            rows = await session.execute(query.order_by(GameRow.updated_at))
            return [r for (r,) in rows]

    async def count_games(self) -> dict[str, int]:
        """The number of games of each status."""
        async with self._sessions() as session:
            rows = await session.execute(
                select(GameRow.status, func.count()).group_by(GameRow.status)
            )
            return {status: n for status, n in rows}

    async def actions(self, game_id: str, after: int = 0) -> list[StoredAction]:
        """A game's log in order: all of it, or the entries after version ``after``."""
        async with self._sessions() as session:
            rows = await session.execute(
                select(ActionRow)
                .where(ActionRow.game_id == game_id, ActionRow.seq > after)
                .order_by(ActionRow.seq)
            )
            return [_action(r) for r in rows.scalars()]

    async def append(
        self,
        game_id: str,
        entry: NewAction,
        *,
        status: GameStatus | None = None,
        result: dict[str, Any] | None = None,
        seat_change: SeatChange | None = None,
    ) -> StoredAction:
        """Append ``entry`` to the game's log and commit; returns the stored entry.

        In the same transaction the game's version becomes ``entry.seq``, and its status, result
        and a seat change are stored when given. Raises :class:`SequenceConflictError` (storing
        nothing) unless the game's version was ``entry.seq - 1`` and, for a seat change, the
        seat is as the change expects: a taken person seat handed to a bot (not one still open),
        a bot seat handed back.
        """
        now = _now()
        values: dict[str, Any] = {"version": entry.seq, "updated_at": now}
        if status is not None:
            values["status"] = status.value
        if result is not None:
            values["result"] = result
        try:
            async with self._sessions.begin() as session:
                moved = await session.execute(
                    update(GameRow)
                    .where(GameRow.id == game_id, GameRow.version == entry.seq - 1)
                    .values(**values)
                )
                if _rowcount(moved) != 1:
                    raise SequenceConflictError(
                        f"game {game_id}: step {entry.seq} is taken or out of order"
                    )
                row = ActionRow(
                    game_id=game_id,
                    seq=entry.seq,
                    kind=entry.kind,
                    seat=entry.seat,
                    action=entry.action,
                    card=entry.card,
                    by_seat=entry.by_seat,
                    created_at=now,
                )
                session.add(row)
                if seat_change is not None:
                    # Compare-and-set: a copy of the game that is out of date (a seat was
                    # taken since, elsewhere) must not change the seat behind anyone's back.
                    expected = SeatRow.kind == ("person" if seat_change.kind == "bot" else "bot")
                    changed = await session.execute(
                        update(SeatRow)
                        .where(
                            SeatRow.game_id == game_id,
                            SeatRow.seat == seat_change.seat,
                            expected,
                            SeatRow.open.is_(seat_change.was_open),
                        )
                        .values(kind=seat_change.kind, level=seat_change.level, open=False)
                    )
                    if _rowcount(changed) != 1:
                        raise SequenceConflictError(
                            f"game {game_id}: seat {seat_change.seat + 1} changed meanwhile"
                        )
        except IntegrityError:
            raise SequenceConflictError(
                f"game {game_id}: step {entry.seq} was stored by another writer"
            ) from None
        return _action(row)

    async def claim_seat(self, game_id: str, seat: int, name: str, token_hash: str) -> StoredGame:
        """Give the open person seat ``seat`` to a player; the game runs once no seat is open.

        Raises :class:`SeatTakenError` (changing nothing) when the seat is not open. Claims of
        several seats at once (from several processes) are serialized on the game's row, so the
        last one always sees every other seat taken and starts the game.
        """
        async with self._sessions.begin() as session:
            if self.dialect != "sqlite":
                # Locks the game's row until the commit. (SQLite has one writer at a time, and
                # its transaction starts with the write below: a read first could not upgrade.)
                await session.execute(
                    select(GameRow.id).where(GameRow.id == game_id).with_for_update()
                )
            taken = await session.execute(
                update(SeatRow)
                .where(
                    SeatRow.game_id == game_id,
                    SeatRow.seat == seat,
                    SeatRow.open.is_(True),
                    SeatRow.kind == "person",
                )
                .values(open=False, name=name, token_hash=token_hash)
            )
            if _rowcount(taken) != 1:
                raise SeatTakenError(f"seat {seat + 1} of game {game_id} is not open")
            still_open = await session.execute(
                select(func.count())
                .select_from(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.open.is_(True))
            )
            values: dict[str, Any] = {"updated_at": _now()}
            if still_open.scalar_one() == 0:
                values["status"] = GameStatus.RUNNING.value
            await session.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.status == GameStatus.OPEN.value)
                .values(**values)
            )
        game = await self.get_game(game_id)
        assert game is not None
        return game

    # ------------------------------------------------------------------ replays

    async def add_replay(self, record: str, players: int, turns: int) -> StoredReplay:
        """Store an uploaded record's JSON text (already checked by the caller)."""
        row = ReplayRow(
            id=uuid.uuid4().hex, record=record, players=players, turns=turns, created_at=_now()
        )
        async with self._sessions.begin() as session:
            session.add(row)
        return StoredReplay(row.id, row.record, row.players, row.turns, _aware(row.created_at))

    async def get_replay(self, replay_id: str) -> StoredReplay | None:
        """The uploaded record ``replay_id``, or ``None``."""
        if not _is_key(replay_id):
            return None
        async with self._sessions() as session:
            row = await session.get(ReplayRow, replay_id)
            if row is None:
                return None
            return StoredReplay(row.id, row.record, row.players, row.turns, _aware(row.created_at))


def _is_key(key: object) -> bool:
    """Whether ``key`` can be an id or a code: up to 64 ASCII letters and digits. Anything else
    names nothing, and is never sent to the database (PostgreSQL refuses text with a NUL)."""
    return isinstance(key, str) and 0 < len(key) <= 64 and key.isascii() and key.isalnum()


def _rowcount(result: object) -> int:
    count = getattr(result, "rowcount", -1)
    return int(count)


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """WAL keeps readers and the writer apart; with synchronous=FULL a committed step survives a
    power cut, not only a killed process; foreign keys are off by default in SQLite."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _reason(exc: BaseException) -> str:
    """One line on why a database call failed, without SQLAlchemy's long trailer."""
    original = getattr(exc, "orig", None)
    text = str(original if original is not None else exc) or type(exc).__name__
    return text.strip().splitlines()[0]
