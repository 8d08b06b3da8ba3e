"""The hand variant in the reinforcement-learning adapters: PettingZoo's api_test and seed_test,
Gymnasium's check_env, OpenSpiel's random simulation test, the action space of plays and
observations that hold only what a seat may know."""

from __future__ import annotations

import random
from functools import partial
from typing import Any

import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test

import hisss.rl.openspiel
from hisss.core import HandState, Rules, SeatView, new_game, parse_action, parse_card
from hisss.rl import HisssEnv, env, raw_env
from hisss.rl.hand_spaces import HandActionCodec, HandObservationLayout
from hisss.rl.openspiel import HiddenInformationWarning
from test_rl_envs import API_TEST_NAME_WARNINGS, _check_env_warnings, _no_warnings_but, make_v0

CONFIGS: list[dict[str, Any]] = [
    {"players": 2, "rules": Rules(hand_size=3)},
    {"players": 3, "rules": Rules(hand_size=5, hands_seen_by_all=True)},
    {"players": 4, "rules": Rules(hand_size=1), "deck": "all-pairs"},
]


def _id(config: dict[str, Any]) -> str:
    return f"{config['players']}p-K{config['rules'].hand_size}"


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_pettingzoo_api_test(config: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    _no_warnings_but(API_TEST_NAME_WARNINGS, lambda: api_test(env(**config), num_cycles=200))
    assert "Passed API test" in capsys.readouterr().out


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_pettingzoo_seed_test(config: dict[str, Any]) -> None:
    _no_warnings_but(set(), lambda: seed_test(lambda: env(**config), num_cycles=200))


def test_pettingzoo_plays_whole_games_from_each_agents_view() -> None:
    e = raw_env(players=2, rules=Rules(hand_size=3))
    assert e.action_space("player_0").n == 59025
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    plays = 0
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        seat = int(agent[-1])
        game = e._game
        assert isinstance(game, HandState)
        view = e.layout
        assert isinstance(view, HandObservationLayout)
        np.testing.assert_array_equal(obs["observation"], view.encode_view(game.view(seat)))
        legal = np.flatnonzero(obs["action_mask"])
        assert sorted(e.action_to_index(a) for a in game.legal_actions()) == list(legal)
        e.step(int(rng.choice(legal)))
        plays += 1
    assert plays == 49


def test_an_observation_does_not_change_when_hidden_cards_move() -> None:
    e = raw_env(players=2, rules=Rules(hand_size=3))
    e.reset(seed=2)
    game = e._game
    assert isinstance(game, HandState)
    view = game.view(0)
    twin = view.sample(random.Random(5))
    assert twin.hands[1] != game.hands[1]
    layout = e.layout
    assert isinstance(layout, HandObservationLayout)
    np.testing.assert_array_equal(layout.encode(game, 0), layout.encode(twin, 0))
    # The other seat's observation does change: its own hand is different.
    assert not np.array_equal(layout.encode(game, 1), layout.encode(twin, 1))


def test_the_play_codec_round_trips_every_legal_play() -> None:
    for deck in ("rainbow", "all-pairs"):
        codec = HandActionCodec.for_deck(deck)
        rng = random.Random(0)
        state = new_game(3, Rules(hand_size=5), deck)
        seen = set()
        while not state.is_terminal():
            if state.is_chance_node():
                state.sample_draw(rng)
                continue
            for action in state.legal_actions():
                index = codec.action_to_index(action)
                assert 0 <= index < codec.size and codec.index_to_action(index) == action
                seen.add(index)
            state.push(rng.choice(state.legal_actions()))
        assert len(seen) > 50
    with pytest.raises(ValueError, match="names no card"):
        HandActionCodec.for_deck("rainbow").action_to_index(parse_action("1R:orange"))


def test_gymnasium_check_env_with_hands() -> None:
    for config in CONFIGS[:2]:
        e = make_v0(opponents=["careful"], illegal_action="lose", **config).unwrapped
        _check_env_warnings(partial(check_env, e))
        _, info = e.reset(seed=1)
        assert info["action_mask"].shape == (59025,) and info["action_mask"].sum() >= 1


@pytest.mark.parametrize(
    "params",
    [{"hand_size": 3}, {"hand_size": 1, "players": 3}, {"hand_size": 5, "hands_seen_by_all": True}],
)
def test_openspiel_random_sim_test(params: dict[str, Any]) -> None:
    game = pyspiel.load_game("python_hisss", params)
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.get_type().provides_information_state_tensor
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def _dealt(game: Any, *cards: str) -> Any:
    state = game.new_initial_state()
    for text in cards:
        state.apply_action(parse_card(text).code)
    return state


def test_openspiel_information_states_hide_the_other_hands() -> None:
    game = pyspiel.load_game("python_hisss", {"hand_size": 2})
    # The same starter and the same cards for seat 1; other cards for seat 2.
    one = _dealt(game, "M:red-orange", "H:red", "T:blue", "T:orange", "H:green")
    two = _dealt(game, "M:red-orange", "H:red", "H:blue", "T:orange", "M:blue-green")
    assert one.current_player() == 0 and not one.is_chance_node()
    mine = one.information_state_string(0)
    assert mine == (
        "p0 starter M:red-orange seat 1 draws H:red seat 2 draws seat 1 draws T:orange seat 2 draws"
    )
    assert one.information_state_string(0) == two.information_state_string(0)
    assert one.information_state_tensor(0) == two.information_state_tensor(0)
    assert one.observation_tensor(0) == two.observation_tensor(0)
    assert one.information_state_string(1) != two.information_state_string(1)
    assert "seat 2 draws T:blue" in one.information_state_string(1)
    assert "seat 2 hand: 2 cards" in one.observation_string(0)
    assert hisss.rl.openspiel.GAME_TYPE.short_name == "python_hisss"


#: Two deals of a two-player game with hands of 3 that agree on everything seat 1 sees at its
#: first turn: the starter and seat 1's hand (cards 2, 4 and 6 of the deal) are the same, seat
#: 2's hand (cards 3, 5 and 7) differs.
HIDDEN_DEALS = (
    ["M:blue-green", "M:green-yellow", "H:red", "H:purple", "T:orange", "M:red-orange", "T:blue"],
    [
        "M:blue-green",
        "M:green-yellow",
        "T:blue",
        "H:purple",
        "M:red-orange",
        "M:red-orange",
        "H:red",
    ],
)


def test_the_gymnasium_env_and_its_agents_see_only_the_seats_view() -> None:
    from hisss.rl.agent import BotPolicy, LinearAgent  # noqa: PLC0415

    inputs = []
    for cards in HIDDEN_DEALS:
        e = HisssEnv(players=2, rules=Rules(hand_size=3), opponents="careful", render_mode="ansi")
        obs, info = e.reset(seed=1, options={"deal": cards})
        assert not hasattr(e, "game")  # the full position is private
        view = e.view
        assert isinstance(view, SeatView) and view.hands[1] is None
        agent = LinearAgent([1.0, -0.5, 0.0, 0.1, 0.2, 0.3, -0.2, -0.1])
        legal, features = agent.describe(e, info["action_mask"])
        bot_choice = [
            BotPolicy(n, seed=3).act(e, info["action_mask"]) for n in ("careful", "greedy")
        ]
        inputs.append((obs, info["action_mask"], view, legal, features, bot_choice, e.render()))
    (o1, m1, v1, l1, f1, b1, r1), (o2, m2, v2, l2, f2, b2, r2) = inputs
    np.testing.assert_array_equal(o1, o2)
    np.testing.assert_array_equal(m1, m2)
    assert v1 == v2 and l1 == l2 and b1 == b2 and r1 == r2
    np.testing.assert_array_equal(f1, f2)


def test_pettingzoo_observations_and_views_hide_the_other_hand() -> None:
    seen = []
    for cards in HIDDEN_DEALS:
        e = raw_env(players=2, rules=Rules(hand_size=3))
        e.reset(seed=1, options={"deal": cards})
        assert not hasattr(e, "game")
        seen.append((e.observe("player_0"), e.view("player_0")))
    (a, va), (b, vb) = seen
    np.testing.assert_array_equal(a["observation"], b["observation"])
    np.testing.assert_array_equal(a["action_mask"], b["action_mask"])
    assert va == vb


def test_openspiel_inputs_agree_for_deals_the_player_cannot_tell_apart() -> None:
    game = pyspiel.load_game("python_hisss", {"hand_size": 3})
    one, two = (_dealt(game, *cards) for cards in HIDDEN_DEALS)
    assert one.current_player() == two.current_player() == 0
    for method in ("information_state_string", "information_state_tensor", "observation_tensor"):
        assert getattr(one, method)(0) == getattr(two, method)(0), method
    assert one.legal_actions() == two.legal_actions()


def test_openspiel_resamples_from_an_information_state() -> None:
    game = pyspiel.load_game("python_hisss", {"hand_size": 3, "players": 3})
    state = game.new_initial_state()
    rng = np.random.default_rng(7)
    for _ in range(30):  # the deal and some plays
        if state.is_chance_node():
            codes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(codes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player() if not state.is_chance_node() else 0
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    hands = set()
    for _ in range(20):
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.information_state_tensor(player) == state.information_state_tensor(player)
        assert other.legal_actions() == state.legal_actions()
        hands.add(other.game_state.hands)
    assert len(hands) > 1  # the other hands were dealt again
    classic = pyspiel.load_game("python_hisss").new_initial_state()
    assert str(classic.resample_from_infostate(0, sampler)) == str(classic)


def test_ismcts_plays_hand_games_and_mcts_warns() -> None:
    from open_spiel.python.algorithms import ismcts, mcts  # noqa: PLC0415

    game = pyspiel.load_game("python_hisss", {"hand_size": 2})
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(1))
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            codes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(codes, p=probs)))
        elif state.current_player() == 0:
            searched += len(state.legal_actions()) > 1
            state.apply_action(bot.step(state))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert searched > 5 and sum(state.returns()) == 0
    decision = _dealt(game, "M:blue-green", "M:green-yellow", "H:red", "H:purple", "T:orange")
    with pytest.warns(HiddenInformationWarning, match="use open_spiel's ISMCTSBot"):
        mcts.MCTSBot(game, 2.0, 4, evaluator).step(decision)


def test_rendering_shows_the_own_hand_only() -> None:
    e = HisssEnv(players=2, rules=Rules(hand_size=3), render_mode="ansi")
    e.reset(seed=1, options={"deal": HIDDEN_DEALS[0]})
    text = e.render()
    assert text is not None
    assert "seat 1 hand: H:purple M:red-orange M:yellow-green" in text
    assert "seat 2 hand: 3 cards" in text and "H:red" not in text and "T:orange" not in text
    pz = raw_env(players=2, rules=Rules(hand_size=3), render_mode="ansi")
    pz.reset(seed=1, options={"deal": HIDDEN_DEALS[0]})
    assert pz.render() == text


@pytest.mark.parametrize("rules", [Rules(), Rules(hand_size=3)], ids=["classic", "hands"])
def test_pettingzoo_render_test(rules: Rules, capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode: env(players=3, rules=rules, render_mode=render_mode))
    out = capsys.readouterr().out
    assert "seat 1 pit" in out or "pits seat 1" in out  # the human mode printed the position
    if rules.hand_size:
        assert "hand: 3 cards" in out
