"""Bots' turns: the one loop that plays them and the one scheme that seeds their decisions.

The loop is :class:`BotTurns`, a planner that does no I/O: given a position it says what comes
next, a chance step to take (:class:`Draw`), a bot seat's turn to place (:class:`Turn`, whose
:meth:`~Turn.decide` is the bot's checked and seeded choice), or the loop's :class:`End` (the game
over, a seat no bot plays, the caller's stop). Every place a bot takes a turn drives it and does
each step its own way: :func:`bot_turns`, the synchronous driver, for simulation and the RL
environments; the server (each step stored before anyone hears of it, paced, the choice thought on
a worker thread), the terminal game (paced, the choice on a worker thread) and each seat of the
load generator (a step sent over the network). So which step comes next, and a bot's choice, are
worked out the same way everywhere; :func:`next_decision` is a single decision outside the loop
(the hints). The compiled batched environment (:mod:`hisss.kernel.batch`) seeds its ``random``
and ``greedy`` bots' choices the same way, and so makes the same ones.

Seeding: the generator of every decision is :func:`decision_rng` of the game's seed and the turn
(:attr:`hisss.core.State.turns`, the cards placed so far, the starter not counted), and of nothing
else. So a game played again, loaded and finished, or rebuilt by a server after a restart makes
the same choices, and a decision never depends on how much randomness another took. A game
without a seed counts as seed 0. The generator is :class:`SplitMix`, the compiled kernel's
splitmix64 in Python, started from the finaliser of the seed plus a step per turn.

>>> decision_rng(7, 3).random() == decision_rng(7, 3).random() != decision_rng(7, 4).random()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Protocol

from hisss.bots.base import Bot
from hisss.core import Action, IllegalActionError, State

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_UNIT = 1.0 / 9007199254740992.0  # 2 ** -53
#: The step between the starting states of neighbouring turns: an odd constant far from any small
#: multiple of the stream's own step, so the streams of different turns never run into each other.
_TURN_STEP = 0xD1B54A32D192ED03


def _finalise(z: int) -> int:
    """The splitmix64 finaliser: a bijection of 64-bit integers that scatters every bit."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class SplitMix(random.Random):
    """The splitmix64 generator of the compiled kernel (:mod:`hisss.kernel.batch`), in Python:
    a generator of seed ``s`` starts from the finaliser of ``s``; ``randrange(n)`` and
    ``integers(n)`` are ``floor(u * n)`` for a 53-bit uniform ``u``, as the kernel draws them.
    Every other method of :class:`random.Random` (``choice``, ``shuffle``, ``uniform``, ...)
    works on top of :meth:`random` and :meth:`getrandbits`. Its state is one 64-bit integer, so
    it is made and seeded far faster than a Mersenne Twister.

    >>> rng = SplitMix(7)
    >>> [rng.randrange(10) for _ in range(5)]
    [5, 3, 9, 8, 6]
    """

    _state: int
    gauss_next: float | None

    def __init__(self, seed: int = 0) -> None:
        self._state = _finalise(int(seed) & _MASK)
        self.gauss_next = None

    def seed(self, a: object = None, version: int = 2) -> None:
        """Restart from the finaliser of ``a`` (an int; anything else leaves the state)."""
        if isinstance(a, int):
            self._state = _finalise(a & _MASK)

    def getstate(self) -> tuple[int, float | None]:  # type: ignore[override]
        """The state, for :meth:`setstate`."""
        return (self._state, self.gauss_next)

    def setstate(self, state: tuple[int, float | None]) -> None:  # type: ignore[override]
        """Go back to a state of :meth:`getstate`."""
        self._state, self.gauss_next = state

    def _next(self) -> int:
        self._state = state = (self._state + _GOLDEN) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def random(self) -> float:
        """A uniform float in [0, 1) of 53 bits."""
        return (self._next() >> 11) * _UNIT

    def getrandbits(self, k: int) -> int:
        """``k`` random bits (at most 64)."""
        if not 0 <= k <= 64:
            raise ValueError("SplitMix gives at most 64 bits at a time")
        return self._next() >> (64 - k) if k else 0

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        """``floor(u * n)`` below ``start`` (one argument), or in ``range(start, stop)``."""
        if stop is None and start > 0:  # the bots' one-argument draw, inlined for speed
            self._state = z = (self._state + _GOLDEN) & _MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            return int((((z ^ (z >> 31)) >> 11) * _UNIT) * start)
        if stop is None:
            start, stop = 0, start
        n = stop - start
        if step != 1 or n <= 0:
            raise ValueError(f"SplitMix.randrange takes a non-empty range, not {start}, {stop}")
        return start + int(self.random() * n)

    def integers(self, n: int) -> int:
        """As :meth:`randrange`: the numpy-style name :class:`hisss.rl.dealing.Dealer` calls."""
        return self.randrange(n)


def decision_rng(seed: int | None, turn: int) -> SplitMix:
    """The generator of the bot decision on ``turn`` (:attr:`~hisss.core.State.turns`) of the
    game of ``seed`` (``None`` counts as 0): a :class:`SplitMix` whose state starts at the
    finaliser of the seed plus ``turn`` times an odd constant, so each turn of a game has a
    stream of its own, and neighbouring seeds unrelated ones.

    >>> decision_rng(None, 5).getstate() == decision_rng(0, 5).getstate()
    True
    """
    rng = SplitMix()
    rng._state = _turn_state(_finalise((seed or 0) & _MASK), turn)
    return rng


def _turn_state(base: int, turn: int) -> int:
    return (base + turn * _TURN_STEP) & _MASK


def decide(bot: Bot, state: State, rng: random.Random) -> Action:
    """``bot``'s choice for the seat to move in ``state`` (:meth:`~hisss.bots.Bot.move`, which
    in the hand variant shows the bot that seat's view only), drawn with ``rng``.

    Raises :class:`~hisss.core.IllegalActionError`, naming the bot, when the bot returns an
    action that is not legal.
    """
    action = bot.move(state, rng)
    if action not in state.legal_actions():
        raise _illegal(bot, state, action)
    return action


def _illegal(bot: Bot, state: State, action: Action) -> IllegalActionError:
    return IllegalActionError(
        action, state.describe(), f"bot {bot.name!r} chose an action that is not legal"
    )


def next_decision(bot: Bot, state: State, seed: int | None) -> Action:
    """``bot``'s checked choice for the seat to move in ``state`` of the game of ``seed``, with
    the turn's generator (:func:`decision_rng` of ``seed`` and ``state.turns``): the same
    position of the same game gives the same choice, wherever and whenever it is asked."""
    return decide(bot, state, decision_rng(seed, state.turns))


class Draw:
    """A step of the loop: take the chance step that is due. ``seat`` (from 0) is the seat that
    draws its card, ``None`` when the game draws it itself (the starter; in the hand variant
    every card dealt into a hand, :attr:`hisss.core.Rules.seats_draw` being False)."""

    __slots__ = ("seat",)

    def __init__(self, seat: int | None) -> None:
        self.seat = seat

    def __repr__(self) -> str:
        return f"Draw({self.seat})"


class Turn:
    """A step of the loop: the bot of ``seat`` is to place. :meth:`decide` is its choice, made
    with the turn's generator; a driver may ask it on another thread, on a copy of the position,
    and place it when it likes."""

    __slots__ = ("_base", "bot", "seat", "seed")

    def __init__(self, seat: int, bot: Bot, seed: int | None) -> None:
        self.seat = seat
        self.bot = bot
        self.seed = seed
        self._base = _finalise((seed or 0) & _MASK)

    def __repr__(self) -> str:
        return f"Turn({self.seat}, {self.bot.name!r})"

    def decide(self, state: State, rng: SplitMix | None = None) -> tuple[Action, int]:
        """The bot's checked choice in ``state`` (this turn's position, or a copy of it) and the
        number of legal actions it had. The choice draws on :func:`decision_rng` of the seed
        and ``state.turns``; ``rng``, when given, is a generator to restart on that stream
        rather than a new one (a loop's own, reused turn after turn).

        Raises :class:`~hisss.core.IllegalActionError`, naming the bot, when it returns an
        action that is not legal."""
        if rng is None:
            rng = SplitMix()
        rng._state = (self._base + state.turns * _TURN_STEP) & _MASK  # decision_rng's stream
        rng.gauss_next = None
        legal = state.legal_actions()
        action = self.bot.move(state, rng)
        if action not in legal:
            raise _illegal(self.bot, state, action)
        return action, len(legal)


class End:
    """A step of the loop: it ends; ``reason`` is ``"over"`` (the game is), ``"person"`` (a
    seat no bot plays is to draw or place) or ``"stop"`` (the caller's ``stop`` said so)."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def __repr__(self) -> str:
        return f"End({self.reason!r})"


#: The loop's ends.
OVER = End("over")
PERSON = End("person")
STOPPED = End("stop")

#: What :meth:`BotTurns.step` says comes next.
Step = Draw | Turn | End


class BotTurns:
    """The bots' turn loop as a planner that does no I/O: given a position, :meth:`step` says
    what the loop does next, and the caller does it (to its own table, in its own time, under
    its own lock, stored before it is shown) and asks again. Every driver of bots' turns asks
    it: :func:`bot_turns` (simulation, the RL environments), the server's bot driver, the
    terminal game and the load generator's seats.

    ``bots`` are the bots by seat (``bots[seat]``; ``None`` or a missing seat is not a bot's),
    ``seed`` the game's seed (:func:`decision_rng`). A chance step is taken for every seat
    unless ``people_draw``: then a seat no bot plays draws its card itself, and the loop ends
    before its draw (the terminal, the server). ``stop`` is asked before each chance step, and
    ends the loop when it says so (a stacked deck shorter than the deck).

    >>> from hisss.bots import make_bot
    >>> from hisss.core import new_game
    >>> state, plan = new_game(2), BotTurns({0: make_bot("random")}, 7, people_draw=True)
    >>> plan.step(state)  # the starter: the game draws it
    Draw(None)
    >>> for _ in range(2):
    ...     state.draw(state.chance_outcomes()[0][0])  # the starter, then seat 1's card
    ...     print(plan.step(state))
    Draw(0)
    Turn(0, 'random')
    >>> placed = state.push(state.legal_actions()[0]); plan.step(state)  # seat 2 draws itself
    End('person')
    """

    __slots__ = ("_draws", "_turns", "people_draw", "stop")

    def __init__(
        self,
        bots: Sequence[Bot | None] | Mapping[int, Bot],
        seed: int | None,
        *,
        people_draw: bool = False,
        stop: Callable[[], bool] | None = None,
    ) -> None:
        seated = bots if isinstance(bots, Mapping) else dict(enumerate(bots))
        self._turns = {s: Turn(s, bot, seed) for s, bot in seated.items() if bot is not None}
        self._draws: dict[int | None, Draw] = {}
        self.people_draw = people_draw
        self.stop = stop

    def step(self, state: State) -> Step:
        """What the loop does next in ``state``: a :class:`Draw`, a bot's :class:`Turn`, or its
        :class:`End`."""
        if state.is_terminal():
            return OVER
        if not state.is_chance_node():
            return self._turns.get(state.to_move, PERSON)
        # The seat draws its card itself once the game has started, unless the game deals.
        seat = state.to_move if state.rules.seats_draw and state.started else None
        if self.people_draw and seat is not None and seat not in self._turns:
            return PERSON
        if self.stop is not None and self.stop():
            return STOPPED
        draw = self._draws.get(seat)
        if draw is None:
            draw = self._draws[seat] = Draw(seat)
        return draw


class Table(Protocol):
    """What :func:`bot_turns` drives: a position, its chance steps and its placements
    (:class:`hisss.record.Game` is one; an RL environment wraps its position and dealer)."""

    @property
    def state(self) -> State:
        """The position, changed in place by :meth:`draw` and :meth:`push`."""
        ...

    def draw(self) -> object:
        """Take the chance step that is due (the starter, a deal, a draw)."""
        ...

    def push(self, action: Action) -> object:
        """Place the drawn card as ``action``, a legal action."""
        ...


def bot_turns(
    table: Table,
    bots: Sequence[Bot | None] | Mapping[int, Bot],
    seed: int | None,
    *,
    stop: Callable[[], bool] | None = None,
) -> Iterator[tuple[int, Action, int]]:
    """Play ``table`` on while a bot is to move: the synchronous driver of :class:`BotTurns`,
    which takes each chance step that is due and lets the bot of the seat to move
    (``bots[seat]``; ``None`` or a missing seat is not a bot's) choose (:meth:`Turn.decide`,
    seeded by ``seed`` and the turn) and place. Yields each turn once it is placed, as the seat
    (from 0), the action and the number of legal actions it had, so the caller can count or
    show it.

    Ends when the game is over, when a seat that is not a bot's is to place (the chance step
    before it taken: a learning seat's card is drawn for it), or when ``stop`` says so before a
    chance step. Raises :class:`~hisss.core.IllegalActionError` when a bot returns an action
    that is not legal.
    """
    state = table.state
    plan = BotTurns(bots, seed, stop=stop)
    rng = SplitMix()  # one generator, restarted on each turn's stream
    while True:
        step = plan.step(state)
        if isinstance(step, Draw):
            table.draw()
        elif isinstance(step, Turn):
            action, legal = step.decide(state, rng)
            table.push(action)
            yield step.seat, action, legal
        else:
            return


__all__ = [
    "OVER",
    "PERSON",
    "STOPPED",
    "BotTurns",
    "Draw",
    "End",
    "SplitMix",
    "Step",
    "Table",
    "Turn",
    "bot_turns",
    "decide",
    "decision_rng",
    "next_decision",
]
