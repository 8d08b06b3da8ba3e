"""The search bots: legal moves only, the state left as found, determinism, and their parts.

Covers :mod:`hisss.bots.evaluation`, :mod:`hisss.bots.expectimax`, :mod:`hisss.bots.mcts`,
:mod:`hisss.bots.expert` and :mod:`hisss.sim.movetimes`, with small budgets to stay fast.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from hisss.bots.base import Bot, Budget
from hisss.bots.endgame import EndgameBot, EndgameSolver
from hisss.bots.evaluation import (
    DEFAULT_EVALUATOR,
    Evaluator,
    Weights,
    best_claims,
    margin_of,
    race_shares,
    remaining_counts,
)
from hisss.bots.expectimax import ExpectimaxBot, search_values
from hisss.bots.expert import ExpertBot
from hisss.bots.mcts import MctsBot
from hisss.core import (
    BUILTIN_DECKS,
    RAINBOW,
    State,
    deal,
    get_rules,
    new_game,
    parse_card,
)
from hisss.sim.movetimes import move_times, percentile, summarise
from hisss.sim.play import play_game
from support.strategies import RULE_SETS, snapshot

BOTS: dict[str, Callable[[], Bot]] = {
    "expectimax": lambda: ExpectimaxBot(Budget(nodes=400)),
    "mcts": lambda: MctsBot(Budget(nodes=600)),
    "expert": lambda: ExpertBot(rollouts=8),
    "expert-search": lambda: ExpertBot(
        Budget(nodes=400), solver_cards=5, solver_nodes=3000, many_players=3
    ),
    "endgame": lambda: EndgameBot(Budget(nodes=3000), max_cards=5),
}


def random_decision(rng: random.Random) -> State:
    """A random decision point of a random game: any deck, rule option and 2 to 5 players."""
    while True:
        deck = rng.choice(list(BUILTIN_DECKS.values()))
        state = new_game(rng.randint(2, 5), rng.choice(RULE_SETS), deck)
        order = deal(deck, rng)
        stop = rng.randrange(1, len(order))
        for card in order[:stop]:
            if state.is_terminal():
                break
            state.draw(card)
            if state.drawn is not None:
                legal = state.legal_actions()
                state.push(legal[rng.randrange(len(legal))])
        if state.is_chance_node() and state.started:
            state.draw(order[stop])
            return state


#: Decisions checked per bot: the earlier expert's search costs most (4.5 s of CPU for 40), and
#: 15 of them check the same thing (its solver is checked in test_endgame).
DECISIONS = {"expert-search": 15}


@pytest.mark.parametrize("name", sorted(BOTS))
def test_legal_and_state_unchanged(name: str) -> None:
    rng = random.Random(sum(map(ord, name)))
    bot = BOTS[name]()
    for _ in range(DECISIONS.get(name, 40)):
        state = random_decision(rng)
        before = snapshot(state)
        action = bot.choose(state, random.Random(rng.random()))
        assert action in state.legal_actions()
        assert snapshot(state) == before


@pytest.mark.parametrize("name", sorted(BOTS))
def test_whole_games_are_legal(name: str) -> None:
    # play_game checks every action; three players, with the endgame reached.
    bots = [BOTS[name](), BOTS[name](), BOTS["expectimax"]()]
    out = play_game(get_rules("classic"), RAINBOW, bots, random.Random(5))
    assert out.turns == RAINBOW.size - 1


@pytest.mark.parametrize("name", sorted(BOTS))
def test_deterministic_with_a_seed(name: str) -> None:
    def game(seed: int) -> tuple[object, ...]:
        bots = [BOTS[name](), BOTS[name]()]
        out = play_game(get_rules("classic"), RAINBOW, bots, random.Random(seed), record=True)
        assert out.record is not None
        return tuple(str(t.action) for t in out.record.turns)

    assert game(3) == game(3)


def test_race_shares() -> None:
    assert race_shares(10, 0, 2) == (0.0, 0.0)
    for left in range(1, 12):
        for k in range(1, left + 1):
            for players in range(2, 6):
                shares = race_shares(left, k, players)
                assert sum(shares) == pytest.approx(1.0)
                assert shares[0] == max(shares)  # the next drawer is first in line
    assert race_shares(1, 1, 3) == (1.0, 0.0, 0.0)


def test_best_claims_match_the_engine() -> None:
    rng = random.Random(2)
    for _ in range(150):
        state = random_decision(rng)
        state.undo()  # back to the chance point before the draw
        counts = remaining_counts(state)
        claims = best_claims(state, counts)
        for card, _n in state.draw_weights():
            state.draw(card)
            seat = state.to_move
            before = len(state.pits[seat])
            best = 0
            for action in state.legal_actions():
                state.push(action)
                if len(state.pits[seat]) > before:
                    best = max(best, len(state.pits[seat][-1].cards))
                state.undo()
            state.undo()
            assert claims[card.code] == best, (state.describe(), card)


def test_evaluation_is_exact_at_the_end_and_sums_margins() -> None:
    rng = random.Random(4)
    state = new_game(3)
    for card in deal(RAINBOW, rng):
        state.draw(card)
        if state.drawn is not None:
            legal = state.legal_actions()
            state.push(legal[rng.randrange(len(legal))])
    assert state.is_terminal()
    values = DEFAULT_EVALUATOR.values(state)
    assert values == [float(state.pit_cards(s)) for s in range(3)]
    assert margin_of(values, 0) == values[0] - max(values[1:])
    # Without the estimated terms the evaluation is the score so far, at any point.
    plain = Evaluator(Weights(now=0.0, race=0.0))
    state.undo()
    assert plain.values(state) == [float(state.pit_cards(s)) for s in range(3)]


def test_evaluation_sees_the_next_drawers_chance() -> None:
    # A red head with a mid-section waits for a tail of orange (or the wild tail). Seat 1 is
    # next to draw, so the waiting snake counts for seat 1 more than for seat 2.
    state = new_game(2)
    state.draw(parse_card("H:red"))
    state.draw(parse_card("M:red-orange"))
    state.push(state.legal_actions()[0])
    values = DEFAULT_EVALUATOR.values(state)
    assert state.to_move == 1
    assert values[1] > values[0]


def test_search_prefers_a_claim() -> None:
    # Seat 1 holds the tail that completes a 3-card snake; extending elsewhere gains nothing.
    state = new_game(2)
    for text in ("H:red", "M:red-orange", "M:blue-purple"):
        state.draw(parse_card(text))
        if state.drawn is not None:
            state.push(state.legal_actions()[0])
    state.draw(parse_card("T:orange"))
    legal = state.legal_actions()
    values, depth = search_values(state, legal, DEFAULT_EVALUATOR, Budget(nodes=5000), 2)
    claim = max(range(len(legal)), key=lambda i: values[i])
    state.push(legal[claim])
    assert state.pit_cards(0) == 3
    assert depth >= 1
    state.undo()
    for bot in (ExpectimaxBot(Budget(nodes=2000)), MctsBot(Budget(nodes=3000))):
        assert bot.choose(state, random.Random(0)) == legal[claim]


def test_expert_uses_the_solver_when_few_cards_remain() -> None:
    rng = random.Random(8)
    expert = ExpertBot(Budget(nodes=500), solver_cards=6, solver_nodes=200_000, many_players=3)
    state = new_game(2)
    for card in deal(RAINBOW, rng):
        state.draw(card)
        if state.drawn is None:
            continue
        legal = state.legal_actions()
        solved_before = expert.solved
        action = expert.choose(state, rng)
        if len(legal) > 1 and state.remaining <= 6:
            assert expert.solved == solved_before + 1
            values = EndgameSolver().solve(state)
            assert values[legal.index(action)] == pytest.approx(max(values), abs=1e-9)
        elif len(legal) > 1:
            assert expert.solved == solved_before
        state.push(action)
    assert expert.solved > 0
    assert expert.fallbacks == 0


def test_expert_falls_back_when_the_solver_runs_out() -> None:
    rng = random.Random(9)
    expert = ExpertBot(Budget(nodes=300), solver_cards=50, solver_nodes=50, many_players=3)
    state = new_game(2)
    order = deal(RAINBOW, rng)
    for card in order:
        state.draw(card)
        if state.drawn is None:
            continue
        state.push(expert.choose(state, rng))
        if expert.fallbacks:
            break
    assert expert.fallbacks > 0


def test_move_times() -> None:
    out = move_times(ExpectimaxBot(Budget(nodes=200)), games=2, players=3, seed=4)
    assert out.games == 2 and out.players == 3
    assert out.decisions == 2 * (RAINBOW.size - 1)
    assert out.all.count == out.decisions
    assert 0 < out.choice.count < out.decisions
    choice = out.choice
    assert choice.median is not None and choice.p90 is not None and choice.p99 is not None
    assert choice.max is not None
    assert choice.median <= choice.p90 <= choice.p99 <= choice.max
    seated = move_times(
        MctsBot(Budget(nodes=200)), games=3, players=2, seed=1, opponents=[ExpectimaxBot()]
    )
    assert 0 < seated.decisions < 3 * (RAINBOW.size - 1)
    assert summarise([]).median is None
    assert percentile([3.0, 1.0, 2.0], 50) == 2.0
    with pytest.raises(ValueError):
        move_times(ExpectimaxBot(), games=0)
    with pytest.raises(ValueError):
        move_times(ExpectimaxBot(), games=1, players=3, opponents=[ExpectimaxBot()])
