"""The game-record format: a versioned, deterministic JSON text of one game.

This module owns the record's value objects (:class:`Turn`, :class:`GameRecord`), their JSON
reading and writing with precise errors (:class:`RecordError`), :class:`RecordBuilder` for game
loops, and :func:`load_record` / :func:`save_record`. Checking that a record is a real game is the
job of :mod:`hisss.record.replay`. The format is described field by field in
``docs/record-format.md``.

A game loop records as it plays:

>>> import random
>>> from hisss.core import PRESETS, RAINBOW, deal, new_game
>>> rng = random.Random(7)
>>> state = new_game(2, PRESETS["classic"], RAINBOW)
>>> builder = RecordBuilder(state.rules, state.deck, ("random", "random"), seed=7)
>>> for card in deal(RAINBOW, rng):
...     state.draw(card)
...     builder.drew(card)
...     if state.current_player is not None:
...         seat, action = state.to_move, rng.choice(state.legal_actions())
...         _ = state.apply(action)
...         builder.placed(seat, card, action, state)
>>> record = builder.finish(state)
>>> len(record.cards), len(record.turns), record.result is not None
(50, 49, True)
>>> GameRecord.from_json(record.to_json()) == record
True

Writing is deterministic: the same game always gives the same text, so records can be diffed.
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hisss.core.actions import Action, parse_action
from hisss.core.cards import Card, parse_card
from hisss.core.decks import Deck
from hisss.core.errors import ConfigError, DeckError, HisssError, NotationError
from hisss.core.rules import Rules
from hisss.core.scoring import Result
from hisss.core.snake import parse_snake
from hisss.core.state import State

#: The value of the ``format`` field: says the JSON text is a hisss game record.
FORMAT_NAME = "hisss-record"
#: The record version this module writes, and the newest it reads.
FORMAT_VERSION = 1
#: Lines of the indented layout are kept within this width where the data allows.
_WIDTH = 100

_TOP_FIELDS = (
    "format",
    "version",
    "rules",
    "deck",
    "seats",
    "seed",
    "result",
    "cards",
    "turns",
)
_TURN_FIELDS = ("seat", "card", "action", "table", "pits")
_RESULT_FIELDS = ("winners", "decided_by", "cards", "snakes", "longest")
_RESULT_REQUIRED = ("winners", "decided_by", "cards")
# A record may start its rules from a preset, as Rules.from_mapping allows; writing never does.
_RULE_FIELDS = (*Rules().to_mapping(), "preset")


class RecordError(HisssError, ValueError):
    """A record text or mapping that is not a valid game record.

    ``field`` is the path of the offending field (``turns[3].action``; empty for the text as a
    whole), ``line`` and ``column`` the place in the JSON text (a syntax error has both; a bad field
    read from text has the line of its key or list item), ``source`` names the file.
    """

    def __init__(
        self,
        field: str,
        reason: str,
        *,
        line: int | None = None,
        column: int | None = None,
        source: str | None = None,
    ) -> None:
        self.field = field
        self.reason = reason
        self.line = line
        self.column = column
        self.source = source
        parts = []
        if source:
            parts.append(source)
        if line is not None:
            parts.append(f"line {line}" if column is None else f"line {line}, column {column}")
        if field:
            parts.append(field)
        parts.append(reason)
        super().__init__(printable(": ".join(parts)))

    def with_source(self, source: str) -> RecordError:
        """The same error naming the file it came from."""
        return RecordError(
            self.field, self.reason, line=self.line, column=self.column, source=source
        )


@dataclass(frozen=True, slots=True)
class Turn:
    """One placement: the seat (0-based) that placed ``card`` as ``action``.

    ``table`` (each table snake's notation after the turn) and ``pits`` (each seat's pit snakes
    after the turn) are optional snapshots that replay checks when present.
    """

    player: int
    card: Card
    action: Action
    table: tuple[str, ...] | None = None
    pits: tuple[tuple[str, ...], ...] | None = None


@dataclass(frozen=True)
class GameRecord:
    """A whole game, or a game so far.

    ``cards`` is the card order: the starter, then each drawn card. A finished game holds every card
    drawn; a saved unfinished game holds the cards drawn so far (at most one of them not yet
    placed). ``result`` is the result as written in the record (``winners`` 1-based, ``cards`` per
    seat, ``decided_by``, and ``snakes`` and ``longest`` per seat), or ``None``.
    """

    rules: Rules
    deck: Deck
    seats: tuple[str, ...]
    cards: tuple[Card, ...]
    turns: tuple[Turn, ...]
    seed: int | None = None
    result: dict[str, Any] | None = None
    version: int = FORMAT_VERSION

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.seats)

    def to_dict(self) -> dict[str, Any]:
        """The record as plain JSON values, fields in their fixed order."""
        return {
            "format": FORMAT_NAME,
            "version": self.version,
            "rules": self.rules.to_mapping(),
            "deck": self.deck.to_mapping(),
            "seats": list(self.seats),
            "seed": self.seed,
            "result": _copy_result(self.result),
            "cards": [str(card) for card in self.cards],
            "turns": [_turn_to_dict(turn) for turn in self.turns],
        }

    def to_json(self, indent: int | None = 2) -> str:
        """The record as JSON text, without a final newline.

        With ``indent`` the layout keeps short lists and objects (a turn, the rules) on one line
        and breaks longer ones one item per line; with ``None`` the text is a single compact line.
        The same record always gives the same text.
        """
        data = self.to_dict()
        if indent is None:
            return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        return _render(data, indent, 0, 0)

    @classmethod
    def from_dict(cls, data: object) -> GameRecord:
        """Read a record from plain JSON values, checking every field's shape and notation.

        Raises :class:`RecordError`. Whether the turns are a game played by the rules is checked
        by :func:`hisss.record.replay.replay`.
        """
        return _read_record(data)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Parse a record from JSON text; raises :class:`RecordError`.

        A syntax error names its line and column and says what is wrong; a bad field names its path
        and the line where it is written. A leading byte-order mark is ignored.
        """
        if not isinstance(text, str):
            raise RecordError("", f"a record must be JSON text, not {type(text).__name__}")
        text = text.removeprefix("\ufeff")
        try:
            data = read_json(text, "record")
        except JsonTextError as exc:
            field = _field_text(exc.path) if exc.path is not None else ""
            raise RecordError(field, exc.reason, line=exc.line, column=exc.column) from None
        try:
            return _read_record(data)
        except RecordError as exc:
            path = _field_path(exc.field) if exc.line is None else None
            where = json_position(text, path) if path else None
            if where is None:
                raise
            raise RecordError(exc.field, exc.reason, line=where[0]) from None


_RawTurn = tuple[int, Card, Action, tuple[str, ...] | None, tuple[tuple[str, ...], ...] | None]


def result_to_dict(result: Result) -> dict[str, Any]:
    """A core :class:`~hisss.core.scoring.Result` as a record writes it (winners 1-based)."""
    return {
        "winners": [w + 1 for w in result.winners],
        "decided_by": result.decided_by,
        "cards": list(result.cards),
        "snakes": list(result.snakes),
        "longest": list(result.longest),
    }


class RecordBuilder:
    """Collects a game's record while a game loop plays it.

    Call :meth:`drew` after each ``state.draw`` (the starter included), :meth:`placed` after each
    placement, and :meth:`finish` to get the :class:`GameRecord` (at the end, or at any moment to
    save a game so far). With ``snapshots`` each turn also records the table and the pits; without,
    recording costs two list appends a turn until :meth:`finish`.
    """

    __slots__ = ("_cards", "_snapshots", "_turns", "deck", "rules", "seats", "seed")

    def __init__(
        self,
        rules: Rules,
        deck: Deck,
        seats: Sequence[str],
        seed: int | None = None,
        snapshots: bool = False,
    ) -> None:
        rules.check_players(len(seats))
        self.rules = rules
        self.deck = deck
        self.seats = tuple(seats)
        self.seed = seed
        self._snapshots = snapshots
        self._cards: list[Card] = []
        # Plain tuples, made into Turns by finish(): appending a tuple costs a tenth of a Turn.
        self._turns: list[_RawTurn] = []

    def drew(self, card: Card) -> None:
        """Note the card just drawn (the first is the starter)."""
        self._cards.append(card)

    def placed(self, seat: int, card: Card, action: Action, state: State) -> None:
        """Note that ``seat`` (0-based) placed ``card`` as ``action``; ``state`` is after it."""
        if self._snapshots:
            table = tuple(str(s) for s in state.table)
            pits = tuple(tuple(str(s) for s in pit) for pit in state.pits)
            self._turns.append((seat, card, action, table, pits))
        else:
            self._turns.append((seat, card, action, None, None))

    def finish(self, state: State) -> GameRecord:
        """The record of the game so far; with the result when ``state`` is over.

        Raises :class:`RecordError` when ``state`` is not the game this builder followed (other
        rules, deck or seats, or a different number of draws or placements).
        """
        if state.rules != self.rules:
            raise RecordError("rules", "the state's rules are not the builder's")
        if state.deck != self.deck:
            raise RecordError("deck", "the state's deck is not the builder's")
        if state.players != len(self.seats):
            raise RecordError(
                "seats", f"the state has {state.players} seats, the builder {len(self.seats)}"
            )
        drawn = self.deck.size - state.remaining
        if drawn != len(self._cards):
            raise RecordError(
                "cards", f"the builder saw {len(self._cards)} draws, the game has {drawn}"
            )
        if state.turns != len(self._turns):
            raise RecordError(
                "turns",
                f"the builder saw {len(self._turns)} placements, the game has {state.turns}",
            )
        result = result_to_dict(state.result()) if state.is_terminal() else None
        return GameRecord(
            self.rules,
            self.deck,
            self.seats,
            tuple(self._cards),
            tuple([Turn(*raw) for raw in self._turns]),
            self.seed,
            result,
        )


def load_record(path: str | os.PathLike[str]) -> GameRecord:
    """Read a record file (UTF-8 JSON); errors raise :class:`RecordError` naming the file."""
    source = os.fspath(path)
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise RecordError("", "no such file", source=source) from None
    except IsADirectoryError:
        raise RecordError("", "is a directory, not a record file", source=source) from None
    except OSError as exc:
        raise RecordError("", f"cannot read: {exc.strerror or exc}", source=source) from None
    except ValueError as exc:  # a path with a NUL character
        raise RecordError("", f"cannot read: {exc}", source=source) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column, reason = utf8_error(raw, exc)
        raise RecordError("", reason, line=line, column=column, source=source) from None
    try:
        return GameRecord.from_json(text)
    except RecordError as exc:
        raise exc.with_source(source) from None


def save_record(record: GameRecord, path: str | os.PathLike[str]) -> None:
    """Write a record file: the indented JSON text, UTF-8, with a final newline."""
    Path(path).write_text(record.to_json() + "\n", encoding="utf-8", newline="\n")


# ---------------------------------------------------------------------- writing


def _turn_to_dict(turn: Turn) -> dict[str, Any]:
    out: dict[str, Any] = {
        "seat": turn.player + 1,
        "card": str(turn.card),
        "action": str(turn.action),
    }
    if turn.table is not None:
        out["table"] = list(turn.table)
    if turn.pits is not None:
        out["pits"] = [list(pit) for pit in turn.pits]
    return out


def _copy_result(result: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if result is None:
        return None
    out: dict[str, Any] = {}
    for key in (*_RESULT_FIELDS, *sorted(set(result) - set(_RESULT_FIELDS))):
        if key in result:
            value = result[key]
            out[key] = list(value) if isinstance(value, (list, tuple)) else value
    return out


def _render(value: object, indent: int, level: int, lead: int) -> str:
    """JSON text of ``value``: on one line when it fits in the width, else one item per line.

    ``lead`` is the number of characters before the value on its line. The top level is always
    broken so that every record starts the same way.
    """
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, (dict, list)) or not value:
        return flat
    if level > 0 and lead + len(flat) + 1 <= _WIDTH:
        return flat
    pad = " " * (indent * (level + 1))
    items: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            head = f"{pad}{json.dumps(key, ensure_ascii=False)}: "
            items.append(head + _render(item, indent, level + 1, len(head)))
        opening, closing = "{", "}"
    else:
        for item in value:
            items.append(pad + _render(item, indent, level + 1, len(pad)))
        opening, closing = "[", "]"
    return f"{opening}\n" + ",\n".join(items) + f"\n{' ' * (indent * level)}{closing}"


# ---------------------------------------------------------------------- reading JSON text
#
# The helpers of this section are shared with hisss.record.deckfile, which reads JSON deck files.

#: Values longer than this many characters are shortened in messages.
_SHOW_WIDTH = 40
#: Messages are shortened to this many characters, so that every error stays one readable line.
_MESSAGE_WIDTH = 500

_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_JSON_SCALAR = re.compile(r"[^\s,\]}]+")
_JSON_SPACE = re.compile(r"[ \t\n\r]*")
_JSON_BRACKETS = re.compile(rf"{_JSON_STRING.pattern}|(?P<bracket>[\[\]{{}}])", re.DOTALL)
_TOKEN = re.compile(r"[\w.+-]+|\S")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_FIELD_PART = re.compile(r'\[(\d+)\]|\.?(?:"([^"]*)"|([A-Za-z_][A-Za-z0-9_]*))')
_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
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

JsonPath = tuple[str | int, ...]


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


class _DuplicateKeyError(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


class _BadNumberError(ValueError):
    def __init__(self, literal: str, reason: str) -> None:
        super().__init__(reason)
        self.literal = literal
        self.reason = reason


def printable(text: str, width: int | None = _MESSAGE_WIDTH) -> str:
    """``text`` made safe for one line of a terminal: line breaks, other control characters and
    unpaired surrogates escaped, and at most ``width`` characters (``None``: any length).

    >>> printable("two\\nlines")
    'two\\\\nlines'
    """
    if not text.isprintable():
        text = "".join(char if char.isprintable() else _escape(char) for char in text)
    if width is not None and len(text) > width:
        text = text[: width - 1] + "…"
    return text


def _escape(char: str) -> str:
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
        if value.bit_length() > 4 * _SHOW_WIDTH:
            return "a very long whole number"
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan (not a number)"
        if math.isinf(value):
            return f"{'-' if value < 0 else ''}inf (an infinite number)"
        return f"{json.dumps(value)} (a number with a fraction)"
    if isinstance(value, str):
        if len(value) > _SHOW_WIDTH:
            return json.dumps(value[:_SHOW_WIDTH], ensure_ascii=False)[:-1] + '…"'
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a Python {type(value).__name__}"


def read_json(text: str, what: str) -> object:
    """Parse JSON text strictly: no NaN or Infinity, no key twice in one object.

    Raises :class:`JsonTextError` with the place and a whole sentence; ``what`` names the text in
    the hint that a text ending too early may be cut short (``record``, ``file``).
    """
    try:
        return json.loads(
            text,
            object_pairs_hook=_unique_keys,
            parse_constant=_reject_constant,
            parse_float=_finite_float,
        )
    except json.JSONDecodeError as exc:
        reason = _syntax_reason(text, exc.msg, exc.pos, what)
        raise JsonTextError(reason, exc.lineno, exc.colno) from None
    except _DuplicateKeyError as exc:
        where = _first_duplicate(text)
        reason = f"the key {show_value(exc.key)} appears twice in one object"
        if where is None:
            raise JsonTextError(reason) from None
        path, pos = where
        reason = f"the key {show_value(path[-1])} appears twice in one object"
        raise JsonTextError(reason, *_line_column(text, pos), path=path) from None
    except _BadNumberError as exc:
        pattern = rf"(?<![\w.+-]){re.escape(exc.literal)}"
        raise JsonTextError(f"not valid JSON: {exc.reason}", *_find(text, pattern)) from None
    except RecursionError:
        depth, pos = _deepest(text)
        reason = f"not valid JSON: lists and objects nested {depth} levels deep, too deep to read"
        raise JsonTextError(reason, *_line_column(text, pos)) from None
    except ValueError as exc:
        if "digits" not in str(exc):
            raise JsonTextError(f"not valid JSON: {exc}") from None
        # A whole number with more digits than Python converts.
        limit = sys.get_int_max_str_digits()
        line, column = _find(text, rf"-?\d{{{limit + 1},}}")
        reason = f"not valid JSON: a whole number of more than {limit} digits is too long to read"
        raise JsonTextError(reason, line, column) from None


def json_position(text: str, path: JsonPath) -> tuple[int, int] | None:
    """The line and column where ``path`` (keys and list indexes) is written in valid JSON
    ``text``: its key, or the list item; ``None`` when it is not there.

    >>> json_position('{"a": 1,\\n "b": [true, false]}', ("b", 1))
    (2, 14)
    """
    try:
        for found, pos in json_positions(text):
            if found == path:
                return _line_column(text, pos)
    except (IndexError, ValueError):
        return None
    return None


def json_positions(text: str) -> Iterator[tuple[JsonPath, int]]:
    """Each key and list item of valid JSON ``text`` in order: its path and its position."""
    path: list[str | int] = []
    closers: list[str] = []
    pos = _skip(text, 0)
    while True:
        # A value starts at pos.
        char = text[pos]
        if char in "{[":
            closer = "}" if char == "{" else "]"
            pos = _skip(text, pos + 1)
            if text[pos] != closer:
                closers.append(closer)
                if closer == "}":
                    key, after = _json_key(text, pos)
                    path.append(key)
                else:
                    path.append(0)
                    after = pos
                yield tuple(path), pos
                pos = after
                continue
            pos += 1
        else:
            match = (_JSON_STRING if char == '"' else _JSON_SCALAR).match(text, pos)
            if match is None:
                raise ValueError("not JSON")
            pos = match.end()
        # A value ends at pos: go on to the next item, closing the containers that end here.
        while True:
            pos = _skip(text, pos)
            if not closers:
                return
            if text[pos] == ",":
                pos = _skip(text, pos + 1)
                if closers[-1] == "}":
                    path[-1], after = _json_key(text, pos)
                else:
                    path[-1] = int(path[-1]) + 1
                    after = pos
                yield tuple(path), pos
                pos = after
                break
            closers.pop()
            path.pop()
            pos += 1


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


def _skip(text: str, pos: int) -> int:
    match = _JSON_SPACE.match(text, pos)
    return pos if match is None else match.end()


def _json_key(text: str, pos: int) -> tuple[str, int]:
    match = _JSON_STRING.match(text, pos)
    colon = _skip(text, pos if match is None else match.end())
    if match is None or text[colon] != ":":
        raise ValueError("not JSON")
    key: str = json.loads(match.group())
    return key, _skip(text, colon + 1)


def _line_column(text: str, pos: int) -> tuple[int, int]:
    return text.count("\n", 0, pos) + 1, pos - text.rfind("\n", 0, pos)


def _find(text: str, pattern: str) -> tuple[int, int] | tuple[None, None]:
    """The line and column of the first match of ``pattern`` outside JSON strings."""
    for match in re.finditer(rf"{_JSON_STRING.pattern}|(?P<hit>{pattern})", text, re.DOTALL):
        if match.group("hit") is not None:
            return _line_column(text, match.start())
    return None, None


def _deepest(text: str) -> tuple[int, int]:
    """The greatest nesting of lists and objects in ``text`` and the position it is reached."""
    depth = deepest = where = 0
    for match in _JSON_BRACKETS.finditer(text):
        bracket = match.group("bracket")
        if bracket is None:
            continue
        depth += 1 if bracket in "[{" else -1
        if depth > deepest:
            deepest, where = depth, match.start()
    return deepest, where


def _first_duplicate(text: str) -> tuple[JsonPath, int] | None:
    seen: set[JsonPath] = set()
    try:
        for path, pos in json_positions(text):
            if path in seen:
                return path, pos
            seen.add(path)
    except (IndexError, ValueError):
        return None
    return None


def _syntax_reason(text: str, message: str, pos: int, what: str) -> str:
    """A whole sentence for the parser's ``message`` about the JSON ``text`` at ``pos``."""
    cut = f" (the {what} may be cut short)"
    if not text.strip():
        return "not valid JSON: the text is empty"
    before = text[:pos].rstrip()[-1:]
    here = text[pos : pos + 1]
    token_match = _TOKEN.search(text, pos)
    token = token_match.group()[:_SHOW_WIDTH] if token_match else here
    found = f"found {_CHARACTERS.get(token) or printable(token)}"
    if token in _PYTHON_SPELLINGS:
        found += f" (JSON writes {_PYTHON_SPELLINGS[token]})"
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
            reason = f"a control character inside a string must be escaped: write {_escape(here)}"
    elif message.startswith("Invalid \\u"):
        reason = "bad escape in a string: \\u must be followed by four hexadecimal digits"
    elif message.startswith("Invalid \\escape"):
        reason = (
            f"bad escape {printable(text[pos : pos + 2])} in a string "
            '(JSON knows \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX)'
        )
    elif "trailing comma" in message or (before == "," and here in "]}"):
        reason = "a comma after the last item of a list or an object is not allowed in JSON"
    elif message.startswith("Expecting value"):
        reason = (
            "expected a value (a number, text in double quotes, true, false, null, a list or "
            f"an object), {found}"
        )
    elif message.startswith("Expecting property name"):
        reason = f"expected a field name in double quotes, {found}"
    elif message.startswith("Expecting ':'"):
        reason = f"expected a colon after the field name, {found}"
    elif message.startswith("Expecting ','"):
        reason = f"expected a comma or a closing bracket after the value, {found}"
    elif message.startswith("Extra data"):
        reason = f"more text after the end of the JSON value: {found}"
    else:
        reason = message.removesuffix(" at").strip()
        reason = reason[:1].lower() + reason[1:]
    return f"not valid JSON: {reason}"


def _reject_constant(name: str) -> object:
    raise _BadNumberError(name, f"{name} is not a JSON number")


def _finite_float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise _BadNumberError(literal, f"the number {literal} is too large")
    return value


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKeyError(key)
        out[key] = value
    return out


# ---------------------------------------------------------------------- reading a record


def _field_text(path: JsonPath) -> str:
    """A path as a record error names it: ``turns[3].action``, ``deck.cards."H:red"``."""
    out = ""
    for part in path:
        out = f"{out}[{part}]" if isinstance(part, int) else _child(out, part)
    return out


def _child(path: str, key: str) -> str:
    name = key if _NAME.fullmatch(key) else f'"{key}"'
    return f"{path}.{name}" if path else name


def _field_path(field: str) -> JsonPath | None:
    """The path of a field named by a record error; ``None`` when it cannot be read back."""
    parts: list[str | int] = []
    pos = 0
    while pos < len(field):
        match = _FIELD_PART.match(field, pos)
        if match is None or match.end() == pos:
            return None
        index, quoted, name = match.groups()
        parts.append(int(index) if index is not None else quoted if quoted is not None else name)
        pos = match.end()
    return tuple(parts)


def _object(value: object, path: str, fields: Sequence[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(path, f"must be an object, not {show_value(value)}")
    for key in value:
        if key not in fields:
            raise RecordError(
                _child(path, str(key)),
                f"unknown field (expected one of {', '.join(fields)})",
            )
    return value


def _required(data: Mapping[str, Any], key: str, path: str) -> Any:
    if key not in data:
        raise RecordError(_child(path, key), "missing")
    return data[key]


def _list(value: object, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(path, f"must be a list, not {show_value(value)}")
    return value


def _int(value: object, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(path, f"must be a whole number, not {show_value(value)}")
    return value


def _text(value: object, path: str) -> str:
    if not isinstance(value, str):
        raise RecordError(path, f"must be text, not {show_value(value)}")
    return value


def _card(value: object, path: str) -> Card:
    try:
        return parse_card(_text(value, path))
    except NotationError as exc:
        raise RecordError(path, str(exc)) from None


def _snakes(value: object, path: str) -> tuple[str, ...]:
    out = []
    for i, item in enumerate(_list(value, path)):
        where = f"{path}[{i}]"
        try:
            out.append(str(parse_snake(_text(item, where))))
        except NotationError as exc:
            raise RecordError(where, str(exc)) from None
    return tuple(out)


def _read_version(data: Mapping[str, Any]) -> int:
    fmt = _required(data, "format", "")
    if fmt != FORMAT_NAME:
        raise RecordError(
            "format", f'expected "{FORMAT_NAME}", not {show_value(fmt)}: not a hisss record'
        )
    version = _int(_required(data, "version", ""), "version")
    if version > FORMAT_VERSION:
        raise RecordError(
            "version",
            f"record version {show_value(version)} is newer than this hisss reads "
            f"(up to {FORMAT_VERSION}); upgrade hisss to read it",
        )
    if version < 1:
        raise RecordError("version", f"there is no record version {show_value(version)}")
    return version


def _read_record(data: object) -> GameRecord:
    if not isinstance(data, dict):
        raise RecordError("", f"a record must be a JSON object, not {show_value(data)}")
    # The version is checked before anything else: a newer record may have other fields.
    version = _read_version(data)
    _object(data, "", _TOP_FIELDS)

    try:
        rules = Rules.from_mapping(_object(_required(data, "rules", ""), "rules", _RULE_FIELDS))
    except (ConfigError, TypeError, ValueError) as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError("rules", str(exc)) from None

    deck_data = _required(data, "deck", "")
    if not isinstance(deck_data, dict):
        raise RecordError("deck", f"must be an object, not {show_value(deck_data)}")
    try:
        deck = Deck.from_mapping(deck_data)
    except DeckError as exc:
        raise RecordError(f"deck.{exc.field}" if exc.field else "deck", exc.reason) from None

    seat_list = _list(_required(data, "seats", ""), "seats")
    seats = tuple(_text(name, f"seats[{i}]") for i, name in enumerate(seat_list))
    try:
        rules.check_players(len(seats))
    except ConfigError as exc:
        raise RecordError("seats", str(exc)) from None
    players = len(seats)

    seed_value = data.get("seed")
    seed = None if seed_value is None else _int(seed_value, "seed")

    result = _read_result(data.get("result"), players)

    cards = tuple(
        _card(item, f"cards[{i}]")
        for i, item in enumerate(_list(_required(data, "cards", ""), "cards"))
    )
    turns = tuple(
        _read_turn(item, f"turns[{i}]", players)
        for i, item in enumerate(_list(_required(data, "turns", ""), "turns"))
    )
    return GameRecord(rules, deck, seats, cards, turns, seed, result, version)


def _read_turn(value: object, path: str, players: int) -> Turn:
    data = _object(value, path, _TURN_FIELDS)
    seat = _int(_required(data, "seat", path), f"{path}.seat")
    if not 1 <= seat <= players:
        raise RecordError(
            f"{path}.seat", f"seats are numbered 1 to {players}, not {show_value(seat)}"
        )
    card = _card(_required(data, "card", path), f"{path}.card")
    action_path = f"{path}.action"
    try:
        action = parse_action(_text(_required(data, "action", path), action_path))
    except NotationError as exc:
        raise RecordError(action_path, str(exc)) from None
    table = None
    if data.get("table") is not None:
        table = _snakes(data["table"], f"{path}.table")
    pits = None
    if data.get("pits") is not None:
        pit_list = _list(data["pits"], f"{path}.pits")
        if len(pit_list) != players:
            raise RecordError(
                f"{path}.pits", f"must hold one pit per seat: {players}, not {len(pit_list)}"
            )
        pits = tuple(_snakes(pit, f"{path}.pits[{i}]") for i, pit in enumerate(pit_list))
    return Turn(seat - 1, card, action, table, pits)


def _read_result(value: object, players: int) -> dict[str, Any] | None:
    if value is None:
        return None
    data = _object(value, "result", _RESULT_FIELDS)
    for key in _RESULT_REQUIRED:
        _required(data, key, "result")
    out: dict[str, Any] = {}
    winner_list = _list(data["winners"], "result.winners")
    winners = [_int(w, f"result.winners[{i}]") for i, w in enumerate(winner_list)]
    if not winners:
        raise RecordError("result.winners", "at least one seat wins")
    if any(not 1 <= w <= players for w in winners):
        raise RecordError("result.winners", f"seats are numbered 1 to {players}")
    if winners != sorted(set(winners)):
        raise RecordError("result.winners", "must list each winning seat once, in seat order")
    out["winners"] = winners
    out["decided_by"] = _text(data["decided_by"], "result.decided_by")
    for key in ("cards", "snakes", "longest"):
        if key not in data:
            continue
        path = f"result.{key}"
        numbers = [_int(n, f"{path}[{i}]") for i, n in enumerate(_list(data[key], path))]
        if len(numbers) != players:
            raise RecordError(path, f"must give one number per seat: {players}, not {len(numbers)}")
        if any(n < 0 for n in numbers):
            raise RecordError(path, "numbers must be zero or more")
        out[key] = numbers
    return out
