"""The expert: rollouts of careful play, aimed at the win, at every table size.

How it decides
--------------
* A decision with a single legal placement is played at once.
* Otherwise it replies to the others as if they played ``careful`` (:mod:`hisss.bots.careful`),
  and aims at its share of the win. It rolls the game out: the unseen cards dealt in a random
  order, every seat then playing ``careful`` to the end, once after each legal placement on the
  same deal (:mod:`hisss.kernel.rollout`, compiled). It deals :data:`ROLLOUTS` times for the
  number of players (``rollouts`` sets one number for every table). It plays ``careful``'s own
  placement unless another one wins more of the same deals by more than ``significance``
  standard errors of the paired difference; then it plays the one that wins most. After the
  last card is drawn it plays as ``careful`` (greedily). While the front end that started it
  is still making the compiled rollouts ready (:mod:`hisss.kernel.warming`: ``hisss serve``
  and ``hisss play`` do so in the background as they start) it plays ``careful``'s placement
  rather than wait. The figures of this choice, and of every
  objective tried before it, are in ``docs/strategy.md``. The rollouts need numba
  (:class:`~hisss.core.ConfigError` without it).

The expert of earlier versions, kept for comparison with ``many_players=3`` (it then plays the
rollouts only from three players up), searched with two players instead:

* Once at most ``solver_cards`` cards remain, the exact endgame solver
  (:mod:`hisss.bots.endgame`) computes every placement's exact win share under optimal play and
  the expert plays the best; among placements of equal win share (a game already decided, for
  instance) it takes the one a one-draw expectimax search rates best for its card margin. The
  solver has its own node budget; if it runs out (a wide position with many distinct cards
  left) the expert falls back to the search below. The solver's transposition table is kept
  for the rest of the game, so each later move of the endgame is mostly table look-ups, and it
  is cleared when a new endgame starts.
* Before that, a one-draw expectimax search (:mod:`hisss.bots.expectimax`, ``depth`` 1) with
  the static evaluation (:mod:`hisss.bots.evaluation`) at its leaves picks the placement with the
  best expected final card margin, within its node budget.

The depth of 1 and the solver's 7 cards make a lean expert: a second draw of search and the
solver from 9 cards think about twenty times longer for no strength that mirrored measures can
show (docs/strategy.md has the figures).

In the hand variant it plays :func:`~hisss.bots.hand_expert.expert_play`, a search of its own.

The rollouts are counted, not timed, and draw their deals from the bot's generator, so the
expert's moves are deterministic for a seed on any machine (tournaments rely on it). The search's
budgets are node counts too; a time limit in its :class:`~hisss.bots.base.Budget` (the ``expert``
level adds 0.3 s, a safety net for slow machines in interactive play) covers the whole move,
solver and search, at the price of that determinism once it is reached.
"""

from __future__ import annotations

import importlib
import math
import random
import time
from typing import Any, ClassVar

from hisss.bots.base import Bot, Budget, HandPolicy, legal_choices
from hisss.bots.careful import careful_candidates
from hisss.bots.endgame import EndgameSolver
from hisss.bots.evaluation import DEFAULT_EVALUATOR, Evaluator
from hisss.bots.expectimax import BudgetSpentError, pick_best, search_values
from hisss.bots.hand_expert import expert_play
from hisss.core import Action, ConfigError, State
from hisss.kernel.warming import is_warming

#: Rollouts per placement by the number of players, and how many standard errors a placement must
#: win by to be played instead of ``careful``'s.
ROLLOUTS = {2: 16, 3: 64, 4: 128, 5: 256, 6: 256}
SIGNIFICANCE = 1.0


def roll_out(state: State, count: int, seed: int) -> Any:
    """:func:`hisss.kernel.rollout.win_shares` (numba compiles it on first use, then it is cached);
    :class:`~hisss.core.ConfigError` when numba or numpy is missing."""
    try:
        rollout = importlib.import_module("hisss.kernel.rollout")
    except ImportError as exc:
        raise ConfigError(
            f"the expert needs numba and numpy "
            f"({exc.name or exc} is missing): pip install 'hisss[dist]'"
        ) from exc
    return rollout.win_shares(state, count, seed)


class ExpertBot(Bot):
    """The strongest bot: rollouts of careful play aimed at the win (see the module docstring).

    ``rollouts`` deals per placement (by default :data:`ROLLOUTS` for the table) and the
    ``significance`` it asks for before it departs from ``careful``. Below ``many_players``
    players it searches as the earlier expert did: ``budget`` bounds the midgame search (nodes
    and/or seconds), ``solver_nodes`` the exact solver, and ``solver_cards`` is the number of
    remaining cards from which the solver is tried.
    """

    name = "expert"
    default_budget = Budget(nodes=6000)
    hand_policy: ClassVar[HandPolicy | None] = expert_play

    def __init__(
        self,
        budget: Budget | None = None,
        depth: int = 1,
        solver_cards: int = 7,
        solver_nodes: int = 40_000,
        evaluator: Evaluator = DEFAULT_EVALUATOR,
        many_players: int = 2,
        rollouts: int | None = None,
        significance: float = SIGNIFICANCE,
    ) -> None:
        super().__init__(budget)
        self.many_players = many_players
        self.rollouts = rollouts
        self.significance = significance
        self.depth = depth
        self.solver_cards = solver_cards
        self.solver_nodes = solver_nodes
        self.evaluator = evaluator
        self.solver = EndgameSolver(max_entries=400_000)
        #: Decisions settled by the exact solver, and endgame decisions it could not finish.
        self.solved = 0
        self.fallbacks = 0

    def warm_up(self) -> float:
        """Compile the rollouts, or load them from numba's cache; the seconds it took."""
        try:
            rollout = importlib.import_module("hisss.kernel.rollout")
        except ImportError:
            return 0.0  # the first decision says what is missing
        seconds: float = rollout.warm_up()
        return seconds

    def exact_values(self, state: State) -> list[float] | None:
        """The exact win shares of the legal placements, or None when the solver does not apply
        (too many cards left) or runs out of its budget."""
        if state.remaining > self.solver_cards:
            if self.solver.table_size():
                self.solver.tables.clear()  # a new game (or an earlier stage): start afresh
            return None
        try:
            budget = Budget(nodes=self.solver_nodes, seconds=self.budget.seconds)
            values = self.solver.solve(state, budget.clock())
        except BudgetSpentError:
            self.fallbacks += 1
            return None
        self.solved += 1
        return values

    def rollout_choice(self, state: State, legal: list[Action], rng: random.Random) -> Action:
        """The placement the rollouts choose (see the module docstring): ``careful``'s,
        unless the rollouts show another one wins more often, by more than ``significance``
        standard errors of the paired difference."""
        top = careful_candidates(state, legal)
        if not state.remaining or is_warming():
            # Nothing is left to roll out (careful plays greedily here), or the compiled
            # rollouts are still being made ready in the background: careful's placement, at once.
            return top[0] if len(top) == 1 else top[rng.randrange(len(top))]
        count = self.rollouts or ROLLOUTS[state.players]
        shares = roll_out(state, count, rng.getrandbits(63))
        means = shares.mean(axis=1)
        chosen = list(range(len(legal)))
        if len(top) == 1:
            base = legal.index(top[0])
            diff = shares - shares[base]
            gain = diff.mean(axis=1)
            error = diff.std(axis=1, ddof=1) / math.sqrt(count)
            z = self.significance
            chosen = [i for i in chosen if gain[i] > 0 and (not error[i] or gain[i] > z * error[i])]
            if not chosen:
                return top[0]
        best = max(means[i] for i in chosen)
        tied = [legal[i] for i in chosen if means[i] == best]
        return tied[0] if len(tied) == 1 else tied[rng.randrange(len(tied))]

    def choose(self, state: State, rng: random.Random) -> Action:
        """The placement the solver or the search rates best (see the module docstring)."""
        legal = legal_choices(state)
        if len(legal) == 1:
            return legal[0]
        if state.players >= self.many_players:
            return self.rollout_choice(state, legal, rng)
        start = time.perf_counter()
        exact = self.exact_values(state)
        if exact is None:
            budget = self.budget
            if budget.seconds is not None:  # one time limit for the whole move
                spent = time.perf_counter() - start
                budget = Budget(budget.nodes, max(budget.seconds - spent, budget.seconds / 10))
            values, _ = search_values(state, legal, self.evaluator, budget, self.depth)
            return pick_best(legal, values, rng)
        top = max(exact)
        best = [i for i, v in enumerate(exact) if v >= top - 1e-9]
        if len(best) == 1:
            return legal[best[0]]
        tied = [legal[i] for i in best]
        margins, _ = search_values(state, tied, self.evaluator, Budget(nodes=2000), 1)
        return pick_best(tied, margins, rng)


def answers_quickly(state: State) -> bool:
    """True when the expert's move in ``state`` is careful's quick one because the compiled
    rollouts are still being made ready in the background (:func:`hisss.kernel.warming.is_warming`);
    the hand variant's expert plays without compiled code, so never there."""
    return is_warming() and not state.hand_sizes


__all__ = ["ExpertBot", "answers_quickly"]
