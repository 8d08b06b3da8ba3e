"""Train a small numpy policy-gradient agent on hisss/Hisss-v0 against random, then evaluate it.

The agent (``hisss.rl.agent.LinearAgent``) starts as a uniformly random player and learns by
REINFORCE, playing seats 0 to P-1 in turn against the ``random`` bot. At checkpoints (0 games, then
roughly log-spaced) training pauses and the softmax policy it is trained with plays a fixed set of
held-out mirrored deals (every deal once from every seat, the same deals at every checkpoint,
drawn apart from the training games), and the reference bot plays the same deals. After training
the agent plays its most probable action over another, larger set of mirrored deals. The script
prints every win share with a 95% interval over deals and writes the learning curve as a PNG.
Run ``python examples/train_agent.py --help`` for the options.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from hisss.rl import HisssEnv
from hisss.rl.agent import (
    FEATURES,
    BotPolicy,
    Evaluation,
    LinearAgent,
    SamplingPolicy,
    evaluate,
    plot_curve,
    train,
)

DEFAULT_CHECKPOINTS = "0,10,25,50,100,250,500,1000,2000,4000"


def _checkpoints(text: str, episodes: int) -> list[int]:
    """The sorted checkpoints of ``text`` up to ``episodes``, with ``episodes`` itself."""
    values = {int(v) for v in text.split(",") if v.strip()}
    if any(v < 0 for v in values):
        raise ValueError(text)
    return sorted({v for v in values if v <= episodes} | {episodes})


def main(argv: list[str] | None = None) -> None:
    """Parse the options, train with checkpoint evaluations, evaluate, print and plot."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=4000, help="training games (4000)")
    parser.add_argument(
        "--checkpoints",
        default=DEFAULT_CHECKPOINTS,
        help="games played at which to evaluate the training policy, comma-separated; those past"
        f" --episodes are dropped and --episodes is always added ({DEFAULT_CHECKPOINTS})",
    )
    parser.add_argument(
        "--checkpoint-deals",
        type=int,
        default=300,
        help="held-out mirrored deals played at every checkpoint (300)",
    )
    parser.add_argument(
        "--eval-deals", type=int, default=2000, help="mirrored deals of the final evaluation (2000)"
    )
    parser.add_argument("--players", type=int, default=2, help="players, 2 to 5 (2)")
    parser.add_argument("--lr", type=float, default=0.1, help="learning rate (0.1)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (1)")
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
    if args.episodes < 1 or args.eval_deals < 2 or args.checkpoint_deals < 2:
        parser.error("need --episodes >= 1, --eval-deals >= 2 and --checkpoint-deals >= 2")
    try:
        checkpoints = _checkpoints(args.checkpoints, args.episodes)
    except ValueError:
        parser.error(f"--checkpoints: not a list of games >= 0: {args.checkpoints!r}")
    # Seeds: training args.seed, final deals args.seed + 1, held-out checkpoint deals
    # args.seed + 2, the sampling policy's draws at every checkpoint args.seed + 3.
    held_out = args.seed + 2
    envs = [HisssEnv(players=args.players, seat=s) for s in range(args.players)]
    agent = LinearAgent()
    curve: list[tuple[int, Evaluation]] = []
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    start = time.perf_counter()
    with Progress(*columns) as bar:
        train_task = bar.add_task("training", total=args.episodes)
        check_task = bar.add_task("checkpoints", total=len(checkpoints) * args.checkpoint_deals)
        checking = 0.0

        def checkpoint(games: int) -> None:
            nonlocal checking
            began = time.perf_counter()
            bar.update(check_task, description=f"checkpoint at {games} games")
            policy = SamplingPolicy(agent, seed=args.seed + 3)
            curve.append(
                (
                    games,
                    evaluate(
                        policy,
                        args.players,
                        args.checkpoint_deals,
                        seed=held_out,
                        progress=lambda n: bar.advance(check_task, n),
                    ),
                )
            )
            checking += time.perf_counter() - began

        train(
            agent,
            envs,
            args.episodes,
            seed=args.seed,
            lr=args.lr,
            progress=lambda n: bar.advance(train_task, n),
            checkpoints=set(checkpoints),
            on_checkpoint=checkpoint,
        )
        trained = time.perf_counter() - start - checking
        task = bar.add_task("final evaluation", total=args.eval_deals)
        result = evaluate(
            agent,
            args.players,
            args.eval_deals,
            seed=args.seed + 1,
            progress=lambda n: bar.advance(task, n),
        )
        reference = held_out_reference = None
        if args.reference != "none":
            name = args.reference
            task = bar.add_task(f"{name}, checkpoint deals", total=args.checkpoint_deals)
            held_out_reference = evaluate(
                BotPolicy(name, seed=args.seed),
                args.players,
                args.checkpoint_deals,
                seed=held_out,
                progress=lambda n: bar.advance(task, n),
            )
            task = bar.add_task(f"{name}, final deals", total=args.eval_deals)
            reference = evaluate(
                BotPolicy(name, seed=args.seed),
                args.players,
                args.eval_deals,
                seed=args.seed + 1,
                progress=lambda n: bar.advance(task, n),
            )
    seconds = time.perf_counter() - start
    weights = ", ".join(f"{n} {w:+.2f}" for n, w in zip(FEATURES, agent.weights, strict=True))
    print(f"trained on {args.episodes} games in {trained:.0f} s; weights: {weights}")
    print(
        f"checkpoints ({checking:.0f} s), the training (sampling) policy against random"
        f" on the same {args.checkpoint_deals} held-out mirrored deals:"
    )
    for games, evaluation in curve:
        print(f"  after {games} games: {evaluation}")
    if held_out_reference is not None:
        print(f"  the {args.reference} bot on these deals: {held_out_reference}")
    print(f"final evaluation against random, most probable action: {result}")
    if reference is not None:
        print(f"the {args.reference} bot, evaluated on the same deals: {reference}")
    plot_curve(
        curve,
        args.plot,
        args.players,
        final=(args.episodes, result),
        reference=None if held_out_reference is None else (args.reference, held_out_reference),
    )
    print(f"learning curve written to {args.plot} ({seconds:.0f} s in all)")


if __name__ == "__main__":
    main()
