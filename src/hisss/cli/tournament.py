"""The commands about bots against each other: ``tournament``, and ``analyze`` for reports."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any

import typer

from hisss.bots import BOT_NAMES
from hisss.cli.options import (
    AddressOption,
    BackendOption,
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
from hisss.cli.output import errors, show
from hisss.cli.progress import run_with_progress
from hisss.cli.render import print_tournament
from hisss.core import ConfigError
from hisss.record import resolve_deck
from hisss.sim import tournament as run_tournament
from hisss.sim.analysis import analyze as run_analyze
from hisss.sim.executor import Backend, BackendKind
from hisss.sim.tournament import TournamentSpec


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
    seed: SeedOption = 0,
    workers: WorkersOption = 1,
    backend: BackendOption = BackendKind.LOCAL.value,
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
    progress: ProgressOption = None,
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
    with errors():
        rule_set = checked_rules(rules, rule_set_options, players)
        the_deck = resolve_deck(deck)
        names = [] if bots is None else [n.strip() for n in bots.split(",")]
        if any(not n for n in names):
            raise ConfigError(
                f"--bots {bots!r}: give bot names separated by commas, e.g. greedy,random"
            )
        total = math.ceil(games / players) * players if mirror and games >= 1 else games
        args: dict[str, Any] = {
            "games": games,
            "spec": TournamentSpec(tuple(names), players, seed, rule_set, the_deck, mirror),
            "workers": workers,
            "backend": Backend(backend.strip().lower(), workers, address),
        }
        report = run_with_progress(run_tournament, args, "playing", total, progress)
    show(report, as_json, print_tournament)


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
    with errors():
        summary = run_analyze(results, output)
    typer.echo(
        f"wrote {output}: {summary.games:,} games from {len(summary.files)} "
        f"file{'s' if len(summary.files) != 1 else ''}"
    )
