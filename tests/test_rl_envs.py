"""The PettingZoo and Gymnasium environments: the libraries' conformance checks, rewards, illegal
actions and bad settings."""

from __future__ import annotations

import subprocess
import sys
import warnings
from collections.abc import Callable
from functools import partial
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import hisss.rl
from hisss.core import ConfigError, IllegalActionError, Rules, parse_action
from hisss.rl import GYM_ID, GYM_ID_V1, HisssEnv, env, raw_env, terminal_rewards
from hisss.rl.gymnasium_env import IllegalActionWarning

#: Warnings that PettingZoo's api_test gives every environment with dict observations that is not
#: one of its own classic games (it compares the environment's name with a fixed list).
API_TEST_NAME_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


def _no_warnings_but(allowed: set[str], check: Callable[[], None]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check()
    unexpected = [str(w.message) for w in caught if str(w.message) not in allowed]
    assert not unexpected, unexpected


CONFIGS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3, "rules": "pl", "deck": "all-pairs"},
    {"players": 5, "rules": Rules(forced_placement=False)},
]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c['players']}p")
def test_pettingzoo_api_test(config: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    _no_warnings_but(API_TEST_NAME_WARNINGS, lambda: api_test(env(**config), num_cycles=200))
    assert "Passed API test" in capsys.readouterr().out


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c['players']}p")
def test_pettingzoo_seed_test(config: dict[str, Any]) -> None:
    _no_warnings_but(set(), lambda: seed_test(lambda: env(**config), num_cycles=200))


def _play_out(e: raw_env, seed: int) -> dict[str, float]:
    """Play a random game to its end; the total reward of every agent."""
    e.reset(seed=seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    rng = np.random.default_rng(seed)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        totals[agent] += reward
        if terminated or truncated:
            assert info["result"] == e._game.result()
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


def test_pettingzoo_rewards_are_the_documented_shares() -> None:
    e = raw_env(players=3)
    for seed in range(4):
        totals = _play_out(e, seed)
        expected = terminal_rewards(e._game.result().winners, 3)
        assert [totals[a] for a in e.possible_agents] == pytest.approx(expected)


def test_pettingzoo_shaping_pays_cards_at_once_and_sums_to_the_final_margin() -> None:
    e = raw_env(players=2, shaping=0.5)
    totals = _play_out(e, 7)
    game = e._game
    cards = [game.pit_cards(s) for s in range(2)]
    final = terminal_rewards(game.result().winners, 2)
    for seat, agent in enumerate(e.possible_agents):
        margin = (cards[seat] - sum(cards) / 2) / game.deck.size
        assert totals[agent] == pytest.approx(final[seat] + 0.5 * margin)


def test_pettingzoo_illegal_actions_raise_and_change_nothing() -> None:
    e = raw_env(players=2)
    e.reset(seed=5)
    agent = e.agent_selection
    before = e.observe(agent)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="illegal action"):
        e.step(illegal)
    with pytest.raises(IllegalActionError, match=r"outside 0 \.\. 57134"):
        e.step(10**6)
    with pytest.raises(TypeError, match="one whole number"):
        e.step("new")  # type: ignore[arg-type]
    after = e.observe(agent)
    assert e.agent_selection == agent
    assert np.array_equal(before["observation"], after["observation"])
    assert np.array_equal(before["action_mask"], after["action_mask"])


def test_pettingzoo_mask_is_for_the_agent_to_act_only() -> None:
    e = raw_env(players=3)
    e.reset(seed=2)
    masks = {a: e.observe(a)["action_mask"] for a in e.possible_agents}
    assert masks[e.agent_selection].sum() >= 1
    assert all(m.sum() == 0 for a, m in masks.items() if a != e.agent_selection)
    assert e.index_to_action(e.action_to_index(parse_action("2R:blue"))) == parse_action("2R:blue")


def test_pettingzoo_render_and_bad_settings() -> None:
    e = raw_env(players=2, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert text is not None and "seat 1 to place" in text and "seat 2 pit: 0 cards" in text
    with pytest.raises(ConfigError, match="7 players"):
        raw_env(players=7)
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")
    with pytest.raises(ValueError, match="shaping"):
        raw_env(shaping=-1)


def make_v0(**kwargs: Any) -> gymnasium.Env[Any, Any]:
    """``gymnasium.make("hisss/Hisss-v0")``, without Gymnasium's warning that a newer version
    is registered."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", ".*The environment hisss/Hisss-v0 is out of date")
        return gymnasium.make(GYM_ID, **kwargs)


def _check_env_warnings(check: Callable[[], None]) -> None:
    """Run ``check`` allowing only the warnings of illegal actions counted as losses (check_env
    steps with unmasked samples)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check()
    unexpected = [str(w.message) for w in caught if w.category is not IllegalActionWarning]
    assert not unexpected, unexpected


def test_gymnasium_check_env() -> None:
    made = [
        make_v0(illegal_action="lose").unwrapped,
        make_v0(
            players=3, seat=1, opponents=["greedy", "careful"], illegal_action="lose"
        ).unwrapped,
        gymnasium.make(GYM_ID_V1, illegal_action="lose").unwrapped,
        gymnasium.make(
            GYM_ID_V1,
            players=3,
            seat="random",
            normalize=True,
            skip_forced=True,
            opponents="greedy",
            illegal_action="lose",
        ).unwrapped,
    ]
    for e in made:
        _check_env_warnings(partial(check_env, e))


@pytest.mark.system  # starts a Python process of its own
def test_gymnasium_registration_is_by_importing_hisss_rl_without_pyspiel() -> None:
    code = (
        "import sys, gymnasium, hisss.rl; "
        "assert 'hisss/Hisss-v0' in gymnasium.registry; "
        "assert 'pyspiel' not in sys.modules, 'hisss.rl imported pyspiel'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
    assert hisss.rl.GYM_ID == "hisss/Hisss-v0"


def _play_gym(e: HisssEnv, seed: int) -> float:
    _, info = e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = 0.0
    done = False
    while not done:
        index = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, done, truncated, info = e.step(index)
        assert not truncated
        total += reward
    assert info["action_mask"].sum() == 0
    return total


def test_gymnasium_rewards_are_the_learning_seats_share() -> None:
    e = HisssEnv(players=3, seat=2, opponents="greedy")
    for seed in range(3):
        total = _play_gym(e, seed)
        assert total == pytest.approx(terminal_rewards(e._game.result().winners, 3)[2])


def test_gymnasium_is_seeded() -> None:
    a, b = HisssEnv(opponents="casual"), HisssEnv(opponents="casual")
    assert _play_gym(a, 12) == _play_gym(b, 12)
    assert [str(s) for s in a._game.table] == [str(s) for s in b._game.table]
    assert a._game.pits == b._game.pits


def test_gymnasium_illegal_action_policies() -> None:
    strict = HisssEnv(illegal_action="raise")
    obs, info = strict.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="illegal action"):
        strict.step(illegal)
    with pytest.raises(IllegalActionError, match="outside"):
        strict.step(-1)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    obs2, *_ = strict.step(legal)  # the rejected actions changed nothing
    assert not np.array_equal(obs, obs2)

    lenient = HisssEnv(illegal_action="lose")
    obs, info = lenient.reset(seed=3)
    turns = lenient._game.turns
    with pytest.warns(IllegalActionWarning, match=f"illegal action {illegal} counted as a loss"):
        obs2, reward, terminated, truncated, info2 = lenient.step(illegal)
    assert (reward, terminated, truncated, info2["illegal_action"]) == (-1.0, True, False, True)
    assert np.array_equal(obs, obs2) and lenient._game.turns == turns
    with pytest.raises(IllegalActionError, match="call reset"):
        lenient.step(legal)


INTEGER_LIKE = [int, np.int64, np.int32, np.uint16, np.array, lambda i: np.array(i, np.int8)]


@pytest.mark.parametrize("make", INTEGER_LIKE, ids=lambda f: getattr(f, "__name__", "int8 0-d"))
def test_integer_like_actions_are_accepted_by_both_environments(make: Callable[[int], Any]) -> None:
    gym_env = HisssEnv(players=2, opponents="random")
    _, info = gym_env.reset(seed=13)  # a game whose indices played below all fit in an int8
    pz = raw_env(players=2)
    pz.reset(seed=13)
    for _ in range(6):
        legal = int(np.flatnonzero(info["action_mask"])[-1])
        _, _, done, _, info = gym_env.step(make(legal))
        assert "illegal_action" not in info
        if done:
            break
    mask = pz.observe(pz.agent_selection)["action_mask"]
    pz.step(make(int(np.flatnonzero(mask)[-1])))
    assert pz._game.turns == 1


@pytest.mark.parametrize("bad", [True, 1.0, "0", np.array([0]), np.array(0.0), None, [0]])
def test_other_actions_raise_and_change_nothing(bad: Any) -> None:
    for lose in ("raise", "lose"):
        gym_env = HisssEnv(illegal_action=lose)
        gym_env.reset(seed=5)
        with pytest.raises(TypeError, match="an action is one whole number"):
            gym_env.step(bad)
        assert gym_env._game.turns == 0
    pz = raw_env(players=2)
    pz.reset(seed=5)
    with pytest.raises(TypeError, match="an action is one whole number"):
        pz.step(bad)
    assert pz._game.turns == 0


def test_gymnasium_bad_settings() -> None:
    with pytest.raises(ConfigError, match="seat must be a seat number from 0 to 1 or"):
        HisssEnv(seat=2)
    with pytest.raises(ConfigError, match="2 names for 3 other seats"):
        HisssEnv(players=4, opponents=["random", "greedy"])
    with pytest.raises(ConfigError, match="unknown bot 'genius'"):
        HisssEnv(opponents="genius")
    with pytest.raises(ConfigError, match="illegal_action"):
        HisssEnv(illegal_action="ignore")
    with pytest.raises(ConfigError, match="at least 2"):
        HisssEnv(deck=_one_card_deck())
    e = HisssEnv()
    obs, _ = e.reset(seed=1)
    with pytest.raises(ConfigError, match="deal card 1"):
        e.reset(options={"deal": ["nonsense"]})
    assert np.array_equal(e.layout.encode(e._game, 0), obs)  # the bad reset changed nothing


def _one_card_deck() -> Any:
    from hisss.core import Deck  # noqa: PLC0415

    return Deck.from_mapping({"cards": {"H:red": 1}})


def test_gymnasium_redeals_a_game_that_ends_before_the_seat_plays() -> None:
    from hisss.core import Deck, Scoring  # noqa: PLC0415

    deck = Deck.from_mapping({"cards": {"H:red": 1, "M:red-orange": 3, "T:orange": 1}})
    rules = Rules(scoring=Scoring.FIRST_TO, target=3)
    e = HisssEnv(players=3, seat=2, rules=rules, deck=deck)
    _, info = e.reset(seed=0, options={"deal": ["M:red-orange", "H:red", "T:orange"]})
    assert e._game.current_player == 2 and info["action_mask"].sum() >= 1


def test_opponents_as_names_bots_callables_and_the_learner_itself() -> None:
    from hisss.bots import GreedyBot  # noqa: PLC0415

    calls: list[tuple[tuple[int, ...], int]] = []

    def first_legal(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        calls.append((obs.shape, int(mask.sum())))
        return np.array(np.flatnonzero(mask)[0])  # a 0-d array, as model.predict returns

    e = HisssEnv(players=4, opponents=["careful", GreedyBot(), first_legal], seat=1)
    assert e.opponents == ("careful", "greedy", "first_legal")
    total = _play_gym(e, 3)
    assert calls and all(shape == (e.layout.size,) and n >= 1 for shape, n in calls)
    assert -1 <= total <= 1

    learner_calls = []

    def learner(obs: np.ndarray, mask: np.ndarray) -> int:
        learner_calls.append(1)
        return int(np.flatnonzero(mask)[-1])

    selfplay = HisssEnv(players=2, opponents="self", seat="random")
    with pytest.raises(ConfigError, match="set_learner"):
        selfplay.reset(seed=1)
    selfplay.set_learner(learner)
    seats = set()
    for seed in range(6):
        _play_gym(selfplay, seed)
        seats.add(selfplay.seat)
    assert learner_calls and seats == {0, 1}


def test_opponents_that_cannot_play_are_refused_when_the_env_is_made() -> None:
    from hisss.bots import make_bot  # noqa: PLC0415

    hands = Rules(hand_size=3)
    with pytest.raises(ConfigError, match="'mcts' does not play the hand variant"):
        HisssEnv(rules=hands, opponents="mcts")
    with pytest.raises(ConfigError, match="'expectimax' does not play the hand variant"):
        HisssEnv(rules=hands, opponents=make_bot("expectimax"))
    with pytest.raises(ConfigError, match="an opponent is a bot name"):
        HisssEnv(opponents=[3])
    with pytest.raises(ConfigError, match="a learner is a callable"):
        HisssEnv().set_learner("greedy")  # type: ignore[arg-type]


def test_an_opponent_policy_that_plays_an_illegal_index_raises() -> None:
    e = HisssEnv(players=2, seat=1, opponents=lambda obs, mask: np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match="opponent '<lambda>' of seat 0"):
        e.reset(seed=2)
