"""The server's settings: database, Redis, bot pace, presence, limits and allowed origins.

A game's bots play at the pace its creator chose: a bot's move (its draw and its placement) takes
:attr:`Settings.bot_delay` seconds at the ``normal`` pace, times :data:`PACES`'s factor at the
others, half before the draw and half before the placement.

>>> settings = Settings(database="sqlite+pysqlite:///games.db")
>>> [round(settings.step_delay(pace) * 2, 2) for pace in PACES]
[0.25, 0.7, 1.6]
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from hisss.core import ConfigError

#: The bot paces a game can have, with the factor of the normal move time each takes.
PACES: dict[str, float] = {"fast": 5 / 14, "normal": 1.0, "slow": 16 / 7}

#: Who may read ``GET /metrics``: anyone, clients on this machine only, or nobody.
METRICS_MODES = ("on", "local", "off")

#: The log formats: plain text, or one JSON object a line.
LOG_FORMATS = ("text", "json")

#: The URL schemes of Redis addresses.
REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the server can be told; the defaults are those of ``hisss serve``."""

    #: The SQLAlchemy async URL of the database (see :func:`hisss.storage.database_url`).
    database: str
    #: Seconds a bot's move (draw and placement) takes at the normal pace, so that people can
    #: follow (0 in tests); see :data:`PACES`.
    bot_delay: float = 0.7
    #: Seconds a person seat must have been away, after its holder connected, before another
    #: player may hand it to a bot.
    away_seconds: float = 60.0
    #: Seconds a person seat whose holder has not connected yet (the link not yet opened) waits
    #: before it may be handed to a bot.
    unseen_seconds: float = 600.0
    #: Seconds after its last step that a running game nobody follows leaves the lobby's list of
    #: games being played.
    idle_seconds: float = 900.0
    #: The largest websocket message the server reads, in bytes.
    max_message_bytes: int = 4096
    #: The largest HTTP request body, in bytes, except uploads of game records.
    max_body_bytes: int = 16_384
    #: The largest uploaded game record, in bytes.
    max_record_bytes: int = 1_048_576
    #: Websocket messages a connection may send: a burst of this many ...
    rate_burst: int = 60
    #: ... refilled at this many per second.
    rate_per_second: float = 20.0
    #: HTTP requests that change something (POST) one client address may send: a burst of ...
    http_burst: int = 30
    #: ... refilled at this many per second (0: no limit, e.g. behind a proxy that limits).
    http_rate_per_second: float = 1.0
    #: Oversized or rate-limited messages after which a connection is closed.
    abuse_limit: int = 20
    #: Failed hello attempts after which a connection is closed.
    max_hello_failures: int = 5
    #: Seconds a new connection has to say hello.
    hello_timeout: float = 20.0
    #: Seconds a client has to send a request's line and headers, from its connection (or from
    #: the end of its last answer).
    header_timeout: float = 10.0
    #: Seconds a client has to send a request's whole body.
    body_timeout: float = 30.0
    #: Seconds an idle keep-alive connection is kept after an answer (uvicorn's own timer).
    keep_alive_timeout: int = 5
    #: Seconds between the server's websocket pings, and seconds a client has to answer one
    #: before its connection is closed (a client that stops reading stops answering).
    ping_interval: float = 10.0
    ping_timeout: float = 10.0
    #: Seconds a message to a client may wait to be written (a client that does not read
    #: fills its buffers) before the connection is closed as too slow.
    send_timeout: float = 15.0
    #: Bytes of messages waiting for one client before it is closed as too slow.
    max_outbox_bytes: int = 1_048_576
    #: Open connections (HTTP and websocket) from one client address.
    max_connections_per_address: int = 50
    #: Spectators of one game.
    max_spectators: int = 100
    #: Open connections in all; ``None``: sized from the open-file limit at start.
    max_connections: int | None = None
    #: Proxy addresses or networks (``10.0.0.1``, ``10.0.0.0/8``) whose ``X-Forwarded-For`` and
    #: ``X-Forwarded-Proto`` headers are believed (uvicorn's ``forwarded_allow_ips``); ``*``:
    #: every address. The client is then the rightmost address not in this list.
    forwarded_allow_ips: tuple[str, ...] = field(default_factory=tuple)
    #: Host names the server answers to (``Host`` header; ``*.example.org`` for subdomains);
    #: others get 400. ``None``: any (the in-process default; ``hisss serve`` names the
    #: addresses it is bound to).
    allowed_hosts: tuple[str, ...] | None = None
    #: Hints one seat may ask for: a burst of this many ...
    hint_burst: int = 10
    #: ... refilled at this many per second (per seat, and per client address).
    hint_rate_per_second: float = 1.0
    #: ``sync`` messages (the whole state and log) one connection may send: a burst of ...
    sync_burst: int = 5
    #: ... refilled at this many per second.
    sync_rate_per_second: float = 0.5
    #: Game lookups (``GET`` of the API) one client address may make: a burst of ...
    lookup_burst: int = 120
    #: ... refilled at this many per second (0: no limit).
    lookup_rate_per_second: float = 10.0
    #: Seconds any wait on the database may last (connecting, a statement, a free connection)
    #: before the request fails with an error instead of hanging.
    database_timeout: float = 10.0
    #: Live games kept in memory (each can be rebuilt from the database at any time).
    cache_size: int = 2000
    #: Web page origins (``https://example.org``) allowed besides the server's own.
    allowed_origins: tuple[str, ...] = field(default_factory=tuple)
    #: The Redis URL (``redis://host:6379/0``) through which several server processes of one
    #: database share game updates and presence; ``None``: this process is alone.
    redis: str | None = None
    #: ``GET /metrics`` (Prometheus): ``on`` for anyone, ``local`` for clients on this machine
    #: only (the loopback addresses), ``off`` not served.
    metrics: str = "on"
    #: The server's log lines: ``text``, or ``json`` (one object a line, with the request's and
    #: the game's id).
    log_format: str = "text"

    def __post_init__(self) -> None:
        if self.metrics not in METRICS_MODES:
            raise ConfigError(
                f"metrics {self.metrics!r}: expected one of {', '.join(METRICS_MODES)}"
            )
        if self.log_format not in LOG_FORMATS:
            raise ConfigError(
                f"log format {self.log_format!r}: expected one of {', '.join(LOG_FORMATS)}"
            )
        for proxy in self.forwarded_allow_ips:
            if proxy != "*":
                try:
                    ipaddress.ip_network(proxy, strict=False)
                except ValueError:
                    raise ConfigError(
                        f"forwarded-allow-ips {proxy!r}: expected an IP address or network "
                        "(10.0.0.1, 10.0.0.0/8) or *"
                    ) from None
        for host in self.allowed_hosts or ():
            if "*" in host[1:] or (host.startswith("*") and host != "*" and host[:2] != "*."):
                raise ConfigError(
                    f"allowed host {host!r}: a wildcard is written *.example.org (or * for any)"
                )
        if self.redis is not None and not self.redis.startswith(REDIS_SCHEMES):
            raise ConfigError(
                f"Redis URL {self.redis.split('@')[-1]!r} must start with "
                + ", ".join(REDIS_SCHEMES)
            )

    def step_delay(self, pace: str) -> float:
        """Seconds a bot waits before each of its steps in a game of ``pace``."""
        return self.bot_delay * PACES.get(pace, 1.0) / 2

    def origin_allowed(self, origin: str | None, host: str | None) -> bool:
        """True for requests without an ``Origin`` (not from a web page), from the server's own
        host, or from an allowed origin."""
        if origin is None:
            return True
        if origin in self.allowed_origins:
            return True
        try:
            parts = urlsplit(origin)
        except ValueError:
            return False
        return bool(host) and parts.scheme in ("http", "https") and parts.netloc == host
