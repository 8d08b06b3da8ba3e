"""Games as they are played and recorded, and deck files: the layer just above the rules core.

:mod:`hisss.record.game` owns the game driver, :class:`Game`, through which every front end plays
(with the seats of :mod:`hisss.record.seats`); :mod:`hisss.record.format` owns the versioned JSON
game-record format; :mod:`hisss.record.replay` rebuilds and checks a game from its record through
the driver;
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
from hisss.record.game import Game, Phase
from hisss.record.replay import ReplayError, replay, replay_game, replay_steps, resume
from hisss.record.seats import Seat, SeatKind

__all__ = [
    "DECK_FILE_TYPES",
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "DeckFileError",
    "Game",
    "GameRecord",
    "Phase",
    "RecordBuilder",
    "RecordError",
    "ReplayError",
    "Seat",
    "SeatKind",
    "Turn",
    "load_deck",
    "load_record",
    "replay",
    "replay_game",
    "replay_steps",
    "resolve_deck",
    "result_to_dict",
    "resume",
    "save_record",
]
