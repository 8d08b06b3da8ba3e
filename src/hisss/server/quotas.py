"""Quotas of the websocket sessions: connections per client address, spectators per game, the
hint budgets of seats and addresses, and the one log line a minute about refused or closed
connections; and a bot's pace, which tells nothing of its thinking."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter

from hisss.bots.turns import Draw, Turn
from hisss.core import Action, State
from hisss.server.errors import ErrorCode, ProtocolError
from hisss.server.limits import ClientBuckets
from hisss.server.settings import Settings

log = logging.getLogger("hisss.server")


async def think_at_pace(step: Draw | Turn, thinking: State | None, delay: float) -> Action | None:
    """The placement a bot's ``step`` of the bots' turn loop chooses in ``thinking``, a copy of
    the position (a :class:`~hisss.bots.turns.Turn`'s decision, on a worker thread; a
    :class:`~hisss.bots.turns.Draw` has nothing to think), shown ``delay`` seconds after its turn
    began, however long it thought (longer only when it thought longer than that). The choice
    depends on the game's seed and the turn alone, so a game rebuilt after a restart makes the
    same. A pause of the delay plus the thinking would tell a watcher how many plays the bot's
    hidden hand offered."""
    began = time.monotonic()
    choice = None
    if isinstance(step, Turn) and thinking is not None:
        choice, _ = await asyncio.to_thread(step.decide, thinking)
    left = delay - (time.monotonic() - began)
    if left > 0:
        await asyncio.sleep(left)
    return choice


class Quotas:
    """The counts and budgets of one server process."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        #: Open websocket connections per client address, and spectators per game.
        self._connections: Counter[str] = Counter()
        self._spectators: Counter[str] = Counter()
        #: Hint budgets per seat (game id and seat) and per client address.
        self._seat_hints = ClientBuckets(settings.hint_burst, settings.hint_rate_per_second)
        self._address_hints = ClientBuckets(
            settings.hint_burst * 2, settings.hint_rate_per_second * 2
        )
        #: One hint is thought about at a time, on a thread of its own (off the event loop).
        self.thinking = asyncio.Semaphore(1)
        #: Connections closed by the server, by reason, logged at most once a minute.
        self._closed: Counter[str] = Counter()
        self._closed_reported = time.monotonic()

    def check_hint(self, game_id: str, seat: int, address: str) -> None:
        """Take a hint from the budgets of the seat and of the address; raises
        :class:`ProtocolError` (``rate_limited``) when either is spent."""
        if not self._seat_hints.take(f"{game_id}/{seat}") or not self._address_hints.take(address):
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                f"at most {self.settings.hint_burst} hints at once, then one every "
                f"{1 / max(self.settings.hint_rate_per_second, 1e-9):g} seconds",
            )

    def connection_opened(self, address: str) -> bool:
        """Count a websocket connection from ``address``; False (counted all the same) when the
        address has as many as it may."""
        self._connections[address] += 1
        if self._connections[address] > self.settings.max_connections_per_address:
            self.connections_closed("too many connections from one address")
            return False
        return True

    def connection_closed(self, address: str) -> None:
        """A websocket connection from ``address`` ended."""
        self._connections[address] -= 1
        if self._connections[address] <= 0:
            del self._connections[address]

    def spectator_joined(self, game_id: str) -> bool:
        """Count a spectator of ``game_id``; False (not counted) when the game has as many as
        it may."""
        if self._spectators[game_id] >= self.settings.max_spectators:
            self.connections_closed("too many spectators")
            return False
        self._spectators[game_id] += 1
        return True

    def spectator_left(self, game_id: str) -> None:
        """A spectator of ``game_id`` left."""
        self._spectators[game_id] -= 1
        if self._spectators[game_id] <= 0:
            del self._spectators[game_id]

    def connections_closed(self, reason: str) -> None:
        """Count a connection refused or closed by the server: one log line a minute says how
        many and why (a client closed again and again must not flood the log)."""
        self._closed[reason] += 1
        now = time.monotonic()
        if now - self._closed_reported >= 60 or sum(self._closed.values()) == 1:
            summary = ", ".join(f"{n} {why}" for why, n in sorted(self._closed.items()))
            log.info("connections refused or closed: %s", summary)
            self._closed_reported = now
            self._closed.clear()
