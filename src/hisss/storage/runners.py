"""Running a transaction: one whole :class:`~sqlalchemy.orm.Session` function per call.

:class:`ThreadRunner` serves SQLite, :class:`AsyncRunner` PostgreSQL; the repository hands either
plain synchronous SQLAlchemy code and never knows which one runs it. The hottest write, appending
a step, runs on a cursor of the driver's own connection instead (:meth:`Runner.run_core`): its
Core statements are compiled once, and the ORM session's bookkeeping cost more than they do.
On PostgreSQL it is one statement sent to asyncpg itself (:meth:`Runner.run_driver`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from sqlalchemy import Connection, create_engine, event, make_url
from sqlalchemy.exc import DBAPIError, DisconnectionError, IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine
from sqlalchemy.orm import sessionmaker
from sqlalchemy.pool import StaticPool

from hisss.storage.appending import failure_reason
from hisss.storage.values import StorageError

_T = TypeVar("_T")

#: The most connections a PostgreSQL pool holds.
POOL_SIZE = 15

#: Seconds a pooled PostgreSQL connection may rest before it is tested again before use.
IDLE_SECONDS = 1.0

#: The key of a pooled connection's information: when it last came back to the pool.
_RETURNED = "hisss_returned"


def _returned(_dbapi_connection: Any, record: Any) -> None:
    record.info[_RETURNED] = time.monotonic()


#: A call waiting for a group commit: the function, its arguments and the caller's future.
_Work = tuple[Callable[..., Any], tuple[Any, ...], "asyncio.Future[Any]"]


class Runner:
    """Runs ``fn(session, *args)`` as one transaction, committed when ``fn`` returns and rolled
    back when it raises."""

    dialect: str
    closed = False

    async def run(self, fn: Callable[..., _T], *args: Any) -> _T:
        raise NotImplementedError

    async def run_core(self, fn: Callable[..., _T], *args: Any) -> _T:
        """Run ``fn(cursor, dialect, *args)`` as one transaction, on a cursor of the driver's
        own connection: for statements compiled once (see :mod:`hisss.storage.appending`)."""
        raise NotImplementedError

    async def run_driver(self, fn: Callable[..., Awaitable[_T]], *args: Any) -> _T:
        """Await ``fn(driver_connection, dialect, *args)`` on a pooled connection of the
        database's own asyncio driver, outside any transaction: for one statement, which
        commits on its own. Only where :attr:`has_driver` says so."""
        raise NotImplementedError

    #: Whether :meth:`run_driver` is available (PostgreSQL through asyncpg).
    has_driver = False

    async def close(self) -> None:
        raise NotImplementedError

    def _check_open(self) -> None:
        if self.closed:
            raise StorageError("the database is closed")


class AsyncRunner(Runner):
    """PostgreSQL through asyncpg: SQLAlchemy's asyncio extension runs each transaction on a
    pooled connection, so transactions of different games run side by side."""

    def __init__(self, url: str, timeout: float) -> None:
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
        self.dialect = self.engine.dialect.name
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

    async def run_core(self, fn: Callable[..., _T], *args: Any) -> _T:
        self._check_open()
        async with self.engine.begin() as connection:
            return await connection.run_sync(_on_cursor, fn, args)

    has_driver = True

    async def run_driver(self, fn: Callable[..., Awaitable[_T]], *args: Any) -> _T:
        """See :meth:`Runner.run_driver`. The connection is checked out as for any transaction
        (tested first: a connection lost with a restart of PostgreSQL is replaced), but the
        statement goes to asyncpg itself: no transaction of its own (``BEGIN`` and ``COMMIT``
        are two more round trips), no SQLAlchemy execution in a greenlet. asyncpg's errors
        come back as SQLAlchemy's (a unique key violated: :class:`IntegrityError`), and a
        connection that failed for any other reason than a refused statement is dropped."""
        import asyncpg  # type: ignore[import-untyped]  # noqa: PLC0415 - PostgreSQL only

        self._check_open()
        async with self.engine.connect() as connection:
            raw = await connection.get_raw_connection()
            try:
                return await fn(raw.driver_connection, self.engine.dialect, *args)
            except asyncpg.UniqueViolationError as exc:
                raise IntegrityError(None, None, exc) from exc
            except asyncpg.PostgresError as exc:
                raise DBAPIError(None, None, exc) from exc
            except (asyncpg.InterfaceError, OSError, TimeoutError) as exc:
                await connection.invalidate()
                raise OperationalError(None, None, exc) from exc

    async def close(self) -> None:
        if not self.closed:
            self.closed = True
            await self.engine.dispose()


class ThreadRunner(Runner):
    """SQLite: one connection, used by one thread of its own, runs every transaction whole.

    SQLite has one writer at a time, so several connections would only wait for each other in
    its busy handler. Handing a whole transaction to the thread costs one wake-up of the event
    loop, where an async driver costs one per statement, each behind everything else the loop has
    to do; the load test's p99 latency fell from about 160 ms to about 10 ms.

    A transaction handed over runs to its end even when the caller stops waiting (a cancelled
    task): like an answer lost on the way, the caller must then reload what it holds.

    Steps are stored with *group commit* (:meth:`run_core`): a commit with ``synchronous=FULL``
    waits for the disk (about 4 ms here), so one at a time would cap the server at some 250 steps
    a second. The calls that arrive while a commit is under way wait for it and are then stored
    together, each in a savepoint of its own, with one commit; each caller hears of its own call
    only once that commit is done, so a step is still stored before anyone hears of it.
    """

    def __init__(self, url: str, timeout: float) -> None:
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
        self.dialect = "sqlite"
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        #: The calls for the thread, in order; ``None`` ends it.
        self._jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name="hisss-sqlite", daemon=True)
        self._thread.start()
        #: The Core connection of :meth:`run_core`, kept open in the thread between calls, and
        #: the one cursor of its driver connection that every group commit uses.
        self._connection: Connection | None = None
        self._cursor: Any = None
        #: Calls of :meth:`run_core` waiting for the group commit under way to end.
        self._waiting: list[_Work] = []
        self._committing = False

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

    def _core_batch(self, batch: list[_Work]) -> list[tuple[Any, BaseException | None]]:
        """Run every call of ``batch`` in one transaction, each in a savepoint of its own (a
        call that fails leaves no trace and does not hinder the others), and commit once; each
        call's value or error. When the transaction itself fails (its commit), every call
        gets that error: none of them is stored.

        The transaction is the driver's own (``BEGIN``, ``SAVEPOINT``, ``COMMIT``), as are the
        calls' statements: SQLAlchemy's transaction bookkeeping cost as much as the statements.
        The Core connection under it is never begun, so it holds no state of its own about the
        transaction."""
        cursor = self._kept_cursor()
        dialect = self.engine.dialect
        results: list[tuple[Any, BaseException | None]] = []
        try:
            cursor.execute("BEGIN")
            if len(batch) == 1:  # alone: the transaction itself is all or nothing
                fn, args, _future = batch[0]
                try:
                    results.append((fn(cursor, dialect, *args), None))
                except Exception as exc:
                    cursor.execute("ROLLBACK")
                    return [(None, exc)]
            else:
                for fn, args, _future in batch:
                    cursor.execute("SAVEPOINT step")
                    try:
                        value = fn(cursor, dialect, *args)
                    except Exception as exc:
                        cursor.execute("ROLLBACK TO step")
                        results.append((None, exc))
                    else:
                        results.append((value, None))
                    cursor.execute("RELEASE step")
            cursor.execute("COMMIT")
        except Exception as exc:
            # The transaction failed as a whole: a fresh connection for the next one (closing
            # this one rolls back whatever it held).
            error: BaseException = exc
            if isinstance(exc, sqlite3.Error):
                error = StorageError(f"the database failed: {failure_reason(exc)}")
                error.__cause__ = exc
            self._drop_connection()
            return [(None, error)] * len(batch)
        return results

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

    async def run_core(self, fn: Callable[..., _T], *args: Any) -> _T:
        """Run ``fn(cursor, dialect, *args)`` in the next group commit (see the class
        docstring); returns once that is committed."""
        self._check_open()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[_T] = loop.create_future()
        self._waiting.append((fn, args, future))
        if not self._committing:
            # Not at once: the steps that other tasks send in the same turn of the event loop
            # (read from the same wake-up) join this commit.
            self._committing = True
            loop.call_soon(self._next_batch)
        return await future

    def _next_batch(self) -> None:
        """Hand every call waiting to the thread as one group commit (in the event loop)."""
        batch, self._waiting = self._waiting, []
        if self.closed:
            self._committing = False
            for _fn, _args, future in batch:
                if not future.done():
                    future.set_exception(StorageError("the database is closed"))
            return
        self._committing = True
        loop = asyncio.get_running_loop()

        def job() -> None:
            try:
                results = self._core_batch(batch)
            except BaseException as exc:  # handed to the callers, as for a single call
                results = [(None, exc)] * len(batch)
            # A closed event loop refuses the answers: nobody waits for them any more.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._batch_done, batch, results)

        self._jobs.put(job)

    def _batch_done(
        self, batch: list[_Work], results: list[tuple[Any, BaseException | None]]
    ) -> None:
        self._committing = False
        for (_fn, _args, future), (value, failure) in zip(batch, results, strict=True):
            # A caller that stopped waiting is skipped: its call ran all the same.
            _settle(future, value, failure)
        if self._waiting:
            self._next_batch()

    async def close(self) -> None:
        if self.closed:
            return
        self.closed = True  # no transaction is handed over after this one
        # Queued behind every transaction already handed over, and in the connection's thread.
        await self._call(self._dispose)
        self._jobs.put(None)


def _on_cursor(connection: Connection, fn: Callable[..., _T], args: tuple[Any, ...]) -> _T:
    """``fn(cursor, dialect, *args)`` on a cursor of ``connection``'s driver connection."""
    cursor = connection.connection.cursor()
    try:
        return fn(cursor, connection.dialect, *args)
    finally:
        cursor.close()


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
