"""Simulation: whole games between bots, batch statistics, tournaments and engine benchmarks.

:func:`play_game` plays one game; :func:`simulate` plays a seeded run (a :class:`SimSpec`) and
summarises it as means with standard errors; :func:`tournament` plays bots against each other
over seeded (optionally mirrored) deals on one or more processes and reports win rates with 95%
intervals, openskill ratings and a head-to-head table (:func:`summarize` computes them from a
list of games); :func:`bench` measures the engine's random-play throughput.
"""

from hisss.sim.batch import SimSpec, simulate
from hisss.sim.bench import bench
from hisss.sim.play import GameOutcome, game_seed, play_game
from hisss.sim.ratings import TournamentGame, summarize
from hisss.sim.stats import RunningStat, RunStats, stat_names
from hisss.sim.tournament import tournament

__all__ = [
    "GameOutcome",
    "RunStats",
    "RunningStat",
    "SimSpec",
    "TournamentGame",
    "bench",
    "game_seed",
    "play_game",
    "simulate",
    "stat_names",
    "summarize",
    "tournament",
]
