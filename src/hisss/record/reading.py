"""Reading a game record, from JSON text or plain values, into the parts of a record.

The text is parsed by :func:`hisss.record.jsontext.read_json`; the shape of the values (types,
required and unknown fields, the length of a seat name) is checked by
:class:`hisss.record.schema.RecordModel`; what the values mean (notation, the number of seats,
seat numbers, the rules and the deck) by the rules core. A bad field is named by its path, and in a
text by the line where it is written. :meth:`~hisss.record.format.GameRecord.from_json` and
:meth:`~hisss.record.format.GameRecord.from_dict` are the ways in: they make a
:class:`~hisss.record.format.GameRecord` of the parts read here (:class:`RecordParts`), and this
module is imported when they are first used.

>>> parts_from_dict({"format": "hisss-record", "version": 1, "seats": []})
Traceback (most recent call last):
...
hisss.record.parts.RecordError: rules: missing
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, NamedTuple

from pydantic import ValidationError

from hisss.core.actions import parse_action
from hisss.core.cards import Card, parse_card
from hisss.core.decks import Deck
from hisss.core.errors import ConfigError, DeckError, NotationError
from hisss.core.rules import Rules
from hisss.core.snake import parse_snake
from hisss.record.deckfile import deck_key_path
from hisss.record.files import too_large
from hisss.record.jsontext import JsonPath, JsonTextError, json_position, read_json
from hisss.record.names import SeatNameError, check_name
from hisss.record.parts import (
    FORMAT_NAME,
    FORMAT_VERSION,
    HIDDEN_CARD,
    MAX_RECORD_SIZE,
    MAX_SEAT_NAME,
    RecordError,
    Turn,
)
from hisss.record.schema import RecordModel, ResultModel, TurnModel, first_error
from hisss.record.text import show_value

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class RecordParts(NamedTuple):
    """What a record read holds, field by field as
    :class:`~hisss.record.format.GameRecord` takes them."""

    rules: Rules
    deck: Deck
    seats: tuple[str, ...]
    cards: tuple[Card | None, ...]
    turns: tuple[Turn, ...]
    seed: int | None
    result: dict[str, Any] | None
    version: int


def parts_from_json(text: object) -> RecordParts:
    """The parts of the record of a JSON text, as
    :meth:`~hisss.record.format.GameRecord.from_json` describes."""
    if not isinstance(text, str):
        raise RecordError("", f"a record must be JSON text, not {type(text).__name__}")
    if len(text) > MAX_RECORD_SIZE:
        raise RecordError("", too_large("a record", MAX_RECORD_SIZE, len(text), "characters"))
    text = text.removeprefix("\ufeff")
    try:
        data = read_json(text, "record")
    except JsonTextError as exc:
        path = exc.path or ()
        raise RecordError(
            field_text(path), exc.reason, line=exc.line, column=exc.column, path=path
        ) from None
    try:
        return parts_from_dict(data)
    except RecordError as exc:
        where = json_position(text, exc.path) if exc.path and exc.line is None else None
        if where is None:
            raise
        raise RecordError(exc.field, exc.reason, line=where[0], path=exc.path) from None


def parts_from_dict(data: object) -> RecordParts:
    """The parts of the record of plain JSON values, as
    :meth:`~hisss.record.format.GameRecord.from_dict` describes."""
    if not isinstance(data, dict):
        raise RecordError("", f"a record must be a JSON object, not {show_value(data)}")
    # The version is checked before anything else: a newer record may have other fields.
    version = _read_version(data)
    try:
        shape = RecordModel.model_validate(data)
    except ValidationError as exc:
        raise _error(*first_error(exc, RecordModel)) from None

    try:
        rules = Rules.from_mapping(data["rules"])
    except (ConfigError, TypeError, ValueError) as exc:
        raise _error(("rules",), str(exc)) from None
    try:
        deck = Deck.from_mapping(data["deck"])
    except DeckError as exc:
        path = ("deck", *(deck_key_path(exc.field, data["deck"]) or ()))
        field = f"deck.{exc.field}" if exc.field else "deck"
        raise RecordError(field, exc.reason, path=path) from None

    seats = tuple(shape.seats)
    for number, name in enumerate(seats):
        if any("\ud800" <= ch <= "\udfff" for ch in name):
            raise _error(
                ("seats", number),
                f"must be text, not {show_value(name)}: it holds a lone UTF-16 surrogate (an "
                "escape such as \\ud800 that is no character)",
            )
        try:
            check_name(name, MAX_SEAT_NAME)
        except SeatNameError as exc:
            raise _error(("seats", number), str(exc)) from None
    try:
        rules.check_players(len(seats))
    except ConfigError as exc:
        raise _error(("seats",), str(exc)) from None
    players = len(seats)
    result = _read_result(shape.result, players)
    cards = tuple(
        None if card == HIDDEN_CARD else _card(card, ("cards", i))
        for i, card in enumerate(shape.cards)
    )
    turns = tuple(_read_turn(turn, ("turns", i), players) for i, turn in enumerate(shape.turns))
    return RecordParts(rules, deck, seats, cards, turns, shape.seed, result, version)


def field_text(path: JsonPath) -> str:
    """A path as a record error names it: ``turns[3].action``, ``deck.cards."H:red"``.

    >>> field_text(("deck", "cards", "H:red")), field_text(("turns", 3, "action"))
    ('deck.cards."H:red"', 'turns[3].action')
    """
    out = ""
    for part in path:
        if isinstance(part, int):
            out = f"{out}[{part}]"
        else:
            name = part if _NAME.fullmatch(part) else f'"{part}"'
            out = f"{out}.{name}" if out else name
    return out


def _error(path: JsonPath, reason: str) -> RecordError:
    return RecordError(field_text(path), reason, path=path)


def _read_version(data: dict[str, Any]) -> int:
    if "format" not in data:
        raise _error(("format",), "missing")
    fmt = data["format"]
    if fmt != FORMAT_NAME:
        raise _error(
            ("format",), f'expected "{FORMAT_NAME}", not {show_value(fmt)}: not a hisss record'
        )
    if "version" not in data:
        raise _error(("version",), "missing")
    version = data["version"]
    if isinstance(version, bool) or not isinstance(version, int):
        raise _error(("version",), f"must be a whole number, not {show_value(version)}")
    if version > FORMAT_VERSION:
        raise _error(
            ("version",),
            f"record version {show_value(version)} is newer than this hisss reads "
            f"(up to {FORMAT_VERSION}); upgrade hisss to read it",
        )
    if version < 1:
        raise _error(("version",), f"there is no record version {show_value(version)}")
    return version


def _card(text: str, path: JsonPath) -> Card:
    try:
        return parse_card(text)
    except NotationError as exc:
        raise _error(path, str(exc)) from None


def _snakes(texts: Sequence[str], path: JsonPath) -> tuple[str, ...]:
    out = []
    for i, text in enumerate(texts):
        try:
            out.append(str(parse_snake(text)))
        except NotationError as exc:
            raise _error((*path, i), str(exc)) from None
    return tuple(out)


def _read_turn(turn: TurnModel, path: JsonPath, players: int) -> Turn:
    if not 1 <= turn.seat <= players:
        raise _error(
            (*path, "seat"), f"seats are numbered 1 to {players}, not {show_value(turn.seat)}"
        )
    card = _card(turn.card, (*path, "card"))
    try:
        action = parse_action(turn.action)
    except NotationError as exc:
        raise _error((*path, "action"), str(exc)) from None
    if action.card is not None:
        raise _error(
            (*path, "action"),
            f"{show_value(turn.action)} names a card: a turn's action says only where the card "
            "went, the card is the turn's card",
        )
    table = None if turn.table is None else _snakes(turn.table, (*path, "table"))
    pits = None
    if turn.pits is not None:
        if len(turn.pits) != players:
            raise _error(
                (*path, "pits"), f"must hold one pit per seat: {players}, not {len(turn.pits)}"
            )
        pits = tuple(_snakes(pit, (*path, "pits", i)) for i, pit in enumerate(turn.pits))
    hands = None
    if turn.hands is not None:
        if len(turn.hands) != players:
            raise _error(
                (*path, "hands"), f"must hold one hand per seat: {players}, not {len(turn.hands)}"
            )
        hands = tuple(
            None
            if hand is None
            else tuple(str(_card(c, (*path, "hands", i, j))) for j, c in enumerate(hand))
            for i, hand in enumerate(turn.hands)
        )
    return Turn(turn.seat - 1, card, action, table, pits, hands)


def _read_result(result: ResultModel | None, players: int) -> dict[str, Any] | None:
    if result is None:
        return None
    winners = list(result.winners)
    if not winners:
        raise _error(("result", "winners"), "at least one seat wins")
    if any(not 1 <= w <= players for w in winners):
        raise _error(("result", "winners"), f"seats are numbered 1 to {players}")
    if winners != sorted(set(winners)):
        raise _error(("result", "winners"), "must list each winning seat once, in seat order")
    out: dict[str, Any] = {"winners": winners, "decided_by": result.decided_by}
    for key in ("cards", "snakes", "longest"):
        if key not in result.model_fields_set:
            continue
        numbers = list(getattr(result, key))
        if len(numbers) != players:
            raise _error(
                ("result", key), f"must give one number per seat: {players}, not {len(numbers)}"
            )
        out[key] = numbers
    return out
