"""The test suite's own machinery: waiting for a condition, and the markers of the tests that
start something (``support/waiting.py``, ``support/markers.py``)."""

from __future__ import annotations

import pytest

from support import markers
from support.waiting import WaitTimeoutError, wait_until, wait_until_async


def test_wait_until_returns_the_first_true_answer_and_pauses_between_looks() -> None:
    answers = iter([None, False, 0, {}, {"phase": "over"}, {"phase": "later"}])
    pauses: list[float] = []
    assert wait_until(lambda: next(answers), what="the end", pause=pauses.append) == {
        "phase": "over"
    }
    assert len(pauses) == 4 and all(0 < p < 1 for p in pauses)
    assert next(answers) == {"phase": "later"}  # no look after the answer came


def test_wait_until_names_what_it_waited_for_when_it_gives_up() -> None:
    looks: list[int] = []
    with pytest.raises(WaitTimeoutError, match=r"^gave up waiting for the starter after 0\.05 s$"):
        wait_until(lambda: looks.append(1), what="the starter", timeout=0.05)
    assert len(looks) >= 2  # it looked again before giving up
    assert issubclass(WaitTimeoutError, AssertionError)  # a failure, as pytest reports one


async def test_wait_until_async_awaits_a_coroutine_condition_and_its_pause() -> None:
    answers = iter([0, 0, 7])
    pauses: list[float] = []

    async def answer() -> int:
        return next(answers)

    async def pause(seconds: float) -> None:
        pauses.append(seconds)

    assert await wait_until_async(answer, what="seven", pause=pause) == 7
    assert len(pauses) == 2
    assert await wait_until_async(lambda: "at once", what="a plain condition") == "at once"
    with pytest.raises(WaitTimeoutError, match=r"^gave up waiting for nothing after 0\.05 s$"):
        await wait_until_async(lambda: None, what="nothing", timeout=0.05)


def test_starting_a_server_without_its_marker_fails_the_test(
    request: pytest.FixtureRequest,
) -> None:
    test = request.node
    assert markers.running is test
    assert test is not None
    with pytest.raises(markers.MarkerMissingError) as failure:
        markers.require("browser", "Chromium")
    message = str(failure.value)
    assert message.startswith(f"{test.nodeid} starts Chromium but is not marked 'browser'")
    assert "@pytest.mark.browser" in message
    test.add_marker("browser")  # as if it were marked: now it may
    markers.require("browser", "Chromium")


def test_outside_a_test_anything_may_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(markers, "running", None)
    markers.require("system", "a server process")


def test_every_selected_test_that_starts_something_carries_its_markers(
    request: pytest.FixtureRequest,
) -> None:
    """Over the tests of this run (all of them, or the fast part, where none may start
    anything): the fixtures' markers are there, and each postgres, redis or slow test is a
    system test. The ``database`` fixture's PostgreSQL parameter is marked ``postgres``."""
    checked = 0
    for item in request.session.items:
        if not isinstance(item, pytest.Function):
            continue
        wanted = {m for name in item.fixturenames for m in markers.FIXTURE_MARKERS.get(name, ())}
        if getattr(item, "callspec", None) and item.callspec.params.get("database") == (
            "postgresql"
        ):
            wanted.add("postgres")
        if any(kind in wanted or item.get_closest_marker(kind) for kind in markers.SYSTEM_KINDS):
            wanted.add("system")
        missing = {m for m in wanted if item.get_closest_marker(m) is None}
        assert not missing, (item.nodeid, missing)
        checked += 1
    assert checked >= 1  # this test at least
