"""The exact endgame solver equals a naive brute-force search.

Random small positions (small decks drawn from the built-in decks, every rule option, 2 to 4
players, chance points and decision points) are solved twice: by :class:`EndgameSolver`, with its
transposition table and its abstractions (table as a multiset of snakes, dead ends, pits through
the scoring's measures, settled positions), and by :func:`brute_force_value`, a full recursion
over the real state in exact fractions. The values must agree to 1e-9.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from hisss.bots.base import Budget
from hisss.bots.endgame import EndgameBot, EndgameSolver, brute_force_value, win_share
from hisss.bots.expectimax import BudgetSpentError
from hisss.core import (
    ALL_PAIRS,
    DOUBLE,
    PRESETS,
    RAINBOW,
    Deck,
    State,
    deal,
    new_game,
    parse_card,
)
from support.strategies import RULE_SETS, snapshot


def random_small_position(rng: random.Random) -> tuple[State, int]:
    """A random position of a small deck with at most six cards left, and a seat to solve for."""
    base = rng.choice([RAINBOW, ALL_PAIRS, DOUBLE])
    deck = Deck.from_cards("small", rng.sample(base.cards(), rng.randint(4, 9)))
    rules = rng.choice(RULE_SETS)
    players = rng.randint(2, 4)
    state = new_game(players, rules, deck)
    order = deal(deck, rng)
    stop = rng.randrange(max(0, len(order) - 6), len(order) - 1)
    for card in order[:stop]:
        if state.is_terminal():
            break
        state.draw(card)
        if state.drawn is not None:
            legal = state.legal_actions()
            state.push(legal[rng.randrange(len(legal))])
    if state.is_chance_node() and state.started and rng.random() < 0.5:
        state.draw(order[stop])
    return state, rng.randrange(players)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.slow
def test_solver_equals_brute_force(seed: int) -> None:
    rng = random.Random(1000 + seed)
    solver = EndgameSolver()
    for _ in range(40):
        state, seat = random_small_position(rng)
        before = snapshot(state)
        exact = brute_force_value(state, seat)
        assert snapshot(state) == before
        value = solver.value(state, seat)
        assert snapshot(state) == before
        assert abs(value - float(exact)) < 1e-9, (state.describe(), state.rules, exact, value)
        # A fresh solver (empty table) agrees with the shared one.
        assert abs(EndgameSolver().value(state, seat) - value) < 1e-9


def test_solve_gives_each_placement_its_value() -> None:
    rng = random.Random(7)
    checked = 0
    while checked < 30:
        state, _ = random_small_position(rng)
        if state.drawn is None or state.is_terminal():
            continue
        seat = state.to_move
        values = EndgameSolver().solve(state)
        legal = state.legal_actions()
        assert len(values) == len(legal)
        for action, value in zip(legal, values, strict=True):
            state.push(action)
            assert abs(value - float(brute_force_value(state, seat))) < 1e-9
            state.undo()
        checked += 1


def test_values_are_win_shares() -> None:
    # The red head is the starter, seat 1 extends it, and seat 2 draws the last card, the tail
    # that completes the 3-card snake: a sure win for seat 2 (index 1).
    deck = Deck.from_cards("tiny", [parse_card(c) for c in ("H:red", "M:red-orange", "T:orange")])
    state = new_game(2, PRESETS["classic"], deck)
    for text in ("H:red", "M:red-orange", "T:orange"):
        state.draw(parse_card(text))
        if state.drawn is not None and text != "T:orange":
            state.push(state.legal_actions()[0])
    assert EndgameSolver().solve(state) == [1.0]
    assert brute_force_value(state, 1) == 1
    assert brute_force_value(state, 0) == 0
    assert EndgameSolver().value(state, 0) == 0.0


def test_shared_win_counts_half() -> None:
    # Nobody can claim anything: every seat shares the win.
    deck = Deck.from_cards("tiny", [parse_card(c) for c in ("M:red-orange", "M:blue-purple")])
    state = new_game(2, PRESETS["classic"], deck)
    assert EndgameSolver().value(state, 0) == 0.5
    assert brute_force_value(state, 1) == Fraction(1, 2)
    state.draw(parse_card("M:red-orange"))
    state.draw(parse_card("M:blue-purple"))
    state.push(state.legal_actions()[0])
    assert win_share(state, 0) == 0.5


def test_budget_is_enforced() -> None:
    state = new_game(2)
    rng = random.Random(3)
    order = deal(RAINBOW, rng)
    for card in order[:30]:
        state.draw(card)
        if state.drawn is not None:
            state.push(state.legal_actions()[0])
    state.draw(order[30])
    before = snapshot(state)
    with pytest.raises(BudgetSpentError):
        EndgameSolver().solve(state, Budget(nodes=500).clock())
    assert snapshot(state) == before


def test_endgame_bot_solves_when_few_cards_remain() -> None:
    rng = random.Random(11)
    bot = EndgameBot(Budget(nodes=200_000), max_cards=5)
    state = new_game(2)
    for card in deal(RAINBOW, rng):
        state.draw(card)
        if state.drawn is None:
            continue
        legal = state.legal_actions()
        action = bot.choose(state, rng)
        assert action in legal
        if len(legal) > 1 and state.remaining <= 5:
            values = EndgameSolver().solve(state)
            assert values[legal.index(action)] == pytest.approx(max(values), abs=1e-9)
        state.push(action)
    assert bot.solved > 0
