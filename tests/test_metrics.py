"""What an operator sees of a running server: ``GET /metrics`` (steps and errors by kind, the
latency histograms, games by status, connected clients, bot moves, failures), the setting that
keeps it private or off, and log lines as JSON naming the request and the game. Also: the
view of a live game, with the snakes' notation kept between views, says what a fresh one says."""

from __future__ import annotations

import json
import logging
import random
import re
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from hisss.bots import make_bot
from hisss.core import ConfigError
from hisss.server import Settings
from hisss.server.logs import JsonFormatter
from hisss.server.redis_hub import RedisHub
from hisss.server.views import table_view
from hisss.storage import StorageError, Store
from support.web import ALA, BOT, OLEK, expect, hello, new_game, play_out, state_where

Client = Callable[..., TestClient]


def scrape(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``GET /metrics``, parsed as Prometheus parses the text format."""
    response = client.get("/metrics")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    samples = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def newer_than(version: int) -> Callable[[dict[str, Any]], bool]:
    return lambda state: bool(state["version"] > version)


def stored_kinds(database: Path) -> dict[str, int]:
    with sqlite3.connect(database) as db:
        rows = db.execute("SELECT kind, count(*) FROM actions GROUP BY kind").fetchall()
    return dict(rows)


def test_the_metrics_count_what_the_server_did(make_client: Client, tmp_path: Path) -> None:
    client = make_client()
    solo = new_game(client, ALA, BOT)
    play_out(client, solo)  # a whole game against a bot
    duel = new_game(client, ALA, OLEK)
    with client.websocket_connect(duel["websocket"]) as one:
        first = hello(one, duel["seats"][0]["token"])
        one.send_json({"type": "play", "version": first["version"], "action": "new"})
        expect(one, "error", code="wrong_phase")
        one.send_json({"type": "draw", "version": first["version"]})
        drawn = state_where(one, lambda s: s["version"] == first["version"] + 1)
        one.send_json({"type": "play", "version": drawn["version"], "action": "9R"})
        expect(one, "error", code="illegal_action")
        with client.websocket_connect(duel["websocket"]) as watcher:
            hello(watcher, None)
            during = scrape(client)
    assert client.get("/api/games/NOSUCHGAME").status_code == 404
    after = scrape(client)

    # Steps by kind: exactly the log entries stored.
    stored = stored_kinds(tmp_path / "web0.db")
    for kind in ("starter", "draw", "play"):
        assert after[("hisss_steps_total", (("kind", kind),))] == stored[kind], kind
    assert after[("hisss_steps_total", (("kind", "bot"),))] == 0
    steps = sum(stored.values())
    assert after[("hisss_database_append_seconds_count", ())] == steps
    # Step latency: the steps the players sent (the bots' and the starters' are not requests).
    assert 0 < after[("hisss_step_seconds_count", ())] < steps
    assert (
        after[("hisss_step_seconds_bucket", (("le", "+Inf"),))]
        == after[("hisss_step_seconds_count", ())]
    )
    # Bot moves: the bot's placements in the solo game.
    bot_plays = sum(1 for e in client.get(f"/api/games/{solo['id']}/record").json()["turns"])
    assert 0 < after[("hisss_bot_moves_total", (("level", "medium"),))] < bot_plays
    # Errors by code and channel.
    for code in ("wrong_phase", "illegal_action"):
        assert after[("hisss_errors_total", (("channel", "websocket"), ("code", code)))] == 1
    assert after[("hisss_errors_total", (("channel", "http"), ("code", "unknown_game")))] == 1
    # Games by status, connected clients, nothing failing.
    assert after[("hisss_games", (("status", "finished"),))] == 1
    assert after[("hisss_games", (("status", "running"),))] == 1
    assert during[("hisss_connected_clients", ())] == 2
    assert after[("hisss_connected_clients", ())] == 0
    assert after[("hisss_database_failures_total", ())] == 0
    assert after[("hisss_redis_failures_total", ())] == 0
    assert after[("process_cpu_seconds_total", ())] > 0


def test_the_metrics_can_be_kept_to_this_machine_or_turned_off(make_client: Client) -> None:
    # The test client's address is "testclient": not this machine's loopback.
    assert make_client(metrics="on").get("/metrics").status_code == 200
    private = make_client(metrics="local").get("/metrics")
    assert private.status_code == 404 and private.json()["error"]["code"] == "not_found"
    assert make_client(metrics="off").get("/metrics").status_code == 404
    with pytest.raises(ConfigError, match="metrics 'public'"):
        Settings(database="sqlite:///x.db", metrics="public")
    with pytest.raises(ConfigError, match="log format 'xml'"):
        Settings(database="sqlite:///x.db", log_format="xml")


async def test_failures_of_the_database_and_of_redis_are_counted(tmp_path: Path) -> None:
    store = await Store.open(f"sqlite+pysqlite:///{tmp_path / 'gone.db'}")
    await store.close()
    with pytest.raises(StorageError):
        await store.get_game("abc")
    with pytest.raises(StorageError):
        await store.count_games()
    assert store.failures == 2

    class Away:
        async def publish(self, *_args: Any) -> None:
            raise ConnectionError("connection refused")

    hub = RedisHub("redis://127.0.0.1:1/0")
    hub._redis = Away()
    await hub._news("game", {"what": "state", "version": 3})
    assert hub.failures == 1


@pytest.fixture
def json_lines() -> Iterator[list[str]]:
    """The log lines of the test, as the server writes them with ``--log-format json``."""
    lines: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(self.format(record))

    handler = Collect()
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("hisss.server")
    level = logger.level
    logger.setLevel(logging.INFO)
    logger.addHandler(handler)
    try:
        yield lines
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def test_log_lines_name_the_request_and_the_game(
    make_client: Client, json_lines: list[str]
) -> None:
    client = make_client()
    created = client.post(
        "/api/games", json={"seats": [ALA, BOT]}, headers={"X-Request-ID": "checkout-42"}
    )
    assert created.headers["x-request-id"] == "checkout-42"
    game = created.json()
    own = client.get("/healthz").headers["x-request-id"]
    assert re.fullmatch(r"[0-9a-f]{16}", own)
    refused = client.get("/api/games/x", headers={"X-Request-ID": "not a usable id!"})
    assert refused.headers["x-request-id"] != "not a usable id!"
    play_out(client, game)
    lines = [json.loads(line) for line in json_lines]
    made = next(line for line in lines if "created" in line["message"])
    assert made["request"] == "checkout-42" and game["id"] in made["message"]
    assert made["level"] == "INFO" and made["logger"] == "hisss.server"
    finished = next(line for line in lines if "finished" in line["message"])
    assert finished["game"] == game["id"]


def test_a_live_view_writes_the_snakes_as_a_fresh_view_does(make_client: Client) -> None:
    client = make_client()
    game = new_game(client, ALA, OLEK)
    service = client.app.app.state.service  # type: ignore[attr-defined]
    rng = random.Random(4)
    bot = make_bot("easy")
    with (
        client.websocket_connect(game["websocket"]) as one,
        client.websocket_connect(game["websocket"]) as two,
    ):
        state = hello(one, game["seats"][0]["token"])
        hello(two, game["seats"][1]["token"])
        sockets = {1: one, 2: two}
        claims = 0
        while state["phase"] != "over":
            step: dict[str, Any] = {"type": "draw", "version": state["version"]}
            if state["phase"] == "place":
                position = service._live[game["id"]].state
                step = {**step, "type": "play", "action": str(bot.choose(position, rng))}
            sockets[state["to_move"]].send_json(step)
            version = state["version"] + 1
            state = state_where(one, newer_than(version - 1))
            state_where(two, newer_than(version - 1))
            position = service._live[game["id"]].state
            fresh = table_view(position, position.result())
            assert (state["table"], state["pits"]) == (fresh["table"], fresh["pits"])
            assert state["table"] == [str(snake) for snake in position.table]
            claims += bool(state["last_event"].get("claimed"))
    assert claims > 0  # snakes left the table for the pits along the way
