"""The limits that keep the server up under hostile clients, in process: hosts, trusted proxies,
look-ups, body deadlines, connections per address, spectators, ``sync`` and hints, and replies
that cannot be encoded. The real server under attack: ``test_hostile.py``."""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from hisss.core import ConfigError
from hisss.server import Settings, create_app
from hisss.server.app import Guard
from hisss.server.metrics import Metrics
from hisss.server.run import bound_names
from hisss.server.session import CLOSE_BUSY
from support.web import ALA, BOT, expect, hello, new_game

Client = Callable[..., TestClient]


@pytest.fixture
def make(tmp_path: Path) -> Iterator[Callable[..., TestClient]]:
    """An in-process server with changed settings, seen from the client address ``client``."""
    opened: list[TestClient] = []

    def start(client: tuple[str, int] = ("203.0.113.5", 5000), **options: Any) -> TestClient:
        settings = Settings(
            database=f"sqlite+pysqlite:///{tmp_path / f'h{len(opened)}.db'}",
            **{"bot_delay": 0.0, **options},
        )
        test_client = TestClient(create_app(settings), client=client)
        test_client.__enter__()
        opened.append(test_client)
        return test_client

    yield start
    for test_client in opened:
        test_client.__exit__(None, None, None)


def test_a_foreign_host_gets_400_and_the_bound_names_are_the_default(make: Client) -> None:
    client = make(allowed_hosts=("localhost", "127.0.0.1"))
    assert client.get("/healthz", headers={"Host": "localhost:8000"}).status_code == 200
    refused = client.get("/healthz", headers={"Host": "rebound.example"})
    assert refused.status_code == 400
    made = client.post("/api/games", json={"seats": [ALA, BOT]}, headers={"Host": "evil.example"})
    assert made.status_code == 400
    assert client.get("/api/games", headers={"Host": "localhost"}).json()["open"] == []
    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect("/ws/games/x", headers={"Host": "evil.example"}),
    ):
        pass
    assert bound_names("127.0.0.1") == ("localhost", "127.0.0.1", "::1")
    assert "games.example.org" in bound_names("games.example.org")
    with pytest.raises(ConfigError, match="wildcard"):
        Settings(database="x", allowed_hosts=("games.*.org",))


def test_forwarded_headers_count_only_from_trusted_proxies(make: Client) -> None:
    # Not a trusted proxy: rotating X-Forwarded-For gives no fresh bucket.
    direct = make(http_burst=3)
    answers = [
        direct.post(
            "/api/games",
            json={"seats": [ALA, BOT]},
            headers={"X-Forwarded-For": f"198.51.100.{n}"},
        ).status_code
        for n in range(6)
    ]
    assert answers.count(201) == 3 and answers.count(429) == 3
    # Behind a trusted proxy, each forwarded client has its own bucket; the client is the
    # rightmost address that is not a proxy.
    proxied = make(client=("10.0.0.2", 5000), http_burst=1, forwarded_allow_ips=("10.0.0.0/8",))
    firsts = [
        proxied.post(
            "/api/games",
            json={"seats": [ALA, BOT]},
            headers={"X-Forwarded-For": f"1.1.1.1, 198.51.100.{n}, 10.0.0.9"},
        ).status_code
        for n in range(4)
    ]
    assert firsts == [201] * 4
    again = proxied.post(
        "/api/games",
        json={"seats": [ALA, BOT]},
        headers={"X-Forwarded-For": "7.7.7.7, 198.51.100.0"},
    )
    assert again.status_code == 429
    with pytest.raises(ConfigError, match="forwarded-allow-ips"):
        Settings(database="x", forwarded_allow_ips=("not-an-address",))


def test_game_lookups_are_rate_limited_per_address(make: Client) -> None:
    client = make(lookup_burst=5, lookup_rate_per_second=0.1)
    codes = [client.get(f"/api/games/NOPE{n:02d}").status_code for n in range(8)]
    assert codes[:5] == [404] * 5 and codes[5:] == [429] * 3
    assert client.get("/healthz").status_code == 200  # never limited


async def test_a_body_that_does_not_arrive_in_time_gets_408() -> None:
    settings = Settings(database="x", body_timeout=0.2)
    reached: list[object] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached.append(scope)

    parts = 0

    async def receive() -> dict[str, Any]:
        nonlocal parts
        parts += 1
        if parts > 1:  # the first part comes at once, the rest never
            await asyncio.sleep(5)
        return {"type": "http.request", "body": b"{", "more_body": True}

    sent: list[dict[str, Any]] = []

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/games",
        "headers": [(b"content-type", b"application/json")],
        "client": ("203.0.113.5", 5000),
    }
    began = time.monotonic()
    await Guard(app, settings, Metrics())(scope, receive, send)
    assert time.monotonic() - began < 3
    assert sent[0]["status"] == 408 and b"too_slow" in sent[1]["body"]
    assert reached == []  # the application never saw the request


def test_connections_per_address_and_spectators_per_game_are_capped(make: Client) -> None:
    client = make(max_connections_per_address=3, max_spectators=2)
    game = new_game(client, ALA, BOT)
    path = game["websocket"]
    with client.websocket_connect(path) as one, client.websocket_connect(path) as two:
        hello(one, None)
        hello(two, None)
        with client.websocket_connect(path) as third:
            third.send_json({"type": "hello", "role": "spectator"})
            assert expect(third, "error")["code"] == "busy"
            with pytest.raises(WebSocketDisconnect) as closed:
                third.receive_json()
            assert closed.value.code == CLOSE_BUSY
        # The seat's holder still gets in (not a spectator), and the address is then full.
        with client.websocket_connect(path) as seat:
            hello(seat, game["seats"][0]["token"])
            with client.websocket_connect(path) as fourth:
                assert fourth.receive_json()["code"] == "busy"
                with pytest.raises(WebSocketDisconnect) as closed:
                    fourth.receive_json()
                assert closed.value.code == CLOSE_BUSY
    # Closed connections free their places.
    with client.websocket_connect(path) as again:
        hello(again, None)


def test_sync_and_hints_have_budgets(make: Client) -> None:
    client = make(sync_burst=2, sync_rate_per_second=0.01, hint_burst=1, hint_rate_per_second=0.01)
    game = new_game(client, ALA, BOT)
    with client.websocket_connect(game["websocket"]) as ws:
        state = hello(ws, game["seats"][0]["token"])
        for _ in range(3):
            ws.send_json({"type": "sync"})
        assert expect(ws, "error")["code"] == "rate_limited"
        ws.send_json({"type": "draw", "version": state["version"]})
        while True:
            message = ws.receive_json()
            if message["type"] == "state" and message["phase"] == "place":
                break
        ws.send_json({"type": "hint"})
        assert expect(ws, "hint")["seat"] == 1
        ws.send_json({"type": "hint"})
        assert expect(ws, "error")["code"] == "rate_limited"


def test_a_reply_that_cannot_be_encoded_becomes_an_error(make: Client) -> None:
    client = make()
    game = new_game(client, ALA, BOT)
    with client.websocket_connect(game["websocket"]) as ws:
        hello(ws, game["seats"][0]["token"])
        ws.send_text('{"type": "\\ud800"}')
        error = expect(ws, "error")
        assert error["code"] == "bad_message" and "surrogate" in error["message"]
        ws.send_json({"type": "ping", "data": 7})
        assert expect(ws, "pong")["data"] == 7  # the connection still answers


def test_the_cap_leaves_room_for_the_server_files() -> None:
    from hisss.server.connections import connection_cap, raise_file_limit  # noqa: PLC0415

    limit = raise_file_limit()
    assert 16 <= connection_cap(limit) < limit


async def test_a_new_sqlite_file_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    from hisss.storage import Store  # noqa: PLC0415

    path = tmp_path / "private.db"
    store = await Store.open(f"sqlite+pysqlite:///{path}")
    try:
        await store.count_games()
    finally:
        await store.close()
    made = [p for p in tmp_path.iterdir() if p.name.startswith("private.db")]
    assert path in made
    for file in made:
        assert file.stat().st_mode & 0o777 == 0o600, file


def test_a_bot_takes_the_pace_whatever_it_thinks(
    make: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot's placement shows up one step delay after its draw, however long it thought (here
    it thinks 0 or 0.15 s by turns): the visible delay says nothing of its hand."""
    import hisss.server.game as game_module  # noqa: PLC0415

    real = game_module.make_level  # type: ignore[attr-defined]
    turns = 0

    class Slow:
        def __init__(self, level: str) -> None:
            self.bot = real(level)

        def move(self, state: Any, rng: Any) -> Any:
            nonlocal turns
            turns += 1
            time.sleep(0.15 if turns % 2 else 0.0)
            return self.bot.move(state, rng)

    monkeypatch.setattr(game_module, "make_level", Slow)  # the bots of the server's loop
    client = make(bot_delay=0.5)  # 0.25 s before each of a bot's steps
    game = new_game(client, ALA, BOT)
    gaps: list[float] = []
    with client.websocket_connect(game["websocket"]) as ws:
        message = hello(ws, game["seats"][0]["token"])
        drawn_at = None
        while len(gaps) < 8:
            if message["type"] == "state":
                if message["phase"] == "over":
                    break
                event = message.get("last_event") or {}
                now = time.monotonic()
                if event.get("seat") == 2 and event.get("kind") == "draw":
                    drawn_at = now
                elif event.get("seat") == 2 and drawn_at is not None:
                    gaps.append(now - drawn_at)
                    drawn_at = None
                if message["to_move"] == 1 and message["phase"] in ("draw", "place"):
                    step: dict[str, Any] = {"type": "draw", "version": message["version"]}
                    if message["phase"] == "place":
                        step = {**step, "type": "play", "action": message["legal"][0]}
                    ws.send_json(step)
            message = ws.receive_json()
    slow, quick = gaps[0::2], gaps[1::2]
    assert turns >= 8
    # Each gap is the pace (0.25 s) and the time to send a state (generous bounds for a busy
    # machine); the slow thinker's gaps are not longer than the quick one's (before, by 0.15 s).
    assert all(0.2 <= gap < 3.0 for gap in gaps), gaps
    assert statistics.median(slow) - statistics.median(quick) < 0.1, gaps


# ---------------------------------------------------------------------- names

GOLDEN_GAME = Path(__file__).parent / "golden" / "classic-2p-rainbow.json"
CODER = "👩\u200d💻 Ola"  # an emoji joined by a zero-width joiner: one grapheme
REFUSED_NAMES = [
    "Ala\x1b]0;owned\x07",  # sets a terminal's title
    "\x1b[2JAla",  # clears the screen
    "evil\u202egnp",  # a bidirectional override
    "Al\u200ba",  # a zero-width space
    "Ala\ue000",  # private use
    "Ala\u2066x\u2069",  # a bidirectional isolate
]


def test_one_rule_for_names_counted_in_graphemes() -> None:
    from hisss.record import MAX_NAME, SeatNameError, check_name, grapheme_count  # noqa: PLC0415

    assert check_name(CODER) == CODER and grapheme_count(CODER) == 5
    family = "👨\u200d👩\u200d👧\u200d👦"
    assert grapheme_count(family * MAX_NAME) == MAX_NAME
    assert check_name(family * MAX_NAME) == family * MAX_NAME  # 280 code points, 40 graphemes
    with pytest.raises(SeatNameError, match="at most 40 characters, not 41"):
        check_name("ż" * 41)
    messages = set()
    for name in REFUSED_NAMES:
        with pytest.raises(SeatNameError) as refused:
            check_name(name)
        messages.add(str(refused.value).split(" (U+")[0])
    assert messages == {
        "a name may not hold control, bidirectional, zero-width or private-use characters"
    }


def test_the_web_forms_take_emoji_and_refuse_hidden_characters(make: Client) -> None:
    client = make(http_burst=100)
    made = client.post("/api/games", json={"seats": [{"kind": "person", "name": CODER}, BOT]})
    assert made.status_code == 201, made.text
    assert made.json()["seats"][0]["name"] == CODER
    for name in REFUSED_NAMES:
        refused = client.post("/api/games", json={"seats": [{"kind": "person", "name": name}, BOT]})
        assert refused.status_code == 400
        assert "control, bidirectional, zero-width" in refused.json()["error"]["message"]


def test_uploads_and_replay_refuse_hidden_characters_and_print_none(
    make: Client, tmp_path: Path
) -> None:
    from hisss.cli import app  # noqa: PLC0415
    from support.cli import CliRunner  # noqa: PLC0415

    client = make(http_burst=100)
    data = json.loads(GOLDEN_GAME.read_text(encoding="utf-8"))
    data["seats"][0] = CODER
    accepted = client.post("/api/replays", content=json.dumps(data, ensure_ascii=False))
    assert accepted.status_code == 201, accepted.text
    for name in REFUSED_NAMES:
        data["seats"][0] = name
        text = json.dumps(data, ensure_ascii=False)
        upload = client.post("/api/replays", content=text.encode())
        assert upload.status_code == 422
        assert "control, bidirectional" in upload.json()["error"]["message"]
        path = tmp_path / "hostile.json"
        path.write_text(text, encoding="utf-8")
        result = CliRunner().invoke(app, ["replay", str(path)])
        assert result.exit_code == 2
        shown = result.output
        assert not any(ch < " " and ch != "\n" for ch in shown), shown
        assert "\x1b" not in shown and "\u202e" not in shown and "\u200b" not in shown
    # A deck's name from the file is printed, and its control characters escaped.
    data["seats"][0] = "Ala"
    data["deck"]["name"] = "rain\x1b[2Jbow\x07"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "rain\\u{001B}[2Jbow\\u{0007}" in result.output
    assert not any(ch < " " and ch != "\n" for ch in result.output)


def test_players_on_the_command_line_follow_the_same_rule() -> None:
    from hisss.core import Rules  # noqa: PLC0415
    from hisss.tui.match import parse_players  # noqa: PLC0415

    seats = parse_players(f"{CODER}, bot:easy", Rules())
    assert seats[0].name == CODER
    with pytest.raises(ConfigError, match="control, bidirectional") as refused:
        parse_players("Ala\x1b[2J, bot:easy", Rules())
    assert "\x1b" not in str(refused.value)


def test_a_flood_of_refusals_is_logged_in_a_few_lines() -> None:
    import logging  # noqa: PLC0415

    from hisss.server.logs import FloodFilter  # noqa: PLC0415

    flood = FloodFilter(burst=5, rate=0.0)
    access = logging.getLogger("uvicorn.access")

    def line(status: int) -> logging.LogRecord:
        return access.makeRecord(
            "uvicorn.access",
            logging.INFO,
            __file__,
            1,
            '%s - "%s %s HTTP/%s" %d',
            ("1.2.3.4:5", "GET", "/api/games/X", "1.1", status),
            None,
        )

    passed = [flood.filter(line(429)) for _ in range(1000)]
    assert sum(passed) == 5
    assert all(flood.filter(line(200)) for _ in range(100))  # answers are never held back
    flood.rate = 1000.0
    time.sleep(0.01)
    after = line(429)
    assert flood.filter(after) and "995 more such lines left out" in str(after.msg)


async def test_a_sender_that_fails_closes_its_connection_with_a_code_and_a_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from typing import cast  # noqa: PLC0415

    from starlette.websockets import WebSocket  # noqa: PLC0415

    from hisss.server.service import GameService  # noqa: PLC0415
    from hisss.server.session import CLOSE_SERVER_ERROR, CLOSE_TOO_SLOW, Session  # noqa: PLC0415

    class Broken:
        client = None

        def __init__(self, failure: BaseException | None) -> None:
            self.failure = failure
            self.closed: list[int] = []

        async def send_text(self, _text: str) -> None:
            if self.failure is None:
                await asyncio.sleep(60)  # a client that never reads: the write never ends
                return
            raise self.failure

        async def close(self, code: int, _reason: str = "") -> None:
            self.closed.append(code)

    class Service:
        class quotas:  # noqa: N801 - stands for the service's quotas
            @staticmethod
            def connections_closed(_reason: str) -> None:
                pass

    for failure, code, timeout in (
        (ValueError("cannot send"), CLOSE_SERVER_ERROR, 15.0),
        (None, CLOSE_TOO_SLOW, 0.2),
    ):
        socket = Broken(failure)
        session = Session(
            cast(WebSocket, socket),
            cast(GameService, Service()),
            Settings(database="x", send_timeout=timeout),
        )
        session.send({"type": "pong", "data": 1})
        await asyncio.wait_for(session._write(), 5)
        assert socket.closed[-1] == code
    assert "sending to a client failed; closing it" in caplog.text
