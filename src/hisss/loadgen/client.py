"""One seat of the load test (:mod:`hisss.loadgen.loadtest`): a lean websocket client, and the
load test's side of one game (:class:`Table`). The client knows the load test only through
:class:`Driver`, what it asks of it. Each client drives the bots' turn loop
(:class:`hisss.bots.turns.BotTurns`) for its own seat on the game's mirror: the loop says whether
the seat draws or places now, and its placement is the loop's decision for the table's seed and
the turn; the seat's generator ``rng`` only spreads its pauses."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any, Protocol, cast

import orjson

from hisss.bots import make_bot
from hisss.bots.turns import BotTurns, Draw, Turn
from hisss.core import HisssError
from hisss.record import Game


class Figures(Protocol):
    """Where a client counts what it measured."""

    latencies: list[float]
    peer_latencies: list[float]

    def error(self, kind: str) -> None: ...


class Driver(Protocol):
    """What a client asks of the load test (:class:`hisss.loadgen.loadtest.LoadTest`)."""

    level: str
    #: The websocket base of each server (``ws://host:port``); the seats are spread over them.
    ws_bases: tuple[str, ...]
    think: float
    measure_from: float
    deadline: float

    @property
    def figures(self) -> Figures: ...

    def follow(self, table: Table, message: dict[str, Any]) -> Game | None: ...

    async def rebuild(self, table: Table, version: int) -> Game: ...


class Table:
    """The load test's side of one game: its seats' tokens and the acknowledged versions."""

    def __init__(self, created: dict[str, Any], seed: int = 0) -> None:
        self.id: str = created["id"]
        #: The seed of the clients' bot decisions in this game (the load test's own: the server
        #: keeps the game's seed to itself).
        self.seed = seed
        self.websocket: str = created["websocket"]
        self.tokens = [seat["token"] for seat in created["seats"]]
        self.acked: list[int] = []
        #: The steps sent and not yet seen by the other seat: version to (seat, time sent).
        self.unseen: dict[int, tuple[int, float]] = {}
        self.over = asyncio.Event()
        #: The position both seats' clients play from, and the version it is at.
        self.mirror: Game | None = None
        self.mirror_version = 0


#: The first pause before a lost seat connects again, the longest, and how long past the test's
#: end a seat keeps trying.
RECONNECT_PAUSE = 0.25
MAX_RECONNECT_PAUSE = 4.0
RECONNECT_GRACE = 30.0


def same(player: Player) -> Player:
    """``player`` (a protocol factory for the event loop)."""
    return player


def refused(exc: BaseException) -> bool:
    """True for a connection that found no server listening (it restarts)."""
    reason = getattr(exc, "reason", None)
    return isinstance(exc, (ConnectionRefusedError, ConnectionResetError)) or isinstance(
        reason, (ConnectionRefusedError, ConnectionResetError)
    )


class Player(asyncio.Protocol):
    """One seat's websocket client: the sans-I/O protocol of the ``websockets`` library driven
    by the event loop's callbacks. Each message is handled as its bytes arrive, with no task
    woken per message: the load test's own CPU time per step was more than the server's with
    the library's asyncio client, and on a small machine the load test then measured itself.
    Without per-message compression (the server is not asked for it)."""

    def __init__(self, test: Driver, table: Table, seat: int, rng: random.Random) -> None:
        from websockets.client import ClientProtocol  # noqa: PLC0415
        from websockets.uri import parse_uri  # noqa: PLC0415

        self.test = test
        self.table = table
        self.seat = seat
        self.rng = rng
        self.bot = make_bot(test.level)
        #: The bots' turn loop of this seat alone (the other seat is another client's): the
        #: server draws the game's own cards.
        self.turns = BotTurns({seat - 1: self.bot}, table.seed, people_draw=True)
        # With several servers, the seats of a game are spread over them.
        bases = test.ws_bases
        self.uri = parse_uri(bases[(seat - 1) % len(bases)] + table.websocket)
        self.ws = ClientProtocol(self.uri, max_size=None)
        self.loop = asyncio.get_running_loop()
        self.done: asyncio.Future[None] = self.loop.create_future()
        self.transport: asyncio.Transport | None = None
        self.seen = 0
        #: The version a step was sent on and when, until the state that holds it arrives.
        self.sent: tuple[int, float] | None = None
        self.quiet: asyncio.TimerHandle | None = None
        self.closing = False
        #: The connection ended before the game or the test did (the server restarted, the
        #: network failed): the load test connects the seat again.
        self.lost = False

    def address(self) -> tuple[str, int]:
        """The server's host and port."""
        return self.uri.host, self.uri.port

    # ------------------------------------------------------------------ the loop's callbacks

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass
        self.ws.send_request(self.ws.connect())
        self._flush()
        self._watch()

    def data_received(self, data: bytes) -> None:
        from websockets.frames import Frame, Opcode  # noqa: PLC0415

        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if not isinstance(event, Frame):  # the answer to the handshake
                if self.ws.handshake_exc is not None:
                    self._fail(f"connection: {type(self.ws.handshake_exc).__name__}")
                    return
                self._send({"type": "hello", "token": self.table.tokens[self.seat - 1]})
            elif event.opcode is Opcode.TEXT and not self.closing:
                self._watch()
                try:
                    self._message(orjson.loads(event.data))
                except HisssError as exc:  # a state the mirror cannot follow
                    self._fail(f"connection: {type(exc).__name__}")
        self._flush()
        if self.ws.close_expected() and self.transport is not None:
            self.transport.close()

    def eof_received(self) -> bool | None:
        self.ws.receive_eof()
        self._flush()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        if self.quiet is not None:
            self.quiet.cancel()
        if not self.closing and not self.table.over.is_set():
            self.lost = True  # connected again by the load test, or counted as an error
        self.closing = True
        if not self.done.done():
            self.done.set_result(None)

    # ------------------------------------------------------------------ playing

    def _message(self, message: dict[str, Any]) -> None:
        figures, table = self.test.figures, self.table
        kind = message["type"]
        if kind == "error":
            figures.error(message["code"])
            self.sent = None
            return
        if kind != "state" or message["version"] < self.seen:
            return
        version = message["version"]
        sent = self.sent
        now = time.monotonic()
        if sent is not None and version >= sent[0]:
            if sent[1] >= self.test.measure_from:
                figures.latencies.append(now - sent[1])
            table.acked.append(sent[0])
            self.sent = None
        for step in [
            v for v, (seat, _) in table.unseen.items() if v <= version and seat != self.seat
        ]:
            at = table.unseen.pop(step)[1]
            if at >= self.test.measure_from:
                figures.peer_latencies.append(now - at)
        mirror = self.test.follow(table, message)
        self.seen = version
        if message["phase"] == "over":
            table.over.set()
            self._close()
            return
        if mirror is None:  # a gap: the record so far, then the same message again
            task = self.loop.create_task(self.test.rebuild(table, version))
            task.add_done_callback(lambda done: self._rebuilt(done, message))
            return
        if time.monotonic() >= self.test.deadline and self.sent is None:
            self._close()
            return
        if message["to_move"] != self.seat or self.sent is not None:
            return
        planned = self.turns.step(mirror.state)
        if not isinstance(planned, (Draw, Turn)) or planned.seat != self.seat - 1:
            return
        think = self.test.think
        pause = self.rng.uniform(0, 2 * think) if think else 0.0
        self.loop.call_later(pause, self._step, version, planned, mirror)

    def _rebuilt(self, done: asyncio.Task[Game], message: dict[str, Any]) -> None:
        error = done.exception()
        if isinstance(error, OSError) and not self.closing:
            self._drop()  # the server went away meanwhile: connect again
        elif error is not None:
            self._fail(f"record: {type(error).__name__}")
        elif not self.closing:
            self._message(message)
            self._flush()

    def _step(self, version: int, planned: Draw | Turn, mirror: Game) -> None:
        if self.closing or self.seen != version or self.sent is not None:
            return
        if time.monotonic() >= self.test.deadline:
            self._close()
            return
        if isinstance(planned, Draw):
            step: dict[str, Any] = {"type": "draw", "version": version}
        else:
            action, _ = planned.decide(mirror.state)
            step = {"type": "play", "version": version, "action": str(action)}
        self.sent = (version + 1, time.monotonic())
        self.table.unseen[version + 1] = (self.seat, self.sent[1])
        self._send(step)
        self._flush()

    # ------------------------------------------------------------------ the connection

    def _send(self, message: dict[str, Any]) -> None:
        from websockets.exceptions import InvalidState  # noqa: PLC0415

        try:
            self.ws.send_text(orjson.dumps(message))
        except InvalidState:  # the server is closing the connection (a restart)
            self._drop()

    def _drop(self) -> None:
        """The connection is going: drop it; the load test connects the seat again."""
        if not self.closing and not self.table.over.is_set():
            self.lost = True
        self.closing = True
        if self.transport is not None:
            self.transport.close()
        elif not self.done.done():
            self.done.set_result(None)

    def _flush(self) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        data = self.ws.data_to_send()
        if data:
            self.transport.write(b"".join(data))

    def _watch(self) -> None:
        """Count a timeout when the server says nothing for ten seconds past the deadline."""
        if self.quiet is not None:
            self.quiet.cancel()
        wait = max(self.test.deadline - time.monotonic(), 0.0) + 10
        self.quiet = self.loop.call_later(wait, self._fail, "timeout")

    def _fail(self, kind: str) -> None:
        if not self.closing:
            self.test.figures.error(kind)
        self._close()

    def _close(self) -> None:
        if self.closing:
            return
        self.closing = True
        if self.transport is None:
            return
        if self.quiet is not None:
            self.quiet.cancel()
        from websockets.exceptions import InvalidState  # noqa: PLC0415

        try:
            self.ws.send_close(1000)
        except InvalidState:  # not open (yet, or any more): just drop the connection
            self.transport.close()
            return
        self._flush()
        # The server answers the close and ends the connection; a server that does not is
        # left after a second.
        self.loop.call_later(1.0, self.transport.close)
