"""Measuring the engine's speed: random games per second on one core, and the cost of the
operations that searching bots repeat thousands of times per move.

:func:`bench` plays uniformly random games for a few seconds through the engine's fast path
(``State.push_draw`` for the deal, ``legal_actions()``, the unchecked ``push()``), then times
``legal_actions()``, ``copy()``, ``push()`` and ``undo()`` on positions from real games. Every game
stops at its end, as a real game does (a "first to N cards" scoring can end it before the deck runs
out). A deck too small to give any decision point (a single card: the starter, and no turn) still
has its games timed; the per-operation figures are then ``None``. :func:`fast_throughput` measures
the compiled kernel's random games per second (:mod:`hisss.sim.fast`) beside the engine's. The
figures depend on the machine and vary from run to run; they are for comparing, never for tests.
"""

from __future__ import annotations

import importlib
import platform
import random
import time
from collections.abc import Callable

from hisss.core import RAINBOW, Card, ConfigError, Deck, Rules, State, deal, get_rules, new_game
from hisss.sim.reports import BenchReport, FastThroughput

#: The default length of the throughput measurement, in seconds.
DEFAULT_SECONDS = 3.0


def _random_game(state: State, cards: list[Card], rng: random.Random) -> int:
    """Play ``state`` out with uniformly random placements of ``cards``; return the turns played.

    Stops at the end of the game, which may come before the cards run out.
    """
    draw = state.push_draw  # the unchecked draw: the engine's fast path is what we measure
    legal_actions = state.legal_actions
    push = state.push
    is_terminal = state.is_terminal
    rand = rng.random
    turns = 0
    for card in cards:
        if is_terminal():
            break
        draw(card)
        if state.drawn is not None:
            legal = legal_actions()
            n = len(legal)
            push(legal[0] if n == 1 else legal[int(rand() * n)])
            turns += 1
    return turns


def _throughput(
    seconds: float, players: int, rules: Rules, deck: Deck, rng: random.Random
) -> tuple[int, int, float]:
    """Play random games for ``seconds``; return (games, turns, elapsed seconds)."""
    games = turns = 0
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    while True:
        for _ in range(20):  # check the clock every few games only
            state = new_game(players, rules, deck)
            turns += _random_game(state, deal(deck, rng), rng)
            games += 1
        now = clock()
        if now >= deadline:
            return games, turns, now - start


#: The most random games :func:`_sample_positions` plays per position asked for.
SAMPLE_GAMES_PER_POSITION = 20


def _sample_positions(
    count: int, players: int, rules: Rules, deck: Deck, rng: random.Random
) -> list[State]:
    """Decision points taken from random games: a card drawn and waiting to be placed.

    Returns fewer than ``count`` (none at all for a deck of one card) when the games played,
    at most ``SAMPLE_GAMES_PER_POSITION * count`` of them, hold too few decision points; a game
    with no decision point at all ends the search, since every game of the deck is then alike.
    """
    positions: list[State] = []
    for _ in range(max(1, SAMPLE_GAMES_PER_POSITION * count)):
        if len(positions) >= count:
            break
        state = new_game(players, rules, deck)
        decisions = 0
        for card in deal(deck, rng):
            if state.is_terminal():
                break
            state.push_draw(card)
            if state.drawn is not None:
                decisions += 1
                legal = state.legal_actions()
                if rng.random() < 0.25:
                    positions.append(state.copy())
                state.push(legal[rng.randrange(len(legal))])
        if decisions == 0:
            break
    return positions[:count]


def _best_of(repeats: int, run: Callable[[], tuple[float, int]]) -> float:
    """The fastest of ``repeats`` runs of ``run()``, which returns (seconds, operations)."""
    best = float("inf")
    for _ in range(repeats):
        elapsed, ops = run()
        best = min(best, elapsed / max(ops, 1))
    return best


def _rounded(value: float | None, places: int) -> float | None:
    return None if value is None else round(value, places)


def _time_legal_actions(positions: list[State], loops: int) -> tuple[float, int]:
    clock = time.perf_counter
    start = clock()
    for _ in range(loops):
        for state in positions:
            state.legal_actions()
    return clock() - start, loops * len(positions)


def _time_copy(positions: list[State], loops: int) -> tuple[float, int]:
    clock = time.perf_counter
    start = clock()
    for _ in range(loops):
        for state in positions:
            state.copy()
    return clock() - start, loops * len(positions)


def _time_push_undo(
    positions: list[State], loops: int, rng: random.Random
) -> tuple[tuple[float, int], tuple[float, int]]:
    """Time pushes of a legal action and the undos that take them back, separately."""
    moves = [(s, s.legal_actions()) for s in positions]
    picks = [(s, legal[rng.randrange(len(legal))]) for s, legal in moves]
    clock = time.perf_counter
    push_time = undo_time = 0.0
    for _ in range(loops):
        start = clock()
        for state, action in picks:
            state.push(action)
        mid = clock()
        for state, _action in picks:
            state.undo()
        push_time += mid - start
        undo_time += clock() - mid
    ops = loops * len(picks)
    return (push_time, ops), (undo_time, ops)


#: Games per call of the kernel while measuring it.
FAST_BATCH = 20_000


def fast_throughput(
    seconds: float, players: int, rules: Rules, deck: Deck, seed: int = 0
) -> FastThroughput:
    """Random games per second through the compiled kernel (:mod:`hisss.sim.fast`), the run's
    statistics included, on one core; the compile (or cache load) time is measured apart.

    Returns the :class:`~hisss.sim.reports.FastThroughput`: ``games_per_second``, ``games``,
    ``seconds`` and ``compile_seconds``. Raises :class:`~hisss.core.ConfigError` without numba.
    """
    fast = importlib.import_module("hisss.sim.fast")
    batch = importlib.import_module("hisss.sim.batch")
    spec = fast.FastSpec(players, rules, deck, ("random",) * players)
    compile_seconds = fast.warm_up(spec)
    games = 0
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    first = 1
    while True:
        played = fast.play_fast(spec, seed, first, FAST_BATCH)
        batch.fast_stats(played.rows, players, rules)
        games += FAST_BATCH
        first += FAST_BATCH
        now = clock()
        if now >= deadline:
            break
    elapsed = now - start
    return FastThroughput(
        games_per_second=round(games / elapsed, 1),
        games=games,
        seconds=round(elapsed, 3),
        compile_seconds=round(compile_seconds, 3),
    )


def bench(
    seconds: float = DEFAULT_SECONDS,
    players: int = 2,
    rules: Rules | None = None,
    deck: Deck = RAINBOW,
    seed: int = 0,
    *,
    fast: bool = True,
) -> BenchReport:
    """Measure random-play throughput and the cost of the search primitives; return the figures.

    The :class:`~hisss.sim.reports.BenchReport` holds ``games_per_second``,
    ``turns_per_second``, ``us_per_turn`` (a whole turn: draw, legal actions, random choice,
    push), ``legal_actions_per_second`` and ``us_per_legal_actions``, ``us_per_copy``,
    ``us_per_push``, ``us_per_undo``, the settings, ``games``, ``turns`` and ``seconds`` actually
    played, ``positions`` (the decision points the operations were timed on)
    and the Python version. Figures that the deck cannot give (``us_per_turn`` and the operation
    figures of a deck with no turns, such as a single card) are ``None``.

    With ``fast`` the compiled kernel is measured too for the same time (:func:`fast_throughput`:
    its games per second and its compile time, as ``fast``); without numba, or with ``fast``
    false, ``fast`` is ``None`` and ``fast_note`` says why.
    """
    rules = rules if rules is not None else get_rules("classic")
    rules.check_players(players)
    if not rules.seats_draw:
        raise ConfigError(
            "the benchmark measures the classic game's engine: leave out hand_size "
            "(hisss movetimes and simulate time the hand variant)"
        )
    rng = random.Random(seed)
    _throughput(min(0.2, seconds), players, rules, deck, rng)  # warm up caches
    games, turns, elapsed = _throughput(seconds, players, rules, deck, rng)
    positions = _sample_positions(400, players, rules, deck, rng)
    legal_cost = copy_cost = push_cost = undo_cost = None
    if positions:
        legal_cost = _best_of(5, lambda: _time_legal_actions(positions, 20))
        copy_cost = _best_of(5, lambda: _time_copy(positions, 20))
        push_costs: list[float] = []
        undo_costs: list[float] = []
        for _ in range(5):
            pushed, undone = _time_push_undo(positions, 20, rng)
            push_costs.append(pushed[0] / pushed[1])
            undo_costs.append(undone[0] / undone[1])
        push_cost, undo_cost = min(push_costs), min(undo_costs)

    def micro(cost: float | None) -> float | None:
        return None if cost is None else cost * 1e6

    kernel: FastThroughput | None = None
    fast_note = None if fast else "not measured"
    if fast:
        try:
            kernel = fast_throughput(seconds, players, rules, deck, seed)
        except ConfigError as exc:
            fast_note = str(exc)
    return BenchReport(
        games_per_second=round(games / elapsed, 1),
        turns_per_second=round(turns / elapsed, 1),
        us_per_turn=_rounded(elapsed / turns * 1e6 if turns else None, 3),
        legal_actions_per_second=_rounded(1 / legal_cost if legal_cost else None, 1),
        us_per_legal_actions=_rounded(micro(legal_cost), 3),
        us_per_copy=_rounded(micro(copy_cost), 3),
        us_per_push=_rounded(micro(push_cost), 3),
        us_per_undo=_rounded(micro(undo_cost), 3),
        games=games,
        turns=turns,
        positions=len(positions),
        seconds=round(elapsed, 3),
        players=players,
        rules=rules,
        deck=deck.name,
        python=platform.python_version(),
        implementation=platform.python_implementation(),
        machine=platform.machine(),
        fast=kernel,
        fast_note=fast_note,
    )
