"""The websocket protocol as types: every message a client sends and every message the server
sends, as pydantic models, and the JSON Schema made from them (``docs/protocol.schema.json``).

A client's message is read by :func:`read_client_message`: a discriminated union on ``type``
(:data:`ClientMessage`), so each kind is one model and the session dispatches on the model's
class. A field of the wrong type gets the protocol's own error for that field (the code and the
words of :attr:`ClientMessageBase.problems`), never pydantic's text. Fields a message does not
declare are ignored, as they always were.

The server's messages (:data:`ServerMessage`) describe what the session sends: ``welcome``,
``state`` (with the hand variant's fields when the game has hands), ``error``, ``hint`` and
``pong``. The tests check every message the server sends in them against these models, and
``docs/protocol.schema.json`` is generated from both unions::

    python -m hisss.server.protocol > docs/protocol.schema.json

>>> read_client_message({"type": "play", "version": 3, "action": "1R:orange"})
Play(type='play', seat=None, version=3, action='1R:orange')
>>> read_client_message({"type": "draw", "version": 3, "pick": "the third"})
Traceback (most recent call last):
...
hisss.server.errors.ProtocolError: pick is the number of a face-down card
"""

from __future__ import annotations

import json
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, TypeAdapter
from pydantic import ValidationError as PydanticValidationError

from hisss.bots import LEVEL_NAMES
from hisss.server.errors import ErrorCode, ProtocolError

#: The words for a bad ``version``, shared by every message that carries one.
BAD_VERSION = (
    ErrorCode.BAD_MESSAGE,
    '"version" must be the version of the state the action is based on',
)
#: The words for a bad ``seat`` of a message acting for one of the connection's seats.
BAD_SEAT = (ErrorCode.BAD_MESSAGE, "seat must be the number of a seat this connection holds")

#: A message of the protocol as its JSON object, as the server builds and sends it (the models
#: below describe each kind; the web tests check every one sent against them).
Message = dict[str, Any]
#: A step of the game as a state message shows it (``last_event`` and the ``log``: :class:`Event`).
EventData = dict[str, Any]

Version = Annotated[StrictInt, Field(ge=0, description="the version of the state acted on")]
SeatNumber = Annotated[StrictInt, Field(description="a seat, counted from 1")]


class ClientMessageBase(BaseModel):
    """What every client message shares: its ``type``, and undeclared fields ignored."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    #: For each field, the error code and words a wrong value of it gets.
    problems: ClassVar[dict[str, tuple[ErrorCode, str]]] = {}


class Hello(ClientMessageBase):
    """Says who the connection is: a seat's token, or ``role: "spectator"``."""

    type: Literal["hello"]
    token: Any = Field(default=None, description="a seat's token (text of up to 256 characters)")
    role: Any = Field(default=None, description='"spectator" to watch without a token')


class Draw(ClientMessageBase):
    """The seat to move draws the next card."""

    type: Literal["draw"]
    seat: SeatNumber | None = None
    version: Version
    pick: StrictInt | None = Field(default=None, description="the face-down card clicked")
    problems = {
        "seat": BAD_SEAT,
        "version": BAD_VERSION,
        "pick": (ErrorCode.BAD_MESSAGE, "pick is the number of a face-down card"),
    }


class Play(ClientMessageBase):
    """The seat to move places the drawn card (or plays a card of its hand) as ``action``."""

    type: Literal["play"]
    seat: SeatNumber | None = None
    version: Version
    action: str = Field(description="a legal action in notation, such as 1R:orange")
    problems = {
        "seat": BAD_SEAT,
        "version": BAD_VERSION,
        "action": (ErrorCode.BAD_MESSAGE, 'play needs "action": text such as "1R:orange"'),
    }


class ReplaceWithBot(ClientMessageBase):
    """Hands a person seat that has been away long enough to a bot of ``level``."""

    type: Literal["replace_with_bot"]
    seat: SeatNumber
    level: str = "medium"
    version: Version | None = None
    problems = {
        "seat": (ErrorCode.BAD_MESSAGE, "replace_with_bot needs the seat number (1-6)"),
        "level": (ErrorCode.BAD_LEVEL, f"level is one of {', '.join(LEVEL_NAMES)}, as text"),
        "version": BAD_VERSION,
    }


class _SeatMessage(ClientMessageBase):
    """A message acting for one of the connection's seats (``seat``, or the one to move)."""

    seat: SeatNumber | None = None
    problems = {"seat": BAD_SEAT}


class TakeSeat(_SeatMessage):
    """The token holder of a seat a bot took over plays it again."""

    type: Literal["take_seat"]


class Rematch(_SeatMessage):
    """After the end: asks for a rematch."""

    type: Literal["rematch"]


class Hint(_SeatMessage):
    """The seat to place its card asks for the expert bot's choice."""

    type: Literal["hint"]


class Sync(ClientMessageBase):
    """Asks for the current state with its whole log."""

    type: Literal["sync"]


class Ping(ClientMessageBase):
    """Asks for a ``pong`` carrying the same ``data`` (short text or a number)."""

    type: Literal["ping"]
    data: Any = None


#: Every message a client may send, told apart by ``type``.
ClientMessage = Annotated[
    Hello | Draw | Play | ReplaceWithBot | TakeSeat | Rematch | Hint | Sync | Ping,
    Field(discriminator="type"),
]

_CLIENT = TypeAdapter(ClientMessage)

#: The client message types, in the order docs/protocol.md lists them.
CLIENT_TYPES = (
    "hello",
    "draw",
    "play",
    "replace_with_bot",
    "take_seat",
    "rematch",
    "hint",
    "sync",
    "ping",
)


def _not_json(word: str) -> object:
    """Python's reader takes NaN and Infinity, which are not JSON (and could be echoed back)."""
    raise ValueError(f"{word} is not JSON")


#: The reader of clients' messages, made once (``json.loads`` with an option makes one per call).
#: Not orjson: it reads integers past 64 bits as floats, which would change what a message means.
_READER = json.JSONDecoder(parse_constant=_not_json)


def decode(text: str) -> object:
    """The JSON value of a message's text; raises ``ValueError`` (or ``RecursionError``) when
    it is not JSON."""
    return _READER.decode(text)


def ping_payload(value: object) -> str | int | float | None:
    """The ``data`` a pong echoes: small payloads only."""
    if isinstance(value, (int, float, str)) and len(str(value)) <= 64:
        return value
    return None


def read_client_message(message: dict[str, Any]) -> ClientMessageBase:
    """The typed message of ``message`` (a JSON object whose ``type`` is one of
    :data:`CLIENT_TYPES`); raises :class:`ProtocolError` with the protocol's words for the first
    field that is wrong."""
    try:
        parsed: ClientMessageBase = _CLIENT.validate_python(message)
    except PydanticValidationError as error:
        first = error.errors()[0]
        kind = _MODELS[message["type"]]
        field = str(first["loc"][1]) if len(first["loc"]) > 1 else ""
        code, words = kind.problems.get(field, (ErrorCode.BAD_MESSAGE, f"{field}: {first['msg']}"))
        raise ProtocolError(code, words) from None
    return parsed


_MODELS: dict[str, type[ClientMessageBase]] = {
    "hello": Hello,
    "draw": Draw,
    "play": Play,
    "replace_with_bot": ReplaceWithBot,
    "take_seat": TakeSeat,
    "rematch": Rematch,
    "hint": Hint,
    "sync": Sync,
    "ping": Ping,
}


# ---------------------------------------------------------------------- server messages


class ServerMessageBase(BaseModel):
    """What every server message shares: no field that is not declared."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Limits(ServerMessageBase):
    """The limits a connection must keep."""

    max_message_bytes: int
    rate_per_second: float
    rate_burst: int


class WelcomeMessage(ServerMessageBase):
    """Once, after an accepted ``hello``: the game, the connection's role and seats, the rules."""

    type: Literal["welcome"]
    protocol: int
    game: str
    code: str
    title: str
    role: Literal["seat", "spectator"]
    seat: int | None
    seats: list[int]
    rules: dict[str, bool | int | str]
    deck: str
    deck_size: int
    away_seconds: float
    unseen_seconds: float
    levels: list[str]
    limits: Limits


class SeatState(ServerMessageBase):
    """A seat as every message shows it."""

    seat: int
    kind: Literal["person", "bot"]
    name: str
    level: str | None
    open: bool
    connected: bool
    away_seconds: float | None
    arrived: bool


class Score(ServerMessageBase):
    """A seat's cards and snakes in its pit, and its longest snake (the tie-break)."""

    cards: int
    snakes: int
    longest: int


class Event(ServerMessageBase):
    """A step of the game: the starter, a draw, a placement, a seat handed over, a rematch."""

    seq: int
    kind: Literal["starter", "draw", "play", "bot", "person", "rematch"]
    seat: int | None = None
    card: str | None = None
    action: str | None = None
    claimed: str | None = None
    hisss: StrictBool | None = None
    level: str | None = None
    by: int | None = None
    code: str | None = None


class RematchState(ServerMessageBase):
    """Who must ask for the rematch, who has, and its game's code once made."""

    needed: list[int]
    asked: list[int]
    code: str | None


class ResultState(ServerMessageBase):
    """The result of a finished game, with how it was decided in words."""

    winners: list[int]
    decided_by: str
    cards: list[int]
    snakes: list[int]
    longest: list[int]
    tie_break: bool
    explanations: dict[str, str]
    explanation: str


class StateMessage(ServerMessageBase):
    """The game as a connection may see it (see docs/protocol.md, The state message); a game of
    the hand variant adds its fields, each seat's hand only to its holder."""

    type: Literal["state"]
    game: str
    code: str
    version: int
    status: Literal["open", "running", "finished"]
    phase: Literal["waiting", "starting", "deal", "draw", "place", "over"]
    to_move: int | None
    drawn: str | None
    legal: list[str]
    claims: dict[str, int]
    table: list[str]
    pits: list[list[str]]
    scores: list[Score]
    cards_left: int
    turn: int
    seats: list[SeatState]
    last_event: Event | None
    log: list[Event] | None = None
    pace: Literal["fast", "normal", "slow"]
    public: bool
    rematch: RematchState | None
    result: ResultState | None
    hand_size: int | None = None
    hands_seen_by_all: bool | None = None
    hand_sizes: list[int] | None = None
    hands: list[list[str] | None] | None = None


class ErrorMessage(ServerMessageBase):
    """A refused message: a code, words, and the type of the message refused."""

    type: Literal["error"]
    code: str
    message: str
    request: str | None = None
    #: With ``illegal_action``: the legal actions.
    legal: list[str] | None = None


class HintMessage(ServerMessageBase):
    """The answer to ``hint``: the expert's placement (``quick``: careful's, while the expert's
    compiled code is made ready)."""

    type: Literal["hint"]
    seat: int
    action: str
    quick: bool


class PongMessage(ServerMessageBase):
    """The answer to ``ping``."""

    type: Literal["pong"]
    data: str | int | float | None


#: Every message the server sends, told apart by ``type``.
ServerMessage = Annotated[
    WelcomeMessage | StateMessage | ErrorMessage | HintMessage | PongMessage,
    Field(discriminator="type"),
]

SERVER_MESSAGES = TypeAdapter(ServerMessage)


def schema() -> dict[str, Any]:
    """The JSON Schema of the websocket protocol: the client's messages and the server's."""
    client = TypeAdapter(ClientMessage).json_schema(ref_template="#/$defs/{model}")
    server = SERVER_MESSAGES.json_schema(ref_template="#/$defs/{model}")
    defs = {**client.pop("$defs", {}), **server.pop("$defs", {})}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "The Hisss websocket protocol",
        "description": "Generated from hisss.server.protocol: python -m hisss.server.protocol",
        "$defs": {
            **defs,
            "ClientMessage": client,
            "ServerMessage": server,
        },
        "oneOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessage"}],
    }


def schema_text() -> str:
    """:func:`schema` as the text of ``docs/protocol.schema.json``."""
    return json.dumps(schema(), indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":
    print(schema_text(), end="")


__all__ = [
    "CLIENT_TYPES",
    "SERVER_MESSAGES",
    "ClientMessage",
    "ClientMessageBase",
    "Draw",
    "ErrorMessage",
    "EventData",
    "Hello",
    "Hint",
    "HintMessage",
    "Message",
    "Ping",
    "Play",
    "PongMessage",
    "Rematch",
    "ReplaceWithBot",
    "ServerMessage",
    "StateMessage",
    "Sync",
    "TakeSeat",
    "WelcomeMessage",
    "decode",
    "ping_payload",
    "read_client_message",
    "schema",
    "schema_text",
]
