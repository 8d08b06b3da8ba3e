"""docs/protocol.md stays exact: its tables of error codes, close codes and client messages are
those of the server, and every endpoint it lists is in the served OpenAPI schema."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from hisss.server import ErrorCode, Settings, create_app
from hisss.server.protocol import CLIENT_TYPES
from hisss.server.session import CLOSE_CODES

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    return DOC.split(f"\n{title}\n", 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]


def _rows(section: str) -> list[list[str]]:
    rows = []
    for line in section.splitlines():
        if line.startswith("| ") and not line.startswith("| ---"):
            rows.append([cell.strip() for cell in line.strip("|").split(" | ")])
    return rows[1:]  # without the header


def test_the_error_code_table_is_the_servers() -> None:
    rows = _rows(_section("## Error codes"))
    documented = {row[0].strip("`"): int(row[1]) for row in rows}
    assert documented == {code.value: code.status for code in ErrorCode}


def test_the_close_code_table_is_the_servers() -> None:
    rows = _rows(_section("### Limits and close codes"))
    assert {int(row[0]) for row in rows} == set(CLOSE_CODES)


def test_the_client_message_table_is_the_servers() -> None:
    rows = _rows(_section("### Client messages"))
    assert [row[0].strip("`") for row in rows] == list(CLIENT_TYPES)


def test_every_documented_endpoint_is_served(tmp_path: Path) -> None:
    app = create_app(Settings(database=f"sqlite+pysqlite:///{tmp_path / 'd.db'}"))
    schema = app.app.openapi()
    served = {(method.upper(), path) for path, item in schema["paths"].items() for method in item}
    rows = _rows(_section("## HTTP API"))
    documented = set()
    for row in rows:
        method, path = row[0].strip("`").split(" ", 1)
        path = re.sub(r"\?.*", "", path).replace("{id}", "{key}").replace("{n}", "{number}")
        documented.add((method, path))
    documented.discard(("GET", "/openapi.json"))
    assert documented == served


def _json_examples() -> list[Any]:
    """Every JSON example of the page: a block holds one object, or one object per line."""
    examples: list[Any] = []
    for block in re.findall(r"```json\n(.*?)```", DOC, flags=re.DOTALL):
        try:
            examples.append(json.loads(block))
        except json.JSONDecodeError:
            examples.extend(json.loads(line) for line in block.splitlines() if line.strip())
    return examples


def _example(examples: list[Any], *keys: str) -> dict[str, Any]:
    """The first example object that has all of ``keys``."""
    found: dict[str, Any] = next(
        e for e in examples if isinstance(e, dict) and all(k in e for k in keys)
    )
    return found


def _names(names: list[str]) -> str:
    """``a``, ``b`` and ``c``, as the page writes a list of fields."""
    quoted = [f"`{name}`" for name in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def test_the_json_examples_have_the_fields_the_server_sends(tmp_path: Path) -> None:
    examples = _json_examples()
    assert len(examples) >= 15
    by_type = {e["type"]: e for e in examples if isinstance(e, dict) and "type" in e}
    settings = Settings(database=f"sqlite+pysqlite:///{tmp_path / 'e.db'}", bot_delay=0)
    with TestClient(create_app(settings)) as client:
        create_body = next(
            e for e in examples if isinstance(e, dict) and "seats" in e and "rules" in e
        )
        created = client.post("/api/games", json=create_body).json()
        documented_created = _example(examples, "watch")
        assert set(documented_created) == set(created)
        assert [set(s) for s in documented_created["seats"]] == [set(s) for s in created["seats"]]
        joined = client.post(f"/api/games/{created['code']}/join", json={"name": "Olek"}).json()
        assert set(
            next(e for e in examples if isinstance(e, dict) and "token" in e and "seat" in e)
        ) == set(joined)
        with client.websocket_connect(created["websocket"]) as ws:
            ws.send_json({"type": "hello", "token": created["seats"][0]["token"]})
            welcome = ws.receive_json()
            state = ws.receive_json()
        assert set(by_type["welcome"]) == set(welcome)
        assert set(by_type["state"]) == set(state)
        assert set(by_type["state"]["seats"][0]) == set(state["seats"][0])
        summary = client.get("/api/games").json()["running"][0]
        lobby_entry = _example(examples, "open_seats")
        assert set(lobby_entry) == set(summary)
        assert set(lobby_entry["seats"][0]) == set(summary["seats"][0])
        game = client.get(f"/api/games/{created['code']}").json()
        missing, added = sorted(set(summary) - set(game)), sorted(set(game) - set(summary))
        # One view of a seat everywhere: the answer to a new game, the lobby, a summary, a state.
        seat_fields = set(state["seats"][0])
        assert all(set(seat) == seat_fields for seat in (*summary["seats"], *game["seats"]))
        assert all(set(seat) - {"token", "link"} == seat_fields for seat in created["seats"])
        sentence = (
            f"`GET /api/games/{{key}}` has the fields of a lobby entry except {_names(missing)}, "
            f"and adds {_names(added)};"
        )
        assert sentence in " ".join(DOC.split())
        record = (ROOT / "tests" / "golden" / "classic-2p-rainbow.json").read_bytes()
        uploaded = client.post("/api/replays", content=record).json()
        step = client.get(f"/api/replays/{uploaded['id']}/steps/2").json()
        last = client.get(f"/api/replays/{uploaded['id']}/steps/{uploaded['steps']}").json()
    step_example = _example(examples, "step")
    assert set(step_example) == set(step)
    assert set(step_example["last_event"]) == set(step["last_event"])
    assert set(_example(examples, "tie_break")) == set(last["result"])
    client_types = {
        e["type"] for e in examples if isinstance(e, dict) and e.get("type") in CLIENT_TYPES
    }
    assert client_types == set(CLIENT_TYPES)
