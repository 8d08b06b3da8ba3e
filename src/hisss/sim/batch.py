"""Batch simulation: a seeded run of games between bots, on any backend, streamed to disk if asked.

:func:`simulate` plays ``games`` games and returns a :class:`~hisss.sim.reports.SimulationReport`:
the run's settings, then each statistic's mean, standard error and 95% interval (see
:mod:`hisss.sim.stats`); its ``to_dict()`` is the JSON object of ``hisss simulate --json``.

Game ``k`` of a run (counted from 1) is dealt and played from a seed derived from the run's seed
and ``k`` alone (:func:`~hisss.sim.play.game_seed` for the engine,
:func:`~hisss.sim.fast.fast_game_seed` for the fast path), and bots given by name are made afresh
for every game, so a game never depends on which other games were played, in what order or where.
The run is cut into tasks of consecutive games (:func:`play_chunk`) that the backend plays
(:mod:`hisss.sim.executor`: this process, local worker processes, or Ray); results come back in
game order and statistics are exact sums, so the same arguments give the same report, and the
same results file, byte for byte, whatever the backend, the number of workers or the task size.

With ``out`` every game is written as one JSON line (:mod:`hisss.sim.results`) as tasks complete;
an interrupted run given the same arguments resumes after its last complete game.

>>> from hisss.core import RAINBOW, get_rules
>>> out = simulate(20, SimSpec(2, 0, get_rules("classic"), RAINBOW, ("random",)))
>>> out.games, out.stats["turns"]
(20, StatSummary(mean=49.0, se=0.0, ci95=(49.0, 49.0)))
>>> out.to_dict()["turns"]
{'mean': 49.0, 'se': 0.0, 'ci95': [49.0, 49.0]}
"""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import Any

from hisss.bots import Bot, GreedyBot, RandomBot, make_bot
from hisss.core import ConfigError, Deck, HisssError, Rules
from hisss.record import save_record
from hisss.sim.executor import Backend, run_ordered
from hisss.sim.play import game_seed, play_game
from hisss.sim.reports import SimulationReport
from hisss.sim.results import ResultsWriter, dumps, open_results
from hisss.sim.stats import Progress, RunStats, game_row, rules_label, stat_names


class Engine(StrEnum):
    """What plays a run's games: the rules engine (every bot) or the compiled kernel (``--fast``:
    random and greedy bots); the values are the spellings in reports and results files."""

    ENGINE = "engine"
    FAST = "fast"


#: The most games of one task, by engine; smaller tasks keep the progress bar moving.
MAX_CHUNK = {Engine.ENGINE: 1000, Engine.FAST: 50_000}
#: Tasks per worker aimed for, so that uneven task times even out.
CHUNKS_PER_WORKER = 8


@dataclass(frozen=True, slots=True)
class SimSpec:
    """A run of games: what :func:`simulate` is asked to play, and what every worker needs to
    play any game of it (small and picklable). :func:`simulate` fills in ``settings`` and
    ``lines``."""

    players: int
    seed: int
    rules: Rules
    deck: Deck
    #: One bot per seat (for :func:`simulate`, or one for every seat): a name (made afresh for
    #: each game) or a bot object.
    bots: tuple[Bot | str, ...]
    engine: Engine = Engine.ENGINE
    #: Per-game settings copied into every line.
    settings: dict[str, Any] = field(default_factory=dict)
    #: Write lines for a results file.
    lines: bool = False
    #: The folder each game's record is written to (the engine only).
    record_dir: str | None = None
    #: Records keep the table and the pits after every turn.
    snapshots: bool = False


@dataclass(slots=True)
class ChunkResult:
    """The statistics of a task's games and, when asked, their lines (UTF-8, one blob: a single
    object crosses a process boundary far faster than thousands of strings)."""

    stats: RunStats
    data: bytes


def _seat_bots(spec: SimSpec) -> list[Bot]:
    return [make_bot(b) if isinstance(b, str) else b for b in spec.bots]


def play_chunk(
    spec: SimSpec, first: int, last: int, progress: Callable[[int], None] | None = None
) -> ChunkResult:
    """Play games ``first`` to ``last`` (inclusive) of a run: a task of the backend.

    ``progress`` (in this process only) is called with the number of games done so far.
    The package's errors are raised again naming the game, so that they cross a process boundary
    intact.
    """
    if spec.engine is Engine.FAST:
        return _fast_chunk(spec, first, last)
    stats = RunStats(spec.players, spec.rules)
    lines: list[str] = []
    out_dir = Path(spec.record_dir) if spec.record_dir is not None else None
    for number in range(first, last + 1):
        gseed = game_seed(spec.seed, number)
        try:
            outcome = play_game(
                spec.rules,
                spec.deck,
                _seat_bots(spec),
                random.Random(gseed),
                record=out_dir is not None,
                seed=gseed,
                snapshots=spec.snapshots,
            )
        except HisssError as exc:
            raise HisssError(f"game {number}: {exc}") from None
        row = game_row(outcome, number, gseed, spec.settings)
        stats.add_row(row)
        if spec.lines:
            lines.append(dumps(row) + "\n")
        if out_dir is not None and outcome.record is not None:
            save_record(outcome.record, out_dir / f"game-{number:06d}.json")
        if progress is not None:
            progress(number - first + 1)
    return ChunkResult(stats, "".join(lines).encode("utf-8"))


def _fast_spec(spec: SimSpec) -> Any:
    if not spec.rules.seats_draw:
        raise ConfigError(
            "the fast path plays the classic game only: leave out --fast to play the hand "
            "variant (hand_size)"
        )
    fast = importlib.import_module("hisss.sim.fast")
    names = []
    for bot in _seat_bots(spec):
        if type(bot) is RandomBot:
            names.append("random")
        elif type(bot) is GreedyBot:
            names.append("greedy")
        else:
            raise ConfigError(
                f"the fast path plays only the bots {', '.join(fast.FAST_BOTS)}, not {bot.name!r}"
            )
    return fast.FastSpec(spec.players, spec.rules, spec.deck, tuple(names))


def _fast_chunk(spec: SimSpec, first: int, last: int) -> ChunkResult:
    fast = importlib.import_module("hisss.sim.fast")
    games = fast.play_fast(_fast_spec(spec), spec.seed, first, last - first + 1)
    stats = fast_stats(games.rows, spec.players, spec.rules)
    lines = fast_lines(games, spec) if spec.lines else []
    return ChunkResult(stats, "".join(lines).encode("utf-8"))


def fast_stats(rows: Any, players: int, rules: Rules) -> RunStats:
    """The statistics of the kernel's rows of figures, as :meth:`RunStats.add_row` would add the
    same games one by one (exact sums, computed with numpy)."""
    np = importlib.import_module("numpy")
    kernel = importlib.import_module("hisss.kernel.steps")
    out = RunStats(players, rules)
    stats = out.stats
    base = kernel.COL_SEATS
    cards = rows[:, base : base + players]
    snakes = rows[:, base + players : base + 2 * players]
    longest = rows[:, base + 2 * players : base + 3 * players]
    turns = rows[:, kernel.COL_TURNS]
    winners = rows[:, kernel.COL_WINNERS]
    played = turns > 0

    def put(name: str, values: Any, denominator: int = 1) -> None:
        values = values.astype(np.int64)
        stats[name].add_sums(
            len(values), int(values.sum()), int((values * values).sum()), denominator
        )

    choices = rows[:, kernel.COL_CHOICES]
    for t in np.unique(turns[played]).tolist():
        put("legal_actions_per_turn", choices[turns == t], t)
    put("claimed_cards", cards.sum(axis=1))
    put("claimed_snakes", snakes.sum(axis=1))
    put("turns_with_choice", rows[:, kernel.COL_WITH_CHOICE])
    # A shared win counts 1/k for each of its k winners: group the games by k.
    shares = sum(((winners >> s) & 1 for s in range(players)), np.zeros_like(winners))

    def put_share(name: str, won: Any) -> None:
        for k in np.unique(shares).tolist():
            put(name, won[shares == k], max(int(k), 1))

    put_share("seat1_win_rate", winners & 1)
    put("shared_win_share", (winners & (winners - 1)) != 0)
    put("longest_snake", longest.max(axis=1))
    put("table_snakes_end", rows[:, kernel.COL_TABLE_SNAKES])
    put("turns", turns)
    put("table_cards_end", rows[:, kernel.COL_TABLE_CARDS])
    put("max_legal_actions", rows[played, kernel.COL_MAX_CHOICES])
    put("new_snakes", rows[:, kernel.COL_NEW])
    put("extends", rows[:, kernel.COL_EXTENDS])
    put("caps", rows[:, kernel.COL_CAPS])
    put("joins", rows[:, kernel.COL_JOINS])
    settled = [kernel.DECIDED.index(name) for name in out.settled if name in kernel.DECIDED]
    put("tie_break_share", ~np.isin(rows[:, kernel.COL_DECIDED], settled))
    seats = np.arange(players)
    first_winner = np.argmax((winners[:, None] >> seats) & 1, axis=1)
    put("winner_cards", cards[np.arange(len(rows)), first_winner])
    for seat in range(players):
        put(f"seat{seat + 1}_cards", cards[:, seat])
    for seat in range(1, players):
        put_share(f"seat{seat + 1}_win_rate", (winners >> seat) & 1)
    return out


def _ints(values: Sequence[int]) -> str:
    return "[" + ",".join(map(str, values)) + "]"


def fast_lines(games: Any, spec: SimSpec) -> list[str]:
    """The results-file lines of the kernel's games: exactly the text ``dumps(row)`` gives for
    the same game's row (:func:`~hisss.sim.stats.game_row`), written out directly for speed."""
    kernel = importlib.import_module("hisss.kernel.steps")
    players = spec.players
    base = kernel.COL_SEATS
    settings = dumps(spec.settings)[1:-1]
    settings = "," + settings if settings else ""
    decided = [dumps(name) for name in kernel.DECIDED]
    seeds = games.seeds.tolist()
    seat_of = games.claim_seat.tolist()
    length_of = games.claim_len.tolist()
    first = games.first
    lines = []
    for g, r in enumerate(games.rows.tolist()):
        snakes = r[base + players : base + 2 * players]
        claimed: list[list[int]] = [[] for _ in range(players)]
        for m in range(sum(snakes)):
            claimed[seat_of[g][m]].append(length_of[g][m])
        mask = r[kernel.COL_WINNERS]
        most = r[kernel.COL_MAX_CHOICES]
        longest = r[base + 2 * players : base + 3 * players]
        lines.append(
            f'{{"game":{first + g},"seed":{seeds[g]}{settings},"turns":{r[0]},'
            f'"choices":{r[1]},"turns_with_choice":{r[2]},'
            f'"max_choices":{most if most >= 0 else "null"},"new_snakes":{r[4]},'
            f'"extends":{r[5]},"caps":{r[6]},"joins":{r[7]},"table_snakes":{r[8]},'
            f'"table_cards":{r[9]},"cards":{_ints(r[base : base + players])},'
            f'"snakes":{_ints(snakes)},"longest":{_ints(longest)},'
            f'"claimed":[{",".join(map(_ints, claimed))}],'
            f'"winners":{_ints([s + 1 for s in range(players) if mask >> s & 1])},'
            f'"decided_by":{decided[r[10]]}}}\n'
        )
    return lines


def chunk_ranges(
    first: int, last: int, engine: Engine, workers: int, size: int | None = None
) -> list[tuple[int, int]]:
    """Consecutive ranges ``(first, last)`` of game numbers covering ``first`` to ``last``.

    >>> chunk_ranges(1, 10, Engine.ENGINE, 1, size=4)
    [(1, 4), (5, 8), (9, 10)]
    """
    count = last - first + 1
    if count <= 0:
        return []
    if size is None:
        size = max(1, min(MAX_CHUNK[engine], math.ceil(count / (workers * CHUNKS_PER_WORKER))))
    return [(a, min(a + size - 1, last)) for a in range(first, last + 1, size)]


def _whole(value: object, what: str, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ConfigError(f"{what} must be a whole number of at least {least}, not {value!r}")
    return value


def _bot_label(bot: Bot | str) -> str:
    return bot.strip().lower() if isinstance(bot, str) else bot.name


def simulate(
    games: int,
    spec: SimSpec,
    *,
    backend: Backend | None = None,
    out: str | Path | None = None,
    chunk: int | None = None,
    progress: Progress | None = None,
) -> SimulationReport:
    """Play ``games`` games of the run ``spec`` and return the run's settings and statistics
    (see the module doc).

    ``spec`` gives the players, the seed, the rules, the deck, the bots, the engine and where
    the records go (its ``settings`` and ``lines`` are filled in here). Its ``bots`` hold one
    bot per seat, or a single one for every seat: names (made afresh for every game, so that a
    bot's memory never carries from one game to the next; needed for the results to be the same
    on any backend) or bot objects. Its ``engine`` (an :class:`Engine` or its spelling) is
    ``engine`` (the rules engine, every bot) or ``fast`` (the compiled kernel: ``random`` and
    ``greedy`` only). With its ``record_dir`` each game's record is written there as
    ``game-000001.json``, ... (engine only; with ``snapshots`` the table and pits after every
    turn). ``backend`` says where the games run (default: this process). With ``out`` every game
    is streamed to a results file, resumed when it holds part of this run. ``chunk`` is the
    number of games per task (default: from the run's size and the workers); the results do not
    depend on it. ``progress`` is called with (games done, games), after each game in this
    process or each task on workers.
    Raises :class:`~hisss.core.ConfigError` for a bad number of games, players or bots, a bot the
    fast path does not play, or a results file of another run.
    """
    games = _whole(games, "games", 1)
    spec, made = _checked_run(spec, out is not None)
    if chunk is not None:
        chunk = _whole(chunk, "the games per task", 1)
    backend = backend if backend is not None else Backend()
    if spec.engine is Engine.FAST:
        _prepare_fast(spec, backend)
    if spec.record_dir is not None:
        Path(spec.record_dir).mkdir(parents=True, exist_ok=True)
    stats = RunStats(spec.players, spec.rules)
    writer: ResultsWriter | None = None
    done = 0
    if out is not None:
        run = {
            "command": "simulate",
            **spec.settings,
            "seed": spec.seed,
            "deck_cards": spec.deck.to_mapping()["cards"],
        }
        writer, done = open_results(out, run, games, stats.add_row)
    try:
        if progress is not None and done:
            progress(done, games)
        tasks = chunk_ranges(done + 1, games, spec.engine, backend.workers, chunk)
        _play_tasks(spec, tasks, backend, stats, writer, progress, games)
    finally:
        if writer is not None:
            writer.close()
    assert list(stats.stats) == stat_names(spec.players)
    return SimulationReport(
        games=games,
        players=spec.players,
        seed=spec.seed,
        rules=spec.rules,
        deck=spec.deck.name,
        deck_cards=spec.deck.size,
        bots=tuple(b.name for b in made),
        engine=spec.engine.value,
        stats=stats.report(),
    )


def _checked_run(spec: SimSpec, lines: bool) -> tuple[SimSpec, list[Bot]]:
    """The run ``spec`` checked, with a bot for every seat (names in lower case), its engine,
    its per-game settings and whether it writes results lines; and the bots of its seats.
    Raises :class:`~hisss.core.ConfigError` as :func:`simulate` says."""
    players, seed, rules, bots = spec.players, spec.seed, spec.rules, spec.bots
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigError(f"the seed must be a whole number, not {seed!r}")
    rules.check_players(players)
    try:
        engine = Engine(spec.engine)
    except ValueError:
        raise ConfigError(
            f"unknown engine {spec.engine!r} (engines: {', '.join(Engine)})"
        ) from None
    seats = tuple(bots) * players if len(bots) == 1 else tuple(bots)
    if len(seats) != players:
        raise ConfigError(f"{len(bots)} bots for {players} players: give one, or one per seat")
    seats = tuple(b.strip().lower() if isinstance(b, str) else b for b in seats)
    made = _seat_bots(SimSpec(players, seed, rules, spec.deck, seats))  # an unknown name fails
    settings: dict[str, Any] = {
        "engine": engine.value,
        "players": players,
        "rules": rules_label(rules),
        "deck": spec.deck.name,
        "bots": [_bot_label(b) for b in seats],
    }
    record_dir = str(spec.record_dir) if spec.record_dir is not None else None
    checked = replace(
        spec, bots=seats, engine=engine, settings=settings, lines=lines, record_dir=record_dir
    )
    return checked, made


def _prepare_fast(spec: SimSpec, backend: Backend) -> None:
    """Check a run on the fast path (no records, the kernel installed, its bots) and, for
    workers, compile the kernel (or load it) here first."""
    if spec.record_dir is not None:
        raise ConfigError(
            "game records (--record-dir) are written by the engine only, not by the fast "
            "path; use a results file (--out) for per-game lines"
        )
    fast = importlib.import_module("hisss.sim.fast")
    fast.require_kernel()
    checked = _fast_spec(spec)  # a bot the kernel does not play fails before anything else
    if backend.parallel:
        # compile (or load) here first, so that local workers load the cache, not compile
        fast.warm_up(checked)


def _play_tasks(
    spec: SimSpec,
    tasks: list[tuple[int, int]],
    backend: Backend,
    stats: RunStats,
    writer: ResultsWriter | None,
    progress: Progress | None,
    games: int,
) -> None:
    """Play the run's ``tasks`` on ``backend``, adding each to ``stats`` and ``writer`` in game
    order."""
    per_game = not backend.parallel and spec.engine is Engine.ENGINE
    if per_game:
        results: Iterator[ChunkResult] = (
            play_chunk(spec, a, b, _per_game(progress, a - 1, games)) for a, b in tasks
        )
    else:
        results = run_ordered(play_chunk, [(spec, a, b) for a, b in tasks], backend)
    for (_, last), result in zip(tasks, results, strict=True):
        stats.merge(result.stats)
        if writer is not None:
            writer.write(result.data)
        if progress is not None and not per_game:
            progress(last, games)


def _per_game(progress: Progress | None, before: int, games: int) -> Callable[[int], None] | None:
    if progress is None:
        return None

    def report(done: int) -> None:
        progress(before + done, games)

    return report


__all__ = [
    "ChunkResult",
    "Engine",
    "SimSpec",
    "chunk_ranges",
    "fast_lines",
    "fast_stats",
    "play_chunk",
    "simulate",
]
