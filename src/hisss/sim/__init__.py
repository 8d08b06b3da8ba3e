"""Simulation: whole games between bots, batch statistics and engine benchmarks.

:func:`play_game` plays one game; :func:`simulate` plays a seeded run and summarises it as means
with standard errors; :func:`bench` measures the engine's random-play throughput.
"""

from hisss.sim.bench import bench
from hisss.sim.play import GameOutcome, game_seed, play_game
from hisss.sim.stats import RunningStat, simulate, stat_names

__all__ = [
    "GameOutcome",
    "RunningStat",
    "bench",
    "game_seed",
    "play_game",
    "simulate",
    "stat_names",
]
