"""The game-record format: a versioned, deterministic JSON text of one game.

This module owns the whole record (:class:`GameRecord`), its writing, and :func:`load_record` /
:func:`save_record`; it exports the parts it shares with the reading as well
(:mod:`hisss.record.parts`: :class:`Turn`, :class:`RecordError`, the format's name and version
and the reading limits). Games make their records through the game driver
(:meth:`hisss.record.Game.record`). Reading a record's JSON text or values field by field is the
job of :mod:`hisss.record.reading`, and checking that a record is a real game the job of
:mod:`hisss.record.replay`. The format is described field by field in ``docs/record-format.md``.

A record reads back as it was written:

>>> from hisss.core import RAINBOW, Rules, parse_action, parse_card
>>> record = GameRecord(
...     Rules(), RAINBOW, ("Ala", "Ola"), (parse_card("H:red"), parse_card("M:red-orange")),
...     (Turn(0, parse_card("M:red-orange"), parse_action("1R:red")),), seed=7,
... )
>>> GameRecord.from_json(record.to_json()) == record
True
>>> print(record.to_json(indent=None)[:60])
{"format":"hisss-record","version":1,"rules":{"forced_placem

Writing is deterministic: the same game always gives the same text, so records can be diffed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hisss.core.actions import Action
from hisss.core.cards import Card
from hisss.core.decks import Deck
from hisss.core.rules import Rules
from hisss.core.scoring import Result
from hisss.record.files import FileTextError, read_text
from hisss.record.parts import (
    FORMAT_NAME,
    FORMAT_VERSION,
    HIDDEN_CARD,
    MAX_RECORD_SIZE,
    MAX_SEAT_NAME,
    MAX_SEAT_NAME_CODE_POINTS,
    RecordError,
    Turn,
)
from hisss.record.text import printable, show_value, utf8_error

# The parts shared with the reading (hisss.record.parts) are exported from here too, and so are
# the text helpers, where they were first written.
__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "HIDDEN_CARD",
    "MAX_RECORD_SIZE",
    "MAX_SEAT_NAME",
    "MAX_SEAT_NAME_CODE_POINTS",
    "GameRecord",
    "RecordError",
    "Turn",
    "load_record",
    "printable",
    "result_to_dict",
    "save_record",
    "show_value",
    "utf8_error",
]

#: Lines of the indented layout are kept within this width where the data allows.
_WIDTH = 100
#: The fields of a result, in the order they are written.
_RESULT_FIELDS = ("winners", "decided_by", "cards", "snakes", "longest")


@dataclass(frozen=True)
class GameRecord:
    """A whole game, or a game so far.

    ``cards`` is the card order: the starter, then each drawn card. A finished game holds every card
    drawn; a saved unfinished game holds the cards drawn so far (at most one of them not yet
    placed). In the hand variant the order is the starter, the deal (seat 1, seat 2, ..., round
    again), then each card drawn into a hand, so it holds the deal and every hand; in a record made
    for one seat, a card that went into another seat's hand is ``None`` (written ``?``).
    ``result`` is the result as written in the record (``winners`` 1-based, ``cards`` per seat,
    ``decided_by``, and ``snakes`` and ``longest`` per seat), or ``None``.
    """

    rules: Rules
    deck: Deck
    seats: tuple[str, ...]
    cards: tuple[Card | None, ...]
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
            "cards": [HIDDEN_CARD if card is None else str(card) for card in self.cards],
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
        from hisss.record import reading  # noqa: PLC0415 - it loads pydantic

        return cls(**reading.parts_from_dict(data)._asdict())

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Parse a record from JSON text; raises :class:`RecordError`.

        A syntax error names its line and column and says what is wrong; a bad field names its path
        and the line where it is written. A leading byte-order mark is ignored. A text of more than
        :data:`MAX_RECORD_SIZE` characters and a seat name of more than :data:`MAX_SEAT_NAME` are
        refused, and so is text nested too deeply for the parser.
        """
        from hisss.record import reading  # noqa: PLC0415 - it loads pydantic

        return cls(**reading.parts_from_json(text)._asdict())


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


def load_record(path: str | os.PathLike[str]) -> GameRecord:
    """Read a record file (UTF-8 JSON); errors raise :class:`RecordError` naming the file.

    A file larger than :data:`MAX_RECORD_SIZE` bytes is refused before it is read.
    """
    source = os.fspath(path)
    try:
        text = read_text(path, MAX_RECORD_SIZE, "record file")
    except FileTextError as exc:
        raise RecordError("", exc.reason, line=exc.line, column=exc.column, source=source) from None
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
    if turn.hands is not None:
        out["hands"] = [None if hand is None else list(hand) for hand in turn.hands]
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
