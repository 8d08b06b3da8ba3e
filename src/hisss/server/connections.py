"""Connections under ``hisss serve``: a cap in all, a cap per client address, and deadlines for
request headers, which uvicorn does not have.

uvicorn keeps an idle keep-alive connection for ``timeout_keep_alive`` seconds, but only after an
answer: a connection that never finishes its request's headers is held for ever. The protocols
made by :func:`protocols` extend uvicorn's own (h11 for HTTP, the sans-I/O ``websockets`` for
websockets) with what it lacks:

- a deadline for a request's line and headers, from the connection (or from the end of the last
  answer), after which the connection is closed;
- a count of open connections per peer address and in all (:class:`ConnectionLimits`). Past the
  cap in all, a new HTTP connection closes the oldest connection that waits for a request (an
  idle one or a slow one), so that ``/healthz`` and the players' requests keep getting in; a
  websocket upgrade past its share of the cap, or from an address with too many connections,
  gets a quick ``503`` and the connection is closed.

Addresses named by ``--forwarded-allow-ips`` are proxies: they are not limited per address here
(the application limits its websockets per client address behind them).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import resource
import time
from collections import Counter
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

log = logging.getLogger("hisss.server.connections")

#: Open files kept for the server's own use (the database, its journal, static files, logs,
#: the Redis connection) when the cap on connections is sized from the open-file limit: this
#: many, and a tenth of the limit beyond it.
RESERVED_FILES = 64

#: The share of the cap that websockets may take: the rest stays for HTTP requests.
WEBSOCKET_SHARE = 0.9

#: The open-file limit asked for when the hard limit is unlimited.
UNLIMITED_FILES = 65_536

_BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
    b"retry-after: 5\r\nconnection: close\r\ncontent-length: %d\r\n\r\n%s"
)


def busy_answer(message: str) -> bytes:
    """A complete ``503`` answer (in the API's error format) that closes the connection."""
    body = json.dumps({"error": {"code": "busy", "message": message}}).encode("ascii")
    return _BUSY % (len(body), body)


def raise_file_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit; the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = UNLIMITED_FILES if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError) as exc:
            log.warning("cannot raise the open-file limit from %d to %d: %s", soft, wanted, exc)
    return UNLIMITED_FILES if soft == resource.RLIM_INFINITY else soft


def connection_cap(open_files: int) -> int:
    """The connections a server with ``open_files`` may hold, leaving room for its own files.

    >>> connection_cap(1024), connection_cap(65536)
    (858, 58919)
    """
    return max(16, open_files - RESERVED_FILES - open_files // 10)


class ConnectionLimits:
    """The counts of open connections, in all and per peer address, and their caps."""

    def __init__(
        self,
        total: int,
        per_address: int,
        header_timeout: float,
        trusted: tuple[str, ...] = (),
    ) -> None:
        self.total = total
        self.per_address = per_address
        self.header_timeout = header_timeout
        self.websocket_cap = max(1, int(total * WEBSOCKET_SHARE))
        self._trust_all = "*" in trusted
        self._trusted = [ipaddress.ip_network(t, strict=False) for t in trusted if t != "*"]
        self.by_address: Counter[str] = Counter()
        self.open = 0
        self.websockets = 0
        #: HTTP connections that wait for a request, oldest first (their protocols).
        self.waiting: dict[Any, None] = {}
        #: Refusals and closes by reason, logged at most once a minute in one line.
        self.refused: Counter[str] = Counter()
        self._reported = time.monotonic()

    def evictable(self) -> Any:
        """The connection to close for a new one when the cap is reached: of those waiting for
        a request, the oldest from the address holding the most connections (an attacker
        holds many, a player one or two); ``None`` when none waits."""
        chosen, most = None, 0
        for waiting in self.waiting:  # oldest first
            held = self.by_address[waiting.address]
            if held > most:
                chosen, most = waiting, held
        return chosen

    def is_proxy(self, address: str) -> bool:
        """True for an address of ``--forwarded-allow-ips``."""
        if self._trust_all:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self._trusted)

    def too_many_from(self, address: str) -> bool:
        """True when ``address`` holds as many connections as it may (proxies never do)."""
        return self.by_address[address] >= self.per_address and not self.is_proxy(address)

    def count(self, reason: str) -> None:
        """Count a refusal or a forced close; the counts go to the log once a minute."""
        self.refused[reason] += 1
        now = time.monotonic()
        if now - self._reported >= 60:
            self._reported = now
            summary = ", ".join(f"{n} {why}" for why, n in sorted(self.refused.items()))
            log.warning("connections refused or closed in the last minute: %s", summary)
            self.refused.clear()

    def add(self, address: str) -> None:
        self.open += 1
        self.by_address[address] += 1

    def remove(self, address: str) -> None:
        self.open -= 1
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]


class _LimitedHttp(H11Protocol):
    """uvicorn's HTTP protocol within the connection limits of its class's ``limits``."""

    limits: ClassVar[ConnectionLimits]
    address = ""
    _counted = False
    _deadline: asyncio.TimerHandle | None = None
    _armed_for: object = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else "?"
        self.address = address
        if self.limits.too_many_from(address):
            self.limits.count("too many connections from one address")
            self._refuse("too many connections from your address")
            return
        if self.limits.open >= self.limits.total:
            oldest = self.limits.evictable()
            if oldest is None:
                self.limits.count("server full")
                self._refuse("the server is full: try again in a moment")
                return
            self.limits.count("waiting connection closed for a new one")
            oldest.close_waiting()
        self.limits.add(address)
        self._counted = True
        self._arm()

    def _refuse(self, message: str) -> None:
        self.transport.write(busy_answer(message))
        self.transport.close()

    def _arm(self) -> None:
        self._disarm()
        self._armed_for = self.scope
        self._deadline = self.loop.call_later(self.limits.header_timeout, self._late)
        self.limits.waiting[self] = None

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self.limits.waiting.pop(self, None)

    def _late(self) -> None:
        self._deadline = None
        self.limits.waiting.pop(self, None)
        self.limits.count("request headers too slow")
        self.close_waiting()

    def close_waiting(self) -> None:
        """Close this connection, which waits for a request."""
        self._disarm()
        if not self.transport.is_closing():
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._deadline is not None and self.scope is not self._armed_for:
            self._disarm()  # a request's headers are in

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self._counted:
            self._arm()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        if self.limits.websockets >= self.limits.websocket_cap:
            self.limits.count("websockets full")
            self._disarm()
            self._refuse("the server has as many game connections as it can hold")
            return
        self._disarm()
        self._counted = False  # the websocket protocol takes the count over
        self.limits.websockets += 1
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._counted:
            self._counted = False
            self.limits.remove(self.address)
        super().connection_lost(exc)


class _LimitedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol, counted in its class's ``limits``."""

    limits: ClassVar[ConnectionLimits]

    def connection_lost(self, exc: Exception | None) -> None:
        address = self.client[0] if self.client else "?"
        self.limits.websockets -= 1
        self.limits.remove(address)
        super().connection_lost(exc)


def protocols(limits: ConnectionLimits) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    """uvicorn's HTTP and websocket protocols, bound to ``limits``."""

    class Http(_LimitedHttp):
        pass

    class WebSocket(_LimitedWebSocket):
        pass

    Http.limits = limits
    WebSocket.limits = limits
    return Http, WebSocket
