"""Strict JSON text: read by the standard :mod:`json` module, its mistakes told in whole sentences.

:func:`read_json` parses with the module's hooks: no ``NaN`` or ``Infinity``, no number too large
for a float or too long for a whole number, no key twice in one object. A hook does not stop the
parser: it leaves a marker in place of what it refused, and the first marker found afterwards gives
the path. A syntax error keeps the line and column of :class:`json.JSONDecodeError`, told as a
sentence, and text nested so deeply that the parser gives up (about a thousand levels) is refused
at once.
:func:`json_position` finds where a path is written in valid text, for messages about a field.

>>> read_json('{"seats": ["a", "b"]}', "record")
{'seats': ['a', 'b']}
>>> read_json('{"seed": 1, "seed": 2}', "record")
Traceback (most recent call last):
...
hisss.record.jsontext.JsonTextError: the key "seed" appears twice in one object
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Iterator
from typing import Any

from hisss.record.text import SHOW_WIDTH, escape, line_column, printable, show_value

JsonPath = tuple[str | int, ...]

_SPACE = re.compile(r"[ \t\n\r]*")
_TOKEN = re.compile(r"[\w.+-]+|\S")
#: How a message names a character the parser did not expect.
_CHARACTERS = {
    ",": "a comma",
    ":": "a colon",
    '"': "a double quote",
    "'": "a single quote (JSON writes text in double quotes)",
    "{": "an opening brace {",
    "}": "a closing brace }",
    "[": "an opening bracket [",
    "]": "a closing bracket ]",
}
#: Python spellings a JSON writer may have used, and the JSON for them.
_PYTHON_SPELLINGS = {"True": "true", "False": "false", "None": "null"}
#: The sentence for each of the parser's messages, by how the message starts.
_SENTENCES = {
    "Expecting value": (
        "expected a value (a number, text in double quotes, true, false, null, a list or "
        "an object), {found}"
    ),
    "Expecting property name": "expected a field name in double quotes, {found}",
    "Expecting ':'": "expected a colon after the field name, {found}",
    "Expecting ','": "expected a comma or a closing bracket after the value, {found}",
    "Extra data": "more text after the end of the JSON value: {found}",
    "Invalid \\u": "bad escape in a string: \\u must be followed by four hexadecimal digits",
}


class JsonTextError(ValueError):
    """JSON text that cannot be read.

    ``reason`` is a whole sentence, ``line`` and ``column`` (1-based) its place when known, and
    ``path`` the keys and list indexes of a key written twice.
    """

    def __init__(
        self,
        reason: str,
        line: int | None = None,
        column: int | None = None,
        path: JsonPath | None = None,
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line
        self.column = column
        self.path = path


class _Refused:
    """What a hook leaves in place of a value it refused."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason


class _Duplicated(dict[str, Any]):
    """An object with a key written twice: the first value of each key, and that key."""

    key = ""


def read_json(text: str, what: str) -> object:
    """Parse JSON text strictly, as the module docstring says.

    Raises :class:`JsonTextError` with the place and a whole sentence; ``what`` names the text in
    messages (``record``, ``file``).
    """
    try:
        return _read(text, what, whole_numbers=False)
    except _TooManyDigitsError:
        # Read again, checking each whole number, to find the one too long and say where it is.
        return _read(text, what, whole_numbers=True)


class _TooManyDigitsError(ValueError):
    """A whole number too long for Python to convert, found without its place."""


class _Hooks:
    """The parser's hooks for :func:`_read`: they mark what JSON text may not hold (a repeated
    key, NaN or Infinity, a number too large) and keep the marks in ``refused``."""

    def __init__(self) -> None:
        self.refused: list[object] = []

    def unique(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key not in out:
                out[key] = value
            elif not isinstance(out, _Duplicated):
                out = _Duplicated(out)
                out.key = key
                self.refused.append(out)
        return out

    def refuse(self, reason: str) -> _Refused:
        marker = _Refused(reason)
        self.refused.append(marker)
        return marker

    def constant(self, name: str) -> object:
        return self.refuse(f"{name} is not a JSON number")

    def number(self, literal: str) -> object:
        value = float(literal)
        return value if math.isfinite(value) else self.refuse(f"the number {literal} is too large")

    def whole(self, literal: str) -> object:
        limit = sys.get_int_max_str_digits()
        if limit and len(literal.lstrip("-")) > limit:
            return self.refuse(f"a whole number of more than {limit} digits is too long to read")
        return int(literal)


def _read(text: str, what: str, whole_numbers: bool) -> object:
    """:func:`read_json`, with a hook for every whole number when ``whole_numbers`` is true (a
    hook costs time on every number, and the parser refuses a number too long without it)."""
    hooks = _Hooks()
    try:
        data = json.loads(
            text,
            object_pairs_hook=hooks.unique,
            parse_constant=hooks.constant,
            parse_float=hooks.number,
            parse_int=hooks.whole if whole_numbers else None,
        )
    except json.JSONDecodeError as exc:
        reason = _syntax_reason(text, exc.msg, exc.pos, what)
        raise JsonTextError(reason, exc.lineno, exc.colno) from None
    except RecursionError:
        raise JsonTextError(f"not valid JSON: {too_deep('lists and objects')}") from None
    except ValueError as exc:
        if "digits" in str(exc) and not whole_numbers:
            raise _TooManyDigitsError(str(exc)) from None
        raise JsonTextError(f"not valid JSON: {exc}") from None
    if hooks.refused:
        raise _refusal(text, data, hooks.refused)
    return data


def too_deep(things: str) -> str:
    """The reason for text nested more deeply than its parser goes; ``things`` names the kinds.

    A record or a deck file needs a few levels; deeper values that parse are refused by the field
    that holds them, as values of the wrong type.
    """
    return f"{things} nested too deeply to read"


def json_position(text: str, path: JsonPath) -> tuple[int, int] | None:
    """The line and column where ``path`` (keys and list indexes) is written in valid JSON
    ``text``: its key, or the list item; ``None`` when it is not there.

    >>> json_position('{"a": 1,\\n "b": [true, false]}', ("b", 1))
    (2, 14)
    """
    found = _locate(text, path)
    return None if found is None else line_column(text, found[0])


def _walk(value: object) -> Iterator[tuple[JsonPath, object]]:
    """Each value inside ``value`` (itself first), in the order written, and its path."""
    yield (), value
    path: list[str | int] = []
    stack: list[Iterator[tuple[Any, Any]]] = []
    if isinstance(value, (dict, list)):
        stack.append(iter(value.items()) if isinstance(value, dict) else enumerate(value))
    while stack:
        for key, item in stack[-1]:
            yield (*path, key), item
            if isinstance(item, (dict, list)):
                path.append(key)
                stack.append(iter(item.items()) if isinstance(item, dict) else enumerate(item))
                break
        else:
            stack.pop()
            if path:
                path.pop()


def _refusal(text: str, data: object, refused: list[object]) -> JsonTextError:
    """The error for the first value a hook refused, by its place in ``data``."""
    marked = {id(marker) for marker in refused}
    for path, value in _walk(data):
        if id(value) not in marked:
            continue
        if isinstance(value, _Duplicated):
            key_path = (*path, value.key)
            found = _locate(text, key_path, nth=1)
            reason = f"the key {show_value(value.key)} appears twice in one object"
            line, column = line_column(text, found[0]) if found else (None, None)
            return JsonTextError(reason, line, column, key_path)
        assert isinstance(value, _Refused)
        found = _locate(text, path)
        where = line_column(text, found[1]) if found else (None, None)
        return JsonTextError(f"not valid JSON: {value.reason}", *where)
    # Every refused value sits under a key written twice, whose object is reached first.
    raise AssertionError("a refused value is not in the parsed data")


def _skip_number(literal: str) -> int:
    return 0


#: Reads past a value without converting its numbers (they were checked by the first parse).
_SKIP = json.JSONDecoder(
    parse_float=_skip_number, parse_int=_skip_number, parse_constant=_skip_number
)


def _space(text: str, pos: int) -> int:
    match = _SPACE.match(text, pos)
    return pos if match is None else match.end()


def _locate(text: str, path: JsonPath, nth: int = 0) -> tuple[int, int] | None:
    """Where ``path`` is written in ``text``, which :mod:`json` reads: the position of its key (of
    the item, in a list) and of its value; with ``nth``, of the ``nth`` + 1-th time its last key
    is written in its object. ``None`` when it is not there.

    Only the containers along the path are stepped through; the decoder reads every key and
    every value passed over.
    """
    pos = key_pos = _space(text, 0)
    try:
        for depth, part in enumerate(path):
            closer = {"{": "}", "[": "]"}.get(text[pos])
            if closer is None:
                return None
            wanted = nth if depth == len(path) - 1 else 0
            pos = _space(text, pos + 1)
            index = 0
            while text[pos] != closer:
                key_pos = pos
                key: object = index
                if closer == "}":
                    key, pos = _SKIP.raw_decode(text, pos)
                    pos = _space(text, _space(text, pos) + 1)  # past the colon
                if key == part:
                    if not wanted:
                        break
                    wanted -= 1
                _, pos = _SKIP.raw_decode(text, pos)
                pos = _space(text, pos)
                if text[pos] == ",":
                    pos = _space(text, pos + 1)
                index += 1
            else:
                return None
    except (IndexError, ValueError, RecursionError):
        return None
    return key_pos, pos


def _syntax_reason(text: str, message: str, pos: int, what: str) -> str:
    """A whole sentence for the parser's ``message`` about the JSON ``text`` at ``pos``."""
    cut = f" (the {what} may be cut short)"
    if not text.strip():
        return "not valid JSON: the text is empty"
    before = text[:pos].rstrip()[-1:]
    here = text[pos : pos + 1]
    token_match = _TOKEN.search(text, pos)
    token = token_match.group()[:SHOW_WIDTH] if token_match else here
    found = f"found {_CHARACTERS.get(token) or printable(token)}"
    if token in _PYTHON_SPELLINGS:
        found += f" (JSON writes {_PYTHON_SPELLINGS[token]})"
    sentence = next((s for m, s in _SENTENCES.items() if message.startswith(m)), None)
    if message.startswith("Unterminated string"):
        reason = "unterminated string: the text in double quotes that starts here is never closed"
        reason += cut
    elif pos >= len(text.rstrip()):
        reason = "the text ends before the JSON is complete" + cut
    elif message.startswith("Invalid control character"):
        if here in "\r\n":
            reason = (
                "a string runs to the end of the line without its closing double quote "
                "(a line break inside a string is written \\n)"
            )
        else:
            reason = f"a control character inside a string must be escaped: write {escape(here)}"
    elif message.startswith("Invalid \\escape"):
        reason = (
            f"bad escape {printable(text[pos : pos + 2])} in a string "
            '(JSON knows \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX)'
        )
    elif "trailing comma" in message or (before == "," and here in "]}"):
        reason = "a comma after the last item of a list or an object is not allowed in JSON"
    elif sentence is not None:
        reason = sentence.format(found=found)
    else:
        reason = message.removesuffix(" at").strip()
        reason = reason[:1].lower() + reason[1:]
    return f"not valid JSON: {reason}"
