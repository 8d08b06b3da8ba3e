"""A small policy-gradient agent in numpy, trained from scratch on ``hisss/Hisss-v0``.

The policy is a linear softmax over the legal actions: each legal index of the environment's
action mask is decoded to an engine action (:meth:`HisssEnv.index_to_action`) and described by a
few numbers, :data:`FEATURES`, computed on the public position:

* ``claim``: the cards the action takes now ("Hisss!"), over 10;
* ``offer``: the expected best claim of the next draw after the action, over the exact remaining
  cards (what the next player can hope to take), over 10;
* ``new``, ``cap``, ``extend``, ``join``: the kind of placement (one-hot);
* ``length``: the length of the snake the card ends up in, if it stays on the table, over 10;
* ``snakes``: the number of snakes on the table after the action, over 10.

The probability of an action is ``exp(w . f(a)) / sum_b exp(w . f(b))``. The weights start at zero
(a uniformly random player) and learn by REINFORCE with a running-mean baseline: after each game,
``w += lr * (G - baseline) * sum_t (f(a_t) - E_pi[f])``, where ``G`` is the game's reward. The
agent knows nothing of the rules beyond these numbers: that taking cards is good and offering them
is bad is what it learns.

:func:`evaluate` plays a policy over mirrored deals, each deal once from every seat, and gives the
win share with a 95% interval computed over deals: the agent itself plays its most probable action
(the greedy policy), :class:`SamplingPolicy` the softmax policy it is trained with (uniformly
random over the legal actions while the weights are zero). :func:`train` can stop at checkpoints
(numbers of games played, 0 included) to have the current policy evaluated, without changing the
course of training.

>>> envs = [HisssEnv(players=2, seat=0), HisssEnv(players=2, seat=1)]
>>> agent = LinearAgent()
>>> seen = []
>>> curve = train(agent, envs, episodes=3, seed=1, checkpoints=[0, 2], on_checkpoint=seen.append)
>>> len(curve), agent.weights.shape, seen
(3, (8,), [0, 2])
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from hisss.bots import make_bot
from hisss.bots.features import claim_of, claim_profile, expected_claim, remaining_weights
from hisss.core import Action, ActionKind, JoinClaim, SeatView, State, deal
from hisss.rl.gymnasium_env import HisssEnv

#: The names of the numbers describing an action, in order.
FEATURES: tuple[str, ...] = ("claim", "offer", "new", "cap", "extend", "join", "length", "snakes")
_KIND_SLOT = {ActionKind.NEW: 2, ActionKind.CAP: 3, ActionKind.EXTEND: 4, ActionKind.JOIN: 5}

Vector = npt.NDArray[np.float64]


def action_features(state: State, action: Action) -> Vector:
    """The :data:`FEATURES` of playing the legal ``action`` in ``state`` (a decision point)."""
    out = np.zeros(len(FEATURES))
    out[0] = claim_of(state, action) / 10
    after = state.copy()
    after.push(action)
    if after.remaining:
        profile = claim_profile(after.table, after.rules.join_claim is JoinClaim.ALWAYS)
        offer = expected_claim(profile, remaining_weights(after)) / after.remaining
        out[1] = offer / 10
    out[_KIND_SLOT[action.kind]] = 1.0
    if action.kind is not ActionKind.NEW:
        touched = min(i for i, _ in action.ends)
        if out[0] == 0 and touched < len(after.table):
            out[6] = after.table[touched].length / 10
    else:
        out[6] = 0.1
    out[7] = len(after.table) / 10
    return out


class LinearAgent:
    """A linear softmax policy over :data:`FEATURES`; see the module docstring."""

    def __init__(self, weights: Sequence[float] | None = None) -> None:
        self.weights: Vector = (
            np.zeros(len(FEATURES)) if weights is None else np.asarray(weights, dtype=np.float64)
        )

    def probabilities(self, features: Vector) -> Vector:
        """The policy over the rows of ``features`` (one row per legal action)."""
        logits = features @ self.weights
        logits -= logits.max()
        p: Vector = np.exp(logits)
        p /= p.sum()
        return p

    def describe(self, env: HisssEnv, mask: npt.NDArray[np.int8]) -> tuple[list[int], Vector]:
        """The legal indices of ``mask`` and their features, from what the learning seat of
        ``env`` may know (:attr:`HisssEnv.view`; in the hand variant the position made of its
        view alone, :meth:`~hisss.core.SeatView.known`)."""
        legal = [int(i) for i in np.flatnonzero(mask)]
        view = env.view
        state = view.known() if isinstance(view, SeatView) else view
        rows = [action_features(state, env.index_to_action(i)) for i in legal]
        return legal, np.array(rows)

    def act(self, env: HisssEnv, mask: npt.NDArray[np.int8]) -> int:
        """The most probable legal index (the first of equals): the policy used in evaluation."""
        legal, features = self.describe(env, mask)
        return legal[int(np.argmax(features @ self.weights))]


@dataclass(frozen=True)
class Evaluation:
    """The agent's share of the wins over mirrored deals, with a 95% interval over deals."""

    deals: int
    games: int
    win_share: float
    low: float
    high: float

    def __str__(self) -> str:
        return (
            f"win share {100 * self.win_share:.1f}% "
            f"(95% interval {100 * self.low:.1f}% to {100 * self.high:.1f}%) "
            f"over {self.games} games on {self.deals} mirrored deals"
        )


def _share(env: HisssEnv, info: dict[str, Any]) -> float:
    """The learning seat's share of the win in the finished game of ``env`` (``info``: the last
    step's, which holds the result)."""
    winners = info["result"].winners
    return 1.0 / len(winners) if env.seat in winners else 0.0


def train(
    agent: LinearAgent,
    envs: Sequence[HisssEnv],
    episodes: int,
    seed: int = 0,
    lr: float = 0.1,
    progress: Callable[[int], None] | None = None,
    checkpoints: Collection[int] = (),
    on_checkpoint: Callable[[int], None] | None = None,
) -> list[float]:
    """Train ``agent`` for ``episodes`` games, taking the environments ``envs`` in turn (one per
    seat, say); returns each game's win share.

    ``progress`` is called with 1 after each game (for a progress bar). ``on_checkpoint`` is called
    with the number of games played when that number is one of ``checkpoints`` (0: before the
    first game), to evaluate the agent as it is then; training goes on unchanged afterwards, as
    long as the callback leaves ``envs`` and the weights alone.
    """
    rng = np.random.default_rng(seed)
    baseline = 0.0
    shares: list[float] = []
    if on_checkpoint is not None and 0 in checkpoints:
        on_checkpoint(0)
    for episode in range(episodes):
        env = envs[episode % len(envs)]
        _, info = env.reset(seed=int(rng.integers(2**63)))
        grad = np.zeros_like(agent.weights)
        done = False
        reward = 0.0
        while not done:
            legal, features = agent.describe(env, info["action_mask"])
            p = agent.probabilities(features)
            k = int(rng.choice(len(legal), p=p))
            grad += features[k] - p @ features
            _, reward, done, _, info = env.step(legal[k])
        agent.weights += lr * (reward - baseline) * grad
        baseline += (reward - baseline) / min(episode + 1, 100)
        shares.append(_share(env, info))
        if progress is not None:
            progress(1)
        if on_checkpoint is not None and episode + 1 in checkpoints:
            on_checkpoint(episode + 1)
    return shares


class SamplingPolicy:
    """The softmax policy of ``agent`` behind ``act``, drawing from its own generator: the policy
    the agent is trained with (uniformly random over the legal actions while the weights are
    zero)."""

    def __init__(self, agent: LinearAgent, seed: int = 0) -> None:
        self.agent = agent
        self.rng = np.random.default_rng(seed)

    def act(self, env: HisssEnv, mask: npt.NDArray[np.int8]) -> int:
        """A legal index of ``mask`` drawn with the agent's current probabilities."""
        legal, features = self.agent.describe(env, mask)
        p = self.agent.probabilities(features)
        return legal[int(self.rng.choice(len(legal), p=p))]


class BotPolicy:
    """A built-in bot (:func:`hisss.bots.make_bot`) behind the agent's ``act``, for reference
    figures measured the same way."""

    def __init__(self, name: str, seed: int = 0) -> None:
        self.bot = make_bot(name)
        self.rng = random.Random(seed)

    def act(self, env: HisssEnv, mask: npt.NDArray[np.int8]) -> int:
        """The bot's choice from what the learning seat of ``env`` may know
        (:attr:`HisssEnv.view`), as an index of its action space."""
        del mask
        view = env.view
        if isinstance(view, SeatView):
            return env.action_to_index(self.bot.choose_from_hand(view, self.rng))
        return env.action_to_index(self.bot.choose(view, self.rng))


class Policy(Protocol):
    """Anything that picks a legal index in a position of :class:`HisssEnv`."""

    def act(self, env: HisssEnv, mask: npt.NDArray[np.int8]) -> int:
        """A legal index of ``mask`` in the position of ``env``."""
        ...


def evaluate(
    agent: Policy,
    players: int,
    deals: int,
    seed: int = 0,
    opponents: Sequence[str] = ("random",),
    progress: Callable[[int], None] | None = None,
    **env_options: Any,
) -> Evaluation:
    """Play every one of ``deals`` random deals once from each seat against ``opponents``.

    The interval is the normal one over deals (each deal's mean share is one observation), since
    the games of one deal are not independent. ``env_options`` go to :class:`HisssEnv` (``rules``,
    ``space``, ``normalize``, ``skip_forced``, ...).
    """
    envs = [
        HisssEnv(players=players, seat=s, opponents=opponents, **env_options)
        for s in range(players)
    ]
    rng = random.Random(seed)
    per_deal: list[float] = []
    for d in range(deals):
        cards = [str(c) for c in deal(envs[0].deck, rng)]
        total = 0.0
        for env in envs:
            _, info = env.reset(seed=seed * 1_000_003 + d, options={"deal": cards})
            done = False
            while not done:
                _, _, done, _, info = env.step(agent.act(env, info["action_mask"]))
            total += _share(env, info)
        per_deal.append(total / players)
        if progress is not None:
            progress(1)
    mean = float(np.mean(per_deal))
    sd = float(np.std(per_deal, ddof=1)) if deals > 1 else 0.0
    half = 1.96 * sd / math.sqrt(deals)
    return Evaluation(deals, deals * players, mean, max(mean - half, 0.0), min(mean + half, 1.0))


def plot_curve(
    checkpoints: Sequence[tuple[int, Evaluation]],
    path: Path,
    players: int = 2,
    final: tuple[int, Evaluation] | None = None,
    reference: tuple[str, Evaluation] | None = None,
    policy: str = "sampling policy",
) -> None:
    """Write the learning curve to ``path`` (a PNG).

    ``checkpoints`` holds ``(games played in training, evaluation)`` pairs, all measured on the
    same held-out deals, drawn with their 95% intervals on a symmetric-log scale (linear below 10
    games, so 0 shows); ``policy`` names the policy they evaluate. A dashed line marks random
    against random (``1/players``), ``reference`` a bot's evaluation on the same held-out deals
    (a line and its 95% band) and ``final`` the final evaluation ``(games, evaluation)`` of the
    agent's greedy policy (a square beside the last checkpoint).
    """
    import matplotlib  # noqa: PLC0415 (only the plot needs it)

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    if not checkpoints:
        raise ValueError("plot_curve needs at least one checkpoint")
    xs = [g for g, _ in checkpoints]
    evals = [e for _, e in checkpoints]
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    ax.axhline(
        1 / players,
        color="grey",
        ls="--",
        lw=1,
        label=f"random against random (1/{players} by symmetry, not measured)",
    )
    if reference is not None:
        _draw_reference(ax, *reference)
    ax.errorbar(
        xs,
        [e.win_share for e in evals],
        yerr=[[e.win_share - e.low for e in evals], [e.high - e.win_share for e in evals]],
        fmt="o-",
        ms=4,
        capsize=3,
        label=f"agent's {policy} at each checkpoint"
        f" (the same {evals[0].deals} deals x {players} seats each)",
    )
    if final is not None:
        games, result = final
        ax.errorbar(
            [games * 1.12],
            [result.win_share],
            yerr=[[result.win_share - result.low], [result.high - result.win_share]],
            fmt="s",
            color="C3",
            capsize=3,
            label=f"agent's most probable action after {games} games"
            f" ({result.deals} other deals x {players} seats)",
        )
    _label_axes(ax, xs, [e.low for e in evals] + [1 / players], players)
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _draw_reference(ax: Any, name: str, ref: Evaluation) -> None:
    """A bot's evaluation on the same deals: a line and its 95% band."""
    ax.axhspan(ref.low, ref.high, color="C2", alpha=0.12, lw=0)
    ax.axhline(
        ref.win_share,
        color="C2",
        ls=":",
        lw=1.5,
        label=f"{name} bot on the same {ref.deals} deals: {100 * ref.win_share:.1f}%"
        " (band: 95% interval)",
    )


def _label_axes(ax: Any, xs: list[int], lows: list[float], players: int) -> None:
    """The curve's scales, ticks, labels and title."""
    from matplotlib.ticker import FixedLocator, NullLocator  # noqa: PLC0415

    ax.set_xscale("symlog", linthresh=10, linscale=0.5)
    ax.set_xlim(-0.5, max(xs) * 1.4)
    ax.xaxis.set_major_locator(FixedLocator(xs))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xticklabels([str(x) for x in xs])
    ax.set_xlabel("games played in training (symmetric-log scale)")
    ax.set_ylabel("win share against random")
    ax.set_ylim(max(0.0, min(lows) - 0.1), 1)
    ax.set_title(
        f"Linear policy-gradient agent on hisss/Hisss-v0 ({players} players, rainbow)\n"
        "win share against random on held-out mirrored deals, bars: 95% intervals over deals",
        fontsize=10,
    )
