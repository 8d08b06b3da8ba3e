"""The terminal game of Hisss, built with Textual: ``hisss play``.

:mod:`hisss.tui.match` owns a game in play: the game driver (:class:`hisss.record.Game`) with the
terminal's bots, hints and undo;
:mod:`hisss.tui.render` draws cards, snakes, pits and the fan as Rich text;
:mod:`hisss.tui.words` says seats and moves in the game's language;
:mod:`hisss.tui.widgets`, :mod:`hisss.tui.screens` and :mod:`hisss.tui.dialogs` are the Textual
pieces and :mod:`hisss.tui.app` the application; :mod:`hisss.tui.saving` keeps unfinished games
and the log of unexpected errors. :func:`play` runs a game full screen.
"""

from __future__ import annotations

import sys
from pathlib import Path

from hisss.core import ConfigError
from hisss.i18n import get_catalog
from hisss.kernel.warming import start_warming
from hisss.tui import saving
from hisss.tui.app import DEFAULT_DELAY, HisssApp
from hisss.tui.match import BOT_PREFIX, Match, parse_players, parse_seat
from hisss.tui.words import SeatNames, describe_action, describe_placement


def play(
    match: Match,
    language: str,
    *,
    colour_blind: bool = False,
    delay: float = DEFAULT_DELAY,
    save_path: str | None = None,
    loaded: bool = False,
    autosave: Path | None = None,
) -> HisssApp:
    """Play ``match`` full screen in ``language`` until the players quit; returns the app, which
    tells where an unfinished game is kept (:attr:`HisssApp.kept`) and the unexpected error that
    stopped it, if any (:attr:`HisssApp.failure`). Without a terminal on standard input and
    output, a :class:`~hisss.core.ConfigError` says so before anything starts."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise ConfigError(
            "hisss play needs a terminal: its input and output are a file or a pipe here "
            "(hisss simulate and hisss tournament play bot games without one)"
        )
    # The expert (a bot, or the hint) plays careful's placement until its compiled code is ready.
    start_warming()
    app = HisssApp(
        match,
        get_catalog(language),
        colour_blind=colour_blind,
        delay=delay,
        save_path=save_path,
        loaded=loaded,
        autosave=autosave,
    )
    app.run()
    return app


__all__ = [
    "BOT_PREFIX",
    "DEFAULT_DELAY",
    "HisssApp",
    "Match",
    "SeatNames",
    "describe_action",
    "describe_placement",
    "parse_players",
    "parse_seat",
    "play",
    "saving",
]
