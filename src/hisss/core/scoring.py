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
((6, 4), (0,), <DecidedBy.CARDS: 'cards'>)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hisss.core.rules import DecidedBy, Rules, Scoring
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
    decided_by: DecidedBy

    @property
    def is_shared(self) -> bool:
        """True when more than one seat wins."""
        return len(self.winners) > 1

    def measure(self, measure: DecidedBy) -> tuple[int, ...]:
        """Each seat's value of a measure: ``cards``, ``snakes`` or ``longest``.

        >>> Result((6, 4), (2, 1), (3, 4), (0,), DecidedBy.CARDS).measure(DecidedBy.LONGEST)
        (3, 4)
        """
        if measure is DecidedBy.CARDS:
            return self.cards
        if measure is DecidedBy.SNAKES:
            return self.snakes
        if measure is DecidedBy.LONGEST:
            return self.longest
        raise ValueError(f"{measure!s} is not a measure of the seats")


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
            return Result(cards, snakes, longest, (reached[0],), DecidedBy.TARGET)
    values = {DecidedBy.CARDS: cards, DecidedBy.SNAKES: snakes, DecidedBy.LONGEST: longest}
    tied = seats
    for measure in rules.scoring.measures:
        tied = _tied_best(tied, values[measure])
        if len(tied) == 1:
            return Result(cards, snakes, longest, (tied[0],), measure)
    return Result(cards, snakes, longest, tuple(tied), DecidedBy.SHARED)


def places(result: Result, rules: Rules) -> tuple[int, ...]:
    """Each seat's place in ``result`` under ``rules``: 1 for the winners, then the others in the
    order of the scoring's measures (:attr:`Scoring.measures`), seats equal on both sharing a
    place and the next place skipped ("1, 2, 2, 4").

    >>> from hisss.core.snake import parse_snake
    >>> a = parse_snake("H:red M:red-orange T:orange")
    >>> places(score(((a,), (), (a, a), ()), Rules()), Rules())
    (2, 3, 1, 3)
    """
    measures = [result.measure(m) for m in rules.scoring.measures]
    winners = set(result.winners)

    def key(seat: int) -> tuple[int, ...]:
        return tuple(values[seat] for values in measures)

    others = [s for s in range(len(result.cards)) if s not in winners]
    return tuple(
        1 if seat in winners else 1 + len(winners) + sum(1 for o in others if key(o) > key(seat))
        for seat in range(len(result.cards))
    )
