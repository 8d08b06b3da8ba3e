"""The parts of a game's view that live games and replays share: the table, the pits, the
scores, the result and the event of a placement, with the snakes' notation kept between views
(:class:`hisss.record.SnakeTexts`).

A view is made after every step, and a step changes one snake at most: writing the others again
was most of a view's cost, so a live game keeps their text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hisss.core import DecidedBy, Placement, Result, State
from hisss.i18n import explain_everywhere
from hisss.record import SnakeTexts, result_to_dict
from hisss.server.protocol import EventData
from hisss.storage import EntryKind


def result_view(state: State, names: Sequence[str]) -> dict[str, Any] | None:
    """The result of a finished game for messages: the record's fields (seats from 1), whether a
    tie-break settled it, and how it was decided in words, naming the seats by ``names``: in
    English (``explanation``) and in every language of the front end (``explanations``);
    ``None`` before the end."""
    if not state.is_terminal():
        return None
    result = state.result()
    out = result_to_dict(result)
    first = state.rules.scoring.measures[0]
    out["tie_break"] = result.decided_by not in (first, DecidedBy.TARGET)
    out["explanations"] = explain_everywhere(result, state.rules, names)
    out["explanation"] = out["explanations"]["en"]
    return out


def table_view(state: State, result: Result, texts: SnakeTexts | None = None) -> dict[str, Any]:
    """The table, pits, scores and cards left of a position: the part of a view that live
    games and replays share (``texts``: the snakes' notation kept by a live game)."""
    texts = texts if texts is not None else SnakeTexts()
    table = texts.of(state.table)
    pits = [texts.of(pit) for pit in state.pits]
    texts.done()
    return {
        "table": table,
        "pits": pits,
        "scores": [
            {"cards": c, "snakes": n, "longest": g}
            for c, n, g in zip(result.cards, result.snakes, result.longest, strict=True)
        ],
        "cards_left": state.remaining,
    }


def state_view(
    state: State, step: int, steps: int, event: EventData | None, names: Sequence[str]
) -> dict[str, Any]:
    """The view of a replay position: after ``step`` of ``steps`` placements, the seats named
    ``names``."""
    result = state.result()
    return {
        "step": step,
        "steps": steps,
        **table_view(state, result),
        "drawn": str(state.drawn) if state.drawn is not None else None,
        "last_event": event,
        "result": result_view(state, names),
    }


def play_event(seq: int, placement: Placement) -> EventData:
    """The ``last_event`` of a placement: who placed which card where, and the snake claimed."""
    claimed = str(placement.claimed) if placement.claimed is not None else None
    return {
        "seq": seq,
        "kind": EntryKind.PLAY.value,
        "seat": placement.seat + 1,
        "card": str(placement.card),
        "action": str(placement.action),
        "claimed": claimed,
        "hisss": claimed is not None,
    }
