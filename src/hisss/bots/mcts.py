"""Monte Carlo tree search with explicit chance nodes.

The tree alternates *decision nodes* (a seat places a known drawn card; one child per legal
placement) and *chance nodes* (the next card is drawn; one child per distinct card, created when
first drawn). Each iteration:

1. **Selection.** From the root decision, a decision node whose placements have all been tried
   picks the child maximising UCT for the seat to move,
   ``mean_reward[seat] + c * sqrt(ln(visits of the node) / visits of the child)``, with
   ``c = exploration`` (default 0.7; rewards lie in [0, 1]). A chance node draws its card at
   random with the exact probability of each remaining card (copies left over cards left), so
   the tree's statistics average over the draws in their true proportions.
2. **Expansion.** The first untried placement of the node reached (in the engine's order) is
   added to the tree.
3. **Rollout.** From there the game is played to its end by a fast greedy policy: every seat
   completes the largest snake its card can complete, and otherwise places the card uniformly at
   random among the legal placements. Draws are random with the exact probabilities.
4. **Back-propagation.** The reward is every seat's share of the win at the end (1 alone,
   ``1/k`` shared by ``k``, 0 for a loss), added to the statistics of every node on the path;
   each seat maximises its own share (max-n UCT), which for two players is the usual two-player
   UCT.

The bot plays the most visited placement at the root (ties: the higher mean reward, then the
engine's order). Every placement and draw, in the tree and in rollouts, counts one node against
the :class:`~hisss.bots.base.Budget`; the search stops after the iteration in which the budget
runs out. All randomness comes from a generator seeded from the bot's ``rng``, so with a node
budget the move is deterministic for a seed.
"""

from __future__ import annotations

import math
import random

from hisss.bots.base import Bot, Budget, legal_choices
from hisss.bots.evaluation import remaining_counts
from hisss.core import Action, State
from hisss.core.cards import card_from_code


class _Decision:
    """A decision node: the mover's statistics per placement."""

    __slots__ = ("actions", "children", "seat", "visits", "wins")

    def __init__(self, state: State) -> None:
        self.seat = state.to_move
        self.actions = state.legal_actions()
        self.children: list[_Chance] = []
        self.visits = 0
        #: Summed rewards of every seat over the visits through this node.
        self.wins = [0.0] * state.players


class _Chance:
    """A chance node after a placement: its decision children by card code."""

    __slots__ = ("children", "visits", "wins")

    def __init__(self, players: int) -> None:
        self.children: dict[int, _Decision] = {}
        self.visits = 0
        self.wins = [0.0] * players


def _reward(state: State) -> list[float]:
    winners = state.result().winners
    share = 1.0 / len(winners)
    out = [0.0] * state.players
    for w in winners:
        out[w] = share
    return out


class MctsSearch:
    """One move's search; see the module docstring."""

    __slots__ = ("counts", "exploration", "rng", "root", "state", "steps")

    def __init__(self, state: State, rng: random.Random, exploration: float) -> None:
        self.state = state
        self.rng = rng
        self.exploration = exploration
        self.counts = remaining_counts(state)
        self.root = _Decision(state)
        self.steps = 0

    def _draw(self) -> int:
        """Draw a random remaining card (exact probabilities); return its code."""
        counts = self.counts
        k = self.rng.randrange(self.state.remaining)
        for code, n in enumerate(counts):
            if k < n:
                counts[code] = n - 1
                self.state.push_draw(card_from_code(code))
                self.steps += 1
                return code
            k -= n
        raise AssertionError("remaining counts out of step")  # pragma: no cover

    def _greedy(self) -> Action:
        """The rollout policy: the largest completion, else a uniformly random placement."""
        state = self.state
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = state.to_move
        before = len(state.pits[seat])
        best: Action | None = None
        best_size = 0
        for action in legal:
            state.push(action)
            pit = state.pits[seat]
            if len(pit) > before and len(pit[-1].cards) > best_size:
                best, best_size = action, len(pit[-1].cards)
            state.undo()
        if best is not None:
            return best
        return legal[self.rng.randrange(len(legal))]

    def _rollout(self) -> tuple[list[float], int]:
        """Play to the end with the greedy policy; return the rewards and the steps to undo."""
        state = self.state
        pushed = 0
        drawn: list[int] = []
        while not state.is_terminal():
            if state.drawn is None:
                drawn.append(self._draw())
            else:
                state.push(self._greedy())
                self.steps += 1
            pushed += 1
        reward = _reward(state)
        counts = self.counts
        for code in drawn:
            counts[code] += 1
        return reward, pushed

    def iterate(self) -> None:
        """One selection, expansion, rollout and back-propagation; the state is restored."""
        state = self.state
        counts = self.counts
        path: list[_Decision | _Chance] = []
        drawn: list[int] = []
        pushed = 0
        node: _Decision = self.root
        c = self.exploration
        reward: list[float] | None = None
        try:
            while True:
                path.append(node)
                if len(node.children) < len(node.actions):
                    # Expand the first untried placement, then roll out.
                    state.push(node.actions[len(node.children)])
                    pushed += 1
                    self.steps += 1
                    child = _Chance(state.players)
                    node.children.append(child)
                    path.append(child)
                    reward, extra = self._rollout()
                    pushed += extra
                    break
                seat = node.seat
                log_n = math.log(node.visits)
                best_i = 0
                best_u = -1.0
                for i, ch in enumerate(node.children):
                    u = ch.wins[seat] / ch.visits + c * math.sqrt(log_n / ch.visits)
                    if u > best_u:
                        best_i, best_u = i, u
                state.push(node.actions[best_i])
                pushed += 1
                self.steps += 1
                chance = node.children[best_i]
                path.append(chance)
                if state.is_terminal():
                    reward = _reward(state)
                    break
                code = self._draw()
                drawn.append(code)
                pushed += 1
                if state.drawn is None:  # pragma: no cover - only the starter is nobody's turn
                    raise AssertionError("a draw inside the tree must give a decision")
                nxt = chance.children.get(code)
                if nxt is None:
                    nxt = chance.children[code] = _Decision(state)
                node = nxt
        finally:
            for _ in range(pushed):
                state.undo()
            for code in drawn:
                counts[code] += 1
        for n in path:
            n.visits += 1
            wins = n.wins
            for s, r in enumerate(reward):
                wins[s] += r

    def best_action(self) -> Action:
        """The most visited root placement (ties: higher mean reward, then engine order)."""
        root = self.root
        seat = root.seat
        best_i = 0
        best_key = (-1, -1.0)
        for i, ch in enumerate(root.children):
            key = (ch.visits, ch.wins[seat] / ch.visits if ch.visits else 0.0)
            if key > best_key:
                best_i, best_key = i, key
        return root.actions[best_i]


class MctsBot(Bot):
    """UCT with chance nodes and greedy rollouts (see the module docstring)."""

    name = "mcts"
    default_budget = Budget(nodes=8_000)

    def __init__(self, budget: Budget | None = None, exploration: float = 0.7) -> None:
        super().__init__(budget)
        self.exploration = exploration

    def choose(self, state: State, rng: random.Random) -> Action:
        """The most visited placement after the budgeted search."""
        legal = legal_choices(state)
        if len(legal) == 1:
            return legal[0]
        search = MctsSearch(state, random.Random(rng.getrandbits(64)), self.exploration)
        clock = self.budget.clock()
        while True:
            before = search.steps
            search.iterate()
            if not clock.tick(max(1, search.steps - before)):
                break
        return search.best_action()


__all__ = ["MctsBot", "MctsSearch"]
