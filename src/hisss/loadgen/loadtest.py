"""A load test for the web game: many concurrent online games played by websocket clients.

:func:`run_loadtest` starts ``hisss serve`` machinery in a subprocess on 127.0.0.1 (or uses a
server that already runs), creates games whose two person seats are played by websocket clients,
and drives them for a number of seconds, starting a new game whenever one ends. A client picks its
actions with one of the project's bots, from a copy of the position it keeps by applying each
state's ``last_event`` (or, after a gap, by replaying the record so far). It waits a random
"thinking" time before each step, as a person would (uniform from 0 to twice ``think``, one
second on average by default). The games start over a ``ramp`` of a few seconds; the figures
are measured over the ``seconds`` that follow, with every game going (errors count from the
start).

Per step it measures the time from sending the message to receiving the state that holds the step
(the server's acknowledgement). At the end a step that was acknowledged but is not stored counts
as lost: the load test stops a server of its own and reads every game's log from the database;
a server given by ``--url`` is asked for every game's stored state.

The server subprocess is this module run as a script (``python -m hisss.loadgen.loadtest``): the
same :func:`hisss.server.run.serve` as ``hisss serve``, with no bot pause, no HTTP rate limit
and no limit of connections per address, so that creating hundreds of games at once from one
address is not refused. A server given by ``--url`` must allow as many connections from the load
test's address (``hisss serve --max-connections-per-address``): two a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import random
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from hisss.bots import make_bot
from hisss.core import RAINBOW, Rules, parse_action, parse_card
from hisss.loadgen.client import (
    MAX_RECONNECT_PAUSE,
    RECONNECT_GRACE,
    RECONNECT_PAUSE,
    Player,
    Table,
    refused,
    same,
)
from hisss.loadgen.servers import LoadTestError, LocalServer, running_on, split_cpus
from hisss.record import Game, GameRecord, Seat, replay_game
from hisss.server.run import loop_factory
from hisss.storage import EntryKind

KEYS = (
    "games",
    "actions",
    "actions_per_second",
    "p50_ms",
    "p99_ms",
    "peer_p50_ms",
    "peer_p99_ms",
    "servers",
    "errors",
    "lost_actions",
    "server_cpu_ms_per_step",
    "server_cpus",
)


#: Every HTTP request of the load test goes straight to the server (no proxy); building the
#: opener once spares a tenth of the load test's own CPU time when it creates many games.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


@dataclass
class Figures:
    """What a load test measured."""

    games: int = 0
    finished: int = 0
    latencies: list[float] = field(default_factory=list)
    #: From sending a step to the other seat receiving the state that holds it (on the other
    #: server when there are two).
    peer_latencies: list[float] = field(default_factory=list)
    #: The servers the seats were spread over.
    servers: int = 1
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=dict)
    lost_actions: int = 0
    seconds: float = 0.0
    #: Game creations the server's rate limit refused (waited for and tried again).
    throttled: int = 0
    #: Seats connected again after their connection was lost (a server restart).
    reconnects: int = 0
    #: Game creations that found no server listening (waited for and tried again).
    unreachable: int = 0
    #: CPU seconds the server process spent over the measured seconds (``None``: a server the
    #: load test did not start, whose process it cannot see).
    server_cpu: float | None = None
    #: The CPUs the started server ran on, apart from the load generator's (``None``: shared).
    server_cpus: tuple[int, ...] | None = None

    def error(self, kind: str) -> None:
        """Count one error of ``kind``."""
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1

    def summary(self) -> dict[str, Any]:
        """The JSON summary: exactly the keys of :data:`KEYS`.

        ``server_cpu_ms_per_step`` is the server's CPU time over the measured seconds divided by
        the steps measured: everything the server did meanwhile (new games, connections) counts.

        >>> figures = Figures(games=1, latencies=[0.001, 0.003], seconds=2.0, server_cpu=0.004)
        >>> figures.summary()["p50_ms"], figures.summary()["server_cpu_ms_per_step"]
        (1.0, 2.0)
        """
        ordered = sorted(self.latencies)
        peers = sorted(self.peer_latencies)
        per_step = None
        if self.server_cpu is not None and ordered:
            per_step = round(self.server_cpu / len(ordered) * 1000, 3)
        return {
            "games": self.games,
            "actions": len(ordered),
            "actions_per_second": round(len(ordered) / self.seconds, 1) if self.seconds else 0.0,
            "p50_ms": round(_quantile(ordered, 0.50) * 1000, 1),
            "p99_ms": round(_quantile(ordered, 0.99) * 1000, 1),
            "peer_p50_ms": round(_quantile(peers, 0.50) * 1000, 1),
            "peer_p99_ms": round(_quantile(peers, 0.99) * 1000, 1),
            "servers": self.servers,
            "errors": self.errors,
            "lost_actions": self.lost_actions,
            "server_cpu_ms_per_step": per_step,
            "server_cpus": ",".join(map(str, self.server_cpus)) if self.server_cpus else None,
        }


def _quantile(ordered: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of sorted values; 0 for none.

    >>> _quantile([1.0, 2.0, 3.0, 4.0], 0.5), _quantile([], 0.99)
    (2.0, 0.0)
    """
    if not ordered:
        return 0.0
    rank = max(1, round(q * len(ordered) + 0.5 - 1e-9))
    return ordered[min(rank, len(ordered)) - 1]


def _retry_after(exc: urllib.error.HTTPError) -> float:
    """Seconds to wait before trying again: the answer's ``Retry-After``, else one.

    >>> _retry_after(urllib.error.HTTPError("u", 429, "slow", {"Retry-After": "3"}, None))
    3.0
    >>> _retry_after(urllib.error.HTTPError("u", 500, "failed", {}, None))
    1.0
    """
    try:
        return min(max(float(exc.headers.get("Retry-After", 1)), 0.1), 30.0)
    except (TypeError, ValueError):
        return 1.0


def _http(url: str, method: str = "GET", body: object = None, timeout: float = 30) -> Any:
    """One HTTP request (no proxy); the decoded JSON answer. HTTP errors raise."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    with _OPENER.open(request, timeout=timeout) as answer:
        return json.loads(answer.read().decode())


class LoadTest:
    """Drives games against a server at ``base`` (``http://host:port``) until ``deadline``;
    with ``peers`` (more servers of the same games) each game's seats are spread over ``base``
    and them."""

    def __init__(
        self,
        base: str,
        *,
        peers: tuple[str, ...] = (),
        level: str = "easy",
        think: float = 1.0,
        seed: int = 1,
        progress: Callable[[Figures], None] | None = None,
        server_cpu: Callable[[], float | None] | None = None,
    ) -> None:
        self.base = base.rstrip("/")
        self.ws_bases = tuple(
            "ws" + server.rstrip("/").removeprefix("http") for server in (base, *peers)
        )
        self.level = level
        self.think = think
        self.rng = random.Random(seed)
        self.figures = Figures(servers=len(self.ws_bases))
        self.tables: list[Table] = []
        self.progress = progress
        self.deadline = 0.0
        self.measure_from = 0.0
        #: The server process's CPU seconds so far, when the load test can see that process.
        self.server_cpu = server_cpu

    async def run(
        self, games: int, seconds: float, ramp: float = 0.0, check: bool = True
    ) -> Figures:
        """Start ``games`` games over ``ramp`` seconds (people do not all sit down at the same
        instant), then measure ``seconds`` with all of them going (a game that ends is replaced
        at once); then, with ``check``, ask the server for the stored games. Errors count from
        the start."""
        began = time.monotonic()
        self.measure_from = began + ramp
        self.deadline = self.measure_from + seconds
        lanes = [asyncio.create_task(self._lane(ramp)) for _ in range(games)]
        ticker = asyncio.create_task(self._tick())
        cpu_from = asyncio.create_task(self._cpu_at(self.measure_from))
        await asyncio.gather(*lanes)
        ticker.cancel()
        first = await cpu_from
        last = await self._cpu_at(0.0)
        if first is not None and last is not None:
            self.figures.server_cpu = last - first
        self.figures.seconds = seconds
        if check:
            await self._check_stored()
        return self.figures

    async def _cpu_at(self, moment: float) -> float | None:
        """The server's CPU seconds at ``moment`` (monotonic), if the load test can see them."""
        await asyncio.sleep(max(moment - time.monotonic(), 0.0))
        return None if self.server_cpu is None else self.server_cpu()

    async def _tick(self) -> None:
        while self.progress is not None:
            self.progress(self.figures)
            await asyncio.sleep(0.25)

    async def _lane(self, ramp: float) -> None:
        """One game after another until the deadline, the first after up to ``ramp`` seconds."""
        await asyncio.sleep(self.rng.uniform(0, ramp))
        while time.monotonic() < self.deadline:
            try:
                created = await asyncio.to_thread(
                    _http,
                    f"{self.base}/api/games",
                    "POST",
                    {"seats": [{"kind": "person"}, {"kind": "person"}]},
                )
            except urllib.error.HTTPError as exc:
                if exc.code != 429:
                    self.figures.error(f"create: HTTP {exc.code}")
                else:
                    # The server's limit of new games per address: wait as told, as a client
                    # should; not an error of the server.
                    self.figures.throttled += 1
                await asyncio.sleep(_retry_after(exc))
                continue
            except (OSError, ValueError) as exc:
                if refused(exc):
                    self.figures.unreachable += 1  # the server restarts: wait for it
                else:
                    self.figures.error(f"create: {type(exc).__name__}")
                await asyncio.sleep(1)
                continue
            table = Table(created, self.rng.getrandbits(63))
            self.tables.append(table)
            self.figures.games += 1
            rng = random.Random(self.rng.random())
            await asyncio.gather(*(self._seat(table, n, rng) for n in (1, 2)))
            if table.over.is_set():
                self.figures.finished += 1

    async def _seat(self, table: Table, seat: int, rng: random.Random) -> None:
        """Play one seat of ``table`` until the game is over or the time is up. A connection
        lost on the way (the server restarts) is made again, after a pause that doubles from a
        quarter of a second to 4 s, for as long as the test runs (and 30 s past its end); the
        game goes on from its stored state."""
        loop = asyncio.get_running_loop()
        pause = RECONNECT_PAUSE
        failure = ""
        while True:
            player = Player(self, table, seat, rng)
            try:
                host, port = player.address()
                await loop.create_connection(functools.partial(same, player), host, port)
            except (OSError, ValueError) as exc:
                failure = f"connection: {type(exc).__name__}"
                if not refused(exc):
                    self.figures.error(failure)
                    return
            else:
                await player.done
                if not player.lost:
                    return
                self.figures.reconnects += 1
                failure = "connection: lost"
                pause = RECONNECT_PAUSE
            if table.over.is_set() or time.monotonic() > self.deadline + RECONNECT_GRACE:
                self.figures.error(failure)
                return
            await asyncio.sleep(pause)
            pause = min(pause * 2, MAX_RECONNECT_PAUSE)

    def follow(self, table: Table, message: dict[str, Any]) -> Game | None:
        """The game after ``message``: the table's mirror moved on by one step, or a new game;
        ``None`` when it must be rebuilt from the record (:meth:`rebuild`). The mirror takes
        the cards as they come, from the events; the two seats share it (only the seat to move
        changes the game, so neither finds it ahead of the state it acts on)."""
        event = message["last_event"]
        version = message["version"]
        mirror = table.mirror
        if mirror is not None and version <= table.mirror_version:
            return mirror
        if mirror is not None and version == table.mirror_version + 1 and event is not None:
            if event["kind"] == EntryKind.DRAW:
                mirror.draw(parse_card(event["card"]))
                table.mirror_version = version
                return mirror
            if event["kind"] == EntryKind.PLAY:
                # Checked by the server already: placed without checking it again.
                mirror.push(parse_action(event["action"]))
                table.mirror_version = version
                return mirror
        if version <= 1 and (event is None or event["kind"] == EntryKind.STARTER):
            # A new game: no step yet (its starter is being stored), or its starter alone.
            game = Game(Rules(), RAINBOW, [Seat.person(seat["name"]) for seat in message["seats"]])
            if event is not None:
                game.draw(parse_card(event["card"]))
            table.mirror, table.mirror_version = game, version
            return game
        return None

    async def rebuild(self, table: Table, version: int) -> Game:
        """The game so far from its record (after a gap), as the table's mirror."""
        text = await asyncio.to_thread(
            _raw, f"{self.base}/api/games/{table.id}/record?partial=true"
        )
        game = replay_game(GameRecord.from_json(text))
        if version <= table.mirror_version and table.mirror is not None:
            return table.mirror  # the other seat moved it on meanwhile
        table.mirror, table.mirror_version = game, version
        return game

    def count_lost(self, stored: dict[str, int]) -> None:
        """Count the acknowledged steps past each game's stored version (``stored`` maps game
        ids to versions; a game missing from it lost every step).

        >>> test = LoadTest("http://127.0.0.1:1")
        >>> table = Table({"id": "g", "websocket": "/ws/g", "seats": []})
        >>> table.acked.extend([1, 2, 3])
        >>> test.tables.append(table)
        >>> test.count_lost({"g": 2}); test.figures.lost_actions
        1
        >>> test.count_lost({}); test.figures.lost_actions
        4
        """
        for table in self.tables:
            version = stored.get(table.id, 0)
            self.figures.lost_actions += sum(1 for acked in table.acked if acked > version)

    async def check_database(self, database: str) -> None:
        """Count lost steps from the database itself (the server stopped): the truth, not the
        server's word."""
        from hisss.storage import Store  # noqa: PLC0415

        store = await Store.open(database)
        try:
            stored: dict[str, int] = {}
            for table in self.tables:
                game = await store.get_game(table.id)
                if game is not None:
                    # The log itself, not only the game row's version.
                    stored[table.id] = len(await store.actions(table.id))
            self.count_lost(stored)
        finally:
            await store.close()

    async def _check_stored(self) -> None:
        """Count acknowledged steps that the server's stored games do not hold, as the server
        reports them (a server of its own is checked in its database instead)."""
        stored: dict[str, int] = {}
        for table in self.tables:
            if not table.acked:
                continue
            try:
                state = await asyncio.to_thread(_http, f"{self.base}/api/games/{table.id}/state")
            except (OSError, ValueError):
                self.figures.error("check")  # unknown: every acknowledged step counts as lost
                continue
            stored[table.id] = int(state["version"])
        self.count_lost(stored)


def _text(message: dict[str, Any]) -> str:
    return orjson.dumps(message).decode()


def _raw(url: str) -> str:
    with _OPENER.open(url, timeout=30) as answer:
        text: str = answer.read().decode()
        return text


@dataclass(frozen=True, slots=True)
class Crowd:
    """How a load test's players play: the bots' ``level``, the pause before each move
    (``think``, seconds), the seconds over which the games start (``ramp``: people do not all sit
    down at the same instant) and the ``seed`` of their choices."""

    level: str = "easy"
    think: float = 1.0
    ramp: float = 5.0
    seed: int = 1


def run_loadtest(
    games: int,
    seconds: float,
    *,
    url: str | None = None,
    database: str | None = None,
    crowd: Crowd = Crowd(),
    progress: Callable[[Figures], None] | None = None,
    separate_cpus: bool = True,
    redis: str | None = None,
) -> Figures:
    """Run a load test of ``games`` games played by ``crowd`` for ``seconds``: against ``url``,
    or a new local server on ``database`` (an async SQLAlchemy URL; default a temporary SQLite
    file). Raises :class:`LoadTestError`.

    With ``separate_cpus``, the servers the load test starts run on half of the CPUs and the
    load generator on the others (see :func:`split_cpus`). With ``redis`` it starts two servers
    sharing the database (which must be PostgreSQL) and their news through that Redis, and
    seats each game's players one on each: ``peer_p99_ms`` is then the time a step takes to
    reach the other process's player."""
    if games < 1 or seconds <= 0:
        raise LoadTestError("a load test needs at least one game and some seconds")
    if redis is not None and (url is not None or not (database or "").startswith("postgresql")):
        raise LoadTestError(
            "--redis starts two servers: it needs --database postgresql+asyncpg://..."
        )
    make_bot(crowd.level)  # an unknown level fails here, before anything starts
    with tempfile.TemporaryDirectory(prefix="hisss-load-") as temp, contextlib.ExitStack() as stack:
        servers: list[LocalServer] = []
        if url is None:
            from hisss.storage import database_url  # noqa: PLC0415

            db = database or database_url(f"sqlite:///{Path(temp) / 'load.db'}")
            split = split_cpus() if separate_cpus else None
            if split is not None:
                stack.enter_context(running_on(split[1]))
            cpus = split[0] if split is not None else None
            names = ("server", "peer") if redis is not None else ("server",)
            servers = [LocalServer(db, Path(temp), cpus, redis=redis, name=n) for n in names]
        elif not url.startswith(("http://", "https://")):
            raise LoadTestError(f"--url {url!r}: expected http://HOST:PORT or https://HOST:PORT")
        try:
            urls = [server.start() for server in servers] or [url or ""]
            test = LoadTest(
                urls[0],
                peers=tuple(urls[1:]),
                level=crowd.level,
                think=crowd.think,
                seed=crowd.seed,
                progress=progress,
                server_cpu=_cpu_of(servers) if servers else None,
            )
            with asyncio.Runner(loop_factory=loop_factory()) as runner:
                figures = runner.run(test.run(games, seconds, crowd.ramp, check=not servers))
        finally:
            for server in servers:
                server.stop()
        if servers:
            # The servers have stopped: read what their database holds.
            asyncio.run(test.check_database(servers[0].database))
        figures.server_cpus = servers[0].cpus if servers else None
        return figures


def _cpu_of(servers: list[LocalServer]) -> Callable[[], float | None]:
    """The CPU seconds the ``servers`` have used so far, together."""

    def used() -> float | None:
        seconds = [server.cpu_seconds() for server in servers]
        return None if None in seconds else sum(s for s in seconds if s is not None)

    return used
