"""Hisss as a single-agent Gymnasium environment: one learning seat against built-in bots.

``hisss/Hisss-v0``
==================

Registered when :mod:`hisss.rl` is imported; make it with
``gymnasium.make("hisss/Hisss-v0", players=2, opponents=["random"])`` or :class:`HisssEnv`.
Parameters: ``players`` (2 to 5, or 6 with the rule option), ``rules`` (a
:class:`~hisss.core.Rules` or a preset name, default ``classic``), ``deck`` (a
:class:`~hisss.core.Deck` or a built-in deck name, default ``rainbow``), ``seat`` (the learning
seat, numbered from 0 as in PettingZoo and OpenSpiel, default 0, or ``"random"``: a seat drawn at
each reset), ``opponents`` (see Opponents, default ``["random"]``), ``illegal_action``
(``"raise"`` or ``"lose"``, see Action space), ``shaping`` (see Rewards, default 0) and
``render_mode`` (``None`` or ``"ansi"``).

Opponents
    One description for every other seat, or one per other seat in seat order (the learning seat
    left out): a bot or level name of :func:`hisss.bots.make_bot`, a :class:`~hisss.bots.Bot`
    instance, a callable ``policy(observation, mask) -> action`` that gets its own seat's
    observation and mask, or ``"self"``, the learner itself: the policy given to
    :meth:`HisssEnv.set_learner` (self-play). See :mod:`hisss.rl.opponents`. A bot that cannot
    play the rules (in the hand variant, one without a hand policy) is refused when the
    environment is made.

Episode
    One game. ``reset`` deals the starter and plays the opponents' turns up to the learning seat's
    first decision; each ``step`` places the learning seat's card and then plays every draw and
    every opponent's placement up to its next decision or the end of the game. The opponents draw
    their randomness from a generator seeded by ``reset(seed=...)``, like the draws. A deal that
    ends before the learning seat's first turn (possible only under first-to scoring with a small
    target) is dealt again.

Observation space
    ``Box(0, deck size, (d,), float32)``: the observation vector of :mod:`hisss.rl.spaces` seen
    from the learning seat (``d = 29 + 18S + 4P + 30``, 949 for two players and ``rainbow``):
    public information only, never the order of the cards to come.

Action space
    ``Discrete(n)`` laid out in :mod:`hisss.rl.spaces` (``n = 1 + 14S + 4mS(S - 1)``, 57,135 for
    ``rainbow``); :meth:`HisssEnv.action_to_index` and :meth:`HisssEnv.index_to_action` convert to
    and from engine actions. ``info["action_mask"]`` (``int8``, length ``n``) marks the legal
    indices. An action is any integer-like scalar: an ``int``, a numpy integer or a 0-d integer
    array (what ``model.predict`` returns); anything else raises :class:`TypeError`. An index
    outside the mask is handled by ``illegal_action``: ``"raise"`` (the default) raises
    :class:`~hisss.core.IllegalActionError` and changes nothing; ``"lose"`` (for Gymnasium's
    ``check_env``, which steps with unmasked samples) ends the episode at once with reward -1 and
    ``info["illegal_action"] = True``, playing nothing, and warns with
    :class:`IllegalActionWarning` each time, so a lost game is never silent.

Rewards
    Zero until the game ends; then the learning seat's share of the result: +1 for a sole win, a
    share ``1/k`` of a win shared by ``k`` seats, ``-1/(P-k)`` for a loss to ``k`` winners, 0 when
    every seat shares the win (:func:`hisss.rl.spaces.terminal_rewards`). With ``shaping = w > 0``
    each step also pays ``w`` times the change of (the seat's pit cards minus the mean pit cards)
    divided by the deck size; off by default.

The hand variant
    With rules of a ``hand_size`` (``rules=Rules(hand_size=3)``) the action space and the
    observation are those of :mod:`hisss.rl.hand_spaces`: a play names the card of the hand, and
    the observation is made from the learning seat's view alone (its own hand, the sizes of the
    others, the cards it has not seen). The opponents choose from their own views.

Version history
    ``v0``: first version.

>>> import gymnasium
>>> import hisss.rl
>>> env = gymnasium.make("hisss/Hisss-v0", players=2, opponents=["greedy"])
>>> obs, info = env.reset(seed=3)
>>> obs.shape, info["action_mask"].shape, env.action_space
((949,), (57135,), Discrete(57135))
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from hisss.core import (
    Action,
    ConfigError,
    Deck,
    HandState,
    IllegalActionError,
    Rules,
    SeatView,
    State,
    new_game,
)
from hisss.rl.dealing import Dealer, read_deal
from hisss.rl.hand_spaces import action_codec, observation_layout
from hisss.rl.opponents import Policy, make_opponents
from hisss.rl.pettingzoo_env import render_text
from hisss.rl.spaces import action_index, check_deck_for_play, terminal_rewards


class IllegalActionWarning(UserWarning):
    """An illegal action counted as a loss under ``illegal_action="lose"``."""


#: The value of ``seat`` that draws the learning seat at random at each reset.
RANDOM_SEAT = "random"

#: How many deals :meth:`HisssEnv.reset` tries before it gives up on reaching the learning seat.
MAX_REDEALS = 1000


class HisssEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """The Gymnasium environment ``hisss/Hisss-v0``; see the module docstring."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (Gymnasium's attribute)

    def __init__(
        self,
        players: int = 2,
        rules: Rules | str | None = None,
        deck: Deck | str = "rainbow",
        seat: int | str = 0,
        opponents: object = ("random",),
        illegal_action: str = "raise",
        shaping: float = 0.0,
        render_mode: str | None = None,
    ) -> None:
        game = new_game(players, rules, deck)
        check_deck_for_play(game.deck)
        if seat != RANDOM_SEAT and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players
        ):
            raise ConfigError(
                f"seat must be a seat number from 0 to {players - 1} or 'random', not {seat!r}"
            )
        self._opponents = make_opponents(opponents, players, game.rules)
        self._learner: Policy | None = None
        if illegal_action not in ("lose", "raise"):
            raise ConfigError(f"illegal_action must be 'lose' or 'raise', not {illegal_action!r}")
        if isinstance(shaping, bool) or not isinstance(shaping, int | float) or shaping < 0:
            raise ConfigError(f"shaping must be a number of 0 or more, not {shaping!r}")
        if render_mode not in (None, "ansi"):
            raise ConfigError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.players = players
        self.rules = game.rules
        self.deck = game.deck
        #: The learning seat as given: a seat number from 0, or ``"random"``.
        self.seat_choice: int | str = seat
        #: The learning seat of the current game, from 0.
        self.seat = 0 if seat == RANDOM_SEAT else int(seat)
        #: The opponents' names, for the other seats in seat order.
        self.opponents = tuple(o.name for o in self._opponents)
        self.illegal_action = illegal_action
        self.shaping = float(shaping)
        self.codec = action_codec(self.rules, self.deck)
        self.layout = observation_layout(self.codec, players)
        self.observation_space = gymnasium.spaces.Box(
            0.0, self.layout.high, (self.layout.size,), np.float32
        )
        self.action_space = gymnasium.spaces.Discrete(self.codec.size)
        self._game: State = game
        self._dealer = Dealer()
        self._bot_rng = random.Random(0)
        self._over = True

    @property
    def view(self) -> State | SeatView:
        """What the learning seat may know now: in the hand variant its
        :class:`~hisss.core.SeatView` (its own hand, never another); in the classic game, where
        nothing is hidden, a copy of the position. The full position is private."""
        game = self._game
        if isinstance(game, HandState):
            return game.view(self.seat)
        return game.copy()

    def set_learner(self, policy: Policy) -> None:
        """Set the policy of the opponents given as ``"self"``: a callable ``(observation,
        mask) -> action`` of their own seat, such as the model being trained (self-play)."""
        if not callable(policy):
            raise ConfigError(f"a learner is a callable, not {type(policy).__name__}")
        self._learner = policy

    def action_to_index(self, action: Action) -> int:
        """The index of an engine action in the action space."""
        return self.codec.action_to_index(action)

    def index_to_action(self, index: int) -> Action:
        """The engine action of an index of the action space."""
        return self.codec.index_to_action(index)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Deal a new game and play up to the learning seat's first decision.

        ``options={"deal": cards}`` stacks the first cards drawn (the starter first); other keys
        are ignored.
        """
        deal = read_deal(self.deck, (options or {}).get("deal", ()))
        super().reset(seed=seed)
        if any(o.is_learner for o in self._opponents) and self._learner is None:
            raise ConfigError("an opponent is 'self': call set_learner(policy) before reset()")
        for _ in range(MAX_REDEALS):
            if self.seat_choice == RANDOM_SEAT:
                self.seat = int(self.np_random.integers(self.players))
            self._game = new_game(self.players, self.rules, self.deck)
            self._dealer.start(self.np_random, deal)
            self._bot_rng = random.Random(int(self.np_random.integers(2**63)))
            self._potential = self._my_potential()
            self._over = False
            self._dealer.draw(self._game)
            self._play_opponents()
            if not self._game.is_terminal():
                return self._observe(), self._info()
            deal = ()  # a stacked deal that ends early is dealt again at random
        raise ConfigError(
            f"{MAX_REDEALS} deals all ended before seat {self.seat} had a turn: "
            "the deck or the target is too small for this seat"
        )

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Place the learning seat's card as the action of index ``action``, then play on to its
        next decision or the end of the game."""
        game = self._game
        if self._over:
            raise IllegalActionError(
                action, game.describe(), "the episode is over (or not started): call reset()"
            )
        move = self._legal_action(action)
        if move is None:
            self._over = True
            info = self._info()
            info["illegal_action"] = True
            return self._observe(), -1.0, True, False, info
        game.push(move)
        self._play_opponents()
        potential = self._my_potential()
        reward = self.shaping * (potential - self._potential)
        self._potential = potential
        terminated = game.is_terminal()
        if terminated:
            self._over = True
            reward += terminal_rewards(game.result().winners, self.players)[self.seat]
        return self._observe(), float(reward), terminated, False, self._info()

    def _legal_action(self, action: object) -> Action | None:
        """The engine action of a legal index; ``None`` (with a warning) or an error for an
        illegal one. Raises :class:`TypeError` for an action that is not an integer."""
        game = self._game
        index = action_index(action)
        reason = ""
        move: Action | None = None
        try:
            move = self.codec.index_to_action(index)
        except ValueError as exc:
            reason = str(exc)
        if move is not None and game.can_apply(move):
            return move
        if self.illegal_action == "lose":
            warnings.warn(
                f"illegal action {index} counted as a loss (illegal_action='lose'); "
                "mask the actions with info['action_mask']",
                IllegalActionWarning,
                stacklevel=3,
            )
            return None
        if move is not None:
            game.check_action(move)  # raises with the engine's reason
        raise IllegalActionError(index, game.describe(), reason)

    def _play_opponents(self) -> None:
        """Play draws and opponents' placements until the learning seat must place a card."""
        game = self._game
        dealer = self._dealer
        while not game.is_terminal():
            if game.is_chance_node():
                dealer.draw(game)
                continue
            seat = game.to_move
            if seat == self.seat:
                return
            opponent = self._opponents[seat - 1 if seat > self.seat else seat]
            if opponent.bot is not None:
                game.apply(opponent.bot.move(game, self._bot_rng))
                continue
            policy = opponent.policy if opponent.policy is not None else self._learner
            assert policy is not None
            mask = self.codec.mask(game)
            index = action_index(policy(self.layout.encode(game, seat), mask))
            if not 0 <= index < mask.size or not mask[index]:
                raise IllegalActionError(
                    index, game.describe(), f"opponent {opponent.name!r} of seat {seat}"
                )
            game.apply(self.codec.index_to_action(index))

    def _my_potential(self) -> float:
        cards = [self._game.pit_cards(s) for s in range(self.players)]
        return (cards[self.seat] - sum(cards) / self.players) / self.deck.size

    def _observe(self) -> npt.NDArray[np.float32]:
        return self.layout.encode(self._game, self.seat)

    def _info(self) -> dict[str, Any]:
        game = self._game
        if game.current_player == self.seat and not self._over:
            mask = self.codec.mask(game)
        else:
            mask = np.zeros(self.codec.size, dtype=np.int8)
        info: dict[str, Any] = {"action_mask": mask}
        if game.is_terminal():
            info["result"] = game.result()
        return info

    def render(self) -> str | None:
        """With ``render_mode="ansi"``, the position as text."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        return render_text(self._game)
