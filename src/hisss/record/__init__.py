"""Games as they are played and recorded, and deck files: the layer just above the rules core.

:mod:`hisss.record.game` owns the game driver, :class:`Game`, through which every front end plays
(with the seats of :mod:`hisss.record.seats`); :mod:`hisss.record.format` owns the versioned JSON
game-record format and its writing, with the parts its reading shares in :mod:`hisss.record.parts`
(a turn, the record's error, the reading limits); :mod:`hisss.record.reading` reads a record
field by field, with the pydantic models of :mod:`hisss.record.schema` (which also give the
record's JSON Schema); :mod:`hisss.record.replay` rebuilds and checks a game from its record
through the driver; :mod:`hisss.record.deckfile` reads user decks from TOML or JSON files. JSON
text is read by :mod:`hisss.record.jsontext`, files by :mod:`hisss.record.files`, and
:mod:`hisss.record.text` keeps messages to one line; :mod:`hisss.record.snakes` keeps the
snakes' notation from one position to the next. This package imports :mod:`hisss.core`, the
standard library and pydantic (only once a record or a deck file is read).
"""

from hisss.record.deckfile import (
    DECK_FILE_TYPES,
    MAX_DECK_FILE_SIZE,
    DeckFileError,
    load_deck,
    resolve_deck,
)
from hisss.record.format import (
    FORMAT_NAME,
    FORMAT_VERSION,
    MAX_RECORD_SIZE,
    MAX_SEAT_NAME,
    MAX_SEAT_NAME_CODE_POINTS,
    GameRecord,
    RecordError,
    Turn,
    load_record,
    result_to_dict,
    save_record,
)
from hisss.record.game import Game, Phase
from hisss.record.names import MAX_NAME, SeatNameError, check_name, grapheme_count, printable
from hisss.record.replay import ReplayError, replay, replay_game, replay_steps, resume
from hisss.record.seats import Seat, SeatKind
from hisss.record.snakes import SnakeTexts

__all__ = [
    "DECK_FILE_TYPES",
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "MAX_DECK_FILE_SIZE",
    "MAX_NAME",
    "MAX_RECORD_SIZE",
    "MAX_SEAT_NAME",
    "MAX_SEAT_NAME_CODE_POINTS",
    "DeckFileError",
    "Game",
    "GameRecord",
    "Phase",
    "RecordError",
    "ReplayError",
    "Seat",
    "SeatKind",
    "SeatNameError",
    "SnakeTexts",
    "Turn",
    "check_name",
    "grapheme_count",
    "load_deck",
    "load_record",
    "printable",
    "replay",
    "replay_game",
    "replay_steps",
    "resolve_deck",
    "result_to_dict",
    "resume",
    "save_record",
]
