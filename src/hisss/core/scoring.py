"""Scores and winners.

Under the default scoring each player counts the cards in their pit; most cards wins, a tie is
broken by the longest single snake among the tied players, and a tie after that is a shared win
(so when nobody has a card, everybody shares it). The other scorings of the rule options change the
first measure (see :class:`~hisss.core.rules.Scoring`).

>>> from hisss.core.snake import parse_snake
>>> a = parse_snake("H:red M:red-orange T:orange")
>>> b = parse_snake("H:blue M:blue-purple M:purple-red T:red")
>>> r = score(((a, a), (b,)), Rules())
>>> r.cards, r.winners, r.decided_by
((6, 4), (0,), 'cards')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hisss.core.rules import Rules, Scoring
from hisss.core.snake import Snake


@dataclass(frozen=True, slots=True)
class Result:
    """The score of every seat (0-based) and the winners."""

    #: Cards in each seat's pit.
    cards: tuple[int, ...]
    #: Snakes in each seat's pit.
    snakes: tuple[int, ...]
    #: The longest single snake in each seat's pit (0 for an empty pit).
    longest: tuple[int, ...]
    #: The winning seats, in seat order; more than one for a shared win.
    winners: tuple[int, ...]
    #: What settled the winner: the scoring's measure (``cards``, ``snakes``, ``longest``,
    #: ``target``), a tie-break (``longest``, ``cards``), or ``shared`` when a tie remained.
    decided_by: str

    @property
    def is_shared(self) -> bool:
        """True when more than one seat wins."""
        return len(self.winners) > 1

    def explain(self) -> str:
        """One sentence on how the game was decided."""
        seats = " and ".join(f"seat {w + 1}" for w in self.winners)
        reasons = {
            "cards": "with the most cards",
            "snakes": "with the most snakes",
            "longest": "with the longest snake",
            "target": "by reaching the target number of cards first",
        }
        if self.decided_by == "shared":
            return f"{seats} share the win: tied on every measure"
        return f"{seats} wins {reasons[self.decided_by]}"


def _tied_best(seats: Sequence[int], measure: Sequence[int]) -> list[int]:
    best = max(measure[s] for s in seats)
    return [s for s in seats if measure[s] == best]


def score(pits: Sequence[Sequence[Snake]], rules: Rules) -> Result:
    """Score the pits under ``rules``."""
    cards = tuple(sum(len(s.cards) for s in pit) for pit in pits)
    snakes = tuple(len(pit) for pit in pits)
    longest = tuple(max((len(s.cards) for s in pit), default=0) for pit in pits)
    seats = list(range(len(pits)))
    if rules.scoring is Scoring.FIRST_TO:
        reached = [s for s in seats if cards[s] >= rules.target]
        if len(reached) == 1:
            return Result(cards, snakes, longest, (reached[0],), "target")
    order = {
        Scoring.CARDS: (("cards", cards), ("longest", longest)),
        Scoring.FIRST_TO: (("cards", cards), ("longest", longest)),
        Scoring.SNAKES: (("snakes", snakes), ("longest", longest)),
        Scoring.LONGEST: (("longest", longest), ("cards", cards)),
    }[rules.scoring]
    tied = seats
    for name, measure in order:
        tied = _tied_best(tied, measure)
        if len(tied) == 1:
            return Result(cards, snakes, longest, (tied[0],), name)
    return Result(cards, snakes, longest, tuple(tied), "shared")
