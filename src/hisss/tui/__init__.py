"""The terminal game of Hisss, built with Textual: ``hisss play``.

:mod:`hisss.tui.match` owns a game in play: the game driver (:class:`hisss.record.Game`) with the
terminal's bots, hints and undo;
:mod:`hisss.tui.render` draws cards, snakes, pits and the fan as Rich text;
:mod:`hisss.tui.widgets` and :mod:`hisss.tui.screens` are the Textual pieces and
:mod:`hisss.tui.app` the application. :func:`play` runs a game full screen.
"""

from __future__ import annotations

from hisss.i18n import get_catalog
from hisss.tui.app import DEFAULT_DELAY, HisssApp, describe_action, seat_names
from hisss.tui.match import BOT_PREFIX, Match, parse_players, parse_seat


def play(
    match: Match,
    language: str,
    *,
    colour_blind: bool = False,
    delay: float = DEFAULT_DELAY,
    save_path: str | None = None,
    loaded: bool = False,
) -> None:
    """Play ``match`` full screen in ``language`` until the players quit."""
    app = HisssApp(
        match,
        get_catalog(language),
        colour_blind=colour_blind,
        delay=delay,
        save_path=save_path,
        loaded=loaded,
    )
    app.run()


__all__ = [
    "BOT_PREFIX",
    "DEFAULT_DELAY",
    "HisssApp",
    "Match",
    "describe_action",
    "parse_players",
    "parse_seat",
    "play",
    "seat_names",
]
