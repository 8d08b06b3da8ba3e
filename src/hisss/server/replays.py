"""Game records on the server: checking uploads, and stepping through a game turn by turn.

An uploaded record is read with :meth:`hisss.record.GameRecord.from_json` and checked with
:func:`hisss.record.replay`; either failure becomes a ``bad_record`` error that names the field,
the line and column, or the turn and what is wrong there (``kind``: the card order, the result,
a move...), and the reason. A checked record can then be viewed after any number of turns, replayed
through the game driver.
"""

from __future__ import annotations

from typing import Any

from hisss.core import HisssError
from hisss.record import GameRecord, RecordError, ReplayError, replay, replay_game
from hisss.server.errors import ErrorCode, ProtocolError
from hisss.server.protocol import EventData, Message
from hisss.server.views import play_event, state_view
from hisss.storage import EntryKind


def check_record(text: str) -> GameRecord:
    """The record of ``text`` once it is known to be a game played by the rules."""
    try:
        record = GameRecord.from_json(text)
    except RecordError as exc:
        raise ProtocolError(
            ErrorCode.BAD_RECORD,
            str(exc),
            field=exc.field or None,
            line=exc.line,
            column=exc.column,
        ) from None
    try:
        replay(record)
    except ReplayError as exc:
        raise ProtocolError(ErrorCode.BAD_RECORD, str(exc), turn=exc.turn, kind=exc.kind) from None
    except HisssError as exc:  # pragma: no cover - replay reports rule errors as ReplayError
        raise ProtocolError(ErrorCode.BAD_RECORD, str(exc)) from None
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


def step(record: GameRecord, number: object) -> Message:
    """The position after turn ``number`` (0: the starter alone) of a checked record."""
    steps = len(record.turns)
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= steps:
        raise ProtocolError(
            ErrorCode.BAD_STEP, f"the steps of this game are 0 to {steps}, not {number}"
        )
    try:
        game = replay_game(record, turns=number)
    except ReplayError as exc:  # pragma: no cover - the record was checked when it came in
        raise ProtocolError(ErrorCode.BAD_RECORD, str(exc), turn=exc.turn) from None
    last = game.last
    event: EventData | None
    if last is not None:
        event = play_event(number, last)
    elif record.cards:
        event = {"seq": 0, "kind": EntryKind.STARTER.value, "card": str(record.cards[0])}
    else:
        event = None
    view = state_view(game.state, number, steps, event, record.seats)
    view["seats"] = list(record.seats)
    view["to_move"] = None if game.is_over() else game.state.to_move + 1
    if game.state.hand_sizes:
        # A record of the hand variant holds every hand: a replay shows them all.
        hands = [game.view(seat).hand for seat in range(game.players)]
        view["hands"] = [[str(card) for card in hand] for hand in hands]
        view["hand_sizes"] = [len(hand) for hand in hands]
    return view
