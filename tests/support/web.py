"""The in-process server as the web tests talk to it: creating games over the API, and the
websocket's messages read with a deadline, checked, and played through.

The websocket helpers work on Starlette's ``WebSocketTestSession`` (``client.websocket_connect``);
:func:`receive` never hangs a test: it fails after its timeout.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import anyio
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from hisss.server import GameService
from hisss.server.protocol import SERVER_MESSAGES
from support.waiting import wait_until, wait_until_async

#: Seat specifications of the API.
ALA = {"kind": "person", "name": "Ala"}
OLEK = {"kind": "person", "name": "Olek"}
BOT = {"kind": "bot", "level": "medium"}


def new_game(client: TestClient, *seats: dict[str, Any]) -> dict[str, Any]:
    """Create a game with these seats; the API's answer (its links and seat tokens)."""
    response = client.post("/api/games", json={"seats": list(seats)})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def answer_when(
    client: TestClient, path: str, test: Callable[[dict[str, Any]], bool], *, what: str
) -> dict[str, Any]:
    """The JSON answer to ``GET path`` once ``test`` holds for it (asked again until then, for
    what the server does in the background); ``what`` names the wait for its failure."""

    def answer() -> dict[str, Any] | None:
        response = client.get(path)
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data if test(data) else None

    return wait_until(answer, what=what)


def receive(ws: WebSocketTestSession, timeout: float = 10) -> dict[str, Any]:
    """The next message, or a failure after ``timeout`` seconds (never a hung test)."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    ws._raise_on_close(message)
    data: dict[str, Any] = json.loads(message["text"])
    # Every message the server sends is one of the protocol's (hisss.server.protocol).
    SERVER_MESSAGES.validate_python(data)
    return data


def expect(ws: WebSocketTestSession, kind: str, **fields: Any) -> dict[str, Any]:
    """The next message of type ``kind`` (skipping states), checked against ``fields``."""
    while True:
        message = receive(ws)
        if message["type"] == kind:
            for key, value in fields.items():
                assert message[key] == value, message
            return message
        assert message["type"] == "state", message


def state_where(ws: WebSocketTestSession, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The next state for which ``test`` holds (skipping any other message)."""
    while True:
        message = receive(ws)
        if message["type"] == "state" and test(message):
            return message


def follow_log(before: dict[str, Any] | None, state: dict[str, Any]) -> list[dict[str, Any]]:
    """The log of a state sent without one, as a client keeps it (docs/protocol.md): the log of
    the state before it, with its step added when it is the next version and not a draw."""
    assert before is not None, "the first state of a connection carries its log"
    assert state["version"] - before["version"] in (0, 1), (before["version"], state["version"])
    log: list[dict[str, Any]] = before["log"]
    event = state["last_event"]
    if state["version"] == before["version"] + 1 and event["kind"] != "draw":
        return [*log, event]
    return log


def hello(ws: WebSocketTestSession, token: str | None) -> dict[str, Any]:
    """Say hello as the seat of ``token`` (or as a spectator without one); the first state of
    the game once its starter is stored."""
    ws.send_json(
        {"type": "hello", "token": token} if token else {"type": "hello", "role": "spectator"}
    )
    expect(ws, "welcome")
    # A game just created or started may still be storing its starter.
    return state_where(ws, lambda s: s["phase"] != "starting")


def play_out(client: TestClient, game: dict[str, Any]) -> None:
    """Play seat 1 over the websocket, always the first legal action, to the end."""
    token = game["seats"][0]["token"]
    with client.websocket_connect(game["websocket"]) as ws:
        ws.send_json({"type": "hello", "token": token})
        assert ws.receive_json()["type"] == "welcome"
        acted = -1
        while True:
            message = ws.receive_json()
            if message["type"] != "state":
                continue
            if message["phase"] == "over":
                return
            if message["to_move"] != 1 or message["version"] == acted:
                continue
            acted = message["version"]
            if message["phase"] == "draw":
                ws.send_json({"type": "draw", "version": acted})
            else:
                ws.send_json({"type": "play", "version": acted, "action": message["legal"][0]})


async def settled(*services: GameService) -> None:
    """Wait until none of ``services`` is taking steps of its own (bots' moves, the starter):
    every game they drive waits for a person, or is over."""
    await wait_until_async(
        lambda: not any(service.bots_playing for service in services),
        what="the bots to finish their moves",
    )
