"""The lobby's lists: which games they show and how each is shown.

The lobby lists public games only (a game is private unless its creator makes it public; its
links still find it). A running game leaves the list of games being played once nobody has
followed it for a while: when no seat is connected and its last step is older than
``idle_seconds`` (:class:`~hisss.server.settings.Settings`), so an abandoned game does not stay
there forever. It comes back as soon as someone plays on.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from hisss.core import Rules
from hisss.server.game import Presence, seat_view
from hisss.storage import GameStatus, StoredGame


def is_listed(game: StoredGame, presence: Sequence[Presence], now: datetime, idle: float) -> bool:
    """Whether the lobby shows ``game``: every public game but a running one that nobody
    follows and that has not moved for ``idle`` seconds."""
    if not game.public:
        return False
    if game.status is not GameStatus.RUNNING:
        return True
    someone = any(p.connected for p, s in zip(presence, game.seats, strict=True) if not s.is_bot)
    return someone or (now - game.updated_at).total_seconds() < idle


def listing(game: StoredGame, presence: Sequence[Presence]) -> dict[str, Any]:
    """A game as the lobby's lists show it: seats and result, no state."""
    return {
        "id": game.id,
        "code": game.code,
        "title": game.title,
        "status": game.status.value,
        "version": game.version,
        "preset": Rules.from_mapping(game.rules).preset,
        "deck": game.deck.get("name"),
        "players": game.players,
        "pace": game.pace,
        "seats": [seat_view(i, s, presence[i]) for i, s in enumerate(game.seats)],
        "open_seats": [i + 1 for i, s in enumerate(game.seats) if s.open],
        "created_at": game.created_at.isoformat(),
        "updated_at": game.updated_at.isoformat(),
        "result": game.result,
    }
