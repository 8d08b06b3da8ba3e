"""Security, a test for each point; a few live with the API's, fuzzing and subprocess tests
and are named here (``ELSEWHERE``), and ``test_every_point_is_tested`` checks they exist.

- Seat tokens are unguessable: 32 characters from ``secrets.token_urlsafe`` (192 random bits),
  all different: ``test_tokens_come_from_secrets_and_are_long_and_distinct``; forged and
  near-miss tokens never seat anyone: ``test_forged_tokens_never_seat_anyone``
  (``test_fuzz_websocket.py``); guessing closes the connection:
  ``test_no_hello_in_time_or_too_many_bad_tokens_close`` (``test_websocket.py``).
- A token is sent only to its holder, never in a state, lobby, summary, record or log line:
  ``test_a_token_reaches_its_holder_only``.
- Spectators cannot act: ``test_spectators_watch_and_cannot_act``.
- Message size and rate limits per connection:
  ``test_oversized_messages_again_and_again_close_the_connection``,
  ``test_floods_are_rate_limited_then_closed``, ``test_limits_are_per_connection``; HTTP bodies
  and requests per address: ``test_malformed_and_oversized_bodies`` and
  ``test_too_many_requests_from_one_address`` (``test_api.py``).
- The websocket origin is checked: ``test_websockets_from_other_sites_are_closed``; HTTP:
  ``test_requests_from_other_sites_are_refused`` (``test_api.py``).
- Logs never hold tokens: ``test_no_token_or_hash_in_the_logs`` (in process, everything logged at
  DEBUG) and ``test_a_killed_server_continues_every_game_after_restart`` (``test_serve.py``, the
  real server's whole output); a token in an address is refused and hidden in a real access
  log: ``test_no_token_reaches_the_access_log`` (``test_hostile.py``).
- Hostile clients cannot take the server down (deadlines, caps per address and in all, clients
  that never read, hint floods, forged forwarded headers, foreign hosts):
  ``test_the_server_stays_up_under_hostile_clients`` (``test_hostile.py``, a real server with a
  lowered open-file limit); in process,
  ``test_a_foreign_host_gets_400_and_the_bound_names_are_the_default``,
  ``test_forwarded_headers_count_only_from_trusted_proxies``,
  ``test_connections_per_address_and_spectators_per_game_are_capped``,
  ``test_sync_and_hints_have_budgets`` and ``test_a_bot_takes_the_pace_whatever_it_thinks``
  (``test_hardening.py``).
- Names cannot hide text or drive a terminal:
  ``test_uploads_and_replay_refuse_hidden_characters_and_print_none`` (``test_hardening.py``).
"""

from __future__ import annotations

import ast
import json
import logging
import secrets
import string
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from hisss.server.session import CLOSE_FORBIDDEN_ORIGIN, CLOSE_RATE_LIMITED, CLOSE_TOO_LARGE
from hisss.server.setup import token_hash
from support.web import ALA, BOT, expect, hello, new_game, receive, state_where

Client = Callable[..., TestClient]
TESTS = Path(__file__).parent


@pytest.fixture
def client(make_client: Client) -> TestClient:
    return make_client()


def test_tokens_come_from_secrets_and_are_long_and_distinct(
    make_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[int] = []
    real = secrets.token_urlsafe

    def recording(nbytes: int) -> str:
        drawn.append(nbytes)
        token: str = real(nbytes)
        return token

    monkeypatch.setattr(secrets, "token_urlsafe", recording)  # the module the service uses
    client = make_client(http_rate_per_second=0.0)
    tokens = []
    for _ in range(40):
        game = new_game(client, ALA, {"kind": "person", "name": "Olek"}, BOT)
        tokens += [seat["token"] for seat in game["seats"] if seat["kind"] == "person"]
    assert drawn == [24] * len(tokens), "every token is 24 bytes (192 bits) from secrets"
    alphabet = set(string.ascii_letters + string.digits + "-_")
    assert all(len(token) == 32 and set(token) <= alphabet for token in tokens)
    assert len(set(tokens)) == len(tokens)
    assert len({token[:8] for token in tokens}) == len(tokens), "no shared prefixes"


def _after(ws: WebSocketTestSession, version: int) -> dict[str, Any]:
    """The next state newer than ``version``."""
    return state_where(ws, lambda state: state["version"] > version)


def test_a_token_reaches_its_holder_only(client: TestClient) -> None:
    """A game with a reserved seat, a joined open seat and a spectator, played a while: every
    message each connection gets and every public answer hold no token but the holder's own."""
    game = new_game(client, ALA, {"kind": "person", "open": True}, BOT)
    creator_token = game["seats"][0]["token"]
    assert "token" not in game["seats"][1] and "token" not in game["seats"][2]
    joined = client.post(f"/api/games/{game['code']}/join", json={"name": "Olek"}).json()
    joiner_token = joined["token"]
    secrets_of = {1: creator_token, 2: joiner_token}
    received: dict[str, list[str]] = {"1": [], "2": [], "watcher": []}
    with (
        client.websocket_connect(game["websocket"]) as one,
        client.websocket_connect(game["websocket"]) as two,
        client.websocket_connect(game["websocket"]) as watcher,
    ):
        for ws, token in ((one, creator_token), (two, joiner_token), (watcher, None)):
            hello(ws, token)
        sockets = {"1": one, "2": two, "watcher": watcher}
        state = client.get(f"/api/games/{game['id']}/state").json()
        for _ in range(12):  # six turns of the two people (and the bot's)
            seat = state["to_move"]
            if seat == 3:
                state = _after(one, state["version"])
                continue
            ws = sockets[str(seat)]
            ws.send_json({"type": "draw", "version": state["version"]})
            drawn = _after(ws, state["version"])
            ws.send_json({"type": "play", "version": drawn["version"], "action": drawn["legal"][0]})
            state = _after(ws, drawn["version"])
        for name, ws in sockets.items():
            ws.send_json({"type": "sync"})
            while True:
                message = receive(ws)
                received[name].append(json.dumps(message))
                if message["type"] == "state" and message["version"] == state["version"]:
                    break
    public = [
        client.get("/api/games").text,
        client.get(f"/api/games/{game['id']}").text,
        client.get(f"/api/games/{game['code']}/state").text,
        client.get(f"/api/games/{game['id']}/record?partial=true").text,
        client.get("/api/options").text,
    ]
    everything_public = "\n".join(public + received["watcher"])
    for seat, token in secrets_of.items():
        assert token not in everything_public and token_hash(token) not in everything_public
        other = received["2" if seat == 1 else "1"]
        assert token not in "\n".join(other), f"seat {seat}'s token reached another seat"
        assert token not in "\n".join(received[str(seat)]), "not even echoed to its holder"


def test_limits_are_per_connection(make_client: Client) -> None:
    """One connection flooding uses up its own allowance, not another's."""
    client = make_client(rate_burst=3, rate_per_second=0.01, abuse_limit=100)
    game = new_game(client, ALA, BOT)
    with (
        client.websocket_connect(game["websocket"]) as flood,
        client.websocket_connect(game["websocket"]) as calm,
    ):
        for _ in range(3):
            flood.send_json({"type": "ping"})
            expect(flood, "pong")
        flood.send_json({"type": "ping"})
        expect(flood, "error", code="rate_limited")
        for _ in range(3):
            calm.send_json({"type": "ping"})
            expect(calm, "pong")


#: The security tests kept with the API's and the subprocess tests, by file.
ELSEWHERE = {
    "test_api.py": (
        "test_malformed_and_oversized_bodies",
        "test_too_many_requests_from_one_address",
        "test_requests_from_other_sites_are_refused",
    ),
    "test_websocket.py": ("test_no_hello_in_time_or_too_many_bad_tokens_close",),
    "test_fuzz_websocket.py": ("test_forged_tokens_never_seat_anyone",),
    "test_serve.py": ("test_a_killed_server_continues_every_game_after_restart",),
    "test_hostile.py": (
        "test_no_token_reaches_the_access_log",
        "test_the_server_stays_up_under_hostile_clients",
    ),
    "test_hardening.py": (
        "test_a_foreign_host_gets_400_and_the_bound_names_are_the_default",
        "test_forwarded_headers_count_only_from_trusted_proxies",
        "test_connections_per_address_and_spectators_per_game_are_capped",
        "test_sync_and_hints_have_budgets",
        "test_a_bot_takes_the_pace_whatever_it_thinks",
        "test_uploads_and_replay_refuse_hidden_characters_and_print_none",
    ),
}


def test_every_point_is_tested() -> None:
    """The tests named in this module's docstring exist."""
    for name, tests in ELSEWHERE.items():
        tree = ast.parse((TESTS / name).read_text(encoding="utf-8"))
        defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
        assert set(tests) <= defined, (name, set(tests) - defined)


def test_spectators_watch_and_cannot_act(client: TestClient) -> None:
    game = new_game(client, ALA, BOT)
    with client.websocket_connect(f"/ws/games/{game['code']}") as watcher:
        watcher.send_json({"type": "hello", "role": "spectator"})
        expect(watcher, "welcome", role="spectator", seat=None)
        state = state_where(watcher, lambda s: True)
        for message in (
            {"type": "draw", "version": state["version"]},
            {"type": "play", "version": state["version"], "action": "new"},
            {"type": "replace_with_bot", "seat": 1},
            {"type": "take_seat"},
        ):
            watcher.send_json(message)
            expect(watcher, "error", code="spectator")
        with client.websocket_connect(game["websocket"]) as player:
            hello(player, game["seats"][0]["token"])
            # The starter is stored and the player is there: the player's draw is next.
            seen = state_where(
                watcher, lambda s: s["seats"][0]["connected"] and s["phase"] == "draw"
            )
            player.send_json({"type": "draw", "version": seen["version"]})
            moved = state_where(watcher, lambda s: s["version"] > seen["version"])
            assert moved["last_event"]["kind"] == "draw" and moved["last_event"]["seat"] == 1


def test_oversized_messages_again_and_again_close_the_connection(make_client: Client) -> None:
    client = make_client(abuse_limit=3)
    game = new_game(client, ALA, BOT)
    with client.websocket_connect(game["websocket"]) as ws:
        for _ in range(2):
            ws.send_text("y" * 4097)
            expect(ws, "error", code="too_large")
        ws.send_text("y" * 4097)
        with pytest.raises(WebSocketDisconnect) as info:
            while True:
                receive(ws)
        assert info.value.code == CLOSE_TOO_LARGE


def test_floods_are_rate_limited_then_closed(make_client: Client) -> None:
    client = make_client(rate_burst=5, rate_per_second=0.01, abuse_limit=10)
    game = new_game(client, ALA, BOT)
    with client.websocket_connect(game["websocket"]) as ws:
        for _ in range(5):
            ws.send_json({"type": "ping"})
            expect(ws, "pong")
        ws.send_json({"type": "ping"})
        expect(ws, "error", code="rate_limited")
        for _ in range(9):
            ws.send_json({"type": "ping"})
        with pytest.raises(WebSocketDisconnect) as info:
            while True:
                receive(ws)
        assert info.value.code == CLOSE_RATE_LIMITED


def test_no_token_or_hash_in_the_logs(client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    game = new_game(client, ALA, {"kind": "person", "open": True}, BOT)
    joined = client.post(f"/api/games/{game['code']}/join", json={"name": "Olek"}).json()
    tokens = [game["seats"][0]["token"], joined["token"]]
    with client.websocket_connect(game["websocket"]) as ws:
        state = hello(ws, tokens[0])
        ws.send_json({"type": "hello", "token": tokens[1]})
        ws.send_json({"type": "draw", "version": state["version"]})
        state_where(ws, lambda s: s["phase"] == "place")
    assert "game" in caplog.text  # the server did log
    for token in tokens:
        assert token not in caplog.text and token_hash(token) not in caplog.text


def test_websockets_from_other_sites_are_closed(client: TestClient) -> None:
    game = new_game(client, ALA, BOT)
    with client.websocket_connect(
        game["websocket"], headers={"origin": "https://evil.example"}
    ) as ws:
        expect(ws, "error", code="forbidden_origin")
        with pytest.raises(WebSocketDisconnect) as info:
            receive(ws)
        assert info.value.code == CLOSE_FORBIDDEN_ORIGIN
    with client.websocket_connect(game["websocket"], headers={"origin": "http://testserver"}) as ws:
        hello(ws, None)
