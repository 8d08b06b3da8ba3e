"""Bots: players that choose where each drawn card goes.

Every bot implements :class:`Bot`. Bots are made by name through :func:`make_bot`;
:data:`BOT_NAMES` lists the names known, and :data:`LEVEL_NAMES` the playing levels
(:mod:`hisss.bots.levels`), which :func:`make_bot` accepts as well. :func:`make_bots` reads a seat
list such as ``"random,greedy"`` for a table of players.

>>> make_bot("random").name
'random'
>>> [b.name for b in make_bots("greedy,careful,random", players=3)]
['greedy', 'careful', 'random']
>>> make_bot("hard").name, make_bot("easy").name
('careful', 'casual')
>>> LEVEL_NAMES
('easy', 'medium', 'hard', 'expert', 'gentle')
>>> make_bot("genius")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
hisss.core.errors.ConfigError: unknown bot 'genius' (known bots: random, casual, greedy, ...)
"""

from __future__ import annotations

from collections.abc import Sequence

from hisss.bots.base import Bot, Budget
from hisss.bots.careful import CarefulBot
from hisss.bots.gentle import GentleBot
from hisss.bots.greedy import CasualBot, GreedyBot
from hisss.bots.levels import LEVEL_NAMES, LEVELS, bot_plays, check_level, levels_for, make_level
from hisss.bots.random_bot import RandomBot
from hisss.bots.registry import BOT_NAMES, make_named, unknown_bot
from hisss.core import ConfigError


def make_bot(name: str, *, levels: bool = True) -> Bot:
    """A new bot by name, or by level name (``easy``, ``hard``, ...) unless ``levels`` is false.

    Raises :class:`~hisss.core.ConfigError` for an unknown name.
    """
    key = name.strip().lower() if isinstance(name, str) else name
    bot = make_named(key) if isinstance(key, str) else None
    if bot is not None:
        return bot
    if levels and isinstance(key, str) and key in LEVELS:
        return make_level(key)
    raise unknown_bot(name, f"; levels: {', '.join(LEVEL_NAMES)}" if levels else "")


def make_bots(spec: str | Sequence[str], players: int) -> tuple[Bot, ...]:
    """One new bot per seat from a comma-separated list (or a sequence) of bot or level names.

    A single name seats that bot everywhere; otherwise there must be one name per seat.
    """
    names = [n.strip() for n in spec.split(",")] if isinstance(spec, str) else list(spec)
    if not names or any(not n for n in names):
        raise ConfigError(f"bots {spec!r}: give one bot name, or one per seat, separated by commas")
    if len(names) == 1:
        names = names * players
    elif len(names) != players:
        raise ConfigError(
            f"bots {spec!r}: {len(names)} names for {players} players "
            "(give one name for every seat, or one per seat)"
        )
    return tuple(make_bot(n) for n in names)


__all__ = [
    "BOT_NAMES",
    "LEVELS",
    "LEVEL_NAMES",
    "Bot",
    "Budget",
    "CarefulBot",
    "CasualBot",
    "GentleBot",
    "GreedyBot",
    "RandomBot",
    "bot_plays",
    "check_level",
    "levels_for",
    "make_bot",
    "make_bots",
    "make_level",
]
