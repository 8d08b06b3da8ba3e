"""The fields of a client's websocket messages, read and checked before a session acts on them.

Every check that fails raises :class:`~hisss.server.errors.ProtocolError` with a stable code,
as ``docs/protocol.md`` lists them; the session turns it into an ``error`` message.
"""

from __future__ import annotations

import json
from typing import Any

from hisss.bots import LEVEL_NAMES
from hisss.server.errors import ErrorCode, ProtocolError

#: Stands for "no version given" where the version is optional.
NO_VERSION = -1


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


def version_of(message: dict[str, Any], *, required: bool) -> int:
    """The ``version`` of the state an action is based on (:data:`NO_VERSION` when it may be
    left out and is)."""
    version = message.get("version")
    if version is None and not required:
        return NO_VERSION
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE,
            '"version" must be the version of the state the action is based on',
        )
    return version


def check_pick(message: dict[str, Any]) -> None:
    """A draw's ``pick``, when given, is the number of a face-down card."""
    pick = message.get("pick")
    if pick is not None and (isinstance(pick, bool) or not isinstance(pick, int)):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "pick is the number of a face-down card")


def action_of(message: dict[str, Any]) -> str:
    """A play's ``action``, as text (parsed by the game)."""
    action = message.get("action")
    if not isinstance(action, str):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, 'play needs "action": text such as "1R:orange"')
    return action


def handover_of(message: dict[str, Any]) -> tuple[int, str]:
    """A ``replace_with_bot``'s seat (from 1) and the bot's level (default ``medium``)."""
    target = message.get("seat")
    if isinstance(target, bool) or not isinstance(target, int):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "replace_with_bot needs the seat number (1-6)")
    level = message.get("level", "medium")
    if not isinstance(level, str):
        raise ProtocolError(
            ErrorCode.BAD_LEVEL, f"level is one of {', '.join(LEVEL_NAMES)}, as text"
        )
    return target, level


def ping_payload(value: object) -> object:
    """The ``data`` a pong echoes: small payloads only."""
    if isinstance(value, (int, float, str)) and len(str(value)) <= 64:
        return value
    return None
