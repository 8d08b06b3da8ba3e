"""How long a bot thinks: its time per decision over real games.

:func:`move_times` plays seeded games with the bot in a seat (or in every seat), times every call
of its :meth:`~hisss.bots.Bot.choose`, and summarises the times: median, 90th and 99th
percentiles, maximum and mean, in seconds. It reports all decisions, and separately the decisions
with two or more legal placements (a bot answers a forced move at once, so those are the ones
that show its thinking). The figures depend on the machine and vary from run to run; they are for
benchmarks, never for tests of exact values.

>>> from hisss.bots import make_bot
>>> out = move_times(make_bot("random"), games=2, players=2, seed=1)
>>> out.games, out.decisions == 2 * 49
(2, True)
>>> sorted(out.to_dict()["choice"])
['count', 'max', 'mean', 'median', 'p90', 'p99']
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from hisss.bots import Bot
from hisss.core import RAINBOW, Action, Deck, Rules, SeatView, State, deal, get_rules
from hisss.sim.play import game_seed, play_game
from hisss.sim.reports import MoveTimesReport, TimeSummary


class _Timed(Bot):
    """Wraps a bot and records the time of each of its decisions."""

    def __init__(self, inner: Bot, times: list[float], choice_times: list[float]) -> None:
        super().__init__(inner.budget)
        self.inner = inner
        self.name = inner.name
        self.times = times
        self.choice_times = choice_times

    def choose(self, state: State, rng: random.Random) -> Action:
        return self._timed(len(state.legal_actions()), lambda: self.inner.choose(state, rng))

    def choose_from_hand(self, view: SeatView, rng: random.Random) -> Action:
        choices = len(view.legal_actions())
        return self._timed(choices, lambda: self.inner.choose_from_hand(view, rng))

    def _timed(self, choices: int, decide: Callable[[], Action]) -> Action:
        start = time.perf_counter()
        action = decide()
        spent = time.perf_counter() - start
        self.times.append(spent)
        if choices > 1:
            self.choice_times.append(spent)
        return action


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) of ``values`` by the nearest-rank method.

    >>> percentile([4.0, 1.0, 3.0, 2.0], 50), percentile([4.0, 1.0, 3.0, 2.0], 100)
    (2.0, 4.0)
    """
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def summarise(times: Sequence[float]) -> TimeSummary:
    """Count, median, p90, p99, max and mean of ``times`` (``None`` for an empty list)."""
    if not times:
        return TimeSummary(count=0, median=None, p90=None, p99=None, max=None, mean=None)
    ordered = sorted(times)
    n = len(ordered)
    median = (
        ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2
    )  # the usual median
    return TimeSummary(
        count=n,
        median=median,
        p90=percentile(ordered, 90),
        p99=percentile(ordered, 99),
        max=ordered[-1],
        mean=sum(ordered) / n,
    )


def move_times(
    bot: Bot,
    games: int,
    players: int = 2,
    seed: int = 0,
    *,
    opponents: Sequence[Bot] | None = None,
    rules: Rules | None = None,
    deck: Deck = RAINBOW,
    progress: Callable[[int, int], None] | None = None,
) -> MoveTimesReport:
    """Time ``bot``'s decisions over ``games`` seeded games of ``players`` players
    (``progress`` is called with (games done, games) after each game).

    With ``opponents`` (one bot per other seat) the bot sits in seat ``g % players`` of game
    ``g`` and the opponents fill the other seats in order; without, the bot plays every seat.
    Game ``g`` (from 1) is dealt from :func:`~hisss.sim.play.game_seed` of ``seed`` and ``g``.

    Returns a :class:`~hisss.sim.reports.MoveTimesReport` (``bot``, ``games``, ``players``,
    ``decisions``, ``seconds``, ``warm_up_seconds``, ``all``, ``choice``): ``all`` and
    ``choice`` (the decisions with two or more legal placements) each hold ``count``,
    ``median``, ``p90``, ``p99``, ``max`` and ``mean`` in seconds; ``seconds`` is the bot's total
    thinking time. What the bot makes ready once (the expert's compiled rollouts:
    :meth:`~hisss.bots.Bot.warm_up`) is done before the first game and timed apart, as
    ``warm_up_seconds``: it is a cost of starting, not of a decision.
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if opponents is not None and len(opponents) != players - 1:
        raise ValueError(f"{players} players need {players - 1} opponents, not {len(opponents)}")
    rules = rules if rules is not None else get_rules("classic")
    warm_up_seconds = bot.warm_up()
    times: list[float] = []
    choice_times: list[float] = []
    timed = _Timed(bot, times, choice_times)
    for g in range(1, games + 1):
        rng = random.Random(game_seed(seed, g))
        order = deal(deck, rng)
        if opponents is None:
            seats: list[Bot] = [timed] * players
        else:
            seats = list(opponents)
            seats.insert(g % players, timed)
        play_game(rules, deck, seats, rng, cards=order)
        if progress is not None:
            progress(g, games)
    return MoveTimesReport(
        bot=bot.name,
        games=games,
        players=players,
        decisions=len(times),
        seconds=sum(times),
        warm_up_seconds=warm_up_seconds,
        all=summarise(times),
        choice=summarise(choice_times),
    )


__all__ = ["move_times", "percentile", "summarise"]
