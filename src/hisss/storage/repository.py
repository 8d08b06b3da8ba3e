"""The repository: every read and write of games, logs and replays goes through :class:`Store`.

A write is one transaction, committed before the method returns, so a caller that acknowledges
an action after :meth:`Store.append` returns never acknowledges something the database could
lose. :meth:`Store.append` adds the next entry of a game's log only if the game's version is the
one before it (and the ``(game_id, seq)`` unique constraint backs that up), so two writers racing
for the same step cannot both win: the loser gets :class:`SequenceConflictError` and must reload.

Rows come back as the frozen values of :mod:`hisss.storage.values` (:class:`StoredGame`, ...),
never as live ORM objects, so nothing is loaded lazily behind the caller's back. Token hashes are
kept out of their ``repr``, and statement parameters out of logs and error messages.
"""

from __future__ import annotations

import asyncio
import secrets
import uuid
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import (
    Table,
    func,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session

from hisss.record import Seat, SeatKind
from hisss.storage.appending import (
    failure_reason,
    plan_append,
    rowcount,
    utc_now,
)
from hisss.storage.database import display_url
from hisss.storage.models import ActionRow, GameRow, MetaRow, ReplayRow, SeatRow
from hisss.storage.runners import AsyncRunner, Runner, ThreadRunner
from hisss.storage.schema import migrate
from hisss.storage.values import (
    EntryKind,
    GameStatus,
    LogEntry,
    NewGame,
    SeatChange,
    SeatTakenError,
    SequenceConflictError,
    StorageError,
    StoredGame,
    StoredReplay,
)

_T = TypeVar("_T")

_GAMES: Table = GameRow.__table__  # type: ignore[assignment]
_SEATS: Table = SeatRow.__table__  # type: ignore[assignment]
_ACTIONS: Table = ActionRow.__table__  # type: ignore[assignment]

#: Letters of the short public game codes: no 0/O, 1/I/L to misread.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: Seconds any wait on the database may last before the call fails (see :meth:`Store.open`).
DEFAULT_TIMEOUT = 10.0


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
            Seat(s.name, SeatKind(s.kind), s.level, s.open)
            for s in sorted(seats, key=lambda s: s.seat)
        ),
        token_hashes={s.seat: s.token_hash for s in seats if s.token_hash},
        public=bool(row.public),
        pace=row.pace,
    )


def _entry(row: ActionRow) -> LogEntry:
    return LogEntry(
        row.seq,
        EntryKind(row.kind),
        row.seat,
        row.action,
        row.card,
        row.by_seat,
        _aware(row.created_at),
    )


class Store:
    """The games database. Open one with :meth:`open`; close it with :meth:`close`.

    Every method is one transaction of plain (synchronous) SQLAlchemy code over a
    :class:`~sqlalchemy.orm.Session`, run by the database's :class:`Runner`.
    """

    def __init__(self, runner: Runner, url: str) -> None:
        self._runner = runner
        self.url = url
        #: Calls that failed with :class:`StorageError` so far (the server's metrics show it).
        self.failures = 0

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self._runner.dialect

    @classmethod
    async def open(cls, url: str, timeout: float = DEFAULT_TIMEOUT) -> Store:
        """Connect to the database at ``url`` (a SQLAlchemy URL), creating the tables.

        ``timeout`` bounds, in seconds, each wait on the database: connecting, a statement, a
        free connection of the pool, a lock held by another SQLite connection. A database that
        stops answering makes calls fail with :class:`StorageError`, never hang.

        Raises :class:`StorageError` naming the database (password hidden) and the reason.
        """
        shown = display_url(url)
        try:
            runner: Runner = (
                ThreadRunner(url, timeout)
                if url.startswith("sqlite")
                else AsyncRunner(url, timeout)
            )
        except (SQLAlchemyError, ImportError, ValueError) as exc:
            raise StorageError(f"cannot use database {shown}: {failure_reason(exc)}") from None
        store = cls(runner, url)
        try:
            await runner.run(_prepare)
        except (TimeoutError, SQLAlchemyError, OSError) as exc:
            await runner.close()
            raise StorageError(f"cannot open database {shown}: {failure_reason(exc)}") from None
        except StorageError as exc:
            await runner.close()
            raise StorageError(f"database {shown} {exc}") from None
        return store

    async def close(self) -> None:
        """Close every connection; calls after this raise :class:`StorageError`. Closing
        twice does nothing."""
        await self._runner.close()

    async def _run(self, fn: Callable[..., _T], *args: Any) -> _T:
        """Run one transaction. A database failure becomes :class:`StorageError` (with the
        original as its cause); :class:`IntegrityError` is left for the caller to name."""
        return await self._answer(self._runner.run(fn, *args))

    async def _answer(self, call: Awaitable[_T]) -> _T:
        try:
            return await call
        except (IntegrityError, SequenceConflictError):  # refused, not a failure
            raise
        except StorageError:
            self.failures += 1
            raise
        except (SQLAlchemyError, OSError, TimeoutError) as exc:
            self.failures += 1
            raise StorageError(f"the database failed: {failure_reason(exc)}") from exc

    async def ping(self, timeout: float = 5.0) -> None:
        """Check that the database answers within ``timeout`` seconds; raises
        :class:`StorageError` saying why not."""
        try:
            async with asyncio.timeout(timeout):
                await self._run(_ping)
        except TimeoutError:
            self.failures += 1
            raise StorageError(f"the database does not answer within {timeout:g} s") from None
        except StorageError as exc:
            reason = failure_reason(exc.__cause__) if exc.__cause__ is not None else str(exc)
            raise StorageError(f"the database does not answer: {reason}") from None

    async def schema_version(self) -> int:
        """The schema version stored in the database."""
        return await self._run(_schema_version)

    # ------------------------------------------------------------------ games

    async def create_game(self, new: NewGame) -> StoredGame:
        """Store a new game with its seats; returns it with its id and short code."""
        for _attempt in range(8):
            game_id = uuid.uuid4().hex
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            try:
                return await self._run(_create_game, new, game_id, code)
            except IntegrityError as exc:
                if "code" not in failure_reason(exc):
                    raise StorageError(
                        f"the database refused the game: {failure_reason(exc)}"
                    ) from exc
                continue  # a code already taken: draw another
        raise StorageError("could not find a free game code after 8 tries")  # pragma: no cover

    async def get_game(self, key: str) -> StoredGame | None:
        """The game with id ``key``, or with the short code ``key`` (any case); else ``None``."""
        if not _is_key(key):
            return None
        return await self._run(_get_game, key)

    async def list_games(
        self, status: GameStatus | None = None, limit: int = 50, *, public: bool = False
    ) -> list[StoredGame]:
        """Games, the most recently changed first; only those of ``status`` if given, only
        the public ones if ``public``."""
        return await self._run(_list_games, status, limit, public)

    async def game_ids(self, status: GameStatus) -> list[str]:
        """The ids of every game of ``status``, oldest change first."""
        return await self._run(_game_ids, status)

    async def count_games(self) -> dict[str, int]:
        """The number of games of each status."""
        return await self._run(_count_games)

    async def actions(self, game_id: str, after: int = 0) -> list[LogEntry]:
        """A game's log in order: all of it, or the entries after version ``after``."""
        return await self._run(_actions, game_id, after)

    async def append(
        self,
        game_id: str,
        entry: LogEntry,
        *,
        status: GameStatus | None = None,
        result: dict[str, Any] | None = None,
        seat_change: SeatChange | None = None,
    ) -> LogEntry:
        """Append ``entry`` to the game's log and commit; returns the stored entry.

        In the same transaction the game's version becomes ``entry.seq``, and its status, result
        and a seat change are stored when given. Raises :class:`SequenceConflictError` (storing
        nothing) unless the game's version was ``entry.seq - 1`` and, for a seat change, the
        seat is as the change expects: a taken person seat handed to a bot (not one still open),
        a bot seat handed back.
        """
        write = plan_append(self._runner.sql_dialect, game_id, entry, status, result, seat_change)
        return await self._answer(self._runner.write(write))

    async def claim_seat(self, game_id: str, seat: int, name: str, token_hash: str) -> StoredGame:
        """Give the open person seat ``seat`` to a player; the game runs once no seat is open.

        Raises :class:`SeatTakenError` (changing nothing) when the seat is not open. Claims of
        several seats at once (from several processes) are serialized on the game's row, so the
        last one always sees every other seat taken and starts the game.
        """
        return await self._run(_claim_seat, game_id, seat, name, token_hash)

    # ------------------------------------------------------------------ replays

    async def add_replay(self, record: str, players: int, turns: int) -> StoredReplay:
        """Store an uploaded record's JSON text (already checked by the caller)."""
        return await self._run(_add_replay, record, players, turns)

    async def get_replay(self, replay_id: str) -> StoredReplay | None:
        """The uploaded record ``replay_id``, or ``None``."""
        if not _is_key(replay_id):
            return None
        return await self._run(_get_replay, replay_id)


# ---------------------------------------------------------------------- the transactions


def _prepare(session: Session) -> None:
    migrate(session.connection())


def _ping(session: Session) -> None:
    session.execute(select(1))


def _schema_version(session: Session) -> int:
    row = session.get(MetaRow, "schema_version")
    return int(row.value) if row is not None else 0


def _create_game(session: Session, new: NewGame, game_id: str, code: str) -> StoredGame:
    now = utc_now()
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
        public=new.public,
        pace=new.pace,
        created_at=now,
        updated_at=now,
    )
    seats = [
        SeatRow(
            game_id=game_id,
            seat=i,
            kind=s.kind.value,
            name=s.name,
            level=s.level,
            open=s.open,
            token_hash=new.token_hashes.get(i),
        )
        for i, s in enumerate(new.seats)
    ]
    session.add(row)
    session.flush()
    session.add_all(seats)
    session.flush()
    return _game(row, seats)


def _get_game(session: Session, key: str) -> StoredGame | None:
    row = session.get(GameRow, key)
    if row is None:
        found = session.execute(select(GameRow).where(GameRow.code == key.upper()))
        row = found.scalar_one_or_none()
    if row is None:
        return None
    seats = session.execute(select(SeatRow).where(SeatRow.game_id == row.id)).scalars()
    return _game(row, list(seats))


def _list_games(
    session: Session, status: GameStatus | None, limit: int, public: bool
) -> list[StoredGame]:
    query = select(GameRow).order_by(GameRow.updated_at.desc(), GameRow.id).limit(limit)
    if status is not None:
        query = query.where(GameRow.status == status.value)
    if public:
        query = query.where(GameRow.public.is_(True))
    rows = list(session.execute(query).scalars())
    if not rows:
        return []
    seats = session.execute(
        select(SeatRow).where(SeatRow.game_id.in_([r.id for r in rows]))
    ).scalars()
    by_game: dict[str, list[SeatRow]] = {}
    for seat in seats:
        by_game.setdefault(seat.game_id, []).append(seat)
    return [_game(r, by_game.get(r.id, [])) for r in rows]


def _game_ids(session: Session, status: GameStatus) -> list[str]:
    query = select(GameRow.id).where(GameRow.status == status.value)
    return [r for (r,) in session.execute(query.order_by(GameRow.updated_at))]


def _count_games(session: Session) -> dict[str, int]:
    rows = session.execute(select(GameRow.status, func.count()).group_by(GameRow.status))
    return {status: n for status, n in rows}


def _actions(session: Session, game_id: str, after: int) -> list[LogEntry]:
    rows = session.execute(
        select(ActionRow)
        .where(ActionRow.game_id == game_id, ActionRow.seq > after)
        .order_by(ActionRow.seq)
    )
    return [_entry(r) for r in rows.scalars()]


def _claim_seat(
    session: Session, game_id: str, seat: int, name: str, token_hash: str
) -> StoredGame:
    if session.get_bind().dialect.name != "sqlite":
        # Locks the game's row until the commit. (SQLite has one writer at a time, and its
        # transaction starts with the write below: a read first could not upgrade.)
        session.execute(select(GameRow.id).where(GameRow.id == game_id).with_for_update())
    taken = session.execute(
        update(SeatRow)
        .where(
            SeatRow.game_id == game_id,
            SeatRow.seat == seat,
            SeatRow.open.is_(True),
            SeatRow.kind == SeatKind.PERSON.value,
        )
        .values(open=False, name=name, token_hash=token_hash)
    )
    if rowcount(taken) != 1:
        raise SeatTakenError(f"seat {seat + 1} of game {game_id} is not open")
    still_open = session.execute(
        select(func.count())
        .select_from(SeatRow)
        .where(SeatRow.game_id == game_id, SeatRow.open.is_(True))
    )
    values: dict[str, Any] = {"updated_at": utc_now()}
    if still_open.scalar_one() == 0:
        values["status"] = GameStatus.RUNNING.value
    session.execute(
        update(GameRow)
        .where(GameRow.id == game_id, GameRow.status == GameStatus.OPEN.value)
        .values(**values)
    )
    game = _get_game(session, game_id)
    assert game is not None
    return game


def _add_replay(session: Session, record: str, players: int, turns: int) -> StoredReplay:
    row = ReplayRow(
        id=uuid.uuid4().hex, record=record, players=players, turns=turns, created_at=utc_now()
    )
    session.add(row)
    session.flush()
    return StoredReplay(row.id, row.record, row.players, row.turns, _aware(row.created_at))


def _get_replay(session: Session, replay_id: str) -> StoredReplay | None:
    row = session.get(ReplayRow, replay_id)
    if row is None:
        return None
    return StoredReplay(row.id, row.record, row.players, row.turns, _aware(row.created_at))


def _is_key(key: object) -> bool:
    """Whether ``key`` can be an id or a code: up to 64 ASCII letters and digits. Anything else
    names nothing, and is never sent to the database (PostgreSQL refuses text with a NUL)."""
    return isinstance(key, str) and 0 < len(key) <= 64 and key.isascii() and key.isalnum()
