"""The websocket protocol in process: playing, watching, reconnecting, away players, and every
kind of bad input getting its error while nothing changes."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, cast

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocket, WebSocketDisconnect

from hisss.server import GameService, Settings
from hisss.server.protocol import CLIENT_TYPES
from hisss.server.session import (
    CLOSE_AUTH_FAILED,
    CLOSE_HELLO_TIMEOUT,
    CLOSE_UNKNOWN_GAME,
    MAX_OUTBOX,
    ConnectionState,
    Session,
)
from hisss.server.setup import token_hash
from support.web import ALA, BOT, OLEK, expect, hello, new_game, receive, state_where

Client = Callable[..., TestClient]


@pytest.fixture
def client(make_client: Client) -> TestClient:
    return make_client()


def test_a_whole_game_against_a_bot(client: TestClient) -> None:
    game = new_game(client, ALA, BOT)
    with client.websocket_connect(game["websocket"]) as ws:
        ws.send_json({"type": "hello", "token": game["seats"][0]["token"]})
        welcome = expect(ws, "welcome", role="seat", seat=1, protocol=1, deck_size=50)
        assert welcome["rules"]["scoring"] == "cards"
        versions = []
        acted = -1
        hisss = 0
        while True:
            state = receive(ws)
            assert state["type"] == "state", state
            versions.append(state["version"])
            hisss += bool(state["last_event"] and state["last_event"].get("hisss"))
            if state["phase"] == "over":
                break
            if state["to_move"] != 1 or state["version"] == acted:
                continue
            acted = state["version"]
            if state["phase"] == "draw":
                assert state["drawn"] is None and state["legal"] == []
                ws.send_json({"type": "draw", "version": acted, "pick": 3})
            else:
                assert state["drawn"] and state["legal"]
                ws.send_json({"type": "play", "version": acted, "action": state["legal"][-1]})
    assert versions == sorted(versions) and versions[-1] == 99
    assert state["result"]["explanation"] and state["cards_left"] == 0
    assert (
        sum(s["cards"] for s in state["scores"]) + sum(len(t.split()) for t in state["table"]) == 50
    )
    assert hisss == sum(s["snakes"] for s in state["scores"])


def test_every_bad_message_gets_an_error_and_changes_nothing(client: TestClient) -> None:
    game = new_game(client, ALA, OLEK)
    token = game["seats"][0]["token"]
    with client.websocket_connect(game["websocket"]) as ws:
        ws.send_json({"type": "draw", "version": 1})
        expect(ws, "error", code="not_authenticated", request="draw")
        ws.send_json({"type": "hello", "token": "forged-" + token[7:]})
        expect(ws, "error", code="bad_token")
        ws.send_json({"type": "hello", "token": token_hash(token)})
        expect(ws, "error", code="bad_token")
        ws.send_text('{"type": "hello", "token": "\\ud800' + token[1:] + '"}')  # not Unicode
        expect(ws, "error", code="bad_token")
        ws.send_json({"type": "hello"})
        expect(ws, "error", code="bad_message")
        ws.send_json({"type": "ping", "data": "before hello"})
        expect(ws, "pong", data="before hello")
        state = hello(ws, token)
        version = state["version"]
        cases: list[tuple[Any, str]] = [
            ("not json", "bad_json"),
            ('{"type": "ping", "data": NaN}', "bad_json"),  # Python reads it; JSON has no NaN
            ('{"type": "draw", "version": -Infinity}', "bad_json"),
            ("[1, 2]", "bad_message"),
            ('{"no": "type"}', "bad_message"),
            ('{"type": 7}', "bad_message"),
            ('{"type": "dance"}', "unknown_type"),
            ({"type": "hello", "token": token}, "already_authenticated"),
            ({"type": "draw"}, "bad_message"),
            ({"type": "draw", "version": "1"}, "bad_message"),
            ({"type": "draw", "version": version, "pick": "left"}, "bad_message"),
            ({"type": "play", "version": version, "action": "new"}, "wrong_phase"),
            ({"type": "play", "version": version}, "bad_message"),
            ({"type": "draw", "version": version - 1}, "stale_version"),
            ({"type": "replace_with_bot", "seat": 2}, "seat_not_away"),
            ({"type": "replace_with_bot", "seat": "two"}, "bad_message"),
            ({"type": "replace_with_bot", "seat": 2, "level": 5}, "bad_level"),
            ({"type": "take_seat"}, "not_a_person"),
            ("x" * 5000, "too_large"),
            (b"\x00binary", "bad_message"),
        ]
        for payload, code in cases:
            if isinstance(payload, bytes):
                ws.send_bytes(payload)
            else:
                ws.send_text(payload if isinstance(payload, str) else json.dumps(payload))
            error = expect(ws, "error", code=code)
            assert error["message"], error
        ws.send_json({"type": "draw", "version": version})
        drawn = state_where(ws, lambda s: s["version"] == version + 1)
        assert drawn["phase"] == "place"
        for payload, code in [
            ({"type": "play", "version": version + 1, "action": "9R"}, "illegal_action"),
            ({"type": "play", "version": version + 1, "action": "up"}, "bad_action"),
            ({"type": "play", "version": version + 1, "action": ["new"]}, "bad_message"),
            ({"type": "draw", "version": version + 1}, "wrong_phase"),
        ]:
            ws.send_json(payload)
            error = expect(ws, "error", code=code)
            if code == "illegal_action":
                assert error["legal"] == drawn["legal"]
        # A step out of turn, by the other seat:
        with client.websocket_connect(game["websocket"]) as other:
            hello(other, game["seats"][1]["token"])
            other.send_json({"type": "play", "version": version + 1, "action": drawn["legal"][0]})
            expect(other, "error", code="not_your_turn")
            fresh = receive(other)
            assert fresh["type"] == "state" and fresh["version"] == version + 1
        ws.send_json({"type": "sync"})
        now = state_where(ws, lambda s: True)
        assert now["version"] == version + 1 and now["drawn"] == drawn["drawn"]
    entries = client.get(f"/api/games/{game['id']}/record?partial=true").json()
    assert len(entries["turns"]) == 0 and len(entries["cards"]) == 2


def test_a_stale_step_gets_the_fresh_state(client: TestClient) -> None:
    game = new_game(client, ALA, OLEK)
    with client.websocket_connect(game["websocket"]) as ws:
        state = hello(ws, game["seats"][0]["token"])
        ws.send_json({"type": "draw", "version": state["version"]})
        ws.send_json({"type": "draw", "version": state["version"]})  # a double click
        after = state_where(ws, lambda s: s["version"] == state["version"] + 1)
        error = expect(ws, "error", code="stale_version")
        assert "fresh state" in error["message"]
        fresh = receive(ws)
        assert fresh["type"] == "state" and fresh["version"] == after["version"]


def test_the_fresh_state_after_a_refusal_is_the_newest(client: TestClient) -> None:
    """The state sent after a refusal is the game's current one, even when the server's copy of
    the game was rebuilt since the connection said hello (here: someone joined)."""
    game = new_game(client, ALA, {"kind": "person", "open": True})
    with client.websocket_connect(game["websocket"]) as ws:
        assert hello(ws, game["seats"][0]["token"])["status"] == "open"
        with client.websocket_connect(game["websocket"]) as watcher:
            client.post(f"/api/games/{game['code']}/join", json={"name": "Olek"})
            assert hello(watcher, None)["status"] == "running"  # a spectator arriving later
            started = state_where(ws, lambda s: s["phase"] == "draw")
            ws.send_json({"type": "draw", "version": 0})
            expect(ws, "error", code="stale_version")
            fresh = receive(ws)
            assert fresh["type"] == "state"
            assert (fresh["status"], fresh["version"]) == ("running", started["version"])


def test_unknown_games_are_closed(client: TestClient) -> None:
    with client.websocket_connect("/ws/games/NOSUCH") as ws:
        expect(ws, "error", code="unknown_game")
        with pytest.raises(WebSocketDisconnect) as info:
            receive(ws)
        assert info.value.code == CLOSE_UNKNOWN_GAME


def test_reload_mid_game_carries_on(client: TestClient) -> None:
    game = new_game(client, ALA, OLEK)
    ala, olek = (s["token"] for s in game["seats"])
    with client.websocket_connect(game["websocket"]) as watcher:
        hello(watcher, olek)
        with client.websocket_connect(game["websocket"]) as ws:
            state = hello(ws, ala)
            ws.send_json({"type": "draw", "version": state["version"]})
            drawn = state_where(ws, lambda s: s["phase"] == "place")
        gone = state_where(watcher, lambda s: not s["seats"][0]["connected"])
        assert gone["seats"][0]["away_seconds"] is not None
        # The page reloads: a new connection with the same token gets the current state.
        with client.websocket_connect(game["websocket"]) as ws:
            again = hello(ws, ala)
            assert again["version"] == drawn["version"] and again["drawn"] == drawn["drawn"]
            ws.send_json({"type": "play", "version": again["version"], "action": again["legal"][0]})
            played = state_where(ws, lambda s: s["version"] == again["version"] + 1)
            assert played["to_move"] == 2
        seen = state_where(watcher, lambda s: s["version"] == played["version"])
        assert seen["table"] == played["table"]


def test_two_connections_of_one_seat_cannot_both_step(client: TestClient) -> None:
    game = new_game(client, ALA, OLEK)
    token = game["seats"][0]["token"]
    with (
        client.websocket_connect(game["websocket"]) as one,
        client.websocket_connect(game["websocket"]) as two,
    ):
        state = hello(one, token)
        hello(two, token)
        one.send_json({"type": "draw", "version": state["version"]})
        two.send_json({"type": "draw", "version": state["version"]})
        expect(two, "error", code="stale_version")
        assert state_where(one, lambda s: s["version"] == state["version"] + 1)["phase"] == "place"


def test_an_away_player_is_replaced_by_a_bot_and_comes_back(make_client: Client) -> None:
    client = make_client(away_seconds=0, unseen_seconds=0)
    game = new_game(client, ALA, OLEK)
    ala, olek = (s["token"] for s in game["seats"])
    with client.websocket_connect(game["websocket"]) as ws:
        state = hello(ws, ala)
        ws.send_json({"type": "replace_with_bot", "seat": 1})
        expect(ws, "error", code="bad_message")  # not one's own seat
        ws.send_json(
            {"type": "replace_with_bot", "seat": 2, "level": "hard", "version": state["version"]}
        )
        replaced = state_where(ws, lambda s: s["seats"][1]["kind"] == "bot")
        assert replaced["last_event"] == {
            "seq": replaced["version"],
            "kind": "bot",
            "seat": 2,
            "level": "hard",
            "by": 1,
        }
        ws.send_json({"type": "draw", "version": replaced["version"]})
        placed = state_where(ws, lambda s: s["phase"] == "place")
        ws.send_json({"type": "play", "version": placed["version"], "action": placed["legal"][0]})
        # The bot plays seat 2's turn: a draw and a placement.
        back = state_where(ws, lambda s: s["to_move"] == 1 and s["phase"] == "draw")
        assert back["version"] == placed["version"] + 3
        with client.websocket_connect(game["websocket"]) as returning:
            hello(returning, olek)
            returning.send_json({"type": "draw", "version": back["version"]})
            expect(returning, "error", code="seat_is_bot")
            returning.send_json({"type": "take_seat"})
            mine = state_where(returning, lambda s: s["seats"][1]["kind"] == "person")
            assert mine["last_event"]["kind"] == "person"


def test_no_hello_in_time_or_too_many_bad_tokens_close(make_client: Client) -> None:
    client = make_client(hello_timeout=0.2, max_hello_failures=2)
    game = new_game(client, ALA, BOT)
    with (
        client.websocket_connect(game["websocket"]) as ws,
        pytest.raises(WebSocketDisconnect) as info,
    ):
        receive(ws)
    assert info.value.code == CLOSE_HELLO_TIMEOUT
    with client.websocket_connect(game["websocket"]) as ws:
        ws.send_json({"type": "hello", "token": "guess-1"})
        expect(ws, "error", code="bad_token")
        ws.send_json({"type": "hello", "token": "guess-2"})
        with pytest.raises(WebSocketDisconnect) as info:
            receive(ws)
        assert info.value.code == CLOSE_AUTH_FAILED


def connection_of(session: Session) -> ConnectionState:
    return session.connection


def test_a_client_that_reads_too_slowly_is_dropped() -> None:
    session = Session(cast(WebSocket, None), cast(GameService, None), Settings(database="x"))
    for number in range(MAX_OUTBOX):
        session.deliver({"type": "state", "version": number})
    assert connection_of(session) is ConnectionState.HELLO
    session.deliver({"type": "state", "version": MAX_OUTBOX})
    assert connection_of(session) is ConnectionState.CLOSED
    assert session.outbox.qsize() == MAX_OUTBOX + 1
    session.deliver({"type": "state"})
    assert session.outbox.qsize() == MAX_OUTBOX + 1
    # Answers to the client's own messages (a pong, an error) count too: a client that sends
    # pings and never reads cannot grow the queue without end.
    session = Session(cast(WebSocket, None), cast(GameService, None), Settings(database="x"))
    for number in range(MAX_OUTBOX + 10):
        session.send({"type": "pong", "data": number})
    assert connection_of(session) is ConnectionState.CLOSED
    assert session.outbox.qsize() == MAX_OUTBOX + 1


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.text(st.characters(categories=["Cs", "Cc", "Lo"]), max_size=4),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
_FIELDS = ("version", "action", "seat", "level", "pick", "token", "role", "data")
_GARBAGE = st.one_of(
    st.text(max_size=60),
    st.binary(max_size=60),
    _JSON.map(json.dumps),
    st.text(alphabet='{}[]":,01 tnuefalsNI', max_size=40),
    st.builds(
        lambda kind, fields: json.dumps({"type": kind, **fields}),
        st.sampled_from(CLIENT_TYPES) | st.text(max_size=10) | _JSON,
        st.dictionaries(st.sampled_from(_FIELDS), _JSON | st.sampled_from(["new", "1R", "2L:red"])),
    ),
    st.integers(min_value=4097, max_value=6000).map(lambda n: json.dumps({"type": "x" * n})),
    st.sampled_from(["NaN", "Infinity", "-Infinity"]).map(
        lambda word: f'{{"type": "ping", "data": {word}}}'
    ),
)


def _no_constant(word: str) -> object:
    raise ValueError(word)


def _changes_something(payload: str | bytes, version: int) -> bool:
    """The few well-formed messages that act or answer without an error (kept out)."""
    try:
        message = json.loads(payload, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return False
    if not isinstance(message, dict):
        return False
    kind = message.get("type")
    if kind in ("ping", "sync"):
        return True
    pick = message.get("pick")
    return (
        kind == "draw"
        and type(message.get("version")) is int
        and message["version"] == version
        and (pick is None or type(pick) is int)
    )


def test_garbage_never_changes_a_game_and_always_gets_an_error(make_client: Client) -> None:
    """Whatever a seated client sends that is not a well-formed step it may take gets an error
    reply; the game's log stays as it was and the connection stays open."""
    client = make_client(rate_burst=100_000, abuse_limit=100_000)
    game = new_game(client, ALA, OLEK)
    with client.websocket_connect(game["websocket"]) as ws:
        state = hello(ws, game["seats"][0]["token"])
        version = state["version"]
        replies: list[str] = []

        @settings(
            max_examples=150,
            deadline=None,
            suppress_health_check=[HealthCheck.function_scoped_fixture],
        )
        @given(_GARBAGE)
        def send_garbage(payload: str | bytes) -> None:
            if _changes_something(payload, version):
                return
            if isinstance(payload, bytes):
                ws.send_bytes(payload)
            else:
                ws.send_text(payload)
            reply = receive(ws)
            while reply["type"] == "state":  # the fresh state after some refusals
                assert reply["version"] == version, reply
                reply = receive(ws)
            assert reply["type"] == "error" and reply["code"] and reply["message"], reply
            replies.append(reply["code"])

        send_garbage()
        assert {"bad_json", "bad_message", "too_large"} <= set(replies)
        now = client.get(f"/api/games/{game['id']}/state").json()
        assert (now["version"], now["phase"]) == (version, "draw")
        ws.send_json({"type": "draw", "version": version})
        assert state_where(ws, lambda s: s["version"] == version + 1)["phase"] == "place"
