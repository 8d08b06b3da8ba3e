"""Persistent games: the database schema, database addresses and the repository.

This layer owns what is stored and how: a ``games`` row per game with its ``seats``, an append-only
``actions`` log per game (the game's truth: a state is rebuilt by replaying it), uploaded
``replays`` and a ``meta`` row with the schema version. It speaks SQLAlchemy 2 to SQLite (Python's
``sqlite3``, in a thread of its own) or PostgreSQL (asyncpg) and imports only :mod:`hisss.core`,
:mod:`hisss.record` and the standard library besides its database packages. It knows nothing of
the game's rules beyond the stored text: checking and applying actions is the job of
:mod:`hisss.server`.
"""

from hisss.storage.database import (
    SCHEMA_VERSION,
    DatabaseUrlError,
    database_url,
    default_database_url,
    display_url,
)
from hisss.storage.repository import Store
from hisss.storage.values import (
    EntryKind,
    GameStatus,
    LogEntry,
    NewGame,
    SeatChange,
    SeatTakenError,
    SequenceConflictError,
    StorageError,
    StoredGame,
    StoredReplay,
)

__all__ = [
    "SCHEMA_VERSION",
    "DatabaseUrlError",
    "EntryKind",
    "GameStatus",
    "LogEntry",
    "NewGame",
    "SeatChange",
    "SeatTakenError",
    "SequenceConflictError",
    "StorageError",
    "Store",
    "StoredGame",
    "StoredReplay",
    "database_url",
    "default_database_url",
    "display_url",
]
