"""CFR+ solves Hisss with hands on a small deck; the bots' exploitability there.

The game is ``python_hisss`` on a deck file (``docs/decks/six.toml`` by default: six cards) with
hands (2 cards by default), two players: small enough for OpenSpiel's exact algorithms. CFR+
(``open_spiel.python.algorithms.cfr.CFRPlusSolver``) runs for ``--iterations``, and the NashConv
of its average policy (the sum over the players of what a best response gains against it; 0 at
a Nash equilibrium) is printed at each checkpoint. Then each bot of the hand variant, as an exact
policy (:class:`hisss.rl.openspiel.HandBotPolicy`), is measured the same way: its
exploitability is what a best response wins against it, in the game's returns (a win is +1, a
loss -1), averaged over the two seats. Run ``python examples/openspiel_cfr.py --help`` for the
options.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pyspiel
from open_spiel.python.algorithms import cfr, exploitability

import hisss.rl.openspiel

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> None:
    """Parse the options, run CFR+ and measure the bots; print every figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--deck", default=str(ROOT / "docs" / "decks" / "six.toml"), help="a deck name or file"
    )
    parser.add_argument("--hand-size", type=int, default=2, help="cards in a hand (default 2)")
    parser.add_argument("--iterations", type=int, default=60, help="CFR+ iterations (default 60)")
    parser.add_argument(
        "--checkpoints",
        default="1,5,10,20,40,60",
        help="iterations after which NashConv is printed (default 1,5,10,20,40,60)",
    )
    parser.add_argument(
        "--bots",
        default="random,casual,greedy,careful,expert",
        help="bots to measure, comma-separated (default random,casual,greedy,careful,expert)",
    )
    args = parser.parse_args(argv)
    if args.iterations < 1:
        parser.error("--iterations must be at least 1")
    try:
        checkpoints = {int(c) for c in args.checkpoints.split(",") if c.strip()}
    except ValueError:
        parser.error(f"--checkpoints: whole numbers separated by commas, not {args.checkpoints!r}")
    checkpoints.add(args.iterations)
    game = pyspiel.load_game(
        "python_hisss", {"deck": args.deck, "hand_size": args.hand_size, "players": 2}
    )
    start = time.perf_counter()
    solver = cfr.CFRPlusSolver(game)
    for i in range(1, args.iterations + 1):
        solver.evaluate_and_update_policy()
        if i in checkpoints:
            conv = exploitability.nash_conv(game, solver.average_policy())
            print(
                f"CFR+ after {i} iterations: NashConv {conv:.5f} "
                f"({time.perf_counter() - start:.0f} s)",
                flush=True,
            )
    for name in [n.strip() for n in args.bots.split(",") if n.strip()]:
        bot = hisss.rl.openspiel.HandBotPolicy(game, name)
        conv = exploitability.nash_conv(game, bot)
        print(f"{name}: NashConv {conv:.4f}, exploitability {conv / 2:.4f}", flush=True)


if __name__ == "__main__":
    main()
