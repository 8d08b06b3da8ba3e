"""Bots: players that choose where each drawn card goes.

Every bot implements :class:`Bot`. Bots are made by name through :func:`make_bot`;
:data:`BOT_NAMES` lists the names known. :func:`make_bots` reads a seat list such as
``"random,random"`` for a table of players.

>>> make_bot("random").name
'random'
>>> [b.name for b in make_bots("random", players=3)]
['random', 'random', 'random']
>>> make_bot("genius")
Traceback (most recent call last):
...
hisss.core.errors.ConfigError: unknown bot 'genius' (known bots: random)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hisss.bots.base import Bot
from hisss.bots.random_bot import RandomBot
from hisss.core import ConfigError

_FACTORIES: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
}

#: The names :func:`make_bot` knows, in the order they are listed in help texts.
BOT_NAMES: tuple[str, ...] = tuple(_FACTORIES)


def make_bot(name: str) -> Bot:
    """A new bot by name; raises :class:`~hisss.core.ConfigError` for an unknown name."""
    key = name.strip().lower() if isinstance(name, str) else name
    try:
        factory = _FACTORIES[key]
    except (KeyError, TypeError):
        raise ConfigError(f"unknown bot {name!r} (known bots: {', '.join(BOT_NAMES)})") from None
    return factory()


def make_bots(spec: str | Sequence[str], players: int) -> tuple[Bot, ...]:
    """One new bot per seat from a comma-separated list (or a sequence) of names.

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


__all__ = ["BOT_NAMES", "Bot", "RandomBot", "make_bot", "make_bots"]
