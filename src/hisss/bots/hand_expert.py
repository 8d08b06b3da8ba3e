"""The expert of the hand variant: a determinized search over the cards it has not seen.

The bot sees only its seat's :class:`~hisss.core.SeatView`. For each of a number of *worlds* it
deals the cards it has not seen at random into the hidden hands and the pile
(:meth:`~hisss.core.SeatView.sample`: every arrangement equally likely), and in each world it plays
every legal play of its hand followed by two rounds of quick play: every seat, itself included,
plays greedily (the most cards over its hand, at random among equal plays) and draws as the rules
say, with the same draws and choices for every play of the world (common random numbers), so the
plays are compared on equal luck. A play's score in a world is the cards this seat took in those
two rounds minus the mean of what each other seat took; the bot plays the play of best total
score over the worlds, at random among equal ones. Two rounds see what the greedy look at one
card misses: the snake left for the next seat to complete, the completer worth keeping in the
hand while a snake grows, and the race for a snake two seats can complete.

Budget and move time: :data:`WORLDS` worlds a move, fewer on a big table, so that the plays
played out in all (candidate plays times plies, over the worlds) stay within :data:`PLAYS`.
With a time limit (the bot's :class:`~hisss.bots.base.Budget` ``seconds``: the ``expert`` level
gives 0.3 s, a safety net for slow machines) no new world starts once the limit has passed, and
at least :data:`MIN_WORLDS` are searched. A forced play is answered at once, without randomness.
The worlds come from the ``rng`` the bot is given, so a seeded game is reproducible (without a
time limit on any machine, as tournaments play it). The move times measured are in
``docs/strategy.md``.

The bot never sees a hidden card: two positions that differ only in where the unseen cards lie
give the same view, so the same choice.
"""

from __future__ import annotations

import random
import time

from hisss.bots.greedy import greedy_action
from hisss.core import Action, HandState, SeatView

#: The most worlds searched per move.
WORLDS = 24
#: The most plays played out in a move, over all worlds and candidate plays.
PLAYS = 1200
#: The fewest worlds searched per move, whatever the time limit.
MIN_WORLDS = 4
#: Rounds of quick play after each candidate play (one round: every seat plays once).
ROUNDS = 2


def play_out(world: HandState, action: Action, plies: int, rng: random.Random, seat: int) -> float:
    """Play ``action`` in ``world``, then ``plies`` greedy plays (with the draws due), and return
    the cards ``seat`` took minus the mean taken by each other seat; ``world`` is given back as it
    was."""
    players = world.players
    gained = [0] * players
    placed = world.push(action)
    steps = 1
    if placed.claimed is not None:
        gained[seat] += len(placed.claimed.cards)
    while plies and not world.is_terminal():
        if world.is_chance_node():
            world.sample_draw(rng)
        else:
            placed = world.push(greedy_action(world, world.legal_actions(), rng))
            plies -= 1
            if placed.claimed is not None:
                gained[placed.seat] += len(placed.claimed.cards)
        steps += 1
    for _ in range(steps):
        world.undo()
    return gained[seat] - (sum(gained) - gained[seat]) / (players - 1)


def expert_play(view: SeatView, rng: random.Random, seconds: float | None = None) -> Action:
    """The play of best total score over the sampled worlds (see the module docstring); with
    ``seconds``, no new world once that many seconds have passed (after :data:`MIN_WORLDS`)."""
    legal = view.legal_actions()
    if len(legal) == 1:
        return legal[0]
    start = time.perf_counter()
    plies = ROUNDS * view.players - 1
    totals = [0.0] * len(legal)
    worlds = max(MIN_WORLDS, min(WORLDS, PLAYS // (len(legal) * (plies + 1))))
    for number in range(worlds):
        world = view.sample(rng)
        seed = rng.getrandbits(64)
        for i, action in enumerate(legal):
            totals[i] += play_out(world, action, plies, random.Random(seed), view.seat)
        if (
            seconds is not None
            and number + 1 >= MIN_WORLDS
            and time.perf_counter() - start > seconds
        ):
            break
    best = max(totals)
    top = [a for a, t in zip(legal, totals, strict=True) if t >= best - 1e-9]
    return top[0] if len(top) == 1 else top[rng.randrange(len(top))]


__all__ = ["MIN_WORLDS", "PLAYS", "ROUNDS", "WORLDS", "expert_play", "play_out"]
