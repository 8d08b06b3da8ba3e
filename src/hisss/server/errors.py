"""The server's errors: one :class:`ProtocolError` with a stable machine code and a clear text.

Every refusal the server sends, over HTTP or the websocket, carries one of the codes of
:data:`ERROR_CODES`; ``docs/protocol.md`` lists them all (a test keeps the two in step). The HTTP
status of each code is what the REST API answers with it.
"""

from __future__ import annotations

from typing import Any

#: Every error code: its HTTP status and what it means.
ERROR_CODES: dict[str, tuple[int, str]] = {
    "bad_json": (400, "the message is not valid JSON"),
    "bad_message": (400, "the message is JSON but not a valid message (shape, field or type)"),
    "unknown_type": (400, "the message's type is not one the server knows"),
    "too_large": (413, "the message or request body is larger than the limit"),
    "rate_limited": (429, "too many messages in a short time; the message was dropped"),
    "forbidden_origin": (403, "the request comes from a web page of another site"),
    "not_authenticated": (401, "send hello first, with a seat token or as a spectator"),
    "already_authenticated": (400, "hello was already accepted on this connection"),
    "bad_token": (403, "the token is not the token of any seat of this game"),
    "unknown_game": (404, "no game has this id or code"),
    "unknown_replay": (404, "no replay has this id"),
    "spectator": (403, "spectators watch; they cannot act"),
    "not_started": (409, "the game is waiting for players to join"),
    "game_over": (409, "the game is over"),
    "not_your_turn": (409, "another seat is to move"),
    "wrong_phase": (409, "draw first, then place the drawn card (or the other way round)"),
    "stale_version": (409, "the action was based on an older state; the fresh state follows"),
    "bad_action": (400, "the action's text is not an action in the notation"),
    "illegal_action": (409, "the action is well formed but not legal now"),
    "seat_is_bot": (409, "a bot plays this seat now; take it back first"),
    "seat_not_away": (409, "the seat's player is connected or has not been away long enough"),
    "not_a_person": (409, "the seat is not played by a person"),
    "seat_taken": (409, "the seat is not open for joining"),
    "no_open_seat": (409, "the game has no open seat left"),
    "bad_level": (400, "no bot level has this name"),
    "bad_rules": (400, "the rules preset or a rule option is not valid"),
    "bad_deck": (400, "no deck has this name"),
    "bad_seats": (400, "the seats do not make a game (number, kinds, names, levels)"),
    "bad_record": (422, "the uploaded game record is not a valid record of a game"),
    "bad_step": (400, "the replay has no such step"),
    "not_finished": (409, "the game is not over, so its record is not available yet"),
    "conflict": (409, "another action was stored first; the fresh state follows"),
    "not_found": (404, "no such page or endpoint"),
    "server_error": (500, "the server failed; nothing was changed"),
}


class ProtocolError(Exception):
    """A refusal: ``code`` is one of :data:`ERROR_CODES`, ``message`` a sentence for people.

    ``resync`` asks the websocket session to send the fresh state after the error, so that a
    client whose view is out of date catches up.
    """

    def __init__(self, code: str, message: str, *, resync: bool = False, **extra: Any) -> None:
        assert code in ERROR_CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
        self.resync = resync
        self.extra = extra

    @property
    def status(self) -> int:
        """The HTTP status of the code."""
        return ERROR_CODES[self.code][0]

    def to_dict(self) -> dict[str, Any]:
        """The ``error`` object of an HTTP answer or a websocket ``error`` message."""
        return {"code": self.code, "message": self.message, **self.extra}
