"""A hub shared by several server processes through Redis: pub/sub for game updates, presence
in keys that expire.

Each process keeps its own websocket sessions (the :class:`~hisss.server.hub.LocalHub` it
extends) and its own cached copy of each game. The database stays the only truth about games:
Redis carries no game state, only news.

* **Updates.** :meth:`RedisHub.publish` delivers a new state to the subscribers of this process,
  then publishes ``{"origin": <process>, "what": "state", "version": N, "step": {...}}`` on the
  game's channel ``hisss:game:<id>``, where ``step`` is the stored log entry that made the state
  (absent for a change that is not a step, such as a seat taken). A process subscribes to the
  channel of every game it has subscribers for (and unsubscribes when the last one leaves). On
  news from another process it calls the listener given to :meth:`attach` (the game service)
  with the steps the news carried: the service applies them to its copy when they follow it
  without a gap, and otherwise reads the new log entries from the database; either way it
  delivers every state in order. Right after subscribing to a channel it catches up once, so
  news published before the subscription took effect is not missed. Each game catches up in a
  task of its own, so a slow read of one game's log never holds up the news of the others; news
  that comes while a game is catching up waits, with its steps, for the next round. A round
  that takes in news without a step (or the catch-up after subscribing) hands the listener no
  steps, so that the database tells what changed.
* **Presence.** The sorted set ``hisss:here:<id>`` holds ``<seat>:<process>`` for every seat a
  session of that process holds, scored with the time its claim expires; each process renews its
  claims every :data:`HEARTBEAT` seconds, so the seats of a process that died count as away
  three heartbeats later (away from when the others noticed). The hash
  ``hisss:away:<id>`` holds when each seat was last left, and ``hisss:first:<id>`` when anyone
  first followed the game. Each process mirrors these for
  the games it follows (read on subscribing, on each ``"presence"`` news and every heartbeat),
  so :meth:`presence` stays a quick, synchronous look-up. Times are wall-clock seconds, so the
  machines' clocks must agree (NTP).

A lost Redis connection is logged and retried; meanwhile each process still serves its own
clients from the database, and on reconnecting it catches up on every followed game.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from hisss.server.game import Presence
from hisss.server.hub import Listener, LocalHub, Step, Subscriber
from hisss.server.protocol import Message

log = logging.getLogger("hisss.server.redis")

#: Seconds between a process's renewals of its presence claims (and re-reads of others').
HEARTBEAT = 2.0
#: Seconds the presence keys of a game nobody follows any more are kept.
KEEP = 86_400
#: Seconds a Redis command may take before it counts as failed.
TIMEOUT = 5.0
#: Seconds before a lost Redis connection is tried again.
RECONNECT = 1.0

PREFIX = "hisss:"


def channel(game_id: str) -> str:
    """The pub/sub channel of a game."""
    return f"{PREFIX}game:{game_id}"


class RedisHubError(Exception):
    """Redis cannot be reached when the server starts."""


class RedisHub(LocalHub):
    """See the module docstring. ``url`` is a ``redis://`` (or ``rediss://``, ``unix://``) URL;
    ``heartbeat`` the seconds between renewals (claims expire after three)."""

    def __init__(
        self, url: str, clock: Callable[[], float] = time.time, heartbeat: float = HEARTBEAT
    ) -> None:
        super().__init__(clock)
        self.url = url
        self.heartbeat = heartbeat
        self.expiry = 3 * heartbeat
        self.process = secrets.token_hex(8)
        self._listener: Listener | None = None
        self._redis: Any = None
        self._pubsub: Any = None
        self._ops: asyncio.Queue[Callable[[], Awaitable[None]]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._running = False
        self._channels: set[str] = set()
        self._remote_here: dict[str, set[int]] = {}
        self._remote_away: dict[str, dict[int, float]] = {}
        self._remote_first: dict[str, float] = {}
        #: What each game must still catch up on ("state", "presence"), and its catch-up task.
        self._pending: dict[str, set[str]] = {}
        #: The steps the news of each game carried that it has not caught up on yet (``None``
        #: for a change that is not a step).
        self._steps: dict[str, list[Step | None]] = {}
        self._catching: dict[str, asyncio.Task[None]] = {}

    def _failed(self, message: str, *args: object) -> None:
        """Count a failed Redis call and log it as a warning."""
        self.failures += 1
        log.warning(message, *args)

    # ------------------------------------------------------------------ life

    async def start(self) -> None:
        """Connect, check that Redis answers, and start the reader and the heartbeat."""
        import redis.asyncio as aioredis  # noqa: PLC0415 - only a server with --redis needs it

        try:
            # A Redis that stops answering raises after TIMEOUT seconds instead of hanging.
            self._redis = aioredis.from_url(
                self.url,
                decode_responses=True,
                socket_timeout=TIMEOUT,
                socket_connect_timeout=TIMEOUT,
            )
            await self._redis.ping()
        except (aioredis.RedisError, OSError, ValueError) as exc:
            if self._redis is not None:
                await self._redis.aclose()
            raise RedisHubError(f"cannot use Redis at {_shown(self.url)}: {exc}") from None
        self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        self._running = True
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._work(), name="hisss-redis-ops"),
            loop.create_task(self._read(), name="hisss-redis-read"),
            loop.create_task(self._beat(), name="hisss-redis-heartbeat"),
        ]

    async def _stop_tasks(self) -> None:
        """Stop the reader, the heartbeat and the worker (a cancellation that a Redis client
        timeout swallows is repeated: the loops also stop on ``_running``)."""
        self._running = False
        pending = set(self._tasks) | set(self._catching.values())
        while pending:
            for task in pending:
                task.cancel()
            _done, pending = await asyncio.wait(pending, timeout=0.5)
        self._tasks = []
        self._catching.clear()
        self._pending.clear()

    async def stop(self) -> None:
        """Withdraw this process's presence claims and disconnect."""
        await self._stop_tasks()
        if self._redis is None:
            return
        with contextlib.suppress(Exception):
            async with asyncio.timeout(TIMEOUT):
                for game_id, seat in list(self._connections):
                    await self._redis.zrem(f"{PREFIX}here:{game_id}", f"{seat}:{self.process}")
        with contextlib.suppress(Exception):
            async with asyncio.timeout(TIMEOUT):
                await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            async with asyncio.timeout(TIMEOUT):
                await self._redis.aclose()
        self._redis = None

    @property
    def shown_url(self) -> str:
        """The Redis URL with any password hidden."""
        return _shown(self.url)

    def attach(self, listener: Listener) -> None:
        self._listener = listener

    # ------------------------------------------------------------------ the Hub interface

    def subscribe(self, game_id: str, subscriber: Subscriber) -> None:
        first = game_id not in self._subscribers
        super().subscribe(game_id, subscriber)
        if first:
            self._later(lambda: self._follow(game_id))

    def unsubscribe(self, game_id: str, subscriber: Subscriber) -> None:
        had = game_id in self._subscribers
        super().unsubscribe(game_id, subscriber)
        if had and game_id not in self._subscribers:
            self._later(lambda: self._unfollow(game_id))

    async def publish(self, game_id: str, message: Message, step: Step | None = None) -> None:
        self.deliver(game_id, message)
        news: dict[str, Any] = {"what": "state", "version": message.get("version")}
        if step is not None:
            news["step"] = step
        await self._news(game_id, news)

    def connected(self, game_id: str, seat: int) -> None:
        super().connected(game_id, seat)
        self._later(lambda: self._claim(game_id, seat))

    def disconnected(self, game_id: str, seat: int) -> None:
        super().disconnected(game_id, seat)
        self._later(lambda: self._claim(game_id, seat))

    def forget(self, game_id: str) -> None:
        super().forget(game_id)
        if game_id not in self._subscribers:
            self._steps.pop(game_id, None)
            self._remote_here.pop(game_id, None)
            self._remote_away.pop(game_id, None)
            self._remote_first.pop(game_id, None)

    def presence(self, game_id: str, players: int) -> list[Presence]:
        now = self._clock()
        first = min(self._first_seen.get(game_id, now), self._remote_first.get(game_id, now))
        here = self._remote_here.get(game_id, set())
        away = self._remote_away.get(game_id, {})
        out = []
        for seat in range(players):
            key = (game_id, seat)
            if self._connections.get(key, 0) > 0 or seat in here:
                out.append(Presence(True, None))
                continue
            times = [t for t in (self._away_since.get(key), away.get(seat)) if t is not None]
            since = max(times) if times else first
            out.append(Presence(False, round(max(0.0, now - since), 1), bool(times)))
        return out

    def sizes(self) -> dict[str, int]:
        sizes = super().sizes()
        sizes.update(
            channels=len(self._channels),
            remote=len(self._remote_here) + len(self._remote_away) + len(self._remote_first),
            catching=len(self._catching),
        )
        return sizes

    # ------------------------------------------------------------------ Redis work

    def _later(self, op: Callable[[], Awaitable[None]]) -> None:
        """Run ``op`` on the one task that talks to Redis, after those queued before it."""
        if self._redis is not None:
            self._ops.put_nowait(op)

    async def _work(self) -> None:
        while self._running:
            op = await self._ops.get()
            try:
                await op()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis is away: the heartbeat catches up later
                self._failed("redis: %s", _why(exc))

    async def _news(self, game_id: str, news: dict[str, Any]) -> None:
        if self._redis is None:
            return
        try:
            text = json.dumps({"origin": self.process, **news})
            await self._redis.publish(channel(game_id), text)
        except Exception as exc:  # the state is stored; other processes catch up later
            self._failed("redis: cannot publish news of game %s: %s", game_id, _why(exc))

    async def _follow(self, game_id: str) -> None:
        if game_id not in self._subscribers or channel(game_id) in self._channels:
            return
        await self._pubsub.subscribe(channel(game_id))
        self._channels.add(channel(game_id))
        first = self._first_seen.get(game_id, self._clock())
        await self._redis.set(f"{PREFIX}first:{game_id}", repr(first), nx=True, ex=KEEP)
        await self._mirror(game_id)
        self._hear(game_id, "state")  # whatever happened before the subscription

    async def _unfollow(self, game_id: str) -> None:
        if game_id in self._subscribers or channel(game_id) not in self._channels:
            return
        self._channels.discard(channel(game_id))
        await self._pubsub.unsubscribe(channel(game_id))

    async def _claim(self, game_id: str, seat: int) -> None:
        """Store whether this process holds ``seat`` now, and tell the others."""
        here = f"{PREFIX}here:{game_id}"
        member = f"{seat}:{self.process}"
        now = self._clock()
        if self._connections.get((game_id, seat), 0) > 0:
            await self._redis.zadd(here, {member: now + self.expiry})
            await self._redis.hdel(f"{PREFIX}away:{game_id}", str(seat))
        else:
            await self._redis.zrem(here, member)
            await self._redis.hset(f"{PREFIX}away:{game_id}", str(seat), repr(now))
        for key in (here, f"{PREFIX}away:{game_id}"):
            await self._redis.expire(key, KEEP)
        await self._news(game_id, {"what": "presence"})

    async def _mirror(self, game_id: str) -> bool:
        """Read the other processes' presence for ``game_id``; whether it changed."""
        now = self._clock()
        members = await self._redis.zrangebyscore(f"{PREFIX}here:{game_id}", now, "+inf")
        here = set()
        for member in members:
            number, _, process = str(member).partition(":")
            if process != self.process and number.isdigit():
                here.add(int(number))
        away = {
            int(k): float(v)
            for k, v in (await self._redis.hgetall(f"{PREFIX}away:{game_id}")).items()
            if str(k).isdigit()
        }
        for gone in self._remote_here.get(game_id, set()) - here:
            if gone not in away:  # its holder's claim expired: a process died
                away[gone] = now
                await self._redis.hsetnx(f"{PREFIX}away:{game_id}", str(gone), repr(now))
        first_text = await self._redis.get(f"{PREFIX}first:{game_id}")
        before = (
            self._remote_here.get(game_id),
            self._remote_away.get(game_id),
            self._remote_first.get(game_id),
        )
        if game_id not in self._subscribers:
            return False
        self._remote_here[game_id] = here
        self._remote_away[game_id] = away
        if first_text is not None:
            self._remote_first[game_id] = float(first_text)
        return before != (here, away, self._remote_first.get(game_id))

    def _hear(self, game_id: str, what: str, step: Step | None = None) -> None:
        """Have ``game_id`` catch up on ``what`` (with the ``step`` the news carried) in its own
        task (see the module docstring)."""
        self._pending.setdefault(game_id, set()).add(what)
        if what == "state":
            self._steps.setdefault(game_id, []).append(step)
        if game_id not in self._catching:
            self._catching[game_id] = asyncio.get_running_loop().create_task(
                self._catch_up(game_id), name=f"hisss-redis-catch-up-{game_id}"
            )

    async def _catch_up(self, game_id: str) -> None:
        try:
            while waiting := self._pending.pop(game_id, None):
                heard = self._steps.pop(game_id, [])
                steps = [step for step in heard if step is not None]
                if len(steps) < len(heard):  # a change that is not a step: the database tells
                    steps = []
                if "presence" in waiting:
                    await self._mirror_safely(game_id)
                for what in ("state", "presence"):
                    if what in waiting:
                        await self._tell(game_id, what, steps if what == "state" else [])
        finally:
            self._catching.pop(game_id, None)

    async def _mirror_safely(self, game_id: str) -> None:
        try:
            await self._mirror(game_id)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the heartbeat reads it again
            self._failed("redis: cannot read presence of game %s: %s", game_id, _why(exc))

    async def _tell(self, game_id: str, what: str, steps: list[Step]) -> None:
        if self._listener is not None and game_id in self._subscribers:
            try:
                await self._listener(game_id, what, steps)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("game %s: catching up on news from another process failed", game_id)

    async def _read(self) -> None:
        """Read news from the channels followed; reconnect and catch up after a failure."""
        while self._running:
            try:
                if not self._channels:
                    await asyncio.sleep(0.05)
                    continue
                message = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._failed("redis: reading news failed (%s); reconnecting", _why(exc))
                await asyncio.sleep(RECONNECT)
                await self._resubscribe()
                continue
            if message is None or message.get("type") != "message":
                continue
            try:
                news = json.loads(message["data"])
                game_id = str(message["channel"]).removeprefix(f"{PREFIX}game:")
            except (ValueError, TypeError, KeyError):
                continue
            if not isinstance(news, dict) or news.get("origin") == self.process:
                continue
            if news.get("what") == "presence":
                self._hear(game_id, "presence")
            else:
                step = news.get("step")
                self._hear(game_id, "state", step if isinstance(step, dict) else None)

    async def _resubscribe(self) -> None:
        try:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
            self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            wanted = list(self._channels)
            if wanted:
                await self._pubsub.subscribe(*wanted)
        except Exception as exc:
            self._failed("redis: resubscribing failed: %s", _why(exc))
            return
        for game_id in list(self._subscribers):
            self._hear(game_id, "state")

    async def _beat(self) -> None:
        """Renew this process's claims and re-read the others' presence."""
        while self._running:
            await asyncio.sleep(self.heartbeat)
            try:
                expiry = self._clock() + self.expiry
                for game_id, seat in list(self._connections):
                    await self._redis.zadd(
                        f"{PREFIX}here:{game_id}", {f"{seat}:{self.process}": expiry}
                    )
                for game_id in list(self._subscribers):
                    await self._redis.zremrangebyscore(
                        f"{PREFIX}here:{game_id}", "-inf", self._clock()
                    )
                    if await self._mirror(game_id):
                        await self._tell(game_id, "presence", [])
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._failed("redis: heartbeat failed: %s", _why(exc))


def _why(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


def _shown(url: str) -> str:
    """The URL with any password hidden."""
    scheme, sep, rest = url.partition("://")
    if not sep or "@" not in rest:
        return url
    auth, _, host = rest.rpartition("@")
    user = auth.partition(":")[0]
    return f"{scheme}://{user}:***@{host}" if ":" in auth else f"{scheme}://{user}@{host}"
