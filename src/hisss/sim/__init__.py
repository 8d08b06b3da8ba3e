"""Simulation: whole games between bots, batch statistics, tournaments and engine benchmarks.

:func:`play_game` plays one game; :func:`simulate` plays a seeded run and summarises it as means
with standard errors; :func:`tournament` plays bots against each other over seeded (optionally
mirrored) deals on one or more processes and reports win rates with 95% intervals, openskill
ratings and a head-to-head table (:func:`summarize` computes them from a list of games);
:func:`bench` measures the engine's random-play throughput. Their reports are typed values
(:mod:`hisss.sim.reports`) whose ``to_dict()`` is the JSON the commands print.
"""

from hisss.sim.batch import SimSpec, simulate
from hisss.sim.bench import bench
from hisss.sim.play import GameOutcome, game_seed, play_game
from hisss.sim.ratings import TournamentGame, summarize
from hisss.sim.reports import BenchReport, SimulationReport, TournamentReport
from hisss.sim.stats import RunningStat, RunStats, stat_names
from hisss.sim.tournament import tournament

__all__ = [
    "BenchReport",
    "GameOutcome",
    "RunStats",
    "RunningStat",
    "SimSpec",
    "SimulationReport",
    "TournamentGame",
    "TournamentReport",
    "bench",
    "game_seed",
    "play_game",
    "simulate",
    "stat_names",
    "summarize",
    "tournament",
]
