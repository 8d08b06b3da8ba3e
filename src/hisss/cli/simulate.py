"""The commands that play bot games for figures: ``simulate``, ``bench``, ``movetimes`` and
``headroom``; and ``warm``, which compiles the code they and the expert run."""

from __future__ import annotations

import importlib
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer

from hisss.bots import BOT_NAMES, make_bot, make_bots
from hisss.cli.options import (
    AddressOption,
    BackendOption,
    ClassicSetOption,
    DeckOption,
    JsonOption,
    PlayersOption,
    ProgressOption,
    RulesOption,
    SeedOption,
    SetOption,
    WorkersOption,
    checked_rules,
)
from hisss.cli.output import errors, print_json, show
from hisss.cli.progress import run_with_progress
from hisss.cli.render import print_bench, print_headroom, print_move_times, print_simulation
from hisss.core import RAINBOW, ConfigError
from hisss.record import resolve_deck
from hisss.sim import bench as run_bench
from hisss.sim import simulate as run_simulate
from hisss.sim.batch import Engine, SimSpec
from hisss.sim.bench import DEFAULT_SECONDS
from hisss.sim.executor import Backend, BackendKind
from hisss.sim.headroom import (
    CLAIRVOYANT_NODES,
    EXACT_MAX_CARDS,
    Deals,
    check_headroom_rules,
    clairvoyant,
    exact_value,
)
from hisss.sim.movetimes import move_times
from hisss.sim.reports import ClairvoyantReport, ExactValueReport


def simulate(
    games: Annotated[
        int, typer.Option("--games", "-n", metavar="N", help="Number of games to play.")
    ] = 1000,
    players: PlayersOption = 2,
    seed: SeedOption = 0,
    rules: RulesOption = "classic",
    rule_set_options: SetOption = None,
    deck: DeckOption = "rainbow",
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            metavar="BOT[,BOT...]",
            help=f"One bot for every seat, or one per seat separated by commas "
            f"(known: {', '.join(BOT_NAMES)}).",
        ),
    ] = "random",
    as_json: JsonOption = False,
    record_dir: Annotated[
        Path | None,
        typer.Option(
            "--record-dir",
            metavar="DIR",
            help="Write each game's record to this directory (game-000001.json, ...).",
            file_okay=False,
        ),
    ] = None,
    snapshots: Annotated[
        bool,
        typer.Option(
            "--snapshots", help="With --record-dir: store the table and pits after every turn."
        ),
    ] = False,
    progress: ProgressOption = None,
    fast: Annotated[
        bool,
        typer.Option(
            "--fast",
            help="Play through the compiled kernel (random and greedy bots; pip install "
            "'hisss[dist]'): the same statistics as the engine, many times faster.",
        ),
    ] = False,
    workers: WorkersOption = 1,
    backend: BackendOption = BackendKind.LOCAL.value,
    address: AddressOption = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            metavar="FILE",
            help="Stream every game to FILE as JSON lines (a header line, then one line per "
            "game). If FILE holds part of this same run, the run resumes after its last game.",
            dir_okay=False,
        ),
    ] = None,
    chunk: Annotated[
        int | None,
        typer.Option(
            "--chunk",
            metavar="N",
            help="Games per task (default: from the run's size and --workers); the output does "
            "not depend on it.",
        ),
    ] = None,
) -> None:
    """Play many games between bots and report statistics: means, standard errors, 95% intervals.

    Game k of a run is dealt and played from a seed derived from --seed and k, so the same
    arguments always print the same output, whatever --workers, --backend or --chunk.
    """
    with errors():
        rule_set = checked_rules(rules, rule_set_options, players)
        the_deck = resolve_deck(deck)
        make_bots(bots, players)  # check the names and their number first
        spec = SimSpec(
            players,
            seed,
            rule_set,
            the_deck,
            tuple(n.strip() for n in bots.split(",")),
            Engine.FAST if fast else Engine.ENGINE,
            record_dir=str(record_dir) if record_dir is not None else None,
            snapshots=snapshots,
        )
        args: dict[str, Any] = {
            "games": games,
            "spec": spec,
            "backend": Backend(backend.strip().lower(), workers, address),
            "out": out,
            "chunk": chunk,
        }
        report = run_with_progress(run_simulate, args, "simulating", games, progress)
    show(report, as_json, print_simulation)


def bench(
    as_json: JsonOption = False,
    seconds: Annotated[
        float,
        typer.Option(
            "--seconds", "-t", metavar="S", help="How long to play random games.", min=0.01
        ),
    ] = DEFAULT_SECONDS,
    players: PlayersOption = 2,
    rules: RulesOption = "classic",
    rule_set_options: ClassicSetOption = None,
    deck: DeckOption = "rainbow",
    fast: Annotated[
        bool,
        typer.Option(
            "--fast/--no-fast",
            help="Also measure the compiled kernel (fast_games_per_second; needs numba).",
        ),
    ] = True,
    learners: Annotated[
        bool,
        typer.Option(
            "--learners/--no-learners",
            help="Also measure learner steps per second: the Gymnasium environment and the "
            "batched compiled one (needs the rl extra and numba).",
        ),
    ] = False,
) -> None:
    """Measure the engine's random-play throughput on one core.

    Plays uniformly random games for a few seconds, each to its end, then times legal_actions(),
    copy(), push() and undo() on positions from real games. A deck with no turns (one card) shows
    "-" for the figures it cannot give. The compiled kernel (simulate --fast) is measured for the
    same time, its compile time apart. Figures vary with the machine and the moment.
    """
    with errors():
        rule_set = checked_rules(rules, rule_set_options, players)
        the_deck = resolve_deck(deck)
        figures = run_bench(seconds, players, rule_set, the_deck, fast=fast)
        if learners:
            from hisss.rl.bench import learner_throughput  # noqa: PLC0415 (the rl extra)

            learned = learner_throughput(seconds, players, rule_set, the_deck)
            figures = replace(figures, learners=learned)
    show(figures, as_json, print_bench)


def movetimes(
    bot: Annotated[
        str, typer.Argument(metavar="BOT", help="A bot or level name, e.g. expert or hard.")
    ],
    games: Annotated[
        int, typer.Option("--games", "-n", metavar="N", help="Games to time the bot over.")
    ] = 20,
    players: PlayersOption = 2,
    seed: Annotated[int, typer.Option("--seed", "-s", metavar="S", help="Seed of the games.")] = 0,
    opponent: Annotated[
        str,
        typer.Option(
            "--opponent", "-o", metavar="BOT", help="The bot in the other seats (default greedy)."
        ),
    ] = "greedy",
    rules: RulesOption = "classic",
    rule_set_options: SetOption = None,
    deck: DeckOption = "rainbow",
    as_json: JsonOption = False,
    progress: ProgressOption = None,
) -> None:
    """Time a bot's decisions over real games: median, 90th and 99th percentile, worst, mean.

    The bot sits in a different seat each game against the --opponent bot. Decisions with a single
    legal placement are free; the "with a choice" row shows the bot's thinking.
    """
    with errors():
        rule_set = checked_rules(rules, rule_set_options, players)
        if games < 1:
            raise ConfigError(f"games must be a whole number of at least 1, not {games}")
        the_deck = resolve_deck(deck)
        others = [make_bot(opponent) for _ in range(players - 1)]
        args: dict[str, Any] = {
            "bot": make_bot(bot),
            "games": games,
            "players": players,
            "seed": seed,
            "opponents": others,
            "rules": rule_set,
            "deck": the_deck,
        }
        figures = run_with_progress(move_times, args, "timing", games, progress)
    show(figures, as_json, print_move_times)


def headroom(
    opponent: Annotated[
        str,
        typer.Argument(
            metavar="OPPONENT", help="The bot in every other seat: random, greedy or careful."
        ),
    ],
    deals: Annotated[
        int,
        typer.Option("--deals", "-n", metavar="N", help="Deals to search (each once per seat)."),
    ] = 1000,
    players: PlayersOption = 2,
    seed: SeedOption = 0,
    rules: RulesOption = "classic",
    rule_set_options: ClassicSetOption = None,
    deck: DeckOption = "rainbow",
    exact: Annotated[
        bool,
        typer.Option(
            "--exact",
            help="Instead of the clairvoyant: the exact best win share without knowing the order "
            f"(expectimax to the end; decks of at most {EXACT_MAX_CARDS} cards, e.g. "
            "docs/decks/tiny.toml).",
        ),
    ] = False,
    nodes: Annotated[
        int,
        typer.Option(
            "--nodes", metavar="N", help="The clairvoyant's node budget per deal and seat.", min=1
        ),
    ] = CLAIRVOYANT_NODES,
    workers: WorkersOption = 1,
    as_json: JsonOption = False,
    progress: ProgressOption = None,
) -> None:
    """Upper bounds on what any player could win against OPPONENT in every other seat.

    By default the clairvoyant: a player who knows the order of the deck and plays the best line
    against the opponents' replies, over --deals deals dealt as a tournament with --seed deals
    them. With --exact: the best win share a player can get without knowing the order.
    """
    with errors():
        rule_set = checked_rules(rules, rule_set_options, players)
        check_headroom_rules(rule_set)
        the_deck = resolve_deck(deck)
        figures: ClairvoyantReport | ExactValueReport
        if exact:
            args: dict[str, Any] = {
                "opponent": opponent,
                "players": players,
                "deck": the_deck,
                "rules": rule_set,
            }
            figures = run_with_progress(exact_value, args, "searching", players, progress, "seats")
        else:
            if workers < 1:
                raise ConfigError(f"workers must be a whole number of at least 1, not {workers}")
            args = {
                "opponent": opponent,
                "deals": Deals(deals, players, seed, rule_set, the_deck),
                "nodes": nodes,
                "workers": workers,
            }
            figures = run_with_progress(clairvoyant, args, "searching", deals, progress, "deals")
    show(figures, as_json, print_headroom)


def warm(
    as_json: JsonOption = False,
) -> None:
    """Compile the bots' and the fast path's code (numba) now, or load it from the cache.

    Run it once after an install, as the user that runs the server: the first expert move and
    the first simulate --fast then start at once. (hisss serve and hisss play also make the
    expert's code ready in the background as they start, the expert playing careful's placement
    meanwhile.) Needs numba: the web, tui and dist extras bring it.
    """
    with errors():
        try:
            rollout = importlib.import_module("hisss.kernel.rollout")
            fast = importlib.import_module("hisss.sim.fast")
        except ImportError as exc:
            raise ConfigError(
                f"hisss warm needs numba and numpy ({exc.name or exc} is missing): "
                "pip install 'hisss[dist]'"
            ) from None
        figures = {"rollout_seconds": round(rollout.warm_up(), 3)}
        spec = fast.FastSpec(2, checked_rules("classic", None, 2), RAINBOW, ("greedy", "random"))
        figures["fast_seconds"] = round(fast.warm_up(spec), 3)
    if as_json:
        print_json(figures)
    else:
        typer.echo(
            f"compiled code ready: the expert's rollouts in {figures['rollout_seconds']:.1f} s, "
            f"the fast simulation in {figures['fast_seconds']:.1f} s (a cache load takes about "
            "a second; a first compile, a minute or so)"
        )
