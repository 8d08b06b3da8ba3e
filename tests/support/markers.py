"""The markers of the tests that start something or take long, and the check that a test which
starts a server carries its marker.

``browser``: needs Chromium. ``postgres``: starts PostgreSQL. ``redis``: starts redis-server.
``system``: starts real processes (``hisss serve`` in subprocesses, several server processes, a Ray
cluster, process pools, the command line or an example script run as a program of its own).
``slow``: one long check, several seconds of work on its own (brute force, long fuzzing and
random-game runs, whole games in the terminal).

The fast part, ``pytest -m "not browser and not system"``, is what a developer runs while
working: in process, nothing but Python, under two minutes. So every ``postgres``, ``redis`` and
``slow`` test is a ``system`` test too (:data:`SYSTEM_KINDS`); each test on the ``database``
fixture still runs in the fast part on SQLite, and the whole suite runs everything.

A test gets the markers of the fixtures it uses (:data:`FIXTURE_MARKERS`, applied by
``conftest.py`` when the tests are collected), or carries them itself. Whatever starts a server
calls :func:`require` with the marker it needs, which fails a running test that lacks it: no test
that starts PostgreSQL, Redis or a subprocess server can slip into the fast part unmarked.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

#: What a fixture starts, by its name: the markers every test using it carries. These names are
#: kept for the fixtures that start something.
FIXTURE_MARKERS: dict[str, tuple[str, ...]] = {
    "browser": ("browser",),  # support.browser: the system's Chromium
    "server": ("system",),  # support.browser: ``hisss serve`` in a subprocess
    "postgres": ("postgres",),
    "redis": ("redis",),
    "ray_local": ("system",),  # test_workers: a local Ray cluster
}
#: Markers whose tests are left out of the fast part with the system tests.
SYSTEM_KINDS = ("postgres", "redis", "slow")


class MarkerMissingError(AssertionError):
    """A test started something without carrying the marker that says so."""


#: The test running now (None between tests and outside pytest).
running: pytest.Item | None = None


def mark(items: Iterable[pytest.Item]) -> None:
    """Give each test the markers of the fixtures it uses, and ``system`` to every test of
    :data:`SYSTEM_KINDS`."""
    for item in items:
        for name in item.fixturenames if isinstance(item, pytest.Function) else ():
            for marker in FIXTURE_MARKERS.get(name, ()):
                item.add_marker(marker)
        if any(item.get_closest_marker(kind) for kind in SYSTEM_KINDS):
            item.add_marker("system")


def require(marker: str, what: str) -> None:
    """Fail unless the running test carries ``marker``; ``what`` says what it was starting. Does
    nothing outside a test (a helper run by hand)."""
    item = running
    if item is not None and item.get_closest_marker(marker) is None:
        raise MarkerMissingError(
            f"{item.nodeid} starts {what} but is not marked {marker!r}: add "
            f"@pytest.mark.{marker} to it (or pytestmark to its module), or use the fixture that "
            "gives the marker"
        )
