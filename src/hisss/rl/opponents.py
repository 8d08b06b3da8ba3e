"""The other seats of a single-agent environment: built-in bots, any policy, or the learner.

An opponent is given as

* a bot or level name of :func:`hisss.bots.make_bot` (``"random"``, ``"careful"``, ``"hard"``);
* a :class:`~hisss.bots.Bot` instance;
* a callable ``policy(observation, mask) -> action``: it gets the observation and the action
  mask of its own seat, in the environment's spaces, and returns an index (any integer-like
  scalar); an index outside the mask raises :class:`~hisss.core.IllegalActionError`;
* ``"self"``: the learner itself, the policy set with
  :meth:`hisss.rl.HisssEnv.set_learner` (for self-play: a training loop sets it to the model
  it trains).

A bot that cannot play the rules (in the hand variant, a bot without a hand policy) is refused
when the environment is made.

>>> from hisss.core import Rules
>>> [o.name for o in make_opponents(["greedy", "self"], players=3, rules=Rules())]
['greedy', 'self']
>>> make_opponents("mcts", players=2, rules=Rules(hand_size=3))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
hisss.core.errors.ConfigError: opponent 'mcts' does not play the hand variant (bots that do: ...)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from hisss.bots import BOT_NAMES, Bot, bot_plays, make_bot
from hisss.core import ConfigError, Rules

#: A policy: the observation and the action mask of its seat to an action index.
Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], Any]

#: The opponent name that stands for the learner itself.
SELF = "self"


@dataclass(frozen=True)
class Opponent:
    """One other seat: a bot, a policy, or the learner (``bot`` and ``policy`` both ``None``)."""

    name: str
    bot: Bot | None = None
    policy: Policy | None = None

    @property
    def is_learner(self) -> bool:
        """True for ``"self"``: the seat plays the learner's policy."""
        return self.bot is None and self.policy is None


def make_opponent(spec: object, rules: Rules) -> Opponent:
    """One opponent from its description (see the module docstring); raises
    :class:`~hisss.core.ConfigError` for anything else, or a bot that cannot play ``rules``."""
    if isinstance(spec, str):
        if spec.strip().lower() == SELF:
            return Opponent(SELF)
        bot = make_bot(spec)
    elif isinstance(spec, Bot):
        bot = spec
    elif callable(spec):
        return Opponent(getattr(spec, "__name__", type(spec).__name__), policy=spec)
    else:
        raise ConfigError(
            f"an opponent is a bot name, a Bot, a callable (observation, mask) -> action or "
            f"'self', not {type(spec).__name__}"
        )
    if not bot.plays(rules):
        raise ConfigError(
            f"opponent {bot.name!r} does not play the hand variant "
            f"(bots that do: {', '.join(n for n in BOT_NAMES if bot_plays(n, rules))})"
        )
    return Opponent(bot.name, bot=bot)


def make_opponents(spec: object, players: int, rules: Rules) -> tuple[Opponent, ...]:
    """The opponents of the ``players - 1`` other seats: one description for all of them, or a
    sequence of one per other seat in seat order (the learning seat left out)."""
    items: list[object]
    if isinstance(spec, str | Bot) or callable(spec):
        items = [spec]
    elif isinstance(spec, Sequence):
        items = list(spec)
    else:
        raise ConfigError(
            f"opponents: a bot name, a Bot, a callable, 'self' or a list of them, "
            f"not {type(spec).__name__}"
        )
    if len(items) == 1:
        items = items * (players - 1)
    if len(items) != players - 1:
        raise ConfigError(
            f"opponents: {len(items)} names for {players - 1} other seats "
            "(give one name for all of them, or one per seat)"
        )
    return tuple(make_opponent(item, rules) for item in items)


__all__ = ["SELF", "Opponent", "Policy", "make_opponent", "make_opponents"]
