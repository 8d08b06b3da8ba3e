"""OpenSpiel's Python MCTS bot plays Hisss against a uniformly random bot.

The game is ``python_hisss`` (registered by ``import hisss.rl.openspiel``); the searching bot is
``open_spiel.python.algorithms.mcts.MCTSBot`` with a random-rollout evaluator, which handles the
draws as chance nodes by sampling them with their exact probabilities. The seats alternate from
game to game. Run ``python examples/openspiel_mcts.py --help`` for the options.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms.mcts import MCTSBot, RandomRolloutEvaluator
from open_spiel.python.bots.uniform_random import UniformRandomBot

import hisss.rl.openspiel  # noqa: F401 (registers python_hisss)


def play(game: pyspiel.Game, bots: list[pyspiel.Bot], rng: np.random.RandomState) -> list[float]:
    """Play one game between ``bots`` (one per player); the chance nodes are sampled with
    ``rng``. Returns each player's return."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return [float(r) for r in state.returns()]


def main(argv: list[str] | None = None) -> None:
    """Parse the options, play the games and print each result and the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games to play (default 4)")
    parser.add_argument(
        "--simulations", type=int, default=100, help="MCTS simulations per move (default 100)"
    )
    parser.add_argument("--rollouts", type=int, default=1, help="random rollouts per leaf")
    parser.add_argument("--players", type=int, default=2, help="players, 2 to 5 (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.simulations < 1 or args.rollouts < 1:
        parser.error("--games, --simulations and --rollouts must be at least 1")
    game = pyspiel.load_game("python_hisss", {"players": args.players})
    rng = np.random.RandomState(args.seed)
    evaluator = RandomRolloutEvaluator(n_rollouts=args.rollouts, random_state=rng)
    mcts = MCTSBot(game, 2.0, args.simulations, evaluator, random_state=rng)
    total = 0.0
    wins = losses = 0
    start = time.perf_counter()
    for g in range(args.games):
        seat = g % args.players
        bots: list[pyspiel.Bot] = [UniformRandomBot(p, rng) for p in range(args.players)]
        bots[seat] = mcts
        returns = play(game, bots, rng)
        total += returns[seat]
        wins += returns[seat] > 0
        losses += returns[seat] < 0
        print(f"game {g + 1}: MCTS in seat {seat + 1}, returns {returns}")
    seconds = time.perf_counter() - start
    print(
        f"MCTS ({args.simulations} simulations a move) against random: won {wins}, lost "
        f"{losses}, shared {args.games - wins - losses} of {args.games} games; mean return "
        f"{total / args.games:+.2f}; {seconds:.1f} s"
    )


if __name__ == "__main__":
    main()
