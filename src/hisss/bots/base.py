"""The interface every bot implements.

A bot is asked for one decision at a time: given the position with a drawn card waiting to be
placed, it returns one of ``state.legal_actions()``. It sees only the public position (in the
classic game everything on the table, in the pits and in the remaining counts is public; the order
of the remaining cards is not in the state at all). A bot may search by copying the state
(:meth:`~hisss.core.State.copy`) or by pushing and undoing moves, but it must hand the state back as
it found it. All randomness comes from the ``rng`` it is given, so a seeded game is reproducible.

In the hand variant a bot is asked :meth:`Bot.choose_from_hand` with its seat's view instead, which
holds only what the seat may know; a bot that plays it says how in its class's
:attr:`Bot.hand_policy` (:data:`hisss.bots.hand.HAND_POLICIES` lists them by name).

A bot that searches gets a :class:`Budget`: a number of nodes (deterministic: the same position and
seed give the same move on any machine) and/or a time limit in seconds (for interactive play; the
move then depends on the machine's speed). Whichever runs out first stops the search.
"""

from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from hisss.core import Action, ConfigError, IllegalActionError, Rules, SeatView, State, seen_by

#: How a bot plays the hand variant: a seat's view, a random generator and a time limit in seconds
#: (or ``None``) to one of the view's legal plays.
HandPolicy = Callable[[SeatView, random.Random, float | None], Action]


def legal_choices(state: State) -> list[Action]:
    """``state.legal_actions()``, raising :class:`IllegalActionError` when no card is waiting."""
    legal = state.legal_actions()
    if not legal:
        raise IllegalActionError("a choice", state.describe(), "no card is waiting to be placed")
    return legal


def pick(options: list[Action], rng: random.Random) -> Action:
    """One of ``options`` uniformly at random; a single option consumes no randomness."""
    return options[0] if len(options) == 1 else options[rng.randrange(len(options))]


def hand_bot_names() -> list[str]:
    """The names of the bots that play the hand variant (a :attr:`Bot.hand_policy`), among the bot
    classes defined so far, each class before its subclasses."""
    names: list[str] = []
    classes = list(reversed(Bot.__subclasses__()))
    while classes:
        cls = classes.pop()
        if cls.hand_policy is not None and cls.name not in names:
            names.append(cls.name)
        classes.extend(reversed(cls.__subclasses__()))
    return names


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a searching bot may think per move: nodes, seconds, or both (``None``: no limit)."""

    nodes: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.nodes is not None and (
            isinstance(self.nodes, bool) or not isinstance(self.nodes, int) or self.nodes < 1
        ):
            raise ConfigError(
                f"a node budget must be a whole number of at least 1, not {self.nodes}"
            )
        if self.seconds is not None and (
            isinstance(self.seconds, bool)
            or not isinstance(self.seconds, int | float)
            or not self.seconds > 0
        ):
            raise ConfigError(
                f"a time budget must be a positive number of seconds, not {self.seconds}"
            )

    def clock(self) -> Clock:
        """A fresh counter for one move's search."""
        return Clock(self)


class Clock:
    """Counts the nodes and time one search spends against its :class:`Budget`."""

    __slots__ = ("deadline", "limit", "nodes")

    def __init__(self, budget: Budget) -> None:
        self.nodes = 0
        self.limit = budget.nodes
        self.deadline = time.perf_counter() + budget.seconds if budget.seconds is not None else None

    def tick(self, n: int = 1) -> bool:
        """Count ``n`` nodes; False once the budget is spent (time is checked every 64 nodes)."""
        self.nodes += n
        if self.limit is not None and self.nodes >= self.limit:
            return False
        if self.deadline is not None and (self.nodes & 63) < n:
            return time.perf_counter() < self.deadline
        return True

    def spent(self) -> bool:
        """True once the budget is used up (checks the time now)."""
        if self.limit is not None and self.nodes >= self.limit:
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline


class Bot(ABC):
    """A player that chooses where each drawn card goes."""

    #: The registry name of the bot (``random``, ...), used in records and reports.
    name: str = "bot"
    #: The default budget of bots of this class.
    default_budget: Budget = Budget()
    #: What the bot plays in the hand variant, given its budget's time limit (``None``: the bot
    #: does not play the variant).
    hand_policy: ClassVar[HandPolicy | None] = None

    def __init__(self, budget: Budget | None = None) -> None:
        self.budget = budget if budget is not None else self.default_budget

    @abstractmethod
    def choose(self, state: State, rng: random.Random) -> Action:
        """Return one of ``state.legal_actions()`` for the drawn card ``state.drawn``.

        ``state`` must be a decision point (a card is drawn and waits to be placed) and must be left
        unchanged. ``rng`` is the only source of randomness the bot may use.
        """

    def warm_up(self) -> float:
        """Make ready what the bot's first decision would otherwise pay for (compiled code);
        return the seconds it took. Timings leave it out (``hisss movetimes``)."""
        return 0.0

    def move(self, state: State, rng: random.Random) -> Action:
        """The bot's choice for the seat to move in ``state``: :meth:`choose` in the classic
        game; in the hand variant :meth:`choose_from_hand` with that seat's view, so the bot sees
        only what the seat may know."""
        if state.hand_sizes:  # the seats hold cards: the bot knows only its seat's view
            view = seen_by(state, state.to_move)
            assert isinstance(view, SeatView)
            return self.choose_from_hand(view, rng)
        return self.choose(state, rng)

    @classmethod
    def plays(cls, rules: Rules) -> bool:
        """Whether bots of this class play a game with ``rules``: every bot plays the classic
        game; the hand variant, those with a :attr:`hand_policy`."""
        return rules.seats_draw or cls.hand_policy is not None

    def choose_from_hand(self, view: SeatView, rng: random.Random) -> Action:
        """The hand variant: return one of ``view.legal_actions()``, knowing only ``view``.

        The bot's :attr:`hand_policy`, with its budget's time limit. Raises
        :class:`~hisss.core.ConfigError` for a bot that does not play the variant.
        """
        policy = type(self).hand_policy
        if policy is None:
            raise ConfigError(
                f"bot {self.name!r} does not play the hand variant "
                f"(bots that do: {', '.join(hand_bot_names())})"
            )
        return policy(view, rng, self.budget.seconds)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
