"""Running a transaction: one whole :class:`~sqlalchemy.orm.Session` function per call.

:class:`ThreadRunner` serves SQLite, :class:`AsyncRunner` PostgreSQL; the repository hands either
plain synchronous SQLAlchemy code and never knows which one runs it. The hottest write, appending
a step, is planned once (:class:`~hisss.storage.appending.Write`) and stored by
:meth:`Runner.write` in a group commit (:mod:`hisss.storage.committing`), on the driver's own
connection: SQLite's cursor in its thread, asyncpg's connection on the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import Connection, Dialect, create_engine, event, make_url
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine
from sqlalchemy.orm import sessionmaker
from sqlalchemy.pool import StaticPool

from hisss.storage.appending import Write, failure_reason, write_on_cursor
from hisss.storage.committing import GroupCommit, commands, run_commands
from hisss.storage.values import LogEntry, SequenceConflictError, StorageError

_T = TypeVar("_T")

#: The most connections a PostgreSQL pool holds.
POOL_SIZE = 15

#: Seconds a pooled PostgreSQL connection may rest before it is tested again before use.
IDLE_SECONDS = 1.0

#: The key of a pooled connection's information: when it last came back to the pool.
_RETURNED = "hisss_returned"


def _returned(_dbapi_connection: Any, record: Any) -> None:
    record.info[_RETURNED] = time.monotonic()


#: A write waiting for a group commit, and its caller's future.
_Work = tuple[Write, "asyncio.Future[LogEntry]"]
#: Each write's stored entry or error.
_Results = list[tuple[Any, BaseException | None]]


class Runner:
    """Runs ``fn(session, *args)`` as one transaction, committed when ``fn`` returns and rolled
    back when it raises."""

    dialect: str
    #: SQLAlchemy's dialect, for which writes are planned.
    sql_dialect: Dialect
    closed = False

    def __init__(self, in_flight: int) -> None:
        self._group: GroupCommit[_Work] = GroupCommit(in_flight)

    async def run(self, fn: Callable[..., _T], *args: Any) -> _T:
        raise NotImplementedError

    async def write(self, write: Write) -> LogEntry:
        """Store ``write`` in the next group commit; returns its entry once that is committed.
        Raises :class:`SequenceConflictError` (storing nothing) when the step is taken or out of
        order, and :class:`StorageError` when the database fails."""
        self._check_open()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[LogEntry] = loop.create_future()
        if self._group.add((write, future)):
            # Not at once: the steps that other tasks send in the same turn of the event loop
            # (read from the same wake-up) join this commit.
            loop.call_soon(self._start)
        return await future

    def _start(self) -> None:
        """Start a transaction for every write waiting (in the event loop)."""
        batch = self._group.take()
        if not batch:
            return
        if self.closed:
            self._settle(batch, [(None, StorageError("the database is closed"))] * len(batch))
            return
        self._commit([write for write, _future in batch], batch)

    def _commit(self, writes: list[Write], batch: list[_Work]) -> None:
        """Store ``writes`` in one transaction; then :meth:`_settle` ``batch``."""
        raise NotImplementedError

    def _settle(self, batch: list[_Work], results: _Results) -> None:
        """Tell each caller of ``batch`` its result; start the next transaction if writes wait."""
        for (_write, future), (value, failure) in zip(batch, results, strict=True):
            # A caller that stopped waiting is skipped: its write ran all the same.
            _settle(future, value, failure)
        if self._group.finished():
            self._start()

    async def close(self) -> None:
        raise NotImplementedError

    def _check_open(self) -> None:
        if self.closed:
            raise StorageError("the database is closed")


class AsyncRunner(Runner):
    """PostgreSQL through asyncpg: SQLAlchemy's asyncio extension runs each transaction on a
    pooled connection, so transactions of different games run side by side."""

    def __init__(self, url: str, timeout: float) -> None:
        # A group commit on each of the pool's connections at most.
        super().__init__(in_flight=POOL_SIZE)
        self.engine = create_async_engine(
            url,
            # Up to 15 connections, each kept once made: SQLAlchemy's default of 5 kept and 10
            # more at busy moments opened and closed a connection for many steps under load.
            pool_size=POOL_SIZE,
            max_overflow=0,
            # Tested before use only after a pause (see _test_idle): under load a connection
            # comes back to the pool every few milliseconds, and testing it each time was one
            # more round trip for every step.
            pool_pre_ping=False,
            pool_timeout=timeout,
            hide_parameters=True,
            # asyncpg's own bounds: connecting, and every statement.
            connect_args={"timeout": timeout, "command_timeout": timeout},
        )
        self.sql_dialect = self.engine.dialect
        self.dialect = self.sql_dialect.name
        #: The transactions under way, kept until they end.
        self._transactions: set[asyncio.Task[None]] = set()
        self._sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        pool = self.engine.sync_engine.pool
        event.listen(pool, "checkin", _returned)
        event.listen(pool, "checkout", self._test_idle)

    def _test_idle(self, dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        """Test a pooled connection that has been idle for :data:`IDLE_SECONDS` before it is
        used (a restart of PostgreSQL meanwhile leaves it dead); a dead one is replaced by a
        new connection, as with SQLAlchemy's ``pool_pre_ping``. One used a moment ago is not
        tested: if it died since, the statement fails and the connection is dropped."""
        returned = record.info.get(_RETURNED)
        if returned is None or time.monotonic() - returned < IDLE_SECONDS:
            return
        try:
            self.engine.dialect.do_ping(dbapi_connection)
        except Exception as exc:
            raise DisconnectionError(f"a pooled connection is dead: {exc}") from exc

    async def run(self, fn: Callable[..., _T], *args: Any) -> _T:
        self._check_open()
        async with self._sessions.begin() as session:
            return await session.run_sync(fn, *args)

    def _commit(self, writes: list[Write], batch: list[_Work]) -> None:
        task = asyncio.get_running_loop().create_task(self._transaction(writes, batch))
        self._transactions.add(task)
        task.add_done_callback(self._transactions.discard)

    async def _transaction(self, writes: list[Write], batch: list[_Work]) -> None:
        try:
            results = await self._on_driver(writes)
        except BaseException as exc:  # the transaction as a whole: nothing of it is stored
            results = [(None, exc)] * len(writes)
        self._settle(batch, results)

    async def _on_driver(self, writes: list[Write]) -> _Results:
        """Run the group commit's commands on a pooled connection's asyncpg connection itself:
        no SQLAlchemy execution in a greenlet, and a lone step is one round trip. The connection
        is checked out as for any transaction (tested first after a pause: one lost with a
        restart of PostgreSQL is replaced); one that failed for any other reason than a refused
        statement is dropped."""
        import asyncpg  # type: ignore[import-untyped]  # noqa: PLC0415 - PostgreSQL only

        total = sum(len(write.statements) for write in writes)
        steps = commands(len(writes), total, autocommit=True)
        results: _Results = [(None, None)] * len(writes)
        async with self.engine.connect() as connection:
            driver: Any = (await connection.get_raw_connection()).driver_connection
            try:
                answer: BaseException | None = None
                while True:
                    try:
                        kind, what = steps.send(answer)
                    except StopIteration:
                        return results
                    answer = None
                    if kind == "sql":
                        await driver.execute(what)
                        continue
                    try:
                        results[what] = (await _write_on_asyncpg(driver, writes[what]), None)
                    except StorageError as exc:
                        results[what] = (None, exc)
                        answer = exc
            except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError) as exc:
                await connection.invalidate()
                raise StorageError(f"the database failed: {failure_reason(exc)}") from exc

    async def close(self) -> None:
        if not self.closed:
            self.closed = True
            if self._transactions:  # the group commits under way end first
                await asyncio.wait(set(self._transactions))
            await self.engine.dispose()


class ThreadRunner(Runner):
    """SQLite: one connection, used by one thread of its own, runs every transaction whole.

    SQLite has one writer at a time, so several connections would only wait for each other in
    its busy handler. Handing a whole transaction to the thread costs one wake-up of the event
    loop, where an async driver costs one per statement, each behind everything else the loop has
    to do (docs/operations.md has the figures).

    A transaction handed over runs to its end even when the caller stops waiting (a cancelled
    task): like an answer lost on the way, the caller must then reload what it holds.

    Steps are stored with group commit (:meth:`Runner.write`), one transaction at a time: a
    commit with ``synchronous=FULL`` waits for the disk, so one step a commit would cap the
    server at the disk's rate of flushes.
    """

    def __init__(self, url: str, timeout: float) -> None:
        super().__init__(in_flight=1)  # one connection, one transaction at a time
        parts = make_url(url)
        _create_private(parts.database)
        self.engine = create_engine(
            parts.set(drivername="sqlite+pysqlite"),
            # How long a write waits for another connection's lock (a backup, another program).
            connect_args={"timeout": timeout},
            hide_parameters=True,
            poolclass=StaticPool,
        )
        event.listen(self.engine, "connect", _sqlite_pragmas)
        self.sql_dialect = self.engine.dialect
        self.dialect = "sqlite"
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        #: The calls for the thread, in order; ``None`` ends it.
        self._jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name="hisss-sqlite", daemon=True)
        self._thread.start()
        #: The Core connection of the group commits, kept open in the thread between them, and
        #: the one cursor of its driver connection that every group commit uses.
        self._connection: Connection | None = None
        self._cursor: Any = None

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            job()

    def _call(self, fn: Callable[..., _T], *args: Any) -> asyncio.Future[_T]:
        """Run ``fn(*args)`` in the thread, after every call handed over before; a future of
        the running event loop for its value or error. A thread of its own with a queue, not
        an executor: an executor's future, chained to the event loop's, cost more per step
        than the step's two statements."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[_T] = loop.create_future()

        def job() -> None:
            try:
                answer: tuple[Any, BaseException | None] = (fn(*args), None)
            except BaseException as exc:  # handed to the caller, as an executor would
                answer = (None, exc)
            # A closed event loop refuses the answer: nobody waits for it any more.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_settle, future, *answer)

        self._jobs.put(job)
        return future

    def _transaction(self, fn: Callable[..., _T], args: tuple[Any, ...]) -> _T:
        with self._sessions.begin() as session:
            return fn(session, *args)

    def _kept_cursor(self) -> Any:
        # One connection kept open, with one cursor: checking a connection out of the pool for
        # every step, and making a cursor, cost more than the step's statements. It shares the
        # one SQLite connection with the sessions (the pool is static), used by this thread
        # alone, one transaction at a time.
        connection = self._connection
        if connection is None or connection.closed or connection.invalidated:
            connection = self._connection = self.engine.connect()
            driver = connection.connection.driver_connection
            assert driver is not None  # a connection just checked out of the pool
            self._cursor = driver.cursor()
        return self._cursor

    def _on_cursor(self, writes: list[Write]) -> _Results:
        """Run the group commit's commands on the kept cursor (in the thread). The transaction
        is the driver's own (``BEGIN``, ``SAVEPOINT``, ``COMMIT``), as are the writes'
        statements: SQLAlchemy's transaction bookkeeping cost as much as the statements. The
        Core connection under it is never begun, so it holds no state of its own about the
        transaction. When the transaction fails as a whole (its commit), every write gets that
        error: none of them is stored."""
        cursor = self._kept_cursor()
        dbapi = self.sql_dialect.loaded_dbapi
        total = sum(len(write.statements) for write in writes)
        try:
            return run_commands(
                commands(len(writes), total),
                cursor.execute,
                lambda i: write_on_cursor(cursor, dbapi, writes[i]),
                len(writes),
            )
        except Exception as exc:
            # A fresh connection for the next one (closing this one rolls back what it held).
            error: BaseException = exc
            if isinstance(exc, sqlite3.Error):
                error = StorageError(f"the database failed: {failure_reason(exc)}")
                error.__cause__ = exc
            self._drop_connection()
            return [(None, error)] * len(writes)

    def _drop_connection(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            self._cursor.close()
            self._cursor = None
            connection.close()

    def _dispose(self) -> None:
        self._drop_connection()
        self.engine.dispose()

    async def run(self, fn: Callable[..., _T], *args: Any) -> _T:
        self._check_open()
        return await self._call(self._transaction, fn, args)

    def _commit(self, writes: list[Write], batch: list[_Work]) -> None:
        loop = asyncio.get_running_loop()

        def job() -> None:
            try:
                results = self._on_cursor(writes)
            except BaseException as exc:  # handed to the callers, as for a single call
                results = [(None, exc)] * len(writes)
            # A closed event loop refuses the answers: nobody waits for them any more.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._settle, batch, results)

        self._jobs.put(job)

    async def close(self) -> None:
        if self.closed:
            return
        self.closed = True  # no transaction is handed over after this one
        # Queued behind every transaction already handed over, and in the connection's thread.
        await self._call(self._dispose)
        self._jobs.put(None)


async def _write_on_asyncpg(driver: Any, write: Write) -> LogEntry:
    """Run ``write``'s statements on an asyncpg connection; the stored entry."""
    import asyncpg  # noqa: PLC0415 - PostgreSQL only

    try:
        for sql, values, conflict in write.statements:
            status = await driver.execute(sql, *values)  # such as "INSERT 0 1", "UPDATE 1"
            if status.rpartition(" ")[2] != "1":
                raise SequenceConflictError(conflict)
    except asyncpg.UniqueViolationError:
        raise write.another_writer() from None
    except asyncpg.PostgresError as exc:  # this write is refused; the transaction goes on
        raise StorageError(f"the database failed: {failure_reason(exc)}") from exc
    return write.entry


def _settle(future: asyncio.Future[Any], value: Any, error: BaseException | None) -> None:
    """Give ``future`` a call's value or error, unless its caller stopped waiting."""
    if future.done():
        return
    if error is None:
        future.set_result(value)
    else:
        future.set_exception(error)


def _create_private(database: str | None) -> None:
    """Create a new SQLite file readable and writable by its owner only: it holds the seeds of
    running games. (SQLite gives its journal files the database file's permissions.)"""
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    try:
        descriptor = os.open(database, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except OSError:
        return  # it exists already, or SQLite will say why it cannot be opened
    os.close(descriptor)


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """WAL keeps readers and the writer apart; with synchronous=FULL a committed step survives a
    power cut, not only a killed process; foreign keys are off by default in SQLite."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


__all__ = ["AsyncRunner", "Runner", "ThreadRunner"]
