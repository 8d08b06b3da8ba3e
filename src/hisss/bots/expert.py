"""The expert: exact play at the end of the game, expectimax search before it.

How it decides
--------------
* A decision with a single legal placement is played at once.
* At a table of ``many_players`` (3) or more, it plays as ``careful`` (:mod:`hisss.bots.careful`).
  The search and the solver below aim at the margin over the best opponent, which fits a
  two-player game. No search objective tried for three to five players beat ``careful`` itself:
  max-n with margins or with the mean of the others, a best reply to opponents modelled as
  ``careful``, ``careful`` with ties broken by the evaluation, and the search and solver below
  all won a share within about a point of the fair one against ``careful`` (the figures, with
  their commands, are in ``docs/strategy.md``), and some less, so the one-draw lookahead is
  played there.
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

The depth of 1 and the solver's 7 cards make a lean expert that thinks twenty times less than the
earlier defaults (a second draw of search and the solver from 9 cards: 0.5 s against 11.5 s over
the same 20 games of ``hisss movetimes expert --games 20 --seed 3``), for no difference in
strength that mirrored measures can show: the earlier expert won 52.7% of 4,000 games against
``greedy`` (seed 21, interval 51.4-54.1%); the lean one 52.9% of 4,000 on the same deals
(51.6-54.2%, ``examples/objectives.py``) and 51.8% of a 10,000-game tournament (seed 21,
50.9-52.6%). Its median decision with a choice takes about 2 ms.

Both budgets are node counts, so by default the expert's moves are deterministic for a seed on
any machine (tournaments rely on it). A time limit in its :class:`~hisss.bots.base.Budget` (the
``expert`` level adds 0.3 s, a safety net for slow machines in interactive play) covers the whole
move, solver and search, at the price of that determinism once it is reached.
"""

from __future__ import annotations

import random
import time

from hisss.bots.base import Bot, Budget, legal_choices
from hisss.bots.careful import CarefulBot
from hisss.bots.endgame import EndgameSolver
from hisss.bots.evaluation import DEFAULT_EVALUATOR, Evaluator
from hisss.bots.expectimax import BudgetSpentError, pick_best, search_values
from hisss.core import Action, State


class ExpertBot(Bot):
    """The strongest combination of the search bots (see the module docstring).

    ``budget`` bounds the midgame search (nodes and/or seconds); ``solver_nodes`` the exact
    solver; ``solver_cards`` is the number of remaining cards from which the solver is tried;
    from ``many_players`` players up it plays as ``careful``.
    """

    name = "expert"
    default_budget = Budget(nodes=6000)

    def __init__(
        self,
        budget: Budget | None = None,
        depth: int = 1,
        solver_cards: int = 7,
        solver_nodes: int = 40_000,
        evaluator: Evaluator = DEFAULT_EVALUATOR,
        many_players: int = 3,
    ) -> None:
        super().__init__(budget)
        self.many_players = many_players
        self.careful = CarefulBot()
        self.depth = depth
        self.solver_cards = solver_cards
        self.solver_nodes = solver_nodes
        self.evaluator = evaluator
        self.solver = EndgameSolver(max_entries=400_000)
        #: Decisions settled by the exact solver, and endgame decisions it could not finish.
        self.solved = 0
        self.fallbacks = 0

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

    def choose(self, state: State, rng: random.Random) -> Action:
        """The placement the solver or the search rates best (see the module docstring)."""
        legal = legal_choices(state)
        if len(legal) == 1:
            return legal[0]
        if state.players >= self.many_players:
            return self.careful.choose(state, rng)
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


__all__ = ["ExpertBot"]
