"""The bots known by name: :data:`BOT_NAMES`, and :func:`make_named` to make one. The levels
(:mod:`hisss.bots.levels`) and :func:`hisss.bots.make_bot` build on it."""

from __future__ import annotations

from hisss.bots.base import Bot, HandPolicy
from hisss.bots.careful import CarefulBot
from hisss.bots.endgame import EndgameBot
from hisss.bots.expectimax import ExpectimaxBot
from hisss.bots.expert import ExpertBot
from hisss.bots.gentle import GentleBot
from hisss.bots.greedy import CasualBot, GreedyBot
from hisss.bots.mcts import MctsBot
from hisss.bots.random_bot import RandomBot
from hisss.core import ConfigError, Rules

_FACTORIES: dict[str, type[Bot]] = {
    "random": RandomBot,
    "casual": CasualBot,
    "greedy": GreedyBot,
    "careful": CarefulBot,
    "gentle": GentleBot,
    "expectimax": ExpectimaxBot,
    "mcts": MctsBot,
    "endgame": EndgameBot,
    "expert": ExpertBot,
}

#: The names :func:`make_bot` knows, in the order they are listed in help texts.
BOT_NAMES: tuple[str, ...] = tuple(_FACTORIES)


def make_named(name: str) -> Bot | None:
    """A new bot of the name ``name`` (exactly as listed), or ``None`` for no such bot."""
    factory = _FACTORIES.get(name)
    return factory() if factory is not None else None


def named_plays(name: str, rules: Rules) -> bool:
    """Whether the bot named ``name`` (one of :data:`BOT_NAMES`) plays a game with ``rules``
    (:meth:`~hisss.bots.base.Bot.plays`)."""
    return _FACTORIES[name].plays(rules)


def hand_policies() -> dict[str, HandPolicy]:
    """What each bot known by name that plays the hand variant plays there (its class's
    :attr:`~hisss.bots.base.Bot.hand_policy`), in the order of :data:`BOT_NAMES`."""
    return {
        name: policy for name, bot in _FACTORIES.items() if (policy := bot.hand_policy) is not None
    }


def unknown_bot(name: object, also: str = "") -> ConfigError:
    """The error for a bot name nobody knows (``also``: more names to suggest)."""
    return ConfigError(f"unknown bot {name!r} (known bots: {', '.join(BOT_NAMES)}{also})")


__all__ = ["BOT_NAMES", "hand_policies", "make_named", "named_plays", "unknown_bot"]
