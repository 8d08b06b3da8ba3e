"""The reports of the research commands as typed values: simulate, tournament, headroom, bench and
movetimes.

Each report is a frozen value whose fields are read as attributes (``report.games``,
``report.stats["turns"].mean``, ``report.bots["greedy"].win_rate``); its :meth:`to_dict` is the
one place that turns it into the JSON object the commands print with ``--json`` (the keys in
their printed order, intervals as lists, the rules as :func:`~hisss.sim.stats.rules_report`
gives them).

>>> summary = ClairvoyantReport("greedy", 2, 1, 2, 0, 10, 0.5, 0.5, (0.1, 0.9), 0)
>>> summary.upper, summary.to_dict()["ci95"]
(0.5, [0.1, 0.9])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hisss.core import Rules
from hisss.sim.ratings import BotStanding, PairScore, Standings
from hisss.sim.stats import StatSummary, rules_report


def _listed(pair: tuple[float, float] | None) -> list[float] | None:
    return None if pair is None else list(pair)


@dataclass(frozen=True, slots=True)
class SimulationReport:
    """What :func:`hisss.sim.batch.simulate` gives: the run's settings, then every statistic
    (:func:`~hisss.sim.stats.stat_names`, in that order) as a
    :class:`~hisss.sim.stats.StatSummary`."""

    games: int
    players: int
    seed: int
    rules: Rules
    deck: str
    #: The number of cards in the deck.
    deck_cards: int
    #: The bot of each seat, seat 1 first.
    bots: tuple[str, ...]
    #: What played the games: the spelling of a :class:`~hisss.sim.batch.Engine`.
    engine: str
    stats: Mapping[str, StatSummary]

    def to_dict(self) -> dict[str, object]:
        """The report as ``hisss simulate --json`` prints it: the settings, then each statistic
        as ``{"mean": x, "se": y, "ci95": [lo, hi]}`` under its name."""
        return {
            "games": self.games,
            "players": self.players,
            "seed": self.seed,
            "rules": rules_report(self.rules),
            "deck": self.deck,
            "deck_cards": self.deck_cards,
            "bots": list(self.bots),
            "engine": self.engine,
            **{name: stat.to_dict() for name, stat in self.stats.items()},
        }


@dataclass(frozen=True, slots=True)
class TournamentReport:
    """What :func:`hisss.sim.tournament.tournament` gives: the run's settings, then each entry's
    figures and the head-to-head table (:class:`~hisss.sim.ratings.Standings`)."""

    #: The games played (with ``mirror``, rounded up to whole deals).
    games: int
    deals: int
    players: int
    seed: int
    mirror: bool
    rules: Rules
    deck: str
    deck_cards: int
    #: How the ratings were worked out (:data:`~hisss.sim.ratings.RATING_MODEL`).
    rating_model: str
    bots: Mapping[str, BotStanding]
    #: ``head_to_head[a][b]``: entry ``a``'s score against entry ``b``.
    head_to_head: Mapping[str, Mapping[str, PairScore]]

    def to_dict(self) -> dict[str, object]:
        """The report as ``hisss tournament --json`` prints it."""
        return {
            "games": self.games,
            "deals": self.deals,
            "players": self.players,
            "seed": self.seed,
            "mirror": self.mirror,
            "rules": rules_report(self.rules),
            "deck": self.deck,
            "deck_cards": self.deck_cards,
            "rating_model": self.rating_model,
            **Standings(self.bots, self.head_to_head).to_dict(),
        }


@dataclass(frozen=True, slots=True)
class ClairvoyantReport:
    """What :func:`hisss.sim.headroom.clairvoyant` gives: the clairvoyant's win share against
    ``opponent`` with every deal's best line found (``lower``) and with every search cut by the
    node budget counted as a win (``upper``), the 95% interval of ``upper`` over deals, and the
    number of searches ``cut``."""

    opponent: str
    players: int
    deals: int
    #: Searches: one per deal and seat.
    games: int
    seed: int
    #: The node budget per deal and seat.
    nodes: int
    lower: float
    upper: float
    ci95: tuple[float, float] | None
    cut: int

    def to_dict(self) -> dict[str, object]:
        """The report as ``hisss headroom --json`` prints it."""
        return {
            "opponent": self.opponent,
            "players": self.players,
            "deals": self.deals,
            "games": self.games,
            "seed": self.seed,
            "nodes": self.nodes,
            "lower": self.lower,
            "upper": self.upper,
            "ci95": _listed(self.ci95),
            "cut": self.cut,
        }


@dataclass(frozen=True, slots=True)
class ExactValueReport:
    """What :func:`hisss.sim.headroom.exact_value` gives: the best win share against
    ``opponent`` from each seat, their mean ``value``, and the number of positions stored."""

    opponent: str
    players: int
    deck: str
    seats: tuple[float, ...]
    value: float
    positions: int

    def to_dict(self) -> dict[str, object]:
        """The report as ``hisss headroom --exact --json`` prints it."""
        return {
            "opponent": self.opponent,
            "players": self.players,
            "deck": self.deck,
            "seats": list(self.seats),
            "value": self.value,
            "positions": self.positions,
        }


@dataclass(frozen=True, slots=True)
class FastThroughput:
    """What :func:`hisss.sim.bench.fast_throughput` gives: the compiled kernel's random games per
    second, the games and seconds measured, and the compile (or cache load) time apart."""

    games_per_second: float
    games: int
    seconds: float
    compile_seconds: float

    def to_dict(self) -> dict[str, object]:
        """The figures under the names ``hisss bench --json`` gives them (``fast_...``)."""
        return {
            "fast_games_per_second": self.games_per_second,
            "fast_games": self.games,
            "fast_seconds": self.seconds,
            "fast_compile_seconds": self.compile_seconds,
        }


@dataclass(frozen=True, slots=True)
class BenchReport:
    """What :func:`hisss.sim.bench.bench` gives: the engine's throughput and the cost of its
    search primitives (``None`` where the deck gives no turn), the settings and the machine, the
    compiled kernel's figures (``fast``, ``None`` when not measured, ``fast_note`` saying why),
    and, from ``hisss bench --learners``, the learners' steps per second."""

    games_per_second: float
    turns_per_second: float
    us_per_turn: float | None
    legal_actions_per_second: float | None
    us_per_legal_actions: float | None
    us_per_copy: float | None
    us_per_push: float | None
    us_per_undo: float | None
    games: int
    turns: int
    #: The decision points the operations were timed on.
    positions: int
    seconds: float
    players: int
    rules: Rules
    deck: str
    python: str
    implementation: str
    machine: str
    fast: FastThroughput | None
    fast_note: str | None
    #: :func:`hisss.rl.bench.learner_throughput`'s figures, when measured.
    learners: Mapping[str, Any] | None = None

    def to_dict(self) -> dict[str, object]:
        """The figures as ``hisss bench --json`` prints them (``learners`` only when measured)."""
        fast: dict[str, object] = (
            self.fast.to_dict()
            if self.fast is not None
            else {
                "fast_games_per_second": None,
                "fast_games": None,
                "fast_seconds": None,
                "fast_compile_seconds": None,
            }
        )
        out: dict[str, object] = {
            "games_per_second": self.games_per_second,
            "turns_per_second": self.turns_per_second,
            "us_per_turn": self.us_per_turn,
            "legal_actions_per_second": self.legal_actions_per_second,
            "us_per_legal_actions": self.us_per_legal_actions,
            "us_per_copy": self.us_per_copy,
            "us_per_push": self.us_per_push,
            "us_per_undo": self.us_per_undo,
            "games": self.games,
            "turns": self.turns,
            "positions": self.positions,
            "seconds": self.seconds,
            "players": self.players,
            "rules": rules_report(self.rules),
            "deck": self.deck,
            "python": self.python,
            "implementation": self.implementation,
            "machine": self.machine,
            **fast,
            "fast_note": self.fast_note,
        }
        if self.learners is not None:
            out["learners"] = dict(self.learners)
        return out


@dataclass(frozen=True, slots=True)
class TimeSummary:
    """Decision times in seconds: their count, median, 90th and 99th percentiles (nearest rank),
    maximum and mean (every figure but ``count`` is ``None`` with no decisions)."""

    count: int
    median: float | None
    p90: float | None
    p99: float | None
    max: float | None
    mean: float | None

    def to_dict(self) -> dict[str, object]:
        """The figures as ``hisss movetimes --json`` prints them."""
        return {
            "count": self.count,
            "median": self.median,
            "p90": self.p90,
            "p99": self.p99,
            "max": self.max,
            "mean": self.mean,
        }


@dataclass(frozen=True, slots=True)
class MoveTimesReport:
    """What :func:`hisss.sim.movetimes.move_times` gives: how long ``bot`` thought over ``games``
    games, for ``all`` its decisions and for those with a ``choice`` of two or more placements;
    ``seconds`` is its total thinking time, ``warm_up_seconds`` what it made ready beforehand."""

    bot: str
    games: int
    players: int
    decisions: int
    seconds: float
    warm_up_seconds: float
    all: TimeSummary
    choice: TimeSummary

    def to_dict(self) -> dict[str, object]:
        """The report as ``hisss movetimes --json`` prints it."""
        return {
            "bot": self.bot,
            "games": self.games,
            "players": self.players,
            "decisions": self.decisions,
            "seconds": self.seconds,
            "warm_up_seconds": self.warm_up_seconds,
            "all": self.all.to_dict(),
            "choice": self.choice.to_dict(),
        }


__all__ = [
    "BenchReport",
    "ClairvoyantReport",
    "ExactValueReport",
    "FastThroughput",
    "MoveTimesReport",
    "SimulationReport",
    "TimeSummary",
    "TournamentReport",
]
