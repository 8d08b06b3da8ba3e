"""A static evaluation of a Hisss position: each seat's expected final score.

Objective
---------
The evaluation estimates, for every seat, the *expected final measure* of the scoring in force
(cards in the pit under the default scoring) and a seat's value is its **expected final margin**:
its own estimate minus the best opponent's. For two players this is the expected difference of
cards at the end. The margin was chosen over a win probability for the heuristic part of the
search because (a) every claim changes it in proportion to the cards at stake, so the search
keeps a gradient when a game is already clearly won or lost, (b) it is what the features below
estimate directly, as sums of cards, and (c) it needs no model of the spread of the rest of the
game. Win probability, which is what tournaments count, is the objective of the exact endgame
solver (:mod:`hisss.bots.endgame`), which takes over once few cards remain and where the
difference matters most.

The estimate
------------
Let ``X`` be the seat that draws next and ``R`` the number of cards left. For every seat ``s``::

    value[s] = pit[s]                                    # what is already banked
             + w_now  * [s == X] * E1                    # X's expected immediate claim
             + w_race * sum over waiting snakes S of  size(S) * (q_s(S) - 1/n)

* ``pit[s]`` is the seat's score so far in the scoring's measure (cards; snakes for the snakes
  scoring).
* ``E1`` is the exact expected size of what ``X`` can claim with the very next card: for every
  remaining card (weighted by its copies left over ``R``) the largest snake that card completes,
  by capping a head or tail onto a waiting snake or by joining a snake with a head to one with a
  tail (under the ``pl`` rules, any join). It is computed from the open ends of the table, not by
  playing the cards, so it costs a few microseconds.
* A *waiting* snake is one that a single card completes: a snake with a head (and a mid-section)
  waits for a tail of its open colour or the wild tail, and one with a tail for a matching head.
  With ``k`` such cards among the ``R`` left, the first of them is the ``i``-th card drawn with
  probability ``C(R - i, k - 1) / C(R, k)``, and the ``i``-th card is drawn by seat
  ``X + i - 1`` (mod ``n``): this gives ``q_s(S)``, the chance that seat ``s`` is the one to draw
  it first, *given the exact remaining cards and the turn order*. The snake is worth
  ``size(S)`` = its cards plus the one that completes it; the term is centred on the fair share
  ``1/n`` so that it moves only the margins.
* Snakes no single card completes (mid-sections only, a lone head or tail, or a snake whose
  completing cards are all gone) are shared evenly in expectation and do not move the margins.

The weights are ``w_now = 0.8`` and ``w_race = 0.6`` (:data:`DEFAULT_WEIGHTS`). A waiting
snake does not stay as it is (other cards extend it, change its colour, or take its completing
card elsewhere), so both are below one; how they were fitted and how little the choice matters
in play is in ``docs/strategy.md``. The margin at the end of the game is exact: at a terminal
position the value is the final score.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import comb

from hisss.core import WHEEL, WILD, Card, CardKind, JoinClaim, Scoring, State
from hisss.core.cards import CARD_KINDS

_HEAD = CardKind.HEAD
_TAIL = CardKind.TAIL
_MID = CardKind.MID

#: ``HEAD_CODE[i]`` is the code of the head of colour ``WHEEL[i]``; index 6 is the wild head.
HEAD_CODE: tuple[int, ...] = tuple(Card.head(c).code for c in (*WHEEL, None))
#: Likewise for tails.
TAIL_CODE: tuple[int, ...] = tuple(Card.tail(c).code for c in (*WHEEL, None))
#: Every mid-section as (code, colour index, colour index).
MIDS: tuple[tuple[int, int, int], ...] = tuple(
    (Card.mid(WHEEL[i], WHEEL[j]).code, i, j) for i in range(6) for j in range(i + 1, 6)
)
_COLOUR_INDEX = {c: i for i, c in enumerate(WHEEL)}
_WILD_INDEX = 6
_SLOT: dict[object, int] = {c: i for i, c in enumerate(WHEEL)}
_SLOT[WILD] = _WILD_INDEX


@dataclass(frozen=True, slots=True)
class Weights:
    """The weights of the evaluation's two estimated terms (see the module docstring)."""

    #: Weight of the next drawer's expected immediate claim.
    now: float = 0.8
    #: Weight of the race for every waiting snake.
    race: float = 0.6


#: The fitted weights.
DEFAULT_WEIGHTS = Weights()


@lru_cache(maxsize=65536)
def race_shares(left: int, k: int, players: int) -> tuple[float, ...]:
    """The chance that each seat, counted from the next drawer, draws the first of ``k`` cards.

    ``left`` cards remain, ``k`` of them are the wanted ones; the ``i``-th card (from 1) is drawn
    by the seat ``i - 1`` places after the next drawer. The shares sum to 1 when ``k >= 1``.

    >>> race_shares(4, 1, 2)
    (0.5, 0.5)
    >>> [round(x, 4) for x in race_shares(5, 2, 2)]
    [0.6, 0.4]
    """
    shares = [0.0] * players
    if k <= 0 or left <= 0:
        return tuple(shares)
    total = comb(left, k)
    for i in range(1, left - k + 2):
        shares[(i - 1) % players] += comb(left - i, k - 1) / total
    return tuple(shares)


def pit_measure(state: State, seat: int) -> int:
    """A seat's score so far in the scoring's first measure (cards, or snakes)."""
    if state.rules.scoring is Scoring.SNAKES:
        return len(state.pits[seat])
    if state.rules.scoring is Scoring.LONGEST:
        return max((len(s.cards) for s in state.pits[seat]), default=0)
    return state.pit_cards(seat)


def _colour_slot(colour: object) -> int:
    """0-5 for a colour, 6 for a wild neck."""
    return _SLOT[colour]


def best_claims(state: State, counts: list[int]) -> list[int]:
    """For every card code, the most cards the next drawer claims by drawing that card now.

    ``counts[code]`` is how many copies of each card remain (only cards with copies left are
    looked at; the others get 0). Caps complete a waiting snake; joins link a snake with a head
    to one with a tail (under ``pl`` any two snakes) through a mid-section whose sides match
    their open ends, a wild neck matching any colour.
    """
    best = [0] * len(counts)
    ends, head_ready, tail_ready = _open_ends(state)
    _cap_claims(best, counts, head_ready, tail_ready)
    _join_claims(best, counts, ends, state.rules.join_claim is JoinClaim.ALWAYS)
    return best


#: The open ends of the table by colour slot (0-5, 6 for a wild neck): (snake index, has
#: head, has tail, length) of each snake with an open end of that colour.
_Ends = list[list[tuple[int, bool, bool, int]]]


def _open_ends(state: State) -> tuple[_Ends, list[int], list[int]]:
    """The table's open ends by colour slot, and by colour the longest snake with a head that
    waits for a tail and the longest with a tail that waits for a head (0: none)."""
    ends: _Ends = [[] for _ in range(7)]
    head_ready = [0] * 6  # the longest snake with a head waiting for a tail of each colour
    tail_ready = [0] * 6
    for i, s in enumerate(state.table):
        cards = s.cards
        path = s.path
        n = len(cards)
        h = cards[0].kind is _HEAD
        t = cards[-1].kind is _TAIL
        left = path[0]
        right = path[-1]
        if left is not None:
            ends[_colour_slot(left)].append((i, h, t, n))
        if right is not None:
            ends[_colour_slot(right)].append((i, h, t, n))
        if h and n > 1:
            c = _COLOUR_INDEX[right]  # type: ignore[index]
            head_ready[c] = max(head_ready[c], n)
        elif t and n > 1:
            c = _COLOUR_INDEX[left]  # type: ignore[index]
            tail_ready[c] = max(tail_ready[c], n)
    return ends, head_ready, tail_ready


def _cap_claims(
    best: list[int], counts: list[int], head_ready: list[int], tail_ready: list[int]
) -> None:
    """Set in ``best`` the claims of the caps left: a tail or head that completes a snake."""
    for c in range(6):
        if head_ready[c] and counts[TAIL_CODE[c]]:
            best[TAIL_CODE[c]] = head_ready[c] + 1
        if tail_ready[c] and counts[HEAD_CODE[c]]:
            best[HEAD_CODE[c]] = tail_ready[c] + 1
    if counts[TAIL_CODE[6]]:
        m = max(head_ready)
        best[TAIL_CODE[6]] = m + 1 if m else 0
    if counts[HEAD_CODE[6]]:
        m = max(tail_ready)
        best[HEAD_CODE[6]] = m + 1 if m else 0


def _join_claims(best: list[int], counts: list[int], ends: _Ends, always: bool) -> None:
    """Set in ``best`` the claims of the mid-sections left: the longest join of two snakes
    through each (``always``: any two snakes, else one with a head and one with a tail)."""
    wild = ends[_WILD_INDEX]
    for code, a, b in MIDS:
        if not counts[code]:
            continue
        side_a = ends[a] + wild if wild else ends[a]
        side_b = ends[b] + wild if wild else ends[b]
        if not side_a or not side_b:
            continue
        top = 0
        for i, h1, t1, n1 in side_a:
            for j, h2, t2, n2 in side_b:
                if (
                    i != j
                    and not (h1 and h2)
                    and not (t1 and t2)
                    and (always or ((h1 or h2) and (t1 or t2)))
                    and n1 + n2 + 1 > top
                ):
                    top = n1 + n2 + 1
        best[code] = top


class Evaluator:
    """The evaluation of the module docstring, with its weights.

    :meth:`values` gives every seat's expected final measure; :meth:`margin` a seat's expected
    final margin over the best opponent.
    """

    __slots__ = ("weights",)

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.weights = weights

    def values(self, state: State, counts: list[int] | None = None) -> list[float]:
        """Every seat's expected final measure (see the module docstring).

        ``counts`` are the copies left of each card code (read from the state when omitted).
        At a decision point the drawn card is counted as not yet drawn, so the drawer's claim
        with it enters through the immediate term.
        """
        players = state.players
        vals = [float(pit_measure(state, s)) for s in range(players)]
        if state.is_terminal():
            return vals
        if counts is None:
            counts = remaining_counts(state)
        if state.drawn is not None:
            counts = counts.copy()
            counts[state.drawn.code] += 1
        left = sum(counts)
        if left == 0:
            return vals
        snakes_scoring = state.rules.scoring is Scoring.SNAKES
        w = self.weights
        x = state.to_move
        best = best_claims(state, counts)
        if snakes_scoring:
            now = sum(n for b, n in zip(best, counts, strict=True) if b) / left
        else:
            now = sum(b * n for b, n in zip(best, counts, strict=True)) / left
        vals[x] += w.now * now
        self._add_races(vals, state, counts, left, snakes_scoring)
        return vals

    def _add_races(
        self, vals: list[float], state: State, counts: list[int], left: int, snakes_scoring: bool
    ) -> None:
        """Add to ``vals`` the race term: every snake waiting for its head or tail, shared out by
        the seats' chances to draw a card that completes it first (``left`` cards remain)."""
        players = state.players
        x = state.to_move
        w = self.weights
        fair = 1.0 / players
        wild_tails = counts[TAIL_CODE[6]]
        wild_heads = counts[HEAD_CODE[6]]
        for s in state.table:
            cards = s.cards
            n = len(cards)
            if n < 2:
                continue
            if cards[0].kind is _HEAD:
                k = counts[TAIL_CODE[_COLOUR_INDEX[s.path[-1]]]] + wild_tails  # type: ignore[index]
            elif cards[-1].kind is _TAIL:
                k = counts[HEAD_CODE[_COLOUR_INDEX[s.path[0]]]] + wild_heads  # type: ignore[index]
            else:
                continue
            if not k:
                continue
            size = 1.0 if snakes_scoring else float(n + 1)
            shares = race_shares(left, k, players)
            for off in range(players):
                vals[(x + off) % players] += w.race * size * (shares[off] - fair)


def margin_of(values: list[float], seat: int) -> float:
    """A seat's value minus the best other seat's."""
    return values[seat] - max(v for s, v in enumerate(values) if s != seat)


def remaining_counts(state: State) -> list[int]:
    """The copies left of every card code, as a list indexed by ``Card.code``."""
    counts = [0] * CARD_KINDS
    for card, n in state.remaining_counts().items():
        counts[card.code] = n
    return counts


#: The evaluator with the fitted weights.
DEFAULT_EVALUATOR = Evaluator()

__all__ = [
    "DEFAULT_EVALUATOR",
    "DEFAULT_WEIGHTS",
    "Evaluator",
    "Weights",
    "best_claims",
    "margin_of",
    "pit_measure",
    "race_shares",
    "remaining_counts",
]
