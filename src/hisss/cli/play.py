"""``hisss play``: the terminal game, with its seats, rules, deck and language from the options.

It imports :mod:`hisss.tui`, and so Textual, only when it runs.
"""

from __future__ import annotations

import math
import os
import secrets
from pathlib import Path
from typing import Annotated

import typer

from hisss.bots import LEVEL_NAMES
from hisss.cli.options import DECK_HELP, RULES_HELP, SetOption, rules_from
from hisss.cli.output import errors, failure, in_file
from hisss.core import ConfigError, HisssError, Rules
from hisss.i18n import LANGUAGES, detect_language, get_catalog
from hisss.record import load_record, resolve_deck


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
        raise failure(
            "hisss play needs Textual: install the extra with pip install 'hisss[tui]'"
        ) from None
    with errors():
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
            _classic_only(record.rules)
            try:
                match = tui.Match.from_record(record)
            except HisssError as exc:
                raise in_file(load, exc) from None
        else:
            rule_set = rules_from(rules or "classic", rule_set_options)
            _classic_only(rule_set)
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


def _classic_only(rules: Rules) -> None:
    """The terminal game deals no hands: refuse the hand variant with a clear error."""
    if rules.hand_size:
        raise ConfigError(
            "the terminal game does not deal hands: the hand variant (hand_size) is played by "
            "hisss simulate, hisss tournament and the learning environments"
        )


def _language(lang: str | None) -> str:
    """The language asked for, or the environment's."""
    if lang is None:
        return detect_language(os.environ)
    key = lang.strip().lower()
    if key not in LANGUAGES:
        raise ConfigError(f"--lang {lang!r}: unknown language (languages: {', '.join(LANGUAGES)})")
    return key
