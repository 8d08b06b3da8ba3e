"""Perft-style counts: the number of legal actions at every turn of fixed deals under a fixed
policy, and the number of leaves of small full game trees.

The deals come from ``deal(deck, random.Random(seed))``. The first turns of one deal are checked by
hand below; every count of every deal is also recomputed by the independent oracle, and the full
tree counts are compared with a tree walk that uses only the oracle.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import pytest

from hisss.core import (
    ALL_PAIRS,
    RAINBOW,
    Deck,
    Rules,
    State,
    deal,
    get_rules,
    new_game,
    parse_card,
)
from support import oracle

CLASSIC = get_rules("classic")
PL = get_rules("pl")
UNFORCED = Rules(forced_placement=False)


@dataclass(frozen=True)
class Case:
    deck: Deck
    seed: int
    rules: Rules
    players: int
    policy: str  # "first" or "last" legal action
    counts: list[int]
    cards: tuple[int, ...]
    winners: tuple[int, ...]
    left_on_table: int


# Hand check of rainbow seed 1, "first" policy. The deal begins
#   H:yellow M:red-orange M:blue-purple T:yellow M:purple-red M:orange-yellow M:blue-purple
#   H:purple M:blue-purple M:red-orange T:blue M:yellow-green M:yellow-green M:orange-yellow
# Starter H:yellow: a lone head, open neck yellow.
#  1 M:red-orange: the only open end is yellow -> new (1). Table: H:yellow | M:red-orange.
#  2 M:blue-purple: open ends yellow, red, orange -> new (1). Snake 3 = M:blue-purple.
#  3 T:yellow: no mid-section end is yellow and never onto the lone head -> new (1).
#  4 M:purple-red: red onto 2L, purple onto 3R, or join 2L+3R (no heads or tails) -> 3.
#    First: 2L:red, snake 2 = M:purple-red M:red-orange (ends purple, orange).
#  5 M:orange-yellow: yellow onto 1R (head's neck) or 4L (tail's neck), orange onto 2R; joins
#    1R+2R and 2R+4L (1R+4L would need two yellow sides) -> 3 + 2 = 5.
#    First: 1R:yellow, snake 1 = H:yellow M:yellow-orange (open orange).
#  6 M:blue-purple: purple onto 2L or 3R, blue onto 3L; join 2L+3L (3R+3L is one snake) -> 4.
#    First: 2L:purple, snake 2 = M:blue-purple M:purple-red M:red-orange (ends blue, orange).
#  7 H:purple: snake 1 has a head, snake 2 ends blue/orange, snake 3 ends purple on the right,
#    snake 4 is a lone tail -> 3R only (1). Snake 3 = H:purple M:purple-blue (open blue).
#  8 M:blue-purple: blue onto 2L or 3R; nothing is purple -> 2. First: 2L:blue.
#  9 M:red-orange: orange onto 1R or 2R; nothing is red -> 2. First: 1R:orange (open red).
# 10 T:blue: caps snake 3's blue end -> 1; it completes H:purple M:purple-blue T:blue, which
#    seat 2 takes. The lone T:yellow becomes snake 3.
# 11 M:yellow-green: yellow onto the tail's neck 3L only -> 1 (snake 3 now open green).
# 12 M:yellow-green: green onto 3L only -> 1 (snake 3 open yellow again).
# 13 M:orange-yellow: orange onto 2R, yellow onto 3L, join 2R+3L (one tail only) -> 3.
CASES = {
    "rainbow-1-classic-first": Case(
        RAINBOW, 1, CLASSIC, 2, "first",
        [1, 1, 1, 3, 5, 4, 1, 2, 2, 1, 1, 1, 3, 1, 1, 1, 1, 1, 1, 2, 1, 2, 5, 4, 2,
         1, 1, 1, 1, 1, 1, 1, 1, 3, 1, 1, 1, 2, 1, 3, 1, 1, 1, 1, 1, 3, 1, 2, 1],
        (10, 21), (1,), 6,
    ),
    "rainbow-1-classic-last": Case(
        RAINBOW, 1, CLASSIC, 2, "last",
        [1, 1, 1, 3, 5, 1, 1, 1, 1, 1, 1, 1, 3, 1, 1, 1, 1, 1, 1, 1, 1, 3, 1, 1, 1,
         1, 1, 1, 1, 1, 1, 4, 1, 3, 1, 1, 1, 1, 1, 4, 1, 1, 1, 1, 1, 1, 1, 2, 1],
        (7, 33), (1,), 4,
    ),
    "rainbow-2-pl-first": Case(
        RAINBOW, 2, PL, 3, "first",
        [1, 1, 2, 4, 1, 1, 1, 1, 3, 8, 2, 2, 6, 3, 1, 1, 8, 1, 3, 4, 3, 2, 5, 2, 1,
         1, 1, 2, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 3, 4, 2, 2, 2, 3, 2, 1, 1, 1, 1],
        (25, 0, 3), (0,), 6,
    ),
    "rainbow-2-pl-last": Case(
        RAINBOW, 2, PL, 3, "last",
        [1, 1, 2, 4, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 5, 1, 1, 1, 1, 1, 3, 1, 1, 1, 1,
         1, 1, 2, 1, 2, 1, 2, 1, 1, 3, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1],
        (8, 16, 15), (1,), 3,
    ),
    "all-pairs-3-classic-first": Case(
        ALL_PAIRS, 3, CLASSIC, 4, "first",
        [1, 1, 1, 1, 1, 3, 1, 1, 4, 1, 1, 2, 3, 5, 2, 1, 1, 1, 1, 1, 2, 1, 3, 1, 2,
         1, 1, 2, 1, 1, 3, 2, 1, 5, 3, 5, 2, 1, 3, 1, 1, 1, 6, 1, 1, 1, 5, 1, 3],
        (8, 11, 0, 0), (1,), 5,
    ),
    "all-pairs-3-classic-last": Case(
        ALL_PAIRS, 3, CLASSIC, 4, "last",
        [1, 1, 1, 1, 1, 3, 1, 1, 2, 1, 1, 1, 1, 3, 1, 1, 1, 3, 1, 1, 3, 1, 1, 3, 1,
         1, 3, 1, 1, 2, 1, 3, 1, 1, 1, 2, 1, 2, 1, 1, 5, 1, 1, 1, 3, 1, 1, 3, 1],
        (25, 0, 0, 23), (0,), 1,
    ),
}  # fmt: skip


def test_deals_are_fixed() -> None:
    # the deals themselves, so that a change of shuffling is told apart from a change of rules
    def first(deck: Deck, seed: int) -> list[str]:
        return [str(c) for c in deal(deck, random.Random(seed))[:8]]

    assert first(RAINBOW, 1) == [
        "H:yellow", "M:red-orange", "M:blue-purple", "T:yellow",
        "M:purple-red", "M:orange-yellow", "M:blue-purple", "H:purple",
    ]  # fmt: skip
    assert first(RAINBOW, 2) == [
        "M:purple-red", "M:yellow-green", "M:blue-purple", "M:yellow-green",
        "H:wild", "M:red-orange", "H:blue", "M:purple-red",
    ]  # fmt: skip
    assert first(ALL_PAIRS, 3) == [
        "M:purple-red", "M:blue-purple", "T:blue", "M:red-yellow",
        "H:green", "M:red-blue", "M:red-green", "M:green-purple",
    ]  # fmt: skip
    cards = deal(RAINBOW, random.Random(1))
    assert Counter(cards) == Counter(RAINBOW.cards())


@pytest.mark.parametrize("name", list(CASES))
def test_fixed_deal_counts(name: str) -> None:
    case = CASES[name]
    cards = deal(case.deck, random.Random(case.seed))
    state = new_game(case.players, case.rules, case.deck)
    counts: list[int] = []
    oracle_counts: list[int] = []
    state.draw(cards[0])
    for card in cards[1:]:
        state.draw(card)
        actions = state.legal_actions()
        counts.append(len(actions))
        oracle_counts.append(len(oracle.legal_strings(state)))
        state.apply(actions[0] if case.policy == "first" else actions[-1])
    assert state.is_terminal()
    assert counts == case.counts
    assert oracle_counts == case.counts
    result = state.result()
    assert result.cards == case.cards
    assert result.winners == case.winners
    assert len(state.table) == case.left_on_table
    assert sum(result.cards) + sum(s.length for s in state.table) == case.deck.size


# --------------------------------------------------------------------------- full trees


def engine_perft(state: State) -> int:
    """Leaves of the full game tree below ``state``: every distinct card times every action."""
    if state.is_terminal():
        return 1
    total = 0
    for card, _ in state.chance_outcomes():
        state.draw(card)
        for action in state.legal_actions():
            state.push(action)
            total += engine_perft(state)
            state.undo()
        state.undo()
    return total


def oracle_perft(state: State) -> int:
    remaining = Counter({str(c): n for c, n in state.remaining_counts().items()})
    return oracle.perft(oracle.state_rows(state), remaining, state.rules)


def stacked_start(starter: str, rest: list[str], rules: Rules) -> State:
    deck = Deck.from_cards("stacked", [parse_card(c) for c in [starter, *rest]])
    state = new_game(2, rules, deck)
    state.draw(parse_card(starter))
    return state


def test_full_tree_by_hand_head_and_tail() -> None:
    # M:red-orange on the table, H:red and T:orange to come: whichever is drawn first caps its
    # end (1 action), the other caps the other end (1 action): 2 orders x 1 x 1 = 2 leaves.
    state = stacked_start("M:red-orange", ["H:red", "T:orange"], CLASSIC)
    assert engine_perft(state) == 2
    assert oracle_perft(state) == 2


def test_full_tree_by_hand_wild_head_and_tail() -> None:
    # H:wild first: it caps 1L or 1R (2), then T:wild caps the one open end (1): 2 leaves;
    # T:wild first likewise: 2 leaves. Total 4.
    state = stacked_start("M:red-orange", ["H:wild", "T:wild"], CLASSIC)
    assert engine_perft(state) == 4
    assert oracle_perft(state) == 4
    # Unforced: H:wild has 1L, 1R, new. After a cap T:wild has the open end or new (2 each);
    # after new it has 1L, 1R, new (3): 2 + 2 + 3 = 7, and the same with T:wild first: 14.
    state = stacked_start("M:red-orange", ["H:wild", "T:wild"], UNFORCED)
    assert engine_perft(state) == 14
    assert oracle_perft(state) == 14


def late_position(deck: Deck, seed: int, rules: Rules, players: int, left: int) -> State:
    """The deal ``seed`` played with the first legal action until ``left`` cards remain."""
    cards = deal(deck, random.Random(seed))
    state = new_game(players, rules, deck)
    for card in cards[: len(cards) - left]:
        state.draw(card)
        if state.drawn is not None:
            state.push(state.legal_actions()[0])
    assert state.remaining == left and state.is_chance_node()
    return state


@pytest.mark.parametrize(
    ("deck", "seed", "rules", "players", "left", "leaves"),
    [
        (RAINBOW, 1, CLASSIC, 2, 5, 1050),
        (RAINBOW, 1, CLASSIC, 2, 6, 8607),
        (RAINBOW, 2, PL, 3, 6, 4165),
        (ALL_PAIRS, 3, UNFORCED, 4, 4, 5280),
    ],
    ids=["rainbow-5", "rainbow-6", "rainbow-pl-6", "all-pairs-unforced-4"],
)
@pytest.mark.slow
def test_full_tree_leaves(
    deck: Deck, seed: int, rules: Rules, players: int, left: int, leaves: int
) -> None:
    state = late_position(deck, seed, rules, players, left)
    before = (state.table, state.pits, state.remaining_counts(), state.to_move, state.turns)
    assert engine_perft(state) == leaves
    after = (state.table, state.pits, state.remaining_counts(), state.to_move, state.turns)
    assert after == before
    assert oracle_perft(state) == leaves
