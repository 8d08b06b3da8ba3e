"""Hisss as a PettingZoo AEC environment: every seat an agent, draws made inside the environment.

``hisss_v0``
============

Made by :func:`hisss.rl.env` (wrapped in PettingZoo's order-enforcing wrapper) or
:class:`raw_env`. Parameters: ``players`` (2 to 5, or 6 with the rule option), ``rules`` (a
:class:`~hisss.core.Rules` or a preset name, default ``classic``), ``deck`` (a
:class:`~hisss.core.Deck` or a built-in deck name, default ``rainbow``), ``shaping`` (see Rewards,
default 0) and ``render_mode`` (``None``, ``"ansi"`` or ``"human"``: what the agent to act
sees, never another hand; returned as a string or printed).

Agents
    ``player_0`` to ``player_{P-1}`` are seats 0 to P-1 (the rules say 1 to P), numbered from 0
    as in the Gymnasium and OpenSpiel adapters; ``player_0`` places the first card after the
    starter. Only the seat that places the drawn card acts; the draws are not agents' steps.

Action space
    ``Discrete(n)``, the same for every agent, as laid out in :mod:`hisss.rl.spaces`:
    ``n = 1 + 14S + 4mS(S - 1)`` with ``S`` the deck size minus one and ``m`` the deck's distinct
    mid-sections (57,135 for ``rainbow``). :meth:`raw_env.action_to_index` and
    :meth:`raw_env.index_to_action` convert to and from engine actions. Only indices set in the
    action mask are legal; any other index raises :class:`~hisss.core.IllegalActionError` and
    changes nothing.

Observation space
    ``Dict({"observation": Box(0, deck size, (d,), float32), "action_mask": Box(0, 1, (n,),
    int8)})``. The observation vector (``d = 29 + 18S + 4P + 30``, 949 for two players and
    ``rainbow``) holds the drawn card, the table snakes' open ends, heads, tails and lengths, each
    seat's pit from the observer's seat on, the count of each remaining card and the number left,
    as laid out in :mod:`hisss.rl.spaces`; never the order of the cards to come. The mask marks
    the legal indices for the agent that acts, and is all zero for the others and at the end.

Rewards
    Zero until the game ends; then the winners share +1 and the losers share -1 (a sole winner
    +1, each loser ``-1/(P-1)``; ``k`` sharing winners ``1/k`` each; all zero when every seat
    shares the win): see :func:`hisss.rl.spaces.terminal_rewards`. With ``shaping = w > 0`` every
    placement also pays each seat ``w`` times the change of (its pit cards minus the mean pit
    cards) divided by the deck size, so taking cards pays at once; this adds up to zero over a
    game's seats at every step and is off by default.

Randomness
    Every draw is made when it is due, with the environment's generator seeded by
    ``reset(seed=...)``, through the engine's chance step with the exact remaining counts.
    ``reset(options={"deal": cards})`` stacks the first cards drawn (the starter first; cards or
    notation such as ``"M:red-orange"``); other option keys are ignored.

The hand variant
    With rules of a ``hand_size`` (``rules=Rules(hand_size=3)``, or ``hands_seen_by_all`` too)
    the action space and the observation are those of :mod:`hisss.rl.hand_spaces`: a play names
    the card of the hand (``n = 29 + 28S + 4mS^2``, 59,025 for ``rainbow``), and each agent's
    observation is made from its seat's view alone: its own hand (every hand when they are seen
    by all), the sizes of the others, the cards it has not seen; never another hand. The deal
    and the draws into the hands are made inside the environment.

Version history
    ``v0``: first version.

>>> from hisss.rl import env
>>> e = env(players=2)
>>> e.reset(seed=1)
>>> e.agent_selection, e.action_space("player_0")
('player_0', Discrete(57135))
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()) >= 1
((949,), True)
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from hisss.core import (
    Action,
    Deck,
    IllegalActionError,
    Rules,
    SeatView,
    State,
    new_game,
    seen_by,
)
from hisss.rl.dealing import Dealer, read_deal
from hisss.rl.rendering import render_seat
from hisss.rl.spaces import action_index, check_deck_for_play, terminal_rewards
from hisss.rl.versions import Space

Observation = dict[str, npt.NDArray[Any]]


class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801 (PettingZoo's name for the bare class)
    """The AEC environment ``hisss_v0``; see the module docstring for its spaces and rewards."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads a class attribute)
        "render_modes": ["ansi", "human"],
        "name": "hisss_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        rules: Rules | str | None = None,
        deck: Deck | str = "rainbow",
        shaping: float = 0.0,
        render_mode: str | None = None,
        space: str = "v0",
        normalize: bool = False,
    ) -> None:
        super().__init__()
        state = new_game(players, rules, deck)
        check_deck_for_play(state.deck)
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        if isinstance(shaping, bool) or not isinstance(shaping, int | float) or shaping < 0:
            raise ValueError(f"shaping must be a number of 0 or more, not {shaping!r}")
        self.render_mode = render_mode
        self.shaping = float(shaping)
        self.players = players
        self.rules = state.rules
        self.deck = state.deck
        #: The version of the spaces, and the observation's normalisation.
        self.space = Space(self.rules, self.deck, players, space, normalize)
        self.codec = self.space.codec
        self.layout = self.space.layout
        self.metadata = {**self.metadata, "name": f"hisss_{space}"}
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat = {name: i for i, name in enumerate(self.possible_agents)}
        obs_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(
                    0.0, self.space.high, (self.layout.size,), np.float32
                ),
                "action_mask": gymnasium.spaces.Box(0, 1, (self.space.size,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {
            a: gymnasium.spaces.Discrete(self.space.size) for a in self.possible_agents
        }
        self.np_random, _ = seeding.np_random(None)
        self._dealer = Dealer()
        self._game: State = state
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]
        self._legal: dict[int, Action] = {}

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        """The observation space of ``agent`` (one shared object)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Discrete:
        """The action space of ``agent`` (one object per agent)."""
        return self.action_spaces[agent]

    def view(self, agent: str) -> State | SeatView:
        """What ``agent`` may know now: in the hand variant its seat's
        :class:`~hisss.core.SeatView`; in the classic game, where nothing is hidden, a copy of
        the position. The full position is private."""
        return seen_by(self._game, self._seat[agent])

    def action_to_index(self, action: Action) -> int:
        """The index of an engine action in the action space (in ``v1``, an action of an
        overflow index only while it is legal)."""
        for index, legal in self._legal.items():
            if legal == action:
                return index
        return self.codec.action_to_index(action)

    def index_to_action(self, index: int) -> Action:
        """The engine action of an index of the action space (an overflow index of ``v1``: the
        action it names in the position at hand)."""
        return self.space.index_to_action(action_index(index), self._legal)

    # ------------------------------------------------------------------ play

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game: draw the starter and the first card (seeded by ``seed``)."""
        deal = read_deal(self.deck, (options or {}).get("deal", ()))
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self._game = new_game(self.players, self.rules, self.deck)
        self._dealer.start(self.np_random, deal)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._draw_due()  # the starter and seat 1's card, or the deal of the hands
        self._potential = self._potentials()
        self._to_act()

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Place the drawn card as the action of index ``action`` for the agent to act.

        Raises :class:`~hisss.core.IllegalActionError`, changing nothing, for an index that is not
        legal now. A finished agent must step with ``None``.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game
        move = self._legal_action(action)
        self._cumulative_rewards[agent] = 0.0
        game.push(move)
        self._draw_due()
        potential = self._potentials()
        step_rewards = [
            self.shaping * (b - a) for a, b in zip(self._potential, potential, strict=True)
        ]
        self._potential = potential
        if game.is_terminal():
            final = terminal_rewards(game.result().winners, self.players)
            step_rewards = [r + f for r, f in zip(step_rewards, final, strict=True)]
            self.terminations = dict.fromkeys(self.agents, True)
            result = game.result()
            self.infos = {a: {"result": result} for a in self.agents}
            self._legal = {}
        else:
            self._to_act()
        self.rewards = {a: step_rewards[self._seat[a]] for a in self.agents}
        self._accumulate_rewards()

    def _to_act(self) -> None:
        """Select the agent to act and list its legal actions (also in its info)."""
        game = self._game
        self._legal = self.space.legal(game)
        agent = self.possible_agents[game.to_move]
        self.agent_selection = agent
        for a in self.agents:
            self.infos[a] = {}
        self.infos[agent] = {"legal_actions": tuple(self._legal)}

    def _draw_due(self) -> None:
        """Make every draw due, up to the next decision or the end."""
        while self._dealer.draw(self._game) is not None:
            pass

    def _legal_action(self, action: object) -> Action:
        """The engine action of a legal index; raises :class:`IllegalActionError` otherwise, or
        :class:`TypeError` for an action that is not an integer."""
        game = self._game
        index = action_index(action)
        move = self._legal.get(index)
        if move is not None:
            return move
        try:
            move = self.space.index_to_action(index, self._legal)
        except ValueError as exc:
            raise IllegalActionError(index, game.describe(), str(exc)) from None
        game.check_action(move)  # raises with the engine's reason
        raise IllegalActionError(index, game.describe(), "the space offers it no index now")

    def _potentials(self) -> list[float]:
        cards = [self._game.pit_cards(s) for s in range(self.players)]
        mean = sum(cards) / self.players
        return [(c - mean) / self.deck.size for c in cards]

    def observe(self, agent: str) -> Observation:
        """The observation of ``agent``: its vector and its action mask (new arrays)."""
        seat = self._seat[agent]
        game = self._game
        if game.current_player == seat and not game.is_terminal():
            mask = self.space.mask(self._legal)
        else:
            mask = np.zeros(self.space.size, dtype=np.int8)
        return {"observation": self.space.encode(game, seat), "action_mask": mask}

    def render(self) -> str | None:
        """What the agent to act sees, as text: the table, the pits and in the hand variant its
        own hand and the others' sizes (:func:`hisss.rl.rendering.render_seat`); returned with
        ``render_mode="ansi"``, printed with ``"human"``."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        text = render_seat(self._game, self._seat[self.agent_selection])
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def env(
    players: int = 2,
    rules: Rules | str | None = None,
    deck: Deck | str = "rainbow",
    shaping: float = 0.0,
    render_mode: str | None = None,
    space: str = "v0",
    normalize: bool = False,
) -> AECEnv:
    """The ``hisss_v0`` (or with ``space="v1"``, ``hisss_v1``) AEC environment wrapped in
    PettingZoo's order enforcing wrapper."""
    return wrappers.OrderEnforcingWrapper(
        raw_env(players, rules, deck, shaping, render_mode, space, normalize)
    )
