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

    status: int
    meaning: str

    # The defaults only let ``ErrorCode("bad_json")`` (a look-up by value) type-check.
    def __new__(cls, value: str, status: int = 0, meaning: str = "") -> ErrorCode:
        member = str.__new__(cls, value)
        member._value_ = value
        member.status = status
        member.meaning = meaning
        return member

    BAD_JSON = "bad_json", 400, "the message is not valid JSON"
    BAD_MESSAGE = (
        "bad_message",
        400,
        "the message is JSON but not a valid message (shape, field or type)",
    )
    UNKNOWN_TYPE = "unknown_type", 400, "the message's type is not one the server knows"
    TOO_LARGE = "too_large", 413, "the message or request body is larger than the limit"
    RATE_LIMITED = "rate_limited", 429, "too many messages in a short time; the message was dropped"
    FORBIDDEN_ORIGIN = "forbidden_origin", 403, "the request comes from a web page of another site"
    NOT_AUTHENTICATED = (
        "not_authenticated",
        401,
        "send hello first, with a seat token or as a spectator",
    )
    ALREADY_AUTHENTICATED = (
        "already_authenticated",
        400,
        "hello was already accepted on this connection",
    )
    BAD_TOKEN = "bad_token", 403, "the token is not the token of any seat of this game"
    UNKNOWN_GAME = "unknown_game", 404, "no game has this id or code"
    UNKNOWN_REPLAY = "unknown_replay", 404, "no replay has this id"
    SPECTATOR = "spectator", 403, "spectators watch; they cannot act"
    NOT_STARTED = "not_started", 409, "the game is waiting for players to join"
    GAME_OVER = "game_over", 409, "the game is over"
    NOT_YOUR_TURN = "not_your_turn", 409, "another seat is to move"
    WRONG_PHASE = (
        "wrong_phase",
        409,
        "draw first, then place the drawn card (or the other way round)",
    )
    STALE_VERSION = (
        "stale_version",
        409,
        "the action was based on an older state; the fresh state follows",
    )
    BAD_ACTION = "bad_action", 400, "the action's text is not an action in the notation"
    ILLEGAL_ACTION = "illegal_action", 409, "the action is well formed but not legal now"
    SEAT_IS_BOT = "seat_is_bot", 409, "a bot plays this seat now; take it back first"
    SEAT_NOT_AWAY = (
        "seat_not_away",
        409,
        "the seat's player is connected or has not been away long enough",
    )
    NOT_A_PERSON = "not_a_person", 409, "the seat is not played by a person"
    SEAT_TAKEN = "seat_taken", 409, "the seat is not open for joining"
    NO_OPEN_SEAT = "no_open_seat", 409, "the game has no open seat left"
    BAD_LEVEL = "bad_level", 400, "no bot level has this name"
    BAD_RULES = "bad_rules", 400, "the rules preset or a rule option is not valid"
    BAD_DECK = "bad_deck", 400, "no deck has this name"
    BAD_SEATS = "bad_seats", 400, "the seats do not make a game (number, kinds, names, levels)"
    BAD_RECORD = "bad_record", 422, "the uploaded game record is not a valid record of a game"
    BAD_STEP = "bad_step", 400, "the replay has no such step"
    NOT_FINISHED = "not_finished", 409, "the game is not over, so its record is not available yet"
    NO_REMATCH = (
        "no_rematch",
        409,
        "a rematch cannot be asked for now: the game is not over, or it was asked for already",
    )
    NO_HINT = "no_hint", 409, "a hint is given to the seat that is to place a drawn card"
    CONFLICT = "conflict", 409, "another action was stored first; the fresh state follows"
    NOT_FOUND = "not_found", 404, "no such page or endpoint"
    SERVER_ERROR = "server_error", 500, "the server failed; nothing was changed"
    BUSY = (
        "busy",
        503,
        "the server, this game or your address has as many connections as it may; try later",
    )
    TOO_SLOW = "too_slow", 408, "the request's body did not arrive in time"


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
