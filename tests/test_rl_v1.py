"""The compact ``v1`` spaces: sizes, exact masks (overflow included), normalised observations,
forced moves skipped, ``action_masks()`` and never an all-zero mask, alone and under Gymnasium's
``SyncVectorEnv``."""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test

from hisss.core import Rules, new_game
from hisss.rl import GYM_ID_V1, HisssEnv, env, raw_env
from hisss.rl.versions import V1_OVERFLOW, V1_SNAKES, Space
from test_rl_envs import API_TEST_NAME_WARNINGS, _no_warnings_but

CONFIGS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3, "rules": Rules(hand_size=3)},
    {"players": 2, "rules": Rules(hand_size=2), "deck": "all-pairs"},
]


def _play(e: HisssEnv, seed: int) -> list[dict[str, Any]]:
    """A game with random legal actions; every step's info."""
    rng = np.random.default_rng(seed)
    _, info = e.reset(seed=seed)
    infos = [info]
    done = False
    while not done:
        mask = e.action_masks()
        assert mask.dtype == np.bool_ and mask.any()
        np.testing.assert_array_equal(np.flatnonzero(mask), info["legal_actions"])
        action = np.array(rng.choice(info["legal_actions"]))  # a 0-d array, as predict gives
        _, _, done, _, info = e.step(action)
        infos.append(info)
    return infos


@pytest.mark.parametrize("config", CONFIGS, ids=["classic", "hands-3p", "hands-all-pairs"])
def test_v1_masks_are_exactly_the_legal_actions(config: dict[str, Any]) -> None:
    e = HisssEnv(space="v1", **config)
    assert e.action_space.n * 8 < HisssEnv(**config).action_space.n
    for seed in range(4):
        _, info = e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        done = False
        while not done:
            legal = info["legal_actions"]
            view = e.view
            engine = view.legal_actions()
            assert sorted(str(e.index_to_action(int(i))) for i in legal) == sorted(
                str(a) for a in engine
            )
            assert all(e.action_to_index(a) in legal for a in engine)
            _, _, done, _, info = e.step(int(rng.choice(legal)))
        assert "result" in info and info["action_mask"].tolist().count(1) == 1


def test_v1_sizes() -> None:
    assert HisssEnv(space="v1", players=2).action_space.n == 6017
    assert HisssEnv(space="v1", rules=Rules(hand_size=3)).action_space.n == 6653
    assert HisssEnv(space="v1").observation_space.shape == (355,)
    made = gymnasium.make(GYM_ID_V1).unwrapped
    assert isinstance(made, HisssEnv) and made.space.version == "v1"


def test_overflow_indices_name_the_legal_actions_beyond_the_sixteenth_snake() -> None:
    rules = Rules(forced_placement=False)
    space = Space(rules, new_game(2, rules).deck, players=2, version="v1")
    state = new_game(2, rules)
    rng = random.Random(3)
    overflowed = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.sample_draw(rng)
            continue
        legal = space.legal(state)
        actions = state.legal_actions()
        beyond = [i for i in legal if i >= space.codec.size]
        named = [a for a in actions if max(a.snake, a.snake2) < V1_SNAKES]
        assert len(legal) == len(named) + min(len(actions) - len(named), V1_OVERFLOW)
        assert [legal[i] for i in beyond] == [a for a in actions if a not in named][:V1_OVERFLOW]
        assert beyond == list(range(space.codec.size, space.codec.size + len(beyond)))
        for i in beyond:
            assert space.index_to_action(i, legal) == legal[i]
            assert max(legal[i].snake, legal[i].snake2) >= V1_SNAKES
        overflowed += bool(beyond)
        # Start a new snake whenever possible, so that the table grows past 16 snakes.
        new = [a for a in actions if a.kind.value == "new"]
        state.push(new[0] if new else rng.choice(actions))
    assert overflowed > 5
    with pytest.raises(ValueError, match="names no action"):
        space.index_to_action(space.size - 1, {})


@pytest.mark.parametrize("config", CONFIGS, ids=["classic", "hands-3p", "hands-all-pairs"])
def test_normalised_observations_lie_between_0_and_1(config: dict[str, Any]) -> None:
    e = HisssEnv(space="v1", normalize=True, **config)
    raw = HisssEnv(space="v1", **config)
    assert e.observation_space.high.max() == 1.0
    for seed in range(3):
        obs, info = e.reset(seed=seed)
        raw_obs, _ = raw.reset(seed=seed)
        rng = np.random.default_rng(seed)
        done = False
        while not done:
            assert e.observation_space.contains(obs)
            np.testing.assert_allclose(obs * e.space.highs(e.deck, e.rules), raw_obs, atol=1e-4)
            action = int(rng.choice(info["legal_actions"]))
            obs, _, done, _, info = e.step(action)
            raw_obs, *_ = raw.step(action)


def test_skip_forced_never_asks_for_a_forced_placement() -> None:
    e = HisssEnv(space="v1", skip_forced=True, opponents="greedy")
    asked = forced = 0
    for seed in range(5):
        infos = _play(e, seed)
        for info in infos[:-1]:
            assert len(info["legal_actions"]) >= 2
        asked += len(infos) - 1
        forced += sum(info["forced"] for info in infos)
    assert forced > 0 and asked > 0


def test_the_same_game_with_and_without_skipping_forced_placements() -> None:
    """Skipping plays the forced placements as the learner would have: same seed, same game."""
    plain, skipping = HisssEnv(space="v1"), HisssEnv(space="v1", skip_forced=True)
    for seed in range(3):
        _, info = plain.reset(seed=seed)
        _, info2 = skipping.reset(seed=seed)
        done = False
        while not done:
            legal = info["legal_actions"]
            if len(legal) == 1:
                _, _, done, _, info = plain.step(int(legal[0]))
                continue
            np.testing.assert_array_equal(legal, info2["legal_actions"])
            choice = int(legal[-1])
            _, r1, done, _, info = plain.step(choice)
            _, r2, done2, _, info2 = skipping.step(choice)
            if done or done2:
                # the rest of the game may be forced: play it out in the plain env
                while not done:
                    _, r1, done, _, info = plain.step(int(info["legal_actions"][0]))
                assert done2 and r1 == r2
        assert info["result"] == info2["result"]


def test_no_all_zero_mask_under_sync_vector_env_autoreset() -> None:
    vec = gymnasium.vector.SyncVectorEnv(
        [lambda: HisssEnv(space="v1", opponents="random") for _ in range(4)]
    )
    _, infos = vec.reset(seed=1)
    rng = np.random.default_rng(1)
    ends = 0
    for _ in range(400):
        masks = infos["action_mask"]
        assert masks.shape == (4, 6017) and (masks.sum(axis=1) >= 1).all()
        called = np.stack(vec.call("action_masks"))
        assert called.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        _, _, terminated, _, infos = vec.step(actions)
        ends += int(terminated.sum())
    assert ends >= 10
    vec.close()


def test_pettingzoo_v1_passes_the_api_test_and_lists_legal_actions() -> None:
    _no_warnings_but(
        API_TEST_NAME_WARNINGS,
        lambda: api_test(env(players=3, space="v1", normalize=True), num_cycles=100),
    )
    e = raw_env(players=2, rules=Rules(hand_size=3), space="v1")
    assert e.metadata["name"] == "hisss_v1" and e.action_space("player_0").n == 6653
    e.reset(seed=2)
    obs, _, _, _, info = e.last()
    np.testing.assert_array_equal(np.flatnonzero(obs["action_mask"]), info["legal_actions"])


def test_bad_space_options() -> None:
    from hisss.core import ConfigError  # noqa: PLC0415

    with pytest.raises(ConfigError, match="space must be one of v0, v1"):
        HisssEnv(space="v2")
    with pytest.raises(ConfigError, match="normalize must be true or false"):
        HisssEnv(normalize=1)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="skip_forced must be true or false"):
        HisssEnv(skip_forced="yes")  # type: ignore[arg-type]
