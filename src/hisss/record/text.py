"""Text for error messages: values shown as JSON and TOML write them, kept to one safe line.

Record and deck-file errors put values read from a file into a message that a terminal, a log or a
websocket frame shows on one line; this module makes them so.

>>> show_value([1]), show_value(None), show_value("H:red")
('a list', 'null', '"H:red"')
"""

from __future__ import annotations

import json
import math

#: Values longer than this many characters are shortened in messages.
SHOW_WIDTH = 40
#: Messages are shortened to this many characters, so that every error stays one readable line.
MESSAGE_WIDTH = 500

_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def printable(text: str, width: int | None = MESSAGE_WIDTH) -> str:
    """``text`` made safe for one line of a terminal: line breaks, other control characters and
    unpaired surrogates escaped, and at most ``width`` characters (``None``: any length).

    >>> printable("two\\nlines")
    'two\\\\nlines'
    """
    if not text.isprintable():
        text = "".join(char if char.isprintable() else escape(char) for char in text)
    if width is not None and len(text) > width:
        text = text[: width - 1] + "…"
    return text


def escape(char: str) -> str:
    """How JSON escapes the character ``char`` in a string: ``\\n``, ``\\u0007``."""
    code = ord(char)
    return _ESCAPES.get(char) or (f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")


def show_value(value: object) -> str:
    """A value read from JSON or TOML as it is written there, for an error message.

    Text is shown in double quotes, a list or an object by its kind, a long value shortened.

    >>> [show_value(v) for v in (None, True, 7, "7", [7], {"7": 7})]
    ['null', 'true', '7', '"7"', 'a list', 'an object']
    >>> show_value(1.5)
    '1.5 (a number with a fraction)'
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if value.bit_length() > 4 * SHOW_WIDTH:
            return "a very long whole number"
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan (not a number)"
        if math.isinf(value):
            return f"{'-' if value < 0 else ''}inf (an infinite number)"
        return f"{json.dumps(value)} (a number with a fraction)"
    if isinstance(value, str):
        if len(value) > SHOW_WIDTH:
            return json.dumps(value[:SHOW_WIDTH], ensure_ascii=False)[:-1] + '…"'
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a Python {type(value).__name__}"


def line_column(text: str, pos: int) -> tuple[int, int]:
    """The 1-based line and column of the character at ``pos`` in ``text``.

    >>> line_column("ab\\ncd", 4)
    (2, 2)
    """
    return text.count("\n", 0, pos) + 1, pos - text.rfind("\n", 0, pos)


def utf8_error(raw: bytes, exc: UnicodeDecodeError) -> tuple[int, int, str]:
    """The line, column and reason of the first byte of ``raw`` that is not UTF-8."""
    start = exc.start
    line_start = raw.rfind(b"\n", 0, start) + 1
    column = len(raw[line_start:start].decode("utf-8", "replace")) + 1
    reason = (
        f"not UTF-8 text: the byte 0x{raw[start]:02x} is not valid here ({exc.reason}); "
        "save the file as UTF-8"
    )
    return raw.count(b"\n", 0, start) + 1, column, reason
