"""A websocket session: one client following one game, as an explicit state machine.

States (:class:`ConnectionState`): ``HELLO`` (the connection is open and must say who it is),
``SEAT`` (it acts for the seat, or on one device the seats, whose token it showed) or ``SPECTATOR``
(it watches), then ``CLOSED``. Every message read is checked in this order: text frame, size, rate,
JSON, shape, type, state; a message that fails gets an ``error`` message with a stable code and
changes nothing, and the connection stays open. A connection is closed only for abuse (too many
oversized, rate-limited or failed hello messages, or no hello in time), with a named close code.

Outgoing messages go through one queue, written by one task, so that an ``error`` and the fresh
``state`` that follows it arrive in that order. Published states of the game are queued the same
way by the hub. A state carries the game's whole log only when it does not follow the last state
queued for the connection (the first one, after a gap); otherwise the client adds its step.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from enum import Enum
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from hisss.bots import levels_for
from hisss.server.errors import ErrorCode, ProtocolError
from hisss.server.game import PROTOCOL_VERSION, LiveGame
from hisss.server.hands import for_seats
from hisss.server.hub import encode, without_log
from hisss.server.limits import Bucket
from hisss.server.logs import game_id
from hisss.server.protocol import (
    CLIENT_TYPES,
    ClientMessageBase,
    Draw,
    Hello,
    Hint,
    Message,
    Ping,
    Play,
    Rematch,
    ReplaceWithBot,
    TakeSeat,
    decode,
    ping_payload,
    read_client_message,
)
from hisss.server.service import GameService
from hisss.server.settings import Settings
from hisss.storage import StorageError

log = logging.getLogger("hisss.server.session")

#: Close codes (1000-1015 are the protocol's own; 4000-4999 are the application's).
CLOSE_TOO_LARGE = 1009
CLOSE_SERVER_ERROR = 1011
CLOSE_RESTART = 1012
CLOSE_BUSY = 1013
CLOSE_FORBIDDEN_ORIGIN = 4403
CLOSE_UNKNOWN_GAME = 4404
CLOSE_HELLO_TIMEOUT = 4408
CLOSE_AUTH_FAILED = 4401
CLOSE_RATE_LIMITED = 4429
CLOSE_TOO_SLOW = 4409

#: Every close code the server uses, with its meaning (listed in docs/protocol.md).
CLOSE_CODES: dict[int, str] = {
    CLOSE_TOO_LARGE: "too many oversized messages (or a frame over 64 KiB)",
    CLOSE_SERVER_ERROR: "the server failed (an error message says so first): reconnect later",
    CLOSE_RESTART: "the server stops or restarts (sent by uvicorn): reconnect",
    CLOSE_BUSY: "the server, the game's spectators or the address are full: try again later",
    CLOSE_FORBIDDEN_ORIGIN: "the page's origin is not allowed",
    CLOSE_UNKNOWN_GAME: "no game has this id or code",
    CLOSE_HELLO_TIMEOUT: "no hello in time",
    CLOSE_AUTH_FAILED: "too many failed hello attempts",
    CLOSE_RATE_LIMITED: "too many messages, again and again",
    CLOSE_TOO_SLOW: "the client reads too slowly to keep up",
}

#: Messages waiting for a slow client before it is dropped.
MAX_OUTBOX = 256


class ConnectionState(Enum):
    """Where a connection is in the session's state machine (the game's own phase is
    :class:`hisss.record.Phase`)."""

    HELLO = "hello"
    SEAT = "seat"
    SPECTATOR = "spectator"
    CLOSED = "closed"


class _Close(Exception):  # noqa: N818 - a signal to end the session, not an error
    """End the session with a close code."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


class Session:
    """One websocket connection to one game; see the module docstring."""

    def __init__(self, websocket: WebSocket, service: GameService, settings: Settings) -> None:
        self.ws = websocket
        self.service = service
        self.settings = settings
        self.connection = ConnectionState.HELLO
        self.live: LiveGame | None = None
        self.game_id = ""
        #: The seats this connection holds (from 0): one, or all the people of a device game.
        self.seats: tuple[int, ...] = ()
        #: Encoded messages waiting to be written (``None`` wakes the writer to end).
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        #: Characters waiting in the outbox.
        self.outbox_chars = 0
        self.bucket = Bucket(settings.rate_burst, settings.rate_per_second)
        self.sync_bucket = Bucket(settings.sync_burst, settings.sync_rate_per_second)
        #: The client's address (after trusted proxies), for the limits per address.
        self.address = websocket.client.host if websocket is not None and websocket.client else "?"
        self.strikes = 0
        self.hello_failures = 0
        self._last_rate_error = 0.0
        self._subscribed = False
        self._too_slow = False
        self.was_spectator = False
        #: The version of the last state queued for this client (``None``: none yet).
        self._version_sent: int | None = None

    # ------------------------------------------------------------------ the hub's side

    def deliver(self, message: Message) -> None:
        """Queue a published message (called by the hub; never blocks)."""
        if self.connection is ConnectionState.CLOSED:
            return
        # A state of the hand variant keeps the hands of this connection's seats alone.
        message = for_seats(message, self.seats)
        if message.get("type") == "state":
            # A state that follows the last one sent (or sends it again) leaves the log out:
            # the client adds the step itself. The log grows with the game, and was most of
            # every state's bytes by the middle of a game.
            version = message["version"]
            if self._version_sent is not None and 0 <= version - self._version_sent <= 1:
                message = without_log(message)
            self._version_sent = version
        try:
            text = encode(message)
        except (TypeError, ValueError) as exc:  # a lone surrogate quoted from the client
            log.info("game %s: a reply cannot be encoded: %s", self.game_id, exc)
            text = encode(
                {
                    "type": "error",
                    "code": ErrorCode.BAD_MESSAGE.value,
                    "message": "the message holds text that is not valid Unicode "
                    "(a lone surrogate)",
                }
            )
        if (
            self.outbox.qsize() >= MAX_OUTBOX
            or self.outbox_chars + len(text) > self.settings.max_outbox_bytes
        ):
            self.connection = ConnectionState.CLOSED
            self._too_slow = True
            self.outbox.put_nowait(None)
            return
        self.outbox_chars += len(text)
        self.outbox.put_nowait(text)

    def send(self, message: Message) -> None:
        """Queue a message for this client; like published ones, it counts towards the limit
        of a client that does not read."""
        self.deliver(message)

    def send_error(
        self, error: ProtocolError, request: str | None = None, fresh: Message | None = None
    ) -> None:
        """Queue an ``error`` message, and then the ``fresh`` state if given."""
        self.service.metrics.error(error.code, "websocket")
        message: Message = {"type": "error", **error.to_dict()}
        if request is not None:
            message["request"] = request
        self.send(message)
        if fresh is not None:
            self.send_whole(fresh)

    def send_whole(self, state: Message) -> None:
        """Queue a state with its whole log (the answer to ``sync``, the fresh state after an
        error): whatever the client holds, it starts again from this one."""
        self._version_sent = None
        self.send(state)

    async def _fresh_view(self) -> Message | None:
        """The game's current state. The service may have rebuilt its copy of the game since
        this session last looked (a seat was joined, the cache was dropped), so the session's
        own copy can be behind: ask the service again. ``None`` if that fails."""
        try:
            self.live = await self.service.find(self.game_id)
        except StorageError as exc:
            log.error("game %s: cannot load the game's state: %s", self.game_id, exc)
            return None
        except Exception:
            log.exception("game %s: cannot load the game's state", self.game_id)
            return None
        return self.service.view(self.live)

    # ------------------------------------------------------------------ running

    async def run(self, key: str) -> None:
        """Serve the connection until it closes."""
        clients = self.service.metrics.clients
        if not self.service.quotas.connection_opened(self.address):
            try:
                await self.ws.accept()
                error = ProtocolError(
                    ErrorCode.BUSY,
                    f"your address has {self.settings.max_connections_per_address} connections "
                    "open to this server already",
                )
                await self._refuse(error, CLOSE_BUSY, "too many connections")
            finally:
                self.service.quotas.connection_closed(self.address)
            return
        clients.inc()
        try:
            await self._run(key)
        finally:
            clients.dec()
            self.service.quotas.connection_closed(self.address)
            if self.was_spectator:
                self.service.quotas.spectator_left(self.game_id)

    async def _refuse(self, error: ProtocolError, code: int, reason: str) -> None:
        """Send ``error`` and close the connection with ``code``."""
        self.service.metrics.error(error.code, "websocket")
        await self.ws.send_text(encode({"type": "error", **error.to_dict()}))
        await self.ws.close(code, reason)

    async def _run(self, key: str) -> None:
        ws = self.ws
        if not self.settings.origin_allowed(ws.headers.get("origin"), ws.headers.get("host")):
            await ws.accept()
            error = ProtocolError(
                ErrorCode.FORBIDDEN_ORIGIN, "this server does not serve that web page"
            )
            await self._refuse(error, CLOSE_FORBIDDEN_ORIGIN, "forbidden origin")
            return
        await ws.accept()
        try:
            self.live = await self.service.find(key)
        except ProtocolError as error:
            await self._refuse(error, CLOSE_UNKNOWN_GAME, "unknown game")
            return
        except Exception as exc:
            if isinstance(exc, StorageError):  # known and logged in a line: no traceback
                log.error("a connection to game %r: %s", key[:64], exc)
            else:
                log.exception("a connection to game %r: the game cannot be loaded", key[:64])
            failed = ProtocolError(ErrorCode.SERVER_ERROR, "the server failed; try again later")
            await self._refuse(failed, CLOSE_SERVER_ERROR, "server error")
            return
        self.game_id = self.live.id
        game_id.set(self.game_id)  # for the log lines of this connection
        writer = asyncio.get_running_loop().create_task(self._write())
        close: _Close | None = None
        try:
            await self._read()
        except _Close as signal:
            close = signal
        except WebSocketDisconnect:
            pass
        finally:
            self.connection = ConnectionState.CLOSED
            if self._subscribed:
                self.service.hub.unsubscribe(self.game_id, self)
            for seat in self.seats:
                await self.service.seat_disconnected(self.game_id, seat)
            self.outbox.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 5)
            writer.cancel()
        if close is not None:
            self.service.quotas.connections_closed(close.reason)
            with contextlib.suppress(Exception):
                await ws.close(close.code, close.reason)

    async def _write(self) -> None:
        while True:
            text = await self.outbox.get()
            if text is None:
                if self._too_slow:
                    self.service.quotas.connections_closed("a client that reads too slowly")
                    with contextlib.suppress(Exception):
                        await self.ws.close(CLOSE_TOO_SLOW, "too slow")
                    return
                if self.connection is ConnectionState.CLOSED and self.outbox.empty():
                    return
                continue
            self.outbox_chars -= len(text)
            try:
                # A client that does not read fills its buffers, and the write waits: past the
                # deadline the connection is closed (the kernel's buffers may hold megabytes).
                await asyncio.wait_for(self.ws.send_text(text), self.settings.send_timeout)
            except TimeoutError:
                self.connection = ConnectionState.CLOSED
                self.service.quotas.connections_closed("a client that reads too slowly")
                with contextlib.suppress(Exception):
                    await self.ws.close(CLOSE_TOO_SLOW, "too slow")
                return
            except (WebSocketDisconnect, OSError, RuntimeError):  # uvicorn's ClientDisconnected
                return  # the client is gone; the reader sees it
            except Exception:
                self.connection = ConnectionState.CLOSED
                log.exception("game %s: sending to a client failed; closing it", self.game_id)
                with contextlib.suppress(Exception):
                    await self.ws.close(CLOSE_SERVER_ERROR, "server error")
                return

    async def _read(self) -> None:
        started = time.monotonic()
        while self.connection is not ConnectionState.CLOSED:
            if self.connection is ConnectionState.HELLO:
                left = self.settings.hello_timeout - (time.monotonic() - started)
                try:
                    raw = await asyncio.wait_for(self.ws.receive(), max(left, 0.001))
                except TimeoutError:
                    raise _Close(CLOSE_HELLO_TIMEOUT, "no hello in time") from None
            else:
                raw = await self.ws.receive()
            if raw["type"] == "websocket.disconnect":
                return
            await self._handle(raw)

    async def _handle(self, raw: Mapping[str, Any]) -> None:
        text = raw.get("text")
        if text is None:
            self._strike()
            self.send_error(
                ProtocolError(ErrorCode.BAD_MESSAGE, "send JSON in text frames, not binary")
            )
            return
        if not self._admit(text):
            return
        message = self._decode(text)
        if message is None:
            return
        kind = message["type"]
        try:
            await self._dispatch(kind, message)
        except ProtocolError as error:
            fresh = await self._fresh_view() if error.resync else None
            self.send_error(error, request=kind, fresh=fresh)
        except _Close:
            raise
        except StorageError as exc:
            log.error("game %s: a %s message failed: %s", self.game_id, kind, exc)
            self.send_error(
                ProtocolError(
                    ErrorCode.SERVER_ERROR,
                    "the database did not answer: your step may not be stored; "
                    "try again in a moment",
                ),
                request=kind,
            )
        except Exception:
            log.exception("game %s: a %s message failed", self.game_id, kind)
            self.send_error(
                ProtocolError(ErrorCode.SERVER_ERROR, "the server failed; nothing was changed"),
                request=kind,
            )

    def _admit(self, text: str) -> bool:
        """Whether a text frame passes the size and rate checks; if not, say so (and strike)."""
        size = len(text.encode("utf-8"))
        if size > self.settings.max_message_bytes:
            self._strike(CLOSE_TOO_LARGE, "too many oversized messages")
            self.send_error(
                ProtocolError(
                    ErrorCode.TOO_LARGE,
                    f"the message has {size} bytes; the limit is {self.settings.max_message_bytes}",
                )
            )
            return False
        if not self.bucket.take():
            self._strike(CLOSE_RATE_LIMITED, "too many messages")
            now = time.monotonic()
            if now - self._last_rate_error >= 1.0:
                self._last_rate_error = now
                self.send_error(
                    ProtocolError(
                        ErrorCode.RATE_LIMITED,
                        f"more than {self.settings.rate_per_second:g} messages a second: "
                        "messages are dropped until you slow down",
                    )
                )
            return False
        return True

    def _decode(self, text: str) -> Message | None:
        """The message in a text frame, a JSON object with a known ``type``; else say what is
        wrong and give ``None``."""
        try:
            message = decode(text)
        except (ValueError, RecursionError):
            self.send_error(ProtocolError(ErrorCode.BAD_JSON, "the message is not valid JSON"))
            return None
        if not isinstance(message, dict):
            self.send_error(ProtocolError(ErrorCode.BAD_MESSAGE, "a message is a JSON object"))
            return None
        kind = message.get("type")
        if not isinstance(kind, str):
            self.send_error(ProtocolError(ErrorCode.BAD_MESSAGE, 'a message needs a "type" (text)'))
            return None
        if kind not in CLIENT_TYPES:
            self.send_error(
                ProtocolError(
                    ErrorCode.UNKNOWN_TYPE,
                    f"unknown message type {kind[:40]!r} (known: {', '.join(CLIENT_TYPES)})",
                ),
                request=kind[:40],
            )
            return None
        return message

    def _strike(self, code: int = CLOSE_RATE_LIMITED, reason: str = "abuse") -> None:
        self.strikes += 1
        if self.strikes >= self.settings.abuse_limit:
            raise _Close(code, reason)

    # ------------------------------------------------------------------ messages

    async def _dispatch(self, kind: str, message: Message) -> None:
        if kind == "ping":
            ping = read_client_message(message)
            assert isinstance(ping, Ping)
            self.send({"type": "pong", "data": ping_payload(ping.data)})
            return
        if kind == "hello":
            hello = read_client_message(message)
            assert isinstance(hello, Hello)
            await self._hello(hello)
            return
        if self.connection is ConnectionState.HELLO or self.live is None:
            raise ProtocolError(
                ErrorCode.NOT_AUTHENTICATED, "send hello first (a seat token, or spectate)"
            )
        if kind == "sync":
            await self._sync()
            return
        if self.connection is ConnectionState.SPECTATOR or not self.seats:
            raise ProtocolError(ErrorCode.SPECTATOR, "spectators watch the game; they cannot act")
        seat = self._acting_seat(message)
        typed = read_client_message(message)
        await _SEAT_MESSAGES[type(typed)](self, seat, typed)

    async def _sync(self) -> None:
        if not self.sync_bucket.take():
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                f"sync at most {self.settings.sync_rate_per_second:g} times a second: the "
                "states that follow each step keep you up to date",
            )
        fresh = await self._fresh_view()
        if fresh is None:
            raise ProtocolError(ErrorCode.SERVER_ERROR, "the server failed; nothing was changed")
        self.send_whole(fresh)

    async def _draw(self, seat: int, message: Draw) -> None:
        self.live = await self.service.draw(self.game_id, seat, message.version)

    async def _play(self, seat: int, message: Play) -> None:
        self.live = await self.service.play(self.game_id, seat, message.version, message.action)

    async def _replace_with_bot(self, seat: int, message: ReplaceWithBot) -> None:
        self.live = await self.service.hand_over(
            self.game_id, seat, message.seat - 1, message.level, message.version
        )

    async def _take_seat(self, seat: int, message: TakeSeat) -> None:
        self.live = await self.service.take_back(self.game_id, seat)

    async def _rematch(self, seat: int, message: Rematch) -> None:
        self.live = await self.service.rematch(self.game_id, self.seats)

    async def _hint(self, seat: int, message: Hint) -> None:
        action, quick = await self.service.hint(self.game_id, seat, self.address)
        self.send({"type": "hint", "seat": seat + 1, "action": str(action), "quick": quick})

    def _acting_seat(self, message: Message) -> int:
        """The seat a message acts for: its ``seat`` (from 1), which this connection must hold;
        without one, the seat held that is to move, else the first held."""
        asked = message.get("seat")
        if "seat" in message and message.get("type") != "replace_with_bot":
            if isinstance(asked, bool) or not isinstance(asked, int) or asked - 1 not in self.seats:
                raise ProtocolError(
                    ErrorCode.BAD_MESSAGE, "seat must be the number of a seat this connection holds"
                )
            return asked - 1
        assert self.live is not None
        to_move = self.live.to_move
        return to_move if to_move in self.seats else self.seats[0]

    def _welcome(self, live: LiveGame) -> Message:
        """The ``welcome`` message: the game, this connection's role and seats, the rules."""
        return {
            "type": "welcome",
            "protocol": PROTOCOL_VERSION,
            "game": live.id,
            "code": live.code,
            "title": live.title,
            "role": self.connection.value,
            "seat": self.seats[0] + 1 if self.seats else None,
            "seats": [seat + 1 for seat in self.seats],
            "rules": live.rules.to_mapping(),
            "deck": live.deck.name,
            "deck_size": live.deck.size,
            "away_seconds": self.settings.away_seconds,
            "unseen_seconds": self.settings.unseen_seconds,
            "levels": list(levels_for(live.rules)),
            "limits": {
                "max_message_bytes": self.settings.max_message_bytes,
                "rate_per_second": self.settings.rate_per_second,
                "rate_burst": self.settings.rate_burst,
            },
        }

    async def _hello(self, message: Hello) -> None:
        if self.connection is not ConnectionState.HELLO:
            raise ProtocolError(
                ErrorCode.ALREADY_AUTHENTICATED, "this connection has said hello already"
            )
        assert self.live is not None
        token, role = message.token, message.role
        if token is None and role == "spectator":
            self.live = await self.service.find(self.game_id)
            if not self.service.quotas.spectator_joined(self.game_id):
                error = ProtocolError(
                    ErrorCode.BUSY,
                    f"this game has {self.settings.max_spectators} spectators already",
                )
                self.service.metrics.error(error.code, "websocket")
                await self.ws.send_text(encode({"type": "error", **error.to_dict()}))
                raise _Close(CLOSE_BUSY, "too many spectators")
            self.was_spectator = True
            self.connection = ConnectionState.SPECTATOR
        elif token is not None:
            try:
                self.live = await self.service.find(self.game_id)
                self.seats = self.service.authenticate(self.live, token)
            except ProtocolError:
                self.hello_failures += 1
                if self.hello_failures >= self.settings.max_hello_failures:
                    raise _Close(CLOSE_AUTH_FAILED, "too many failed hello attempts") from None
                raise
            self.connection = ConnectionState.SEAT
        else:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE, 'hello needs "token" (a seat token) or "role": "spectator"'
            )
        self.service.hub.subscribe(self.game_id, self)
        self._subscribed = True
        live = self.live
        self.send(self._welcome(live))
        if self.seats:
            # Publishing tells everyone (this session included) that the seats are here.
            await self.service.seats_connected(live, self.seats)
        else:
            self.send(self.service.view(live))


#: What each message that acts for a seat does, by its model (:mod:`hisss.server.protocol`).
_SEAT_MESSAGES: dict[type[ClientMessageBase], Callable[[Session, int, Any], Awaitable[None]]] = {
    Draw: Session._draw,
    Play: Session._play,
    ReplaceWithBot: Session._replace_with_bot,
    TakeSeat: Session._take_seat,
    Rematch: Session._rematch,
    Hint: Session._hint,
}
