"""Publishing game updates to the connections that follow a game, and who is connected.

Every new state of a game leaves the server through one call, :meth:`Hub.publish`; each
websocket session is a :class:`Subscriber` of its game. :class:`LocalHub` delivers within this
process. A hub that fans out between processes (Redis pub/sub) implements the same interface:
``publish`` sends to the channel of the game and each process delivers to its own subscribers
(and drops its cached copy of the game, which is then behind: see
:meth:`hisss.server.service.GameService.evict`); presence then lives in the shared store too.

Presence: a seat is *connected* while at least one authenticated session holds it. A seat that
never connected since this process started counts as away since the process first looked at the
game, so that nobody waits forever for a player who never came (after a restart every seat is
away from the restart on).
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, Protocol

from hisss.server.game import Presence


class Subscriber(Protocol):
    """A receiver of a game's messages (a websocket session)."""

    def deliver(self, message: dict[str, Any]) -> None:
        """Queue ``message`` for sending; must not block."""


class Hub(ABC):
    """Publishes game messages to subscribers and tracks which seats are connected."""

    @abstractmethod
    def subscribe(self, game_id: str, subscriber: Subscriber) -> None:
        """Start delivering ``game_id``'s messages to ``subscriber``."""

    @abstractmethod
    def unsubscribe(self, game_id: str, subscriber: Subscriber) -> None:
        """Stop delivering to ``subscriber`` (nothing happens if it was not subscribed)."""

    @abstractmethod
    async def publish(self, game_id: str, message: dict[str, Any]) -> None:
        """Deliver ``message`` to every subscriber of ``game_id``."""

    @abstractmethod
    def connected(self, game_id: str, seat: int) -> None:
        """A session now holds ``seat`` (from 0)."""

    @abstractmethod
    def disconnected(self, game_id: str, seat: int) -> None:
        """A session holding ``seat`` ended."""

    @abstractmethod
    def presence(self, game_id: str, players: int) -> list[Presence]:
        """Each seat's presence, in seat order."""

    @abstractmethod
    def subscribers(self, game_id: str) -> int:
        """The number of subscribers of ``game_id`` in this process."""


class LocalHub(Hub):
    """The in-process hub. ``clock`` gives seconds (monotonic); tests pass their own."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._subscribers: dict[str, set[Subscriber]] = {}
        self._connections: dict[tuple[str, int], int] = {}
        self._away_since: dict[tuple[str, int], float] = {}
        self._first_seen: dict[str, float] = {}

    def subscribe(self, game_id: str, subscriber: Subscriber) -> None:
        self._subscribers.setdefault(game_id, set()).add(subscriber)

    def unsubscribe(self, game_id: str, subscriber: Subscriber) -> None:
        subscribers = self._subscribers.get(game_id)
        if subscribers is not None:
            subscribers.discard(subscriber)
            if not subscribers:
                del self._subscribers[game_id]

    async def publish(self, game_id: str, message: dict[str, Any]) -> None:
        for subscriber in list(self._subscribers.get(game_id, ())):
            subscriber.deliver(message)

    def subscribers(self, game_id: str) -> int:
        return len(self._subscribers.get(game_id, ()))

    def connected(self, game_id: str, seat: int) -> None:
        key = (game_id, seat)
        self._connections[key] = self._connections.get(key, 0) + 1
        self._away_since.pop(key, None)

    def disconnected(self, game_id: str, seat: int) -> None:
        key = (game_id, seat)
        left = self._connections.get(key, 0) - 1
        if left > 0:
            self._connections[key] = left
        else:
            self._connections.pop(key, None)
            self._away_since[key] = self._clock()

    def presence(self, game_id: str, players: int) -> list[Presence]:
        now = self._clock()
        first = self._first_seen.setdefault(game_id, now)
        out = []
        for seat in range(players):
            key = (game_id, seat)
            if self._connections.get(key, 0) > 0:
                out.append(Presence(True, None))
            else:
                since = self._away_since.get(key, first)
                out.append(Presence(False, round(now - since, 1)))
        return out

    def forget(self, game_id: str) -> None:
        """Drop what is known of a finished game's presence."""
        self._first_seen.pop(game_id, None)
        for key in [k for k in self._away_since if k[0] == game_id]:
            del self._away_since[key]
