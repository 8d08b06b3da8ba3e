"""The engine's legal actions against the naive oracle of ``oracle.py``, over thousands of random
positions on every deck and rule option: the same set of actions as notation, no duplicates, and
for every action the same table and the same claimed snake afterwards.
"""

from __future__ import annotations

import random

import pytest

from hisss.core import (
    ALL_PAIRS,
    DOUBLE,
    NEW,
    RAINBOW,
    Deck,
    JoinClaim,
    Rules,
    State,
    get_rules,
    new_game,
    parse_snake,
)
from hisss.core.cards import ALL_CARDS
from support import oracle

RULES = {
    "classic": get_rules("classic"),
    "pl": get_rules("pl"),
    "unforced": Rules(forced_placement=False),
    "unforced-pl": Rules(forced_placement=False, join_claim=JoinClaim.ALWAYS),
}

WILD_HEAVY = Deck.from_mapping(
    {
        "name": "wild-heavy",
        "cards": {
            "H:wild": 4,
            "T:wild": 4,
            "H:red": 2,
            "T:red": 2,
            "H:blue": 1,
            "M:red-orange": 5,
            "M:red-blue": 4,
            "M:orange-blue": 3,
        },
    }
)


def check_position(state: State) -> None:
    """Compare the engine with the oracle at a decision node, for the actions and their results."""
    actions = state.legal_actions()
    texts = [str(a) for a in actions]
    assert len(texts) == len(set(texts)), (state.describe(), texts)
    rows = oracle.state_rows(state)
    card = str(state.drawn)
    expected = {oracle.notation(k): v for k, v in oracle.legal(rows, card, state.rules).items()}
    assert set(texts) == set(expected), (state.describe(), texts, sorted(expected))
    seat = state.to_move
    for action in actions:
        outcome = expected[str(action)]
        after, claimed = oracle.successor(rows, outcome, state.rules)
        child = state.copy()
        child.apply(action)
        assert oracle.table_keys(oracle.state_rows(child)) == oracle.table_keys(after), (
            state.describe(),
            str(action),
        )
        gained = child.pits[seat][len(state.pits[seat]) :]
        if claimed is None:
            assert gained == ()
        else:
            assert [oracle.row_key(oracle.from_snake(s)) for s in gained] == [
                oracle.row_key(claimed)
            ]
        for other in range(state.players):
            if other != seat:
                assert child.pits[other] == state.pits[other]


def run_games(deck: Deck, rules: Rules, seeds: range, players: int = 3) -> int:
    """Play random games, checking every decision node; returns the number of positions."""
    positions = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game(players, rules, deck)
        while not state.is_terminal():
            if state.is_chance_node():
                state.sample_draw(rng)
                continue
            check_position(state)
            positions += 1
            actions = state.legal_actions()
            # lean towards new snakes now and then: crowded tables give more joins
            if actions[-1] == NEW and rng.random() < 0.3:
                state.push(actions[-1])
            else:
                state.push(rng.choice(actions))
    return positions


@pytest.mark.parametrize("rules", list(RULES.values()), ids=list(RULES))
@pytest.mark.parametrize("deck", [RAINBOW, ALL_PAIRS, DOUBLE, WILD_HEAVY], ids=str)
@pytest.mark.slow
def test_engine_matches_oracle_on_random_games(deck: Deck, rules: Rules) -> None:
    games = 6 if deck is DOUBLE else 12
    positions = run_games(deck, rules, range(games))
    assert positions >= games * (deck.size - 1) // 2


@pytest.mark.slow
def test_engine_matches_oracle_on_random_user_decks() -> None:
    rng = random.Random(2024)
    positions = 0
    for seed in range(150):
        chosen = rng.sample(ALL_CARDS, rng.randint(1, 12))
        deck = Deck.from_mapping({"cards": {str(c): rng.randint(1, 4) for c in chosen}})
        rules = list(RULES.values())[seed % len(RULES)]
        positions += run_games(deck, rules, range(seed, seed + 1), players=2 + seed % 4)
    assert positions >= 1000


def test_oracle_itself_on_the_worked_examples() -> None:
    # the oracle is checked by hand on RULES.md §5 so that agreement means something
    def legal(table: list[str], card: str, rules: Rules | None = None) -> set[str]:
        rows = [oracle.from_snake(parse_snake(t)) for t in table]
        found = oracle.legal(rows, card, rules or Rules())
        return {oracle.notation(k) for k in found}

    assert legal(["M:blue-green"], "M:green-yellow") == {"1R:green"}
    assert legal(["M:green-blue"], "M:green-yellow") == {"1L:green"}
    assert legal(["M:blue-green"], "H:purple") == {"new"}
    assert legal(["H:purple"], "M:purple-red") == {"1R:purple"}
    assert legal(["H:red M:red-orange", "M:yellow-green T:green"], "M:orange-yellow") == {
        "1R:orange",
        "2L:yellow",
        "1R:orange+2L:yellow",
    }
    assert legal(["H:red M:red-orange", "H:blue M:blue-green"], "M:orange-green") == {
        "1R:orange",
        "2R:green",
    }
    assert legal(["M:red-orange", "H:yellow"], "T:wild") == {"1L", "1R"}
    assert legal(["M:red-orange"], "M:orange-yellow", Rules(forced_placement=False)) == {
        "1R:orange",
        "new",
    }
    assert legal(["H:wild", "T:wild"], "M:red-orange") == {
        "1R:red",
        "1R:orange",
        "2L:red",
        "2L:orange",
        "1R:red+2L:orange",
        "1R:orange+2L:red",
    }
