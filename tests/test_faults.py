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
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosedError, WebSocketException

import pg
from hisss.record import GameRecord, replay
from server_process import ServerProcess

GAMES = 50
KILLS = 3


@dataclass
class Played:
    """One game's person seat: the steps the server acknowledged, by version."""

    game: str
    websocket: str
    token: str
    draws: dict[int, str] = field(default_factory=dict)
    plays: dict[int, str] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    over: bool = False


async def play_through_restarts(server: ServerProcess, game: Played, deadline: float) -> None:
    """Play seat 1 (the last legal action each time) to the end, reconnecting after each kill."""
    while not game.over and time.monotonic() < deadline:
        sent: tuple[int, str] | None = None
        try:
            async with connect(server.ws_url + game.websocket, proxy=None, open_timeout=5) as ws:
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
                    if sent is not None and version == sent[0] and event["seat"] == 1:
                        kind = event["kind"]
                        if kind == "draw":
                            game.draws[version] = event["card"]
                        else:
                            assert kind == "play" and event["action"] == sent[1], event
                            game.plays[version] = sent[1]
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
            await asyncio.sleep(0.1)  # the server is down: try again


async def kill_and_restart(server: ServerProcess, rng: random.Random) -> list[float]:
    """SIGKILL the server at random moments and start it again each time; the moments."""
    moments = []
    began = time.monotonic()
    for _ in range(KILLS):
        await asyncio.sleep(rng.uniform(0.5, 2.5))
        moments.append(time.monotonic() - began)
        server.kill()
        await asyncio.to_thread(server.start)
    return moments


async def test_sigkill_at_random_moments_loses_no_acknowledged_step(tmp_path: Path) -> None:
    database = f"sqlite+pysqlite:///{tmp_path / 'hisss.db'}"
    # The load test's server: ``hisss serve`` without the HTTP rate limit and the bots' pause.
    server = ServerProcess(
        database, tmp_path, command=[sys.executable, "-m", "hisss.server.loadtest", database]
    )
    await asyncio.to_thread(server.start)
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
        deadline = time.monotonic() + 60
        players = [asyncio.create_task(play_through_restarts(server, g, deadline)) for g in games]
        moments = await kill_and_restart(server, random.Random(8))
        await asyncio.gather(*players)
        assert server.runs == KILLS + 1 and len(moments) == KILLS
        assert all(game.over for game in games), "a game did not finish within a minute"
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
                    took = await _refused_while_away(server, ws, game, token, state["version"])
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
    server: ServerProcess, ws: ClientConnection, game: dict[str, Any], token: str, version: int
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
    # is told so and closed (1011), not left waiting.
    began = time.monotonic()
    async with connect(server.ws_url + game["websocket"], proxy=None) as other:
        await other.send(json.dumps({"type": "hello", "token": token}))
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
