"""Deck files: user decks read from TOML or JSON, and deck names resolved to decks.

This module owns reading a deck description from a file (:func:`load_deck`), choosing between a
built-in deck and a file (:func:`resolve_deck`), and :class:`DeckFileError`, whose message names the
file, the line and column of a syntax error or the offending field, and the reason. A file is
parsed by :mod:`tomllib` or :func:`hisss.record.jsontext.read_json`, its shape checked by
:class:`hisss.record.schema.DeckModel`, and what a valid deck is, is decided by
:meth:`hisss.core.decks.Deck.from_mapping`. A file larger than :data:`MAX_DECK_FILE_SIZE` is refused
before it is read.

A deck file in TOML::

    name = "mini"
    description = "A small deck for quick games."

    [cards]
    "H:red" = 1
    "T:red" = 1
    "M:red-orange" = 4

The same deck in JSON::

    {"name": "mini", "cards": {"H:red": 1, "T:red": 1, "M:red-orange": 4}}

>>> resolve_deck("all-pairs").size
50
"""

from __future__ import annotations

import math
import os
import re
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hisss.core.decks import BUILTIN_DECKS, Deck
from hisss.core.errors import DeckError
from hisss.record.files import FileTextError, read_text
from hisss.record.jsontext import (
    JsonPath,
    JsonTextError,
    json_position,
    read_json,
    too_deep,
)
from hisss.record.text import printable, show_value

#: The file types a deck can be read from, by extension.
DECK_FILE_TYPES = (".toml", ".json")
#: The largest deck file a reader takes, in bytes.
MAX_DECK_FILE_SIZE = 2**20

_TOML_WHERE = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_TOML_END = re.compile(r"\s*\(at end of document\)\s*$")
#: A TOML statement longer than this many lines is not searched for a key.
_MAX_STATEMENT_LINES = 200


class DeckFileError(DeckError):
    """A deck file that cannot be read or does not describe a valid deck.

    ``file`` is the path as given, ``field`` the offending field (empty for the file as a whole),
    ``line`` and ``column`` the place of a syntax error when known.
    """

    def __init__(
        self,
        file: str,
        reason: str,
        *,
        field: str = "",
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        super().__init__(field, reason)
        self.file = file
        self.line = line
        self.column = column
        parts = [file]
        if line is not None:
            parts.append(f"line {line}" if column is None else f"line {line}, column {column}")
        if field:
            parts.append(field)
        parts.append(reason)
        self.args = (printable(": ".join(parts)),)


def load_deck(path: str | os.PathLike[str]) -> Deck:
    """Read a deck from a ``.toml`` or ``.json`` file; raises :class:`DeckFileError`.

    A deck without a ``name`` field is named after the file (``mini.toml`` gives ``mini``). A bad
    field is reported with the line where it is written. A file larger than
    :data:`MAX_DECK_FILE_SIZE` bytes is refused before it is read.
    """
    file = os.fspath(path)
    where = Path(path)
    suffix = where.suffix.lower()
    if suffix not in DECK_FILE_TYPES:
        kind = f"type {show_value(where.suffix)}" if where.suffix else "type (no extension)"
        raise DeckFileError(file, f"unknown deck file {kind}: use {' or '.join(DECK_FILE_TYPES)}")
    try:
        text = read_text(path, MAX_DECK_FILE_SIZE, "deck file").removeprefix("\ufeff")
    except FileTextError as exc:
        raise DeckFileError(file, exc.reason, line=exc.line, column=exc.column) from None
    toml = suffix == ".toml"
    data = _parse_toml(file, text) if toml else _parse_json(file, text)
    from hisss.record import schema  # noqa: PLC0415 - it loads pydantic: only when a file is read

    problem = schema.deck_problem(data)
    if problem is not None:
        loc, reason = problem
        keys = tuple(str(part) for part in loc)
        raise DeckFileError(file, reason, field=_field_name(keys), line=_line(text, toml, keys))
    try:
        return Deck.from_mapping(data, default_name=where.stem.strip() or "custom")
    except DeckError as exc:
        held = deck_key_path(exc.field, data)
        written = None if held is None else _line(text, toml, held)
        raise DeckFileError(file, exc.reason, field=exc.field, line=written) from None


def resolve_deck(name_or_path: str) -> Deck:
    """A built-in deck by name (``rainbow``, ``all-pairs``, ``double``), else a deck file.

    A built-in name wins over a file of the same name (write ``./rainbow.toml`` for the file).
    Raises :class:`~hisss.core.errors.DeckError` for an unknown name and :class:`DeckFileError`
    for a bad file.
    """
    deck = BUILTIN_DECKS.get(name_or_path)
    if deck is not None:
        return deck
    where = Path(name_or_path)
    if not where.suffix and not where.exists():
        known = ", ".join(BUILTIN_DECKS)
        raise DeckError(
            "deck",
            f"unknown deck {name_or_path!r}: not a built-in deck ({known}) "
            f"nor a {' or '.join(DECK_FILE_TYPES)} file",
        )
    return load_deck(where)


def _parse_toml(file: str, text: str) -> dict[str, Any]:
    try:
        data = tomllib.loads(text, parse_float=_finite_float)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        found = _TOML_WHERE.search(message)
        if found is None:
            ended = _TOML_END.search(message)
            if ended is None:
                raise DeckFileError(file, f"not valid TOML: {message}") from None
            last = text.rsplit("\n", 1)[-1]
            raise DeckFileError(
                file,
                f"not valid TOML: {message[: ended.start()]} at the end of the file "
                "(the file may be cut short)",
                line=text.count("\n") + 1,
                column=len(last) + 1,
            ) from None
        reason = message[: found.start()]
        raise DeckFileError(
            file,
            f"not valid TOML: {reason}",
            line=int(found.group(1)),
            column=int(found.group(2)),
        ) from None
    except _BadNumberError as exc:
        line = _first_line(text, rf"[=\[,{{]\s*(?P<hit>{re.escape(exc.literal)})")
        raise DeckFileError(file, f"not valid TOML: {exc}", line=line) from None
    except RecursionError:
        line = _first_line(text, r"[\[{]{100}|(?:\.[^.=\n]*){100}")
        reason = f"not valid TOML: {too_deep('tables or lists')}"
        raise DeckFileError(file, reason, line=line) from None
    except ValueError as exc:
        if "digits" not in str(exc):
            raise DeckFileError(file, f"not valid TOML: {exc}") from None
        # A whole number with more digits than Python converts.
        limit = sys.get_int_max_str_digits()
        line = _first_line(text, rf"(?<![\w.])[+-]?\d\w{{{limit},}}")
        reason = f"not valid TOML: a whole number of more than {limit} digits is too long to read"
        raise DeckFileError(file, reason, line=line) from None
    return data


class _BadNumberError(ValueError):
    def __init__(self, literal: str) -> None:
        super().__init__(f"the number {literal} is not finite")
        self.literal = literal


def _finite_float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise _BadNumberError(literal)
    return value


def _first_line(text: str, pattern: str) -> int | None:
    """The line of the first match of ``pattern`` (of its group ``hit`` when it has one)."""
    found = re.search(pattern, text)
    if found is None:
        return None
    start = found.start("hit") if "hit" in found.re.groupindex else found.start()
    return text.count("\n", 0, start) + 1


def _parse_json(file: str, text: str) -> dict[str, Any]:
    try:
        data = read_json(text, "file")
    except JsonTextError as exc:
        field = "" if exc.path is None else _field_name(exc.path)
        raise DeckFileError(
            file, exc.reason, field=field, line=exc.line, column=exc.column
        ) from None
    if not isinstance(data, dict):
        line = text.count("\n", 0, len(text) - len(text.lstrip())) + 1
        raise DeckFileError(
            file, f"a deck must be a JSON object of fields, not {show_value(data)}", line=line
        )
    return data


def _field_name(path: JsonPath) -> str:
    """A path as a deck error names it: ``name``, ``cards."H:red"``."""
    head, *rest = (str(part) for part in path)
    return ".".join([head, *(f'"{part}"' for part in rest)])


def deck_key_path(field: str, data: dict[str, Any]) -> tuple[str, ...] | None:
    """The keys of the field a :class:`~hisss.core.errors.DeckError` names in the deck ``data``;
    ``None`` for a field that ``data`` does not hold.

    >>> deck_key_path('cards."H:red"', {"cards": {"H:red": 0}})
    ('cards', 'H:red')
    """
    if field in data:
        return (field,)
    cards = data.get("cards")
    if field.startswith('cards."') and field.endswith('"') and isinstance(cards, dict):
        key = field[len('cards."') : -1]
        if key in cards:
            return ("cards", key)
    return None


def _line(text: str, toml: bool, key: tuple[str, ...]) -> int | None:
    """The line where ``key`` is written in the file's ``text``; ``None`` for a key not written."""
    if toml:
        return _toml_line(text, key)
    where = json_position(text, key)
    return None if where is None else where[0]


def _toml_line(text: str, key: tuple[str, ...]) -> int | None:
    """The line where ``key`` is first written in valid TOML ``text``, or ``None``.

    The text is cut into statements (a table header or a key and its value, which may span lines),
    each parsed on its own to learn the keys it writes.
    """
    lines = text.split("\n")
    table: tuple[str, ...] = ()
    start = 0
    while start < len(lines):
        for end in range(start + 1, min(len(lines), start + _MAX_STATEMENT_LINES) + 1):
            statement = "\n".join(lines[start:end]) + "\n"
            try:
                written = tomllib.loads(statement)
            except (tomllib.TOMLDecodeError, ValueError, RecursionError):
                continue
            break
        else:
            return None
        if statement.lstrip().startswith("["):
            table = _header_keys(written)
            keys = [table[:i] for i in range(1, len(table) + 1)]
        else:
            keys = [table + inner for inner in _toml_keys(written)]
        if key in keys:
            return start + 1
        start = end
    return None


def _header_keys(written: dict[str, Any]) -> tuple[str, ...]:
    """The keys of a table header ``[a.b]``, parsed on its own as ``{"a": {"b": {}}}``."""
    keys: list[str] = []
    value: object = written
    while isinstance(value, dict) and len(value) == 1:
        (name, value), *_ = value.items()
        keys.append(name)
        if isinstance(value, list) and value:  # an array of tables, [[a.b]]
            value = value[-1]
    return tuple(keys)


def _toml_keys(written: dict[str, Any]) -> Iterator[tuple[str, ...]]:
    for name, value in written.items():
        yield (name,)
        if isinstance(value, dict):
            for inner in _toml_keys(value):
                yield (name, *inner)
