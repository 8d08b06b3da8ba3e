"""Hisss as a single-agent Gymnasium environment: one learning seat against built-in bots.

``hisss/Hisss-v1`` and ``hisss/Hisss-v0``
========================================

Registered when :mod:`hisss.rl` is imported; make it with
``gymnasium.make("hisss/Hisss-v1", players=2, opponents=["random"])`` or :class:`HisssEnv`
(``space="v1"``; the default ``space="v0"`` keeps the first version's spaces, see
:mod:`hisss.rl.versions`).
Parameters: ``players`` (2 to 5, or 6 with the rule option), ``rules`` (a
:class:`~hisss.core.Rules` or a preset name, default ``classic``), ``deck`` (a
:class:`~hisss.core.Deck` or a built-in deck name, default ``rainbow``), ``seat`` (the learning
seat, numbered from 0 as in PettingZoo and OpenSpiel, default 0, or ``"random"``: a seat drawn at
each reset), ``opponents`` (see Opponents, default ``["random"]``), ``illegal_action``
(``"raise"`` or ``"lose"``, see Action space), ``shaping`` (see Rewards, default 0),
``render_mode`` (``None``, ``"ansi"`` or ``"human"``: see Rendering), ``space`` (``"v0"`` or
``"v1"``), ``normalize`` (every observed number over the largest it can take, so between 0
and 1; default false) and ``skip_forced`` (play the learning seat's forced placements, those
with one legal action, without asking; default false).

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
    every opponent's placement up to its next decision or the end of the game. The draws come
    from a generator seeded by ``reset(seed=...)``; each bot opponent's decision from the
    generator of the game's seed (:attr:`HisssEnv.game_seed`) and the turn
    (:func:`hisss.bots.turns.decision_rng`), as every bot's turn in the package. A deal that
    ends before the learning seat's first turn (possible only under first-to scoring with a small
    target) is dealt again.

Observation space
    ``Box(0, deck size, (d,), float32)`` (``Box(0, 1, ...)`` normalised): the observation vector
    of :mod:`hisss.rl.spaces` seen from the learning seat (``d = 29 + 18S + 4P + 30``: 949 for two
    players and ``rainbow`` in ``v0``, 355 in ``v1``): public information only, never the order
    of the cards to come.

Action space
    ``Discrete(n)`` laid out in :mod:`hisss.rl.spaces` (``n = 1 + 14S + 4mS(S - 1)``, 57,135 for
    ``rainbow``) in ``v0``; in ``v1`` the same for 16 table snakes and 32 overflow indices (6,017
    for ``rainbow``), :mod:`hisss.rl.versions`. :meth:`HisssEnv.action_to_index` and
    :meth:`HisssEnv.index_to_action` convert to and from engine actions.
    ``info["action_mask"]`` (``int8``, length ``n``) marks the legal indices,
    ``info["legal_actions"]`` lists them, and :meth:`HisssEnv.action_masks` gives them as
    ``bool`` (sb3-contrib's convention); the last step of a game also has ``info["result"]``
    (the engine's scoring). In ``v1`` no mask is ever all zero: at the end of a game it marks
    index 0, whose action is never played (a vector environment resets on the next step), so a
    softmax masked with minus infinity never sees an empty mask. An action is any integer-like
    scalar: an ``int``, a numpy integer or a 0-d integer array (what ``model.predict`` returns);
    anything else raises :class:`TypeError`. An index
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

Rendering
    What the learning seat sees, never more: the table, the pits and, in the hand variant, its
    own hand and the sizes of the others (:func:`hisss.rl.rendering.render_seat`); as a string
    with ``"ansi"``, printed with ``"human"``.

Version history
    ``v0``: first version. ``v1``: the compact spaces, never an all-zero mask, and the learning
    seat (when drawn) and the draws from the kernel's splitmix64 generator seeded by the game's
    seed (:attr:`HisssEnv.game_seed`), so :class:`hisss.rl.batched.BatchedHisssEnv` plays the
    same games. Both versions now have ``action_masks()``, ``info["legal_actions"]``,
    ``info["result"]``, seats from 0, opponents of every kind, ``seat="random"``, the options
    ``normalize`` and ``skip_forced``, ``illegal_action="raise"`` by default and :attr:`view`
    in place of the full position. Bot opponents play through the bots' turn loop
    (:func:`hisss.bots.turns.bot_turns`): each decision draws on the generator of the game's
    seed and the turn, as everywhere else (the compiled batched environment's bots too).

>>> import gymnasium
>>> import hisss.rl
>>> env = gymnasium.make("hisss/Hisss-v1", players=2, opponents=["greedy"])
>>> obs, info = env.reset(seed=3)
>>> obs.shape, info["action_mask"].shape, env.action_space
((355,), (6017,), Discrete(6017))
"""

from __future__ import annotations

import warnings
from typing import Any, TypedDict, Unpack

import gymnasium
import numpy as np
import numpy.typing as npt

from hisss.bots import Bot
from hisss.bots.turns import SplitMix, bot_turns
from hisss.core import (
    Action,
    Card,
    ConfigError,
    Deck,
    IllegalActionError,
    Placement,
    Rules,
    SeatView,
    State,
    new_game,
    seen_by,
)
from hisss.rl.dealing import Dealer, read_deal
from hisss.rl.opponents import Policy, make_opponents
from hisss.rl.rendering import render_seat
from hisss.rl.spaces import action_index, check_deck_for_play, check_options, terminal_rewards
from hisss.rl.versions import Space


class _Table:
    """The environment's position and dealer, as the bots' turn loop
    (:func:`hisss.bots.turns.bot_turns`) drives them."""

    __slots__ = ("dealer", "state")

    def __init__(self, state: State, dealer: Dealer) -> None:
        self.state = state
        self.dealer = dealer

    def draw(self) -> Card | None:
        return self.dealer.draw(self.state)

    def push(self, action: Action) -> Placement:
        return self.state.push(action)


class IllegalActionWarning(UserWarning):
    """An illegal action counted as a loss under ``illegal_action="lose"``."""


#: The value of ``seat`` that draws the learning seat at random at each reset.
RANDOM_SEAT = "random"

#: How many deals :meth:`HisssEnv.reset` tries before it gives up on reaching the learning seat.
MAX_REDEALS = 1000


class EnvOptions(TypedDict, total=False):
    """The rarer options of :class:`HisssEnv`, given by keyword (as ``gymnasium.make`` does).

    ``illegal_action``: ``"raise"`` (the default) or ``"lose"``; ``shaping``: the reward per card
    claimed (0); ``render_mode``: ``None``, ``"ansi"`` or ``"human"``; ``space``: ``"v0"`` (the
    default) or ``"v1"``; ``normalize``: scale the observation to [0, 1]; ``skip_forced``: play
    the learner's forced moves for it.
    """

    illegal_action: str
    shaping: float
    render_mode: str | None
    space: str
    normalize: bool
    skip_forced: bool


class HisssEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """The Gymnasium environment ``hisss/Hisss-v0`` (``space="v0"``) and ``hisss/Hisss-v1``
    (``space="v1"``); see the module docstring."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012 (Gymnasium's attribute)
    action_space: gymnasium.spaces.Discrete
    observation_space: gymnasium.spaces.Box  # type: ignore[assignment]

    # Gymnasium makes an environment from its keyword options (gymnasium.make(id, **options)):
    # the game's are parameters, the rarer ones EnvOptions.
    def __init__(
        self,
        players: int = 2,
        rules: Rules | str | None = None,
        deck: Deck | str = "rainbow",
        seat: int | str = 0,
        opponents: object = ("random",),
        **options: Unpack[EnvOptions],
    ) -> None:
        check_options(options, EnvOptions.__optional_keys__, "HisssEnv")
        illegal_action = options.get("illegal_action", "raise")
        shaping = options.get("shaping", 0.0)
        render_mode = options.get("render_mode")
        space = options.get("space", "v0")
        normalize = options.get("normalize", False)
        skip_forced = options.get("skip_forced", False)
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
        if render_mode not in (None, "ansi", "human"):
            raise ConfigError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        if not isinstance(skip_forced, bool):
            raise ConfigError(f"skip_forced must be true or false, not {skip_forced!r}")
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
        self.skip_forced = skip_forced
        #: The version of the spaces, and the observation's normalisation.
        self.space = Space(self.rules, self.deck, players, space, normalize)
        self.codec = self.space.codec
        self.layout = self.space.layout
        self.observation_space = gymnasium.spaces.Box(
            0.0, self.space.high, (self.layout.size,), np.float32
        )
        self.action_space = gymnasium.spaces.Discrete(self.space.size)
        self._game: State = game
        self._dealer = Dealer()
        self._table = _Table(game, self._dealer)
        #: The bot of each opponent's seat that a bot plays, for the current game.
        self._bots: dict[int, Bot] = {}
        self._over = True
        #: The seed of the current game: its bots' decisions are drawn from generators of this
        #: seed and the turn (:func:`hisss.bots.turns.decision_rng`); in ``v1`` it also seeds
        #: the generator of the learning seat (when drawn) and the draws, and the batched
        #: environment's game of this seed is the same game.
        self.game_seed = 0
        self._legal: dict[int, Action] = {}

    @property
    def view(self) -> State | SeatView:
        """What the learning seat may know now: in the hand variant its
        :class:`~hisss.core.SeatView` (its own hand, never another); in the classic game, where
        nothing is hidden, a copy of the position. The full position is private."""
        return seen_by(self._game, self.seat)

    def set_learner(self, policy: Policy) -> None:
        """Set the policy of the opponents given as ``"self"``: a callable ``(observation,
        mask) -> action`` of their own seat, such as the model being trained (self-play)."""
        if not callable(policy):
            raise ConfigError(f"a learner is a callable, not {type(policy).__name__}")
        self._learner = policy

    def action_to_index(self, action: Action) -> int:
        """The index of an engine action in the action space (in ``v1``, an action of an
        overflow index only while it is legal)."""
        for index, legal in self._legal.items():
            if legal == action:
                return index
        return self.codec.action_to_index(action)

    def index_to_action(self, index: int) -> Action:
        """The engine action of an index of the action space (an overflow index of ``v1``:
        the action it names in the position at hand)."""
        return self.space.index_to_action(action_index(index), self._legal)

    def observation(self) -> npt.NDArray[np.float32]:
        """The learning seat's observation now (a new array, as the last step returned it)."""
        return self._observe()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal indices as a ``bool`` vector (sb3-contrib's convention). Never all false:
        when the episode is over (or not started) index 0 is marked, and whatever action is
        given next is not played (a vector environment resets instead)."""
        out = np.zeros(self.space.size, dtype=np.bool_)
        if self._legal:
            out[list(self._legal)] = True
        else:
            out[0] = True
        return out

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
        kernel_rng: SplitMix | None = None
        if self.space.version == "v1":
            self.game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**63))
            kernel_rng = SplitMix(self.game_seed)
        for _ in range(MAX_REDEALS):
            if kernel_rng is not None:
                if self.seat_choice == RANDOM_SEAT:
                    self.seat = kernel_rng.randrange(self.players)
                self._game = new_game(self.players, self.rules, self.deck)
                self._dealer.start(kernel_rng, deal)
            else:
                if self.seat_choice == RANDOM_SEAT:
                    self.seat = int(self.np_random.integers(self.players))
                self._game = new_game(self.players, self.rules, self.deck)
                self._dealer.start(self.np_random, deal)
                self.game_seed = int(self.np_random.integers(2**63))
            self._table = _Table(self._game, self._dealer)
            others = [s for s in range(self.players) if s != self.seat]
            self._bots = {
                seat: o.bot
                for seat, o in zip(others, self._opponents, strict=True)
                if o.bot is not None
            }
            self._potential = self._my_potential()
            self._over = False
            self._legal = {}
            self._dealer.draw(self._game)
            forced = self._play_on()
            if not self._game.is_terminal():
                return self._observe(), self._info(forced)
            deal = ()  # a stacked deal that ends early is dealt again at random
        raise ConfigError(
            f"{MAX_REDEALS} deals all ended before seat {self.seat} had a turn: "
            "the deck or the target is too small for this seat"
        )

    def step(
        self, action: int | np.integer[Any] | npt.NDArray[np.integer[Any]]
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
            self._legal = {}
            info = self._info(0)
            info["illegal_action"] = True
            return self._observe(), -1.0, True, False, info
        game.push(move)
        forced = self._play_on()
        potential = self._my_potential()
        reward = self.shaping * (potential - self._potential)
        self._potential = potential
        terminated = game.is_terminal()
        if terminated:
            self._over = True
            reward += terminal_rewards(game.result().winners, self.players)[self.seat]
        return self._observe(), float(reward), terminated, False, self._info(forced)

    def _legal_action(self, action: object) -> Action | None:
        """The engine action of a legal index; ``None`` (with a warning) or an error for an
        illegal one. Raises :class:`TypeError` for an action that is not an integer."""
        game = self._game
        index = action_index(action)
        move = self._legal.get(index)
        if move is not None:
            return move
        if self.illegal_action == "lose":
            warnings.warn(
                f"illegal action {index} counted as a loss (illegal_action='lose'); "
                "mask the actions with info['action_mask'] or action_masks()",
                IllegalActionWarning,
                stacklevel=3,
            )
            return None
        try:
            move = self.space.index_to_action(index, self._legal)
        except ValueError as exc:
            raise IllegalActionError(index, game.describe(), str(exc)) from None
        game.check_action(move)  # raises with the engine's reason
        raise IllegalActionError(index, game.describe(), "the space offers it no index now")

    def _play_on(self) -> int:
        """Play draws and opponents' placements (and, with ``skip_forced``, the learning seat's
        forced placements) until the learning seat has a choice or the game ends; the number
        of forced placements played. Leaves the learning seat's legal actions in ``_legal``."""
        game = self._game
        forced = 0
        self._legal = {}
        while True:
            for _ in bot_turns(self._table, self._bots, self.game_seed):
                pass  # draws and the bots' turns, up to a seat no bot plays
            if game.is_terminal():
                return forced
            seat = game.to_move
            if seat == self.seat:
                legal = self.space.legal(game)
                if self.skip_forced and len(legal) == 1:
                    game.push(next(iter(legal.values())))
                    forced += 1
                    continue
                self._legal = legal
                return forced
            opponent = self._opponents[seat - 1 if seat > self.seat else seat]
            policy = opponent.policy if opponent.policy is not None else self._learner
            assert policy is not None
            legal = self.space.legal(game)
            index = action_index(policy(self.space.encode(game, seat), self.space.mask(legal)))
            if index not in legal:
                raise IllegalActionError(
                    index, game.describe(), f"opponent {opponent.name!r} of seat {seat}"
                )
            game.apply(legal[index])

    def _my_potential(self) -> float:
        cards = [self._game.pit_cards(s) for s in range(self.players)]
        return (cards[self.seat] - sum(cards) / self.players) / self.deck.size

    def _observe(self) -> npt.NDArray[np.float32]:
        return self.space.encode(self._game, self.seat)

    def _info(self, forced: int) -> dict[str, Any]:
        game = self._game
        if self.space.version == "v0":
            mask = self.space.mask(self._legal)
        else:
            mask = self.action_masks().astype(np.int8)
        info: dict[str, Any] = {
            "action_mask": mask,
            "legal_actions": tuple(self._legal),
        }
        if self.skip_forced:
            info["forced"] = forced
        if game.is_terminal():
            info["result"] = game.result()
        return info

    def render(self) -> str | None:
        """What the learning seat sees, as text (:func:`hisss.rl.rendering.render_seat`: in the
        hand variant its own hand and the others' sizes): returned with ``render_mode="ansi"``,
        printed with ``"human"``."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        text = render_seat(self._game, self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text
