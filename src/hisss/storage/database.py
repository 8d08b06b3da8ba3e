"""Database addresses: the default SQLite file, and reading the ``--database`` option.

The server speaks to SQLite through Python's own ``sqlite3`` (``pysqlite``) in a thread of its
own, and to PostgreSQL through ``asyncpg`` (see :mod:`hisss.storage.repository`), so every address
ends up naming one of those drivers. People write the plain forms (``sqlite:///games.db``,
``postgresql://user@host/db``); :func:`database_url` maps them to the driver and rejects what
cannot work with a sentence that says why.

>>> database_url("sqlite:///games.db")
'sqlite+pysqlite:///games.db'
>>> database_url("postgres://ala:secret@db.example/hisss")
'postgresql+asyncpg://ala:secret@db.example/hisss'
>>> display_url("postgresql+asyncpg://ala:secret@db.example/hisss")
'postgresql+asyncpg://ala:***@db.example/hisss'
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from hisss.core import HisssError

#: The version of the schema this code writes: the newest revision of
#: :mod:`hisss.storage.migrations`, also stored in the ``meta`` table.
SCHEMA_VERSION = 4

_EXAMPLES = "sqlite:///FILE or postgresql://USER:PASSWORD@HOST:PORT/DATABASE"
#: The driver used for each database, and the other drivers mapped to it.
_DRIVERS = {"sqlite": "pysqlite", "postgresql": "asyncpg"}
_MAPPED_DRIVERS = {
    "sqlite": {"", "pysqlite", "aiosqlite"},
    "postgresql": {"", "psycopg2", "psycopg", "asyncpg", "pg8000"},
}


class DatabaseUrlError(HisssError, ValueError):
    """A ``--database`` address that cannot be used."""


def default_database_url() -> str:
    """The SQLite file ``hisss.db`` in the user's data directory, which is created if missing."""
    import platformdirs  # noqa: PLC0415 - only the server's default needs it

    directory = Path(platformdirs.user_data_dir("hisss", appauthor=False))
    directory.mkdir(parents=True, exist_ok=True)
    return _sqlite_file(directory / "hisss.db")


def _sqlite_file(path: Path) -> str:
    """The URL of the SQLite file ``path``, escaped where the path holds ``?``, ``%`` or ``#``."""
    url = URL.create(f"sqlite+{_DRIVERS['sqlite']}", database=str(path))
    return url.render_as_string(hide_password=False)


def database_url(text: str) -> str:
    """The SQLAlchemy URL for a database address; raises :class:`DatabaseUrlError`.

    Accepts ``sqlite:///FILE`` (relative to the working directory; ``sqlite:////abs/path`` for an
    absolute path, ``sqlite:///~/FILE`` in the home directory), ``postgresql://...`` (or
    ``postgres://``) and full SQLAlchemy URLs naming one of the drivers above.

    >>> database_url("mysql://localhost/hisss")
    Traceback (most recent call last):
    ...
    hisss.storage.database.DatabaseUrlError: database 'mysql://localhost/hisss': unsupported \
database 'mysql' (use sqlite:///FILE or postgresql://USER:PASSWORD@HOST:PORT/DATABASE)
    """
    if not isinstance(text, str) or not text.strip():
        raise DatabaseUrlError(f"the database address is empty (use {_EXAMPLES})")
    raw = text.strip()
    shown = display_url(raw)
    if raw.startswith("postgres://"):
        raw = "postgresql://" + raw.removeprefix("postgres://")
    try:
        url = make_url(raw)
    except (ArgumentError, ValueError):
        raise DatabaseUrlError(
            f"database {shown!r} is not a database address (use {_EXAMPLES})"
        ) from None
    backend = url.get_backend_name()
    if backend not in _DRIVERS:
        raise DatabaseUrlError(
            f"database {shown!r}: unsupported database {backend!r} (use {_EXAMPLES})"
        )
    driver = url.drivername.partition("+")[2]
    if driver not in _MAPPED_DRIVERS[backend]:
        raise DatabaseUrlError(
            f"database {shown!r}: unsupported driver {driver!r} for {backend} "
            f"(hisss uses {backend}+{_DRIVERS[backend]})"
        )
    url = url.set(drivername=f"{backend}+{_DRIVERS[backend]}")
    if backend == "sqlite":
        _check_sqlite(url, shown)
        if (url.database or "").startswith("~"):
            return _sqlite_file(Path(url.database or "").expanduser())
    elif not url.database:
        raise DatabaseUrlError(
            f"database {shown!r} names no database: add it after the host, as in "
            "postgresql://USER@HOST/DATABASE"
        )
    return url.render_as_string(hide_password=False)


def _check_sqlite(url: URL, shown: str) -> None:
    name = url.database or ""
    if name in ("", ":memory:") or name.startswith("file::memory:"):
        raise DatabaseUrlError(
            f"database {shown!r} is in memory and would lose every game when the server stops: "
            "give a file, as in sqlite:///hisss.db"
        )
    parent = Path(name).expanduser().parent
    if not parent.is_dir():
        raise DatabaseUrlError(
            f"database {shown!r}: the directory {str(parent)!r} does not exist (create it first)"
        )


def display_url(url: str) -> str:
    """The address with its password hidden, for messages and logs."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return url if "@" not in url else "<unreadable database address>"
