"""The HTTP API in process: lobby, games, joining, records, replays, limits, origins, pages."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from hisss.cli import app
from hisss.record import GameRecord, replay
from hisss.server import ErrorCode, Settings, create_app
from support.cli import CliRunner
from support.web import answer_when, play_out

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "classic-2p-rainbow.json"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(database=f"sqlite+pysqlite:///{tmp_path / 'api.db'}", bot_delay=0)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def create(client: TestClient, *seats: dict[str, Any], **fields: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"seats": list(seats), **fields})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()["error"]
    assert body["code"] == code and body["message"], body
    return body


def wait_finished(client: TestClient, key: str) -> dict[str, Any]:
    """The game's summary once the server has stored it as finished."""
    return answer_when(
        client,
        f"/api/games/{key}",
        lambda summary: summary["status"] == "finished",
        what=f"game {key} to be stored as finished",
    )


def started(client: TestClient, key: str) -> dict[str, Any]:
    """The game's state once the server has stored its starter."""
    return answer_when(
        client,
        f"/api/games/{key}/state",
        lambda state: state["phase"] != "starting",
        what=f"the starter of game {key} to be stored",
    )


def test_create_a_game_and_get_links_and_tokens(client: TestClient) -> None:
    game = create(
        client,
        {"kind": "person", "name": "Ala"},
        {"kind": "bot", "level": "hard"},
        {"kind": "person", "open": True},
        rules="pl",
        set={"forced_placement": False},
        deck="all-pairs",
        title="Sunday",
    )
    assert len(game["code"]) == 6 and game["status"] == "open"
    ala, bot, open_seat = game["seats"]
    assert len(ala["token"]) == 32
    assert ala["link"] == f"/g/{game['code']}#seat=1&token={ala['token']}"
    assert "token" not in bot and bot["name"] == "Bot 2 (hard)"
    assert "token" not in open_seat and open_seat["link"] == f"/g/{game['code']}#join=3"
    summary = client.get(f"/api/games/{game['code']}").json()
    assert summary["rules"]["join_claim"] == "always" and summary["deck"] == "all-pairs"
    assert summary["rules"]["forced_placement"] is False and summary["preset"] is None
    assert summary["open_seats"] == [3] and summary["phase"] == "waiting"
    assert summary["title"] == "Sunday"
    text = json.dumps(summary)
    assert ala["token"] not in text and "seed" not in text and "token" not in text


def test_join_an_open_seat_starts_the_game(client: TestClient) -> None:
    game = create(
        client, {"kind": "person", "name": "Ala"}, {"kind": "person", "open": True}, public=True
    )
    lobby = client.get("/api/games").json()
    assert [g["code"] for g in lobby["open"]] == [game["code"]]
    joined = client.post(f"/api/games/{game['code']}/join", json={"name": "Olek"})
    assert joined.status_code == 200, joined.text
    seat = joined.json()
    assert seat["seat"] == 2 and len(seat["token"]) == 32
    assert seat["link"] == f"/g/{game['code']}#seat=2&token={seat['token']}"
    error(client.post(f"/api/games/{game['id']}/join", json={}), 409, "no_open_seat")
    error(client.post(f"/api/games/{game['id']}/join", json={"seat": 1}), 409, "seat_taken")
    error(client.post("/api/games/NOPE00/join", json={}), 404, "unknown_game")
    error(client.post(f"/api/games/{game['id']}/join", json={"seat": 9}), 400, "bad_message")
    lobby = client.get("/api/games").json()
    assert lobby["open"] == [] and [g["code"] for g in lobby["running"]] == [game["code"]]
    state = started(client, game["code"])
    assert state["type"] == "state" and state["phase"] == "draw" and state["version"] == 1


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"seats": [{"kind": "person"}], "rules": "chess"}, 400, "bad_rules"),
        ({"seats": [{"kind": "person"}, {"kind": "person"}], "deck": "tarot"}, 400, "bad_deck"),
        ({"seats": [{"kind": "person"}]}, 400, "bad_seats"),
        ({"seats": [{"kind": "person"}, {"kind": "bot", "level": "god"}]}, 400, "bad_level"),
        ({"seats": [{"kind": "dog"}, {"kind": "person"}]}, 400, "bad_message"),
        ({"seats": [{"kind": "person"}, {"kind": "person"}], "colour": "red"}, 400, "bad_message"),
        ({"seats": "two"}, 400, "bad_message"),
        ({}, 400, "bad_message"),
    ],
)
def test_bad_games_are_refused_clearly(
    client: TestClient, body: dict[str, Any], status: int, code: str
) -> None:
    error(client.post("/api/games", json=body), status, code)
    assert client.get("/api/games").json() == {"open": [], "running": [], "finished": []}


def test_malformed_and_oversized_bodies(client: TestClient) -> None:
    headers = {"content-type": "application/json"}
    body = error(client.post("/api/games", content=b"{not json", headers=headers), 400, "bad_json")
    assert "not valid JSON" in body["message"]
    for path in ("/api/games", "/api/games/ABCDEF/join"):
        for content in (b"", b"[]", b"null"):
            body = error(client.post(path, content=content, headers=headers), 400, "bad_message")
            assert "JSON object" in body["message"], body
    game = create(client, {"kind": "person"}, {"kind": "person", "open": True})
    for wrong in ({"seat": "2"}, {"seat": 2.0}, {"seat": True}, {"name": 7}):
        body = error(client.post(f"/api/games/{game['code']}/join", json=wrong), 400, "bad_message")
    seat = {"kind": "person", "open": "yes"}
    body = error(client.post("/api/games", json={"seats": [seat, seat]}), 400, "bad_message")
    assert body["message"].startswith("seats.0.open:"), body
    assert client.get(f"/api/games/{game['code']}").json()["open_seats"] == [2]
    big = {"seats": [{"kind": "person", "name": "x" * 20_000}, {"kind": "person"}]}
    error(client.post("/api/games", json=big), 413, "too_large")


def test_bodies_sent_in_chunks_are_limited_too(client: TestClient) -> None:
    """A body without a Content-Length (chunked) is counted as it arrives: over the limit it gets
    too_large, as a declared one does, on every endpoint."""
    game = json.dumps({"seats": [{"kind": "person"}, {"kind": "bot"}]}).encode()
    headers = {"content-type": "application/json"}
    for path, body in [
        ("/api/games", game + b" " * 20_000),
        ("/api/games/ABCDEF/join", b"{}" + b" " * 20_000),
        ("/api/replays", b" " * 1_100_000),
    ]:
        response = client.post(path, content=iter([body[:1000], body[1000:]]), headers=headers)
        assert "content-length" not in response.request.headers
        error(response, 413, "too_large")
    created = client.post("/api/games", content=iter([game[:10], game[10:]]), headers=headers)
    assert created.status_code == 201, created.text


def test_text_that_is_not_unicode_gets_a_clear_error(client: TestClient) -> None:
    """JSON can spell a lone UTF-16 surrogate (\\ud800), which is no character: wherever one
    comes in, the answer is a refusal in JSON, never a failure of the server."""
    game = b'{"set": {"\\ud800": 1}, "seats": [{"kind": "person"}, {"kind": "bot"}]}'
    headers = {"content-type": "application/json"}
    body = error(client.post("/api/games", content=game, headers=headers), 400, "bad_rules")
    assert "\ud800" in body["message"]
    record = json.loads(GOLDEN.read_text(encoding="utf-8"))
    record["seats"][0] = "Ala \ud800"
    text = json.dumps(record)  # escapes the surrogate as \\ud800
    body = error(client.post("/api/replays", content=text.encode()), 422, "bad_record")
    assert "surrogate" in body["message"]


def test_requests_from_other_sites_are_refused(client: TestClient) -> None:
    body = {"seats": [{"kind": "person"}, {"kind": "person"}]}
    error(
        client.post("/api/games", json=body, headers={"origin": "https://evil.example"}),
        403,
        "forbidden_origin",
    )
    same = client.post("/api/games", json=body, headers={"origin": "http://testserver"})
    assert same.status_code == 201
    assert client.get("/api/games", headers={"origin": "https://evil.example"}).status_code == 200


def test_too_many_requests_from_one_address(tmp_path: Path) -> None:
    settings = Settings(
        database=f"sqlite+pysqlite:///{tmp_path / 'rate.db'}",
        http_burst=3,
        http_rate_per_second=0.001,
    )
    body = {"seats": [{"kind": "person"}, {"kind": "person"}], "public": True}
    with TestClient(create_app(settings)) as limited:
        for _ in range(3):
            assert limited.post("/api/games", json=body).status_code == 201
        refused = limited.post("/api/games", json=body)
        error(refused, 429, "rate_limited")
        assert refused.headers["retry-after"] == "1000"  # one request per 1000 s
        assert limited.get("/api/games").status_code == 200, "reading is not limited"
        assert len(limited.get("/api/games").json()["running"]) == 3


def test_unknown_things(client: TestClient) -> None:
    error(client.get("/api/games/ZZZZZZ"), 404, "unknown_game")
    error(client.get("/api/games/ZZZZZZ/record"), 404, "unknown_game")
    error(client.get("/api/replays/abc"), 404, "unknown_replay")
    error(client.get("/api/nothing"), 404, "not_found")
    error(client.delete("/api/games"), 405, "bad_message")


def test_a_failure_of_the_server_is_answered_in_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """An unexpected failure (here the database's driver, on any request or connection) is a
    server_error in the protocol's shapes: a JSON answer, or an error message and close 1011."""
    settings = Settings(database=f"sqlite+pysqlite:///{tmp_path / 'fail.db'}", bot_delay=0)
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        game = create(client, {"kind": "person"}, {"kind": "person"})
        store = client.app.app.state.store  # type: ignore[attr-defined]

        async def broken(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("the driver broke")

        monkeypatch.setattr(store, "get_game", broken)
        monkeypatch.setattr(store, "list_games", broken)
        for path in ("/api/games", "/api/games/ABCDEF"):
            error(client.get(path), 500, "server_error")
        with client.websocket_connect("/ws/games/ABCDEF") as ws:
            assert ws.receive_json()["code"] == "server_error"
            with pytest.raises(WebSocketDisconnect) as info:
                ws.receive_json()
            assert info.value.code == 1011
        assert "the driver broke" in caplog.text  # logged for whoever runs the server
        monkeypatch.undo()
        assert client.get(f"/api/games/{game['code']}").status_code == 200


def test_a_finished_game_gives_its_record_and_steps(client: TestClient, tmp_path: Path) -> None:
    game = create(
        client, {"kind": "person", "name": "Ala"}, {"kind": "bot", "level": "easy"}, public=True
    )
    error(client.get(f"/api/games/{game['id']}/record"), 409, "not_finished")
    started(client, game["id"])
    partial = client.get(f"/api/games/{game['id']}/record?partial=true")
    assert partial.status_code == 200
    so_far = GameRecord.from_json(partial.text)
    assert so_far.seed is None and so_far.result is None and len(so_far.cards) == 1
    error(client.get(f"/api/games/{game['id']}/steps/0"), 409, "not_finished")
    play_out(client, game)
    summary = wait_finished(client, game["code"])
    assert summary["result"]["explanation"]
    download = client.get(f"/api/games/{game['code']}/record")
    assert download.status_code == 200
    assert download.headers["content-disposition"] == (
        f'attachment; filename="hisss-{game["code"]}.json"'
    )
    record = GameRecord.from_json(download.text)
    assert record.seats == ("Ala", "Bot 2 (easy)") and record.seed is not None
    saved = tmp_path / "game.json"
    saved.write_text(download.text, encoding="utf-8")
    checked = CliRunner().invoke(app, ["replay", "--quiet", str(saved)])
    assert checked.exit_code == 0, checked.output
    final = replay(record)
    assert final.is_terminal()
    assert record.result is not None and record.result["winners"] == summary["result"]["winners"]
    first = client.get(f"/api/games/{game['code']}/steps/0").json()
    assert first["step"] == 0 and first["steps"] == 49 and len(first["table"]) == 1
    assert first["last_event"]["kind"] == "starter"
    last = client.get(f"/api/games/{game['code']}/steps/49").json()
    assert last["result"]["winners"] == summary["result"]["winners"]
    assert last["table"] == [str(s) for s in final.table]
    error(client.get(f"/api/games/{game['code']}/steps/50"), 400, "bad_step")
    assert game["code"] in [g["code"] for g in client.get("/api/games").json()["finished"]]


def test_upload_a_record_and_step_through_it(client: TestClient) -> None:
    text = GOLDEN.read_text(encoding="utf-8")
    uploaded = client.post(
        "/api/replays", content=text.encode(), headers={"content-type": "application/json"}
    )
    assert uploaded.status_code == 201, uploaded.text
    data = uploaded.json()
    record = GameRecord.from_json(text)
    assert data["steps"] == len(record.turns) and data["seats"] == list(record.seats)
    assert data["link"] == f"/replay/{data['id']}"
    assert client.get(f"/api/replays/{data['id']}").json()["steps"] == data["steps"]
    final = replay(record)
    last = client.get(f"/api/replays/{data['id']}/steps/{data['steps']}").json()
    assert last["table"] == [str(s) for s in final.table]
    assert last["pits"] == [[str(s) for s in pit] for pit in final.pits]
    step3 = client.get(f"/api/replays/{data['id']}/steps/3").json()
    turn = record.turns[2]
    assert step3["last_event"]["action"] == str(turn.action)
    assert step3["last_event"]["seat"] == turn.player + 1
    again = client.get(f"/api/replays/{data['id']}/record")
    assert GameRecord.from_json(again.text) == record
    error(client.get(f"/api/replays/{data['id']}/steps/-1"), 400, "bad_message")


@pytest.mark.parametrize(
    ("mutate", "where"),
    [
        (lambda d: d.update(format="chess"), "format"),
        (lambda d: d["turns"][2].update(action="9R"), "turn 3"),
        (lambda d: d["turns"][0].update(action="nonsense"), "turns[0].action"),
        (lambda d: d.update(seats=["one"]), "seats"),
    ],
)
def test_bad_records_are_refused_with_the_place_and_reason(
    client: TestClient, mutate: Any, where: str
) -> None:
    data = json.loads(GOLDEN.read_text(encoding="utf-8"))
    mutate(data)
    body = error(client.post("/api/replays", json=data), 422, "bad_record")
    assert where in body["message"]


def test_a_refused_record_names_what_is_wrong(client: TestClient) -> None:
    """The result, the card order, the place in a one-line file: each refusal says which, so
    that the page says it in the reader's words."""
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    edited = json.loads(json.dumps(golden))
    edited["result"]["cards"] = [50, *edited["result"]["cards"][1:]]
    body = error(client.post("/api/replays", json=edited), 422, "bad_record")
    assert body["kind"] == "result" and "result mismatch" in body["message"]
    short = json.loads(json.dumps(golden))
    short["cards"] = short["cards"][:10]
    body = error(client.post("/api/replays", json=short), 422, "bad_record")
    assert body["kind"] == "cards" and body["turn"] == 10
    wrong = json.loads(json.dumps(golden))
    wrong["turns"][2]["action"] = "9R"
    assert error(client.post("/api/replays", json=wrong), 422, "bad_record")["kind"] == "move"
    line = json.dumps(golden, separators=(",", ":"))
    cut = line[: len(line) // 2]
    body = error(client.post("/api/replays", content=cut.encode()), 422, "bad_record")
    assert body["line"] == 1 and body["column"] > 100, body


def test_records_that_are_not_json_or_too_big(client: TestClient) -> None:
    body = error(
        client.post("/api/replays", content=b'{"format": "hisss-record",\n  "version": 1,,}'),
        422,
        "bad_record",
    )
    assert body["line"] == 2
    error(client.post("/api/replays", content=b"\xff\xfe"), 422, "bad_record")
    error(client.post("/api/replays", content=b" " * 1_100_000), 413, "too_large")


def test_the_service_worker_keeps_every_versioned_file_and_the_offline_page(
    client: TestClient,
) -> None:
    script = client.get("/sw.js")
    assert script.status_code == 200
    assert script.headers["content-type"].startswith("text/javascript")
    assert script.headers["cache-control"] == "no-cache"
    head = script.text.splitlines()[:2]
    version = json.loads(head[0].removeprefix("const VERSION = ").removesuffix(";"))
    files = json.loads(head[1].removeprefix("const FILES = ").removesuffix(";"))
    page = client.get("/").text
    assert f"/static/{version}/js/app.js" in page and f"/static/{version}/js/app.js" in files
    assert f"/static/{version}/manifest.webmanifest" in page
    for path in files:
        kept = client.get(path)
        assert kept.status_code == 200, path
        assert "immutable" in kept.headers["cache-control"], path
    offline = client.get("/offline")
    assert offline.status_code == 200
    assert "Playing needs the server" in offline.text
    assert "Do gry potrzebny jest serwer" in offline.text
    assert f'href="/static/{version}/css/hisss.css"' in offline.text


def test_options_health_and_schema(client: TestClient) -> None:
    options = client.get("/api/options").json()
    assert options["protocol"] == 1 and set(options["presets"]) == {"classic", "pl"}
    assert [level["name"] for level in options["levels"]] == [
        "easy",
        "medium",
        "hard",
        "expert",
        "gentle",
    ]
    limits = options["limits"]
    assert limits["max_name_graphemes"] == 40 and limits["max_connections_per_address"] == 50
    assert (limits["hint_burst"], limits["sync_burst"], limits["lookup_burst"]) == (10, 5, 120)
    assert client.get("/healthz").json() == {"ok": True, "database": "sqlite", "bots_playing": 0}
    schema = client.get("/openapi.json").json()
    assert {
        "/api/games",
        "/api/games/{key}",
        "/api/games/{key}/join",
        "/api/games/{key}/record",
        "/api/replays",
        "/api/replays/{key}/steps/{number}",
    } <= set(schema["paths"])
    assert client.get("/docs").status_code == 404, "no documentation page that loads scripts"


def test_pages_are_served_from_the_package_with_a_strict_policy(client: TestClient) -> None:
    for path in ("/", "/g/ABCDEF", "/replay/123"):
        page = client.get(path)
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert "<title>Hisss</title>" in page.text
        policy = page.headers["content-security-policy"]
        assert "default-src 'self'" in policy and "http" not in policy
        assert page.headers["x-content-type-options"] == "nosniff"
    assert client.get("/static/index.html").status_code == 200
    assert "http" not in client.get("/").text.replace("/openapi.json", "")


def test_every_error_code_has_a_status() -> None:
    for code in ErrorCode:
        assert 400 <= code.status < 600 and code.meaning, code


@pytest.mark.parametrize(
    ("origin", "host", "allowed"),
    [
        (None, "example.org", True),
        ("http://example.org", "example.org", True),
        ("https://example.org:8443", "example.org:8443", True),
        ("https://evil.example", "example.org", False),
        ("null", "example.org", False),
        ("ftp://example.org", "example.org", False),
        ("http://example.org", None, False),
        ("https://friends.example", "example.org", True),
    ],
)
def test_origins(origin: str | None, host: str | None, allowed: bool) -> None:
    settings = Settings(database="x", allowed_origins=("https://friends.example",))
    assert settings.origin_allowed(origin, host) is allowed


def test_answers_are_compressed_and_the_front_ends_files_are_kept_a_year(
    client: TestClient,
) -> None:
    page = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert page.headers["content-encoding"] == "gzip"
    assert page.headers["cache-control"] == "no-cache", "the page is checked on every visit"
    links = re.findall(r'(?:src|href)="(/static/[^"]+)"', page.text)
    assert links and all(re.match(r"/static/[0-9a-f]{12}/", link) for link in links), links
    for link in links:
        answer = client.get(link, headers={"Accept-Encoding": "gzip"})
        assert answer.status_code == 200, link
        assert answer.headers["cache-control"] == "public, max-age=31536000, immutable"
    script = client.get(next(x for x in links if x.endswith(".js")))
    assert script.headers["content-encoding"] == "gzip"
    assert len(script.content) > int(script.headers["content-length"]), "smaller on the wire"
    catalog = client.get("/api/i18n/pl", headers={"Accept-Encoding": "gzip"})
    assert catalog.headers["content-encoding"] == "gzip"
    stale = links[0].split("/")
    stale[2] = "0" * 12
    assert client.get("/".join(stale)).status_code == 404, "only the current version is served"
    plain = client.get("/static/js/app.js")
    assert plain.status_code == 200 and plain.headers["cache-control"] == "no-cache"
