"""The ``hisss`` command line: the Typer application and its commands.

Commands: ``simulate`` (a seeded batch of bot games, summarised), ``tournament`` (bots against
each other, with win rates, intervals, ratings and a head-to-head table), ``bench`` (engine speed),
``analyze`` (an HTML report with plots from results files), ``replay`` (check a game record and
print the game), ``play`` (the terminal game; it imports :mod:`hisss.tui`, and so Textual, only
when it runs) and ``serve`` (the web game server). Every error the package raises on purpose
(:class:`~hisss.core.HisssError`) ends the command with one line on stderr and exit status 2.
Output meant for programs (``--json``) goes to stdout alone; progress bars go to stderr.
"""

from __future__ import annotations

import json
import logging
import math
import os
import secrets
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from hisss import __version__
from hisss.bots import BOT_NAMES, LEVEL_NAMES, make_bot, make_bots
from hisss.cli.render import (
    print_bench,
    print_game,
    print_move_times,
    print_simulation,
    print_tournament,
)
from hisss.core import PRESETS, ConfigError, HisssError, Rules
from hisss.i18n import LANGUAGES, detect_language, get_catalog
from hisss.record import load_record, replay, resolve_deck
from hisss.sim import bench as run_bench
from hisss.sim import simulate as run_simulate
from hisss.sim import tournament as run_tournament
from hisss.sim.analysis import analyze as run_analyze
from hisss.sim.bench import DEFAULT_SECONDS
from hisss.sim.executor import Backend
from hisss.sim.movetimes import move_times

#: Runs of at least this many games show a progress bar (when stderr is a terminal).
PROGRESS_MIN_GAMES = 2000

#: Options shared by several commands.
PlayersOption = Annotated[
    int,
    typer.Option(
        "--players", "-p", metavar="P", help="Players: 2 to 5, or 6 with --set six_players=true."
    ),
]
RulesOption = Annotated[
    str,
    typer.Option("--rules", "-r", metavar="NAME", help=f"Rules preset: {' or '.join(PRESETS)}."),
]
SetOption = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="OPTION=VALUE",
        help="Change one rule option of the preset (repeatable): forced_placement=false, "
        "join_claim=always|complete, scoring=cards|snakes|longest|first-to, target=N, "
        "six_players=true.",
    ),
]
DeckOption = Annotated[
    str,
    typer.Option(
        "--deck",
        "-d",
        metavar="NAME|FILE",
        help="A built-in deck (rainbow, all-pairs, double) or a deck file (.toml or .json).",
    ),
]
JsonOption = Annotated[
    bool, typer.Option("--json", help="Print one JSON object instead of a table.")
]
WorkersOption = Annotated[
    int,
    typer.Option(
        "--workers",
        "-w",
        metavar="W",
        help="Processes that play the games (with --backend ray and no --address: the CPUs of "
        "the local Ray); the output does not depend on it.",
    ),
]
BackendOption = Annotated[
    str,
    typer.Option(
        "--backend",
        metavar="local|ray",
        help="Where the games run: local processes, or Ray (pip install 'hisss[dist]').",
    ),
]
AddressOption = Annotated[
    str | None,
    typer.Option(
        "--address",
        metavar="ADDR",
        help="With --backend ray: the address of an existing Ray cluster (default: start a "
        "local Ray with --workers CPUs).",
    ),
]


def _rules(preset: str, settings: list[str] | None) -> Rules:
    """The preset with ``OPTION=VALUE`` changes, checked by the core."""
    data: dict[str, object] = {"preset": preset}
    for item in settings or ():
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ConfigError(f"--set {item!r}: expected OPTION=VALUE, e.g. forced_placement=false")
        data[key.strip()] = _option_value(value.strip())
    return Rules.from_mapping(data)


def _check_players(rules: Rules, players: int) -> None:
    """The core's check of the number of players, with the command-line way to allow six."""
    try:
        rules.check_players(players)
    except ConfigError as exc:
        if players == 6 and not rules.six_players:
            raise ConfigError(f"{exc}; add --set six_players=true to play with 6") from None
        raise


def _option_value(text: str) -> object:
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    return int(text) if text.lstrip("-").isdigit() else text


app = typer.Typer(
    name="hisss",
    help="Hisss, the colour-matching snake card game: play it in the terminal, simulate bot "
    "games, play bot tournaments, benchmark the engine, analyse results, replay game records.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"hisss {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Hisss, the colour-matching snake card game."""


@contextmanager
def _errors() -> Iterator[None]:
    """Turn the package's errors into one line on stderr and exit status 2."""
    try:
        yield
    except HisssError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        typer.echo(f"error: {where}{exc.strerror or exc}", err=True)
        raise typer.Exit(2) from None


def _stdout() -> Console:
    # Plain, deterministic text: no colour codes or highlighting unless stdout is a terminal.
    return Console(highlight=False)


@app.command()
def simulate(
    games: Annotated[
        int, typer.Option("--games", "-n", metavar="N", help="Number of games to play.")
    ] = 1000,
    players: PlayersOption = 2,
    seed: Annotated[int, typer.Option("--seed", "-s", metavar="S", help="Seed of the run.")] = 0,
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
    progress: Annotated[
        bool | None,
        typer.Option(
            "--progress/--no-progress",
            help=f"Show a progress bar on stderr (default: for runs of {PROGRESS_MIN_GAMES} "
            "games or more when stderr is a terminal).",
        ),
    ] = None,
    fast: Annotated[
        bool,
        typer.Option(
            "--fast",
            help="Play through the compiled kernel (random and greedy bots; pip install "
            "'hisss[dist]'): the same statistics as the engine, many times faster.",
        ),
    ] = False,
    workers: WorkersOption = 1,
    backend: BackendOption = "local",
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
    stop_after: Annotated[
        int | None, typer.Option("--stop-after", hidden=True, help="Stop after N tasks (tests).")
    ] = None,
) -> None:
    """Play many games between bots and report statistics as means with standard errors.

    Game k of a run is dealt and played from a seed derived from --seed and k, so the same
    arguments always print the same output, whatever --workers, --backend or --chunk.
    """
    with _errors():
        rule_set = _rules(rules, rule_set_options)
        _check_players(rule_set, players)
        the_deck = resolve_deck(deck)
        make_bots(bots, players)  # check the names and their number first
        args: dict[str, Any] = {
            "games": games,
            "players": players,
            "seed": seed,
            "rules": rule_set,
            "deck": the_deck,
            "bots": [n.strip() for n in bots.split(",")],
            "record_dir": record_dir,
            "snapshots": snapshots,
            "engine": "fast" if fast else "engine",
            "backend": Backend(backend.strip().lower(), workers, address),
            "out": out,
            "chunk": chunk,
            "stop_after": stop_after,
        }
        report = _run(run_simulate, args, "simulating", games, progress)
    if as_json:
        typer.echo(json.dumps(report, indent=2))
    else:
        print_simulation(_stdout(), report)


def _run(
    run: Callable[..., dict[str, Any]],
    args: dict[str, Any],
    label: str,
    games: int,
    progress: bool | None,
) -> dict[str, Any]:
    """``run(**args)`` with a progress bar if asked, or by default for long runs on a terminal."""
    show = progress if progress is not None else games >= PROGRESS_MIN_GAMES and sys.stderr.isatty()
    return _with_bar(label, games, run, args) if show and games >= 1 else run(**args)


def _with_bar(
    label: str, games: int, run: Callable[..., dict[str, Any]], args: dict[str, Any]
) -> dict[str, Any]:
    """``run(**args, progress=...)`` with a transient progress bar of ``games`` on stderr."""
    console = Console(stderr=True)
    columns = (
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        _RateColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("games", total=games)
        step = max(1, games // 200)
        shown = 0

        def advance(done: int, total: int) -> None:
            nonlocal shown
            if shown == 0 and done > 1 and done < total:
                # a resumed run starts part way: no rate from games played before
                bar.reset(task, total=total, completed=done)
                shown = done
            elif done - shown >= step or done == total:
                bar.update(task, completed=done)
                shown = done

        return run(**args, progress=advance)


class _RateColumn(ProgressColumn):
    """Games per second, as Rich estimates it from the recent progress."""

    def render(self, task: Task) -> Text:
        speed = task.speed
        return Text("- games/s" if speed is None else f"{speed:,.0f} games/s")


@app.command()
def tournament(
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            "-b",
            metavar="A,B[,...]",
            help="The bots, separated by commas: at least two, and at least P; each plays at most "
            "one seat of a game, so repeat a name to seat a bot more than once (a name given "
            f"twice plays as NAME#1 and NAME#2). Known: {', '.join(BOT_NAMES)}.",
        ),
    ] = None,
    games: Annotated[
        int,
        typer.Option(
            "--games",
            "-n",
            metavar="N",
            help="Games to play. With --mirror rounded up to a multiple of P (whole deals).",
        ),
    ] = 1000,
    players: PlayersOption = 2,
    seed: Annotated[int, typer.Option("--seed", "-s", metavar="S", help="Seed of the run.")] = 0,
    workers: WorkersOption = 1,
    backend: BackendOption = "local",
    address: AddressOption = None,
    mirror: Annotated[
        bool,
        typer.Option(
            "--mirror",
            help="Play every deal P times with the seats rotated, so that every bot of the deal "
            "sits in every seat with the same cards and the luck of the draw cancels out.",
        ),
    ] = False,
    rules: RulesOption = "classic",
    rule_set_options: SetOption = None,
    deck: DeckOption = "rainbow",
    as_json: JsonOption = False,
    progress: Annotated[
        bool | None,
        typer.Option(
            "--progress/--no-progress",
            help=f"Show a progress bar on stderr (default: for runs of {PROGRESS_MIN_GAMES} "
            "games or more when stderr is a terminal).",
        ),
    ] = None,
) -> None:
    """Play bots against each other: win rates with 95% intervals, ratings, head-to-head.

    With K bots and P players, deals come in blocks of K: each block draws a cyclic order of the
    bots from the seed, and deal j of the block seats the P bots that follow position j, so every
    bot plays as often as the others and in every seat. Deal k is dealt from a seed derived from
    --seed and k (the card order of game k of simulate); every bot draws on its own random
    generator, so the same arguments print the same output whatever --workers is.

    A win shared by k players counts 1/k. The 95% interval is a Wilson interval whose sample
    size is taken from a standard error computed over deals (games of one mirrored deal are
    correlated). The rating is openskill's Plackett-Luce mu (start 25) with its sigma, the games
    rated in deal order. Head-to-head: A's score against B over the games both played, 1 when A
    placed above B and 1/2 when they placed equal (winners first, the others by the scoring).
    """
    with _errors():
        rule_set = _rules(rules, rule_set_options)
        _check_players(rule_set, players)
        the_deck = resolve_deck(deck)
        names = [] if bots is None else [n.strip() for n in bots.split(",")]
        if any(not n for n in names):
            raise ConfigError(
                f"--bots {bots!r}: give bot names separated by commas, e.g. greedy,random"
            )
        total = math.ceil(games / players) * players if mirror and games >= 1 else games
        args: dict[str, Any] = {
            "bots": names,
            "games": games,
            "players": players,
            "seed": seed,
            "rules": rule_set,
            "deck": the_deck,
            "mirror": mirror,
            "workers": workers,
            "backend": Backend(backend.strip().lower(), workers, address),
        }
        report = _run(run_tournament, args, "playing", total, progress)
    if as_json:
        typer.echo(json.dumps(report, indent=2))
    else:
        print_tournament(_stdout(), report)


@app.command()
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
    rule_set_options: SetOption = None,
    deck: DeckOption = "rainbow",
    fast: Annotated[
        bool,
        typer.Option(
            "--fast/--no-fast",
            help="Also measure the compiled kernel (fast_games_per_second; needs numba).",
        ),
    ] = True,
) -> None:
    """Measure the engine's random-play throughput on one core.

    Plays uniformly random games for a few seconds, each to its end, then times legal_actions(),
    copy(), push() and undo() on positions from real games. A deck with no turns (one card) shows
    "-" for the figures it cannot give. The compiled kernel (simulate --fast) is measured for the
    same time, its compile time apart. Figures vary with the machine and the moment.
    """
    with _errors():
        rule_set = _rules(rules, rule_set_options)
        _check_players(rule_set, players)
        the_deck = resolve_deck(deck)
        figures = run_bench(seconds, players, rule_set, the_deck, fast=fast)
    if as_json:
        typer.echo(json.dumps(figures, indent=2))
    else:
        print_bench(_stdout(), figures)


@app.command()
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
) -> None:
    """Time a bot's decisions over real games: median, 90th and 99th percentile, worst, mean.

    The bot sits in a different seat each game against the --opponent bot. Decisions with a single
    legal placement are free; the "with a choice" row shows the bot's thinking.
    """
    with _errors():
        rule_set = _rules(rules, rule_set_options)
        _check_players(rule_set, players)
        if games < 1:
            raise ConfigError(f"games must be a whole number of at least 1, not {games}")
        the_deck = resolve_deck(deck)
        others = [make_bot(opponent) for _ in range(players - 1)]
        figures = move_times(
            make_bot(bot), games, players, seed, opponents=others, rules=rule_set, deck=the_deck
        )
    if as_json:
        typer.echo(json.dumps(figures, indent=2))
    else:
        print_move_times(_stdout(), figures)


@app.command()
def analyze(
    results: Annotated[
        list[Path],
        typer.Argument(
            metavar="RESULTS",
            help="Results files of simulate --out, and/or reports of tournament --json.",
        ),
    ],
    output: Annotated[
        Path,
        typer.Option("--output", "-o", metavar="FILE", help="The HTML report to write."),
    ] = Path("report.html"),
) -> None:
    """Write a self-contained HTML report with plots from simulation results and tournaments.

    Sections: score and snake-length distributions, seat advantage by number of players (Wilson
    95% intervals), rule presets and decks compared, and bot win rates with 95% intervals. Every
    figure states its sample size. Results files are read line by line, so any size fits in
    memory. Needs matplotlib (pip install 'hisss[dist]').
    """
    with _errors():
        summary = run_analyze(results, output)
    typer.echo(
        f"wrote {output}: {summary.games:,} games from {len(summary.files)} "
        f"file{'s' if len(summary.files) != 1 else ''}"
    )


@app.command("replay")
def replay_command(
    file: Annotated[
        Path, typer.Argument(metavar="FILE", help="A game record (JSON), e.g. from --record-dir.")
    ],
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Check the record and print only the result.")
    ] = False,
) -> None:
    """Check a game record action by action, then print the game turn by turn and its result.

    A record that is not a game played by the rules is rejected with the turn and the reason
    (exit status 2).
    """
    with _errors():
        record = load_record(file)
        try:
            final = replay(record)  # check it all before printing anything
        except HisssError as exc:
            raise _in_file(file, exc) from None
    print_game(_stdout(), record, quiet=quiet, final=final)


@app.command()
def play(
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            "-p",
            metavar="NAME,...",
            help="The seats in order, separated by commas: a person's name, or bot:LEVEL for a "
            f"bot (levels: {', '.join(LEVEL_NAMES)}). Default: you against bot:medium.",
        ),
    ] = None,
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules", "-r", metavar="NAME", help=f"Rules preset: {' or '.join(PRESETS)}."
        ),
    ] = None,
    rule_set_options: SetOption = None,
    deck: Annotated[
        str | None,
        typer.Option(
            "--deck",
            "-d",
            metavar="NAME|FILE",
            help="A built-in deck (rainbow, all-pairs, double) or a deck file (.toml or .json).",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", "-s", metavar="S", help="Seed of the deal (default: a random one)."),
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="en|pl",
            help="Language of the game (default: from LC_ALL, LC_MESSAGES or LANG).",
        ),
    ] = None,
    colour_blind: Annotated[
        bool,
        typer.Option(
            "--colour-blind", help="Show a letter and a symbol on every colour (the c key too)."
        ),
    ] = False,
    load: Annotated[
        Path | None,
        typer.Option(
            "--load", metavar="FILE", help="Go on with a game saved with the s key (a record)."
        ),
    ] = None,
    delay: Annotated[
        float | None,
        typer.Option(
            "--delay",
            metavar="SECONDS",
            help="Pause before each bot move (default 0.8; 0 plays at full speed).",
        ),
    ] = None,
) -> None:
    """Play Hisss full screen in the terminal: people (taking turns at one keyboard) and bots.

    A game of bots only plays itself. Keys: arrows and Enter (or the mouse) to pick a card and
    place it, h hint, u undo (against bots only), s save, c colour letters, ? rules, q quit.
    """
    try:
        from hisss import tui  # noqa: PLC0415  (Textual is the optional extra "tui")
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] != "textual":
            raise
        typer.echo(
            "error: hisss play needs Textual: install the extra with pip install 'hisss[tui]'",
            err=True,
        )
        raise typer.Exit(2) from None
    with _errors():
        language = _language(lang)
        if delay is not None and not (math.isfinite(delay) and delay >= 0):
            raise ConfigError(f"--delay {delay}: give a pause of 0 seconds or more")
        if load is not None:
            given = [
                option
                for option, value in (
                    ("--players", players),
                    ("--rules", rules),
                    ("--set", rule_set_options),
                    ("--deck", deck),
                    ("--seed", seed),
                )
                if value is not None
            ]
            if given:
                raise ConfigError(
                    "--load takes the players, rules, deck and seed from the saved game: "
                    f"leave out {', '.join(given)}"
                )
            record = load_record(load)  # its errors name the file already
            try:
                match = tui.Match.from_record(record)
            except HisssError as exc:
                raise _in_file(load, exc) from None
        else:
            rule_set = _rules(rules or "classic", rule_set_options)
            the_deck = resolve_deck(deck or "rainbow")
            you = get_catalog(language).text("seat.default_person")
            spec = players if players is not None else f"{you},bot:medium"
            seats = tui.parse_players(spec, rule_set, "--players")
            if seed is None:
                seed = secrets.randbelow(2**31)
            match = tui.Match(seats, rule_set, the_deck, seed)
    tui.play(
        match,
        language,
        colour_blind=colour_blind,
        delay=tui.DEFAULT_DELAY if delay is None else delay,
        save_path=None if load is None else str(load),
        loaded=load is not None,
    )


def _language(lang: str | None) -> str:
    """The language asked for, or the environment's."""
    if lang is None:
        return detect_language(os.environ)
    key = lang.strip().lower()
    if key not in LANGUAGES:
        raise ConfigError(f"--lang {lang!r}: unknown language (languages: {', '.join(LANGUAGES)})")
    return key


@app.command("serve")
def serve_command(
    host: Annotated[
        str, typer.Option("--host", metavar="HOST", help="The address to listen on.")
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", metavar="PORT", min=0, max=65535, help="The port (0: any).")
    ] = 8000,
    database: Annotated[
        str | None,
        typer.Option(
            "--database",
            metavar="URL",
            help="sqlite:///FILE or postgresql://USER:PASSWORD@HOST/DATABASE (default: hisss.db "
            "in the user's data directory).",
        ),
    ] = None,
    bot_delay: Annotated[
        float,
        typer.Option(
            "--bot-delay", metavar="SECONDS", min=0, help="A bot's pause before each step."
        ),
    ] = 0.8,
    away_seconds: Annotated[
        float,
        typer.Option(
            "--away-seconds",
            metavar="SECONDS",
            min=0,
            help="How long a player must be gone before the others may hand the seat to a bot.",
        ),
    ] = 60.0,
    database_timeout: Annotated[
        float,
        typer.Option(
            "--database-timeout",
            metavar="SECONDS",
            min=0.1,
            help="How long a wait on the database may last before the request fails.",
        ),
    ] = 10.0,
    redis: Annotated[
        str | None,
        typer.Option(
            "--redis",
            metavar="URL",
            help="redis://HOST:PORT/DB: share game updates and presence with the other server "
            "processes of the same PostgreSQL database.",
        ),
    ] = None,
    reuse_port: Annotated[
        bool,
        typer.Option(
            "--reuse-port",
            help="Let several server processes listen on the same port (Linux SO_REUSEPORT).",
        ),
    ] = False,
) -> None:
    """Run the web game: play Hisss in the browser, against bots or with friends online.

    Prints the address to open. Every game is stored in the database as it is played, so
    stopping and starting the server again loses nothing.
    """
    with _errors():
        try:
            from hisss.server import Settings, serve  # noqa: PLC0415
            from hisss.storage import database_url, default_database_url  # noqa: PLC0415
        except ImportError as exc:
            raise ConfigError(
                f"hisss serve needs the web extra ({exc.name} is missing): pip install 'hisss[web]'"
            ) from None
        url = database_url(database) if database is not None else default_database_url()
        logging.basicConfig(level=logging.INFO, format="%(levelname)s:     %(name)s - %(message)s")
        settings = Settings(
            database=url,
            bot_delay=bot_delay,
            away_seconds=away_seconds,
            database_timeout=database_timeout,
            redis=redis,
        )
        try:
            serve(settings, host, port, announce=typer.echo, reuse_port=reuse_port)
        except KeyboardInterrupt:
            typer.echo("stopped", err=True)


@app.command("loadtest")
def loadtest_command(
    games: Annotated[
        int, typer.Option("--games", metavar="N", min=1, help="Concurrent games.")
    ] = 20,
    seconds: Annotated[
        float,
        typer.Option("--seconds", metavar="S", min=0.1, help="How long to measure them."),
    ] = 10.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    url: Annotated[
        str | None,
        typer.Option("--url", metavar="URL", help="A running server (default: start one)."),
    ] = None,
    database: Annotated[
        str | None,
        typer.Option(
            "--database",
            metavar="URL",
            help="The started server's database (default: a temporary SQLite file).",
        ),
    ] = None,
    think: Annotated[
        float,
        typer.Option(
            "--think", metavar="SECONDS", min=0, help="A player's mean pause before each step."
        ),
    ] = 1.0,
    ramp: Annotated[
        float,
        typer.Option(
            "--ramp",
            metavar="SECONDS",
            min=0,
            help="Start the games over this time, before the measured seconds.",
        ),
    ] = 5.0,
    level: Annotated[
        str, typer.Option("--level", metavar="LEVEL", help="The bot that picks the actions.")
    ] = "easy",
    seed: Annotated[int, typer.Option("--seed", help="Seed of the players' choices.")] = 1,
) -> None:
    """Drive N concurrent online games over websockets and report throughput and latency.

    Starts a server on 127.0.0.1 unless --url is given. Reports actions per second, the p50 and
    p99 time from sending a step to receiving the state that holds it, errors, and lost actions
    (acknowledged steps missing from the stored games).
    """
    with _errors():
        try:
            from hisss.server.loadtest import KEYS, Figures, run_loadtest  # noqa: PLC0415
            from hisss.storage import database_url  # noqa: PLC0415
        except ImportError as exc:
            raise ConfigError(
                f"hisss loadtest needs the web extra ({exc.name} is missing): "
                "pip install -e '.[web]'"
            ) from None
        db = database_url(database) if database is not None else None
        if as_json:
            figures = run_loadtest(
                games, seconds, url=url, database=db, level=level, think=think, ramp=ramp, seed=seed
            )
            typer.echo(json.dumps(figures.summary()))
            return
        console = Console(stderr=True)
        with console.status("starting") as status:

            def progress(figures: Figures) -> None:
                status.update(
                    f"{figures.games} games, {len(figures.latencies)} actions, "
                    f"{figures.errors} errors"
                )

            figures = run_loadtest(
                games,
                seconds,
                url=url,
                database=db,
                level=level,
                think=think,
                ramp=ramp,
                seed=seed,
                progress=progress,
            )
        table = Table(title=f"hisss loadtest: {games} concurrent games, {seconds:g} s")
        table.add_column("measure")
        table.add_column("value", justify="right")
        for key, value in zip(KEYS, figures.summary().values(), strict=True):
            table.add_row(key, str(value))
        for kind, count in sorted(figures.error_kinds.items()):
            table.add_row(f"error {kind}", str(count))
        if figures.throttled:
            table.add_row("games refused by the rate limit (retried)", str(figures.throttled))
        _stdout().print(table)


def _in_file(file: Path, exc: HisssError) -> HisssError:
    """The same error, its message naming the record file."""
    return HisssError(f"{file}: {exc}")


def main() -> None:
    """The console script's entry point."""
    app(prog_name="hisss")
