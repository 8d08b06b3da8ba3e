"""The server's errors: one :class:`ProtocolError` with a stable machine code and a clear text.

Every refusal the server sends, over HTTP or the websocket, carries one of the codes of
:class:`ErrorCode`; ``docs/protocol.md`` lists them all (a test keeps the two in step). The HTTP
status of each code is what the REST API answers with it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class ErrorCode(StrEnum):
    """Every refusal's code; the value is the protocol's spelling. Each has the HTTP status the
    REST API answers with it and a sentence on what it means."""

    BAD_JSON = "bad_json"
    BAD_MESSAGE = "bad_message"
    UNKNOWN_TYPE = "unknown_type"
    TOO_LARGE = "too_large"
    RATE_LIMITED = "rate_limited"
    FORBIDDEN_ORIGIN = "forbidden_origin"
    NOT_AUTHENTICATED = "not_authenticated"
    ALREADY_AUTHENTICATED = "already_authenticated"
    BAD_TOKEN = "bad_token"
    UNKNOWN_GAME = "unknown_game"
    UNKNOWN_REPLAY = "unknown_replay"
    SPECTATOR = "spectator"
    NOT_STARTED = "not_started"
    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    WRONG_PHASE = "wrong_phase"
    STALE_VERSION = "stale_version"
    BAD_ACTION = "bad_action"
    ILLEGAL_ACTION = "illegal_action"
    SEAT_IS_BOT = "seat_is_bot"
    SEAT_NOT_AWAY = "seat_not_away"
    NOT_A_PERSON = "not_a_person"
    SEAT_TAKEN = "seat_taken"
    NO_OPEN_SEAT = "no_open_seat"
    BAD_LEVEL = "bad_level"
    BAD_RULES = "bad_rules"
    BAD_DECK = "bad_deck"
    BAD_SEATS = "bad_seats"
    BAD_RECORD = "bad_record"
    BAD_STEP = "bad_step"
    NOT_FINISHED = "not_finished"
    CONFLICT = "conflict"
    NOT_FOUND = "not_found"
    SERVER_ERROR = "server_error"

    @property
    def status(self) -> int:
        """The HTTP status of a refusal with this code."""
        return _DETAILS[self][0]

    @property
    def meaning(self) -> str:
        """What the code means."""
        return _DETAILS[self][1]


_DETAILS: dict[ErrorCode, tuple[int, str]] = {
    ErrorCode.BAD_JSON: (400, "the message is not valid JSON"),
    ErrorCode.BAD_MESSAGE: (
        400,
        "the message is JSON but not a valid message (shape, field or type)",
    ),
    ErrorCode.UNKNOWN_TYPE: (400, "the message's type is not one the server knows"),
    ErrorCode.TOO_LARGE: (413, "the message or request body is larger than the limit"),
    ErrorCode.RATE_LIMITED: (429, "too many messages in a short time; the message was dropped"),
    ErrorCode.FORBIDDEN_ORIGIN: (403, "the request comes from a web page of another site"),
    ErrorCode.NOT_AUTHENTICATED: (401, "send hello first, with a seat token or as a spectator"),
    ErrorCode.ALREADY_AUTHENTICATED: (400, "hello was already accepted on this connection"),
    ErrorCode.BAD_TOKEN: (403, "the token is not the token of any seat of this game"),
    ErrorCode.UNKNOWN_GAME: (404, "no game has this id or code"),
    ErrorCode.UNKNOWN_REPLAY: (404, "no replay has this id"),
    ErrorCode.SPECTATOR: (403, "spectators watch; they cannot act"),
    ErrorCode.NOT_STARTED: (409, "the game is waiting for players to join"),
    ErrorCode.GAME_OVER: (409, "the game is over"),
    ErrorCode.NOT_YOUR_TURN: (409, "another seat is to move"),
    ErrorCode.WRONG_PHASE: (409, "draw first, then place the drawn card (or the other way round)"),
    ErrorCode.STALE_VERSION: (
        409,
        "the action was based on an older state; the fresh state follows",
    ),
    ErrorCode.BAD_ACTION: (400, "the action's text is not an action in the notation"),
    ErrorCode.ILLEGAL_ACTION: (409, "the action is well formed but not legal now"),
    ErrorCode.SEAT_IS_BOT: (409, "a bot plays this seat now; take it back first"),
    ErrorCode.SEAT_NOT_AWAY: (
        409,
        "the seat's player is connected or has not been away long enough",
    ),
    ErrorCode.NOT_A_PERSON: (409, "the seat is not played by a person"),
    ErrorCode.SEAT_TAKEN: (409, "the seat is not open for joining"),
    ErrorCode.NO_OPEN_SEAT: (409, "the game has no open seat left"),
    ErrorCode.BAD_LEVEL: (400, "no bot level has this name"),
    ErrorCode.BAD_RULES: (400, "the rules preset or a rule option is not valid"),
    ErrorCode.BAD_DECK: (400, "no deck has this name"),
    ErrorCode.BAD_SEATS: (400, "the seats do not make a game (number, kinds, names, levels)"),
    ErrorCode.BAD_RECORD: (422, "the uploaded game record is not a valid record of a game"),
    ErrorCode.BAD_STEP: (400, "the replay has no such step"),
    ErrorCode.NOT_FINISHED: (409, "the game is not over, so its record is not available yet"),
    ErrorCode.CONFLICT: (409, "another action was stored first; the fresh state follows"),
    ErrorCode.NOT_FOUND: (404, "no such page or endpoint"),
    ErrorCode.SERVER_ERROR: (500, "the server failed; nothing was changed"),
}


class ProtocolError(Exception):
    """A refusal: ``code`` says which (:class:`ErrorCode`), ``message`` is a sentence for people.

    ``resync`` asks the websocket session to send the fresh state after the error, so that a
    client whose view is out of date catches up.
    """

    def __init__(
        self, code: ErrorCode, message: str, *, resync: bool = False, **extra: Any
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.resync = resync
        self.extra = extra

    @property
    def status(self) -> int:
        """The HTTP status of the code."""
        return self.code.status

    def to_dict(self) -> dict[str, Any]:
        """The ``error`` object of an HTTP answer or a websocket ``error`` message."""
        return {"code": self.code.value, "message": self.message, **self.extra}
