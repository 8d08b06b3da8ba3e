"""Hypothesis strategies for seeded game set-ups over every deck and option,
and a snapshot of everything observable about a position."""

from __future__ import annotations

from dataclasses import dataclass, replace

from hypothesis import strategies as st

from hisss.core import ALL_PAIRS, DOUBLE, RAINBOW, Deck, JoinClaim, Rules, Scoring, State, get_rules
from hisss.core.cards import ALL_CARDS

#: Rule sets that cover every option.
RULE_SETS: list[Rules] = [
    get_rules("classic"),
    get_rules("pl"),
    Rules(forced_placement=False),
    Rules(scoring=Scoring.SNAKES),
    Rules(scoring=Scoring.LONGEST),
    Rules(scoring=Scoring.FIRST_TO, target=5),
    Rules(scoring=Scoring.FIRST_TO, target=12),
    Rules(forced_placement=False, join_claim=JoinClaim.ALWAYS, scoring=Scoring.SNAKES),
]

CARD_NAMES = [str(c) for c in ALL_CARDS]

#: Small random user decks.
user_decks = st.dictionaries(
    st.sampled_from(CARD_NAMES), st.integers(1, 4), min_size=1, max_size=10
).map(lambda cards: Deck.from_mapping({"name": "random", "cards": cards}))

BUILT_IN = [RAINBOW, ALL_PAIRS, DOUBLE]
#: Built-in decks three times in five, small random user decks otherwise.
decks = st.integers(0, 4).flatmap(lambda k: st.just(BUILT_IN[k]) if k < 3 else user_decks)


@dataclass(frozen=True)
class Setup:
    """A seeded game set-up."""

    seed: int
    players: int
    rules: Rules
    deck: Deck


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    """A seed, 2 to 6 players (6 with the option), rules and a deck."""
    seed = draw(st.integers(0, 2**32 - 1))
    players = draw(st.integers(2, 6))
    rules = draw(st.sampled_from(RULE_SETS))
    if players == 6:
        rules = replace(rules, six_players=True)
    return Setup(seed, players, rules, draw(decks))


Snapshot = tuple[object, ...]


def snapshot(state: State) -> Snapshot:
    """Everything observable about a position: equal snapshots mean nothing changed."""
    return (
        state.table,
        state.pits,
        state.drawn,
        state.to_move,
        state.turns,
        state.remaining,
        state.remaining_counts(),
        state.is_terminal(),
        state.is_chance_node(),
        state.current_player,
        [str(a) for a in state.legal_actions()],
        state.chance_outcomes(),
        state.describe(),
        state.result(),
    )
