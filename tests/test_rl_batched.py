"""The batched compiled environment: the same games as ``HisssEnv`` with the ``v1`` spaces for the
same seeds (whole trajectories compared), autoreset, masks never empty, and bad settings.

Compiling the kernel takes minutes on a busy two-core machine the first time (numba caches it
on disk afterwards), so the tests that step it are marked ``slow``; the settings are checked
without it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from hisss.bots.turns import SplitMix
from hisss.core import ConfigError, IllegalActionError, Rules
from hisss.rl import HisssEnv
from hisss.rl.batched import BatchedHisssEnv
from support.engine_games import EngineGame

CONFIGS: list[dict[str, Any]] = [
    {"players": 2, "opponents": "random"},
    {"players": 3, "opponents": ["greedy", "random"], "seat": 1},
    {"players": 2, "rules": Rules(hand_size=3), "opponents": "greedy"},
    {"players": 3, "rules": Rules(hand_size=2), "opponents": "random", "seat": "random"},
    {"players": 2, "opponents": "greedy", "skip_forced": True, "normalize": True},
    {"players": 2, "rules": Rules(hand_size=3, hands_seen_by_all=True), "opponents": "greedy"},
]


def _check_same(
    batched: BatchedHisssEnv,
    singles: list[HisssEnv],
    obs: Any,
    infos: Any,
    single_out: list[tuple[Any, Any]],
) -> None:
    for g, (o, info) in enumerate(single_out):
        np.testing.assert_array_equal(obs[g], o, err_msg=f"game {g} observation")
        np.testing.assert_array_equal(
            np.flatnonzero(infos["action_mask"][g]),
            sorted(info["legal_actions"]),
            err_msg=f"game {g}",
        )
        assert batched.seats[g] == singles[g].seat


@pytest.mark.slow
@pytest.mark.system
@pytest.mark.parametrize("config", CONFIGS, ids=range(len(CONFIGS)))
def test_the_same_games_as_the_single_environment(config: dict[str, Any]) -> None:
    n = 3
    batched = BatchedHisssEnv(num_envs=n, copy=True, **config)
    singles = [HisssEnv(space="v1", **config) for _ in range(n)]
    obs, infos = batched.reset(seed=40)
    out = [s.reset(seed=40 + g) for g, s in enumerate(singles)]
    _check_same(batched, singles, obs, infos, out)
    rng = np.random.default_rng(1)
    ends = 0
    for _ in range(150):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in infos["action_mask"]])
        obs, reward, done, truncated, infos = batched.step(actions)
        assert not truncated.any() and (infos["action_mask"].sum(axis=1) >= 1).all()
        out = []
        for g, single in enumerate(singles):
            o, r, d, _, info = single.step(int(actions[g]))
            assert float(reward[g]) == pytest.approx(r) and bool(done[g]) == d, f"game {g}"
            if config.get("skip_forced"):
                assert infos["forced"][g] == info["forced"] or d
            if d:
                ends += 1
                winners = sum(1 << s for s in info["result"].winners)
                assert infos["winners"][g] == winners
                o, info = single.reset(seed=int(batched.game_seeds[g]))
            out.append((o, info))
        _check_same(batched, singles, obs, infos, out)
    assert ends >= 2


@pytest.mark.slow
@pytest.mark.system
@pytest.mark.parametrize("config", [CONFIGS[1], CONFIGS[2], CONFIGS[3]], ids=[1, 2, 3])
def test_the_kernels_bots_make_the_single_steps_decisions(config: dict[str, Any]) -> None:
    # The kernel's random and greedy bots draw on decision_rng(seed, turn) as the Python bots
    # do: each game, rebuilt in the engine with next_decision(bot, state, seed) for every
    # opponent's move, gives the kernel's observations, masks and rewards at every decision.
    n = 4
    batched = BatchedHisssEnv(num_envs=n, copy=True, **config)
    obs, infos = batched.reset(seed=70)
    seat = config.get("seat", 0)

    def rebuilt(seed: int) -> EngineGame:
        return EngineGame(
            seed, batched.players, batched.rules, batched.deck, seat, batched.opponents
        )

    engines = [rebuilt(70 + g) for g in range(n)]
    pick = np.random.default_rng(2)
    moves = ends = 0
    for _ in range(120):
        for g, engine in enumerate(engines):
            assert batched.seats[g] == engine.seat
            np.testing.assert_array_equal(obs[g], engine.observation(), err_msg=f"game {g}")
            assert np.flatnonzero(infos["action_mask"][g]).tolist() == engine.legal()
        actions = np.array([pick.choice(np.flatnonzero(m)) for m in infos["action_mask"]])
        obs, reward, done, _, infos = batched.step(actions)
        for g, engine in enumerate(engines):
            assert float(reward[g]) == pytest.approx(engine.step(int(actions[g])))
            assert bool(done[g]) == engine.state.is_terminal()
            if done[g]:
                ends += 1
                moves += len(engine.moves)
                engines[g] = rebuilt(int(batched.game_seeds[g]))
    assert ends >= 4 and moves > 100


@pytest.mark.slow
@pytest.mark.system
def test_random_actions_and_illegal_ones() -> None:
    batched = BatchedHisssEnv(num_envs=64, opponents="greedy")
    batched.reset(seed=3)
    games = 0
    for _ in range(200):
        _, _, done, _, _ = batched.step(batched.random_actions(seed=5))
        games += int(done.sum())
        assert batched.action_masks().any(axis=1).all()
    assert games > 64
    masks = batched.action_masks().copy()
    bad = np.array([np.flatnonzero(~m)[0] for m in masks])
    with pytest.raises(IllegalActionError, match="64 of the actions are not legal"):
        batched.step(bad)
    np.testing.assert_array_equal(batched.action_masks(), masks)  # nothing changed


def test_splitmix_is_seeded_by_the_game_seed() -> None:
    a, b = SplitMix(11), SplitMix(11)
    assert [a.randrange(50) for _ in range(20)] == [b.randrange(50) for _ in range(20)]
    assert SplitMix(12).random() != SplitMix(11).random()
    with pytest.raises(ValueError, match="non-empty range"):
        a.randrange(0)


def test_bad_batched_settings() -> None:
    with pytest.raises(ConfigError, match="num_envs must be a whole number"):
        BatchedHisssEnv(num_envs=0)
    with pytest.raises(ConfigError, match="'careful' is not played in the compiled kernel"):
        BatchedHisssEnv(num_envs=2, opponents="careful")
    with pytest.raises(ConfigError, match="opponents of the batched environment are bot names"):
        BatchedHisssEnv(num_envs=2, opponents=[print])
    with pytest.raises(ConfigError, match="2 names for 1 other seats"):
        BatchedHisssEnv(num_envs=2, opponents=["random", "greedy"])
    with pytest.raises(ConfigError, match="seat must be a seat number"):
        BatchedHisssEnv(num_envs=2, seat=2)


def test_the_batched_kernel_names_the_steps_it_was_compiled_against() -> None:
    import hashlib  # noqa: PLC0415
    from pathlib import Path  # noqa: PLC0415

    steps = Path(__file__).resolve().parent.parent / "src" / "hisss" / "kernel" / "steps.py"
    digest = hashlib.sha256(steps.read_bytes()).hexdigest()
    for name in ("batch.py", "batch_rules.py", "batch_observe.py"):
        assert f'STEPS_DIGEST = "{digest}"' in (steps.parent / name).read_text(), (
            f"kernel/steps.py changed: set STEPS_DIGEST in kernel/{name} to its new SHA-256, "
            "so that numba compiles the batched environment afresh"
        )


@pytest.mark.slow
@pytest.mark.system
def test_hisss_bench_measures_learner_steps() -> None:
    from hisss.cli.app import app  # noqa: PLC0415
    from support.cli import CliRunner  # noqa: PLC0415

    result = CliRunner().invoke(app, ["bench", "-t", "0.2", "--learners", "--json"])
    assert result.exit_code == 0, result.output
    import json  # noqa: PLC0415

    learners = json.loads(result.output)["learners"]
    for key in ("single_v0", "single_v1", "batched"):
        assert learners[key]["steps"] > 0 and learners[key]["per_cpu_second"] > 0
    assert learners["batch"] == 1024 and learners["batched"]["games"] > 0


@pytest.mark.slow
@pytest.mark.system
def test_made_by_gymnasium_make_vec() -> None:
    import gymnasium  # noqa: PLC0415

    vec = gymnasium.make_vec(
        "hisss/Hisss-v1", num_envs=8, vectorization_mode="vector_entry_point", opponents="greedy"
    )
    assert isinstance(vec, BatchedHisssEnv) and vec.num_envs == 8
    obs, infos = vec.reset(seed=1)
    assert obs.shape == (8, 355) and (infos["action_mask"].sum(axis=1) >= 1).all()
