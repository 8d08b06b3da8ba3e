"""docs/protocol.md stays exact: its tables of error codes, close codes and client messages are
those of the server, and every endpoint it lists is in the served OpenAPI schema."""

from __future__ import annotations

import re
from pathlib import Path

from hisss.server import ERROR_CODES, Settings, create_app
from hisss.server.session import CLIENT_TYPES, CLOSE_CODES

DOC = (Path(__file__).resolve().parent.parent / "docs" / "protocol.md").read_text(encoding="utf-8")


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
    assert documented == {code: status for code, (status, _) in ERROR_CODES.items()}


def test_the_close_code_table_is_the_servers() -> None:
    rows = _rows(_section("### Limits and close codes"))
    assert {int(row[0]) for row in rows} == set(CLOSE_CODES)


def test_the_client_message_table_is_the_servers() -> None:
    rows = _rows(_section("### Client messages"))
    assert [row[0].strip("`") for row in rows] == list(CLIENT_TYPES)


def test_every_documented_endpoint_is_served(tmp_path: Path) -> None:
    app = create_app(Settings(database=f"sqlite+aiosqlite:///{tmp_path / 'd.db'}"))
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
