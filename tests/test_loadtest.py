"""``hisss loadtest``: a small load test against a server it starts itself, its JSON figures,
and whole games played to the end and started again."""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from pathlib import Path

import pytest

from hisss.cli import app
from hisss.loadgen.client import Table
from hisss.loadgen.loadtest import (
    KEYS,
    Crowd,
    Figures,
    LoadTest,
    run_loadtest,
)
from hisss.loadgen.servers import LoadTestError, LocalServer, split_cpus
from hisss.record import Seat
from hisss.storage import EntryKind, GameStatus, LogEntry, NewGame, Store
from support.cli import CliRunner
from support.server_process import ServerProcess


@pytest.mark.system
def test_a_small_load_test_reports_its_figures_with_nothing_lost() -> None:
    cpus_before = os.sched_getaffinity(0)
    result = CliRunner().invoke(
        # Players who think a tenth of a second: enough steps to count on a busy machine.
        app,
        ["loadtest", "--games", "5", "--seconds", "3", "--ramp", "0.5", "--think", "0.1", "--json"],
    )
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert tuple(figures) == KEYS
    assert figures["games"] >= 5 and figures["actions"] > 10
    assert figures["errors"] == 0 and figures["lost_actions"] == 0
    assert 0 < figures["p50_ms"] <= figures["p99_ms"]
    assert figures["actions_per_second"] > 0
    # Read from the server process the load test started (Linux shows it in /proc).
    assert figures["server_cpu_ms_per_step"] > 0
    # The server ran on CPUs of its own where there are two or more; the load generator's
    # thread is back on every CPU it had.
    split = split_cpus()
    assert figures["server_cpus"] == (",".join(map(str, split[0])) if split else None)
    assert os.sched_getaffinity(0) == cpus_before


@pytest.mark.system
def test_the_started_server_runs_on_the_cpus_it_is_given(tmp_path: Path) -> None:
    first = min(os.sched_getaffinity(0))
    server = LocalServer(f"sqlite+aiosqlite:///{tmp_path / 'load.db'}", tmp_path, (first,))
    try:
        server.start()
        assert server.proc is not None
        threads = list(Path(f"/proc/{server.proc.pid}/task").iterdir())
        assert len(threads) >= 2  # the event loop's and the database's
        for thread in threads:
            assert os.sched_getaffinity(int(thread.name)) == {first}
    finally:
        server.stop()


@pytest.mark.system
def test_games_are_played_to_the_end_and_new_ones_started() -> None:
    figures = run_loadtest(2, 4, crowd=Crowd("easy", 0.0, 0.0, 3), separate_cpus=False)
    assert figures.finished >= 2 and figures.games > figures.finished
    assert figures.errors == 0 and figures.lost_actions == 0
    assert figures.server_cpus is None and figures.summary()["server_cpus"] is None


def test_bad_arguments_are_refused_before_anything_starts() -> None:
    with pytest.raises(LoadTestError, match="expected http"):
        run_loadtest(1, 1, url="ftp://example.org")
    result = CliRunner().invoke(app, ["loadtest", "--level", "genius", "--seconds", "1"])
    assert result.exit_code != 0 and "genius" in result.output


async def test_the_database_check_counts_acknowledged_steps_that_are_not_stored(
    tmp_path: Path,
) -> None:
    database = f"sqlite:///{tmp_path / 'load.db'}"
    store = await Store.open(database)
    try:
        game = await store.create_game(
            NewGame(
                rules={},
                deck={},
                seed=1,
                seats=(Seat.person("A"), Seat.person("B")),
                status=GameStatus.RUNNING,
            )
        )
        await store.append(game.id, LogEntry(1, EntryKind.STARTER, card="H:red"))
        await store.append(game.id, LogEntry(2, EntryKind.DRAW, seat=0, card="T:red"))
    finally:
        await store.close()
    test = LoadTest("http://127.0.0.1:1")
    kept = Table({"id": game.id, "websocket": "/ws", "seats": []})
    kept.acked.extend([1, 2, 3])  # step 3 was acknowledged but never stored
    gone = Table({"id": "nosuchgame", "websocket": "/ws", "seats": []})
    gone.acked.append(1)
    test.tables.extend([kept, gone])
    await test.check_database(database)
    assert test.figures.lost_actions == 2


@pytest.mark.system
def test_a_rate_limited_server_is_waited_for_not_counted_as_failing(tmp_path: Path) -> None:
    # ``hisss serve`` as it is (but for 68 websockets from one address): 30 new games per
    # address at once, then one a second.
    with ServerProcess(
        f"sqlite:///{tmp_path / 'limited.db'}",
        tmp_path,
        args=("--max-connections-per-address", "100"),
    ) as server:
        figures = run_loadtest(34, 3, url=server.url, crowd=Crowd(think=0.2, ramp=0.5, seed=5))
    assert figures.throttled >= 4, figures.throttled
    assert figures.games >= 31 and figures.errors == 0 and figures.lost_actions == 0
    # A server the load test did not start: its CPU time is not known.
    assert figures.summary()["server_cpu_ms_per_step"] is None


@pytest.mark.system
def test_a_server_restart_under_load_is_survived_and_the_games_go_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # The first server picks a free port; the second one listens on the same port.
    first = ServerProcess(f"sqlite:///{tmp_path / 'restart.db'}", tmp_path, name="first")
    first.start()
    port = first.url.rstrip("/").rsplit(":", 1)[1]
    second = ServerProcess(
        f"sqlite:///{tmp_path / 'restart.db'}", tmp_path, name="second", args=("--port", port)
    )
    done: list[Figures] = []
    failed: list[BaseException] = []

    def load() -> None:
        try:
            done.append(run_loadtest(4, 8, url=first.url, crowd=Crowd(think=0.1, ramp=0.5, seed=3)))
        except BaseException as exc:
            failed.append(exc)

    runner = threading.Thread(target=load)
    runner.start()
    try:
        time.sleep(3)
        assert first.stop() == 0
        second.start()
        runner.join(timeout=120)
    finally:
        first.kill()
        second.stop()
    assert not failed, failed
    figures = done[0]
    assert figures.reconnects >= 2, figures  # the seats of the running games came back
    assert figures.errors == 0 and figures.lost_actions == 0, figures
    # The games of the first server went on on the second: no game was started again for them.
    assert figures.games <= 4 + figures.finished, figures
    assert "Traceback" not in second.output() and "Traceback" not in first.output()
    # No callback of the load test's clients failed (the event loop logs those with a
    # traceback).
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
