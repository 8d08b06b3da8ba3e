"""Readable output of the command line: statistics tables, benchmark figures and replayed games.

Everything here writes plain text through a rich console; nothing in it decides anything, so the
same data always prints the same text.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.table import Table

from hisss.core import Result, SeatView, Snake, State, seen_by
from hisss.i18n import explain_result, get_catalog
from hisss.record import GameRecord, printable, replay, replay_steps
from hisss.sim.reports import (
    BenchReport,
    ClairvoyantReport,
    ExactValueReport,
    MoveTimesReport,
    SimulationReport,
    TournamentReport,
)
from hisss.sim.stats import describe_stat, rules_report


def _fmt(value: float | None, places: int = 4) -> str:
    return "-" if value is None else f"{value:.{places}f}"


def _count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun, singular for exactly one: "1 snake", "0 snakes", "2 copies"."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def _rules_text(rules: object) -> str:
    """A report's rules in words: the preset's name, or the options of rules that are none."""
    if isinstance(rules, dict):
        if rules.get("preset"):
            return str(rules["preset"])
        return ", ".join(f"{k}={v}" for k, v in rules.items() if k != "preset")
    return str(rules)


def print_simulation(console: Console, report: SimulationReport) -> None:
    """The statistics of a :func:`~hisss.sim.simulate` report: means ± standard errors."""
    bots = report.bots
    seats = bots[0] if len(set(bots)) == 1 else " vs ".join(bots)
    title = (
        f"{_count(report.games, 'game')} · {report.players} players · rules "
        f"{_rules_text(rules_report(report.rules))} · deck {report.deck} "
        f"({_count(report.deck_cards, 'card')}) · "
        f"bots {seats} · seed {report.seed}"
    )
    console.print(title, markup=False, soft_wrap=True)
    table = Table()
    table.add_column("statistic")
    table.add_column("mean", justify="right")
    table.add_column("± se", justify="right")
    table.add_column("meaning")
    for name, stat in report.stats.items():
        table.add_row(name, _fmt(stat.mean), _fmt(stat.se), describe_stat(name))
    console.print(table)


def _fast_games_per_second(figures: BenchReport) -> float | None:
    return None if figures.fast is None else figures.fast.games_per_second


_BENCH_ROWS: tuple[tuple[Callable[[BenchReport], float | None], str, int], ...] = (
    (lambda f: f.games_per_second, "random games per second", 0),
    (_fast_games_per_second, "random games per second, compiled kernel (--fast)", 0),
    (lambda f: f.turns_per_second, "turns per second", 0),
    (lambda f: f.us_per_turn, "µs per turn (draw, legal actions, choice, push)", 3),
    (lambda f: f.legal_actions_per_second, "legal_actions() calls per second", 0),
    (lambda f: f.us_per_legal_actions, "µs per legal_actions()", 3),
    (lambda f: f.us_per_copy, "µs per copy()", 3),
    (lambda f: f.us_per_push, "µs per push()", 3),
    (lambda f: f.us_per_undo, "µs per undo()", 3),
)


def print_bench(console: Console, figures: BenchReport) -> None:
    """A table of the figures of :func:`~hisss.sim.bench`; a figure the deck cannot give is "-"."""
    title = (
        f"{_count(figures.games, 'random game')} in {figures.seconds} s · "
        f"{figures.players} players · rules {_rules_text(rules_report(figures.rules))} · "
        f"deck {figures.deck} · "
        f"{figures.implementation} {figures.python} ({figures.machine})"
    )
    console.print(title, markup=False, soft_wrap=True)
    table = Table()
    table.add_column("figure")
    table.add_column("value", justify="right")
    for figure, label, places in _BENCH_ROWS:
        value = figure(figures)
        table.add_row(label, "-" if value is None else f"{value:,.{places}f}")
    console.print(table)
    if figures.fast is not None:
        console.print(
            f"kernel compile or cache load: {figures.fast.compile_seconds} s (not timed)",
            markup=False,
            soft_wrap=True,
        )
    if figures.fast_note:
        console.print(f"kernel: {figures.fast_note}", markup=False, soft_wrap=True)
    learners = figures.learners
    if learners:
        table = Table(
            title=f"learner steps, random actions (load average {learners['load_before']}"
            f" before, {learners['load_after']} after)"
        )
        table.add_column("environment")
        table.add_column("steps per second", justify="right")
        table.add_column("steps per CPU-second", justify="right")
        for key, label in (
            ("single_v0", "HisssEnv, v0 spaces"),
            ("single_v1", "HisssEnv, v1 spaces"),
            ("batched", f"BatchedHisssEnv, {learners['batch']:,} games"),
        ):
            row = learners[key]
            table.add_row(label, f"{row['per_second']:,}", f"{row['per_cpu_second']:,}")
        console.print(table)
        console.print(
            f"batched kernel compile or cache load: {learners['batched']['compile_seconds']} s "
            "(not timed)",
            markup=False,
            soft_wrap=True,
        )
    if not figures.positions:
        console.print(
            "no decision points: no game of this deck has a turn, so the operations were not timed",
            markup=False,
            soft_wrap=True,
        )


def print_move_times(console: Console, figures: MoveTimesReport) -> None:
    """A table of the figures of :func:`~hisss.sim.movetimes.move_times`, in milliseconds."""
    console.print(
        f"{figures.bot}: {_count(figures.decisions, 'decision')} over "
        f"{_count(figures.games, 'game')} of {figures.players} players, "
        f"{figures.seconds:.2f} s of thinking",
        markup=False,
        soft_wrap=True,
    )
    table = Table()
    table.add_column("decisions")
    table.add_column("count", justify="right")
    for column in ("median", "p90", "p99", "max", "mean"):
        table.add_column(f"{column} ms", justify="right")
    for row, label in ((figures.all, "all"), (figures.choice, "with a choice")):
        cells = [
            "-" if value is None else f"{value * 1000:,.3f}"
            for value in (row.median, row.p90, row.p99, row.max, row.mean)
        ]
        table.add_row(label, f"{row.count:,}", *cells)
    console.print(table)
    if figures.warm_up_seconds:
        console.print(
            f"compiled code made ready before the first game: {figures.warm_up_seconds:.2f} s "
            "(not timed)",
            markup=False,
        )
    if figures.games:
        console.print(
            f"{figures.seconds / figures.games * 1000:,.1f} ms of thinking per game",
            markup=False,
        )


def print_headroom(console: Console, figures: ClairvoyantReport | ExactValueReport) -> None:
    """The win share of :func:`~hisss.sim.headroom.clairvoyant` or
    :func:`~hisss.sim.headroom.exact_value`."""
    against = f"against {figures.opponent} in every other seat, {figures.players} players"
    if isinstance(figures, ExactValueReport):
        seats = ", ".join(f"seat {i + 1}: {v:.4f}" for i, v in enumerate(figures.seats))
        console.print(
            f"best win share {against}, deck {figures.deck}: {figures.value:.4f} "
            f"({seats}; {figures.positions:,} positions)",
            markup=False,
            soft_wrap=True,
        )
        return
    assert figures.ci95 is not None  # every deal is searched: there are games
    lo, hi = figures.ci95
    share = (
        f"{figures.upper:.4f}"
        if figures.cut == 0
        else f"between {figures.lower:.4f} and {figures.upper:.4f}"
    )
    console.print(
        f"clairvoyant win share {against}: {share} (95% interval {lo:.4f} to {hi:.4f}) over "
        f"{_count(figures.games, 'game')} ({_count(figures.deals, 'deal')}, seed "
        f"{figures.seed}); {_count(figures.cut, 'search', 'searches')} cut at "
        f"{figures.nodes:,} nodes",
        markup=False,
        soft_wrap=True,
    )


def _table_lines(state: State) -> list[str]:
    if not state.table:
        return ["    table  (empty)"]
    return [
        f"    {'table' if i == 0 else '':5}  {i + 1}: {snake}"
        for i, snake in enumerate(state.table)
    ]


def _claims(before: tuple[tuple[Snake, ...], ...], after: State) -> list[str]:
    lines = []
    for seat, pit in enumerate(after.pits):
        for snake in pit[len(before[seat]) :]:
            lines.append(
                f"    Hisss! seat {seat + 1} takes {snake} ({_count(len(snake.cards), 'card')})"
            )
    return lines


def _result_lines(result: Result, state: State) -> list[str]:
    seats = range(len(result.cards))
    left = sum(len(s.cards) for s in state.table)
    names = [f"seat {s + 1}" for s in seats]
    return [
        f"result: {explain_result(result, state.rules, names, get_catalog('en'))}",
        "cards per seat: " + " · ".join(f"seat {s + 1}: {result.cards[s]}" for s in seats),
        "snakes per seat: " + " · ".join(f"seat {s + 1}: {result.snakes[s]}" for s in seats),
        "longest snake per seat: "
        + " · ".join(f"seat {s + 1}: {result.longest[s]}" for s in seats),
        f"left on the table: {_count(len(state.table), 'snake')}, {_count(left, 'card')}",
    ]


def _hand_lines(state: State) -> list[str]:
    """The hand variant: every seat's hand (a replay shows them all)."""
    if not state.hand_sizes:
        return []
    views = [seen_by(state, seat) for seat in range(state.players)]
    hands = [view.hand for view in views if isinstance(view, SeatView)]
    return [
        f"    {'hands' if seat == 0 else '':5}  seat {seat + 1}: "
        + (" ".join(str(card) for card in hand) or "(empty)")
        for seat, hand in enumerate(hands)
    ]


def _waiting(state: State) -> str:
    """What an unfinished game waits for: the card to be placed, a draw, or the starter."""
    if state.hand_sizes and state.current_player is not None:
        return f"turn {state.turns + 1}, seat {state.to_move + 1} to play a card of the hand"
    if state.drawn is not None:
        return f"turn {state.turns + 1}, seat {state.to_move + 1} to place {state.drawn}"
    if not state.started:
        return "the starter is not drawn yet"
    return (
        f"turn {state.turns + 1}, seat {state.to_move + 1} to draw "
        f"({_count(state.remaining, 'card')} not drawn)"
    )


def print_game(
    console: Console, record: GameRecord, quiet: bool = False, final: State | None = None
) -> None:
    """Print a checked record turn by turn (unless ``quiet``), its final position and its result.

    ``final`` is the record's final state from :func:`hisss.record.replay` (worked out here when
    not given): it holds a drawn card still waiting to be placed, which the turn-by-turn copies do
    not. A finished game prints its result; an unfinished one says whose turn it is and which card
    waits. The final table is printed when the turns have not just shown it (``quiet``, or a
    record with no turns).
    """
    if final is None:
        final = replay(record)
    out: list[str] = []
    seats = ", ".join(f"seat {i + 1}: {name}" for i, name in enumerate(record.seats))
    rules = record.rules.preset or _rules_text(record.rules.to_mapping())
    seed = "" if record.seed is None else f" · seed {record.seed}"
    out.append(f"rules {rules} · deck {record.deck.name} · {seats}{seed}")
    if not quiet:
        if record.cards:
            out.append(f"starter: {record.cards[0]}")
        pits: tuple[tuple[Snake, ...], ...] = tuple(() for _ in record.seats)
        steps = zip(record.turns, replay_steps(record), strict=True)
        draws = record.rules.seats_draw
        for number, (turn, state) in enumerate(steps, 1):
            does = (
                f"draws {turn.card}, plays {turn.action}"
                if draws
                else f"plays {turn.card}@{turn.action}"
            )
            out.append(f"turn {number}: seat {turn.player + 1} {does}")
            out.extend(_claims(pits, state))
            out.extend(_table_lines(state))
            out.extend(_hand_lines(state))
            pits = state.pits
    if quiet or not record.turns:
        out.append(f"final position after {_count(len(record.turns), 'turn')}:")
        out.extend(_table_lines(final))
        out.extend(_hand_lines(final))
    if final.is_terminal():
        out.extend(_result_lines(final.result(), final))
    else:
        out.append(f"unfinished game: {_waiting(final)}")
    for line in out:
        # The text comes from a file (names, a deck's name): nothing in it may drive the terminal.
        console.print(printable(line), markup=False, highlight=False, soft_wrap=True)


def _interval(pair: tuple[float, float] | None) -> str:
    return "-" if pair is None else f"{pair[0]:.3f} to {pair[1]:.3f}"


def print_tournament(console: Console, report: TournamentReport) -> None:
    """A :func:`~hisss.sim.tournament` report: one row per bot, then the head-to-head table.

    The head-to-head cell in row A, column B is A's score against B (1 when A placed above B,
    1/2 when equal) over the games both played, with that number of games.
    """
    mirrored = (
        f"mirrored ({_count(report.deals, 'deal')}, seats rotated)"
        if report.mirror
        else "not mirrored"
    )
    title = (
        f"{_count(report.games, 'game')} · {report.players} players · {mirrored} · rules "
        f"{_rules_text(rules_report(report.rules))} · deck {report.deck} "
        f"({_count(report.deck_cards, 'card')}) · seed {report.seed}"
    )
    console.print(title, markup=False, soft_wrap=True)
    table = Table()
    table.add_column("bot")
    table.add_column("games", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("95% interval", justify="right")
    table.add_column("mean cards", justify="right")
    table.add_column("rating", justify="right")
    table.add_column("± sigma", justify="right")
    for name, row in report.bots.items():
        table.add_row(
            name,
            str(row.games),
            _fmt(row.win_rate),
            _interval(row.ci95),
            _fmt(row.mean_cards, 2),
            _fmt(row.rating, 2),
            _fmt(row.rating_sigma, 2),
        )
    console.print(table)
    names = list(report.bots)
    console.print("head to head: the row's score against the column (games)", markup=False)
    pairs = Table()
    pairs.add_column("")
    for name in names:
        pairs.add_column(name, justify="right")
    for a in names:
        cells = []
        for b in names:
            cell = report.head_to_head[a].get(b) if a != b else None
            if cell is None:
                cells.append("")
            elif cell.games == 0 or cell.score is None:
                cells.append("-")
            else:
                cells.append(f"{cell.score:.3f} ({cell.games})")
        pairs.add_row(a, *cells)
    console.print(pairs)
    console.print(
        "a shared win counts as a fraction; the interval is clustered by deal; "
        "rating: openskill Plackett-Luce mu",
        markup=False,
        soft_wrap=True,
    )
