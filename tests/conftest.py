"""Shared test set-up.

Puts the ``tests`` folder on ``sys.path`` so that the test modules import their helpers from the
``support`` package (pytest runs in importlib mode). Marks the tests that start something, from
the fixtures they use, and records the running test so that starting a server unmarked fails (see
``support/markers.py``). Gives the database fixtures: ``postgres`` starts one throw-away
PostgreSQL server for the session (see ``support/pg.py``; the tests that need it fail, never
skip, when its binaries are missing), ``redis`` one throw-away Redis server
(``support/redis_server.py``), and ``database`` is parametrized over SQLite and PostgreSQL (the
latter marked ``postgres``), giving each test a fresh empty database. ``make_client`` starts
in-process servers with changed settings. Before any test, the expert's compiled rollouts are
compiled (or loaded from numba's cache), so that no test waiting on a bot sees the first compile.
"""

import sys
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from hisss.kernel.rollout import warm_up
from support import markers, pg, redis_server


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests that start something (before ``-m`` selects)."""
    markers.mark(items)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    """Let the helpers that start servers see which test runs (``support.markers.require``)."""
    markers.running = item
    try:
        return (yield)
    finally:
        markers.running = None


@pytest.fixture(scope="session", autouse=True)
def compiled_rollouts() -> None:
    """Compile the expert's rollouts (or load them from numba's cache) before any test waits on a
    bot: the first compile after a fresh checkout takes about half a minute."""
    warm_up()


#: The databases the storage, service and restart tests run on.
DATABASES = ("sqlite", pytest.param("postgresql", marks=pytest.mark.postgres))


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


@pytest.fixture
def make_client(tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """Start an in-process server (a ``TestClient``) with changed ``Settings`` on a SQLite file
    of its own and no bot pause; every one started is stopped at the end of the test."""
    from fastapi.testclient import TestClient  # noqa: PLC0415 - only the web tests need it

    from hisss.server import Settings, create_app  # noqa: PLC0415

    clients: list[TestClient] = []

    def make(**options: Any) -> TestClient:
        settings = Settings(
            database=f"sqlite+pysqlite:///{tmp_path / f'web{len(clients)}.db'}",
            **{"bot_delay": 0.0, **options},
        )
        client = TestClient(create_app(settings))
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)
