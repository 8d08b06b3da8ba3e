"""Deck files: user decks read from TOML or JSON, and deck names resolved to decks.

This module owns reading a deck description from a file (:func:`load_deck`), choosing between a
built-in deck and a file (:func:`resolve_deck`), and :class:`DeckFileError`, whose message names the
file, the line and column of a syntax error or the offending field, and the reason. What a valid
deck is, is decided by :meth:`hisss.core.decks.Deck.from_mapping`.

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

import json
import os
import re
import tomllib
from pathlib import Path
from typing import Any

from hisss.core.decks import BUILTIN_DECKS, Deck
from hisss.core.errors import DeckError

#: The file types a deck can be read from, by extension.
DECK_FILE_TYPES = (".toml", ".json")

_TOML_WHERE = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")


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
        self.args = (": ".join(parts),)


def load_deck(path: str | os.PathLike[str]) -> Deck:
    """Read a deck from a ``.toml`` or ``.json`` file; raises :class:`DeckFileError`.

    A deck without a ``name`` field is named after the file (``mini.toml`` gives ``mini``).
    """
    file = os.fspath(path)
    where = Path(path)
    suffix = where.suffix.lower()
    if suffix not in DECK_FILE_TYPES:
        kind = f"type {where.suffix!r}" if where.suffix else "type (no extension)"
        raise DeckFileError(file, f"unknown deck file {kind}: use {' or '.join(DECK_FILE_TYPES)}")
    try:
        raw = where.read_bytes()
    except FileNotFoundError:
        raise DeckFileError(file, "no such file") from None
    except IsADirectoryError:
        raise DeckFileError(file, "is a directory, not a deck file") from None
    except OSError as exc:
        raise DeckFileError(file, f"cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DeckFileError(file, f"not UTF-8 text (byte {exc.start})") from None
    data = _parse_toml(file, text) if suffix == ".toml" else _parse_json(file, text)
    try:
        return Deck.from_mapping(data, default_name=where.stem or "custom")
    except DeckError as exc:
        raise DeckFileError(file, exc.reason, field=exc.field) from None


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
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        found = _TOML_WHERE.search(message)
        if found is None:
            raise DeckFileError(file, f"not valid TOML: {message}") from None
        reason = message[: found.start()]
        raise DeckFileError(
            file,
            f"not valid TOML: {reason}",
            line=int(found.group(1)),
            column=int(found.group(2)),
        ) from None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKeyError(key)
        out[key] = value
    return out


class _DuplicateKeyError(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


def _parse_json(file: str, text: str) -> object:
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise DeckFileError(
            file, f"not valid JSON: {exc.msg}", line=exc.lineno, column=exc.colno
        ) from None
    except _DuplicateKeyError as exc:
        raise DeckFileError(
            file, f"the key {exc.key!r} appears twice in one object", field=_json_field(exc.key)
        ) from None
    except ValueError as exc:
        raise DeckFileError(file, f"not valid JSON: {exc}") from None


def _json_field(key: str) -> str:
    return key if key in ("name", "description", "cards") else f'cards."{key}"'
