"""The action space and the observations of the RL adapters: the mapping round-trips for every legal
action of random games, the mask is the legal set, and observations never reveal the order of the
cards to come."""

from __future__ import annotations

import random

import numpy as np
import pytest

from hisss.core import (
    ALL_PAIRS,
    DOUBLE,
    PRESETS,
    RAINBOW,
    Action,
    ActionKind,
    Card,
    Colour,
    ConfigError,
    Deck,
    End,
    Rules,
    State,
    deal,
    new_game,
    parse_action,
)
from hisss.rl import HisssEnv, raw_env
from hisss.rl.dealing import read_deal
from hisss.rl.spaces import ActionCodec, ObservationLayout, terminal_rewards

RULE_SETS = {**PRESETS, "unforced": Rules(forced_placement=False)}


def _check_position(codec: ActionCodec, state: State) -> None:
    legal = state.legal_actions()
    indices = codec.legal_indices(state)
    assert len(set(indices)) == len(legal), "two legal actions share an index"
    for action, index in zip(legal, indices, strict=True):
        assert 0 <= index < codec.size
        assert codec.index_to_action(index) == action
    mask = codec.mask(state)
    assert mask.dtype == np.int8 and mask.shape == (codec.size,)
    assert set(np.flatnonzero(mask).tolist()) == set(indices)


@pytest.mark.parametrize("rules", RULE_SETS, ids=str)
@pytest.mark.parametrize("deck", [RAINBOW, ALL_PAIRS, DOUBLE], ids=lambda d: d.name)
def test_mapping_round_trips_for_every_legal_action(rules: str, deck: Deck) -> None:
    codec = ActionCodec.for_deck(deck)
    rng = random.Random(f"{rules}-{deck.name}")
    most_snakes = 0
    for players in (2, 5):
        for _ in range(2):
            state = new_game(players, RULE_SETS[rules], deck)
            while not state.is_terminal():
                if state.is_chance_node():
                    state.sample_draw(rng)
                    continue
                _check_position(codec, state)
                most_snakes = max(most_snakes, len(state.table))
                state.apply(rng.choice(state.legal_actions()))
    assert most_snakes <= codec.max_snakes
    if rules == "unforced":
        assert most_snakes > 10  # the games reached many table positions


def test_every_index_round_trips_on_a_small_deck() -> None:
    deck = Deck.from_mapping(
        {"cards": {"H:red": 1, "T:wild": 1, "M:red-orange": 3, "M:blue-green": 2}}
    )
    codec = ActionCodec.for_deck(deck)
    s, m = deck.size - 1, 2
    assert codec.size == 1 + 14 * s + 4 * m * s * (s - 1) == 325
    seen = set()
    for index in range(codec.size):
        action = codec.index_to_action(index)
        assert codec.action_to_index(action) == index
        seen.add(action)
    assert len(seen) == codec.size


def test_index_samples_round_trip_on_the_built_in_decks() -> None:
    rng = random.Random(5)
    for deck, size in ((RAINBOW, 57_135), (ALL_PAIRS, 141_807), (DOUBLE, 234_235)):
        codec = ActionCodec.for_deck(deck)
        assert codec.size == size
        for index in [0, codec.size - 1, *rng.sample(range(codec.size), 2000)]:
            assert codec.action_to_index(codec.index_to_action(index)) == index


def test_documented_indices() -> None:
    codec = ActionCodec.for_deck("rainbow")
    join = parse_action("1R:orange+3L:yellow")
    assert codec.index_to_action(0) == Action(ActionKind.NEW)
    assert codec.index_to_action(1) == Action(ActionKind.CAP, 0, End.L)
    assert codec.index_to_action(1 + 2 * 49) == Action(ActionKind.EXTEND, 0, End.L, Colour.RED)
    # p = 1 (snake 1, right), q = 4 (snake 3, left): r = 4*3/2 + 1 - 2 = 5. In card-code order
    # the deck's mid-sections are red-orange, purple-red, orange-yellow, ...: M:orange-yellow is
    # k = 2, its first colour on the first end (f = 0).
    assert [str(c) for c in codec.mids[:3]] == ["M:red-orange", "M:purple-red", "M:orange-yellow"]
    assert codec.action_to_index(join) == 1 + 14 * 49 + 12 * 5 + 2 * 2 + 0


def test_actions_outside_the_space_are_rejected() -> None:
    codec = ActionCodec.for_deck("rainbow")
    with pytest.raises(ValueError, match="at most 49"):
        codec.action_to_index(Action(ActionKind.CAP, 49, End.L))
    with pytest.raises(ValueError, match="no M:red-blue"):
        codec.action_to_index(parse_action("1R:red+2L:blue"))
    with pytest.raises(ValueError, match=r"outside 0 \.\. 57134"):
        codec.index_to_action(57_135)
    with pytest.raises(ValueError, match="whole number"):
        codec.index_to_action(True)
    with pytest.raises(ValueError, match="expected an Action"):
        codec.action_to_index("new")  # type: ignore[arg-type]


def test_observation_layout_and_content() -> None:
    layout = ObservationLayout(ActionCodec.for_deck("rainbow"), players=3)
    assert layout.size == 29 + 18 * 49 + 4 * 3 + 29 + 1
    state = new_game(3)
    for text in ("H:red", "M:red-orange"):
        state.draw(Card.parse(text))
    obs = layout.encode(state, seat=2)
    assert obs.dtype == np.float32 and obs.shape == (layout.size,)
    assert obs[Card.parse("M:red-orange").code] == 1.0
    snake = obs[layout.parts["table"]][:18]
    # present; left end closed by the head; right end red; a head, no tail, one card
    assert snake.tolist() == [1] + [0] * 7 + [1, 0, 0, 0, 0, 0, 0] + [1, 0, 1]
    assert not obs[layout.parts["table"]][18:].any()
    seats = obs[layout.parts["seats"]].reshape(3, 4)
    assert seats[:, 3].tolist() == [0, 1, 0]  # seat 1 places the card: next after seat 3
    remaining = obs[layout.parts["remaining"]]
    assert remaining.sum() == 48 == obs[layout.parts["left"]][0]
    assert remaining[Card.parse("H:red").code] == 0


def _deals(deck: Deck, seed: int, prefix: int) -> tuple[list[Card], list[Card]]:
    """Two deals with the same first ``prefix`` cards and the rest in two different orders."""
    cards = deal(deck, random.Random(seed))
    head, rest = cards[:prefix], cards[prefix:]
    other = rest[:]
    random.Random(seed + 1).shuffle(other)
    while other[0] == rest[0]:
        other.append(other.pop(0))
    return head + rest, head + other


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_observations_do_not_reveal_the_order_of_the_deck(players: int) -> None:
    prefix = 14
    first, second = _deals(RAINBOW, players, prefix)
    a, b = raw_env(players), raw_env(players)
    a.reset(seed=9, options={"deal": first})
    b.reset(seed=9, options={"deal": second})
    rng = random.Random(3)
    for turn in range(prefix - 1):
        for agent in a.possible_agents:
            oa, ob = a.observe(agent), b.observe(agent)
            assert np.array_equal(oa["observation"], ob["observation"]), (turn, agent)
            assert np.array_equal(oa["action_mask"], ob["action_mask"]), (turn, agent)
        assert a.agent_selection == b.agent_selection
        mask = a.observe(a.agent_selection)["action_mask"]
        index = rng.choice(np.flatnonzero(mask).tolist())
        a.step(index)
        b.step(index)
    # the next card differs: the observations do too (so the comparison above could fail)
    agent = a.agent_selection
    assert not np.array_equal(a.observe(agent)["observation"], b.observe(agent)["observation"])


def test_gymnasium_observations_do_not_reveal_the_order_of_the_deck() -> None:
    prefix = 20
    first, second = _deals(RAINBOW, 11, prefix)
    a, b = HisssEnv(seat=1), HisssEnv(seat=1)
    oa, ia = a.reset(seed=4, options={"deal": first})
    ob, ib = b.reset(seed=4, options={"deal": second})
    rng = random.Random(8)
    steps = 0
    while a._game.remaining > a.deck.size - prefix:
        assert np.array_equal(oa, ob) and np.array_equal(ia["action_mask"], ib["action_mask"])
        index = rng.choice(np.flatnonzero(ia["action_mask"]).tolist())
        oa, _, _, _, ia = a.step(index)
        ob, _, _, _, ib = b.step(index)
        steps += 1
    assert steps >= 8
    assert not np.array_equal(oa, ob)


def test_deals_are_checked() -> None:
    assert read_deal(RAINBOW, ["H:red", Card.parse("T:red")]) == (
        Card.parse("H:red"),
        Card.parse("T:red"),
    )
    with pytest.raises(ConfigError, match="deal card 2: H:red is one more than the 1"):
        read_deal(RAINBOW, ["H:red", "H:red"])
    with pytest.raises(ConfigError, match="deal card 1: bad card"):
        read_deal(RAINBOW, ["X:red"])
    with pytest.raises(ConfigError, match="deal card 1: expected a card, not int"):
        read_deal(RAINBOW, [3])
    with pytest.raises(ConfigError, match="a deal is a list of cards, not str"):
        read_deal(RAINBOW, "H:red")


def test_terminal_rewards_sum_to_zero() -> None:
    for players in range(2, 7):
        for k in range(1, players + 1):
            rewards = terminal_rewards(tuple(range(k)), players)
            assert abs(sum(rewards)) < 1e-12
            assert max(rewards) <= 1 and min(rewards) >= -1
            assert rewards[0] == (0.0 if k == players else 1 / k)
