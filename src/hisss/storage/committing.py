"""Group commit: the one way a step is written, on SQLite and on PostgreSQL alike.

A step's :class:`~hisss.storage.appending.Write` (its statements, planned once) waits in a
:class:`GroupCommit` until a transaction is free; every write that comes while the transactions
are all busy goes into the next one together, each in a savepoint of its own, with one commit.
Each caller hears of its own write only once that commit is done, so a step is still stored
before anyone hears of it, and a busy server commits many steps at once instead of waiting for
the disk once a step.

The transaction's commands come from :func:`commands`, a generator that knows nothing of the
driver (sans-I/O): SQLite's thread runs them on its cursor, PostgreSQL's runner on an asyncpg
connection, each with a loop of a few lines (:func:`run_commands`, and its ``await`` twin in
:mod:`hisss.storage.runners`).

>>> steps = commands(2, 2)
>>> next(steps)
('sql', 'BEGIN')
>>> next(steps), next(steps), steps.send(None)
(('sql', 'SAVEPOINT step'), ('write', 0), ('sql', 'RELEASE step'))
>>> next(steps), next(steps), steps.send(ValueError("taken"))
(('sql', 'SAVEPOINT step'), ('write', 1), ('sql', 'ROLLBACK TO step'))
>>> next(steps), next(steps)
(('sql', 'RELEASE step'), ('sql', 'COMMIT'))
>>> list(commands(1, 1, autocommit=True))  # one statement alone commits by itself
[('write', 0)]
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any, Generic, TypeVar

_W = TypeVar("_W")

#: What :func:`commands` yields: run this SQL, or run write number ``i`` of the batch.
Command = tuple[str, Any]
#: What it is sent back after a write: ``None`` when it was stored, else its error.
Commands = Generator[Command, BaseException | None, None]


def commands(writes: int, statements: int, *, autocommit: bool = False) -> Commands:
    """The commands of a transaction for ``writes`` writes of ``statements`` statements in all.

    With a driver that commits each statement outside a transaction by itself (``autocommit``:
    asyncpg does, SQLite's module does not), a lone write of one statement is sent alone (one
    round trip on PostgreSQL, where ``BEGIN`` and ``COMMIT`` would be two more). A lone write of
    more is one transaction, all or nothing. Several writes each get a savepoint, so one that fails
    leaves no trace and does not hinder the others.
    """
    if autocommit and writes == 1 and statements == 1:
        yield ("write", 0)
        return
    yield ("sql", "BEGIN")
    if writes == 1:
        if (yield ("write", 0)) is not None:
            yield ("sql", "ROLLBACK")
            return
    else:
        for i in range(writes):
            yield ("sql", "SAVEPOINT step")
            if (yield ("write", i)) is not None:
                yield ("sql", "ROLLBACK TO step")
            yield ("sql", "RELEASE step")
    yield ("sql", "COMMIT")


def run_commands(
    steps: Commands,
    execute: Callable[[str], object],
    write: Callable[[int], Any],
    writes: int,
) -> list[tuple[Any, BaseException | None]]:
    """Run a transaction's commands with ``execute(sql)`` and ``write(i)``; each write's value
    or error. An error of ``execute`` (the transaction itself, such as its commit) is raised."""
    results: list[tuple[Any, BaseException | None]] = [(None, None)] * writes
    answer: BaseException | None = None
    while True:
        try:
            kind, what = steps.send(answer)
        except StopIteration:
            return results
        answer = None
        if kind == "sql":
            execute(what)
            continue
        try:
            results[what] = (write(what), None)
        except Exception as exc:
            results[what] = (None, exc)
            answer = exc


class GroupCommit(Generic[_W]):
    """Writes waiting for a transaction, handed out in batches, at most ``in_flight`` batches
    at a time (the connections that may write at once: one for SQLite, the pool's size for
    PostgreSQL). Knows nothing of threads, loops or drivers: its runner calls :meth:`add` when
    a write comes, :meth:`take` when it starts a transaction and :meth:`finished` when one
    ends, and starts another whenever either says so.

    >>> group = GroupCommit[str](in_flight=1)
    >>> group.add("a"), group.take()
    (True, ['a'])
    >>> group.add("b"), group.add("c")  # the one transaction is busy: they wait together
    (False, False)
    >>> group.finished(), group.take(), group.finished()
    (True, ['b', 'c'], False)
    """

    def __init__(self, in_flight: int) -> None:
        self.in_flight = in_flight
        self.running = 0
        self.waiting: list[_W] = []

    def add(self, work: _W) -> bool:
        """Queue ``work``; whether a transaction should be started for it now."""
        self.waiting.append(work)
        return self.running < self.in_flight and len(self.waiting) == 1

    def take(self) -> list[_W]:
        """The writes of the transaction that starts now: every one waiting (none, and no
        transaction, when an earlier one took them meanwhile)."""
        batch, self.waiting = self.waiting, []
        if batch:
            self.running += 1
        return batch

    def finished(self) -> bool:
        """A transaction ended; whether another should start for the writes waiting."""
        self.running -= 1
        return bool(self.waiting)


__all__ = ["Command", "Commands", "GroupCommit", "commands", "run_commands"]
