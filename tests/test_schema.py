"""The database's schema: made and upgraded by migrations, under a lock every process shares.

A new database gets exactly the models' tables; a database of each older schema, made before the
migrations existed, is upgraded with its games kept; a newer one is refused; and servers started
together on one empty (or older) database all start.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, create_engine, inspect, text
from sqlalchemy.ext.asyncio import create_async_engine

from hisss.storage import SCHEMA_VERSION, GameStatus, StorageError, Store
from hisss.storage.models import Base
from hisss.storage.schema import SCRIPT_LOCATION, revision_of
from support import pg
from support.server_process import ServerProcess

#: A finished game of the first schema (no ``public``, no ``pace``), with one step in its log.
_OLD_GAME = (
    "INSERT INTO games (id, code, status, rules, deck, seed, players, title, version,"
    " created_at, updated_at) VALUES ('a1', 'OLDONE', 'finished', '{}', '{}', 1, 2, '',"
    " 1, '2025-01-01 00:00:00+00', '2025-01-01 00:00:00+00')"
)
_OLD_STEP = (
    "INSERT INTO actions (game_id, seq, kind, card, created_at)"
    " VALUES ('a1', 1, 'starter', 'H:red', '2025-01-01 00:00:00+00')"
)


def _config(connection: Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    config.attributes["connection"] = connection
    return config


def _make_legacy(connection: Connection, version: int) -> None:
    """A database of schema ``version`` as hisss made it before the migrations: the tables of
    that version, its number in ``meta``, no ``alembic_version``, and one old game."""
    command.upgrade(_config(connection), revision_of(version))
    connection.execute(text("DROP TABLE alembic_version"))
    connection.execute(
        text("INSERT INTO meta (key, value) VALUES ('schema_version', :v)"), {"v": str(version)}
    )
    connection.execute(text(_OLD_GAME))
    connection.execute(text(_OLD_STEP))


def _inspect(connection: Connection) -> dict[str, Any]:
    """What a test checks of a database: its revision, version, indexes of the log, and how it
    differs from the models (types are compared where the database checks them)."""
    context = MigrationContext.configure(
        connection, opts={"compare_type": connection.dialect.name != "sqlite"}
    )
    return {
        "revision": context.get_current_revision(),
        "version": connection.execute(
            text("SELECT value FROM meta WHERE key = 'schema_version'")
        ).scalar_one(),
        "log_indexes": {i["name"] for i in inspect(connection).get_indexes("actions")},
        "differences": compare_metadata(context, Base.metadata),
    }


async def _on(database: str, fn: Any, *args: Any) -> Any:
    """Run ``fn(connection, *args)`` in one committed transaction on ``database``."""
    if database.startswith("sqlite"):
        engine = create_engine(database)
        try:
            with engine.begin() as connection:
                return fn(connection, *args)
        finally:
            engine.dispose()
    async_engine = create_async_engine(database)
    try:
        async with async_engine.begin() as connection:
            return await connection.run_sync(fn, *args)
    finally:
        await async_engine.dispose()


def test_the_newest_revision_is_the_schema_version() -> None:
    script = ScriptDirectory.from_config(_config(None))  # type: ignore[arg-type]
    assert script.get_heads() == [revision_of(SCHEMA_VERSION)]
    # One revision a version, in order, none skipped.
    revisions = [s.revision for s in reversed(list(script.walk_revisions()))]
    assert revisions == [revision_of(v) for v in range(1, SCHEMA_VERSION + 1)]


async def test_a_new_database_gets_exactly_the_models_tables(database: str) -> None:
    store = await Store.open(database)
    await store.close()
    found = await _on(database, _inspect)
    assert found["differences"] == []
    assert found["revision"] == revision_of(SCHEMA_VERSION)
    assert found["version"] == str(SCHEMA_VERSION)
    assert found["log_indexes"] == {"uq_actions_game_seq"} or (
        # SQLite names the unique constraint's index itself
        database.startswith("sqlite") and "ix_actions_game_id" not in found["log_indexes"]
    )
    # Opening it again changes nothing.
    store = await Store.open(database)
    await store.close()
    assert await _on(database, _inspect) == found


@pytest.mark.parametrize("version", range(1, SCHEMA_VERSION))
async def test_a_database_of_an_older_schema_is_upgraded_with_its_games(
    database: str, version: int
) -> None:
    await _on(database, _make_legacy, version)
    store = await Store.open(database)
    try:
        [old] = await store.list_games(GameStatus.FINISHED, public=True)
        assert old.code == "OLDONE" and old.public and old.pace == "normal"
        assert [entry.card for entry in await store.actions(old.id)] == ["H:red"]
        assert await store.schema_version() == SCHEMA_VERSION
    finally:
        await store.close()
    found = await _on(database, _inspect)
    assert found["revision"] == revision_of(SCHEMA_VERSION)
    assert found["differences"] == []
    assert "ix_actions_game_id" not in found["log_indexes"]


async def test_a_newer_database_is_refused_and_left_alone(database: str) -> None:
    store = await Store.open(database)
    await store.close()

    def newer_revision(connection: Connection) -> None:
        connection.execute(text("UPDATE alembic_version SET version_num = '0999'"))

    await _on(database, newer_revision)
    with pytest.raises(StorageError, match=r"schema version '0999', newer than this hisss"):
        await Store.open(database)
    assert (await _on(database, _inspect))["revision"] == "0999"


def test_a_database_with_hisss_tables_but_no_version_is_refused(tmp_path: Path) -> None:
    database = f"sqlite+pysqlite:///{tmp_path / 'odd.db'}"
    engine = create_engine(database)
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE games (id TEXT)"))
    engine.dispose()
    with pytest.raises(StorageError, match="has hisss's tables but no schema version"):
        asyncio.run(Store.open(database))


def _start_together(database: str, directory: Path, count: int, round_: int) -> list[str]:
    """Start ``count`` servers on ``database`` at once; the output of each that failed."""
    servers = [ServerProcess(database, directory, name=f"round{round_}-{i}") for i in range(count)]
    failures = []
    with concurrent.futures.ThreadPoolExecutor(count) as pool:
        for server, started in zip(servers, pool.map(_try_start, servers), strict=True):
            if not started:
                failures.append(server.output())
    for server in servers:
        server.stop()
    return failures


def _try_start(server: ServerProcess) -> bool:
    try:
        server.start(timeout=120)
    except AssertionError:
        return False
    return server.request("GET", "/healthz")["ok"] is True


@pytest.mark.system
def test_servers_started_together_on_an_empty_postgresql_all_start(
    postgres: pg.PostgresServer, tmp_path: Path
) -> None:
    for round_ in range(10):
        database = asyncio.run(pg.create_database(postgres))
        failures = _start_together(database, tmp_path, 3, round_)
        assert failures == [], f"round {round_}:\n" + "\n".join(failures)


@pytest.mark.system
def test_servers_started_together_on_an_older_database_all_start(
    postgres: pg.PostgresServer, tmp_path: Path
) -> None:
    sqlite = f"sqlite+pysqlite:///{tmp_path / 'old.db'}"
    for round_, database in enumerate([sqlite, asyncio.run(pg.create_database(postgres))]):
        asyncio.run(_on(database, _make_legacy, 1))
        failures = _start_together(database, tmp_path, 3, round_)
        assert failures == [], f"{database}:\n" + "\n".join(failures)
        assert asyncio.run(_on(database, _inspect))["revision"] == revision_of(SCHEMA_VERSION)
