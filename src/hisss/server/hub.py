"""Publishing game updates to the connections that follow a game, and who is connected.

Every new state of a game leaves the server through one call, :meth:`Hub.publish`; each
websocket session is a :class:`Subscriber` of its game. :class:`LocalHub` delivers within this
process. :class:`hisss.server.redis_hub.RedisHub` also fans out between processes: ``publish``
delivers here and says on the game's Redis channel "game X is at version N"; every other
process following the game calls back :meth:`Hub.attach`'s listener, which brings its copy of the
game up to date from the database and hands each new state to :meth:`Hub.deliver`. Presence then
lives in Redis too.

Presence: a seat is *connected* while at least one authenticated session holds it. A seat that
never connected since this process started counts as away since the game's first subscriber
(or seat holder) here arrived, so that nobody waits forever for a player who never came (after a
restart every seat is away from the restart on); it has not *arrived*, and the service lets it
wait longer (``unseen_seconds``) than a seat whose holder came and went (``away_seconds``).
What is known of a game's presence is forgotten when its last subscriber here leaves, so memory
does not grow with the games ever played.

A published message is handed to every subscriber as one :class:`Outgoing`, encoded to JSON
once however many connections send it (and once more without its log, see :func:`without_log`).
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

import orjson

from hisss.server.game import Presence
from hisss.server.protocol import Message
from hisss.storage import EntryKind, LogEntry


class Outgoing(dict[str, Any]):
    """A message handed to every subscriber of a game: its JSON text is made once, by the first
    connection that sends it, and shared by the others. Nobody changes a message once it is
    handed out.

    >>> message = Outgoing({"type": "state", "version": 3})
    >>> message.text(), message.text() is message.text()
    ('{"type":"state","version":3}', True)
    """

    __slots__ = ("_short", "_text")

    def text(self) -> str:
        """The message as compact JSON."""
        try:
            return self._text
        except AttributeError:
            self._text: str = _dumps(self)
            return self._text

    def without_log(self) -> Outgoing:
        """The message without its ``log``, made once for every connection that sends it so.

        >>> message = Outgoing({"type": "state", "version": 3, "log": [{"seq": 1}]})
        >>> message.without_log().text(), message.without_log() is message.without_log()
        ('{"type":"state","version":3}', True)
        """
        try:
            return self._short
        except AttributeError:
            self._short: Outgoing = Outgoing(_drop_log(self))
            return self._short


def without_log(message: Message) -> Message:
    """A state message without its ``log``: for a connection that was sent the state before it
    (see :class:`hisss.server.session.Session`), which adds the step itself.

    >>> without_log({"type": "state", "version": 2, "log": []})
    {'type': 'state', 'version': 2}
    """
    if isinstance(message, Outgoing):
        return message.without_log()
    return _drop_log(message)


def _drop_log(message: Message) -> Message:
    return {key: value for key, value in message.items() if key != "log"}


def encode(message: Message) -> str:
    """A message as the server sends it: compact JSON in UTF-8 (the text of an
    :class:`Outgoing`, made once).

    >>> encode({"type": "pong", "data": 1, "name": "Łucja"})
    '{"type":"pong","data":1,"name":"Łucja"}'
    """
    if isinstance(message, Outgoing):
        return message.text()
    return _dumps(message)


def _dumps(message: Message) -> str:
    # orjson writes the same JSON as the standard library's compact form (keys in their order,
    # text as UTF-8 rather than escaped) about ten times faster; a state is encoded per step.
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


class Subscriber(Protocol):
    """A receiver of a game's messages (a websocket session)."""

    def deliver(self, message: Message) -> None:
        """Queue ``message`` for sending; must not block."""


#: A step of a game's log as news carries it: the fields of
#: :class:`~hisss.storage.LogEntry` as JSON values (``kind`` as text, no ``created_at``).
Step = dict[str, Any]


def following(version: int, steps: Sequence[Step]) -> list[LogEntry] | None:
    """The log entries of ``steps`` that follow a game at ``version`` (those it has left out),
    or ``None`` when there are none, one is malformed, or they leave a gap: then the database
    must tell what changed."""
    try:
        entries = [
            LogEntry(
                int(step["seq"]),
                EntryKind(step["kind"]),
                step["seat"],
                step["action"],
                step["card"],
                step["by_seat"],
            )
            for step in steps
        ]
    except (KeyError, TypeError, ValueError):
        return None
    entries = [entry for entry in entries if entry.seq > version]
    if not entries or any(entry.seq != version + 1 + i for i, entry in enumerate(entries)):
        return None
    return entries


#: Called by a hub when another process changed a game: ``(game_id, what, steps)``, where
#: ``what`` is ``"state"`` (a new version or seats) or ``"presence"``, and ``steps`` the steps the
#: news carried, in order (none when a change is not a step of the log: then the database
#: tells).
Listener = Callable[[str, str, list[Step]], Awaitable[None]]


class Hub(ABC):
    """Publishes game messages to subscribers and tracks which seats are connected."""

    #: Calls to what the hub shares state through that failed (the server's metrics show it).
    failures = 0

    @abstractmethod
    async def start(self) -> None:
        """Connect to whatever the hub shares state through."""

    @abstractmethod
    async def stop(self) -> None:
        """Disconnect."""

    @abstractmethod
    def attach(self, listener: Listener) -> None:
        """Call ``listener`` when another process changes a game followed here."""

    @abstractmethod
    def subscribe(self, game_id: str, subscriber: Subscriber) -> None:
        """Start delivering ``game_id``'s messages to ``subscriber``."""

    @abstractmethod
    def unsubscribe(self, game_id: str, subscriber: Subscriber) -> None:
        """Stop delivering to ``subscriber`` (nothing happens if it was not subscribed)."""

    @abstractmethod
    async def publish(self, game_id: str, message: Message, step: Step | None = None) -> None:
        """Deliver ``message`` to every subscriber of ``game_id``, in every process; ``step`` is
        the stored step that made it, which other processes may apply without reading it."""

    @abstractmethod
    def deliver(self, game_id: str, message: Message) -> None:
        """Deliver ``message`` to the subscribers of ``game_id`` in this process only."""

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

    async def start(self) -> None:
        """Nothing to connect to."""

    async def stop(self) -> None:
        """Nothing to disconnect."""

    def attach(self, listener: Listener) -> None:
        """No other process: the listener is never called."""

    def subscribe(self, game_id: str, subscriber: Subscriber) -> None:
        self._subscribers.setdefault(game_id, set()).add(subscriber)
        self._first_seen.setdefault(game_id, self._clock())

    def unsubscribe(self, game_id: str, subscriber: Subscriber) -> None:
        subscribers = self._subscribers.get(game_id)
        if subscribers is not None:
            subscribers.discard(subscriber)
            if not subscribers:
                del self._subscribers[game_id]
                self.forget(game_id)

    async def publish(self, game_id: str, message: Message, step: Step | None = None) -> None:
        self.deliver(game_id, message)

    def deliver(self, game_id: str, message: Message) -> None:
        subscribers = self._subscribers.get(game_id)
        if not subscribers:
            return
        shared = Outgoing(message)
        for subscriber in list(subscribers):
            subscriber.deliver(shared)

    def subscribers(self, game_id: str) -> int:
        return len(self._subscribers.get(game_id, ()))

    def connected(self, game_id: str, seat: int) -> None:
        key = (game_id, seat)
        self._connections[key] = self._connections.get(key, 0) + 1
        self._away_since.pop(key, None)
        self._first_seen.setdefault(game_id, self._clock())

    def disconnected(self, game_id: str, seat: int) -> None:
        key = (game_id, seat)
        left = self._connections.get(key, 0) - 1
        if left > 0:
            self._connections[key] = left
        else:
            self._connections.pop(key, None)
            if game_id in self._subscribers:
                self._away_since[key] = self._clock()
            else:
                self.forget(game_id)

    def presence(self, game_id: str, players: int) -> list[Presence]:
        now = self._clock()
        first = self._first_seen.get(game_id, now)
        out = []
        for seat in range(players):
            key = (game_id, seat)
            if self._connections.get(key, 0) > 0:
                out.append(Presence(True, None))
            else:
                since = self._away_since.get(key)
                away = now - (first if since is None else since)
                out.append(Presence(False, round(away, 1), since is not None))
        return out

    def forget(self, game_id: str) -> None:
        """Drop what is known of the presence of a game nobody here follows any more (seats
        still held by a session are kept)."""
        if any(k[0] == game_id for k in self._connections):
            return
        self._first_seen.pop(game_id, None)
        for key in [k for k in self._away_since if k[0] == game_id]:
            del self._away_since[key]

    def sizes(self) -> dict[str, int]:
        """How many entries each of the hub's tables holds (to check that none grows)."""
        return {
            "subscribers": len(self._subscribers),
            "connections": len(self._connections),
            "away_since": len(self._away_since),
            "first_seen": len(self._first_seen),
        }
