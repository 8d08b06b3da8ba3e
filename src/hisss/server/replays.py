"""Game records on the server: checking uploads, and stepping through a game turn by turn.

An uploaded record is read with :meth:`hisss.record.GameRecord.from_json` and checked with
:func:`hisss.record.replay`; either failure becomes a ``bad_record`` error that names the field or
the turn and the reason. A checked record can then be viewed after any number of turns.
"""

from __future__ import annotations

from typing import Any

from hisss.core import HisssError, new_game
from hisss.record import GameRecord, RecordError, ReplayError, replay
from hisss.server.errors import ProtocolError
from hisss.server.game import state_view


def check_record(text: str) -> GameRecord:
    """The record of ``text`` once it is known to be a game played by the rules."""
    try:
        record = GameRecord.from_json(text)
    except RecordError as exc:
        raise ProtocolError(
            "bad_record", str(exc), field=exc.field or None, line=exc.line
        ) from None
    try:
        record.to_json().encode("utf-8")
    except UnicodeEncodeError:
        raise ProtocolError(
            "bad_record",
            "the record holds a lone UTF-16 surrogate (an escape such as \\ud800 that is no "
            "character): names must be text",
        ) from None
    try:
        replay(record)
    except ReplayError as exc:
        raise ProtocolError("bad_record", str(exc), turn=exc.turn) from None
    except HisssError as exc:  # pragma: no cover - replay reports rule errors as ReplayError
        raise ProtocolError("bad_record", str(exc)) from None
    return record


def record_summary(record: GameRecord) -> dict[str, Any]:
    """What a replay is: seats, rules, deck, number of steps, result."""
    return {
        "seats": list(record.seats),
        "players": record.players,
        "rules": record.rules.to_mapping(),
        "deck": record.deck.name,
        "steps": len(record.turns),
        "finished": record.result is not None,
        "result": record.result,
    }


def step(record: GameRecord, number: object) -> dict[str, Any]:
    """The position after turn ``number`` (0: the starter alone) of a checked record."""
    steps = len(record.turns)
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= steps:
        raise ProtocolError("bad_step", f"the steps of this game are 0 to {steps}, not {number}")
    state = new_game(record.players, record.rules, record.deck)
    if record.cards:
        state.draw(record.cards[0])
    event: dict[str, Any] | None = (
        {"seq": 0, "kind": "starter", "card": str(record.cards[0])} if record.cards else None
    )
    for index, turn in enumerate(record.turns[:number], 1):
        state.draw(record.cards[index])
        before = len(state.pits[turn.player])
        state.apply(turn.action)
        pit = state.pits[turn.player]
        claimed = str(pit[-1]) if len(pit) > before else None
        event = {
            "seq": index,
            "kind": "play",
            "seat": turn.player + 1,
            "card": str(turn.card),
            "action": str(turn.action),
            "claimed": claimed,
            "hisss": claimed is not None,
        }
    view = state_view(state, number, steps, event, record.seats)
    view["seats"] = list(record.seats)
    view["to_move"] = None if state.is_terminal() else state.to_move + 1
    return view
