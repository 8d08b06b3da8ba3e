"""The statistics of a run of games: what is measured, per game and as exact running sums.

Each game becomes a *row* (:func:`game_row`: a plain dictionary, one line of a results file) and
each statistic a per-game value of that row (:func:`row_figures`). :class:`RunningStat` keeps a
statistic as exact sums (count, sum, sum of squares), so a run of any length needs constant
memory and the statistics of games played by different workers, or before and after a resumed
run, merge exactly: the report never depends on how the games were split. :class:`RunStats` holds
every statistic of a run; :func:`hisss.sim.batch.simulate` plays runs and reports each statistic
as a :class:`StatSummary` (the mean over games, its standard error and its 95% interval; ``se``
and the interval are ``None`` with fewer than two games).

>>> from hisss.core import get_rules
>>> stats = RunStats(2, get_rules("classic"))
>>> stats.games, sorted(stats.report())[:2]
(0, ['caps', 'claimed_cards'])
>>> stats.report()["turns"]
StatSummary(mean=None, se=None, ci95=None)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from hisss.core import DecidedBy, Rules
from hisss.sim.play import GameOutcome
from hisss.sim.ratings import Z95, wilson_interval

#: A progress callback: called after each game with the number of games done and the total.
Progress = Callable[[int, int], None]

#: The statistics every run reports, in output order, with a one-line meaning each.
CORE_STATS: dict[str, str] = {
    "claimed_cards": "cards in all pits at the end",
    "claimed_snakes": "snakes in all pits at the end",
    "legal_actions_per_turn": "legal actions per turn",
    "turns_with_choice": "turns with 2+ legal actions",
    "seat1_win_rate": "seat 1's share of the wins (a shared win split)",
    "shared_win_share": "more than one winner",
    "longest_snake": "longest snake in a pit (0: none)",
    "table_snakes_end": "snakes left on the table",
}

#: Further statistics reported after the core ones (per-seat figures follow these).
EXTRA_STATS: dict[str, str] = {
    "turns": "cards placed (starter not counted)",
    "table_cards_end": "cards left on the table",
    "max_legal_actions": "most legal actions on a turn",
    "new_snakes": "cards placed as a new snake",
    "extends": "cards extending a snake",
    "caps": "heads and tails capping a snake",
    "joins": "cards joining two snakes",
    "tie_break_share": "winner settled by the tie-break",
    "winner_cards": "cards of the (first) winner",
}


@dataclass(frozen=True, slots=True)
class StatSummary:
    """One statistic of a run as reported: the mean over games (``None`` with no games), its
    standard error and its 95% interval (:func:`interval_of`; both ``None`` with fewer than two
    games)."""

    mean: float | None
    se: float | None
    ci95: tuple[float, float] | None

    def to_dict(self) -> dict[str, float | list[float] | None]:
        """``{"mean": x, "se": y, "ci95": [lo, hi]}``, as the reports print it."""
        return {
            "mean": self.mean,
            "se": self.se,
            "ci95": None if self.ci95 is None else list(self.ci95),
        }


class RunningStat:
    """Streaming mean and standard error of the mean, from exact sums.

    The count, the sum and the sum of squares are kept exactly (whole numbers, grouped by the
    denominator of each observation: a whole number has denominator 1, a ratio ``p/q`` added with
    :meth:`add_ratio` denominator ``q``, a float its exact binary fraction), so a run of any length
    needs constant memory and accumulators merge by addition: the result never depends on the
    order the games were added in, on how they were split between workers, or on a run being
    resumed. Mean and variance are computed exactly and rounded once at the end.

    >>> s = RunningStat()
    >>> for x in (1, 2, 3, 4):
    ...     s.add(x)
    >>> s.n, s.mean, round(s.se, 6)
    (4, 2.5, 0.645497)
    >>> t = RunningStat()
    >>> t.add_ratio(86, 49)
    >>> t.mean == 86 / 49
    True
    """

    __slots__ = ("_sums",)

    def __init__(self) -> None:
        # denominator -> [count, sum of numerators, sum of squared numerators]
        self._sums: dict[int, list[int]] = {}

    def add(self, x: float | Fraction) -> None:
        """Add one observation (a whole number, a fraction, or a float taken exactly)."""
        if isinstance(x, int):
            self.add_ratio(x, 1)
        else:
            ratio = Fraction(x)
            self.add_ratio(ratio.numerator, ratio.denominator)

    def add_ratio(self, numerator: int, denominator: int) -> None:
        """Add the observation ``numerator / denominator`` exactly."""
        sums = self._sums.get(denominator)
        if sums is None:
            self._sums[denominator] = [1, numerator, numerator * numerator]
        else:
            sums[0] += 1
            sums[1] += numerator
            sums[2] += numerator * numerator

    def add_sums(self, count: int, total: int, squares: int, denominator: int = 1) -> None:
        """Add ``count`` observations ``x_i / denominator`` given by the sums of ``x_i`` and
        ``x_i**2`` (whole numbers)."""
        if count:
            sums = self._sums.setdefault(denominator, [0, 0, 0])
            sums[0] += count
            sums[1] += total
            sums[2] += squares

    def merge(self, other: RunningStat) -> None:
        """Fold in another accumulator, e.g. from another worker (exact: order does not matter)."""
        for denominator, (count, total, squares) in other._sums.items():
            self.add_sums(count, total, squares, denominator)

    @property
    def n(self) -> int:
        """The number of observations."""
        return sum(sums[0] for sums in self._sums.values())

    def _exact(self) -> tuple[int, Fraction, Fraction]:
        total = sum((Fraction(s[1], d) for d, s in self._sums.items()), Fraction(0))
        squares = sum((Fraction(s[2], d * d) for d, s in self._sums.items()), Fraction(0))
        return self.n, total, squares

    @property
    def mean(self) -> float:
        """The mean of the observations (0.0 with none)."""
        n, total, _ = self._exact()
        return float(total / n) if n else 0.0

    @property
    def variance(self) -> float | None:
        """The sample variance (``None`` with fewer than two observations)."""
        n, total, squares = self._exact()
        if n < 2:
            return None
        return float(max(squares - total * total / n, Fraction(0)) / (n - 1))

    @property
    def se(self) -> float | None:
        """The standard error of the mean (``None`` with fewer than two observations)."""
        n, total, squares = self._exact()
        if n < 2:
            return None
        spread = max(squares - total * total / n, Fraction(0))
        return math.sqrt(float(spread / (n - 1) / n))

    def to_dict(self) -> dict[str, float | None]:
        """``{"mean": ..., "se": ...}``; the mean is ``None`` with no observations."""
        return {"mean": self.mean if self.n else None, "se": self.se}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RunningStat) and self._sums == other._sums

    __hash__ = None  # type: ignore[assignment]


def game_row(
    outcome: GameOutcome,
    number: int = 0,
    seed: int = 0,
    settings: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One game as a plain dictionary: a line of a results file (see :mod:`hisss.sim.results`).

    ``settings`` (``engine``, ``players``, ``rules``, ``deck``, ``bots``) go between the game's
    number and seed and its figures. Seats are numbered from 1 in ``winners``.
    """
    result = outcome.result
    choices = outcome.choices
    row: dict[str, Any] = {"game": number, "seed": seed}
    if settings:
        row.update(settings)
    row.update(
        turns=outcome.turns,
        choices=sum(choices),
        turns_with_choice=sum(1 for n in choices if n > 1),
        max_choices=max(choices, default=None),
        new_snakes=outcome.new_snakes,
        extends=outcome.extends,
        caps=outcome.caps,
        joins=outcome.joins,
        table_snakes=outcome.table_snakes,
        table_cards=outcome.table_cards,
        cards=list(result.cards),
        snakes=list(result.snakes),
        longest=list(result.longest),
        claimed=[list(pit) for pit in outcome.claimed],
        winners=[w + 1 for w in result.winners],
        decided_by=result.decided_by,
    )
    return row


def row_figures(row: dict[str, Any], settled: Sequence[str]) -> dict[str, int | None]:
    """The per-game values of every statistic but ``legal_actions_per_turn`` (a ratio, see
    :meth:`RunStats.add_row`) from a game's row; ``settled`` names the ``decided_by`` values that
    involve no tie-break (:func:`settled_first`). A seat's win rate is given as 1 or 0 here, to
    be divided by the number of winners (:func:`is_win_share`): a win shared by k players counts
    1/k for each, as in tournaments, so the seats' win rates add up to 1."""
    cards: list[int] = row["cards"]
    winners: list[int] = row["winners"]
    figures: dict[str, int | None] = {
        "claimed_cards": sum(cards),
        "claimed_snakes": sum(row["snakes"]),
        "turns_with_choice": row["turns_with_choice"],
        "seat1_win_rate": 1 if 1 in winners else 0,
        "shared_win_share": 1 if len(winners) > 1 else 0,
        "longest_snake": max(row["longest"], default=0),
        "table_snakes_end": row["table_snakes"],
        "turns": row["turns"],
        "table_cards_end": row["table_cards"],
        "max_legal_actions": row["max_choices"],
        "new_snakes": row["new_snakes"],
        "extends": row["extends"],
        "caps": row["caps"],
        "joins": row["joins"],
        "tie_break_share": 0 if row["decided_by"] in settled else 1,
        "winner_cards": cards[winners[0] - 1],
    }
    for seat, n in enumerate(cards, start=1):
        figures[f"seat{seat}_cards"] = n
    for seat in range(2, len(cards) + 1):
        figures[f"seat{seat}_win_rate"] = 1 if seat in winners else 0
    return figures


def is_win_share(name: str) -> bool:
    """True for the statistics whose per-game value is divided by the number of winners."""
    return name.endswith("_win_rate")


def outcome_figures(outcome: GameOutcome, rules: Rules) -> dict[str, float | None]:
    """The per-game values of every statistic, by name (``None`` where a game has no value)."""
    row = game_row(outcome)
    winners = len(row["winners"])
    figures: dict[str, float | None] = {
        "legal_actions_per_turn": outcome.legal_actions_per_turn,
        **{
            name: value / winners if value is not None and is_win_share(name) else value
            for name, value in row_figures(row, settled_first(rules)).items()
        },
    }
    return {name: figures[name] for name in stat_names(len(outcome.result.cards))}


class RunStats:
    """Every statistic of a run as exact, mergeable sums (see :class:`RunningStat`).

    Workers each fill one from their games, and the parent merges them; the report is the same
    whatever the split.
    """

    __slots__ = ("players", "settled", "stats")

    def __init__(self, players: int, rules: Rules) -> None:
        self.players = players
        self.settled = settled_first(rules)
        self.stats = {name: RunningStat() for name in stat_names(players)}

    @property
    def games(self) -> int:
        """The number of games added."""
        return self.stats["claimed_cards"].n

    def add_row(self, row: dict[str, Any]) -> None:
        """Add one game given as a row (:func:`game_row`, or a line read back from a file)."""
        stats = self.stats
        if row["turns"]:
            stats["legal_actions_per_turn"].add_ratio(row["choices"], row["turns"])
        winners = len(row["winners"])
        for name, value in row_figures(row, self.settled).items():
            if value is not None:
                stats[name].add_ratio(value, winners if is_win_share(name) else 1)

    def merge(self, other: RunStats) -> None:
        """Fold in the statistics of other games of the same run."""
        for name, stat in self.stats.items():
            stat.merge(other.stats[name])

    def report(self) -> dict[str, StatSummary]:
        """Each statistic's :class:`StatSummary`, in output order (:func:`interval_of`)."""
        return {
            name: StatSummary(stat.mean if stat.n else None, stat.se, interval_of(name, stat))
            for name, stat in self.stats.items()
        }


#: The statistics that are shares of games (between 0 and 1), whose interval is Wilson's.
SHARES = ("shared_win_share", "tie_break_share")


def interval_of(name: str, stat: RunningStat) -> tuple[float, float] | None:
    """The 95% interval of a statistic's mean, as tournaments give theirs (``ci95``): for a share
    of games (a win rate, :data:`SHARES`) Wilson's interval with the sample size its standard
    error implies (a shared win counts a fraction), else the mean plus or minus 1.96 standard
    errors; ``None`` with fewer than two games.

    >>> s = RunningStat()
    >>> for x in (0, 1) * 50:
    ...     s.add(x)
    >>> interval_of("seat1_win_rate", s), interval_of("turns", s)
    ((0.403365, 0.596635), (0.401508, 0.598492))
    """
    se = stat.se
    if se is None:
        return None
    mean = stat.mean
    if is_win_share(name) or name in SHARES:
        p = min(1.0, max(0.0, mean))
        n = p * (1 - p) / (se * se) if se > 0 and 0 < p < 1 else stat.n
        lo, hi = wilson_interval(p, n)
    else:
        lo, hi = mean - Z95 * se, mean + Z95 * se
    return round(lo, 6), round(hi, 6)


def settled_first(rules: Rules) -> tuple[str, ...]:
    """The ``Result.decided_by`` values that do not involve a tie-break."""
    return (rules.scoring.measures[0], DecidedBy.TARGET, DecidedBy.SHARED)


def stat_names(players: int) -> list[str]:
    """Every statistic a simulation reports for a table of ``players``, in output order."""
    return [
        *CORE_STATS,
        *EXTRA_STATS,
        *(f"seat{k}_cards" for k in range(1, players + 1)),
        *(f"seat{k}_win_rate" for k in range(2, players + 1)),
    ]


def describe_stat(name: str) -> str:
    """A one-line meaning of a statistic named by :func:`stat_names`."""
    if name in CORE_STATS:
        return CORE_STATS[name]
    if name in EXTRA_STATS:
        return EXTRA_STATS[name]
    seat = name.removeprefix("seat").split("_", 1)[0]
    if name.endswith("_win_rate"):
        return f"seat {seat}'s share of the wins (a shared win split)"
    return f"cards in seat {seat}'s pit at the end"


def rules_label(rules: Rules) -> str | dict[str, Any]:
    """The preset name of ``rules``, or its options when it is no preset (the results files'
    header and rows)."""
    return rules.preset or rules.to_mapping()


def rules_report(rules: Rules) -> dict[str, Any]:
    """``rules`` as every report gives them (``--json`` of simulate, tournament and bench): one
    object, the preset's name (``None`` when the options match no preset) and every option.

    >>> rules_report(Rules())["preset"], rules_report(Rules(forced_placement=False))["preset"]
    ('classic', None)
    """
    return {"preset": rules.preset, **rules.to_mapping()}
