"""An exact endgame solver: optimal play over every remaining draw, with a transposition table.

Objective
---------
The solver maximises the bot's **expected win share**, the quantity tournaments count: a win is
worth 1, a win shared by ``k`` seats ``1/k`` (so a shared two-player win is 1/2), a loss 0. Wins
are found exactly as :func:`hisss.core.score` finds them: most cards, ties broken by the longest
single snake in the tied pits, then shared (or the measures of the other scorings, and the early
end of the "first to N cards" scoring). With two players the game is zero-sum in this objective
and the opponent minimises it, so the value is the exact game value under optimal play by both
sides. With three or more players the solver is *paranoid*: every opponent is taken to minimise
the bot's share, so the value is what the bot can guarantee against any play of the others.
Given an opponent ``policy`` instead (a function giving the placements a bot picks among, such as
:func:`hisss.bots.greedy.greedy_candidates`), every other seat plays that policy, its candidates
averaged uniformly as the bot picks them: the value is then the best win share any player can get
against that opponent (:mod:`hisss.sim.headroom` measures it on small decks from the first draw).

The tree is the whole rest of the game: at a chance node every distinct remaining card, with its
exact probability (copies left over cards left); at a decision node every legal placement. It is
solved by plain recursion with floats (the tests check it against exact fractions).

Transposition table and what is abstracted
------------------------------------------
Values are stored at chance nodes under a canonical key that keeps exactly what the rest of the
game depends on:

* the seat to draw next (the turn order is fixed);
* the copies left of every card;
* the table as a *multiset* of snakes (the order of the table only numbers the actions; the
  placement choices it offers are the same up to renumbering). A snake is reduced to its length
  and its two ends: closed (by a head on the left or a tail on the right; the engine keeps heads
  on the left), or open with a colour (or a wild neck) and whether the end card is a
  mid-section (only those take a head or tail). A snake with two open ends is the same snake read
  either way, so its ends are sorted. Which cards lie inside a snake never matters again: only
  its length does, for the score and for the longest-snake tie-break;
* an open end of a colour that no remaining card can ever touch (no mid-section with that colour,
  no head or tail of that colour, no wild head or tail left; for a wild neck, no mid-section left)
  is *dead*: all dead ends are one symbol. A snake with no live end can never change or be
  claimed, so it is left out of the key altogether;
* the pits only through what scoring reads: per seat the scoring's measures (cards, snakes,
  longest snake). Under the scorings by cards and by snakes only differences between seats
  matter, so the smallest total is subtracted from all.

Before the table is consulted, a position whose winner can no longer change is settled at once:
under the scoring by cards, when one seat leads every other by more cards than the live snakes
on the table and the cards still to come hold together.

:func:`brute_force_value` is the reference: the same objective by naive recursion over the real
state with exact fractions, without table or abstraction; the tests compare the two on many
random small positions.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction

from hisss.bots.base import Bot, Budget, Clock, legal_choices
from hisss.bots.evaluation import (
    DEFAULT_EVALUATOR,
    HEAD_CODE,
    MIDS,
    TAIL_CODE,
    remaining_counts,
)
from hisss.bots.expectimax import BudgetSpentError, pick_best, search_values
from hisss.core import WHEEL, WILD, Action, CardKind, Scoring, State
from hisss.core.cards import card_from_code

_HEAD = CardKind.HEAD
_TAIL = CardKind.TAIL
_MID = CardKind.MID
_SLOT = {c: i for i, c in enumerate(WHEEL)}
_SLOT[WILD] = 6  # type: ignore[index]
_DEAD = 99
_WILD_HEAD = HEAD_CODE[6]
_WILD_TAIL = TAIL_CODE[6]

#: An opponent policy: the placements (of the legal ones given) that the opponent picks among.
Policy = Callable[[State, list[Action]], list[Action]]


def win_share(state: State, seat: int) -> float:
    """``seat``'s share of the win at the end: 1 alone, ``1/k`` shared by ``k``, else 0."""
    winners = state.result().winners
    return 1.0 / len(winners) if seat in winners else 0.0


class EndgameSolver:
    """The exact solver of the module docstring.

    One solver holds one transposition table, which stays valid across moves and games (its keys
    are complete canonical positions for a given bot seat); it is cleared when it outgrows
    ``max_entries``. With a ``policy`` the other seats play it instead of minimising (module
    docstring).
    """

    __slots__ = (
        "by_cards",
        "cards",
        "clock",
        "counts",
        "longest",
        "max_entries",
        "policy",
        "seat",
        "snakes",
        "state",
        "table",
        "tables",
    )

    def __init__(self, max_entries: int = 2_000_000, policy: Policy | None = None) -> None:
        self.max_entries = max_entries
        self.policy = policy
        #: One table per (rules, players, seat): keys never mix games of different shapes.
        self.tables: dict[tuple[object, ...], dict[tuple[object, ...], float]] = {}
        self.state: State | None = None
        self.seat = 0
        self.counts: list[int] = []
        self.clock: Clock | None = None
        self.cards: list[int] = []
        self.snakes: list[int] = []
        self.longest: list[int] = []
        self.by_cards = True
        self.table: dict[tuple[object, ...], float] = {}

    # ------------------------------------------------------------------ public

    def solve(self, state: State, clock: Clock | None = None) -> list[float]:
        """The exact win share of the seat to move after each of ``state.legal_actions()``.

        ``state`` must be a decision point; it is left unchanged. With a ``clock`` the solver
        raises :class:`~hisss.bots.expectimax.BudgetSpentError` once the budget is spent.
        """
        if state.drawn is None:
            raise ValueError("solve() needs a decision point (a drawn card to place)")
        self._start(state, state.to_move, clock)
        out = []
        for action in state.legal_actions():
            self._tick()
            state.push(action)
            try:
                out.append(self._chance())
            finally:
                state.undo()
        return out

    def value(self, state: State, seat: int, clock: Clock | None = None) -> float:
        """The exact win share of ``seat`` at any position of ``state`` (left unchanged)."""
        self._start(state, seat, clock)
        if state.drawn is not None:
            return self._decision()
        return self._chance()

    def table_size(self) -> int:
        """The number of stored positions, over all tables."""
        return sum(len(t) for t in self.tables.values())

    # ------------------------------------------------------------------ search

    def _start(self, state: State, seat: int, clock: Clock | None) -> None:
        self.state = state
        self.seat = seat
        self.clock = clock
        self.counts = remaining_counts(state)
        self.cards = [state.pit_cards(s) for s in range(state.players)]
        self.snakes = [len(pit) for pit in state.pits]
        self.longest = [max((len(x.cards) for x in pit), default=0) for pit in state.pits]
        self.by_cards = state.rules.scoring is Scoring.CARDS
        if self.table_size() > self.max_entries:
            self.tables.clear()
        shape = (state.rules, state.deck, state.players, seat)
        table = self.tables.get(shape)
        if table is None:
            table = self.tables[shape] = {}
        self.table = table

    def _tick(self) -> None:
        clock = self.clock
        if clock is not None and not clock.tick():
            raise BudgetSpentError

    def _chance(self) -> float:
        state = self.state
        assert state is not None
        if state.is_terminal():
            return win_share(state, self.seat)
        counts = self.counts
        left = state.remaining
        live, still = self._live_snakes()
        still += left
        if self.by_cards:
            # Settled: one seat leads every other by more than all cards still to be won.
            cards = self.cards
            mine = cards[self.seat]
            best_other = max(c for s, c in enumerate(cards) if s != self.seat)
            if mine > best_other + still:
                return 1.0
            if best_other > mine + still:
                return 0.0
        key = (state.to_move, tuple(counts), live, self._pit_key())
        table = self.table
        found = table.get(key)
        if found is not None:
            return found
        total = 0.0
        for code, n in enumerate(counts):
            if not n:
                continue
            self._tick()
            state.push_draw(card_from_code(code))
            counts[code] = n - 1
            try:
                v = self._decision() if state.drawn is not None else self._chance()
            finally:
                counts[code] = n
                state.undo()
            total += n * v
        value = total / left
        table[key] = value
        return value

    def _decision(self) -> float:
        state = self.state
        assert state is not None
        mover = state.to_move
        legal = state.legal_actions()
        if mover != self.seat and self.policy is not None:
            top = self.policy(state, legal) if len(legal) > 1 else legal
            return sum(self._after(action, mover) for action in top) / len(top)
        maximise = mover == self.seat
        best = -1.0 if maximise else 2.0
        for action in legal:
            v = self._after(action, mover)
            if maximise:
                if v > best:
                    best = v
                    if best >= 1.0:
                        break
            elif v < best:
                best = v
                if best <= 0.0:
                    break
        return best

    def _after(self, action: Action, mover: int) -> float:
        """The value after ``mover`` plays ``action``, keeping the pit figures in step."""
        state = self.state
        assert state is not None
        self._tick()
        pits_before = len(state.pits[mover])
        cards, snakes, longest = self.cards, self.snakes, self.longest
        state.push(action)
        pit = state.pits[mover]
        claimed = len(pit) > pits_before
        if claimed:
            size = len(pit[-1].cards)
            old_longest = longest[mover]
            cards[mover] += size
            snakes[mover] += 1
            if size > old_longest:
                longest[mover] = size
        try:
            return self._chance()
        finally:
            state.undo()
            if claimed:
                cards[mover] -= size
                snakes[mover] -= 1
                longest[mover] = old_longest

    # ------------------------------------------------------------------ keys

    def _live_snakes(self) -> tuple[tuple[tuple[int, int, int], ...], int]:
        """The canonical live snakes (sorted) and the cards they hold.

        An end is -1 when closed, ``DEAD`` when no remaining card can touch its colour, else
        ``2 * slot + (end card is a mid-section)`` with slot 0-5 for a colour, 6 for a wild neck.
        """
        state = self.state
        assert state is not None
        counts = self.counts
        wild = counts[_WILD_HEAD] > 0 or counts[_WILD_TAIL] > 0
        alive = [wild or counts[HEAD_CODE[c]] > 0 or counts[TAIL_CODE[c]] > 0 for c in range(6)]
        any_mid = False
        for code, a, b in MIDS:
            if counts[code]:
                alive[a] = alive[b] = True
                any_mid = True
        alive.append(any_mid)
        out = []
        held = 0
        for s in state.table:
            cards = s.cards
            path = s.path
            colour = path[0]
            if colour is None:
                left = -1
            else:
                slot = _SLOT[colour]  # type: ignore[index]
                left = slot * 2 + (cards[0].kind is _MID) if alive[slot] else _DEAD
            colour = path[-1]
            if colour is None:
                right = -1
            else:
                slot = _SLOT[colour]  # type: ignore[index]
                right = slot * 2 + (cards[-1].kind is _MID) if alive[slot] else _DEAD
            if left < 0 or left == _DEAD:
                if right < 0 or right == _DEAD:
                    continue  # nothing can ever touch it again
            elif 0 <= right < left:
                left, right = right, left
            n = len(cards)
            held += n
            out.append((n, left, right))
        out.sort()
        return tuple(out), held

    def _pit_key(self) -> tuple[object, ...]:
        scoring = self.state.rules.scoring  # type: ignore[union-attr]
        if scoring is Scoring.CARDS:
            low = min(self.cards)
            return tuple(c - low for c in self.cards), tuple(self.longest)
        if scoring is Scoring.SNAKES:
            low = min(self.snakes)
            return tuple(c - low for c in self.snakes), tuple(self.longest)
        return tuple(self.cards), tuple(self.longest)


def brute_force_value(state: State, seat: int, policy: Policy | None = None) -> Fraction:
    """``seat``'s exact win share by naive full recursion (no table, no abstraction).

    The reference for :class:`EndgameSolver`: the same objective (the other seats minimise the
    share, or play ``policy`` with its candidates averaged), exact fractions, every draw and every
    legal placement. Exponential: small decks only.
    """
    if state.is_terminal():
        winners = state.result().winners
        return Fraction(1, len(winners)) if seat in winners else Fraction(0)
    if state.drawn is None:
        total = Fraction(0)
        for card, p in state.chance_outcomes():
            state.draw(card)
            try:
                total += p * brute_force_value(state, seat, policy)
            finally:
                state.undo()
        return total
    legal = state.legal_actions()
    mine = state.to_move == seat
    if not mine and policy is not None and len(legal) > 1:
        legal = policy(state, legal)
    values = []
    for action in legal:
        state.push(action)
        try:
            values.append(brute_force_value(state, seat, policy))
        finally:
            state.undo()
    if mine:
        return max(values)
    return sum(values, Fraction(0)) / len(values) if policy is not None else min(values)


class EndgameBot(Bot):
    """Plays the solver's move once at most ``max_cards`` remain (within the budget).

    Before that, and whenever the solver runs out of budget, it plays a one-draw expectimax
    search (:mod:`hisss.bots.expectimax`, 1,500 nodes). Among placements of equal exact win share
    (a game already won or lost, say) it prefers the one that search rates best, so it keeps
    playing for cards. The solver's table lives for one endgame.
    """

    name = "endgame"
    default_budget = Budget(nodes=60_000)

    def __init__(self, budget: Budget | None = None, max_cards: int = 8) -> None:
        super().__init__(budget)
        self.max_cards = max_cards
        self.solver = EndgameSolver(max_entries=400_000)
        #: How many decisions the solver settled, and how many fell back to the search.
        self.solved = 0
        self.fallbacks = 0

    def choose(self, state: State, rng: random.Random) -> Action:
        """The solver's best placement when it applies, else the search's."""
        legal = legal_choices(state)
        if len(legal) == 1:
            return legal[0]
        exact = self.solve_or_none(state)
        if exact is None:
            values, _ = search_values(state, legal, DEFAULT_EVALUATOR, Budget(nodes=1500), 1)
            return pick_best(legal, values, rng)
        top = max(exact)
        best = [a for a, v in zip(legal, exact, strict=True) if v >= top - 1e-9]
        if len(best) == 1:
            return best[0]
        margins, _ = search_values(state, best, DEFAULT_EVALUATOR, Budget(nodes=1500), 1)
        return pick_best(best, margins, rng)

    def solve_or_none(self, state: State) -> list[float] | None:
        """The exact win shares of the legal placements, or None (too many cards, or budget)."""
        if state.remaining > self.max_cards:
            if self.solver.table_size():
                self.solver.tables.clear()  # a new game (or an earlier stage): start afresh
            return None
        try:
            values = self.solver.solve(state, self.budget.clock())
        except BudgetSpentError:
            self.fallbacks += 1
            return None
        self.solved += 1
        return values


__all__ = ["EndgameBot", "EndgameSolver", "Policy", "brute_force_value", "win_share"]
