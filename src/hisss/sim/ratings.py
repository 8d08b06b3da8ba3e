"""Tournament statistics: win rates with honest intervals, openskill ratings, head-to-head scores.

The input is a list of :class:`TournamentGame`: for each game, the deal it was played from, which
entry (bot) sat in each seat, the cards each seat took and each seat's place. :func:`summarize`
turns it into the per-bot figures and the head-to-head table of ``hisss tournament``.

**Scores.** A win counts 1; a win shared by ``k`` seats counts ``1/k`` to each of them; a loss
counts 0. A bot's *win rate* is its mean score over the games it played. In the head-to-head table,
bot A's score against bot B in a game where both played is 1 when A placed above B, 1/2 when they
placed equal and 0 when A placed below B (places: every winner first, the others by the rules'
scoring measure and its tie-break; see :func:`hisss.sim.tournament.placements`).

**Intervals.** The games of one deal are correlated: a mirrored deal is played once per seat
rotation with the same card order, so its games are not independent draws. The standard error is
therefore computed over deals (deals are the independent clusters): with ``s_d`` the bot's summed
score and ``c_d`` its number of games in deal ``d`` (``D`` deals, ``w = Σs_d / Σc_d``), the
cluster-robust standard error of the ratio mean is ``SE² = D/(D-1) · Σ(s_d - w·c_d)² / (Σc_d)²``.
With one game per deal (no ``--mirror``) this is the ordinary standard error of the mean, and with
equal cluster sizes it is the standard error of the per-deal means. The 95% interval is then
Wilson's score interval at the *effective sample size* ``n_eff = w(1-w) / SE²`` (Kish's design
effect), which stays inside [0, 1] and behaves well near 0 and 1. When the deals show no spread at
all (``SE = 0``: every deal gave the same mean, e.g. a bot that won every game), the interval is
Wilson's with one observation per deal (``n_eff = D``), which is conservative.

**Ratings.** Every game is rated with openskill's Plackett-Luce model, one team of one player per
seat, ranked by place (ties allowed), processed in deal order and then seat-rotation order, so the
ratings are deterministic. Bots do not change strength during a tournament, so the model's
additive dynamics factor ``tau`` is 0: the uncertainty ``sigma`` shrinks as games accumulate. The
reported ``rating`` is the posterior mean ``mu`` (start 25) and ``rating_sigma`` its ``sigma``
(start 25/3); a conservative single figure is ``mu - 3·sigma``.

>>> games = [
...     TournamentGame(deal=1, rotation=0, entries=(0, 1), cards=(5, 2), places=(0, 1)),
...     TournamentGame(deal=2, rotation=0, entries=(1, 0), cards=(3, 3), places=(0, 0)),
... ]
>>> out = summarize(["a", "b"], games)
>>> out.bots["a"].win_rate, out.bots["b"].win_rate, out.bots["a"].mean_cards
(0.75, 0.25, 4.0)
>>> out.head_to_head["a"]["b"].score, out.head_to_head["a"]["b"].games
(0.75, 2)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from hisss.core import ConfigError

#: The two-sided 95% quantile of the standard normal distribution.
Z95 = 1.959963984540054

#: Decimal places of the figures in a report (enough for any run, and stable across platforms).
PLACES = 6

#: A one-line description of the rating method, carried in reports.
RATING_MODEL = "openskill Plackett-Luce, tau 0; rating = mu (start 25), rating_sigma = sigma"


@dataclass(frozen=True, slots=True)
class TournamentGame:
    """One game of a tournament, as the statistics see it."""

    #: The deal the game was played from (counted from 1); games of one deal share a card order.
    deal: int
    #: The seat rotation of the deal (0 without ``--mirror``; 0 to P-1 with it).
    rotation: int
    #: The entry (index into the tournament's bots) in each seat, seat 1 first.
    entries: tuple[int, ...]
    #: The cards in each seat's pit at the end.
    cards: tuple[int, ...]
    #: Each seat's place: the number of seats placed above it (0 for every winner).
    places: tuple[int, ...]

    def score(self, seat: int) -> float:
        """The seat's share of the win: 1, ``1/k`` for a win shared by ``k`` seats, or 0."""
        if self.places[seat] != 0:
            return 0.0
        return 1.0 / self.places.count(0)


@dataclass(slots=True)
class _Clustered:
    """Scores grouped by deal: per deal, the summed score and the number of games."""

    sums: dict[int, float]
    counts: dict[int, int]

    @classmethod
    def empty(cls) -> _Clustered:
        return cls({}, {})

    def add(self, deal: int, score: float) -> None:
        self.sums[deal] = self.sums.get(deal, 0.0) + score
        self.counts[deal] = self.counts.get(deal, 0) + 1

    @property
    def games(self) -> int:
        return sum(self.counts.values())

    def mean(self) -> float | None:
        games = self.games
        return sum(self.sums.values()) / games if games else None

    def interval(self) -> tuple[float, float] | None:
        return clustered_interval([(self.sums[d], self.counts[d]) for d in sorted(self.counts)])


def wilson_interval(p: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion ``p`` observed over ``n`` (effective) trials.

    >>> lo, hi = wilson_interval(0.5, 100)
    >>> round(lo, 4), round(hi, 4)
    (0.4038, 0.5962)
    >>> lo, hi = wilson_interval(1.0, 10)
    >>> round(lo, 4), hi
    (0.7225, 1.0)
    """
    if n <= 0:
        raise ConfigError(f"an interval needs a positive number of trials, not {n}")
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2.0 * n)) / denom
    half = z * math.sqrt(max(p * (1.0 - p), 0.0) / n + z2 / (4.0 * n * n)) / denom
    lo = 0.0 if p <= 0.0 else max(0.0, centre - half)  # exact ends for all-or-nothing scores
    hi = 1.0 if p >= 1.0 else min(1.0, centre + half)
    return lo, hi


@dataclass(slots=True)
class ClusteredScore:
    """A score in [0, 1] summed per cluster (a deal, a game), kept as the sums the cluster-robust
    interval of the module docstring needs, so that any number of clusters takes constant room.

    >>> score = ClusteredScore()
    >>> score.add(2.0, 2); score.add(0.0, 2)  # two deals of two games: both won, both lost
    >>> score.rate, score.clusters
    (0.5, 2)
    """

    clusters: int = 0
    s: float = 0.0
    c: int = 0
    ss: float = 0.0
    sc: float = 0.0
    cc: int = 0

    def add(self, score: float, count: int) -> None:
        """One cluster: its summed score over its ``count`` games."""
        self.clusters += 1
        self.s += score
        self.c += count
        self.ss += score * score
        self.sc += score * count
        self.cc += count * count

    @property
    def rate(self) -> float:
        """The mean score over every game (NaN before any)."""
        return self.s / self.c if self.c else math.nan

    def interval(self, z: float = Z95) -> tuple[float, float] | None:
        """The Wilson interval at the design-effect sample size; ``None`` before any game."""
        if not self.c:
            return None
        w = min(1.0, max(0.0, self.rate))
        d = self.clusters
        # sum over clusters of (s_d - w c_d)^2, from the sums kept
        spread = self.ss - 2.0 * w * self.sc + w * w * self.cc
        variance = d / (d - 1) * max(spread, 0.0) / (self.c * self.c) if d > 1 else 0.0
        effective = w * (1.0 - w) / variance if variance > 0.0 and 0.0 < w < 1.0 else float(d)
        return wilson_interval(w, effective, z)


def clustered_interval(
    clusters: Sequence[tuple[float, int]], z: float = Z95
) -> tuple[float, float] | None:
    """The interval of a mean score in [0, 1] from ``(summed score, games)`` per cluster (deal).

    The cluster-robust standard error and the design-effect Wilson interval of the module
    docstring (:class:`ClusteredScore`); ``None`` when there are no games.

    >>> lo, hi = clustered_interval([(1.0, 1), (0.0, 1)] * 50)  # 100 games, one per deal
    >>> round(lo, 4), round(hi, 4)
    (0.4034, 0.5966)
    >>> clustered_interval([(1.0, 2)] * 20) == wilson_interval(0.5, 20)  # no spread: n_eff = D
    True
    """
    score = ClusteredScore()
    for summed, games in clusters:
        if games > 0:
            score.add(summed, games)
    return score.interval(z)


def openskill_ratings(entries: int, games: Sequence[TournamentGame]) -> list[tuple[float, float]]:
    """``(mu, sigma)`` of each entry after rating ``games`` in the order given (see above)."""
    model = PlackettLuce(tau=0.0)
    ratings: list[PlackettLuceRating] = [model.rating() for _ in range(entries)]
    for game in games:
        teams = [[ratings[e]] for e in game.entries]
        rated = model.rate(teams, ranks=[float(p + 1) for p in game.places])
        for entry, team in zip(game.entries, rated, strict=True):
            ratings[entry] = team[0]
    return [(r.mu, r.sigma) for r in ratings]


@dataclass(frozen=True, slots=True)
class BotStanding:
    """One entry's figures in a tournament (a figure with no games behind it is ``None``)."""

    games: int
    #: The mean score: a win counts 1, a win shared by k seats 1/k.
    win_rate: float | None
    #: The 95% interval of ``win_rate``, clustered by deal.
    ci95: tuple[float, float] | None
    mean_cards: float | None
    #: openskill's Plackett-Luce mu and its sigma.
    rating: float | None
    rating_sigma: float | None

    def to_dict(self) -> dict[str, object]:
        """The entry's figures as ``hisss tournament --json`` prints them."""
        return {
            "games": self.games,
            "win_rate": self.win_rate,
            "ci95": _listed(self.ci95),
            "mean_cards": self.mean_cards,
            "rating": self.rating,
            "rating_sigma": self.rating_sigma,
        }


@dataclass(frozen=True, slots=True)
class PairScore:
    """One entry's score against another over the games both played (head to head)."""

    games: int
    #: 1 when the entry placed above the other, 1/2 when equal, 0 below; the mean over games.
    score: float | None
    ci95: tuple[float, float] | None

    def to_dict(self) -> dict[str, object]:
        """The cell as ``hisss tournament --json`` prints it."""
        return {"games": self.games, "score": self.score, "ci95": _listed(self.ci95)}


@dataclass(frozen=True, slots=True)
class Standings:
    """What :func:`summarize` gives: each entry's figures, and the head-to-head table
    (``head_to_head[a][b]``: ``a``'s score against ``b``), both in the entries' order."""

    bots: Mapping[str, BotStanding]
    head_to_head: Mapping[str, Mapping[str, PairScore]]

    def to_dict(self) -> dict[str, object]:
        """``{"bots": {NAME: {...}}, "head_to_head": {A: {B: {...}}}}``, as reports print it."""
        return {
            "bots": {name: row.to_dict() for name, row in self.bots.items()},
            "head_to_head": {
                a: {b: cell.to_dict() for b, cell in row.items()}
                for a, row in self.head_to_head.items()
            },
        }


def _listed(pair: tuple[float, float] | None) -> list[float] | None:
    return None if pair is None else list(pair)


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, PLACES)


def _pair(interval: tuple[float, float] | None) -> tuple[float, float] | None:
    return None if interval is None else (round(interval[0], PLACES), round(interval[1], PLACES))


def _check(names: Sequence[str], games: Sequence[TournamentGame]) -> None:
    if len(set(names)) != len(names):
        raise ConfigError(f"bot names must be distinct, not {list(names)}")
    for game in games:
        seats = len(game.entries)
        if len(game.cards) != seats or len(game.places) != seats:
            raise ConfigError(f"deal {game.deal}: entries, cards and places differ in length")
        if len(set(game.entries)) != seats or not all(0 <= e < len(names) for e in game.entries):
            raise ConfigError(f"deal {game.deal}: bad entries {game.entries}")
        if 0 not in game.places:
            raise ConfigError(f"deal {game.deal}: a game needs a winner (place 0)")


def summarize(names: Sequence[str], games: Sequence[TournamentGame]) -> Standings:
    """The per-bot figures and the head-to-head table of ``games`` between the entries ``names``.

    Returns the :class:`Standings`: a :class:`BotStanding` per entry and a :class:`PairScore` per
    ordered pair of entries (see the module docstring for the methods); a figure with no games
    behind it is ``None``. The games are taken
    in (deal, rotation) order whatever order they come in, so the result depends only on the set
    of games.
    """
    _check(names, games)
    ordered = sorted(games, key=lambda g: (g.deal, g.rotation))
    k = len(names)
    wins = [_Clustered.empty() for _ in range(k)]
    cards = [0] * k
    pairs = [[_Clustered.empty() for _ in range(k)] for _ in range(k)]
    for game in ordered:
        for seat, entry in enumerate(game.entries):
            wins[entry].add(game.deal, game.score(seat))
            cards[entry] += game.cards[seat]
            mine = game.places[seat]
            for other_seat, other in enumerate(game.entries):
                if other_seat != seat:
                    theirs = game.places[other_seat]
                    score = 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
                    pairs[entry][other].add(game.deal, score)
    ratings = openskill_ratings(k, ordered)
    bots: dict[str, BotStanding] = {}
    for entry, name in enumerate(names):
        played = wins[entry].games
        bots[name] = BotStanding(
            games=played,
            win_rate=_round(wins[entry].mean()),
            ci95=_pair(wins[entry].interval()),
            mean_cards=_round(cards[entry] / played if played else None),
            rating=_round(ratings[entry][0]),
            rating_sigma=_round(ratings[entry][1]),
        )
    head_to_head: dict[str, dict[str, PairScore]] = {}
    for a, name_a in enumerate(names):
        head_to_head[name_a] = {
            name_b: PairScore(
                games=pairs[a][b].games,
                score=_round(pairs[a][b].mean()),
                ci95=_pair(pairs[a][b].interval()),
            )
            for b, name_b in enumerate(names)
            if b != a
        }
    return Standings(bots, head_to_head)


__all__ = [
    "RATING_MODEL",
    "Z95",
    "BotStanding",
    "ClusteredScore",
    "PairScore",
    "Standings",
    "TournamentGame",
    "clustered_interval",
    "openskill_ratings",
    "summarize",
    "wilson_interval",
]
