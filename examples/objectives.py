"""Search objectives for three to five players, measured against ``careful``.

The experiments behind the choice in :mod:`hisss.bots.expert` (and the table "An expert for every
table size" in docs/strategy.md): one candidate bot against ``careful`` (or another field bot) in
every other seat, over mirrored deals. Deal ``d`` is dealt as game ``d`` of a tournament with the
same seed; the candidate sits in each seat in turn, the bots drawing from a generator seeded with
the deal and the seat. The figure is the candidate's mean win share and a normal 95% interval over
deals. Run it as::

    python examples/objectives.py best-reply careful --players 3 --deals 1500 --seed 8

Candidates:

* ``careful``: the field bot itself (a control: the fair share, up to chance);
* ``expectimax-0`` and ``expectimax-1``: the evaluation of :mod:`hisss.bots.evaluation` after each
  placement, and a one-draw max-n expectimax over it (:mod:`hisss.bots.expectimax`);
* ``careful-tie``: ``careful``'s best placements, ties broken by the evaluation;
* ``best-reply``: one draw ahead with the next player modelled as ``careful`` (its ties averaged),
  the evaluation at the leaves;
* ``expert-search``: the expert's search and endgame solver, at any table size.

``--objective mean`` scores a seat's value against the mean of the others instead of the best
other (the margin); it is swapped into the search module of every worker for the run.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable
from multiprocessing import get_context

from hisss.bots import Bot, Budget, expectimax, make_bot
from hisss.bots.base import legal_choices
from hisss.bots.careful import careful_candidates
from hisss.bots.evaluation import DEFAULT_EVALUATOR, margin_of, remaining_counts
from hisss.bots.expectimax import ExpectimaxBot, pick_best, search_values
from hisss.bots.expert import ExpertBot
from hisss.core import RAINBOW, Action, State, deal, get_rules
from hisss.core.cards import card_from_code
from hisss.sim.play import game_seed, play_game

RULES = get_rules("classic")


def mean_margin(values: list[float], seat: int) -> float:
    """A seat's value minus the mean of the others'."""
    others = [v for s, v in enumerate(values) if s != seat]
    return values[seat] - sum(others) / len(others)


OBJECTIVES = {"margin": margin_of, "mean": mean_margin}


class CarefulTie(Bot):
    """``careful``'s best placements, ties broken by the evaluation's margin."""

    name = "careful-tie"

    def choose(self, state: State, rng: random.Random) -> Action:
        top = careful_candidates(state, legal_choices(state))
        if len(top) == 1:
            return top[0]
        values, _ = search_values(state, top, DEFAULT_EVALUATOR, Budget(nodes=100_000), 0)
        return pick_best(top, values, rng)


class BestReply(Bot):
    """One draw ahead, the next player modelled as ``careful``, the evaluation at the leaves."""

    name = "best-reply"

    def choose(self, state: State, rng: random.Random) -> Action:
        legal = legal_choices(state)
        if len(legal) == 1:
            return legal[0]
        seat = state.to_move
        counts = remaining_counts(state)
        objective = vars(expectimax)["margin_of"]
        values = []
        for action in legal:
            state.push(action)
            try:
                if state.is_terminal() or state.remaining == 0:
                    values.append(objective(DEFAULT_EVALUATOR.values(state, counts), seat))
                    continue
                total = 0.0
                for code, n in enumerate(counts):
                    if not n:
                        continue
                    state.push_draw(card_from_code(code))
                    counts[code] -= 1
                    try:
                        replies = state.legal_actions()
                        top = careful_candidates(state, replies) if len(replies) > 1 else replies
                        part = 0.0
                        for reply in top:
                            state.push(reply)
                            part += objective(DEFAULT_EVALUATOR.values(state, counts), seat)
                            state.undo()
                        total += n * part / len(top)
                    finally:
                        counts[code] += 1
                        state.undo()
                values.append(total / state.remaining)
            finally:
                state.undo()
        return pick_best(legal, values, rng)


def make(name: str) -> Bot:
    """A candidate (or field) bot by name."""
    candidates: dict[str, Callable[[], Bot]] = {
        "expectimax-0": lambda: ExpectimaxBot(depth=0),
        "expectimax-1": lambda: ExpectimaxBot(depth=1),
        "careful-tie": CarefulTie,
        "best-reply": BestReply,
        "expert-search": lambda: ExpertBot(depth=1, solver_cards=7, many_players=9),
    }
    factory = candidates.get(name)
    return factory() if factory is not None else make_bot(name)


def use_objective(name: str) -> None:
    """Swap the objective into the search module (run in every worker)."""
    vars(expectimax)["margin_of"] = OBJECTIVES[name]


def run_deal(task: tuple[str, str, int, int, int]) -> float:
    """The candidate's mean win share over the seats of one deal."""
    candidate, field, players, seed, number = task
    order = deal(RAINBOW, random.Random(game_seed(seed, number)))
    share = 0.0
    for seat in range(players):
        bots = [make(field) for _ in range(players)]
        bots[seat] = make(candidate)
        rng = random.Random(game_seed(seed * 7919 + seat, number))
        winners = play_game(RULES, RAINBOW, bots, rng, cards=order).result.winners
        share += 1 / len(winners) if seat in winners else 0.0
    return share / players


def measure(
    candidate: str,
    field: str,
    players: int,
    deals: int,
    seed: int,
    objective: str = "margin",
    workers: int = 2,
) -> tuple[float, float, float]:
    """The candidate's mean win share and its 95% interval over ``deals`` mirrored deals.

    With one worker the deals are played in this process, the objective swapped in for the run
    only.
    """
    tasks = [(candidate, field, players, seed, d) for d in range(1, deals + 1)]
    if workers == 1:
        kept = vars(expectimax)["margin_of"]
        use_objective(objective)
        try:
            shares = [run_deal(task) for task in tasks]
        finally:
            vars(expectimax)["margin_of"] = kept
    else:
        context = get_context("spawn")
        with context.Pool(workers, use_objective, (objective,)) as pool:
            shares = pool.map(run_deal, tasks, chunksize=10)
    mean = sum(shares) / len(shares)
    spread = math.sqrt(sum((x - mean) ** 2 for x in shares) / (len(shares) - 1))
    half = 1.96 * spread / math.sqrt(len(shares))
    return mean, mean - half, mean + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("candidate")
    parser.add_argument("field")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--objective", choices=sorted(OBJECTIVES), default="margin")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    start = time.perf_counter()
    mean, low, high = measure(
        args.candidate,
        args.field,
        args.players,
        args.deals,
        args.seed,
        args.objective,
        args.workers,
    )
    print(
        f"{args.candidate} ({args.objective}) against {args.field}, {args.players} players, "
        f"{args.deals} deals, seed {args.seed}: {mean:.4f} "
        f"(95% interval {low:.4f} to {high:.4f}; fair share "
        f"{1 / args.players:.4f}) in {time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
