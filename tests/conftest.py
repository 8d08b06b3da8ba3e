"""Shared test set-up.

Lets the test modules import their helpers (``oracle``, ``pg``, ``server_process``; pytest runs in
importlib mode), and gives the database fixtures: ``postgres`` starts one throw-away PostgreSQL
server for the session (see ``tests/pg.py``; the tests that need it fail, never skip, when its
binaries are missing), ``redis`` one throw-away Redis server (``tests/redis_server.py``), and
``database`` is parametrized over SQLite and PostgreSQL, giving each
test a fresh empty database.
"""

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import pg
import redis_server

#: The databases the storage, service and restart tests run on.
DATABASES = ("sqlite", "postgresql")


@pytest.fixture(scope="session")
def postgres() -> Iterator[pg.PostgresServer]:
    """A PostgreSQL server for the whole session."""
    try:
        server = pg.start()
    except pg.PostgresMissingError as exc:
        pytest.fail(str(exc), pytrace=False)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis() -> Iterator[redis_server.RedisServer]:
    """A Redis server for the whole session (see ``tests/redis_server.py``)."""
    try:
        server = redis_server.start()
    except redis_server.RedisMissingError as exc:
        pytest.fail(str(exc), pytrace=False)
    yield server
    server.stop()


@pytest.fixture(params=DATABASES)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The SQLAlchemy URL of a fresh, empty database of each kind."""
    if request.param == "sqlite":
        return f"sqlite+pysqlite:///{tmp_path / 'hisss.db'}"
    server: pg.PostgresServer = request.getfixturevalue("postgres")
    return await pg.create_database(server)
