"""What a running server is doing, for Prometheus: ``GET /metrics`` in the text format.

:class:`Metrics` holds one registry per application (never the library's global one, so that
several applications in one process, as in the tests, count apart):

* ``hisss_steps_total{kind}``: log entries stored, by kind (``starter``, ``draw``, ``play``,
  ``bot``, ``person``, ``rematch``);
* ``hisss_errors_total{code,channel}``: refusals sent, by error code, over ``http`` or
  ``websocket``;
* ``hisss_step_seconds``: a step's time in the server, from the game's lock to the new state
  handed to every connection (a histogram);
* ``hisss_database_append_seconds``: storing one step, commit included (a histogram);
* ``hisss_games{status}``: the games in the database by status, counted when scraped;
* ``hisss_connected_clients``: open websocket connections;
* ``hisss_bots_playing``: games whose bots (or starter) the server is playing now;
* ``hisss_bot_moves_total{level}``: placements made by bots, by level;
* ``hisss_database_failures_total`` and ``hisss_redis_failures_total``: failed calls;
* the process's own ``process_*`` figures (CPU seconds, memory, open files).

``Settings.metrics`` serves them to anyone (``on``, the default), only to clients on this machine
(``local``: the loopback addresses, as uvicorn sees them behind a trusted proxy), or not at all
(``off``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

from prometheus_client import (
    CONTENT_TYPE_PLAIN_0_0_4,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from hisss.storage import EntryKind, GameStatus

#: Upper bounds of the latency buckets, in seconds: from half a millisecond to ten seconds.
BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

#: Client addresses that count as this machine for ``metrics = "local"``.
LOCAL_ADDRESSES = frozenset({"127.0.0.1", "::1"})

#: The media type of the classic text format, which every Prometheus version reads (the names
#: here are plain, so the text is the same in the newer versions of the format).
CONTENT_TYPE = CONTENT_TYPE_PLAIN_0_0_4


class _Failing(Protocol):
    failures: int


class _Playing(Protocol):
    @property
    def bots_playing(self) -> int: ...


class _Live(Collector):
    """Figures read when scraped from the objects that keep them: failures counted by the
    store and the hub, and the games whose bots are playing."""

    def __init__(self) -> None:
        self.store: _Failing | None = None
        self.hub: _Failing | None = None
        self.service: _Playing | None = None

    def collect(self) -> Iterator[Metric]:
        yield CounterMetricFamily(
            "hisss_database_failures",
            "Database calls that failed (an error, a lost connection, a timeout)",
            value=self.store.failures if self.store is not None else 0,
        )
        yield CounterMetricFamily(
            "hisss_redis_failures",
            "Redis calls that failed (publishing, reading news, presence)",
            value=self.hub.failures if self.hub is not None else 0,
        )
        yield GaugeMetricFamily(
            "hisss_bots_playing",
            "Games in which the server is taking steps of its own now",
            value=self.service.bots_playing if self.service is not None else 0,
        )


class Metrics:
    """The server's counters, gauges and histograms; see the module docstring.

    >>> metrics = Metrics()
    >>> metrics.stored(EntryKind.DRAW, 0.002)
    >>> metrics.error("illegal_action", "websocket")
    >>> text = metrics.render()
    >>> 'hisss_steps_total{kind="draw"} 1.0' in text
    True
    >>> 'hisss_errors_total{channel="websocket",code="illegal_action"} 1.0' in text
    True
    """

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        registry = self.registry
        self.steps = Counter(
            "hisss_steps", "Log entries stored, by kind", ["kind"], registry=registry
        )
        self._steps = {kind: self.steps.labels(kind.value) for kind in EntryKind}
        self.errors = Counter(
            "hisss_errors",
            "Refusals sent, by error code and channel (http or websocket)",
            ["code", "channel"],
            registry=registry,
        )
        self.step_seconds = Histogram(
            "hisss_step_seconds",
            "A step's time in the server: the game's lock, checks, storing, and the new state "
            "handed to every connection",
            buckets=BUCKETS,
            registry=registry,
        )
        self.append_seconds = Histogram(
            "hisss_database_append_seconds",
            "Storing one step in the database, commit included",
            buckets=BUCKETS,
            registry=registry,
        )
        self.games = Gauge(
            "hisss_games", "Games in the database, by status", ["status"], registry=registry
        )
        self.clients = Gauge(
            "hisss_connected_clients", "Open websocket connections", registry=registry
        )
        self.bot_moves = Counter(
            "hisss_bot_moves", "Placements made by bots, by level", ["level"], registry=registry
        )
        self._live = _Live()
        registry.register(self._live)
        ProcessCollector(registry=registry)

    def watch(self, store: _Failing, hub: _Failing, service: _Playing) -> None:
        """Read the failures of ``store`` and ``hub``, and ``service``'s bots, when scraped."""
        self._live.store, self._live.hub, self._live.service = store, hub, service

    def stored(self, kind: EntryKind, seconds: float) -> None:
        """Count a step of ``kind`` stored in ``seconds``."""
        self._steps[kind].inc()
        self.append_seconds.observe(seconds)

    def error(self, code: str, channel: str) -> None:
        """Count a refusal with ``code`` sent over ``channel`` (``http`` or ``websocket``)."""
        self.errors.labels(code, channel).inc()

    def count_games(self, counts: dict[str, int]) -> None:
        """Set the games by status (every status is shown, 0 when none)."""
        for status in GameStatus:
            self.games.labels(status.value).set(counts.get(status.value, 0))

    def render(self) -> str:
        """Every metric in the Prometheus text format."""
        text: Any = generate_latest(self.registry)
        return str(text.decode("utf-8"))
