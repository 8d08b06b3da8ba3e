"""The ways a game is set up and followed in the web game, in process: private and public games
and the lobby's lists, a game on one device, the rematch, the bots' pace, the beginners' help
in the state (claims, the log, the expert's hint), and the longer wait of a seat never opened."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hisss.server import Settings
from hisss.server.hub import LocalHub
from hisss.server.settings import PACES
from support.web import (
    ALA,
    BOT,
    OLEK,
    expect,
    follow_log,
    hello,
    new_game,
    play_out,
    state_where,
)

Client = Callable[..., TestClient]


def create(client: TestClient, *seats: dict[str, Any], **fields: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"seats": list(seats), **fields})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def newer(version: int) -> Callable[[dict[str, Any]], bool]:
    return lambda s: bool(s["version"] > version)


def codes(client: TestClient, status: str) -> list[str]:
    return [g["code"] for g in client.get("/api/games").json()[status]]


def test_games_are_private_unless_made_public(make_client: Client) -> None:
    client = make_client()
    private = create(client, ALA, {"kind": "person", "open": True})
    public = create(client, ALA, {"kind": "person", "open": True}, public=True)
    assert public["public"] and not private["public"]
    assert codes(client, "open") == [public["code"]]
    # A private game is still found by its code and its links.
    assert client.get(f"/api/games/{private['code']}").json()["public"] is False


def test_a_game_nobody_follows_leaves_the_list_of_games_being_played(
    make_client: Client,
) -> None:
    client = make_client(idle_seconds=0)
    game = create(client, ALA, OLEK, public=True)
    assert codes(client, "running") == [], "idle at once, and nobody is connected"
    with client.websocket_connect(game["websocket"]) as ws:
        hello(ws, game["seats"][0]["token"])
        assert codes(client, "running") == [game["code"]], "someone is playing it"
    assert codes(client, "running") == []
    lively = make_client(idle_seconds=3600)
    again = create(lively, ALA, OLEK, public=True)
    assert codes(lively, "running") == [again["code"]], "a recent step keeps it listed"


def test_a_game_on_one_device_is_played_with_one_token(make_client: Client) -> None:
    client = make_client()
    game = create(client, ALA, OLEK, BOT, device=True)
    tokens = {s.get("token") for s in game["seats"]}
    assert game["device"] and tokens - {None} and len(tokens - {None}) == 1
    token = game["seats"][0]["token"]
    with client.websocket_connect(game["websocket"]) as ws:
        ws.send_json({"type": "hello", "token": token})
        welcome = expect(ws, "welcome", role="seat", seat=1, seats=[1, 2])
        assert welcome["unseen_seconds"] > welcome["away_seconds"]
        state = state_where(ws, lambda s: s["phase"] == "draw")
        assert [s["connected"] for s in state["seats"]] == [True, True, True]
        movers = set()
        acted = -1
        while state["turn"] < 9:
            if state["version"] != acted and state["to_move"] in (1, 2):
                acted = state["version"]
                movers.add(state["to_move"])
                if state["phase"] == "draw":
                    ws.send_json({"type": "draw", "version": acted})
                else:
                    ws.send_json({"type": "play", "version": acted, "action": state["legal"][0]})
            state = state_where(ws, lambda s: True)
        assert movers == {1, 2}, "the device plays both people's turns"
        # A seat named explicitly must be one the device holds.
        if not (state["to_move"] in (1, 2) and state["phase"] == "draw"):
            state = state_where(ws, lambda s: s["to_move"] in (1, 2) and s["phase"] == "draw")
        ws.send_json({"type": "draw", "version": state["version"], "seat": 3})
        expect(ws, "error", code="bad_message")
        other = 1 if state["to_move"] == 2 else 2
        ws.send_json({"type": "draw", "version": state["version"], "seat": other})
        expect(ws, "error", code="not_your_turn")
    refused = client.post(
        "/api/games", json={"seats": [ALA, {"kind": "person", "open": True}], "device": True}
    )
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_seats"


def test_the_log_the_claims_and_the_experts_hint(make_client: Client) -> None:
    # The bot answers at once, so this client sends its draws, hints and plays faster than any
    # person could: the rate limits, tested elsewhere, are lifted here.
    client = make_client(
        rate_per_second=1000.0, rate_burst=1000, hint_burst=1000, hint_rate_per_second=1000.0
    )
    game = new_game(client, ALA, BOT)
    with client.websocket_connect(game["websocket"]) as ws:
        state = hello(ws, game["seats"][0]["token"])
        ws.send_json({"type": "hint"})
        expect(ws, "error", code="no_hint")  # nothing drawn yet
        claimed = None
        while claimed is None:
            if state["to_move"] != 1:
                state = state_where(ws, lambda s: s["to_move"] == 1 or s["phase"] == "over")
            assert state["phase"] != "over", "no placement completed a snake in the whole game"
            if state["phase"] == "draw":
                ws.send_json({"type": "draw", "version": state["version"]})
                state = state_where(ws, newer(state["version"]))
                continue
            assert set(state["claims"]) <= set(state["legal"])
            ws.send_json({"type": "hint"})
            hint = expect(ws, "hint", seat=1)
            assert hint["action"] in state["legal"] and hint["quick"] is False
            action = next(iter(state["claims"]), state["legal"][0])
            ws.send_json({"type": "play", "version": state["version"], "action": action})
            after = state_where(ws, newer(state["version"]))
            if action in state["claims"]:
                claimed = after
                size = state["claims"][action]
                assert len(after["last_event"]["claimed"].split()) == size
            else:
                assert after["last_event"]["claimed"] is None
            state = after
        # The answer to sync carries the whole log (the states in between leave it out).
        ws.send_json({"type": "sync"})
        log = state_where(ws, lambda s: "log" in s)["log"]
        assert log[0]["kind"] == "starter" and claimed["last_event"] in log
        assert all(entry["kind"] != "draw" for entry in log)
        assert any(entry["kind"] == "play" and entry["seat"] == 2 for entry in log)


def test_a_state_that_follows_the_last_one_sent_leaves_the_log_out(make_client: Client) -> None:
    """The first state of a connection has the whole log; each following one only its step
    (``last_event``), which the client adds, as the web page does, to the same log as the
    server's own."""
    client = make_client(rate_per_second=1000.0, rate_burst=1000)
    game = new_game(client, ALA, BOT)
    with client.websocket_connect(game["websocket"]) as ws:
        ws.send_json({"type": "hello", "token": game["seats"][0]["token"]})
        expect(ws, "welcome")
        state = state_where(ws, lambda s: True)
        acted = -1
        while state["version"] < 30 and state["phase"] != "over":
            if state["to_move"] == 1 and state["version"] != acted:
                acted = state["version"]
                step = {"type": "draw"} if state["phase"] == "draw" else {"type": "play"}
                if state["phase"] == "place":
                    step["action"] = state["legal"][0]
                ws.send_json({**step, "version": acted})
            message = state_where(ws, lambda s: True)
            assert "log" not in message
            state = {**message, "log": follow_log(state, message)}
        log = state["log"]
        stored = client.get(f"/api/games/{game['id']}/state").json()
        assert stored["version"] >= state["version"]
        assert stored["log"][: len(log)] == log and len(log) > 10
        # A new connection starts with the whole log again.
        with client.websocket_connect(game["websocket"]) as again:
            assert hello(again, game["seats"][0]["token"])["log"][: len(log)] == log


def test_a_solo_rematch_starts_at_once_with_the_seats_moved_round(make_client: Client) -> None:
    client = make_client()
    game = create(client, ALA, {"kind": "bot", "level": "hard"}, pace="fast", public=True)
    token = game["seats"][0]["token"]
    with client.websocket_connect(game["websocket"]) as ws:
        state = hello(ws, token)
        assert state["rematch"] is None and state["pace"] == "fast"
        ws.send_json({"type": "rematch"})
        expect(ws, "error", code="no_rematch")
    play_out(client, game)
    with client.websocket_connect(game["websocket"]) as ws:
        over = hello(ws, token)
        assert over["rematch"] == {"needed": [1], "asked": [], "code": None}
        ws.send_json({"type": "rematch"})
        made = state_where(ws, lambda s: s["rematch"]["code"] is not None)
        ws.send_json({"type": "rematch"})
        expect(ws, "error", code="no_rematch")
    code = made["rematch"]["code"]
    summary = client.get(f"/api/games/{code}").json()
    assert summary["status"] == "running" and summary["pace"] == "fast" and summary["public"]
    # Each rematch gives the first turn to the next seat: the bot, renamed for its new seat,
    # now moves first, and Ala's token holds her new seat.
    assert [(s["kind"], s["name"], s["level"]) for s in summary["seats"]] == [
        ("bot", "Bot 1 (hard)", "hard"),
        ("person", "Ala", None),
    ]
    with client.websocket_connect(f"/ws/games/{code}") as ws:
        ws.send_json({"type": "hello", "token": token})
        expect(ws, "welcome", role="seat", seat=2)


def test_an_online_rematch_starts_when_every_person_asks(make_client: Client) -> None:
    client = make_client()
    game = new_game(client, ALA, OLEK)
    ala, olek = (s["token"] for s in game["seats"])
    with (
        client.websocket_connect(game["websocket"]) as one,
        client.websocket_connect(game["websocket"]) as two,
    ):
        state = hello(one, ala)
        hello(two, olek)
        pages = {1: one, 2: two}
        acted = -1
        while state["phase"] != "over":
            mover = state["to_move"]
            if state["version"] != acted:
                acted = state["version"]
                step: dict[str, Any] = {"type": "draw", "version": acted}
                if state["phase"] == "place":
                    step = {"type": "play", "version": acted, "action": state["legal"][0]}
                pages[mover].send_json(step)
            state = state_where(one, newer(acted))
        one.send_json({"type": "rematch"})
        asked = state_where(one, lambda s: s["rematch"]["asked"] == [1])
        assert asked["rematch"]["code"] is None, "Olek has not said yes yet"
        two.send_json({"type": "rematch"})
        made = state_where(two, lambda s: bool(s["rematch"] and s["rematch"]["code"]))
        assert made["last_event"] == {
            "seq": made["version"],
            "kind": "rematch",
            "code": made["rematch"]["code"],
        }
        assert (
            state_where(one, lambda s: s["rematch"]["code"] is not None)["version"]
            == (made["version"])
        )
    record = client.get(f"/api/games/{game['code']}/record")
    assert record.status_code == 200, "the rematch steps stay out of the game's record"
    code = made["rematch"]["code"]
    # Olek moves first in the rematch: every holder moved one seat round.
    assert [s["name"] for s in client.get(f"/api/games/{code}").json()["seats"]] == ["Olek", "Ala"]
    for token, seat in ((ala, 2), (olek, 1)):
        with client.websocket_connect(f"/ws/games/{code}") as ws:
            ws.send_json({"type": "hello", "token": token})
            expect(ws, "welcome", seat=seat)


def test_the_bots_pace_is_stored_with_the_game_and_refused_when_unknown(
    make_client: Client,
) -> None:
    client = make_client(bot_delay=0.7)
    options = client.get("/api/options").json()
    assert options["paces"] == {"fast": 0.25, "normal": 0.7, "slow": 1.6}
    assert options["paces"]["normal"] <= 0.8
    assert Settings(database="x").step_delay("normal") * 2 <= 0.8
    assert set(PACES) == {"fast", "normal", "slow"}
    slow = create(client, ALA, BOT, pace="slow")
    assert client.get(f"/api/games/{slow['code']}").json()["pace"] == "slow"
    refused = client.post("/api/games", json={"seats": [ALA, BOT], "pace": "warp"})
    assert refused.status_code == 400


def test_a_seat_never_opened_waits_longer_than_one_that_left() -> None:
    clock = [0.0]
    hub = LocalHub(lambda: clock[0])

    class Follower:
        def deliver(self, message: dict[str, Any]) -> None:
            pass

    hub.subscribe("g", Follower())
    hub.connected("g", 0)
    hub.connected("g", 1)
    clock[0] = 5.0
    hub.disconnected("g", 1)
    clock[0] = 9.0
    here, left, never = hub.presence("g", 3)
    assert here.connected and here.arrived
    assert not left.connected and left.arrived and left.away_seconds == 4.0
    assert not never.connected and not never.arrived and never.away_seconds == 9.0


def test_the_away_offer_waits_for_unseen_seconds_on_a_seat_never_opened(
    make_client: Client,
) -> None:
    client = make_client(away_seconds=0, unseen_seconds=3600)
    game = new_game(client, ALA, OLEK)
    with client.websocket_connect(game["websocket"]) as ws:
        state = hello(ws, game["seats"][0]["token"])
        assert state["seats"][1]["arrived"] is False
        ws.send_json({"type": "replace_with_bot", "seat": 2, "version": state["version"]})
        refused = expect(ws, "error", code="seat_not_away")
        assert "3600 s" in refused["message"]
        with client.websocket_connect(game["websocket"]) as olek:
            hello(olek, game["seats"][1]["token"])
        back = state_where(
            ws, lambda s: s["seats"][1]["arrived"] and not s["seats"][1]["connected"]
        )
        ws.send_json({"type": "replace_with_bot", "seat": 2, "version": back["version"]})
        handed = state_where(ws, lambda s: s["seats"][1]["kind"] == "bot")
        assert handed["last_event"]["kind"] == "bot"


def test_the_paces_are_ordered_and_scale_with_the_bot_delay() -> None:
    moves = [Settings(database="x", bot_delay=0.7).step_delay(p) * 2 for p in PACES]
    assert moves == sorted(moves) and moves[1] == pytest.approx(0.7)
    assert Settings(database="x", bot_delay=0).step_delay("slow") == 0


def test_a_device_asks_for_the_rematch_for_all_its_people_at_once(make_client: Client) -> None:
    client = make_client(rate_burst=1000)  # one connection takes every step of the game
    game = create(client, ALA, OLEK, device=True)
    token = game["seats"][0]["token"]
    with client.websocket_connect(game["websocket"]) as ws:
        state = hello(ws, token)
        while state["phase"] != "over":
            step: dict[str, Any] = {"type": "draw", "version": state["version"]}
            if state["phase"] == "place":
                step = {"type": "play", "version": state["version"], "action": state["legal"][0]}
            ws.send_json(step)
            state = state_where(ws, newer(state["version"]))
        assert state["rematch"]["needed"] == [1, 2]
        ws.send_json({"type": "rematch"})
        made = state_where(ws, lambda s: bool(s["rematch"]["code"]))
        assert made["rematch"]["asked"] == [1, 2]
    with client.websocket_connect(f"/ws/games/{made['rematch']['code']}") as ws:
        ws.send_json({"type": "hello", "token": token})
        expect(ws, "welcome", seats=[1, 2])


def test_a_hint_while_the_expert_gets_ready_is_marked_quick(
    make_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The server makes the expert's compiled code ready as it starts; meanwhile the expert answers
    # with careful's placement at once, and the answer says it is a quick one.
    monkeypatch.setattr("hisss.bots.expert.is_warming", lambda: True)
    client = make_client(rate_per_second=1000.0, rate_burst=1000)
    game = new_game(client, ALA, BOT)
    with client.websocket_connect(game["websocket"]) as ws:
        state = hello(ws, game["seats"][0]["token"])
        if state["to_move"] != 1:
            state = state_where(ws, lambda s: s["to_move"] == 1)
        ws.send_json({"type": "draw", "version": state["version"]})
        state = state_where(ws, newer(state["version"]))
        ws.send_json({"type": "hint"})
        hint = expect(ws, "hint", seat=1)
        assert hint["action"] in state["legal"] and hint["quick"] is True
