"""``hisss play``: the terminal game, with its seats, rules, deck and language from the options.

It imports :mod:`hisss.tui`, and so Textual, only when it runs. An unfinished game is kept in the
user's folder of unfinished games (:func:`hisss.tui.saving.unfinished_folder`), where
``--resume`` finds the last one. An unexpected error ends the command with one line on stderr
naming the log file that holds its details (:func:`hisss.tui.saving.crash_log`), and exit
status 1.
"""

from __future__ import annotations

import math
import os
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Annotated

import typer

from hisss.bots import LEVEL_NAMES
from hisss.cli.options import DECK_HELP, RULES_HELP, SetOption, rules_from
from hisss.cli.output import errors, failure, in_file
from hisss.core import ConfigError, HisssError
from hisss.i18n import LANGUAGES, detect_language, get_catalog
from hisss.record import load_record, resolve_deck

if TYPE_CHECKING:
    from hisss.tui import Match

#: The modules of the ``tui`` extra that the terminal game imports.
TUI_EXTRA = frozenset({"textual", "platformdirs", "numpy", "numba"})


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
        str | None, typer.Option("--rules", "-r", metavar="NAME", help=RULES_HELP)
    ] = None,
    rule_set_options: SetOption = None,
    deck: Annotated[
        str | None, typer.Option("--deck", "-d", metavar="NAME|FILE", help=DECK_HELP)
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
            "--colour-blind",
            help="Show a letter and a symbol on every colour (the c key too; on by default when "
            "NO_COLOR is set).",
        ),
    ] = False,
    load: Annotated[
        Path | None,
        typer.Option(
            "--load",
            metavar="FILE",
            help="Go on with a game saved with the s key (a record), or kept when it was left.",
        ),
    ] = None,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume", help="Go on with the unfinished game left last (kept after every move)."
        ),
    ] = False,
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

    A game of bots only plays itself. With --set hand_size=K (1 to 5) each player holds K
    cards: left and right choose a card of the hand, up and down its place, Enter plays it;
    people at one keyboard see their hand once they say they hold it (--set
    hands_seen_by_all=true shows every hand, for teaching). Keys: arrows and Enter (or the
    mouse) to pick a card and place it, h hint, u undo (against bots only), s save, c colour
    letters, ? rules, + and - bot speed, q quit (an unfinished game is kept: --resume goes on
    with it).
    """
    try:
        from hisss import tui  # noqa: PLC0415  (the optional extra "tui")
    except ModuleNotFoundError as exc:
        missing = (exc.name or "").partition(".")[0]
        if missing not in TUI_EXTRA:
            raise
        raise failure(
            f"hisss play needs the tui extra ({missing} is missing): pip install 'hisss[tui]'"
        ) from None
    with unexpected_errors(tui.saving.log_crash), errors():
        language = _language(lang)
        if delay is not None and not (math.isfinite(delay) and delay >= 0):
            raise ConfigError(f"--delay {delay}: give a pause of 0 seconds or more")
        if resume:
            if load is not None:
                raise ConfigError("--resume goes on with the game left last: leave out --load")
            load = tui.saving.latest_unfinished()
            if load is None:
                folder = tui.saving.unfinished_folder()
                raise ConfigError(f"--resume: no unfinished game is kept (in {folder})")
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
            match = _loaded_match(tui, load, "--resume" if resume else "--load", given)
        else:
            rule_set = rules_from(rules or "classic", rule_set_options)
            the_deck = resolve_deck(deck or "rainbow")
            you = get_catalog(language).text("seat.default_person")
            spec = players if players is not None else f"{you},bot:medium"
            seats = tui.parse_players(spec, rule_set, "--players")
            if seed is None:
                seed = secrets.randbelow(2**31)
            match = tui.Match(seats, rule_set, the_deck, seed)
        app = tui.play(
            match,
            language,
            # Without colours the cards differ only by their letters and symbols.
            colour_blind=colour_blind or bool(os.environ.get("NO_COLOR")),
            delay=tui.DEFAULT_DELAY if delay is None else delay,
            save_path=None if load is None or resume else str(load),
            loaded=load is not None,
            autosave=tui.saving.unfinished_folder(),
        )
        if app.failure is not None:
            raise app.failure
    if app.kept is not None:
        typer.echo(get_catalog(language).text("quit.kept_in", path=app.kept))


def _loaded_match(tui: ModuleType, load: Path, option: str, given: list[str]) -> Match:
    """The match of the record in ``load`` (read for ``option``, --load or --resume); the
    options ``given`` beside it are refused, since the record holds them."""
    if given:
        raise ConfigError(
            f"{option} takes the players, rules, deck and seed from the saved game: "
            f"leave out {', '.join(given)}"
        )
    record = load_record(load)  # its errors name the file already
    try:
        match: Match = tui.Match.from_record(record)
    except HisssError as exc:
        raise in_file(load, exc) from None
    return match


@contextmanager
def unexpected_errors(log: Callable[[BaseException], Path]) -> Iterator[None]:
    """Turn an unexpected error into one line on stderr naming the file ``log`` wrote its
    details to, and exit status 1."""
    try:
        yield
    except (typer.Exit, typer.Abort, KeyboardInterrupt):
        raise
    except Exception as exc:
        try:
            where = f"details in {log(exc)}"
        except OSError as log_error:
            where = f"its details could not be written: {log_error}"
        said = " ".join(str(exc).split())
        typer.echo(
            f"error: the game stopped on an unexpected error ({type(exc).__name__}: {said}); "
            f"{where}",
            err=True,
        )
        raise typer.Exit(1) from None


def _language(lang: str | None) -> str:
    """The language asked for, or the environment's."""
    if lang is None:
        return detect_language(os.environ)
    key = lang.strip().lower()
    if key not in LANGUAGES:
        raise ConfigError(f"--lang {lang!r}: unknown language (languages: {', '.join(LANGUAGES)})")
    return key
