"""The hand variant in the web game: games with hands made over the API, each state message built
per seat, and a whole game whose every message to every other seat and to a spectator is checked
never to show a hidden card."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from hisss.bots import levels_for
from hisss.core import RAINBOW, HandState, Rules
from hisss.record import Game, GameRecord, Seat
from hisss.server.errors import ProtocolError
from hisss.server.hands import PRIVATE, for_seats, hand_fields
from hisss.server.replays import check_record, step
from hisss.server.setup import build_spec
from support.web import ALA, BOT, OLEK, expect, receive

Client = Callable[..., TestClient]

#: Every card's text in the rainbow deck; a card in a message is one of these as a whole word.
_CARDS = {str(card) for card in RAINBOW.cards()}
_TOKEN = re.compile(r"(?<![\w:-])[A-Z]:[a-z]+(?:-[a-z]+)*")


def cards_in(value: object) -> Iterator[str]:
    """Every card named anywhere in ``value`` (keys, text, nested lists and objects)."""
    if isinstance(value, str):
        yield from (t for t in _TOKEN.findall(value) if t in _CARDS)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from cards_in(key)
            yield from cards_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from cards_in(item)


@pytest.fixture
def client(make_client: Client) -> TestClient:
    return make_client()


def new_hand_game(
    client: TestClient, *seats: dict[str, Any], device: bool = False, **options: Any
) -> dict[str, Any]:
    body = {"seats": list(seats), "set": {"hand_size": 3, **options}, "device": device}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def test_the_web_game_takes_hands_and_only_the_levels_that_play_them() -> None:
    seats = [Seat.person("A"), Seat.bot("B", "hard")]
    spec = build_spec("classic", {"hand_size": 3}, "rainbow", seats)
    assert spec.rules.hand_size == 3
    assert levels_for(spec.rules) == ("easy", "medium", "hard", "expert")
    assert "gentle" in levels_for(Rules())
    with pytest.raises(ProtocolError, match="level 'gentle' does not play the hand variant"):
        build_spec(
            "classic", {"hand_size": 3}, "rainbow", [Seat.person("A"), Seat.bot("B", "gentle")]
        )
    with pytest.raises(ProtocolError, match="hand_size"):
        build_spec("classic", {"hand_size": 9}, "rainbow", seats)


def test_a_state_keeps_the_hands_of_the_connections_seats_alone() -> None:
    game = Game(Rules(hand_size=3), RAINBOW, [Seat.person("A"), Seat.person("B")], seed=4)
    while game.state.is_chance_node():
        game.draw()
    message = {"type": "state", **hand_fields(game, playing=True)}
    mover = game.to_move
    assert mover is not None
    other = 1 - mover
    mine = for_seats(message, (mover,))
    theirs = for_seats(message, (other,))
    watching = for_seats(message, ())
    assert PRIVATE not in mine and PRIVATE not in theirs and PRIVATE not in watching
    assert mine["hands"][mover] == [str(c) for c in game.view(mover).hand]
    assert mine["hands"][other] is None and theirs["hands"][mover] is None
    assert watching["hands"] == [None, None] and watching["hand_sizes"] == [3, 3]
    assert mine["legal"] == [str(a) for a in game.legal_actions()]
    assert theirs["legal"] == [] and watching["legal"] == [] and watching["claims"] == {}
    both = for_seats(message, (0, 1))  # a game on one device holds every person seat
    assert both["hands"] == [[str(c) for c in game.view(s).hand] for s in (0, 1)]


def _state_at(record: GameRecord, version: int) -> Game:
    """The game of the finished ``record`` after ``version`` steps of its log (the starter, the
    deal, each play and each draw; no seat changed hands)."""
    game = Game(
        record.rules,
        record.deck,
        [Seat.person(n) for n in record.seats],
        cards=[c for c in record.cards if c is not None],
    )
    turns = iter(record.turns)
    for _ in range(version):
        if game.state.is_chance_node():
            game.draw()
        else:
            turn = next(turns)
            game.play(turn.card, turn.action)
    return game


def _listen(ws: WebSocketTestSession, token: str | None, into: list[dict[str, Any]]) -> None:
    ws.send_json(
        {"type": "hello", "token": token} if token else {"type": "hello", "role": "spectator"}
    )
    into.append(expect(ws, "welcome"))


def test_no_message_of_a_whole_game_shows_another_seats_hidden_card(client: TestClient) -> None:
    game = new_hand_game(client, ALA, OLEK, BOT)
    tokens = [seat["token"] for seat in game["seats"][:2]]
    heard: dict[str, list[dict[str, Any]]] = {"ala": [], "olek": [], "spectator": []}
    url = game["websocket"]
    with (
        client.websocket_connect(url) as ala,
        client.websocket_connect(url) as olek,
        client.websocket_connect(url) as spectator,
    ):
        _listen(ala, tokens[0], heard["ala"])
        _listen(olek, tokens[1], heard["olek"])
        _listen(spectator, None, heard["spectator"])
        partial = client.get(f"/api/games/{game['code']}/record", params={"partial": True})
        assert partial.status_code == 409 and "token" in partial.json()["error"]["message"]
        listeners = {"ala": (ala, 1), "olek": (olek, 2), "spectator": (spectator, None)}
        _play_out(client, game, tokens[0], listeners, heard)
    record = GameRecord.from_json(client.get(f"/api/games/{game['code']}/record").text)
    assert record.result is not None and None not in record.cards
    own = {"ala": {0}, "olek": {1}, "spectator": set(), "record": {0}}
    checked = 0
    for name, messages in heard.items():
        for message in messages:
            assert PRIVATE not in message
            if "cards" in message:  # the record so far, asked by seat 1
                _check_partial_record(message, record)
            elif message.get("type") == "state" and message["phase"] != "over":
                _check_state_hides_hands(message, record, own[name], name)
                checked += 1
    assert checked > 100


def _play_out(
    client: TestClient,
    game: dict[str, Any],
    token: str,
    listeners: dict[str, tuple[Any, int | None]],
    heard: dict[str, list[dict[str, Any]]],
) -> None:
    """Play the game to its end through the listeners' connections (the seats play their last
    legal action), keeping every message each one hears; once, seat 1 (``token``) asks for its
    record so far, kept as ``heard["record"]``."""
    acted: dict[int, int] = {}
    done: set[str] = set()
    deadline = time.monotonic() + 120
    while len(done) < len(listeners):
        assert time.monotonic() < deadline, "the game did not end in two minutes"
        for name, (ws, seat) in listeners.items():
            if name in done:
                continue
            try:  # each connection in turn: one with nothing to read waits its next turn
                state = receive(ws, timeout=0.05)
            except TimeoutError:
                continue
            heard[name].append(state)
            if state["type"] == "state" and state["phase"] == "over":
                done.add(name)
                continue
            if (
                state["type"] != "state"
                or seat is None
                or state["to_move"] != seat
                or state["phase"] != "place"
                or acted.get(seat) == state["version"]
            ):
                continue
            acted[seat] = state["version"]
            assert state["legal"] and all("@" in a for a in state["legal"])
            assert all(a.split("@")[0] in state["hands"][seat - 1] for a in state["legal"])
            ws.send_json(
                {"type": "play", "version": state["version"], "action": state["legal"][-1]}
            )
            if seat == 1 and "record" not in heard:
                mine = client.get(
                    f"/api/games/{game['code']}/record",
                    params={"partial": True},
                    headers={"Authorization": f"Bearer {token}"},
                )
                assert mine.status_code == 200, mine.text
                heard["record"] = [mine.json()]


def _check_partial_record(message: dict[str, Any], record: GameRecord) -> None:
    """Seat 1's record so far shows the starter, its own cards and the cards played only."""
    assert message["cards"][0] == str(record.cards[0])
    for card, hand in zip(message["cards"][1:10], [0, 1, 2] * 3, strict=True):
        assert (card in (None, "?")) is (hand != 0), message["cards"]
    for shown_card, real in zip(message["cards"], record.cards, strict=False):
        assert shown_card in (None, "?", str(real))


def _check_state_hides_hands(
    message: dict[str, Any], record: GameRecord, own: set[int], name: str
) -> None:
    """A state before the end shows the hands of the seats ``own`` only, and names no other
    card that is not public."""
    version = message["version"]
    past = _state_at(record, version)
    for seat, hand in enumerate(message["hands"]):
        if seat in own:
            assert hand == [str(c) for c in past.view(seat).hand]
        else:
            assert hand is None
    assert message["hand_sizes"] == list(past.view(0).hand_sizes)
    # Every card named outside the seat's own fields is public: the starter or a card
    # already played (a copy of a hidden card may be among them, never the hidden one
    # alone).
    public = {str(record.cards[0])} | {str(p.card) for p in past.placements}
    shown = {k: v for k, v in message.items() if k not in ("hands", "legal", "claims")}
    assert set(cards_in(shown)) <= public, (name, version)
    for seat in range(3):
        if seat in own:
            continue
        hands = past.state
        assert isinstance(hands, HandState)
        secret = {str(c) for c in hands.hands[seat]} - public
        assert not secret & set(cards_in(shown)), (name, version, seat)
    held = {str(c) for seat in own for c in past.view(seat).hand}
    assert set(cards_in([message["legal"], message["claims"]])) <= held


def test_a_partial_record_shows_the_askers_hand_alone(client: TestClient) -> None:
    game = new_hand_game(client, ALA, BOT)
    token = game["seats"][0]["token"]
    with client.websocket_connect(game["websocket"]) as ws:
        ws.send_json({"type": "hello", "token": token})
        expect(ws, "welcome")
        while True:
            state = receive(ws)
            if state["type"] == "state" and state["phase"] == "place" and state["to_move"] == 1:
                break
        ws.send_json({"type": "hint"})  # the expert, from this seat's view
        hint = expect(ws, "hint", seat=1)
        assert hint["action"] in state["legal"]
        ws.send_json({"type": "replace_with_bot", "seat": 2, "level": "gentle"})
        expect(ws, "error", code="not_a_person")
        answer = client.get(
            f"/api/games/{game['code']}/record",
            params={"partial": True},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert answer.status_code == 200, answer.text
        data = json.loads(answer.text)
        shown = [c for c in data["cards"] if c not in ("?", None)]
        hidden = [c for c in data["cards"] if c in ("?", None)]
        assert len(hidden) == 3 and len(shown) == 1 + 3
        public = client.get(f"/api/games/{game['code']}/state").json()
        assert public["hands"] == [None, None] and public["legal"] == []
        refused = client.get(
            f"/api/games/{game['code']}/record",
            params={"partial": True},
            headers={"Authorization": "Bearer forged"},
        )
        assert refused.status_code == 403
        in_address = client.get(
            f"/api/games/{game['code']}/record", params={"partial": True, "token": token}
        )
        assert in_address.status_code == 400
        assert "Authorization" in in_address.json()["error"]["message"]
        other_scheme = client.get(
            f"/api/games/{game['code']}/record",
            params={"partial": True},
            headers={"Authorization": f"Basic {token}"},
        )
        assert other_scheme.status_code == 400


def test_on_one_device_both_hands_go_to_the_device_and_none_to_a_spectator(
    client: TestClient,
) -> None:
    game = new_hand_game(client, ALA, OLEK, device=True)
    token = game["seats"][0]["token"]
    with (
        client.websocket_connect(game["websocket"]) as device,
        client.websocket_connect(game["websocket"]) as spectator,
    ):
        device.send_json({"type": "hello", "token": token})
        welcome = expect(device, "welcome")
        assert welcome["seats"] == [1, 2] and welcome["rules"]["hand_size"] == 3
        assert welcome["levels"] == ["easy", "medium", "hard", "expert"]  # gentle plays no hands
        while True:
            state = receive(device)
            if state["type"] == "state" and state["phase"] == "place":
                break
        assert all(len(hand) == 3 for hand in state["hands"])
        spectator.send_json({"type": "hello", "role": "spectator"})
        expect(spectator, "welcome")
        watched = receive(spectator)
        assert watched["hands"] == [None, None] and watched["hand_sizes"] == [3, 3]
        device.send_json({"type": "draw", "version": state["version"]})
        error = expect(device, "error", code="wrong_phase")
        assert "the server deals and fills the hands" in error["message"]


def test_hands_seen_by_all_are_in_every_message(client: TestClient) -> None:
    game = new_hand_game(client, ALA, BOT, hands_seen_by_all=True)
    with client.websocket_connect(game["websocket"]) as spectator:
        spectator.send_json({"type": "hello", "role": "spectator"})
        expect(spectator, "welcome")
        while True:
            state = receive(spectator)
            if state["type"] == "state" and state["phase"] == "place":
                break
        assert [len(hand) for hand in state["hands"]] == [3, 3]


def test_a_hand_record_is_replayed_on_the_web() -> None:
    game = Game(Rules(hand_size=3), RAINBOW, [Seat.person("A"), Seat.person("B")], seed=3)
    while not game.is_over():
        if game.state.is_chance_node():
            game.draw()
        else:
            game.place(game.legal_actions()[0])
    record = check_record(game.record().to_json())
    first = step(record, 0)
    assert [len(hand) for hand in first["hands"]] == [3, 3] and first["to_move"] == 1
    last = step(record, len(record.turns))
    assert last["hands"] == [[], []] and last["result"] is not None
