"""MaskablePPO (sb3-contrib) learns Hisss on the batched compiled environment, then plays mirrored
deals against random, greedy and careful.

Needs the ``learn`` extra (sb3-contrib and torch; see docs/rl.md for the CPU build of torch).
Training runs on :class:`hisss.rl.batched.BatchedHisssEnv` (``v1`` spaces, normalised
observations, forced placements skipped) against ``--opponent`` (random or greedy), for
``--minutes`` of wall-clock time or ``--steps`` learner steps, whichever comes first. The policy's
outputs are the ``v1`` action indices below ``--head`` and one "other" output for the decisions
that have no legal index there (:class:`Head`): a narrower softmax trains several times faster
than one over the whole space. With ``--policy placement`` (the default) each output is scored
from the snakes its placement touches, by weights shared over the table's snake slots
(:class:`Placements`); ``--policy flat`` gives every output weights of its own (sb3's
``MlpPolicy``). The rollout buffer keeps the masks as booleans. With
``--shaping w`` every step that does not end a game also pays ``w`` times the change of the
learner's pit margin (its pit cards less the seats' mean, over the deck size, as the
observation shows them; the environments' ``shaping`` option pays the same): taking cards pays
at once, and so does leaving the others none to take. The
evaluation plays ``--deals`` random deals once from each seat with ``hisss.rl.HisssEnv`` (the
same spaces) against each reference bot, the policy taking its most probable legal action, and
prints the win share with a 95% interval over deals. Run ``python examples/train_maskable_ppo.py
--help`` for the options.
"""

from __future__ import annotations

import argparse
import itertools
import time
from functools import partial
from typing import Any, cast

import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.vec_env import VecEnv
from torch import nn

from hisss.core import ActionKind, Rules, get_deck
from hisss.rl import HisssEnv
from hisss.rl.agent import evaluate
from hisss.rl.batched import BatchedHisssEnv
from hisss.rl.hand_spaces import HandActionCodec
from hisss.rl.spaces import END_BIT, SNAKE_FEATURES
from hisss.rl.versions import Space


class Head:
    """The policy's outputs: the ``v1`` indices below ``size`` and one more, "other", that plays
    the lowest legal index from ``size`` up and is legal only when no index below ``size`` is.

    The ``v1`` join indices are ranked by the higher table end they touch, so the low indices
    are the placements on the first snakes of the table: with hands of 3 and 2 players, 2,048
    indices leave out a legal action in 1 decision in 660 when both seats play at random, 1 in
    13,000 when the opponent is greedy (and then only some of its legal actions). Every decision
    keeps a legal output, and the softmax, its gradient and the stored masks shrink with the
    head. ``size`` 0 keeps the whole space.
    """

    def __init__(self, size: int, n: int) -> None:
        self.size = size if 0 < size < n else n
        self.n = n
        self.space = spaces.Discrete(self.size + 1 if self.size < n else n)

    def masks(self, full: Any) -> Any:
        """The head's mask (rows of ``full``, the ``v1`` masks, one per decision)."""
        if self.size == self.n:
            return full.copy()
        low = full[..., : self.size]
        return np.concatenate([low, ~low.any(axis=-1, keepdims=True)], axis=-1)

    def actions(self, outputs: Any, full: Any) -> Any:
        """The ``v1`` indices of the head's ``outputs`` (``full``: the ``v1`` masks)."""
        if self.size == self.n:
            return outputs
        other = outputs == self.size
        if np.any(other):
            outputs = outputs.copy()
            outputs[other] = self.size + np.argmax(full[other, self.size :], axis=-1)
        return outputs


def _mlp(sizes: list[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for a, b in itertools.pairwise(sizes):
        layers += [nn.Linear(a, b), nn.Tanh()]
    return nn.Sequential(*layers)


class Placements(nn.Module):
    """The logits of every ``v1`` index, scored placement by placement.

    The input is the policy's hidden state ``h`` followed by the observation. Each table snake's
    18 observation numbers, with ``h``, go through one small network shared by the 16 snake
    slots, which gives an embedding of each of the slot's two ends. A cap, extension or (in the
    hand variant) new snake is scored by a linear map of its end's embedding (of ``h`` for a new
    snake), one output per card or colour; a join, one output per mid-section and way round, by
    a linear map of each of its two ends' embeddings plus their inner product (the two snakes'
    fit, the same for every card); the overflow indices share one
    output of ``h``. So a placement on the fifth snake is judged by what the fifth snake is, with
    the weights learned on every other slot, where one flat output per index has to learn each
    index on its own.
    """

    #: The first and the second end (``2 * snake + end``) of each join rank, in rank order.
    first: torch.Tensor
    other: torch.Tensor

    def __init__(self, space: Space, hidden: int, width: int, head: Head) -> None:
        super().__init__()
        codec = space.codec
        self.head = head
        self.hidden = hidden
        self.width = width
        self.snakes = codec.max_snakes
        table = space.layout.parts["table"]
        start = hidden + table.start
        self.table = slice(start, start + SNAKE_FEATURES * self.snakes)
        hands = isinstance(codec, HandActionCodec)
        mids = 2 * len(codec.mids)
        self.slot = nn.Sequential(
            nn.Linear(SNAKE_FEATURES + hidden, width), nn.Tanh(), nn.Linear(width, 2 * width)
        )
        self.new = nn.Linear(hidden, 29 if hands else 1)
        self.cap = nn.Linear(width, 14 if hands else 1)
        self.extend = nn.Linear(width, mids if hands else 6)
        self.second = nn.Linear(width, width)
        self.join = nn.Linear(width, mids)
        self.join2 = nn.Linear(width, mids, bias=False)
        self.overflow = nn.Linear(hidden, 1)
        self.overflows = space.overflow
        # The two ends of each join rank, in rank order, read back from the codec.
        base = self._join_base(codec, hands)
        pairs = (codec.size - base) // mids
        if head.size < head.n:  # only the join ranks below the head's size
            pairs = min(pairs, -(-(head.size - base) // mids))
        self.base = base
        ends = []
        for rank in range(pairs):
            action = codec.index_to_action(base + mids * rank)
            assert action.kind is ActionKind.JOIN and action.end and action.end2
            ends.append(
                (2 * action.snake + END_BIT[action.end], 2 * action.snake2 + END_BIT[action.end2])
            )
        index = torch.tensor(ends, dtype=torch.long)
        self.register_buffer("first", index[:, 0].clone(), persistent=False)
        self.register_buffer("other", index[:, 1].clone(), persistent=False)

    @staticmethod
    def _join_base(codec: Any, hands: bool) -> int:
        s = codec.max_snakes
        if hands:
            return int(29 + 28 * s + 4 * len(codec.mids) * s)
        return int(1 + 14 * s)

    def forward(self, latent: torch.Tensor) -> torch.Tensor:
        h = latent[:, : self.hidden]
        rows = latent.shape[0]
        slots = latent[:, self.table].reshape(rows, self.snakes, SNAKE_FEATURES)
        both = torch.cat([slots, h.unsqueeze(1).expand(rows, self.snakes, self.hidden)], dim=2)
        ends = torch.tanh(self.slot(both)).reshape(rows, 2 * self.snakes, self.width)
        fit = torch.bmm(ends, self.second(ends).transpose(1, 2))[:, self.first, self.other]
        joins = self.join(ends)[:, self.first] + self.join2(ends)[:, self.other]
        joins = joins + fit.unsqueeze(2)
        out = torch.cat(
            [
                self.new(h),
                self.cap(ends).reshape(rows, -1),
                self.extend(ends).reshape(rows, -1),
                joins.reshape(rows, -1),
            ],
            dim=1,
        )
        if self.head.size < self.head.n:  # the head's indices, then "other"
            return torch.cat([out[:, : self.head.size], self.overflow(h)], dim=1)
        return torch.cat([out, self.overflow(h).expand(rows, self.overflows)], dim=1)


class Trunk(nn.Module):
    """The policy's and the value's networks over the observation; the policy's latent is its
    hidden state followed by the observation itself, for :class:`Placements`."""

    def __init__(self, size: int, net: list[int]) -> None:
        super().__init__()
        self.policy_net = _mlp([size, *net])
        self.value_net = _mlp([size, *net])
        self.latent_dim_pi = net[-1] + size
        self.latent_dim_vf = net[-1]

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        return torch.cat([self.policy_net(features), features], dim=1)

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        return cast(torch.Tensor, self.value_net(features))


class PlacementPolicy(MaskableActorCriticPolicy):
    """sb3-contrib's masked actor-critic with :class:`Placements` as its action network (the
    whole ``v1`` space, no :class:`Head`). ``hand_size``, ``players`` and ``deck`` name the
    configuration, ``width`` the ends' embedding."""

    def __init__(
        self,
        *args: Any,
        hand_size: int = 3,
        players: int = 2,
        deck: str = "rainbow",
        width: int = 32,
        head: int = 2048,
        **kwargs: Any,
    ) -> None:
        self.setting: dict[str, Any] = {
            "hand_size": hand_size,
            "players": players,
            "deck": deck,
            "width": width,
            "head": head,
        }
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule: Any) -> None:
        setting = self.setting
        space = Space(
            Rules(hand_size=setting["hand_size"]),
            get_deck(setting["deck"]),
            setting["players"],
            "v1",
            normalize=True,
        )
        net = cast(list[int], self.net_arch)
        # sb3 asks its extractor only for forward_actor/forward_critic and the latent sizes.
        self.mlp_extractor = Trunk(self.features_dim, net)  # type: ignore[assignment]
        head = Head(setting["head"], space.size)
        self.action_net = Placements(space, net[-1], setting["width"], head)
        self.value_net = nn.Linear(net[-1], 1)
        if self.ortho_init:
            self.mlp_extractor.apply(partial(self.init_weights, gain=np.sqrt(2)))
            self.action_net.slot.apply(partial(self.init_weights, gain=np.sqrt(2)))
            a = self.action_net
            for layer in a.new, a.cap, a.extend, a.join, a.join2, a.second, a.overflow:
                layer.apply(partial(self.init_weights, gain=0.01))
            self.value_net.apply(partial(self.init_weights, gain=1.0))
        self.optimizer = self.optimizer_class(
            self.parameters(),
            lr=lr_schedule(1),  # type: ignore[call-arg]
            **self.optimizer_kwargs,
        )

    def _get_constructor_parameters(self) -> dict[str, Any]:
        return {**super()._get_constructor_parameters(), **self.setting}


class BoolMaskBuffer(MaskableRolloutBuffer):
    """sb3-contrib's rollout buffer with the masks stored as booleans (a quarter of the float
    masks' memory and copying)."""

    def reset(self) -> None:
        super().reset()
        self.action_masks = np.ones(self.action_masks.shape, dtype=np.bool_)


class SB3Batched(VecEnv):
    """:class:`BatchedHisssEnv` as a stable-baselines3 ``VecEnv`` (autoreset in the same step,
    as stable-baselines3 expects; final observations are not kept: the rewards come at the end
    and no game is cut short), its actions the outputs of ``head``."""

    def __init__(
        self, env: BatchedHisssEnv, head: Head, players: int, shaping: float = 0.0
    ) -> None:
        super().__init__(env.num_envs, env.single_observation_space, head.space)
        self.env = env
        self.head = head
        self.shaping = shaping
        layout = env.space.layout
        seats = layout.parts["seats"]
        width = (seats.stop - seats.start) // players
        #: Where each seat's pit cards lie in an observation, the learner's first.
        self._pits = np.arange(seats.start, seats.stop, width)
        self._potential = np.zeros(env.num_envs, dtype=np.float32)
        self._actions = np.zeros(env.num_envs, dtype=np.int64)
        self._no_info: list[dict[str, Any]] = [{} for _ in range(env.num_envs)]
        self._seed: int | None = None

    def reset(self) -> Any:
        obs, _ = self.env.reset(seed=self._seed)
        self._potential = self.potential(obs)
        return obs.copy()

    def potential(self, obs: Any) -> Any:
        """The learner's pit cards less the seats' mean, over the deck size (normalised
        observations), of each game."""
        pits = obs[:, self._pits]
        return pits[:, 0] - pits.mean(axis=1)

    def step_async(self, actions: Any) -> None:
        self._actions[:] = self.head.actions(np.asarray(actions), self.env.action_masks())

    def step_wait(self) -> Any:
        obs, reward, done, _, _ = self.env.step(self._actions)
        reward = reward.copy()
        potential = self.potential(obs)
        if self.shaping:
            # A game that ended shows the next game's first observation: no shaping there.
            reward += np.where(done, 0.0, self.shaping * (potential - self._potential))
        self._potential = potential
        return obs.copy(), reward, done.copy(), self._no_info

    def action_masks(self) -> Any:
        return self.head.masks(self.env.action_masks())

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> Any:
        if method_name != "action_masks":
            raise AttributeError(f"the batched environment has no per-game method {method_name}")
        return list(self.action_masks())

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks"

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        if attr_name == "render_mode":
            return [None] * self.num_envs
        raise AttributeError(f"the batched environment has no per-game attribute {attr_name}")

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(f"the batched environment's games have no attribute {attr_name}")

    def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
        return [False] * self.num_envs

    def seed(self, seed: int | None = None) -> list[int | None]:
        self._seed = seed
        return [seed] * self.num_envs

    def close(self) -> None:
        """Nothing to release."""


class ModelPolicy:
    """A trained model behind ``act(env, mask)`` (:func:`hisss.rl.agent.evaluate`): its most
    probable legal action."""

    def __init__(self, model: MaskablePPO, head: Head) -> None:
        self.model = model
        self.head = head

    def act(self, env: HisssEnv, mask: Any) -> int:
        full = env.action_masks()
        output, _ = self.model.predict(
            env.observation(), action_masks=self.head.masks(full), deterministic=True
        )
        return int(self.head.actions(np.asarray(output).reshape(1), full.reshape(1, -1))[0])


def main(argv: list[str] | None = None) -> None:
    """Parse the options, train, evaluate and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hand-size", type=int, default=3, help="0: classic (default 3)")
    parser.add_argument("--players", type=int, default=2, help="players (default 2)")
    parser.add_argument("--opponent", default="greedy", help="random or greedy (default greedy)")
    parser.add_argument("--envs", type=int, default=256, help="games at once (default 256)")
    parser.add_argument("--n-steps", type=int, default=32, help="steps per game per rollout")
    parser.add_argument("--minutes", type=float, default=30.0, help="training time (default 30)")
    parser.add_argument("--steps", type=int, default=10**9, help="most learner steps")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    parser.add_argument(
        "--head",
        type=int,
        default=2048,
        help="policy outputs: v1 indices below this and 'other' (default 2048; 0: all)",
    )
    parser.add_argument(
        "--policy",
        choices=("placement", "flat"),
        default="placement",
        help="placement: each placement scored from its snakes (default); flat: one output each",
    )
    parser.add_argument("--width", type=int, default=32, help="placement embedding (default 32)")
    parser.add_argument("--epochs", type=int, default=4, help="epochs per rollout (default 4)")
    parser.add_argument(
        "--shaping",
        type=float,
        default=0.0,
        help="reward per change of (own pit cards - mean) / deck size (default 0: none)",
    )
    parser.add_argument("--ent", type=float, default=0.01, help="entropy weight (default 0.01)")
    parser.add_argument("--lr", type=float, default=3e-4, help="learning rate (default 3e-4)")
    parser.add_argument("--net", default="128,128", help="hidden layers (default 128,128)")
    parser.add_argument("--deals", type=int, default=200, help="evaluation deals (default 200)")
    parser.add_argument(
        "--against", default="random,greedy,careful", help="evaluation bots (comma-separated)"
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--save", default="", help="save the model to this file")
    parser.add_argument("--load", default="", help="go on training the model of this file")
    args = parser.parse_args(argv)
    if args.envs < 1 or args.n_steps < 2 or args.minutes <= 0 or args.deals < 1 or args.epochs < 1:
        parser.error("--envs, --n-steps, --minutes, --deals and --epochs must be positive")
    if args.head < 0:
        parser.error("--head must be 0 or positive")
    torch.set_num_threads(args.threads)
    # The distributions' argument checks (a simplex test over every row) cost a tenth of training.
    torch.distributions.Distribution.set_default_validate_args(False)
    rules = Rules(hand_size=args.hand_size)
    options: dict[str, Any] = {"rules": rules, "normalize": True, "skip_forced": True}
    batched = BatchedHisssEnv(
        num_envs=args.envs,
        players=args.players,
        opponents=args.opponent,
        seat="random",
        **options,
    )
    n = int(cast(spaces.Discrete, batched.single_action_space).n)
    head = Head(args.head, n)
    net = [int(w) for w in args.net.split(",")]
    policy_kwargs: dict[str, Any] = {"net_arch": net}
    if args.policy == "placement":
        policy_kwargs.update(
            hand_size=args.hand_size, players=args.players, width=args.width, head=args.head
        )
    venv = SB3Batched(batched, head, args.players, args.shaping)
    venv.seed(args.seed)
    model = (
        MaskablePPO.load(args.load, env=venv, device="cpu")
        if args.load
        else MaskablePPO(
            PlacementPolicy if args.policy == "placement" else "MlpPolicy",
            venv,
            n_steps=args.n_steps,
            batch_size=min(4096, args.envs * args.n_steps),
            n_epochs=args.epochs,
            learning_rate=args.lr,
            gamma=1.0,
            ent_coef=args.ent,
            policy_kwargs=policy_kwargs,
            seed=args.seed,
            device="cpu",
            verbose=0,
            rollout_buffer_class=BoolMaskBuffer,
        )
    )
    per_round = args.envs * args.n_steps
    wall, cpu = time.perf_counter(), time.process_time()
    deadline = wall + 60 * args.minutes
    steps = 0
    while steps < args.steps and time.perf_counter() < deadline:
        model.learn(per_round, reset_num_timesteps=False)
        steps += per_round
        print(
            f"{steps:,} steps, {time.perf_counter() - wall:.0f} s wall, "
            f"{time.process_time() - cpu:.0f} s CPU",
            flush=True,
        )
    trained_wall = time.perf_counter() - wall
    trained_cpu = time.process_time() - cpu
    print(
        f"trained {steps:,} learner steps in {trained_wall:.0f} s wall, {trained_cpu:.0f} s CPU "
        f"(hand size {args.hand_size}, {args.players} players, against {args.opponent}, "
        f"seed {args.seed})",
        flush=True,
    )
    if args.save:
        model.save(args.save)
    policy = ModelPolicy(model, head)
    for bot in [b.strip() for b in args.against.split(",") if b.strip()]:
        result = evaluate(
            policy,
            args.players,
            args.deals,
            seed=args.seed + 1000,
            opponents=(bot,),
            space="v1",
            **options,
        )
        print(f"against {bot}: {result}", flush=True)


if __name__ == "__main__":
    main()
