"""Playing levels for the front ends: each names a bot and its budget.

==========  ===========  ==================================================================
level       bot          how it plays
==========  ===========  ==================================================================
``easy``    ``casual``   the rulebook's advice, but one turn in three a random legal move
``medium``  ``greedy``   always takes the longest snake it can, otherwise plays at random
``hard``    ``careful``  greedy, and avoids leaving the next player an easy completion
``expert``  ``expert``   the strongest searching bot, with its default budget
``gentle``  ``gentle``   for young children: holds back while leading, greedy when behind
==========  ===========  ==================================================================

:func:`~hisss.bots.make_bot` accepts a level name wherever a bot name is expected.

>>> LEVELS["hard"]
Level(bot='careful', budget=Budget(nodes=None, seconds=None))
>>> make_level("medium").name
'greedy'
>>> make_level("impossible")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
hisss.core.errors.ConfigError: unknown level 'impossible' (levels: easy, medium, hard, expert, ...)
"""

from __future__ import annotations

from typing import NamedTuple

from hisss.bots.base import Bot, Budget
from hisss.bots.registry import make_named, named_plays, unknown_bot
from hisss.core import ConfigError, Rules


class Level(NamedTuple):
    """A level: the registry name of its bot, and its budget (``None``: the bot's own default)."""

    bot: str
    budget: Budget | None


#: The levels, from the weakest to the strongest, then ``gentle``.
LEVELS: dict[str, Level] = {
    "easy": Level("casual", Budget()),
    "medium": Level("greedy", Budget()),
    "hard": Level("careful", Budget()),
    # The same node budget as the bot's default, with a time limit as a safety net for slow
    # machines in interactive play (tournaments use the bot by name, without a time limit).
    "expert": Level("expert", Budget(nodes=6000, seconds=0.3)),
    "gentle": Level("gentle", Budget()),
}

#: The level names, in the order they are listed in help texts.
LEVEL_NAMES: tuple[str, ...] = tuple(LEVELS)

#: One line on each level, for help texts.
LEVEL_HELP: dict[str, str] = {
    "easy": "takes snakes when it sees them, but often misses a move",
    "medium": "always takes the longest snake it can (the rulebook's advice)",
    "hard": "takes snakes and avoids leaving easy ones to the next player",
    "expert": "searches ahead over the cards still to come",
    "gentle": "for young children: holds back while it leads",
}


def make_level(name: str) -> Bot:
    """A new bot for a level name; raises :class:`~hisss.core.ConfigError` for an unknown level,
    or when the level's bot is not registered."""
    key = name.strip().lower() if isinstance(name, str) else name
    try:
        level = LEVELS[key]
    except (KeyError, TypeError):
        raise ConfigError(f"unknown level {name!r} (levels: {', '.join(LEVEL_NAMES)})") from None
    bot = make_named(level.bot)
    if bot is None:
        raise ConfigError(
            f"level {key!r} plays the bot {level.bot!r}, which is not available: "
            f"{unknown_bot(level.bot)}"
        )
    if level.budget is not None:
        bot.budget = level.budget
    return bot


def bot_plays(bot: str, rules: Rules) -> bool:
    """Whether the bot named ``bot`` plays a game with ``rules`` (the bot's class says so:
    :meth:`~hisss.bots.base.Bot.plays`).

    >>> bot_plays("gentle", Rules()), bot_plays("gentle", Rules(hand_size=3))
    (True, False)
    """
    return named_plays(bot, rules)


def levels_for(rules: Rules) -> tuple[str, ...]:
    """The levels that play a game with ``rules``, in :data:`LEVEL_NAMES` order.

    >>> levels_for(Rules(hand_size=3))
    ('easy', 'medium', 'hard', 'expert')
    """
    return tuple(name for name in LEVEL_NAMES if bot_plays(LEVELS[name].bot, rules))


def check_level(rules: Rules, level: str) -> None:
    """Raise :class:`~hisss.core.ConfigError` unless ``level`` is a level that plays a game
    with ``rules``; the message names the levels that do."""
    if level not in LEVELS:
        raise ConfigError(f"unknown level {level!r} (levels: {', '.join(LEVEL_NAMES)})")
    if not bot_plays(LEVELS[level].bot, rules):
        raise ConfigError(
            f"the level {level!r} does not play the hand variant "
            f"(levels that do: {', '.join(levels_for(rules))})"
        )


__all__ = [
    "LEVELS",
    "LEVEL_HELP",
    "LEVEL_NAMES",
    "Level",
    "bot_plays",
    "check_level",
    "levels_for",
    "make_level",
]
