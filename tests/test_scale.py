"""More than one server process: two ``hisss serve`` processes on one PostgreSQL database and one
Redis serve the same games consistently to clients connected to either; races between
processes (seats taken, stale copies) are settled by the database; presence crosses processes
and expires with a dead process; nothing in the hubs grows with the games played."""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from hisss.cli import app
from hisss.record import GameRecord, Seat, SeatKind, replay
from hisss.server import GameService, LocalHub, ProtocolError, Settings, create_app
from hisss.server.hub import Step
from hisss.server.redis_hub import RedisHub
from hisss.server.setup import build_spec
from hisss.storage import GameStatus, Store
from support import pg, redis_server
from support.cli import CliRunner
from support.server_process import ServerProcess
from support.waiting import wait_until_async
from support.web import follow_log, settled

#: The presence figures of a state's seats: they may differ between copies of one version.
PRESENCE = ("connected", "away_seconds", "arrived")
#: uvicorn's log line for a websocket connection it accepted; the client's port first.
ACCEPTED = re.compile(r'127\.0\.0\.1:(\d+) - "WebSocket /ws/games/\w+" \[accepted\]')


class Follower(threading.Thread):
    """A websocket client of one game in a thread: a player (with a token) takes its turns with
    the last legal placement; a spectator watches. Keeps every message until the game is over."""

    def __init__(self, url: str, token: str | None = None, seat: int | None = None) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.token = token
        self.seat = seat
        self.states: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.failure: BaseException | None = None
        self.ready = threading.Event()
        #: The client's own port, which the server's log line of the connection names.
        self.port = 0

    def run(self) -> None:
        try:
            with connect(self.url, open_timeout=20) as ws:
                self.port = ws.local_address[1]
                hello: dict[str, Any] = {"type": "hello"}
                hello.update({"token": self.token} if self.token else {"role": "spectator"})
                ws.send(json.dumps(hello))
                acted: set[int] = set()
                while True:
                    message = json.loads(ws.recv(timeout=60))
                    if message["type"] == "welcome":
                        self.ready.set()
                    elif message["type"] == "error":
                        self.errors.append(message)
                    elif message["type"] == "state":
                        if "log" not in message:  # the client keeps the log (docs/protocol.md)
                            before = self.states[-1] if self.states else None
                            message["log"] = follow_log(before, message)
                        self.states.append(message)
                        if message["phase"] == "over":
                            return
                        version = message["version"]
                        if message["to_move"] == self.seat and version not in acted:
                            if message["phase"] == "draw":
                                acted.add(version)
                                ws.send(json.dumps({"type": "draw", "version": version}))
                            elif message["phase"] == "place":
                                acted.add(version)
                                step = {"type": "play", "version": version}
                                ws.send(json.dumps({**step, "action": message["legal"][-1]}))
        except BaseException as exc:  # reported by check()
            self.failure = exc
        finally:
            self.ready.set()

    def versions(self) -> list[int]:
        """The versions of the states received, repeats (presence news) removed."""
        out: list[int] = []
        for state in self.states:
            if not out or state["version"] != out[-1]:
                out.append(state["version"])
        return out

    def check(self, final: int) -> dict[int, dict[str, Any]]:
        """Every state from the first one seen to ``final``, in order, none skipped, none out of
        order, no error, a version sent again different only in presence; returns them by
        version, without presence."""
        assert self.failure is None, repr(self.failure)
        assert self.errors == []
        versions = self.versions()
        assert versions == list(range(versions[0], final + 1)), versions
        out: dict[int, dict[str, Any]] = {}
        for state in self.states:
            content = _without_presence(state)
            assert out.setdefault(state["version"], content) == content, state["version"]
        return out


def _without_presence(state: dict[str, Any]) -> dict[str, Any]:
    """A state message without its seats' presence figures, the part that may change while the
    version stays the same."""
    seats = [{k: v for k, v in seat.items() if k not in PRESENCE} for seat in state["seats"]]
    return {**state, "seats": seats}


def _served_by(servers: list[ServerProcess], clients: list[Follower]) -> list[list[Follower]]:
    """The clients each server accepted, found by the client's port in the server's log lines
    of accepted websocket connections; each client is in exactly one list."""
    ports = [{int(port) for port in ACCEPTED.findall(s.output())} for s in servers]
    served = [[client for client in clients if client.port in accepted] for accepted in ports]
    for client in clients:
        assert sum(client.port in accepted for accepted in ports) == 1, (client.port, ports)
    return served


@pytest.fixture
async def shared(postgres: pg.PostgresServer, redis: redis_server.RedisServer) -> tuple[str, str]:
    """A fresh PostgreSQL database and the Redis URL."""
    return await pg.create_database(postgres), redis.url


def _post_game(server: ServerProcess, seats: list[dict[str, Any]]) -> dict[str, Any]:
    game: dict[str, Any] = server.request("POST", "/api/games", {"seats": seats})
    return game


def _finish(followers: list[Follower], timeout: float = 120) -> None:
    for follower in followers:
        follower.join(timeout)
        assert not follower.is_alive(), "a client never saw the end of the game"


def test_two_processes_serve_one_game_to_clients_on_either(
    shared: tuple[str, str], tmp_path: Path
) -> None:
    database, redis_url = shared
    options = ("--redis", redis_url)
    one = ServerProcess(database, tmp_path, args=options, name="one").start()
    two = ServerProcess(database, tmp_path, args=options, name="two").start()
    try:
        assert one.url != two.url
        game = _post_game(one, [{"kind": "person", "name": "Ala"}, {"kind": "person"}])
        path = game["websocket"]
        watchers = [Follower(one.ws_url + path), Follower(two.ws_url + path)]
        for watcher in watchers:
            watcher.start()
            assert watcher.ready.wait(20)
        ala = Follower(one.ws_url + path, game["seats"][0]["token"], seat=1)
        olek = Follower(two.ws_url + path, game["seats"][1]["token"], seat=2)
        began = time.monotonic()
        for player in (ala, olek):
            player.start()
        everyone = [*watchers, ala, olek]
        _finish(everyone)
        took = time.monotonic() - began
        final = ala.versions()[-1]
        seen = [client.check(final) for client in everyone]
        # The same state for each version, whichever process a client is connected to.
        for version in range(watchers[0].versions()[0], final + 1):
            states = [s[version] for s in seen if version in s]
            assert all(s == states[0] for s in states[1:]), version
        # Both spectators saw every state from the very start of the game.
        assert all(w.versions()[0] <= 1 for w in watchers)
        for server in (one, two):
            summary = server.request("GET", f"/api/games/{game['id']}")
            assert summary["status"] == "finished" and summary["version"] == final
        record = GameRecord.from_json(
            json.dumps(two.request("GET", f"/api/games/{game['id']}/record"))
        )
        assert replay(record).is_terminal()
        assert (
            record.to_json()
            == GameRecord.from_json(
                json.dumps(one.request("GET", f"/api/games/{game['id']}/record"))
            ).to_json()
        )
        print(f"{final} states over two processes in {took:.2f} s")
    finally:
        assert one.stop() == 0
        assert two.stop() == 0
    output = one.output() + two.output()
    for seat in game["seats"]:
        assert seat.get("token") is None or seat["token"] not in output


def test_two_processes_share_one_address(shared: tuple[str, str], tmp_path: Path) -> None:
    database, redis_url = shared
    port = str(pg.free_port())
    options = ("--redis", redis_url, "--reuse-port", "--port", port)
    one = ServerProcess(database, tmp_path, args=options, name="one").start()
    two = ServerProcess(database, tmp_path, args=options, name="two").start()
    servers = [one, two]
    try:
        assert one.url == two.url and one.url.endswith(f":{port}/")
        assert one.request("GET", "/healthz") == {
            "ok": True,
            "database": "postgresql",
            "bots_playing": 0,
        }
        game = _post_game(one, [{"kind": "person", "name": "Ala"}, {"kind": "bot"}])
        url = one.ws_url + game["websocket"]
        watchers: list[Follower] = []
        # The kernel spreads the connections over both processes: 12 spectators, and more in
        # the unlikely case that all of them went to the same one.
        while len(watchers) < 12 or (not all(_served_by(servers, watchers)) and len(watchers) < 40):
            watcher = Follower(url)
            watcher.start()
            assert watcher.ready.wait(20)
            watchers.append(watcher)
        ala = Follower(url, game["seats"][0]["token"], seat=1)
        ala.start()
        everyone = [*watchers, ala]
        _finish(everyone)
        final = ala.versions()[-1]
        seen = {client: client.check(final) for client in everyone}
        assert all(w.versions()[0] <= 1 for w in watchers)
        # Both processes served spectators (so both served every version), and a client of either
        # got the same state for each version, presence aside.
        by_process = _served_by(servers, everyone)
        for clients in by_process:
            assert any(client in watchers for client in clients), [len(c) for c in by_process]
        for version in range(1, final + 1):
            states = [seen[c][version] for c in everyone if version in seen[c]]
            assert all(state == states[0] for state in states[1:]), version
        print(f"{final} states to {[len(c) for c in by_process]} clients of the two processes")
    finally:
        assert one.stop() == 0
        assert two.stop() == 0


# ---------------------------------------------------------------------- two services, one database


@asynccontextmanager
async def two_services(
    database: str, redis_url: str | None = None, **options: Any
) -> AsyncIterator[tuple[GameService, GameService]]:
    """Two game services on one database, as two processes would run them."""
    settings = Settings(database=database, bot_delay=0, **options)
    stores = [await Store.open(database), await Store.open(database)]
    hubs = [RedisHub(redis_url, heartbeat=0.1) if redis_url else LocalHub() for _ in stores]
    services = [GameService(store, hub, settings) for store, hub in zip(stores, hubs, strict=True)]
    try:
        async with asyncio.timeout(60):  # a hang fails the test, with its traceback
            for hub in hubs:
                await hub.start()
            for service in services:
                await service.start()
            yield services[0], services[1]
    finally:
        for service in services:
            await service.stop()
        for hub in hubs:
            await hub.stop()
        for store in stores:
            await store.close()


def _open_game(seats: int) -> Any:
    return build_spec(
        "classic",
        {},
        "rainbow",
        [Seat.person("Ala"), *[Seat.person("", open=True) for _ in range(seats)]],
    )


async def test_seats_taken_at_once_on_two_processes_start_the_game(database: str) -> None:
    async with two_services(database) as (one, two):
        for _round in range(8):
            created = await one.create_game(_open_game(2))
            game_id = created.game.id
            await asyncio.gather(one.find(game_id), two.find(game_id))  # both cache it
            joined = await asyncio.gather(one.join(game_id, "Olek", 1), two.join(game_id, "Ewa", 2))
            assert sorted(seat for _live, seat, _token in joined) == [1, 2]
            stored = await one.store.get_game(game_id)
            assert stored is not None and stored.status is GameStatus.RUNNING
            assert not any(s.open for s in stored.seats)


async def test_a_stale_copy_cannot_hand_a_just_taken_seat_to_a_bot(database: str) -> None:
    async with two_services(database, away_seconds=0, unseen_seconds=0) as (one, two):
        created = await one.create_game(_open_game(2))
        game_id = created.game.id
        stale = await one.find(game_id)
        assert stale.seats[2].open
        _live, seat, token = await two.join(game_id, "Ewa", 2)
        assert seat == 2
        # ``one`` still believes seat 3 open, waiting for nobody: it would give it to a bot.
        with pytest.raises(ProtocolError) as info:
            await one.hand_over(game_id, 0, 2, "easy")
        assert info.value.code == "conflict"
        stored = await one.store.get_game(game_id)
        assert stored is not None
        assert (stored.seats[2].kind, stored.seats[2].name, stored.seats[2].open) == (
            "person",
            "Ewa",
            False,
        )
        assert stored.version == 0 and stored.status is GameStatus.OPEN
        # ... and the refused copy has caught up with the seat taken.
        fresh = await one.find(game_id)
        assert fresh.seats[2].name == "Ewa" and not fresh.seats[2].open
        assert one.authenticate(fresh, token) == (2,)


async def test_steps_on_two_processes_never_fork_a_game(database: str) -> None:
    async with two_services(database) as (one, two):
        spec = build_spec("classic", {}, "rainbow", [Seat.person(""), Seat("", SeatKind.BOT)])
        game_id = (await one.create_game(spec)).game.id
        await settled(one, two)
        conflicts = 0
        for turn in range(1000):
            await settled(one, two)
            stored = await one.store.get_game(game_id)
            assert stored is not None
            if stored.status is GameStatus.FINISHED:
                break
            # Each process acts on its own copy, which may be behind the other's steps.
            service = (one, two)[turn % 2]
            live = await service.find(game_id)
            try:
                if live.to_move == 0 and live.phase == "draw":
                    await service.draw(game_id, 0, live.version)
                elif live.to_move == 0 and live.phase == "place":
                    legal = live.state.legal_actions()
                    await service.play(game_id, 0, live.version, str(legal[-1]))
            except ProtocolError as exc:  # refused, and the copy caught up
                assert exc.code == "conflict"
                conflicts += 1
        else:
            raise AssertionError("the game did not finish")
        for service in (one, two):  # without a shared hub nobody told them: catch up now
            await service.refresh(game_id)
        assert (await one.record(game_id)).to_json() == (await two.record(game_id)).to_json()
        record = await one.record(game_id)
        assert replay(record).is_terminal()
        entries = await one.store.actions(game_id)
        assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
        assert conflicts > 0


# ---------------------------------------------------------------------- presence across processes


class Inbox:
    """A subscriber that keeps what it is sent."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def deliver(self, message: dict[str, Any]) -> None:
        self.messages.append(message)


async def test_a_game_slow_to_catch_up_never_holds_up_news_of_the_others(
    redis: redis_server.RedisServer,
) -> None:
    one, two = RedisHub(redis.url, heartbeat=0.1), RedisHub(redis.url, heartbeat=0.1)
    heard: list[str] = []
    carried: dict[str, list[int]] = {"slow": [], "quick": []}
    slow = asyncio.Event()

    async def listener(game_id: str, what: str, steps: list[dict[str, Any]]) -> None:
        if what != "state":
            return
        heard.append(game_id)
        carried[game_id] += [step["seq"] for step in steps]
        if game_id == "slow":
            await slow.wait()  # a long read of this game's log

    two.attach(listener)
    await one.start()
    await two.start()
    try:
        async with asyncio.timeout(60):
            for game_id in ("slow", "quick"):
                two.subscribe(game_id, Inbox())
                one.subscribe(game_id, Inbox())
            await wait_until_async(  # each game's first catch-up has begun ("slow"'s still runs)
                lambda: heard.count("slow") == 1 and heard.count("quick") == 1,
                what="the other process following both games",
            )
            # While "slow" is still catching up, news of it piles up and "quick" moves on.
            for version in range(1, 6):
                step = {"seq": version, "kind": "starter", "card": "M:red-red"}
                await one.publish("slow", {"version": version}, step)
                await one.publish("quick", {"version": version}, step)
            await wait_until_async(lambda: heard.count("quick") >= 2, what="news of the quick game")
            assert heard.count("slow") == 1 and two.sizes()["catching"] >= 1
            slow.set()
            # The news that came meanwhile is caught up on once more, all together.
            await wait_until_async(
                lambda: two.sizes()["catching"] == 0 and heard.count("slow") == 2,
                what="the slow game catching up",
            )
            await asyncio.sleep(0.3)
            assert heard.count("slow") == 2
            # Every step the news carried reached the listener once, in order.
            assert carried == {"slow": [1, 2, 3, 4, 5], "quick": [1, 2, 3, 4, 5]}
    finally:
        await one.stop()
        await two.stop()


async def test_presence_crosses_processes_and_expires_with_a_dead_one(
    redis: redis_server.RedisServer,
) -> None:
    one, two = RedisHub(redis.url, heartbeat=0.1), RedisHub(redis.url, heartbeat=0.1)
    await one.start()
    await two.start()
    try:
        async with asyncio.timeout(60):
            await _presence_checks(one, two)
    finally:
        await one.stop()
        await two.stop()


async def _presence_checks(one: RedisHub, two: RedisHub) -> None:
    inbox = Inbox()
    two.subscribe("g1", inbox)
    one.subscribe("g1", Inbox())
    one.connected("g1", 0)
    await wait_until_async(
        lambda: two.presence("g1", 2)[0].connected, what="seat 1 connected on the other process"
    )
    assert not two.presence("g1", 2)[1].connected
    one.disconnected("g1", 0)
    await wait_until_async(
        lambda: not two.presence("g1", 2)[0].connected,
        what="seat 1 disconnected on the other process",
    )
    one.connected("g1", 1)
    await wait_until_async(
        lambda: two.presence("g1", 2)[1].connected, what="seat 2 connected on the other process"
    )
    # A process that dies withdraws nothing: its claim expires (within 3 s).
    await one._stop_tasks()
    await wait_until_async(
        lambda: not two.presence("g1", 2)[1].connected,
        what="the dead process's claim on seat 2 to expire",
        timeout=3,
    )
    assert (two.presence("g1", 2)[1].away_seconds or 0) < 1


async def test_news_from_another_process_reaches_local_subscribers(
    shared: tuple[str, str],
) -> None:
    database, redis_url = shared
    async with two_services(database, redis_url) as (one, two):
        spec = build_spec("classic", {}, "rainbow", [Seat.person(""), Seat("", SeatKind.BOT)])
        game_id = (await one.create_game(spec)).game.id
        inbox = Inbox()
        # As a connection does, the other process loads the game before it subscribes: its copy
        # then catches up state by state. (Not loaded, it would load the game as the database
        # has it when the news comes, which may be some steps on.)
        await two.find(game_id)
        two.hub.subscribe(game_id, inbox)
        await settled(one)
        live = await one.find(game_id)
        start = live.version
        await one.draw(game_id, 0, live.version)
        live = await one.find(game_id)
        await one.play(game_id, 0, live.version, str(live.state.legal_actions()[-1]))
        await settled(one, two)
        final = (await one.find(game_id)).version
        await wait_until_async(
            lambda: inbox.messages and inbox.messages[-1]["version"] == final,
            what=f"version {final} to reach the other process's subscriber",
        )
        versions = [m["version"] for m in inbox.messages]
        distinct = [v for i, v in enumerate(versions) if i == 0 or versions[i - 1] != v]
        assert distinct == list(range(distinct[0], final + 1)) and distinct[0] <= start + 1


async def test_news_of_a_change_that_is_no_step_has_the_database_tell_even_among_steps(
    redis: redis_server.RedisServer,
) -> None:
    one, two = RedisHub(redis.url, heartbeat=0.1), RedisHub(redis.url, heartbeat=0.1)
    heard: dict[str, list[list[int]]] = {"g": [], "h": []}

    async def listener(game_id: str, what: str, steps: list[dict[str, Any]]) -> None:
        if what == "state":
            heard[game_id].append([step["seq"] for step in steps])

    two.attach(listener)
    await one.start()
    await two.start()
    try:
        async with asyncio.timeout(60):
            for game_id in heard:
                two.subscribe(game_id, Inbox())
            await wait_until_async(
                lambda: heard == {"g": [[]], "h": [[]]} and two.sizes()["catching"] == 0,
                what="the other process catching up on both games once",
            )
            # A seat taken (no step), then the starter step, back to back: the news usually
            # reaches the other process in one round, which must not be made from the step alone.
            starter = {"seq": 1, "kind": "starter", "card": "M:red-red"}
            await one.publish("g", {"version": 0})
            await one.publish("g", {"version": 1}, starter)
            await one.publish("h", {"version": 1}, starter)  # read after both news of "g"
            await wait_until_async(
                lambda: heard["h"] == [[], [1]] and two.sizes()["catching"] == 0,
                what="the news reaching the other process",
            )
            assert heard["g"] in ([[], []], [[], [], [1]])
    finally:
        await one.stop()
        await two.stop()


async def test_news_carries_the_steps_so_the_other_process_need_not_read_them(
    shared: tuple[str, str],
) -> None:
    database, redis_url = shared
    async with two_services(database, redis_url) as (one, two):
        spec = build_spec("classic", {}, "rainbow", [Seat.person("Ala"), Seat.person("Ola")])
        game_id = (await one.create_game(spec)).game.id
        inbox = Inbox()
        await two.find(game_id)
        # Right after subscribing to the game's channel the other process catches up once,
        # reading the database; it does so a few Redis calls after the channel counts, so
        # wait for that catch-up itself to be over before counting reads.
        refreshed: list[str] = []
        refresh = two.refresh

        async def noted(game: str, steps: Sequence[Step] = ()) -> None:
            await refresh(game, steps)
            refreshed.append(game)

        two.refresh = noted  # type: ignore[method-assign,assignment]
        two.hub.subscribe(game_id, inbox)
        await settled(one)
        hub = two.hub
        assert isinstance(hub, RedisHub)
        await wait_until_async(
            lambda: refreshed == [game_id] and hub.sizes()["catching"] == 0,
            what="the other process following the game and catching up on it once",
        )
        reads: list[int] = []
        actions = two.store.actions

        async def counted(game: str, after: int = 0) -> Any:
            reads.append(after)
            return await actions(game, after=after)

        two.store.actions = counted  # type: ignore[method-assign,assignment]
        for _ in range(6):  # three turns: each seat draws and places, nobody else moves
            live = await one.find(game_id)
            seat = live.to_move
            assert seat is not None
            if live.state.drawn is None:
                await one.draw(game_id, seat, live.version)
            else:
                await one.play(game_id, seat, live.version, str(live.state.legal_actions()[0]))
        final = (await one.find(game_id)).version
        await wait_until_async(
            lambda: bool(inbox.messages) and inbox.messages[-1]["version"] == final,
            what=f"version {final} to reach the other process's subscriber",
        )
        assert [m["version"] for m in inbox.messages[-6:]] == list(range(final - 5, final + 1))
        assert reads == []  # each state was made from the step the news carried
        assert (await two.find(game_id)).state.table == (await one.find(game_id)).state.table


async def test_the_local_hub_forgets_games_nobody_follows() -> None:
    hub = LocalHub()
    for number in range(50):
        game_id = f"g{number}"
        inbox = Inbox()
        hub.subscribe(game_id, inbox)
        hub.connected(game_id, 0)
        hub.presence(game_id, 2)
        hub.disconnected(game_id, 0)
        assert not hub.presence(game_id, 2)[0].connected
        hub.unsubscribe(game_id, inbox)
        hub.presence(game_id, 2)  # a lobby listing looks, and leaves nothing behind
    assert hub.sizes() == {"subscribers": 0, "connections": 0, "away_since": 0, "first_seen": 0}


# ---------------------------------------------------------------------- hisss serve --redis


@pytest.mark.parametrize(
    ("redis_url", "kind", "message"),
    [
        ("http://127.0.0.1:6379", "postgresql", "must start with redis://, rediss://, unix://"),
        ("redis://127.0.0.1:6379", "sqlite", "need one PostgreSQL database"),
        (
            "redis://ala:secret@127.0.0.1:{port}/0",
            "postgresql",
            "cannot use Redis at redis://ala:***@",
        ),
    ],
)
def test_serve_refuses_redis_it_cannot_use(
    redis_url: str, kind: str, message: str, postgres: pg.PostgresServer, tmp_path: Path
) -> None:
    if kind == "sqlite":
        database = f"sqlite:///{tmp_path / 'x.db'}"
    else:
        database = asyncio.run(pg.create_database(postgres))
    url = redis_url.format(port=pg.free_port())
    result = CliRunner().invoke(
        app, ["serve", "--port", "0", "--database", database, "--redis", url]
    )
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], lines
    assert "secret" not in result.stderr and "Traceback" not in result.stderr


def test_serve_help_names_the_several_process_options() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    assert "--redis" in result.stdout and "--reuse-port" in result.stdout


def test_the_health_check_asks_the_database(postgres: pg.PostgresServer) -> None:
    database = asyncio.run(pg.create_database(postgres))
    name = database.rsplit("/", 1)[1]

    async def admin(*statements: str) -> None:
        import asyncpg  # type: ignore[import-untyped]  # noqa: PLC0415

        conn = await asyncpg.connect(f"{postgres.url}/postgres")
        try:
            for statement in statements:
                await conn.execute(statement)
        finally:
            await conn.close()

    with TestClient(create_app(Settings(database=database, bot_delay=0))) as client:
        assert client.get("/healthz").json() == {
            "ok": True,
            "database": "postgresql",
            "bots_playing": 0,
        }
        # The database goes away: no new connections, the open ones cut.
        asyncio.run(
            admin(
                f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false',
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                f"WHERE datname = '{name}' AND pid <> pg_backend_pid()",
            )
        )
        answer = client.get("/healthz")
        assert answer.status_code == 503
        assert answer.json() == {"ok": False, "database": "postgresql", "bots_playing": 0}
        asyncio.run(admin(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true'))
        answer = client.get("/healthz")
        assert answer.status_code == 200 and answer.json()["ok"] is True


# ---------------------------------------------------------------------- hisss loadtest --redis


@pytest.mark.system
def test_the_load_test_spreads_each_games_players_over_two_servers(
    shared: tuple[str, str],
) -> None:
    database, redis_url = shared
    result = CliRunner().invoke(
        app,
        [
            "loadtest", "--database", database, "--redis", redis_url, "--games", "3",
            "--seconds", "3", "--ramp", "0.5", "--think", "0.05", "--shared-cpus", "--json",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["servers"] == 2 and figures["actions"] > 10, figures
    assert figures["errors"] == 0 and figures["lost_actions"] == 0, figures
    # Every step reached the other player, on the other server, through the shared news.
    assert 0 < figures["peer_p50_ms"] <= figures["peer_p99_ms"], figures


def test_the_load_test_needs_postgresql_for_two_servers() -> None:
    result = CliRunner().invoke(
        app, ["loadtest", "--redis", "redis://127.0.0.1:6379", "--games", "1", "--seconds", "1"]
    )
    assert result.exit_code == 2 and "needs --database postgresql" in result.output, result.output
