"""Creating and upgrading the database's tables: Alembic migrations, under a lock that every
process sharing the database takes first.

Any number of ``hisss serve`` processes may start together on an empty database, or on one of an
older schema: the first to take the lock creates or upgrades the tables, and the others, once it
commits, find them done. On PostgreSQL the lock is a transaction-level advisory lock; on SQLite it
is the database's write lock, taken at the start of the transaction (``BEGIN IMMEDIATE``).

Databases made before the migrations existed say their version only in the ``meta`` table; they
are stamped with the matching revision, then upgraded like any other. The ``meta`` table keeps
saying the version, so that an older hisss refuses a database newer than it reads.
"""

from __future__ import annotations

import logging

from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, inspect, text

from hisss.storage.database import SCHEMA_VERSION
from hisss.storage.values import StorageError

#: The key of PostgreSQL's advisory lock that migrations hold ("hiss" in ASCII).
LOCK_KEY = 0x68697373

log = logging.getLogger("hisss.storage")
#: Alembic's own logger, which says what it does at level INFO: an upgrade is logged once, by
#: :func:`migrate`, and opening a database of the newest schema not at all.
_alembic_log = logging.getLogger("alembic.runtime.migration")

#: Where the revisions are: the package :mod:`hisss.storage.migrations`.
SCRIPT_LOCATION = "hisss.storage:migrations"


def revision_of(version: int) -> str:
    """The Alembic revision that makes schema ``version``: ``0004`` for 4."""
    return f"{version:04d}"


def migrate(connection: Connection) -> None:
    """Bring the database to :data:`~hisss.storage.database.SCHEMA_VERSION` within
    ``connection``'s transaction, which must be new and is left for the caller to commit.

    Raises :class:`StorageError` for a database newer than this hisss reads, or one whose tables
    say no version."""
    level = _alembic_log.level
    _alembic_log.setLevel(logging.WARNING)
    try:
        stored = _migrate(connection)
    finally:
        _alembic_log.setLevel(level)
    if stored is not None and stored < SCHEMA_VERSION:
        log.info("database upgraded from schema %d to %d", stored, SCHEMA_VERSION)


def _migrate(connection: Connection) -> int | None:
    """See :func:`migrate`; the version the database had, if any."""
    _lock(connection)
    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    config.attributes["connection"] = connection
    known = {script.revision for script in ScriptDirectory.from_config(config).walk_revisions()}
    current = MigrationContext.configure(connection).get_current_revision()
    stored = _stored_version(connection)
    if current is None and stored is not None:  # made before the migrations
        command.stamp(config, revision_of(stored))
    elif current is not None and current not in known:
        raise StorageError(_too_new(current))
    command.upgrade(config, "head")
    _write_version(connection)
    return stored


def _lock(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
    else:
        # Nothing has run in this transaction yet, so the driver has not begun one: begin it
        # holding the write lock, which other processes wait for in SQLite's busy handler.
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def _stored_version(connection: Connection) -> int | None:
    """The version the ``meta`` table says; ``None`` for an empty database. Raises
    :class:`StorageError` for one newer than this hisss reads."""
    tables = set(inspect(connection).get_table_names())
    if "meta" not in tables:
        if tables & {"games", "seats", "actions", "replays"}:
            raise StorageError("has hisss's tables but no schema version; it cannot be upgraded")
        return None
    value = connection.execute(
        text("SELECT value FROM meta WHERE key = 'schema_version'")
    ).scalar_one_or_none()
    if value is None or not value.isdigit() or int(value) < 1:
        raise StorageError(f"has an unreadable schema version {value!r}")
    if int(value) > SCHEMA_VERSION:
        raise StorageError(_too_new(value))
    return int(value)


def _too_new(version: str) -> str:
    return (
        f"has schema version {version!r}, newer than this hisss reads "
        f"({revision_of(SCHEMA_VERSION)}); upgrade hisss"
    )


def _write_version(connection: Connection) -> None:
    value = str(SCHEMA_VERSION)
    updated = connection.execute(
        text("UPDATE meta SET value = :value WHERE key = 'schema_version'"), {"value": value}
    )
    if updated.rowcount == 0:
        connection.execute(
            text("INSERT INTO meta (key, value) VALUES ('schema_version', :value)"),
            {"value": value},
        )


__all__ = ["LOCK_KEY", "SCRIPT_LOCATION", "migrate", "revision_of"]
