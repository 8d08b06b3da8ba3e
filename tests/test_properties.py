"""Property tests over seeded random games (Hypothesis chooses the seed, the table, the rules and
the deck): cards are conserved, pit and table snakes are valid, every legal action keeps the
invariants, notation round-trips, undo restores, and chance outcomes are exact.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from hisss.core import (
    Action,
    Card,
    Colour,
    End,
    JoinClaim,
    Scoring,
    State,
    new_game,
    parse_action,
    parse_card,
    parse_snake,
)
from hisss.core.actions import cap, extend, join
from hisss.core.cards import ALL_CARDS, WHEEL, CardKind
from hisss.core.snake import check_snake
from support.strategies import Setup, setups, snapshot

SETTINGS = settings(max_examples=100, deadline=None, database=None)


# --------------------------------------------------------------------------- invariants


def card_count(state: State) -> Counter[Card]:
    """Every card the state knows of: table, pits, the drawn card and the remaining cards."""
    seen: Counter[Card] = Counter()
    for snake in state.table:
        seen.update(snake.cards)
    for pit in state.pits:
        for snake in pit:
            seen.update(snake.cards)
    if state.drawn is not None:
        seen[state.drawn] += 1
    seen.update(state.remaining_counts())
    return seen


def check_invariants(state: State) -> None:
    deck = Counter(dict(state.deck.items()))
    assert card_count(state) == deck
    assert state.remaining == sum(state.remaining_counts().values())
    for pit in state.pits:
        for snake in pit:
            check_snake(snake)
            if state.rules.join_claim is JoinClaim.COMPLETE:
                assert snake.is_complete, snake
    for snake in state.table:
        check_snake(snake)
        assert not snake.is_complete, snake
    assert 0 <= state.to_move < state.players
    if state.started:
        placed = state.deck.size - state.remaining - 1 - (state.drawn is not None)
        assert state.turns == placed
        assert state.to_move == state.turns % state.players
    if state.drawn is not None:
        actions = state.legal_actions()
        assert actions, state.describe()
        assert len(set(actions)) == len(actions)
        assert state.current_player == state.to_move
        assert not state.is_chance_node() and not state.is_terminal()
    else:
        assert state.legal_actions() == []
        assert state.current_player is None
    if state.is_terminal():
        assert state.drawn is None and not state.is_chance_node()
        if state.remaining:
            # only the first-to scoring ends a game before the last card
            assert state.rules.scoring is Scoring.FIRST_TO
            assert max(state.pit_cards(s) for s in range(state.players)) >= state.rules.target


def play(setup: Setup, visit: Callable[[State, random.Random], None]) -> State:
    """Play a game from ``setup`` with random draws and random legal actions, calling ``visit`` at
    every step (chance or decision) before it is taken."""
    rng = random.Random(setup.seed)
    state = new_game(setup.players, setup.rules, setup.deck)
    while not state.is_terminal():
        visit(state, rng)
        if state.is_chance_node():
            state.sample_draw(rng)
        else:
            state.push(rng.choice(state.legal_actions()))
    visit(state, rng)
    return state


# --------------------------------------------------------------------------- properties


@SETTINGS
@given(setups())
def test_random_games_keep_every_invariant(setup: Setup) -> None:
    steps = []

    def visit(state: State, rng: random.Random) -> None:
        check_invariants(state)
        steps.append(state.turns)

    end = play(setup, visit)
    assert end.is_terminal()
    assert end.remaining == 0 or end.rules.scoring is Scoring.FIRST_TO
    assert len(steps) >= 1
    result = end.result()
    assert result.winners and all(0 <= w < setup.players for w in result.winners)
    assert result.cards == tuple(end.pit_cards(s) for s in range(setup.players))


@SETTINGS
@given(setups())
def test_every_legal_action_applies_and_keeps_the_invariants(setup: Setup) -> None:
    def visit(state: State, rng: random.Random) -> None:
        if state.drawn is None or rng.random() > 0.3:
            return
        before = snapshot(state)
        for action in state.legal_actions():
            child = state.copy()
            child.apply(action)
            check_invariants(child)
            assert child.turns == state.turns + 1
            assert child.drawn is None
            state.push(action)
            assert snapshot(state) == snapshot(child)
            state.undo()
            assert snapshot(state) == before

    play(setup, visit)


@SETTINGS
@given(setups())
def test_undo_after_push_and_draw_restores_everything(setup: Setup) -> None:
    def visit(state: State, rng: random.Random) -> None:
        before = snapshot(state)
        if state.is_chance_node():
            state.sample_draw(random.Random(rng.random()))
        elif state.drawn is not None:
            state.push(rng.choice(state.legal_actions()))
        else:
            return
        assert snapshot(state) != before
        state.undo()
        assert snapshot(state) == before

    play(setup, visit)


@SETTINGS
@given(setups())
def test_chance_outcomes_are_exact_and_match_the_remaining_cards(setup: Setup) -> None:
    def visit(state: State, rng: random.Random) -> None:
        outcomes = state.chance_outcomes()
        if not state.is_chance_node():
            assert outcomes == []
            return
        counts = state.remaining_counts()
        assert [c for c, _ in outcomes] == list(counts)
        assert all(isinstance(p, Fraction) for _, p in outcomes)
        assert sum(p for _, p in outcomes) == 1
        for card, p in outcomes:
            assert p == Fraction(counts[card], state.remaining)
        assert state.draw_weights() == list(counts.items())

    play(setup, visit)


@SETTINGS
@given(setups())
def test_notation_round_trips_along_games(setup: Setup) -> None:
    def visit(state: State, rng: random.Random) -> None:
        for action in state.legal_actions():
            assert parse_action(str(action)) == action
        for snake in state.table:
            assert parse_snake(str(snake)) == snake
        for pit in state.pits:
            for snake in pit:
                assert parse_snake(str(snake)) == snake
        if state.drawn is not None:
            assert parse_card(str(state.drawn)) is state.drawn

    play(setup, visit)


@SETTINGS
@given(setups(), st.integers(0, 2**32 - 1))
def test_a_game_replays_from_its_draws_and_actions(setup: Setup, seed: int) -> None:
    record: list[str] = []
    rng = random.Random(seed)
    state = new_game(setup.players, setup.rules, setup.deck)
    while not state.is_terminal():
        if state.is_chance_node():
            record.append(str(state.sample_draw(rng)))
        else:
            action = rng.choice(state.legal_actions())
            record.append(str(action))
            state.apply(action)
    again = new_game(setup.players, setup.rules, setup.deck)
    for text in record:
        if again.is_chance_node():
            again.draw(parse_card(text))
        else:
            again.apply(parse_action(text))
    assert snapshot(again) == snapshot(state)


@given(st.sampled_from(ALL_CARDS))
def test_card_notation_round_trips(card: Card) -> None:
    assert parse_card(str(card)) == card
    assert parse_card(str(card).upper()) == card
    if card.kind is CardKind.MID:
        a, b = card.colours
        assert parse_card(f"M:{b}-{a}") == card


colours = st.sampled_from(WHEEL)
ends = st.sampled_from(list(End))
positions = st.integers(0, 40)


@st.composite
def actions(draw: st.DrawFn) -> Action:
    kind = draw(st.sampled_from(["cap", "extend", "join", "new"]))
    if kind == "new":
        return parse_action("new")
    if kind == "cap":
        return cap(draw(positions), draw(ends))
    if kind == "extend":
        return extend(draw(positions), draw(ends), draw(colours))
    i, j = draw(st.lists(positions, min_size=2, max_size=2, unique=True))
    x, y = draw(st.lists(colours, min_size=2, max_size=2, unique=True))
    return join(i, draw(ends), x, j, draw(ends), y)


@given(actions())
def test_action_notation_round_trips(action: Action) -> None:
    assert parse_action(str(action)) == action
    assert parse_action(str(action).lower()) == action


@given(
    st.lists(positions, min_size=2, max_size=2, unique=True),
    st.lists(colours, min_size=2, max_size=2, unique=True),
    ends,
    ends,
)
def test_a_join_has_one_spelling_whichever_end_is_written_first(
    snakes: list[int], sides: list[Colour], e: End, f: End
) -> None:
    (i, j), (x, y) = snakes, sides
    a = join(i, e, x, j, f, y)
    b = join(j, f, y, i, e, x)
    assert a == b
    assert str(a) == str(b)
    assert a.snake == min(i, j) and a.snake2 == max(i, j)
    assert parse_action(f"{j + 1}{f}:{y}+{i + 1}{e}:{x}") == a
