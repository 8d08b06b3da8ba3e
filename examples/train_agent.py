"""Train a small numpy policy-gradient agent on hisss/Hisss-v0 against random, then evaluate it.

The agent (``hisss.rl.agent.LinearAgent``) starts as a uniformly random player and learns by
REINFORCE, playing seats 1 to P in turn against the ``random`` bot. It is then evaluated with its
most probable action over mirrored deals (every deal played once from every seat), and the script
prints its win share with a 95% interval over deals and writes the learning curve as a PNG.
Run ``python examples/train_agent.py --help`` for the options.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from hisss.rl import HisssEnv
from hisss.rl.agent import FEATURES, BotPolicy, LinearAgent, evaluate, plot_curve, train


def main(argv: list[str] | None = None) -> None:
    """Parse the options, train, evaluate, print the figures and write the plot."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=4000, help="training games (4000)")
    parser.add_argument("--eval-deals", type=int, default=2000, help="evaluation deals (2000)")
    parser.add_argument("--players", type=int, default=2, help="players, 2 to 5 (2)")
    parser.add_argument("--lr", type=float, default=0.1, help="learning rate (0.1)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (1)")
    parser.add_argument(
        "--block", type=int, default=25, help="games in the curve's first block (25), doubling"
    )
    parser.add_argument(
        "--reference",
        default="greedy",
        help="a bot to evaluate the same way for comparison (greedy; 'none' for none)",
    )
    parser.add_argument(
        "--plot",
        type=Path,
        default=Path("rl-learning-curve.png"),
        help="where to write the learning curve (rl-learning-curve.png)",
    )
    args = parser.parse_args(argv)
    if args.episodes < 1 or args.eval_deals < 2 or not 1 <= args.block <= args.episodes:
        parser.error("need --episodes >= 1, --eval-deals >= 2 and 1 <= --block <= --episodes")
    envs = [HisssEnv(players=args.players, seat=s) for s in range(1, args.players + 1)]
    agent = LinearAgent()
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    start = time.perf_counter()
    with Progress(*columns) as bar:
        task = bar.add_task("training", total=args.episodes)
        shares = train(
            agent,
            envs,
            args.episodes,
            seed=args.seed,
            lr=args.lr,
            progress=lambda n: bar.advance(task, n),
        )
        trained = time.perf_counter() - start
        task = bar.add_task("evaluating", total=args.eval_deals)
        result = evaluate(
            agent,
            args.players,
            args.eval_deals,
            seed=args.seed + 1,
            progress=lambda n: bar.advance(task, n),
        )
        reference = None
        if args.reference != "none":
            task = bar.add_task(f"evaluating {args.reference}", total=args.eval_deals)
            bot = BotPolicy(args.reference, seed=args.seed)
            measured = evaluate(
                bot,
                args.players,
                args.eval_deals,
                seed=args.seed + 1,
                progress=lambda n: bar.advance(task, n),
            )
            reference = (args.reference, measured)
    seconds = time.perf_counter() - start
    weights = ", ".join(f"{n} {w:+.2f}" for n, w in zip(FEATURES, agent.weights, strict=True))
    print(f"trained on {args.episodes} games in {trained:.0f} s; weights: {weights}")
    print(f"evaluation against random: {result}")
    if reference is not None:
        print(f"the {reference[0]} bot, evaluated on the same deals: {reference[1]}")
    plot_curve(shares, args.block, result, args.plot, args.players, reference)
    print(f"learning curve written to {args.plot} ({seconds:.0f} s in all)")


if __name__ == "__main__":
    main()
