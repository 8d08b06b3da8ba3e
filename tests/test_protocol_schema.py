"""The websocket protocol's types (hisss.server.protocol): the schema in docs is the one the
models make, every client message type has its model, and a wrong field gets the protocol's own
error. Every message the server sends in the web tests is checked against the server's models by
``support.web.receive``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from hisss.server.errors import ErrorCode, ProtocolError
from hisss.server.protocol import (
    CLIENT_TYPES,
    SERVER_MESSAGES,
    Draw,
    Ping,
    Play,
    ReplaceWithBot,
    read_client_message,
    schema,
    schema_text,
)

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "docs" / "protocol.schema.json"


def test_the_schema_in_docs_is_the_models() -> None:
    assert SCHEMA.read_text(encoding="utf-8") == schema_text(), (
        "docs/protocol.schema.json is stale: python -m hisss.server.protocol > "
        "docs/protocol.schema.json"
    )


def test_the_schema_names_every_message() -> None:
    mapping = schema()["$defs"]["ClientMessage"]["discriminator"]["mapping"]
    assert sorted(mapping) == sorted(CLIENT_TYPES)
    served = schema()["$defs"]["ServerMessage"]["discriminator"]["mapping"]
    assert sorted(served) == ["error", "hint", "pong", "state", "welcome"]


def test_client_messages_are_read_into_their_models() -> None:
    assert read_client_message({"type": "draw", "version": 0}) == Draw(type="draw", version=0)
    play = read_client_message({"type": "play", "version": 4, "action": "new", "extra": 1})
    assert isinstance(play, Play) and play.action == "new" and play.seat is None
    replace = read_client_message({"type": "replace_with_bot", "seat": 2})
    assert isinstance(replace, ReplaceWithBot) and replace.level == "medium"
    assert read_client_message({"type": "ping", "data": [1]}) == Ping(type="ping", data=[1])


@pytest.mark.parametrize(
    ("message", "code", "words"),
    [
        ({"type": "draw"}, ErrorCode.BAD_MESSAGE, '"version" must be'),
        ({"type": "draw", "version": True}, ErrorCode.BAD_MESSAGE, '"version" must be'),
        ({"type": "draw", "version": -1}, ErrorCode.BAD_MESSAGE, '"version" must be'),
        ({"type": "draw", "version": 1, "pick": 1.5}, ErrorCode.BAD_MESSAGE, "pick is"),
        ({"type": "play", "version": 1, "action": 5}, ErrorCode.BAD_MESSAGE, 'play needs "action"'),
        ({"type": "play", "seat": "1", "version": 1}, ErrorCode.BAD_MESSAGE, "seat must be"),
        ({"type": "replace_with_bot"}, ErrorCode.BAD_MESSAGE, "the seat number (1-6)"),
        ({"type": "replace_with_bot", "seat": 2, "level": 1}, ErrorCode.BAD_LEVEL, "level is one"),
        ({"type": "hint", "seat": False}, ErrorCode.BAD_MESSAGE, "seat must be"),
    ],
)
def test_a_wrong_field_gets_the_protocols_error(
    message: dict[str, Any], code: ErrorCode, words: str
) -> None:
    with pytest.raises(ProtocolError) as raised:
        read_client_message(message)
    assert raised.value.code is code and words in raised.value.message


def test_the_server_models_refuse_what_the_server_never_sends() -> None:
    pong = {"type": "pong", "data": "x"}
    SERVER_MESSAGES.validate_python(pong)
    with pytest.raises(ValidationError):
        SERVER_MESSAGES.validate_python({**pong, "surprise": 1})
    with pytest.raises(ValidationError):
        SERVER_MESSAGES.validate_python({"type": "hint", "seat": 1, "action": "new"})


def test_the_schema_is_json() -> None:
    assert json.loads(SCHEMA.read_text(encoding="utf-8"))["title"] == "The Hisss websocket protocol"
