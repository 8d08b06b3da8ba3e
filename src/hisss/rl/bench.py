"""Learner steps per second: the single environment and the batched compiled one, measured in the
same run (``hisss bench --learners``).

A learner step is one ``step`` of one game: the learner's placement, then the draws and the
opponents' turns up to its next decision. Both environments play uniformly random legal
actions against ``random`` opponents, for about ``seconds`` each. The figures are wall-clock
rates and rates per CPU-second of this process (``time.process_time``): on a machine shared
with other work the second is the one to compare, and the load average is reported beside them.
The batched environment's compile time (or cache load) is measured apart.
"""

from __future__ import annotations

import os
import time
from typing import Any

import numpy as np

from hisss.core import Deck, Rules
from hisss.rl.batched import BatchedHisssEnv
from hisss.rl.gymnasium_env import HisssEnv

#: Games stepped at once by the batched environment in the benchmark.
BATCH = 1024


def _single(seconds: float, players: int, rules: Rules, deck: Deck, space: str) -> dict[str, Any]:
    env = HisssEnv(players=players, rules=rules, deck=deck, space=space)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    steps = 0
    wall, cpu = time.perf_counter(), time.process_time()
    deadline = wall + seconds
    while True:
        for _ in range(50):
            legal = info["legal_actions"]
            action = legal[int(rng.integers(len(legal)))] if len(legal) > 1 else legal[0]
            _, _, done, _, info = env.step(action)
            steps += 1
            if done:
                _, info = env.reset()
        now = time.perf_counter()
        if now >= deadline:
            break
    spent = time.process_time() - cpu
    return {"steps": steps, "per_second": steps / (now - wall), "per_cpu_second": steps / spent}


def _batched(seconds: float, players: int, rules: Rules, deck: Deck) -> dict[str, Any]:
    start = time.perf_counter()
    env = BatchedHisssEnv(num_envs=BATCH, players=players, rules=rules, deck=deck)
    env.reset(seed=0)
    env.step(env.random_actions())  # compiles (or loads from the cache) the step
    compile_seconds = time.perf_counter() - start
    steps = games = 0
    wall, cpu = time.perf_counter(), time.process_time()
    deadline = wall + seconds
    while True:
        for _ in range(10):
            _, _, done, _, _ = env.step(env.random_actions())
            steps += BATCH
            games += int(done.sum())
        now = time.perf_counter()
        if now >= deadline:
            break
    spent = time.process_time() - cpu
    return {
        "steps": steps,
        "games": games,
        "per_second": steps / (now - wall),
        "per_cpu_second": steps / spent,
        "compile_seconds": round(compile_seconds, 2),
    }


def learner_throughput(seconds: float, players: int, rules: Rules, deck: Deck) -> dict[str, Any]:
    """The learner steps per second (wall and CPU) of ``HisssEnv`` (``v0`` and ``v1`` spaces)
    and of :class:`BatchedHisssEnv` with :data:`BATCH` games, with the load average."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    out: dict[str, Any] = {
        "single_v0": _single(seconds, players, rules, deck, "v0"),
        "single_v1": _single(seconds, players, rules, deck, "v1"),
        "batched": _batched(seconds, players, rules, deck),
        "batch": BATCH,
        "load_before": None if load is None else round(load, 2),
        "load_after": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None,
    }
    for part in ("single_v0", "single_v1", "batched"):
        for key in ("per_second", "per_cpu_second"):
            out[part][key] = round(out[part][key])
    return out


__all__ = ["BATCH", "learner_throughput"]
