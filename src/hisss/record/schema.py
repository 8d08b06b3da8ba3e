"""The shape of a game record and of a deck file, as pydantic models, and the record's JSON Schema.

The models check what JSON alone can say: every field's type, which fields are required, that no
other field is written, and the reading limits (a seat name's length). What the values mean (card
and action notation, the number of seats, a seat's number, the rule values, the deck's counts) is
checked after them by the rules core, whose messages say more; the JSON Schema states those bounds
too, so that other tools can check a record. :func:`first_error` turns pydantic's first error into
the path of the field and a sentence. ``python -m hisss.record.schema`` prints the JSON Schema
published as ``docs/record.schema.json``.

Importing pydantic and building the models takes a noticeable time (``docs/record-format.md``
has the figure), so :mod:`hisss.record` imports this module only when a record or a deck file is
read.

>>> RecordModel.model_json_schema()["properties"]["format"]["const"]
'hisss-record'
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, ClassVar, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from hisss.core.decks import MAX_COPIES
from hisss.core.rules import MAX_HAND_SIZE, MAX_PLAYERS_OPTION, MIN_PLAYERS, JoinClaim, Scoring
from hisss.record.jsontext import JsonPath
from hisss.record.parts import (
    FORMAT_NAME,
    FORMAT_VERSION,
    MAX_SEAT_NAME,
    MAX_SEAT_NAME_CODE_POINTS,
)
from hisss.record.text import printable, show_value

#: The JSON Schema dialect of :func:`record_schema`.
SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"

#: What a field of each JSON type must be, for a message about a value of another type.
_TYPE_NAMES = {
    "int_type": "a whole number",
    "string_type": "text",
    "bool_type": "true or false",
    "list_type": "a list",
    "dict_type": "an object",
    "model_type": "an object",
}


class Shape(BaseModel):
    """A JSON object with exactly the fields of its model, each of exactly its JSON type."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    #: What a field must be when a message needs more than its JSON type (``name``: non-empty).
    expected: ClassVar[dict[str, str]] = {}
    #: What to write in a missing field, told after ``missing``.
    hints: ClassVar[dict[str, str]] = {}


def _options(enum: type[JoinClaim] | type[Scoring]) -> str:
    return ", ".join(f'"{option.value}"' for option in enum)


class RulesModel(Shape):
    """The rule options; one left out keeps the value of the preset (classic, or as named)."""

    model_config = ConfigDict(title="rules")

    forced_placement: bool = Field(
        True, description="A drawn card must go onto a snake when it can."
    )
    join_claim: str = Field(
        "complete",
        description=f"Who takes a joined snake: one of {_options(JoinClaim)} (any letter case).",
    )
    scoring: str = Field(
        "cards", description=f"How the winner is found: one of {_options(Scoring)} (any case)."
    )
    target: int = Field(
        0, ge=0, description='The number of cards that ends a "first-to" game, otherwise 0.'
    )
    six_players: bool = Field(False, description="A sixth player is allowed.")
    hand_size: int = Field(
        0,
        ge=0,
        le=MAX_HAND_SIZE,
        description="The hand variant: the cards each player holds (0: the classic game).",
    )
    hands_seen_by_all: bool = Field(
        False, description="In the hand variant, every hand lies face up."
    )
    preset: str = Field(
        "classic",
        description='Read only: the preset ("classic" or "pl") the options start from.',
    )


class DeckModel(Shape):
    """The deck the cards came from, in the form of a deck file."""

    model_config = ConfigDict(title="deck")
    expected: ClassVar[dict[str, str]] = {
        "name": "non-empty text",
        "cards": "a table from card to number of copies",
    }
    hints: ClassVar[dict[str, str]] = {"cards": "list the cards and their numbers of copies"}

    name: str = Field(
        "custom", description="The deck's name, such as rainbow or the name of a user deck."
    )
    description: str = Field("", description="One sentence about the deck.")
    cards: dict[str, int] = Field(
        description="From card notation (H:red, T:wild, M:red-orange) to the number of copies.",
        json_schema_extra={
            "minProperties": 1,
            "additionalProperties": {"type": "integer", "minimum": 1, "maximum": MAX_COPIES},
        },
    )


class TurnModel(Shape):
    """One placement, in the order of the game."""

    model_config = ConfigDict(title="turn")

    seat: int = Field(
        description="The seat that placed the card, counted from 1.",
        json_schema_extra={"minimum": 1, "maximum": MAX_PLAYERS_OPTION},
    )
    card: str = Field(
        description="The card placed, in card notation: the next card of cards (in the hand "
        "variant: the card played from the hand)."
    )
    action: str = Field(description="Where it went, in action notation: new, 3R, 3R:orange+5L:red.")
    table: list[str] | None = Field(
        None, description="The notation of every table snake after the turn, in table order."
    )
    pits: list[list[str]] | None = Field(
        None, description="Per seat, the notation of each snake in its pit after the turn."
    )
    hands: list[list[str] | None] | None = Field(
        None,
        description="The hand variant: per seat, the cards of its hand after the turn (null for "
        "a hand hidden from the seat the record was made for).",
    )


_Count = Annotated[int, Field(ge=0)]


class ResultModel(Shape):
    """The result of a finished game."""

    model_config = ConfigDict(title="result")

    winners: list[int] = Field(
        description="The winning seats, counted from 1, in seat order.",
        json_schema_extra={"minItems": 1, "items": {"type": "integer", "minimum": 1}},
    )
    decided_by: str = Field(
        description='What settled it: "cards", "snakes", "longest", "target" or "shared".'
    )
    cards: list[_Count] = Field(description="The number of cards in each seat's pit.")
    snakes: list[_Count] = Field(
        default_factory=list, description="The number of snakes in each seat's pit."
    )
    longest: list[_Count] = Field(
        default_factory=list, description="The length of the longest snake in each seat's pit."
    )


class RecordModel(Shape):
    """A hisss game record: everything needed to rebuild one game (see docs/record-format.md)."""

    model_config = ConfigDict(title="hisss game record")

    format: str = Field(
        description="Says what the file is.", json_schema_extra={"const": FORMAT_NAME}
    )
    version: int = Field(ge=1, le=FORMAT_VERSION, description="The format version.")
    rules: RulesModel
    deck: DeckModel
    seats: list[Annotated[str, Field(max_length=MAX_SEAT_NAME_CODE_POINTS)]] = Field(
        description=f"One name per seat, in seat order: at most {MAX_SEAT_NAME} characters as "
        "a reader sees them (graphemes), without control, bidirectional, zero-width or "
        "private-use characters.",
        json_schema_extra={"minItems": MIN_PLAYERS, "maxItems": MAX_PLAYERS_OPTION},
    )
    seed: int | None = Field(
        None, description="The seed that shuffled the deck, for reference; replay never uses it."
    )
    result: ResultModel | None = Field(None, description="The result, once the game is over.")
    cards: list[str] = Field(
        description="The card order in card notation: the starter, then each card as drawn (in "
        'the hand variant: the deal, then each card drawn into a hand; "?" for a card hidden '
        "in another seat's hand)."
    )
    turns: list[TurnModel] = Field(description="One object per placement, in order.")


def first_error(exc: ValidationError, root: type[Shape]) -> tuple[JsonPath, str]:
    """The path and the reason of the first error of ``exc``, raised by the model ``root``."""
    errors = exc.errors(include_url=False)
    first = errors[0]
    if first["type"] == "missing":
        # A misspelt field is missing and unknown at once: the unknown name says more.
        parent = first["loc"][:-1]
        first = next(
            (e for e in errors if e["type"] == "extra_forbidden" and e["loc"][:-1] == parent),
            first,
        )
    loc: JsonPath = tuple(first["loc"])
    kind, value = first["type"], first["input"]
    ctx: dict[str, Any] = first.get("ctx", {})
    name = loc[-1] if loc else ""
    model = _model_at(root, loc[:-1])
    said = {} if model is None or not isinstance(name, str) else model.expected
    if kind == "missing":
        hint = {} if model is None or not isinstance(name, str) else model.hints
        return loc, f"missing: {hint[name]}" if name in hint else "missing"
    if kind == "extra_forbidden":
        known = ", ".join(model.model_fields) if model is not None else ""
        return loc, f"unknown field (expected one of {known})"
    if kind in _TYPE_NAMES:
        return loc, f"must be {said.get(str(name), _TYPE_NAMES[kind])}, not {show_value(value)}"
    if kind == "string_unicode":
        return loc, (
            f"must be text, not {show_value(value)}: it holds a lone UTF-16 surrogate (an escape "
            "such as \\ud800 that is no character)"
        )
    if kind == "string_too_long":
        return loc, f"must be at most {ctx['max_length']} characters long, not {len(value):,}"
    if kind == "greater_than_equal":
        return loc, f"must be at least {ctx['ge']}, not {show_value(value)}"
    if kind == "less_than_equal":
        return loc, f"must be at most {ctx['le']}, not {show_value(value)}"
    message = printable(str(first["msg"]))
    return loc, message[:1].lower() + message[1:]


def _model_at(root: type[Shape], loc: JsonPath) -> type[Shape] | None:
    """The model of the object at ``loc`` below ``root``; ``None`` for a list or a table."""
    model: type[Shape] | None = root
    for part in loc:
        if isinstance(part, int):
            continue
        if model is None or part not in model.model_fields:
            return None
        model = _model_in(model.model_fields[part].annotation)
    return model


def _model_in(annotation: object) -> type[Shape] | None:
    if isinstance(annotation, type) and issubclass(annotation, Shape):
        return annotation
    for arg in get_args(annotation):
        found = _model_in(arg)
        if found is not None:
            return found
    return None


def deck_problem(data: object) -> tuple[JsonPath, str] | None:
    """The path and the reason of the first error in the shape of a deck file's ``data``."""
    try:
        DeckModel.model_validate(data)
    except ValidationError as exc:
        return first_error(exc, DeckModel)
    return None


def record_schema() -> dict[str, Any]:
    """The JSON Schema of a game record, as published in ``docs/record.schema.json``."""
    return {"$schema": SCHEMA_DIALECT, **RecordModel.model_json_schema()}


def record_schema_text() -> str:
    """:func:`record_schema` as the text of ``docs/record.schema.json``."""
    return json.dumps(record_schema(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    sys.stdout.write(record_schema_text())
