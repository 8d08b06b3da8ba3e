"""Faults: the server killed with SIGKILL at random moments during 50 running games and started
again each time loses no acknowledged step, and every game finishes with a valid record; and
while PostgreSQL is stopped or hung the server answers with clear errors within a bound and
recovers after.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosedError, WebSocketException

from hisss.record import GameRecord, replay
from support import pg
from support.server_process import ServerProcess
from support.waiting import wait_until_async

#: Every test here runs ``hisss serve`` in subprocesses.
pytestmark = pytest.mark.system

GAMES = 50
KILLS = 6
#: The kills fall at random points of the games' mean progress (the share of the deck placed):
#: one in each of ``KILLS`` equal parts of this span, in the middle half of its part, so that
#: the kills are spread from the games' start to their end and two are never close together.
SPAN = (0.05, 0.9)
#: At least this many games have steps acknowledged both just before and just after each kill.
INTERRUPTED = GAMES // 5


@dataclass
class Played:
    """One game's person seat: the steps the server acknowledged, by version, how many each run
    of the server acknowledged, and the game's progress as last seen."""

    game: str
    websocket: str
    token: str
    draws: dict[int, str] = field(default_factory=dict)
    plays: dict[int, str] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    over: bool = False
    progress: float = 0.0
    acks: Counter[int] = field(default_factory=Counter)


@dataclass
class Runs:
    """The server's runs, told apart by address: the address clients are to connect to now
    (``""`` while the server is down) and each run's number (from 1) by its address."""

    url: str = ""
    numbers: dict[str, int] = field(default_factory=dict)

    async def start(self, server: ServerProcess) -> None:
        """Start the server and publish its address. A run that came up on an earlier run's
        port (rare with port 0) is started again, so an address names one run."""
        while True:
            await asyncio.to_thread(server.start)
            if server.ws_url not in self.numbers:
                break
            server.kill()
        self.numbers[server.ws_url] = len(self.numbers) + 1
        self.url = server.ws_url


@dataclass
class Kill:
    """One SIGKILL: the games' mean progress and how many games were not over as the players saw
    them at that moment, and how long the server took to start again."""

    progress: float
    unfinished: int
    restart: float


async def play_through_restarts(runs: Runs, game: Played, deadline: float) -> None:
    """Play seat 1 (the last legal action each time) to the end, reconnecting after each kill."""
    while not game.over and time.monotonic() < deadline:
        sent: tuple[int, str] | None = None
        url = await wait_until_async(  # while the server is down, for its next run
            lambda: runs.url,
            what="the server to run again",
            timeout=max(deadline - time.monotonic(), 0),
        )
        try:
            async with connect(url + game.websocket, proxy=None, open_timeout=5) as ws:
                run = runs.numbers[url]
                await ws.send(json.dumps({"type": "hello", "token": game.token}))
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 20))
                    if message["type"] == "error":
                        game.errors.append(message["code"])
                        sent = None
                        continue
                    if message["type"] != "state":
                        continue
                    version, event = message["version"], message["last_event"]
                    placed, left = message["turn"], message["cards_left"]
                    game.progress = placed / (placed + left + (message["drawn"] is not None))
                    if sent is not None and version == sent[0] and event["seat"] == 1:
                        kind = event["kind"]
                        if kind == "draw":
                            game.draws[version] = event["card"]
                        else:
                            assert kind == "play" and event["action"] == sent[1], event
                            game.plays[version] = sent[1]
                        game.acks[run] += 1
                        sent = None
                    if message["phase"] == "over":
                        game.over = True
                        return
                    if message["to_move"] != 1 or sent is not None:
                        continue
                    if message["phase"] == "draw":
                        sent = (version + 1, "draw")
                        await ws.send(json.dumps({"type": "draw", "version": version}))
                    elif message["phase"] == "place":
                        action = message["legal"][-1]
                        sent = (version + 1, action)
                        await ws.send(
                            json.dumps({"type": "play", "version": version, "action": action})
                        )
        except (OSError, WebSocketException, TimeoutError):
            pass  # the server was killed: connect to its next run


async def kill_and_restart(
    server: ServerProcess, runs: Runs, games: list[Played], rng: random.Random, deadline: float
) -> list[Kill]:
    """SIGKILL the server at random moments through the games' life and start it again each
    time: the ``k``-th kill waits for the games' mean progress to pass a random mark in the
    ``k``-th part of :data:`SPAN`, then for a random fraction of a second more."""
    part = (SPAN[1] - SPAN[0]) / KILLS
    marks = [SPAN[0] + (k + 0.25 + 0.5 * rng.random()) * part for k in range(KILLS)]
    kills = []
    for mark in marks:
        await wait_until_async(
            lambda: _mean_progress(games) >= mark,  # noqa: B023 - used in this iteration only
            what=f"the games' mean progress to pass {mark:.2f}",
            timeout=max(deadline - time.monotonic(), 0),
        )
        # The moment of the kill is random by design: the test is that no moment loses a step.
        await asyncio.sleep(rng.uniform(0, 0.25))
        progress, unfinished = _mean_progress(games), sum(not g.over for g in games)
        runs.url = ""  # from now on nobody connects to the run being killed
        server.kill()  # blocks the event loop: no client reads until the server is dead
        began = time.monotonic()
        await runs.start(server)
        kills.append(Kill(progress, unfinished, time.monotonic() - began))
        # Play goes on in the new run before anything else: with steps of a millisecond or two,
        # the games could pass the next mark before the players reconnect, and the next kill
        # would come before this run had acknowledged anything.
        run = len(runs.numbers)
        await wait_until_async(
            lambda: (
                sum(bool(g.acks[run]) for g in games) >= INTERRUPTED  # noqa: B023
                or all(g.over for g in games)
            ),
            what=f"run {run} of the server to acknowledge steps of {INTERRUPTED} games",
            timeout=max(deadline - time.monotonic(), 0),
        )
    return kills


def _mean_progress(games: list[Played]) -> float:
    return sum(1.0 if g.over else g.progress for g in games) / len(games)


async def test_sigkill_at_random_moments_loses_no_acknowledged_step(tmp_path: Path) -> None:
    database = f"sqlite+pysqlite:///{tmp_path / 'hisss.db'}"
    # The load test's server: ``hisss serve`` without the HTTP rate limit and the bots' pause.
    server = ServerProcess(
        database, tmp_path, command=[sys.executable, "-m", "hisss.loadgen.servers", database]
    )
    runs = Runs()
    await runs.start(server)
    try:
        games = []
        for _ in range(GAMES):
            created = await asyncio.to_thread(
                server.request,
                "POST",
                "/api/games",
                {"seats": [{"kind": "person", "name": "Ala"}, {"kind": "bot", "level": "easy"}]},
            )
            games.append(Played(created["id"], created["websocket"], created["seats"][0]["token"]))
        began = time.monotonic()
        deadline = began + 90
        players = [asyncio.create_task(play_through_restarts(runs, g, deadline)) for g in games]
        kills = await kill_and_restart(server, runs, games, random.Random(8), deadline)
        await asyncio.gather(*players)
        took = time.monotonic() - began
        assert len(kills) == KILLS and len(runs.numbers) == KILLS + 1
        assert all(game.over for game in games), "a game did not finish in time"
        # Each kill came in the middle of play: many games had steps acknowledged both by the
        # run that was killed and by the next one (so they were not over at the kill).
        for number, kill in enumerate(kills, start=1):
            interrupted = sum(bool(g.acks[number] and g.acks[number + 1]) for g in games)
            assert interrupted >= INTERRUPTED, (number, kill, interrupted)
        acknowledged = 0
        for game in games:
            assert set(game.errors) <= {"stale_version"}, game.errors
            text = await asyncio.to_thread(_download, server.url, game.game)
            record = GameRecord.from_json(text)
            assert replay(record).is_terminal()
            for version, card in game.draws.items():
                assert str(record.cards[version // 2]) == card
            for version, action in game.plays.items():
                turn = record.turns[(version - 3) // 2]
                assert turn.player == 0 and str(turn.action) == action
            acknowledged += len(game.draws) + len(game.plays)
        assert acknowledged >= GAMES * 40
        print(f"{acknowledged} steps over {KILLS} kills in {took:.1f} s:")
        for number, kill in enumerate(kills, start=1):
            interrupted = sum(bool(g.acks[number] and g.acks[number + 1]) for g in games)
            print(
                f"kill {number}: progress {kill.progress:.2f}, {kill.unfinished} games unfinished, "
                f"{sum(g.acks[number] for g in games)} steps acknowledged before and "
                f"{sum(g.acks[number + 1] for g in games)} after, {interrupted} games on both "
                f"sides, restarted in {kill.restart:.2f} s"
            )
    finally:
        server.stop()


def _download(url: str, game: str) -> str:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(f"{url.rstrip('/')}/api/games/{game}/record", timeout=30) as answer:
        text: str = answer.read().decode()
        return text


def _status(url: str, method: str = "GET", body: object = None) -> tuple[int, Any, float]:
    """An HTTP request's status, decoded answer and duration (errors included)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    began = time.monotonic()
    try:
        with opener.open(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read()), time.monotonic() - began
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read()), time.monotonic() - began


#: The server's ``--database-timeout`` in the outage test, and the longest a refusal may take.
DB_TIMEOUT = 2.0
FAST = 3 * DB_TIMEOUT  # a connection tested (one timeout), then opened anew (another)


@pytest.mark.parametrize("outage", ["stopped", "hung"])
@pytest.mark.postgres
async def test_while_postgresql_is_away_requests_fail_fast_and_the_server_recovers(
    tmp_path: Path, outage: str
) -> None:
    """PostgreSQL stopped (connections refused) or hung (SIGSTOP: nothing answers): every
    request that needs the database gets a clear error within a bound, the connections live on,
    and once it is back the same connection plays on, with no restart."""
    own = pg.start()  # a server of its own: the session's server stays up for other tests
    away, back = (own.pause, own.resume) if outage == "stopped" else (own.freeze, own.thaw)
    try:
        database = await pg.create_database(own)
        options = ("--database-timeout", str(DB_TIMEOUT))
        with ServerProcess(database, tmp_path, args=options) as server:
            game = server.request("POST", "/api/games", {"seats": [PERSON, BOT]})
            token = game["seats"][0]["token"]
            async with connect(server.ws_url + game["websocket"], proxy=None) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                # The starter is stored: the person is to draw.
                state = await _next_state(ws, lambda s: s["phase"] == "draw")
                away()
                try:
                    took = await _refused_while_away(server, ws, game, state["version"])
                finally:
                    back()
                assert max(took) < FAST, took
                # Back: new games are created and the same connection plays on.
                status, answer, _took = await asyncio.to_thread(
                    _status, server.url + "api/games", "POST", {"seats": [PERSON, BOT]}
                )
                assert status == 201, answer
                status, answer, _took = await asyncio.to_thread(_status, server.url + "healthz")
                assert status == 200 and answer["ok"] is True, answer
                await ws.send(json.dumps({"type": "draw", "version": state["version"]}))
                drawn = await _next_state(ws, lambda s: s["version"] == state["version"] + 1)
                assert drawn["phase"] == "place" and drawn["to_move"] == 1
            # A known failure is one line in the log each time, not a traceback.
            assert "database" in server.output() and "Traceback" not in server.output()
    finally:
        own.stop()


async def _refused_while_away(
    server: ServerProcess, ws: ClientConnection, game: dict[str, Any], version: int
) -> list[float]:
    """Check that each request needing the database is refused with a clear error while it is
    away; returns how long each refusal took."""
    took = []
    for method, path, body in (
        ("POST", "api/games", {"seats": [PERSON, BOT]}),
        ("GET", "api/games?status=running", None),
    ):
        status, answer, seconds = await asyncio.to_thread(_status, server.url + path, method, body)
        assert status == 500 and answer["error"]["code"] == "server_error", answer
        took.append(seconds)
    status, answer, seconds = await asyncio.to_thread(_status, server.url + "healthz")
    assert status == 503 and answer["ok"] is False, answer
    took.append(seconds)
    # A step on the open connection: an error, nothing stored, and the connection lives on.
    began = time.monotonic()
    await ws.send(json.dumps({"type": "draw", "version": version}))
    refused = json.loads(await asyncio.wait_for(ws.recv(), FAST + 5))
    took.append(time.monotonic() - began)
    assert refused["type"] == "error" and refused["code"] == "server_error", refused
    await ws.send(json.dumps({"type": "ping", "data": 1}))
    pong = json.loads(await asyncio.wait_for(ws.recv(), 5))
    assert pong["type"] == "pong", pong
    # The failed step dropped the game from memory: a new connection needs the database, and
    # is told so and closed (1011), not left waiting. (The server loads the game as soon as the
    # connection opens, before any hello, which the closed connection could no longer take.)
    began = time.monotonic()
    async with connect(server.ws_url + game["websocket"], proxy=None) as other:
        failed = json.loads(await asyncio.wait_for(other.recv(), FAST + 5))
        assert failed["type"] == "error" and failed["code"] == "server_error", failed
        with pytest.raises(ConnectionClosedError) as closed:
            await asyncio.wait_for(other.recv(), 5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1011
    took.append(time.monotonic() - began)
    return took


PERSON = {"kind": "person", "name": "Ala"}
BOT = {"kind": "bot", "level": "easy"}


async def _next_state(
    ws: ClientConnection, test: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """The next state message that passes ``test`` (an error fails)."""
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert message["type"] != "error", message
        if message["type"] == "state" and test(message):
            return message
