"""docs/operations.md says only what is true: every ``hisss serve`` option and every setting it
names exists (with the default it gives), and its backup and restore recipes, run as written
against a database in use, give a copy the server reads with every game."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import re
import subprocess
from pathlib import Path

from hisss.cli import app
from hisss.record import Seat
from hisss.server import Settings
from hisss.storage import EntryKind, GameStatus, LogEntry, NewGame, Store
from support import pg
from support.cli import CliRunner

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    return DOC.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def _blocks(text: str) -> list[str]:
    return re.findall(r"```[a-z]*\n(.*?)```", text, flags=re.DOTALL)


def test_every_serve_option_named_exists() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    named: set[str] = set()
    for block in _blocks(DOC):
        for line in block.splitlines():
            if line.startswith("hisss serve"):
                named.update(re.findall(r"--[a-z][a-z-]+", line))
    named.update(re.findall(r"^\| `(--[a-z-]+)`", _section("The command"), flags=re.MULTILINE))
    assert named >= {"--database", "--redis", "--reuse-port", "--port", "--away-seconds"}
    for option in named:
        assert option in result.stdout, option


def test_every_loadtest_option_named_exists() -> None:
    result = CliRunner().invoke(app, ["loadtest", "--help"])
    assert result.exit_code == 0
    lines = [
        line
        for block in _blocks(_section("Capacity"))
        for line in block.splitlines()
        if line.startswith("hisss loadtest")
    ]
    assert len(lines) == 3
    named = {option for line in lines for option in re.findall(r"--[a-z][a-z-]+", line)}
    named.update(re.findall(r"`(--[a-z-]+)", _section("Capacity")))
    assert named >= {"--games", "--seconds", "--json", "--url", "--database", "--think"}
    for option in named:
        assert option in result.stdout, option


def test_every_setting_named_exists_with_its_default() -> None:
    fields = {f.name: f for f in dataclasses.fields(Settings)}
    rows = re.findall(r"^\| (`[a-z_]+`.*?) \| (.*?) \|", _section("Limits"), flags=re.MULTILINE)
    named = [name for first, _default in rows for name in re.findall(r"`([a-z_]+)`", first)]
    assert len(named) >= 14
    for name in named:
        assert name in fields, name
    defaults = Settings(database="sqlite:///x.db")
    for first, default in rows:
        names = re.findall(r"`([a-z_]+)`", first)
        numbers = [float(n) for n in re.findall(r"\d+(?:\.\d+)?", default.replace(",", " "))]
        values = [getattr(defaults, n) for n in names]
        if "KiB" in default or "MiB" in default:
            unit = 1024 if "KiB" in default else 1024 * 1024
            numbers = [n * unit for n in numbers]
        if all(isinstance(v, (int, float)) for v in values):
            assert numbers == [float(v) for v in values], (names, default)


async def _fill(url: str) -> tuple[Store, str]:
    """A store holding one game of three steps, left open (in use)."""
    store = await Store.open(url)
    game = await store.create_game(
        NewGame(
            rules={"preset": "classic"},
            deck={"name": "rainbow"},
            seed=7,
            seats=(Seat.person("Ala"), Seat.bot("Bot", "easy")),
            status=GameStatus.RUNNING,
        )
    )
    await store.append(game.id, LogEntry(1, EntryKind.STARTER, card="H:red"))
    await store.append(game.id, LogEntry(2, EntryKind.BOT, seat=1, action="hard"))
    await store.append(game.id, LogEntry(3, EntryKind.PERSON, seat=1))
    return store, game.id


async def _holds(url: str, game_id: str) -> None:
    store = await Store.open(url)
    try:
        assert [e.seq for e in await store.actions(game_id)] == [1, 2, 3]
        game = await store.get_game(game_id)
        assert game is not None and game.version == 3 and game.seats[0].name == "Ala"
    finally:
        await store.close()


def _bash(script: str, env: dict[str, str] | None = None) -> None:
    proc = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, **(env or {})},
    )
    assert proc.returncode == 0, proc.stderr


def test_the_sqlite_backups_copy_a_database_in_use(tmp_path: Path) -> None:
    live = tmp_path / "hisss.db"
    backups = tmp_path / "backups"
    recipes = [
        line
        for block in _blocks(_section("Backups and restore"))
        for line in block.splitlines()
        if line.startswith("sqlite3 ")
    ]
    assert len(recipes) == 2

    async def check() -> None:
        store, game_id = await _fill(f"sqlite+pysqlite:///{live}")
        try:
            for number, recipe in enumerate(recipes):
                backups.mkdir(exist_ok=True)
                script = recipe.replace("~/.local/share/hisss/hisss.db", str(live)).replace(
                    "/backups/", f"{backups}/"
                )
                await asyncio.to_thread(_bash, script)
                (copy,) = backups.glob("hisss-*.db")
                restored = copy.rename(tmp_path / f"restored-{number}.db")
                await _holds(f"sqlite+pysqlite:///{restored}", game_id)
                backups.rmdir()
        finally:
            await store.close()

    asyncio.run(check())


def test_the_postgresql_backup_restores(postgres: pg.PostgresServer, tmp_path: Path) -> None:
    section = _section("Backups and restore")
    commands = [
        line
        for block in _blocks(section)
        for line in block.splitlines()
        if line.startswith(("pg_dump ", "pg_restore "))
    ]
    assert [c.split()[0] for c in commands] == ["pg_dump", "pg_restore"]

    async def check() -> None:
        source = await pg.create_database(postgres)
        target = await pg.create_database(postgres)
        plain = {
            "postgresql://hisss:PASSWORD@db/hisss": source.replace("+asyncpg", ""),
            "postgresql://hisss:PASSWORD@db/hisss_restored": target.replace("+asyncpg", ""),
        }
        store, game_id = await _fill(source)
        try:
            for line in commands:
                command = line
                for doc_url, url in plain.items():
                    command = re.sub(re.escape(doc_url) + r"\b", url, command)
                command = command.replace("/backups/", f"{tmp_path}/").replace(
                    "hisss-2026-11-29.dump", "hisss-$(date +%F).dump"
                )
                path = f"{pg.find_bin()}:{os.environ.get('PATH', '')}"
                await asyncio.to_thread(_bash, command, {"PATH": path})
        finally:
            await store.close()
        await _holds(target, game_id)

    asyncio.run(check())
