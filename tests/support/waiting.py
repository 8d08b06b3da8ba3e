"""Waiting for something to happen: look at a condition again and again until it holds, and fail
with a message that names what was awaited when a deadline passes first.

The tests never sleep a fixed time in the hope that something has happened by then: a fixed sleep
is too short on a loaded machine and too long on an idle one. :func:`wait_until` is for plain
tests, :func:`wait_until_async` for the asyncio ones (whose condition may be a coroutine).
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar, overload

T = TypeVar("T")

#: The longest a test waits by default, in seconds: far longer than anything awaited takes, even
#: on a loaded machine, so that only something that never happens fails.
PATIENCE = 30.0
#: Seconds between two looks at the condition.
INTERVAL = 0.01


class WaitTimeoutError(AssertionError):
    """The condition did not hold before the deadline."""


def _timed_out(what: str, timeout: float) -> WaitTimeoutError:
    return WaitTimeoutError(f"gave up waiting for {what} after {timeout:g} s")


def wait_until(
    condition: Callable[[], T | None],
    *,
    what: str,
    timeout: float = PATIENCE,
    pause: Callable[[float], object] = time.sleep,
) -> T:
    """Call ``condition`` until it returns something true, and return that; after ``timeout``
    seconds raise :class:`WaitTimeoutError` naming ``what`` (say what is awaited: "the game to
    finish"). Between looks it calls ``pause(INTERVAL)``: ``time.sleep``, or a wait that lets
    other work go on meanwhile (Playwright's, whose events are handled only inside its calls).

    >>> answers = iter([None, 0, {"phase": "over"}])
    >>> wait_until(lambda: next(answers), what="the game to end")
    {'phase': 'over'}
    >>> try:
    ...     wait_until(lambda: False, what="a miracle", timeout=0.05)
    ... except WaitTimeoutError as error:
    ...     print(error)
    gave up waiting for a miracle after 0.05 s
    """
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise _timed_out(what, timeout)
        pause(INTERVAL)


@overload
async def wait_until_async(
    condition: Callable[[], Awaitable[T | None]],
    *,
    what: str,
    timeout: float = PATIENCE,
    pause: Callable[[float], Awaitable[object]] = asyncio.sleep,
) -> T: ...


@overload
async def wait_until_async(
    condition: Callable[[], T | None],
    *,
    what: str,
    timeout: float = PATIENCE,
    pause: Callable[[float], Awaitable[object]] = asyncio.sleep,
) -> T: ...


async def wait_until_async(
    condition: Callable[[], object],
    *,
    what: str,
    timeout: float = PATIENCE,
    pause: Callable[[float], Awaitable[object]] = asyncio.sleep,
) -> object:
    """:func:`wait_until` for asyncio tests: ``condition`` may return an awaitable, which is
    awaited; between looks the test awaits ``pause(INTERVAL)``, which lets the event loop run
    (``asyncio.sleep``, or a Textual pilot's ``pause`` so that the app works meanwhile)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value
        if time.monotonic() >= deadline:
            raise _timed_out(what, timeout)
        await pause(INTERVAL)
