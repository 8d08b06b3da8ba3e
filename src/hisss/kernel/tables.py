"""The arrays the compiled code takes, made from the core's rules, cards and positions.

A card is its code (0 to 28, as in :mod:`hisss.core.cards`); ``cards`` is three arrays indexed by
code (:func:`card_arrays`); ``game`` a tuple of the rule options the steps read
(:func:`game_tuple`).
A position (:func:`position`) is the table as :mod:`hisss.kernel.steps` keeps it, one column per
snake, with the pits and the unseen cards.

>>> from hisss.core import new_game, parse_card
>>> s = new_game(3)
>>> s.draw(parse_card("H:red"))
>>> s.draw(parse_card("M:red-orange"))
>>> table, size, drawn, counts, pits = position(s)
>>> size, drawn == parse_card("M:red-orange").code, int(counts.sum()), pits.shape
(1, True, 48, (3, 3))
>>> table[:, 0].tolist()  # closed by a head on the left, red on the right, one card long
[7, 0, 0, 0, 1]
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from hisss.core import WILD, Card, CardKind, JoinClaim, Rules, Scoring, State
from hisss.core.cards import ALL_CARDS
from hisss.core.snake import EndColour

#: The scoring rules' codes in the compiled code.
SCORING_CODE = {Scoring.CARDS: 0, Scoring.SNAKES: 1, Scoring.LONGEST: 2, Scoring.FIRST_TO: 3}
#: End colours beyond the six of the wheel: a lone wild neck, and an end closed by a head or tail.
WILD_END = 6
CLOSED = 7
_KIND = {CardKind.HEAD: 0, CardKind.TAIL: 1, CardKind.MID: 2}


def _colour_code(card: Card, which: str) -> int:
    colour = getattr(card, which)
    return WILD_END if colour is None else int(colour.index)


def card_tables() -> tuple[list[int], list[int], list[int]]:
    """Per card code: the kind (0 head, 1 tail, 2 mid), colour a (6: wild) and colour b."""
    kind = [_KIND[c.kind] for c in ALL_CARDS]
    a = [_colour_code(c, "a") for c in ALL_CARDS]
    b = [_colour_code(c, "b") if c.kind is CardKind.MID else 0 for c in ALL_CARDS]
    return kind, a, b


@cache
def card_arrays() -> tuple[Any, Any, Any]:
    """The compiled code's ``cards`` tuple: :func:`card_tables` as arrays (made once; not to be
    written to)."""
    kind, a, b = card_tables()
    return np.array(kind, dtype=np.int64), np.array(a, dtype=np.int64), np.array(b, dtype=np.int64)


def game_tuple(players: int, rules: Rules) -> tuple[int, bool, bool, int, int]:
    """The compiled code's ``game`` tuple: players, forced placement, every join claimed, the
    scoring's code and the target."""
    return (
        players,
        rules.forced_placement,
        rules.join_claim is JoinClaim.ALWAYS,
        SCORING_CODE[rules.scoring],
        rules.target,
    )


def _end(colour: EndColour) -> int:
    if colour is None:
        return CLOSED
    if colour is WILD:
        return WILD_END
    return int(colour.index)


def position(state: State) -> tuple[Any, int, int, Any, Any]:
    """The position of a placement decision as arrays: ``(table, size, drawn, counts, pits)``.

    ``table`` has a column per snake (rows: left and right end colour, left and right card kind,
    length), ``drawn`` is the drawn card's code, ``counts`` the copies of each card code still to
    be drawn, and ``pits`` the cards, snakes and longest snake of each seat's pit (rows).
    """
    if state.drawn is None:
        raise ValueError(f"no card is waiting to be placed ({state.describe()})")
    size = len(state.table)
    table = np.zeros((5, max(size, 1)), dtype=np.int64)
    for i, snake in enumerate(state.table):
        table[0, i] = _end(snake.path[0])
        table[1, i] = _end(snake.path[-1])
        table[2, i] = _KIND[snake.cards[0].kind]
        table[3, i] = _KIND[snake.cards[-1].kind]
        table[4, i] = len(snake.cards)
    counts = np.zeros(len(ALL_CARDS), dtype=np.int64)
    for card, n in state.remaining_counts().items():
        counts[card.code] = n
    pits = np.zeros((3, state.players), dtype=np.int64)
    for seat, pit in enumerate(state.pits):
        pits[0, seat] = sum(len(s.cards) for s in pit)
        pits[1, seat] = len(pit)
        pits[2, seat] = max((len(s.cards) for s in pit), default=0)
    return table, size, state.drawn.code, counts, pits
