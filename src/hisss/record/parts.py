"""The parts of a game record that its writing and its reading share.

The value of the ``format`` field and the version (:data:`FORMAT_NAME`, :data:`FORMAT_VERSION`),
the reading limits, one turn (:class:`Turn`) and the error of a record that is not valid
(:class:`RecordError`). The whole record, :class:`~hisss.record.format.GameRecord`, and its
writing are :mod:`hisss.record.format`'s, which exports every name of this module too; its
reading is :mod:`hisss.record.reading`'s.
"""

from __future__ import annotations

from dataclasses import dataclass

from hisss.core.actions import Action
from hisss.core.cards import Card
from hisss.core.errors import HisssError
from hisss.record.jsontext import JsonPath
from hisss.record.text import printable

#: The value of the ``format`` field: says the JSON text is a hisss game record.
FORMAT_NAME = "hisss-record"
#: The record version hisss writes, and the newest it reads.
FORMAT_VERSION = 1
#: How a record made for one seat writes a card hidden in another seat's hand.
HIDDEN_CARD = "?"
#: The largest record a reader takes: bytes of a file, or characters of a text.
MAX_RECORD_SIZE = 4 * 2**20
#: The longest seat name a reader takes, in graphemes (earlier versions wrote up to this many
#: characters); a new name has at most :data:`hisss.record.names.MAX_NAME`.
MAX_SEAT_NAME = 64
#: The most code points a seat name may have (what a JSON Schema can count): a grapheme of an
#: emoji sequence takes several.
MAX_SEAT_NAME_CODE_POINTS = 8 * MAX_SEAT_NAME


class RecordError(HisssError, ValueError):
    """A record text or mapping that is not a valid game record.

    ``field`` is the path of the offending field (``turns[3].action``; empty for the text as a
    whole) and ``path`` the same as keys and list indexes, ``line`` and ``column`` the place in the
    JSON text (a syntax error has both; a bad field read from text has the line of its key or list
    item), ``source`` names the file.
    """

    def __init__(
        self,
        field: str,
        reason: str,
        *,
        line: int | None = None,
        column: int | None = None,
        source: str | None = None,
        path: JsonPath = (),
    ) -> None:
        self.field = field
        self.reason = reason
        self.line = line
        self.column = column
        self.source = source
        self.path = path
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
            self.field,
            self.reason,
            line=self.line,
            column=self.column,
            source=source,
            path=self.path,
        )


@dataclass(frozen=True, slots=True)
class Turn:
    """One placement: the seat (0-based) that placed ``card`` as ``action``.

    ``table`` (each table snake's notation after the turn) and ``pits`` (each seat's pit snakes
    after the turn) are optional snapshots that replay checks when present; so is ``hands`` in the
    hand variant (each seat's hand after the turn, in card notation; ``None`` for a hand hidden
    from the seat a record was made for). In the hand variant ``card`` is the card played from
    the hand, and ``action`` says where it went (it names no card).
    """

    player: int
    card: Card
    action: Action
    table: tuple[str, ...] | None = None
    pits: tuple[tuple[str, ...], ...] | None = None
    hands: tuple[tuple[str, ...] | None, ...] | None = None


__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "HIDDEN_CARD",
    "MAX_RECORD_SIZE",
    "MAX_SEAT_NAME",
    "MAX_SEAT_NAME_CODE_POINTS",
    "RecordError",
    "Turn",
]
