"""Hisss as a pure-Python OpenSpiel game, ``python_hisss``, registered with ``pyspiel`` on import.

Built like OpenSpiel's own ``python/games/kuhn_poker.py``: a ``pyspiel.Game`` and a
``pyspiel.State`` over the engine's :class:`~hisss.core.State`, with every draw an explicit chance
node.

``python_hisss``
    Parameters: ``players`` (2 to 5, default 2), ``rules`` (a preset name, default ``classic``)
    and ``deck`` (a built-in deck name, default ``rainbow``), e.g.
    ``pyspiel.load_game("python_hisss", {"players": 3})``.

    Sequential, perfect information (every card is seen by all; the order of the cards to come is
    decided by the chance nodes), zero-sum, terminal rewards, explicit stochastic chance.

Chance nodes
    Each draw, the starter first, is a chance node. Its outcomes are the distinct cards still to
    be drawn, as their card codes (0 to 28, see :mod:`hisss.rl.spaces`), with the exact
    probability of each: its copies left over the cards left, from
    :meth:`hisss.core.State.chance_outcomes`, converted to floats.

Actions
    The indices of the fixed action space of :mod:`hisss.rl.spaces`
    (``num_distinct_actions = 1 + 14S + 4mS(S - 1)``, 57,135 for ``rainbow``); legal actions are
    listed in ascending order. ``HisssState.action_to_string`` writes them in the engine's notation
    (``1R:orange``, ``new``) and draws as ``draw H:red``.

Returns
    At the end, the winners share +1 and the losers share -1
    (:func:`hisss.rl.spaces.terminal_rewards`); 0 for every player before.

Observations
    The observation tensor is the vector of :mod:`hisss.rl.spaces` seen from the player;
    the observation string is the position in words. The information state string of this
    perfect-information game is the history, as for OpenSpiel's other public-information games.

Version history
    First version.

>>> import pyspiel
>>> import hisss.rl.openspiel
>>> game = pyspiel.load_game("python_hisss", {"players": 3})
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(3, 57135, 29)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), sum(p for _, p in state.chance_outcomes())
(True, 1.0)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from hisss.core import State, get_deck, get_rules, new_game
from hisss.core.cards import CARD_KINDS, card_from_code
from hisss.core.rules import MAX_PLAYERS, MIN_PLAYERS
from hisss.rl.pettingzoo_env import render_text
from hisss.rl.spaces import ActionCodec, ObservationLayout, check_deck_for_play, terminal_rewards

#: The parameters of ``python_hisss`` and their defaults.
DEFAULT_PARAMS: dict[str, Any] = {"players": 2, "rules": "classic", "deck": "rainbow"}

GAME_TYPE = pyspiel.GameType(
    short_name="python_hisss",
    long_name="Python Hisss",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)


class HisssGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game ``python_hisss``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**DEFAULT_PARAMS, **(params or {})}
        self.hisss_rules = get_rules(str(merged["rules"]))
        self.hisss_deck = get_deck(str(merged["deck"]))
        self.players = int(merged["players"])
        self.hisss_rules.check_players(self.players)
        check_deck_for_play(self.hisss_deck)
        self.codec = ActionCodec.for_deck(self.hisss_deck)
        self.layout = ObservationLayout(self.codec, self.players)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.size,
            max_chance_outcomes=CARD_KINDS,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.hisss_deck.size - 1,
        )
        super().__init__(GAME_TYPE, info, merged)

    def new_initial_state(self) -> HisssState:
        """A new game before the starter is drawn."""
        return HisssState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Any = None
    ) -> HisssObserver | IIGObserverForPublicInfoGame:
        """The observer of the vector of :mod:`hisss.rl.spaces`, or the history for perfect
        recall."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return HisssObserver(self, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class _Position:
    """Holds the engine's state; copied with :meth:`State.copy` when OpenSpiel clones a state
    (a deep copy of the engine's undo history would cost several times more)."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, object]) -> _Position:
        return _Position(self.state.copy())


class HisssState(pyspiel.State):  # type: ignore[misc]
    """A position of ``python_hisss``: the engine's state and the chance nodes around it."""

    def __init__(self, game: HisssGame) -> None:
        super().__init__(game)
        self.players = game.players
        self._position = _Position(new_game(game.players, game.hisss_rules, game.hisss_deck))

    @property
    def game_state(self) -> State:
        """The engine's state."""
        return self._position.state

    @property
    def codec(self) -> ActionCodec:
        """The action space's mapping."""
        return ActionCodec.for_deck(self._position.state.deck)

    def current_player(self) -> int:
        """The player to act, ``CHANCE`` at a draw, or ``TERMINAL``."""
        s = self.game_state
        if s.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if s.is_chance_node():
            return int(pyspiel.PlayerId.CHANCE)
        return s.to_move

    def _legal_actions(self, player: int) -> list[int]:
        """The legal action indices in ascending order."""
        assert player >= 0
        return sorted(self.codec.legal_indices(self.game_state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each card that can be drawn (its code) with its exact probability."""
        assert self.is_chance_node()
        return [(card.code, float(p)) for card, p in self.game_state.chance_outcomes()]

    def _apply_action(self, action: int) -> None:
        """Apply a draw (a card code) at a chance node, else a placement (an action index)."""
        if self.game_state.is_chance_node():
            self.game_state.draw(card_from_code(action))
        else:
            self.game_state.apply(self.codec.index_to_action(action))

    def _action_to_string(self, player: int, action: int) -> str:
        """A draw as ``draw H:red``; a placement in the engine's notation."""
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw {card_from_code(action)}"
        return str(self.codec.index_to_action(action))

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.game_state.is_terminal()

    def returns(self) -> list[float]:
        """The terminal rewards at the end, zeros before."""
        if not self.game_state.is_terminal():
            return [0.0] * self.players
        return list(terminal_rewards(self.game_state.result().winners, self.players))

    def __str__(self) -> str:
        """The position as text."""
        return render_text(self.game_state)


class HisssObserver:
    """The observation vector of :mod:`hisss.rl.spaces` (OpenSpiel's ``PyObserver`` interface)."""

    def __init__(self, game: HisssGame, params: Any) -> None:
        if params:
            raise ValueError(f"python_hisss observations take no parameters, got {params}")
        self.layout = game.layout
        self.tensor = np.zeros(self.layout.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: HisssState, player: int) -> None:
        """Fill :attr:`tensor` with the observation of ``state`` for ``player``."""
        self.tensor[:] = self.layout.encode(state.game_state, player)

    def string_from(self, state: HisssState, player: int) -> str:
        """The position in words (the same for every player: nothing is hidden)."""
        del player
        return render_text(state.game_state)


if GAME_TYPE.short_name not in pyspiel.registered_names():
    pyspiel.register_game(GAME_TYPE, HisssGame)
