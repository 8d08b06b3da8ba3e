"""Hisss as a batched Gymnasium ``VectorEnv``: ``num_envs`` games stepped at once in the compiled
kernel (:mod:`hisss.kernel.batch`; needs numba).

:class:`BatchedHisssEnv` has the ``v1`` spaces of :class:`hisss.rl.HisssEnv` (one learning seat
per game; the options ``players``, ``rules``, ``deck``, ``seat``, ``normalize`` and
``skip_forced`` mean the same) with the opponents played inside the kernel: ``random`` or
``greedy`` (one name for every other seat, or one per other seat in seat order). Game ``g`` of a
``reset(seed=s)`` has seed ``s + g``, and the game that follows it in the same slot the seed
``num_envs`` higher; :attr:`BatchedHisssEnv.game_seeds` holds the current ones.
``HisssEnv(space="v1", ...).reset(seed=...)`` with such a seed plays the same game: the same
draws, the same opponents' moves, the same observations, masks and rewards (a test compares
whole games).

Autoreset: a game that ends is dealt again in the same step (Gymnasium's ``SAME_STEP`` mode);
its reward and ``terminated`` flag are reported with the new game's first observation, and its
result in ``infos["winners"]`` (a bit mask of the winning seats, 0 for the games that did not
end). The final observation of a game is not kept: the rewards come at the end, so a learner
needs none. So every row of ``infos["action_mask"]`` (and of :meth:`action_masks`) always marks
the legal actions of a decision, never none.

The arrays returned (observations, rewards, flags, masks) are the environment's own buffers,
rewritten by the next ``step``: copy them to keep them (``copy=True`` does it). An illegal action
raises :class:`~hisss.core.IllegalActionError` naming the games, and leaves every game whose
action was legal stepped.

It is also ``hisss/Hisss-v1``'s vector entry point:
``gymnasium.make_vec("hisss/Hisss-v1", num_envs=1024, vectorization_mode="vector_entry_point")``.
"""

from __future__ import annotations

import importlib
from typing import Any, TypedDict, Unpack, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv

from hisss.core import ConfigError, Deck, IllegalActionError, Rules, new_game
from hisss.rl.spaces import check_deck_for_play, check_options
from hisss.rl.versions import Space

#: The bots the kernel plays, by name.
KERNEL_BOTS = {"random": 0, "greedy": 1}


class BatchedOptions(TypedDict, total=False):
    """The rarer options of :class:`BatchedHisssEnv`, given by keyword (as ``gymnasium.make_vec``
    does).

    ``normalize``: scale the observations to [0, 1]; ``skip_forced``: play the learners' forced
    moves for them; ``copy``: return copies of the arrays rather than the arrays the next step
    rewrites; ``space``: ``"v1"``, the only one.
    """

    normalize: bool
    skip_forced: bool
    copy: bool
    space: str


class BatchedHisssEnv(VectorEnv):
    """``num_envs`` games of Hisss in the compiled kernel; see the module docstring."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (Gymnasium reads a class attribute)
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": [],
    }

    # Gymnasium makes an environment from its keyword options (gymnasium.make(id, **options)):
    # the games' are parameters, the rarer ones BatchedOptions.
    def __init__(
        self,
        num_envs: int = 1024,
        players: int = 2,
        rules: Rules | str | None = None,
        deck: Deck | str = "rainbow",
        seat: int | str = 0,
        opponents: object = "random",
        **options: Unpack[BatchedOptions],
    ) -> None:
        check_options(options, BatchedOptions.__optional_keys__, "BatchedHisssEnv")
        normalize = options.get("normalize", False)
        skip_forced = options.get("skip_forced", False)
        copy = options.get("copy", False)
        space = options.get("space", "v1")
        if space != "v1":
            raise ConfigError(f"the batched environment has the v1 spaces only, not {space!r}")
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ConfigError(f"num_envs must be a whole number of at least 1, not {num_envs!r}")
        game = new_game(players, rules, deck)
        check_deck_for_play(game.deck)
        if seat != "random" and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players
        ):
            raise ConfigError(
                f"seat must be a seat number from 0 to {players - 1} or 'random', not {seat!r}"
            )
        names = _opponent_names(opponents, players)
        if not isinstance(copy, bool):
            raise ConfigError(f"copy must be true or false, not {copy!r}")
        self.space = Space(game.rules, game.deck, players, "v1", normalize)
        if not isinstance(skip_forced, bool):
            raise ConfigError(f"skip_forced must be true or false, not {skip_forced!r}")
        self.num_envs = num_envs
        self.players = players
        self.rules = game.rules
        self.deck = game.deck
        self.opponents = tuple(names)
        self.copy = copy
        self.single_observation_space = gymnasium.spaces.Box(
            0.0, self.space.high, (self.space.layout.size,), np.float32
        )
        self.single_action_space = gymnasium.spaces.Discrete(self.space.size)
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, num_envs
        )
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        seat_code = -1 if seat == "random" else int(seat)
        codes = _bot_codes(names, seat_code, players)
        batch = importlib.import_module("hisss.kernel.batch")
        scale = self.space._scale if normalize else np.ones(self.space.layout.size, np.float32)
        layout = batch.Layout(
            self.space.codec.max_snakes,
            self.space.overflow,
            self.space.codec.size,
            self.space.layout.size,
            scale,
        )
        self._games = batch.BatchedGames(
            num_envs, self.rules, self.deck, codes, seat_code, layout, skip_forced=skip_forced
        )
        self._seat_row = batch.I_SEAT
        self._forced_row = batch.I_FORCED
        self._winners_row = batch.I_WINNERS
        self._truncated = np.zeros(num_envs, dtype=np.bool_)
        self._started = False
        self._random_seed = 0
        self._random_state = np.zeros(1, dtype=np.uint64)
        self._random_out = np.zeros(num_envs, dtype=np.int64)

    @property
    def game_seeds(self) -> npt.NDArray[np.int64]:
        """Each slot's current game seed (a copy)."""
        return cast("npt.NDArray[np.int64]", self._games.seeds.copy())

    @property
    def seats(self) -> npt.NDArray[np.int64]:
        """Each game's learning seat (a copy)."""
        return cast("npt.NDArray[np.int64]", self._games.info[:, self._seat_row].copy())

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every game as ``bool`` rows (sb3-contrib's convention)."""
        return cast("npt.NDArray[np.bool_]", self._games.mask.view(np.bool_))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Deal every game: game ``g`` with seed ``seed + g`` (a seed drawn from the
        environment's generator when ``seed`` is None)."""
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(2**62))
        elif isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ConfigError(f"seed must be a whole number of 0 or more, not {seed!r}")
        self._games.reset(np.arange(seed, seed + self.num_envs, dtype=np.int64))
        self._started = True
        return self._out_obs(), self._infos(ended=False)

    def step(
        self, actions: Any
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """Play each game's action (one index per game) and on to the next decisions."""
        if not self._started:
            raise IllegalActionError(actions, "before the first reset", "call reset() first")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or not np.issubdtype(acts.dtype, np.integer):
            raise TypeError(
                f"actions are {self.num_envs} whole numbers, one per game, not an array of "
                f"shape {acts.shape} and type {acts.dtype}"
            )
        illegal = self._games.step(acts)
        if illegal:
            bad = np.flatnonzero(np.isnan(self._games.reward))
            raise IllegalActionError(
                [int(acts[g]) for g in bad[:5]],
                f"games {', '.join(str(int(g)) for g in bad[:5])}",
                f"{illegal} of the actions are not legal (the other games were stepped)",
            )
        games = self._games
        reward, done = games.reward, games.done
        if self.copy:
            reward, done = reward.copy(), done.copy()
        return self._out_obs(), reward, done, self._truncated, self._infos(ended=True)

    def _out_obs(self) -> npt.NDArray[np.float32]:
        obs = cast("npt.NDArray[np.float32]", self._games.obs)
        return obs.copy() if self.copy else obs

    def _infos(self, ended: bool) -> dict[str, Any]:
        games = self._games
        mask = games.mask
        infos: dict[str, Any] = {"action_mask": mask.copy() if self.copy else mask}
        if ended:
            infos["winners"] = np.where(games.done, games.info[:, self._winners_row], 0)
        infos["forced"] = games.info[:, self._forced_row].copy()
        return infos

    def random_actions(self, seed: int = 0) -> npt.NDArray[np.int64]:
        """A uniformly random legal action of every game, drawn in the kernel (for benchmarks
        and baselines); ``seed`` starts a generator kept between calls."""
        if self._random_seed != seed:
            self._random_seed = seed
            self._random_state[0] = seed
        self._games.random_actions(self._random_state, self._random_out)
        return self._random_out


__all__ = ["KERNEL_BOTS", "BatchedHisssEnv", "BatchedOptions"]


def _opponent_names(opponents: object, players: int) -> list[str]:
    """The kernel bots of the other seats, in seat order: ``opponents`` is one name for all of
    them or one per seat."""
    names = [opponents] if isinstance(opponents, str) else opponents
    if not isinstance(names, list | tuple) or not all(isinstance(n, str) for n in names):
        raise ConfigError(
            "opponents of the batched environment are bot names: "
            f"{', '.join(KERNEL_BOTS)} (one for all, or one per other seat)"
        )
    if len(names) == 1:
        names = list(names) * (players - 1)
    if len(names) != players - 1:
        raise ConfigError(
            f"opponents: {len(names)} names for {players - 1} other seats "
            "(give one name for all of them, or one per seat)"
        )
    unknown = [n for n in names if n not in KERNEL_BOTS]
    if unknown:
        raise ConfigError(
            f"opponent {unknown[0]!r} is not played in the compiled kernel "
            f"(bots that are: {', '.join(KERNEL_BOTS)}; HisssEnv plays every bot)"
        )
    return list(names)


def _bot_codes(names: list[str], seat_code: int, players: int) -> list[int]:
    """The kernel's bot code of every seat; the learning seat's (``seat_code``, -1 for a random
    seat) is never read."""
    if seat_code < 0:
        if len(set(names)) > 1:
            raise ConfigError("with seat='random' give one opponent name for every other seat")
        return [KERNEL_BOTS[names[0]]] * players
    codes = [0] * players  # the opponents fill the other seats in seat order
    for k, name in enumerate(names):
        codes[k if k < seat_code else k + 1] = KERNEL_BOTS[name]
    return codes
