"""The real server in a subprocess: killed mid-game and started again on SQLite and PostgreSQL,
no token in its output, clear errors for a port in use or a bad database, and the protocol's
example client playing a whole game."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from hisss.cli import app
from hisss.record import GameRecord, replay
from hisss.server.setup import token_hash
from support.cli import CliRunner
from support.server_process import ServerProcess

ROOT = Path(__file__).resolve().parent.parent


def recv(ws: ClientConnection) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ws.recv(timeout=20))
    return data


def hello(ws: ClientConnection, token: str) -> dict[str, Any]:
    ws.send(json.dumps({"type": "hello", "token": token}))
    assert recv(ws)["type"] == "welcome"
    state = recv(ws)
    while state["phase"] == "starting":  # the server is still storing the starter
        state = recv(ws)
    return state


def until(ws: ClientConnection, test: Any) -> dict[str, Any]:
    while True:
        message = recv(ws)
        assert message["type"] != "error", message
        if message["type"] == "state" and test(message):
            return message


def my_turn(ws: ClientConnection) -> dict[str, Any]:
    return until(ws, lambda s: s["phase"] == "over" or (s["to_move"] == 1 and s["phase"] == "draw"))


def take_turn(ws: ClientConnection, state: dict[str, Any]) -> dict[str, Any]:
    """Draw and place (the last legal action); the state after the placement."""
    ws.send(json.dumps({"type": "draw", "version": state["version"]}))
    drawn = until(ws, lambda s: s["version"] == state["version"] + 1)
    ws.send(json.dumps({"type": "play", "version": drawn["version"], "action": drawn["legal"][-1]}))
    return until(ws, lambda s: s["version"] == drawn["version"] + 1)


@pytest.mark.system
def test_a_killed_server_continues_every_game_after_restart(database: str, tmp_path: Path) -> None:
    server = ServerProcess(database, tmp_path, bot_delay=1.5)
    server.start()
    try:
        game = server.request(
            "POST",
            "/api/games",
            {
                "seats": [
                    {"kind": "person", "name": "Ala"},
                    {"kind": "bot", "level": "hard"},
                    {"kind": "bot", "level": "easy"},
                ]
            },
        )
        token = game["seats"][0]["token"]
        with connect(server.ws_url + game["websocket"]) as ws:
            state = hello(ws, token)
            assert state["phase"] == "draw" and state["to_move"] == 1
            after = take_turn(ws, state)
            # Seat 2 (a slow bot) is due; the server dies before it moves.
            assert after["to_move"] == 2 and after["phase"] == "draw"
            server.kill()
        seen_version, seen_table = after["version"], after["table"]
    finally:
        server.kill()
    first_run = server.started_in

    server.bot_delay = 0.0
    server.start()
    try:
        assert server.request("GET", f"/api/games/{game['code']}")["status"] == "running"
        with connect(server.ws_url + game["websocket"]) as ws:
            state = hello(ws, token)
            # The bots' pending turns resumed by themselves: seat 1 is to draw again.
            state = my_turn(ws) if state["to_move"] != 1 else state
            assert state["version"] == seen_version + 4
            # What was stored before the kill is what the players saw.
            so_far = GameRecord.from_json(
                json.dumps(server.request("GET", f"/api/games/{game['id']}/record?partial=true"))
            )
            first_turn = GameRecord(
                so_far.rules, so_far.deck, so_far.seats, so_far.cards[:2], so_far.turns[:1]
            )
            assert [str(s) for s in replay(first_turn).table] == seen_table
            while state["phase"] != "over":
                state = take_turn(ws, state)
                if state["phase"] != "over":
                    state = my_turn(ws)
        summary = server.request("GET", f"/api/games/{game['id']}")
        assert summary["status"] == "finished" and summary["result"] == state["result"]
        final = GameRecord.from_json(
            json.dumps(server.request("GET", f"/api/games/{game['id']}/record"))
        )
        assert replay(final).is_terminal() and len(final.turns) == 49
    finally:
        assert server.stop() == 0
    output = server.output()
    assert "Hisss is ready" in output and "GET /api/games" in output
    assert token not in output and token_hash(token) not in output
    print(f"started in {first_run:.2f} s, restarted in {server.started_in:.2f} s")


def test_serve_refuses_a_port_in_use(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = CliRunner().invoke(
            app, ["serve", "--port", str(port), "--database", f"sqlite:///{tmp_path / 'x.db'}"]
        )
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == (
        f"error: port {port} on 127.0.0.1 is in use by another program (choose another with --port)"
    )


@pytest.mark.parametrize(
    ("database", "message"),
    [
        ("mysql://localhost/hisss", "unsupported database 'mysql'"),
        ("sqlite:////no/such/dir/h.db", "does not exist"),
        (
            "postgresql://ala:secret@127.0.0.1:1/hisss",
            "cannot open database postgresql+asyncpg://ala:***@127.0.0.1:1/hisss",
        ),
    ],
)
def test_serve_refuses_a_bad_database(database: str, message: str) -> None:
    result = CliRunner().invoke(app, ["serve", "--port", "0", "--database", database])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], lines
    assert "secret" not in result.stderr and "Traceback" not in result.stderr


@pytest.mark.system
def test_the_protocol_example_client_plays_a_whole_game(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    code = text.split("## A minimal client", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    client = tmp_path / "bot_client.py"
    client.write_text(code, encoding="utf-8")
    with ServerProcess(f"sqlite:///{tmp_path / 'example.db'}", tmp_path, bot_delay=0.05) as server:
        game = server.request(
            "POST",
            "/api/games",
            {"seats": [{"kind": "bot", "level": "medium"}, {"kind": "person", "open": True}]},
        )
        started = time.monotonic()
        proc = subprocess.run(
            [sys.executable, str(client), server.url.rstrip("/"), game["code"], "hard"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        sentence = r"(Bot 1 \(medium\)|hard client|Nobody) .*\b(wins|share the win)\b.*\n"
        assert re.fullmatch(sentence, proc.stdout), proc.stdout
        assert "refused" not in proc.stderr
        summary = server.request("GET", f"/api/games/{game['id']}")
        assert summary["status"] == "finished"
        assert summary["seats"][1]["name"] == "hard client"
        print(f"the example client played a game in {time.monotonic() - started:.1f} s")


def test_serve_explains_a_missing_web_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "hisss.server" or m.startswith("hisss.server.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "fastapi", None)
    result = CliRunner().invoke(app, ["serve", "--port", "0"])
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == (
        "error: hisss serve needs the web extra (fastapi is missing): pip install 'hisss[web]'"
    )


def test_serve_help_names_every_option() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--database", "--bot-delay", "--away-seconds"):
        assert option in result.stdout
