"""The storage layer on SQLite and PostgreSQL: games, seats, the append-only log, replays,
database addresses and the schema version."""

from __future__ import annotations

import asyncio
import glob
import shutil
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.orm import Session

from hisss.record import Seat, SeatKind
from hisss.storage import (
    SCHEMA_VERSION,
    DatabaseUrlError,
    EntryKind,
    GameStatus,
    LogEntry,
    NewGame,
    SeatChange,
    SeatTakenError,
    SequenceConflictError,
    StorageError,
    Store,
    database_url,
    default_database_url,
)
from hisss.storage.models import MetaRow
from hisss.storage.runners import POOL_SIZE
from support import pg


def _new_game(status: GameStatus = GameStatus.RUNNING) -> NewGame:
    return NewGame(
        rules={"forced_placement": True},
        deck={"name": "rainbow", "cards": {"H:red": 1}},
        seed=2**62 + 5,
        seats=(
            Seat.person("Ala"),
            Seat.bot("Bot", "hard"),
            Seat.person("Player 3", open=status is GameStatus.OPEN),
        ),
        status=status,
        title="Sunday",
        token_hashes={0: "a" * 64},
    )


async def test_games_are_stored_with_their_seats(database: str) -> None:
    store = await Store.open(database)
    try:
        game = await store.create_game(_new_game())
        assert len(game.code) == 6 and game.version == 0
        again = await store.get_game(game.id)
        assert again == game
        by_code = await store.get_game(game.code.lower())
        assert by_code is not None and by_code.id == game.id
        assert again.seed == 2**62 + 5
        assert [s.kind for s in again.seats] == ["person", "bot", "person"]
        assert again.token_hashes == {0: "a" * 64}
        assert "a" * 64 not in repr(again), "token hashes stay out of reprs"
        assert await store.get_game("nope") is None
        assert await store.get_game("x" * 500) is None
    finally:
        await store.close()


async def test_keys_that_cannot_name_anything_find_nothing(database: str) -> None:
    """Ids and codes are letters and digits: anything else (a NUL, which PostgreSQL refuses to
    read, other symbols, non-ASCII letters) finds nothing instead of failing."""
    store = await Store.open(database)
    try:
        game = await store.create_game(_new_game())
        for key in ("\x00", game.code + "\x00", "a\x00b", "\ud800", "Zażółć", "%", " ", "../x"):
            assert await store.get_game(key) is None, repr(key)
            assert await store.get_replay(key) is None, repr(key)
        assert await store.get_game(f" {game.code} ") is None
    finally:
        await store.close()


async def test_the_log_is_append_only_and_numbered(database: str) -> None:
    store = await Store.open(database)
    try:
        game = await store.create_game(_new_game())
        await store.append(game.id, LogEntry(1, EntryKind.STARTER, card="H:red"))
        await store.append(game.id, LogEntry(2, EntryKind.DRAW, seat=0, card="T:red"))
        # The same step twice, a gap, and a step of the past are all refused.
        for seq in (2, 4, 1):
            with pytest.raises(SequenceConflictError):
                await store.append(game.id, LogEntry(seq, EntryKind.DRAW, seat=0, card="T:red"))
        entries = await store.actions(game.id)
        assert [(e.seq, e.kind, e.card) for e in entries] == [
            (1, "starter", "H:red"),
            (2, "draw", "T:red"),
        ]
        stored = await store.get_game(game.id)
        assert stored is not None and stored.version == 2
    finally:
        await store.close()


async def test_racing_writers_store_a_step_once(database: str) -> None:
    store = await Store.open(database)
    try:
        game = await store.create_game(_new_game())
        outcomes = await asyncio.gather(
            *(
                store.append(game.id, LogEntry(1, EntryKind.STARTER, card=f"H:{c}"))
                for c in ("red", "blue", "green", "yellow")
            ),
            return_exceptions=True,
        )
        won = [o for o in outcomes if not isinstance(o, BaseException)]
        lost = [o for o in outcomes if isinstance(o, BaseException)]
        assert len(won) == 1
        assert all(isinstance(o, SequenceConflictError) for o in lost)
        assert len(await store.actions(game.id)) == 1
    finally:
        await store.close()


async def test_steps_stored_together_are_each_all_or_nothing(database: str) -> None:
    # Steps of many games arrive at once, more than PostgreSQL's pool has connections, so both
    # databases store some of them with one commit: a step whose seat change is refused leaves
    # no trace, and every other step is stored for good.
    store = await Store.open(database)
    try:
        games = [await store.create_game(_new_game()) for _ in range(POOL_SIZE + 25)]
        outcomes = await asyncio.gather(
            *(
                store.append(game.id, LogEntry(1, EntryKind.STARTER, card="H:red"))
                for game in games[1:]
            ),
            # Seat 1 is a person's, not a bot's: handing it back to its person is refused,
            # after the game's version was moved on in the same transaction.
            store.append(
                games[0].id,
                LogEntry(1, EntryKind.PERSON, seat=0, by_seat=0),
                seat_change=SeatChange(0, SeatKind.PERSON, None),
            ),
            return_exceptions=True,
        )
        assert all(isinstance(o, LogEntry) for o in outcomes[:-1]), outcomes
        assert isinstance(outcomes[-1], SequenceConflictError)
    finally:
        await store.close()
    reopened = await Store.open(database)
    try:
        refused = await reopened.get_game(games[0].id)
        assert refused is not None and refused.version == 0
        assert await reopened.actions(games[0].id) == []
        for game in games[1:]:
            stored = await reopened.get_game(game.id)
            assert stored is not None and stored.version == 1
            assert [e.card for e in await reopened.actions(game.id)] == ["H:red"]
    finally:
        await reopened.close()


async def test_finishing_and_seat_changes_go_with_the_step(database: str) -> None:
    store = await Store.open(database)
    try:
        game = await store.create_game(_new_game())
        await store.append(
            game.id,
            LogEntry(1, EntryKind.BOT, seat=2, action="easy", by_seat=0),
            seat_change=SeatChange(2, SeatKind.BOT, "easy"),
        )
        await store.append(
            game.id,
            LogEntry(2, EntryKind.STARTER, card="H:red"),
            status=GameStatus.FINISHED,
            result={"winners": [1]},
        )
        stored = await store.get_game(game.id)
        assert stored is not None
        assert stored.status is GameStatus.FINISHED and stored.result == {"winners": [1]}
        assert (stored.seats[2].kind, stored.seats[2].level) == ("bot", "easy")
        assert [g.id for g in await store.list_games(GameStatus.FINISHED)] == [game.id]
        assert await store.list_games(GameStatus.RUNNING) == []
        assert await store.count_games() == {"finished": 1}
    finally:
        await store.close()


async def test_open_seats_are_claimed_once_and_start_the_game(database: str) -> None:
    store = await Store.open(database)
    try:
        game = await store.create_game(_new_game(GameStatus.OPEN))
        assert await store.game_ids(GameStatus.OPEN) == [game.id]
        with pytest.raises(SeatTakenError):
            await store.claim_seat(game.id, 0, "Thief", "b" * 64)  # reserved, not open
        with pytest.raises(SeatTakenError):
            await store.claim_seat(game.id, 1, "Thief", "b" * 64)  # a bot
        claimed = await store.claim_seat(game.id, 2, "Olek", "c" * 64)
        assert claimed.status is GameStatus.RUNNING
        assert (claimed.seats[2].name, claimed.seats[2].open) == ("Olek", False)
        with pytest.raises(SeatTakenError):
            await store.claim_seat(game.id, 2, "Late", "d" * 64)
        unchanged = await store.get_game(game.id)
        assert unchanged is not None and unchanged.token_hashes == {0: "a" * 64, 2: "c" * 64}
    finally:
        await store.close()


async def test_replays_are_stored(database: str) -> None:
    store = await Store.open(database)
    try:
        replay = await store.add_replay('{"format": "hisss-record"}', 2, 49)
        again = await store.get_replay(replay.id)
        assert again == replay
        assert await store.get_replay("missing") is None
    finally:
        await store.close()


async def test_reopening_keeps_everything_and_checks_the_schema(database: str) -> None:
    store = await Store.open(database)
    game = await store.create_game(_new_game())
    await store.append(game.id, LogEntry(1, EntryKind.STARTER, card="H:red"))
    assert await store.schema_version() == SCHEMA_VERSION
    await store.close()
    store = await Store.open(database)
    try:
        assert len(await store.actions(game.id)) == 1

        def newer(session: Session) -> None:
            row = session.get(MetaRow, "schema_version")
            assert row is not None
            row.value = str(SCHEMA_VERSION + 1)

        await store._runner.run(newer)
    finally:
        await store.close()
    with pytest.raises(StorageError, match="newer than this hisss reads"):
        await Store.open(database)


async def test_an_unreachable_database_is_a_clear_error() -> None:
    with pytest.raises(StorageError, match=r"cannot open database postgresql\+asyncpg://u:\*\*\*@"):
        await Store.open("postgresql+asyncpg://u:secret@127.0.0.1:1/hisss")


@pytest.mark.parametrize(
    ("text", "url"),
    [
        ("sqlite:///games.db", "sqlite+pysqlite:///games.db"),
        ("sqlite+aiosqlite:///games.db", "sqlite+pysqlite:///games.db"),
        ("sqlite+pysqlite:///games.db", "sqlite+pysqlite:///games.db"),
        ("postgresql://ala@db/hisss", "postgresql+asyncpg://ala@db/hisss"),
        ("postgres://ala@db:5433/hisss", "postgresql+asyncpg://ala@db:5433/hisss"),
        ("postgresql+psycopg://ala@db/hisss", "postgresql+asyncpg://ala@db/hisss"),
        ("postgresql+asyncpg://ala:pw@db/hisss", "postgresql+asyncpg://ala:pw@db/hisss"),
    ],
)
def test_database_addresses_map_to_async_drivers(text: str, url: str) -> None:
    assert database_url(text) == url


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("games.db", "not a database address"),
        ("mysql://localhost/hisss", "unsupported database 'mysql'"),
        ("sqlite+weird:///x.db", "unsupported driver 'weird'"),
        ("sqlite://", "in memory"),
        ("sqlite:///:memory:", "in memory"),
        ("sqlite:////no/such/directory/x.db", "does not exist"),
        ("postgresql://ala@db", "names no database"),
        ("postgresql://ala:topsecret@db", "names no database"),
    ],
)
def test_bad_database_addresses_are_refused(text: str, reason: str) -> None:
    with pytest.raises(DatabaseUrlError, match=reason) as info:
        database_url(text)
    assert "topsecret" not in str(info.value)


def test_the_default_database_is_in_the_user_data_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    url = default_database_url()
    assert url == f"sqlite+pysqlite:///{tmp_path / 'data' / 'hisss' / 'hisss.db'}"
    assert (tmp_path / "data" / "hisss").is_dir()


async def test_database_files_are_where_their_paths_say(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The default file under a data directory whose path holds URL characters (? # %), and a
    file under the home directory written with ~, are opened where the path says."""
    data = tmp_path / "odd ?#%20 dir"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    for url, path in [
        (default_database_url(), data / "hisss" / "hisss.db"),
        (database_url("sqlite:///~/games.db"), tmp_path / "home" / "games.db"),
    ]:
        store = await Store.open(url)
        await store.close()
        assert path.is_file(), (url, sorted(p.name for p in tmp_path.rglob("*")))


def test_missing_postgresql_binaries_fail_with_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("HISSS_TEST_POSTGRES_URL", raising=False)
    monkeypatch.setattr(glob, "glob", lambda pattern: [])
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(pg.PostgresMissingError, match=r"apt-get install -y postgresql"):
        pg.start()


async def test_a_closed_store_refuses_every_call_and_closes_twice_quietly(database: str) -> None:
    store = await Store.open(database)
    game = await store.create_game(_new_game())
    await store.close()
    await store.close()
    with pytest.raises(StorageError, match="the database is closed"):
        await store.get_game(game.id)
    with pytest.raises(StorageError, match="the database is closed"):
        await store.append(game.id, LogEntry(1, EntryKind.STARTER, card="H:red"))
    store = await Store.open(database)
    try:
        stored = await store.get_game(game.id)
        assert stored is not None and stored.version == 0
    finally:
        await store.close()


async def test_a_failing_database_call_is_a_storage_error(tmp_path: Path) -> None:
    path = tmp_path / "gone.db"
    store = await Store.open(f"sqlite:///{path}")
    try:
        game = await store.create_game(_new_game())
        await store.ping()

        def drop(session: Session) -> None:
            session.execute(text("DROP TABLE actions"))

        await store._runner.run(drop)
        with pytest.raises(StorageError, match="the database failed: no such table: actions"):
            await store.append(game.id, LogEntry(1, EntryKind.STARTER, card="H:red"))
        with pytest.raises(StorageError, match="the database failed"):
            await store.actions(game.id)
        stored = await store.get_game(game.id)
        assert stored is not None and stored.version == 0  # the failed append changed nothing
    finally:
        await store.close()
