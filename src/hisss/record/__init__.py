"""Game records and deck files: the layer just above the rules core.

:mod:`hisss.record.format` owns the versioned JSON game-record format and the builder a game loop
uses; :mod:`hisss.record.replay` rebuilds and checks a game from its record;
:mod:`hisss.record.deckfile` reads user decks from TOML or JSON files. This package imports only
:mod:`hisss.core` and the standard library.
"""

from hisss.record.deckfile import DECK_FILE_TYPES, DeckFileError, load_deck, resolve_deck
from hisss.record.format import (
    FORMAT_NAME,
    FORMAT_VERSION,
    GameRecord,
    RecordBuilder,
    RecordError,
    Turn,
    load_record,
    result_to_dict,
    save_record,
)
from hisss.record.replay import ReplayError, replay, replay_steps

__all__ = [
    "DECK_FILE_TYPES",
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "DeckFileError",
    "GameRecord",
    "RecordBuilder",
    "RecordError",
    "ReplayError",
    "Turn",
    "load_deck",
    "load_record",
    "replay",
    "replay_steps",
    "resolve_deck",
    "result_to_dict",
    "save_record",
]
