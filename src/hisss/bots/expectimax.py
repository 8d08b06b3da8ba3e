"""Depth-limited expectimax over the exact chance outcomes of the next draws.

The tree
--------
The root is the bot's decision: where to place the drawn card. After a placement comes a
*chance node*: every distinct card still to be drawn is a branch, weighted by its exact
probability (copies left over cards left), then the drawer's *decision node* (every legal
placement of that card), then the next chance node, and so on. The depth ``d`` counts the draws
looked at beyond the root's placement: ``d = 0`` evaluates each placement at once, ``d = 1``
looks at the next player's draw and best reply, ``d = 2`` also at the draw after that.

Values and decision rule (max-n)
--------------------------------
A node's value is a vector: each seat's expected final measure from
:class:`~hisss.bots.evaluation.Evaluator` at the leaves (always evaluated at chance nodes, with
the next drawer known), or the exact final score at the end of the game. Chance nodes take the
probability-weighted mean of their children. At a decision node the seat to move picks the
child with the best expected final *margin* for itself (its value minus the best other seat's):
this is max-n with margins. With two players the margins are zero-sum, so it is exactly
expectimax with max and min; with three or more each opponent is modelled as playing for its own
margin, which is how the other bots of the game behave (a paranoid search, where all opponents
conspire against the bot, would make it needlessly timid in a game where most snakes go to
whoever draws the right card). Ties go to the first action in the search order.

Budget, iterative deepening and move ordering
---------------------------------------------
Every placement and draw made in the tree counts one node on the :class:`~hisss.bots.base.Clock`
of the bot's :class:`~hisss.bots.base.Budget`. The search deepens ``d = 0, 1, 2, ...`` up to the
bot's ``depth``; depth 0 always completes, and a deeper iteration cut short by the budget is
used only for the root placements it finished, and only if the previous iteration's best
placement (searched first) is among them. With a node budget the move is deterministic; with a
time budget it depends on the machine's speed. The root placements are ordered by the previous
iteration's values. Exact ties at the root are broken with the bot's seeded ``rng``.

No transposition table: two lines of a two-draw search meet only when two placements of the same
card leave equivalent tables, and every leaf is a cheap evaluation (``docs/strategy.md`` has its
cost), so look-ups would not pay for themselves; the exact endgame solver, whose subtrees are whole
endgames, does keep one (:mod:`hisss.bots.endgame`).
"""

from __future__ import annotations

import random

from hisss.bots.base import Bot, Budget, Clock, legal_choices
from hisss.bots.evaluation import (
    DEFAULT_EVALUATOR,
    Evaluator,
    margin_of,
    pit_measure,
    remaining_counts,
)
from hisss.core import Action, State
from hisss.core.cards import card_from_code


class BudgetSpentError(Exception):
    """Raised inside a search when the budget is spent; the iteration is abandoned."""


class ExpectimaxSearch:
    """One move's expectimax search; see the module docstring.

    ``counts`` tracks the copies left of every card code as the search draws and undoes cards.
    """

    __slots__ = ("clock", "counts", "evaluator", "players", "state")

    def __init__(self, state: State, evaluator: Evaluator, clock: Clock) -> None:
        self.state = state
        self.evaluator = evaluator
        self.clock = clock
        self.players = state.players
        self.counts = remaining_counts(state)

    def leaf(self) -> list[float]:
        """The value of a position at a chance node or at the end."""
        state = self.state
        if state.is_terminal():
            return [float(pit_measure(state, s)) for s in range(self.players)]
        return self.evaluator.values(state, self.counts)

    def chance(self, depth: int) -> list[float]:
        """The value of a chance node searched ``depth`` draws deep."""
        state = self.state
        if depth <= 0 or state.is_terminal():
            return self.leaf()
        counts = self.counts
        left = state.remaining
        total = [0.0] * self.players
        tick = self.clock.tick
        for code, n in enumerate(counts):
            if not n:
                continue
            card = card_from_code(code)
            if not tick():
                raise BudgetSpentError
            state.push_draw(card)
            counts[code] = n - 1
            try:
                vals = self.decision(depth)
            finally:
                counts[code] = n
                state.undo()
            p = n / left
            for s in range(self.players):
                total[s] += p * vals[s]
        return total

    def decision(self, depth: int) -> list[float]:
        """The value of a decision node: the mover's best placement, then ``depth - 1`` draws."""
        state = self.state
        seat = state.to_move
        tick = self.clock.tick
        best: list[float] | None = None
        best_margin = 0.0
        for action in state.legal_actions():
            if not tick():
                raise BudgetSpentError
            state.push(action)
            try:
                vals = self.chance(depth - 1)
            finally:
                state.undo()
            m = margin_of(vals, seat)
            if best is None or m > best_margin:
                best, best_margin = vals, m
        assert best is not None
        return best

    def root_values(self, actions: list[Action], depth: int) -> list[float | None]:
        """The mover's margin after each root action searched ``depth`` draws deep.

        Entries stay ``None`` for actions not reached before the budget ran out.
        """
        state = self.state
        seat = state.to_move
        out: list[float | None] = [None] * len(actions)
        for i, action in enumerate(actions):
            self.clock.tick()
            state.push(action)
            try:
                vals = self.chance(depth)
            except BudgetSpentError:
                return out
            finally:
                state.undo()
            out[i] = margin_of(vals, seat)
        return out


def search_values(
    state: State,
    actions: list[Action],
    evaluator: Evaluator,
    budget: Budget,
    max_depth: int,
) -> tuple[list[float], int]:
    """Iteratively deepened margins of ``actions`` (in the given order) and the depth reached.

    Depth 0 always completes. Returns the margins of the deepest usable iteration (see the
    module docstring) and that depth.
    """
    clock = budget.clock()
    search = ExpectimaxSearch(state, evaluator, clock)
    order = list(range(len(actions)))
    values: list[float] = [0.0] * len(actions)
    first = search.root_values(actions, 0)
    for i, v in enumerate(first):
        values[i] = v if v is not None else 0.0
    if any(v is None for v in first):  # pragma: no cover - depth 0 never raises
        raise AssertionError("depth 0 must complete")
    reached = 0
    for depth in range(1, max_depth + 1):
        if clock.spent():
            break
        order.sort(key=lambda i: -values[i])
        found = search.root_values([actions[i] for i in order], depth)
        if all(v is not None for v in found):
            for pos, i in enumerate(order):
                values[i] = found[pos]  # type: ignore[assignment]
            reached = depth
            continue
        # A cut iteration counts only if the previous best (searched first) was finished; then
        # the finished placements are compared at the new depth and the rest keep a value just
        # below the worst finished one, so that they are not preferred.
        if found[0] is not None:
            done = [(order[pos], v) for pos, v in enumerate(found) if v is not None]
            floor = min(v for _, v in done) - 1.0
            for i in range(len(values)):
                values[i] = floor
            for i, v in done:
                values[i] = v
        break
    return values, reached


def pick_best(actions: list[Action], values: list[float], rng: random.Random) -> Action:
    """The action of highest value; exact ties broken with ``rng``."""
    top = max(values)
    best = [a for a, v in zip(actions, values, strict=True) if v >= top - 1e-12]
    return best[0] if len(best) == 1 else best[rng.randrange(len(best))]


class ExpectimaxBot(Bot):
    """Depth-limited expectimax with the static evaluation at the leaves (module docstring)."""

    name = "expectimax"
    default_budget = Budget(nodes=6000)

    def __init__(
        self,
        budget: Budget | None = None,
        depth: int = 2,
        evaluator: Evaluator = DEFAULT_EVALUATOR,
    ) -> None:
        super().__init__(budget)
        self.depth = depth
        self.evaluator = evaluator

    def choose(self, state: State, rng: random.Random) -> Action:
        """The placement with the best searched margin for the seat to move."""
        legal = legal_choices(state)
        if len(legal) == 1:
            return legal[0]
        values, _ = search_values(state, legal, self.evaluator, self.budget, self.depth)
        return pick_best(legal, values, rng)


__all__ = ["BudgetSpentError", "ExpectimaxBot", "ExpectimaxSearch", "pick_best", "search_values"]
