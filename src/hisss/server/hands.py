"""The hand variant on the server: each state message built per seat from the seat's view.

A game of the hand variant (``Rules.hand_size``) is built once per step, like any other, by
:meth:`hisss.server.game.LiveGame.view`; its hand fields come from :func:`hand_fields`. The public
part holds every seat's hand size and, only when hands are seen by all, the hands themselves;
each seat's own part (its hand, and on its turn its legal plays and what each claims), made from
:meth:`hisss.record.Game.view`, waits under :data:`PRIVATE`. A connection sends a state only
after :func:`for_seats` has kept the parts of the seats it holds (none for a spectator) and dropped
the rest, so a hidden card goes to its holder's connections alone.

Which levels play a game's rules the bots say (:func:`hisss.bots.levels_for`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hisss.bots import check_level as check_bot_level
from hisss.bots.features import claim_of
from hisss.core import ConfigError, Rules
from hisss.record import Game
from hisss.server.errors import ErrorCode, ProtocolError
from hisss.server.protocol import Message

#: The key of a state message under which each seat's own part waits (keyed by the seat from 0,
#: as text); never sent to a client.
PRIVATE = "private"


def check_level(rules: Rules, level: str, where: str = "") -> None:
    """Raise ``bad_level`` when the bot level ``level`` does not play a game with ``rules``
    (``where`` begins the message, as ``"seat 2: "``); the bots answer
    (:func:`hisss.bots.check_level`)."""
    try:
        check_bot_level(rules, level)
    except ConfigError as error:
        raise ProtocolError(ErrorCode.BAD_LEVEL, f"{where}{error}") from None


def hand_fields(game: Game, *, playing: bool) -> Message:
    """The hand fields of a state message of ``game`` (the hand variant): the hand sizes, the
    hands seen by all (else ``None`` for each), and under :data:`PRIVATE` each seat's own hand
    with, while ``playing``, its legal plays and their claims."""
    players = game.players
    views = [game.view(seat) for seat in range(players)]
    seen_by_all = game.rules.hands_seen_by_all
    private: dict[str, dict[str, Any]] = {}
    for seat, view in enumerate(views):
        legal: list[str] = []
        claims: dict[str, int] = {}
        if playing and view.to_move == seat:  # one position from the view serves both
            known = view.known()
            for action in known.legal_actions():
                legal.append(str(action))
                if n := claim_of(known, action):
                    claims[str(action)] = n
        private[str(seat)] = {
            "hand": [str(card) for card in view.hand],
            "legal": legal,
            "claims": claims,
        }
    return {
        "hand_size": game.rules.hand_size,
        "hands_seen_by_all": seen_by_all,
        "hand_sizes": list(views[0].hand_sizes),
        "hands": [private[str(seat)]["hand"] if seen_by_all else None for seat in range(players)],
        "legal": [],
        "claims": {},
        PRIVATE: private,
    }


def for_seats(message: Message, seats: Sequence[int]) -> Message:
    """``message`` as a connection holding ``seats`` (from 0; none for a spectator or the HTTP
    API) may see it: the :data:`PRIVATE` parts of those seats merged in, every other dropped.
    A message without private parts is returned as it is."""
    private = message.get(PRIVATE)
    if private is None:
        return message
    out = {key: value for key, value in message.items() if key != PRIVATE}
    hands = list(out["hands"])
    legal: list[str] = []
    claims: dict[str, int] = {}
    for seat in seats:
        part = private[str(seat)]
        hands[seat] = part["hand"]
        legal.extend(part["legal"])
        claims.update(part["claims"])
    out.update(hands=hands, legal=legal, claims=claims)
    return out


__all__ = ["PRIVATE", "check_level", "for_seats", "hand_fields"]
