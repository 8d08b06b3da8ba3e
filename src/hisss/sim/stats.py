"""Batch simulation: many games between bots, summarised as means with standard errors.

:class:`RunningStat` is a streaming mean and standard-error accumulator (Welford's method), so a run
of any length needs constant memory. :func:`simulate` plays a run of games and returns one plain
dictionary, ready for JSON: the run's settings, then each statistic as ``{"mean": x, "se": y}`` (the
mean over games and its standard error; ``se`` is ``None`` with fewer than two games).

Game ``k`` of a run (counted from 1) is dealt and played with ``random.Random(game_seed(seed, k))``,
so the same arguments always give the same figures, whatever the order the games are played in.

>>> from hisss.bots import make_bots
>>> from hisss.core import RAINBOW, get_rules
>>> out = simulate(20, 2, 0, get_rules("classic"), RAINBOW, make_bots("random", 2))
>>> out["games"], out["turns"]
(20, {'mean': 49.0, 'se': 0.0})
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from hisss.bots import Bot
from hisss.core import ConfigError, Deck, Rules, Scoring
from hisss.record import save_record
from hisss.sim.play import GameOutcome, game_seed, play_game

#: A progress callback: called after each game with the number of games done and the total.
Progress = Callable[[int, int], None]

#: The statistics every run reports, in output order, with a one-line meaning each.
CORE_STATS: dict[str, str] = {
    "claimed_cards": "cards in all pits at the end",
    "claimed_snakes": "snakes in all pits at the end",
    "legal_actions_per_turn": "legal actions per turn",
    "turns_with_choice": "turns with 2+ legal actions",
    "seat1_win_rate": "seat 1 among the winners",
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


class RunningStat:
    """Streaming mean and standard error of the mean.

    The spread is accumulated with Welford's method, which stays accurate over long runs; the mean
    is reported as the running sum over the count, which is exact for whole-number figures.

    >>> s = RunningStat()
    >>> for x in (1, 2, 3, 4):
    ...     s.add(x)
    >>> s.n, s.mean, round(s.se, 6)
    (4, 2.5, 0.645497)
    """

    __slots__ = ("_m2", "_mean", "_sum", "n")

    def __init__(self) -> None:
        self.n = 0
        self._sum = 0.0
        self._mean = 0.0
        self._m2 = 0.0

    def add(self, x: float) -> None:
        """Add one observation."""
        self.n += 1
        self._sum += x
        delta = x - self._mean
        self._mean += delta / self.n
        self._m2 += delta * (x - self._mean)

    def merge(self, other: RunningStat) -> None:
        """Fold in another accumulator (Chan's parallel formula), e.g. from another worker."""
        if other.n == 0:
            return
        n = self.n + other.n
        delta = other._mean - self._mean
        self._mean += delta * other.n / n
        self._m2 += other._m2 + delta * delta * self.n * other.n / n
        self._sum += other._sum
        self.n = n

    @property
    def mean(self) -> float:
        """The mean of the observations (0.0 with none)."""
        return self._sum / self.n if self.n else 0.0

    @property
    def variance(self) -> float | None:
        """The sample variance (``None`` with fewer than two observations)."""
        return max(self._m2, 0.0) / (self.n - 1) if self.n > 1 else None

    @property
    def se(self) -> float | None:
        """The standard error of the mean (``None`` with fewer than two observations)."""
        var = self.variance
        return math.sqrt(var / self.n) if var is not None else None

    def to_dict(self) -> dict[str, float | None]:
        """``{"mean": ..., "se": ...}``; the mean is ``None`` with no observations."""
        return {"mean": self.mean if self.n else None, "se": self.se}


def outcome_figures(outcome: GameOutcome, rules: Rules) -> dict[str, float | None]:
    """The per-game values of every statistic, by name (``None`` where a game has no value)."""
    result = outcome.result
    winners = result.winners
    figures: dict[str, float | None] = {
        "claimed_cards": sum(result.cards),
        "claimed_snakes": sum(result.snakes),
        "legal_actions_per_turn": outcome.legal_actions_per_turn,
        "turns_with_choice": outcome.turns_with_choice,
        "seat1_win_rate": 1 if 0 in winners else 0,
        "shared_win_share": 1 if len(winners) > 1 else 0,
        "longest_snake": max(result.longest, default=0),
        "table_snakes_end": outcome.table_snakes,
        "turns": outcome.turns,
        "table_cards_end": outcome.table_cards,
        "max_legal_actions": max(outcome.choices, default=None),
        "new_snakes": outcome.new_snakes,
        "extends": outcome.extends,
        "caps": outcome.caps,
        "joins": outcome.joins,
        "tie_break_share": 1 if result.decided_by not in _settled_first(rules) else 0,
        "winner_cards": result.cards[winners[0]],
    }
    for seat, cards in enumerate(result.cards, start=1):
        figures[f"seat{seat}_cards"] = cards
    for seat in range(2, len(result.cards) + 1):
        figures[f"seat{seat}_win_rate"] = 1 if seat - 1 in winners else 0
    return figures


def _settled_first(rules: Rules) -> tuple[str, ...]:
    """The ``Result.decided_by`` values that do not involve a tie-break."""
    first = {
        Scoring.CARDS: "cards",
        Scoring.SNAKES: "snakes",
        Scoring.LONGEST: "longest",
        Scoring.FIRST_TO: "cards",
    }[rules.scoring]
    return (first, "target", "shared")


def stat_names(players: int) -> list[str]:
    """Every statistic :func:`simulate` reports for a table of ``players``, in output order."""
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
        return f"seat {seat} among the winners"
    return f"cards in seat {seat}'s pit at the end"


def rules_label(rules: Rules) -> str | dict[str, Any]:
    """The preset name of ``rules``, or its options when it is no preset."""
    return rules.preset or rules.to_mapping()


def simulate(
    games: int,
    players: int,
    seed: int,
    rules: Rules,
    deck: Deck,
    bots: Sequence[Bot],
    record_dir: str | Path | None = None,
    progress: Progress | None = None,
    *,
    snapshots: bool = False,
) -> dict[str, Any]:
    """Play ``games`` games and return the run's settings and statistics (see the module docstring).

    ``bots`` holds one bot per seat, or a single bot for every seat. With ``record_dir`` each game's
    record is written there as ``game-000001.json``, ``game-000002.json``, ... (the directory is
    created if needed; with ``snapshots`` they hold the table and pits after every turn).
    ``progress`` is called after each game with (games done, games).
    Raises :class:`~hisss.core.ConfigError` for a bad number of games, players or bots.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ConfigError(f"games must be a whole number of at least 1, not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigError(f"the seed must be a whole number, not {seed!r}")
    rules.check_players(players)
    seats = tuple(bots) * players if len(bots) == 1 else tuple(bots)
    if len(seats) != players:
        raise ConfigError(f"{len(bots)} bots for {players} players: give one, or one per seat")
    out_dir = Path(record_dir) if record_dir is not None else None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    names = stat_names(players)
    stats = {name: RunningStat() for name in names}
    for number in range(1, games + 1):
        gseed = game_seed(seed, number)
        rng = random.Random(gseed)
        outcome = play_game(
            rules, deck, seats, rng, record=out_dir is not None, seed=gseed, snapshots=snapshots
        )
        for name, value in outcome_figures(outcome, rules).items():
            if value is not None:
                stats[name].add(value)
        if out_dir is not None and outcome.record is not None:
            save_record(outcome.record, out_dir / f"game-{number:06d}.json")
        if progress is not None:
            progress(number, games)
    report: dict[str, Any] = {
        "games": games,
        "players": players,
        "seed": seed,
        "rules": rules_label(rules),
        "deck": deck.name,
        "deck_cards": deck.size,
        "bots": [b.name for b in seats],
    }
    for name in names:
        report[name] = stats[name].to_dict()
    return report
