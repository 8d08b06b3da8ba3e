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
...         state.apply(action)
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
import os
from collections.abc import Mapping, Sequence
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
    whole), ``line`` and ``column`` locate a JSON syntax error, ``source`` names the file.
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
            parts.append(f"line {line}, column {column}")
        if field:
            parts.append(field)
        parts.append(reason)
        super().__init__(": ".join(parts))

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

        A syntax error names its line and column; a bad field names its path.
        """
        return _read_record(_parse_json(text))


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
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError("", "no such file", source=source) from None
    except UnicodeDecodeError as exc:
        raise RecordError("", f"not UTF-8 text (byte {exc.start})", source=source) from None
    except OSError as exc:
        raise RecordError("", f"cannot read: {exc.strerror or exc}", source=source) from None
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


# ---------------------------------------------------------------------- reading


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {key!r} appears twice in one object")
        out[key] = value
    return out


def _parse_json(text: str) -> object:
    if not isinstance(text, str):
        raise RecordError("", f"a record must be JSON text, not {type(text).__name__}")
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        # An error at the very end means the text stops early, a clearer reason than the parser's.
        ended = exc.pos >= len(text.rstrip())
        reason = "the text ends too early (is it truncated?)" if ended else exc.msg
        raise RecordError(
            "", f"not valid JSON: {reason}", line=exc.lineno, column=exc.colno
        ) from None
    except ValueError as exc:
        raise RecordError("", f"not valid JSON: {exc}") from None


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    return {dict: "an object", list: "a list", str: "text", int: "a number", float: "a number"}.get(
        type(value), type(value).__name__
    )


def _object(value: object, path: str, fields: Sequence[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(path, f"must be an object, not {_type_name(value)}")
    for key in value:
        if key not in fields:
            raise RecordError(
                f"{path}.{key}" if path else str(key),
                f"unknown field (expected one of {', '.join(fields)})",
            )
    return value


def _required(data: Mapping[str, Any], key: str, path: str) -> Any:
    if key not in data:
        raise RecordError(f"{path}.{key}" if path else key, "missing")
    return data[key]


def _list(value: object, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(path, f"must be a list, not {_type_name(value)}")
    return value


def _int(value: object, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(path, f"must be a whole number, not {_type_name(value)}")
    return value


def _text(value: object, path: str) -> str:
    if not isinstance(value, str):
        raise RecordError(path, f"must be text, not {_type_name(value)}")
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
        raise RecordError("format", f"expected {FORMAT_NAME!r}, not {fmt!r}: not a hisss record")
    version = _int(_required(data, "version", ""), "version")
    if version > FORMAT_VERSION:
        raise RecordError(
            "version",
            f"record version {version} is newer than this hisss reads (up to {FORMAT_VERSION}); "
            "upgrade hisss to read it",
        )
    if version < 1:
        raise RecordError("version", f"there is no record version {version}")
    return version


def _read_record(data: object) -> GameRecord:
    if not isinstance(data, dict):
        raise RecordError("", f"a record must be a JSON object, not {_type_name(data)}")
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
        raise RecordError("deck", f"must be an object, not {_type_name(deck_data)}")
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
        raise RecordError(f"{path}.seat", f"seats are numbered 1 to {players}, not {seat}")
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
