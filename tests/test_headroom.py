"""The upper bounds of :mod:`hisss.sim.headroom`: the clairvoyant and the exact value.

The exact value against an opponent policy is :class:`EndgameSolver` with a ``policy``; it is
compared on random small positions with :func:`brute_force_value` given the same policy, a naive
recursion in exact fractions. The
clairvoyant must never do worse than a line actually played against the same opponent replies.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from hisss.bots.endgame import EndgameSolver, brute_force_value
from hisss.bots.greedy import greedy_candidates
from hisss.core import (
    RAINBOW,
    Card,
    ConfigError,
    Deck,
    deal,
    get_rules,
    new_game,
    parse_card,
)
from hisss.sim.headroom import (
    POLICIES,
    Deals,
    _clairvoyant_deals,
    clairvoyant,
    exact_value,
    tie_seed,
)
from hisss.sim.play import game_seed
from support.strategies import snapshot
from test_endgame import random_small_position


@pytest.mark.parametrize("opponent", ["greedy", "careful", "random"])
@pytest.mark.slow
def test_solver_with_a_policy_equals_naive_recursion(opponent: str) -> None:
    rng = random.Random(77)
    policy = POLICIES[opponent]
    solver = EndgameSolver(policy=policy)
    for _ in range(30):
        state, seat = random_small_position(rng)
        before = snapshot(state)
        exact = brute_force_value(state, seat, policy)
        value = solver.value(state, seat)
        assert snapshot(state) == before
        assert abs(value - float(exact)) < 1e-9, (state.describe(), state.rules, exact, value)


def test_policy_values_differ_from_the_paranoid_ones() -> None:
    """Seat 2 draws the last card, which joins two snakes into a complete one. Greedy and careful
    take it, as a paranoid opponent would; a random player takes it once in three, and otherwise
    nobody has a card and the win is shared."""
    cards = ("M:red-orange", "H:red", "T:yellow", "M:blue-purple", "M:orange-yellow")
    deck = Deck.from_cards("five", [parse_card(c) for c in cards])
    state = new_game(2, "classic", deck)
    for text in cards[:4]:
        state.draw(parse_card(text))
        if state.drawn is not None:
            state.push(state.legal_actions()[0])
    assert [str(s) for s in state.table] == ["H:red M:red-orange", "T:yellow", "M:blue-purple"]
    assert state.to_move == 1 and state.remaining == 1
    assert EndgameSolver().value(state, 0) == 0.0
    for opponent, expected in (("greedy", 0.0), ("careful", 0.0), ("random", 1 / 3)):
        solver = EndgameSolver(policy=POLICIES[opponent])
        assert solver.value(state, 0) == pytest.approx(expected)
        assert float(brute_force_value(state, 0, POLICIES[opponent])) == pytest.approx(expected)


def test_exact_value_on_a_small_deck() -> None:
    cards = ("H:red", "M:red-orange", "M:red-orange", "T:orange", "M:orange-yellow", "T:yellow")
    deck = Deck.from_cards("six", [parse_card(c) for c in cards])
    out = exact_value("greedy", 2, deck)
    assert out.deck == "six" and out.players == 2
    for seat, value in enumerate(out.seats):
        state = new_game(2, get_rules("classic"), deck)
        assert value == pytest.approx(float(brute_force_value(state, seat, greedy_candidates)))
    assert out.value == pytest.approx(sum(out.seats) / 2)
    assert out.to_dict()["seats"] == list(out.seats)
    with pytest.raises(ConfigError, match="opponent must be one of"):
        exact_value("expert", 2, deck)


def _played_share(order: list[Card], seat: int, seed: int, number: int, pick: int) -> float:
    """The share of ``seat`` playing its ``pick``-th legal placement (modulo their number)
    against greedy replies broken as the clairvoyant's opponents break them."""
    state = new_game(2)
    for card in order:
        state.draw(card)
        if state.drawn is None:
            continue
        legal = state.legal_actions()
        if state.to_move == seat:
            state.push(legal[pick % len(legal)])
            continue
        top = greedy_candidates(state, legal) if len(legal) > 1 else legal
        tie = random.Random(tie_seed(seed, number, state.turns))
        state.push(top[0] if len(top) == 1 else top[tie.randrange(len(top))])
    winners = state.result().winners
    return 1.0 / len(winners) if seat in winners else 0.0


def test_the_clairvoyant_never_does_worse_than_a_line_played() -> None:
    rules = get_rules("classic")
    for number in range(1, 5):
        ((low, high, cut),) = _clairvoyant_deals(
            "greedy", 2, 3, rules, RAINBOW, number, number, 10**6
        )
        assert cut == 0 and low == high
        order = deal(RAINBOW, random.Random(game_seed(3, number)))
        for pick in range(3):
            played = sum(_played_share(order, seat, 3, number, pick) for seat in range(2))
            assert played <= high + 1e-9


def test_clairvoyant_report_and_cut_searches() -> None:
    out = clairvoyant("greedy", Deals(3, 2, seed=5))
    assert (out.deals, out.games, out.seed, out.cut) == (3, 6, 5, 0)
    assert out.lower == out.upper
    assert out.ci95 is not None
    lo, hi = out.ci95
    assert lo <= out.upper <= hi
    assert list(out.to_dict()) == [
        "opponent",
        "players",
        "deals",
        "games",
        "seed",
        "nodes",
        "lower",
        "upper",
        "ci95",
        "cut",
    ]
    cut = clairvoyant("careful", Deals(3, 2, seed=5), nodes=20)
    assert cut.cut == 6
    assert cut.upper == 1.0 and cut.lower <= out.upper
    with pytest.raises(ConfigError, match="opponent must be one of"):
        clairvoyant("expert", Deals(2))
    with pytest.raises(ConfigError, match="deals"):
        clairvoyant("greedy", Deals(0))


@pytest.mark.system  # starts a process pool
def test_clairvoyant_does_not_depend_on_the_workers() -> None:
    one = clairvoyant("greedy", Deals(6, 2, seed=8))
    two = clairvoyant("greedy", Deals(6, 2, seed=8), workers=2)
    assert one == two


def test_the_objectives_check_row_of_the_strategy_doc_reproduces() -> None:
    """docs/strategy.md quotes a small run of examples/objectives.py; it must come out again."""
    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("objectives", root / "examples/objectives.py")
    assert spec is not None and spec.loader is not None
    objectives = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(objectives)
    mean, low, high = objectives.measure("careful-tie", "careful", 3, 20, 6, workers=1)
    figures = f"{mean:.1%} | {low * 100:.1f}\u2013{high:.1%}"
    row = f"| 3 | `careful-tie` (margin), check row | 20 (seed 6) | {figures} |"
    assert row in (root / "docs/strategy.md").read_text(encoding="utf-8")
