"""Running the server: ``hisss serve`` binds the port, opens the database, then runs uvicorn.

The port and the database are checked before uvicorn starts, so a port in use or a database
that cannot be opened ends with one clear :class:`ServeError` instead of a traceback. uvicorn
runs with the sans-I/O ``websockets`` implementation (the legacy one is deprecated), without
per-message compression (it cost more CPU per step than it saved on messages of a few KiB), and
a protocol-level frame limit above the application's own message limit, so that an oversized
message still gets a clear error message from the application.
"""

from __future__ import annotations

import asyncio
import dataclasses
import errno
import gc
import logging
import signal
import socket
import threading
from collections.abc import Callable
from typing import Any

from hisss.core import HisssError
from hisss.kernel.warming import start_warming
from hisss.server.app import create_app
from hisss.server.hub import Hub, LocalHub
from hisss.server.logs import limit_floods
from hisss.server.redis_hub import RedisHub, RedisHubError
from hisss.server.settings import Settings
from hisss.storage import StorageError, Store, display_url

#: Frames larger than this are refused by uvicorn itself (the connection is closed with 1009).
WS_MAX_FRAME = 65_536

#: The garbage collector's thresholds while the server runs (Python's default: 700, 10, 10).
GC_THRESHOLDS = (10_000, 10, 100)


class ServeError(HisssError):
    """The server cannot start (port in use, unknown host, database unusable)."""


def bind(host: str, port: int, reuse_port: bool = False) -> socket.socket:
    """A listening-ready TCP socket on ``host:port``; raises :class:`ServeError`.

    With ``reuse_port`` several processes may bind the same port (``SO_REUSEPORT``; the kernel
    spreads new connections between them)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError, OverflowError) as exc:
        raise ServeError(f"cannot listen on {host}:{port}: {exc}") from None
    family, kind, proto, _name, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if reuse_port:
        if not hasattr(socket, "SO_REUSEPORT"):
            sock.close()
            raise ServeError("--reuse-port needs SO_REUSEPORT, which this system lacks")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ServeError(
                f"port {port} on {host} is in use by another program (choose another with --port)"
            ) from None
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


#: Names that stand for this machine's loopback address.
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")

#: The longest request line and headers uvicorn reads (h11's default is 16 KiB).
MAX_HEADER_BYTES = 16_384


def bound_names(host: str) -> tuple[str, ...]:
    """The host names a server bound to ``host`` answers to by default: the loopback names,
    ``host`` itself, and for a wildcard address the machine's name and addresses.

    >>> bound_names("127.0.0.1")
    ('localhost', '127.0.0.1', '::1')
    >>> bound_names("games.example.org")
    ('localhost', '127.0.0.1', '::1', 'games.example.org')
    """
    names = list(LOOPBACK_NAMES)
    extra = [host]
    if host in ("", "0.0.0.0", "::"):
        extra = [socket.gethostname(), socket.getfqdn()]
        try:
            infos = socket.getaddrinfo(socket.gethostname(), None)
        except OSError:
            infos = []
        extra += [str(info[4][0]) for info in infos]
    for given in extra:
        name = given.strip("[]").lower()
        if name and name not in names:
            names.append(name)
    return tuple(names)


def url_of(host: str, port: int) -> str:
    """The address to open in a browser."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


class _StoppedError(Exception):
    """SIGTERM arrived: stop as cleanly as for Ctrl+C."""


def _stop(_signum: int, _frame: object) -> None:
    raise _StoppedError


def serve(
    settings: Settings,
    host: str,
    port: int,
    announce: Callable[[str], None] = print,
    reuse_port: bool = False,
) -> None:
    """Run the server until it is stopped (Ctrl+C or SIGTERM); raises :class:`ServeError`.

    uvicorn shuts down gracefully on SIGTERM and then raises the signal again; the handler set
    here turns that into a normal return, so a stopped server exits with status 0.
    """
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _stop) if main else None
    try:
        with asyncio.Runner(loop_factory=loop_factory()) as runner:
            runner.run(_serve(settings, host, port, announce, reuse_port))
    except _StoppedError:
        return
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed, else the standard one (``None``)."""
    try:
        import uvloop  # noqa: PLC0415
    except ImportError:
        return None
    factory: Callable[[], Any] = uvloop.new_event_loop
    return factory


async def _open_hub(settings: Settings, store: Store) -> Hub:
    """The hub the server publishes through: its own, or with ``--redis`` one shared with the
    other processes (started here); raises :class:`ServeError`."""
    if settings.redis is None:
        return LocalHub()
    if store.dialect == "sqlite":
        raise ServeError(
            "--redis joins several server processes, which need one PostgreSQL database "
            "(a SQLite file belongs to one process)"
        )
    hub = RedisHub(settings.redis)
    try:
        await hub.start()
    except RedisHubError as exc:
        raise ServeError(str(exc)) from None
    return hub


def _settle_collector() -> None:
    """Tune the garbage collector for a server that has started."""
    # What is loaded by now (modules, the app) lives as long as the server: frozen out of the
    # collector's sight, it is not walked by every full collection. Under the load test that cut
    # the time spent in full collections by more than half.
    gc.freeze()
    # The games being played hold many objects that live for minutes (their steps, snapshots
    # and logs): with the collector's default thresholds, 1,000 games under the load test cost
    # 8 % of the server's CPU in collections, and each full collection stopped the server for
    # some 140 ms. Objects are freed as they are dropped (reference counting); the collector
    # only finds cycles, which are rare here, so it runs less often.
    gc.set_threshold(*GC_THRESHOLDS)


def _uvicorn_config(settings: Settings, app: Any, http_protocol: Any, ws_protocol: Any) -> Any:
    """uvicorn's configuration of the server: its protocols, limits, timeouts and logging."""
    import uvicorn  # noqa: PLC0415 - imported when the server runs, not when the CLI loads
    from uvicorn.config import LOGGING_CONFIG  # noqa: PLC0415

    return uvicorn.Config(
        app,
        http=http_protocol,
        ws=ws_protocol,
        ws_max_size=WS_MAX_FRAME,
        # A client that stops reading stops answering pings: it is closed within
        # ping_interval + ping_timeout seconds, whatever the kernel's buffers hold.
        ws_ping_interval=settings.ping_interval,
        ws_ping_timeout=settings.ping_timeout,
        timeout_keep_alive=settings.keep_alive_timeout,
        h11_max_incomplete_event_size=MAX_HEADER_BYTES,
        # The application reads forwarded headers itself, from --forwarded-allow-ips only
        # (uvicorn's default would believe any client on this machine).
        proxy_headers=False,
        # No permessage-deflate: a state message is a few KiB, and compressing every one
        # for every connection (with a compressor kept per connection) cost more of the
        # server's time per step than building the state.
        ws_per_message_deflate=False,
        lifespan="on",
        log_level="info",
        # JSON lines: uvicorn's loggers reach the root logger's handler (hisss.server.logs)
        # instead of being set up with uvicorn's own text format.
        log_config=None if settings.log_format == "json" else LOGGING_CONFIG,
        server_header=False,
        timeout_graceful_shutdown=5,
    )


def _connection_protocols(settings: Settings) -> tuple[int, int, Any, Any]:
    """The open-file limit (raised as far as allowed), the cap on connections, and uvicorn's
    HTTP and websocket protocols that keep the connections within their limits."""
    from hisss.server.connections import (  # noqa: PLC0415 - uvicorn's protocols, imported here
        ConnectionLimits,
        connection_cap,
        protocols,
        raise_file_limit,
    )

    open_files = raise_file_limit()
    cap = settings.max_connections or connection_cap(open_files)
    limits = ConnectionLimits(
        total=cap,
        per_address=settings.max_connections_per_address,
        header_timeout=settings.header_timeout,
        trusted=settings.forwarded_allow_ips,
    )
    http_protocol, ws_protocol = protocols(limits)
    return open_files, cap, http_protocol, ws_protocol


async def _serve(
    settings: Settings, host: str, port: int, announce: Callable[[str], None], reuse_port: bool
) -> None:
    import uvicorn  # noqa: PLC0415 - imported when the server runs, not when the CLI loads

    open_files, cap, http_protocol, ws_protocol = _connection_protocols(settings)
    if settings.allowed_hosts is None:
        settings = dataclasses.replace(settings, allowed_hosts=bound_names(host))
    sock = bind(host, port, reuse_port)
    # The expert plays careful's placement until its compiled code is ready: no game waits.
    start_warming()
    try:
        store = await Store.open(settings.database, settings.database_timeout)
    except StorageError as exc:
        sock.close()
        raise ServeError(str(exc)) from None
    try:
        hub = await _open_hub(settings, store)
    except ServeError:
        await store.close()
        sock.close()
        raise
    try:
        config = _uvicorn_config(
            settings, create_app(settings, store=store, hub=hub), http_protocol, ws_protocol
        )
        server = uvicorn.Server(config)
        limit_floods()  # uvicorn has set its loggers up by now
        task = asyncio.get_running_loop().create_task(server.serve(sockets=[sock]))
        while not server.started and not task.done():
            await asyncio.sleep(0.02)
        if server.started:
            _settle_collector()
            announce(f"Hisss is ready: open {url_of(host, sock.getsockname()[1])}")
            announce(f"database: {display_url(settings.database)}")
            announce(
                f"connections: at most {cap} ({settings.max_connections_per_address} per "
                f"address; open-file limit {open_files}); hosts: "
                + ", ".join(settings.allowed_hosts or ("any",))
            )
            if isinstance(hub, RedisHub):
                announce(f"redis: {hub.shown_url}")
        await task
    finally:
        await hub.stop()
        await store.close()
        sock.close()
        logging.getLogger("hisss.server").info("server stopped")
