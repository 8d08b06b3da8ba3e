"""Hostile websocket input, property-based: forged tokens and out-of-order steps, thousands of
messages in all. Each refused message gets an error naming why, nothing is stored for it, and the
connection stays usable; only steps the rules allow (right seat, phase, version, action) are taken.
(Malformed and oversized messages: ``test_websocket.py``, garbage test.)
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import WebSocketTestSession

from hisss.server import Settings, create_app
from support.web import expect, hello, new_game, receive, state_where

PEOPLE = ({"kind": "person", "name": "Ala"}, {"kind": "person", "name": "Olek"})
SLACK = {
    "rate_burst": 1_000_000,
    "abuse_limit": 1_000_000,
    "max_hello_failures": 1_000_000,
    "sync_burst": 1_000_000,
    "lookup_rate_per_second": 0.0,
}
#: Thousands of hostile messages: a long run (see ``support/markers.py``).
pytestmark = pytest.mark.slow


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(
        database=f"sqlite+pysqlite:///{tmp_path / 'fuzz.db'}",
        bot_delay=0.0,
        http_rate_per_second=0.0,
        **SLACK,  # type: ignore[arg-type]
    )
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def _near_misses(token: str) -> st.SearchStrategy[str]:
    """Tokens that are almost ``token``: one character changed, cut, extended, case changed."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    changed = st.tuples(st.integers(0, len(token) - 1), st.sampled_from(alphabet)).map(
        lambda pair: token[: pair[0]] + pair[1] + token[pair[0] + 1 :]
    )
    return st.one_of(
        changed.filter(lambda t: t != token),
        st.integers(0, len(token) - 1).map(lambda n: token[:n]),
        st.text(alphabet, min_size=1, max_size=4).map(lambda extra: token + extra),
        st.just(token.swapcase()),
        st.just(" " + token),
        st.just(token + "\n"),
    )


def test_forged_tokens_never_seat_anyone(client: TestClient) -> None:
    """Two thousand forged hello tokens on one connection: each gets ``bad_token`` and nothing
    else; the connection is still a stranger's, and the real token then works."""
    game = new_game(client, *PEOPLE)
    token = game["seats"][0]["token"]
    other = new_game(client, *PEOPLE)["seats"][0]["token"]
    forged = st.one_of(
        _near_misses(token),
        st.just(other),
        st.text(max_size=64),
        st.builds(lambda: secrets.token_urlsafe(24)),
        st.sampled_from(["", "null", token.upper(), token.lower()]),
    ).filter(lambda t: t != token)
    with client.websocket_connect(game["websocket"]) as ws:
        sent = 0

        @settings(
            max_examples=2000, deadline=None, database=None, suppress_health_check=list(HealthCheck)
        )
        @given(forged)
        def try_token(candidate: str) -> None:
            nonlocal sent
            ws.send_text(json.dumps({"type": "hello", "token": candidate}))
            reply = receive(ws)
            assert reply["type"] == "error" and reply["code"] == "bad_token", reply
            sent += 1

        try_token()
        assert sent >= 1000
        ws.send_json({"type": "draw", "version": 1})
        assert expect(ws, "error")["code"] == "not_authenticated"
        assert hello(ws, token)["phase"] == "draw"


_STEP = st.fixed_dictionaries(
    {
        "who": st.sampled_from(["seat1", "seat2", "watcher"]),
        "type": st.sampled_from(["draw", "play", "take_seat", "replace_with_bot", "sync"]),
        # 4 stands for the current version: most steps are fresh, some old, future or missing.
        "version": st.sampled_from([4, 4, 4, 4, 3, 5, 2, 7, 0, None]),
        "action": st.sampled_from(["legal", "legal", "new", "1R", "1L:red", "9R", "bogus", ""]),
    }
)


def _send(ws: WebSocketTestSession, step: dict[str, Any], version: int, legal: list[str]) -> None:
    message: dict[str, Any] = {"type": step["type"]}
    if step["version"] is not None:
        message["version"] = version + step["version"] - 4  # around the current version
    if step["type"] == "play":
        message["action"] = legal[0] if step["action"] == "legal" and legal else step["action"]
    if step["type"] == "replace_with_bot":
        message["seat"] = 2
    ws.send_text(json.dumps(message))


def _state_at(ws: WebSocketTestSession, version: int) -> dict[str, Any]:
    """The next state of ``version`` (states of older versions, still queued, are skipped)."""
    return state_where(ws, lambda state: state["version"] == version)


def _allowed(step: dict[str, Any], state: dict[str, Any], legal: list[str]) -> bool:
    """Whether the rules allow the message ``step`` would send now (it must then be taken)."""
    if step["who"] == "watcher" or step["type"] in ("sync", "take_seat", "replace_with_bot"):
        return False
    seat = 1 if step["who"] == "seat1" else 2
    if step["version"] != 4 or state["to_move"] != seat:  # only the current version is fresh
        return False
    if step["type"] == "draw":
        return bool(state["phase"] == "draw")
    action = legal[0] if step["action"] == "legal" and legal else step["action"]
    return state["phase"] == "place" and action in legal


@settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(steps=st.lists(_STEP, min_size=10, max_size=30))
def test_out_of_order_and_foreign_steps_are_refused_and_change_nothing(
    client: TestClient, steps: list[dict[str, Any]]
) -> None:
    """Random sequences of steps from both seats and a spectator, with old, future and missing
    versions: a step is taken exactly when the rules allow it, every other gets an error and
    leaves the stored game as it was."""
    game = new_game(client, *PEOPLE)
    with (
        client.websocket_connect(game["websocket"]) as one,
        client.websocket_connect(game["websocket"]) as two,
        client.websocket_connect(game["websocket"]) as watcher,
    ):
        hello(one, game["seats"][0]["token"])
        hello(two, game["seats"][1]["token"])
        hello(watcher, None)
        sockets = {"seat1": one, "seat2": two, "watcher": watcher}
        for step in steps:
            ws = sockets[step["who"]]
            state = client.get(f"/api/games/{game['id']}/state").json()
            version, legal = state["version"], state["legal"]
            _send(ws, step, version, legal)
            if step["type"] == "sync":
                _state_at(ws, version)
                continue
            if _allowed(step, state, legal):
                _state_at(ws, version + 1)
                continue
            error = expect(ws, "error")
            assert error["code"] and error["message"], error
            stored = client.get(f"/api/games/{game['id']}/state").json()
            assert stored["version"] == version, (step, error)
