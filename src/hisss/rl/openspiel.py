"""Hisss as a pure-Python OpenSpiel game, ``python_hisss``, registered with ``pyspiel`` on import.

Built like OpenSpiel's own ``python/games/kuhn_poker.py``: a ``pyspiel.Game`` and a
``pyspiel.State`` over the engine's :class:`~hisss.core.State`, with every draw an explicit chance
node.

``python_hisss``
    Parameters: ``players`` (2 to 5, default 2), ``rules`` (a preset name, default ``classic``),
    ``deck`` (a built-in deck name, default ``rainbow``, or the path of a deck file, ``.toml``
    or ``.json``, see :mod:`hisss.record.deckfile`), ``hand_size`` (0, the classic game, to
    5: the hand variant) and ``hands_seen_by_all`` (default false), e.g.
    ``pyspiel.load_game("python_hisss", {"players": 3, "hand_size": 3})``.

    Sequential, perfect information (every card is seen by all; the order of the cards to come is
    decided by the chance nodes), zero-sum, terminal rewards, explicit stochastic chance. With a
    ``hand_size`` the game is of imperfect information (its type says so): see below.

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

The hand variant
    Chance nodes deal the hands and fill them (each outcome a card code, with its exact
    probability); actions are the indices of :mod:`hisss.rl.hand_spaces`, a play naming its card.
    The observation tensor and string are made from the player's view alone
    (:meth:`hisss.core.HandState.view`). The information state string is the player's history
    with the cards drawn into other hands hidden (``seat 2 draws``; shown when
    ``hands_seen_by_all``), so it has perfect recall; the information state tensor is the
    observation followed by the card played on each turn and each card the player drew, one-hot.

Version history
    First version; the hand variant added.

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

import random
import sys
import warnings
import zlib
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python import policy
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from hisss.bots.hand import play_distribution
from hisss.core import Card, HandState, SeatView, State, get_rules, new_game, seen_by
from hisss.core.cards import CARD_KINDS, card_from_code
from hisss.core.rules import HAND_OPTIONS, MAX_PLAYERS, MIN_PLAYERS, Rules
from hisss.record import resolve_deck
from hisss.rl.hand_spaces import HandActionCodec, action_codec, observation_layout
from hisss.rl.rendering import render_text, render_view
from hisss.rl.spaces import ActionCodec, check_deck_for_play, terminal_rewards

#: The module of OpenSpiel's ``MCTSBot``, whose search of a hidden-hand game warns.
_MCTS_MODULE = "open_spiel.python.algorithms.mcts"


class HiddenInformationWarning(UserWarning):
    """A search that sees cards no player may see (OpenSpiel's ``MCTSBot`` on hidden hands)."""


#: The parameters of ``python_hisss`` and their defaults.
DEFAULT_PARAMS: dict[str, Any] = {
    "players": 2,
    "rules": "classic",
    "deck": "rainbow",
    "hand_size": 0,
    "hands_seen_by_all": False,
}


def _game_type(hands: bool) -> pyspiel.GameType:
    """The type of ``python_hisss``: of imperfect information with hands."""
    info = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name="python_hisss",
        long_name="Python Hisss",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=info.IMPERFECT_INFORMATION if hands else info.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=MAX_PLAYERS,
        min_num_players=MIN_PLAYERS,
        provides_information_state_string=True,
        provides_information_state_tensor=hands,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULT_PARAMS,
    )


#: The type registered (the classic game's); a game with hands reports its own.
GAME_TYPE = _game_type(False)


class HisssGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game ``python_hisss``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**DEFAULT_PARAMS, **(params or {})}
        preset = get_rules(str(merged["rules"])).to_mapping()
        self.hisss_rules = Rules.from_mapping(
            {**preset, **{option: merged[option] for option in HAND_OPTIONS}}
        )
        self.hisss_deck = resolve_deck(str(merged["deck"]))
        self.players = int(merged["players"])
        self.hisss_rules.check_players(self.players)
        check_deck_for_play(self.hisss_deck)
        self.codec = action_codec(self.hisss_rules, self.hisss_deck)
        self.layout = observation_layout(self.codec, self.players)
        # Cards dealt into hands make a game of imperfect information, with its own observers.
        self.dealt = not self.hisss_rules.seats_draw
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.size,
            max_chance_outcomes=CARD_KINDS,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.hisss_deck.size - 1,
        )
        super().__init__(_game_type(self.dealt), info, merged)

    def new_initial_state(self) -> HisssState:
        """A new game before the starter is drawn."""
        return HisssState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Any = None
    ) -> HisssObserver | HandHistoryObserver | IIGObserverForPublicInfoGame:
        """The observer of the observation vector, or of the history for perfect recall."""
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        if self.dealt:
            if perfect_recall:
                return HandHistoryObserver(self, params)
            return HisssObserver(self, params)
        if iig_obs_type is None or (iig_obs_type.public_info and not perfect_recall):
            return HisssObserver(self, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class _Position:
    """Holds the engine's state; copied with :meth:`State.copy` when OpenSpiel clones a state
    (a deep copy of the engine's undo history would cost several times more). In the hand
    variant it also keeps the trail of steps: ``(seat, card code, play)``, for a draw ``seat``
    the hand the card went into (-1 for the starter) and ``play`` -1, for a play the seat that
    made it, -1 and the play's index."""

    __slots__ = ("state", "trail")

    def __init__(self, state: State, trail: list[tuple[int, int, int]] | None = None) -> None:
        self.state = state
        self.trail = trail if trail is not None else []

    def __deepcopy__(self, memo: dict[int, object]) -> _Position:
        return _Position(self.state.copy(), self.trail.copy())


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
    def codec(self) -> ActionCodec | HandActionCodec:
        """The action space's mapping."""
        state = self._position.state
        return action_codec(state.rules, state.deck)

    @property
    def trail(self) -> list[tuple[int, int, int]]:
        """The hand variant: the steps so far, as :class:`_Position` keeps them."""
        return self._position.trail

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
        state = self.game_state
        if isinstance(state, HandState):
            if state.is_chance_node():
                receiver = state.receiver
                self.trail.append((-1 if receiver is None else receiver, action, -1))
            else:
                self.trail.append((state.to_move, -1, action))
        if state.is_chance_node():
            state.draw(card_from_code(action))
        else:
            state.apply(self.codec.index_to_action(action))

    def _action_to_string(self, player: int, action: int) -> str:
        """A draw as ``draw H:red``; a placement in the engine's notation."""
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw {card_from_code(action)}"
        return str(self.codec.index_to_action(action))

    def clone(self) -> HisssState:
        """A copy of this state. Warns with :class:`HiddenInformationWarning` when OpenSpiel's
        ``MCTSBot`` clones a game whose hands are hidden: it searches the true position, every
        hand included, which no player may see (``ISMCTSBot`` searches deals resampled from
        the player's information state, :meth:`resample_from_infostate`)."""
        rules = self.game_state.rules
        if rules.hides_cards:
            caller = sys._getframe(1)  # who clones is the only sign of an MCTSBot
            if (
                caller.f_globals.get("__name__") == _MCTS_MODULE
                and caller.f_code.co_name == "_apply_tree_policy"
            ):
                warnings.warn(
                    "MCTSBot searches the true position of a game with hidden hands, seeing "
                    "every hand; use open_spiel's ISMCTSBot, which searches deals resampled "
                    "from the player's information state",
                    HiddenInformationWarning,
                    stacklevel=2,
                )
        clone: HisssState = super().clone()
        return clone

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> HisssState:
        """A state of the same information state for ``player_id``: the cards hidden from that
        player (the other hands, the pile) dealt again at random, each arrangement of the
        hands equally likely, with the hidden draws of the past made consistent with it (every
        card another seat played was drawn by it before). ``probability_sampler()`` gives the
        random numbers (OpenSpiel's ``UniformProbabilitySampler``). In the classic game, and
        with hands seen by all, nothing is hidden: a copy."""
        game = self.game_state
        seen = seen_by(game, player_id)
        if not isinstance(seen, SeatView) or not game.rules.hides_cards:
            return self.clone()
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        hands = seen.sample(rng).hands
        codec = self.codec
        played = [-1 if play < 0 else _card_code(codec, play) for _, _, play in self.trail]
        codes = _redraw(self.trail, played, player_id, hands, rng)
        out = HisssState(self.get_game())
        for code, (_, _, play) in zip(codes, self.trail, strict=True):
            out.apply_action(play if play >= 0 else code)
        return out

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


def _card_code(codec: ActionCodec | HandActionCodec, play: int) -> int:
    card = codec.index_to_action(play).card
    assert card is not None
    return card.code


def _redraw(
    trail: list[tuple[int, int, int]],
    played: list[int],
    player: int,
    hands: tuple[tuple[Card, ...], ...],
    rng: random.Random,
) -> list[int]:
    """The card code of every step of ``trail`` (``played``: the card code of each play, -1 for
    a draw) in a deal where the hands hidden from ``player`` hold ``hands`` now.

    Each card another seat played goes to one of that seat's draws made before the play (at random
    among those not yet given a card); the draws left over get the seat's present hand, in random
    order."""
    codes = [code for _, code, _ in trail]
    open_draws: dict[int, list[int]] = {}
    for step, (seat, _, play) in enumerate(trail):
        if seat < 0 or seat == player:
            continue
        if play < 0:
            open_draws.setdefault(seat, []).append(step)
            continue
        draws = open_draws[seat]
        codes[draws.pop(rng.randrange(len(draws)))] = played[step]
    for seat, draws in open_draws.items():
        held = [card.code for card in hands[seat]]
        rng.shuffle(held)
        assert len(held) == len(draws), "a hidden hand and its open draws disagree"
        for slot, code in zip(draws, held, strict=True):
            codes[slot] = code
    return codes


class HandBotPolicy(policy.Policy):  # type: ignore[misc]
    """A hand-variant bot of :mod:`hisss.bots.hand` as an OpenSpiel policy, deciding from the
    player's view alone (:func:`hisss.bots.hand.play_distribution`: exact probabilities for
    ``random``, ``casual``, ``greedy`` and ``careful``; for ``expert`` the play it chooses with
    a generator seeded by the information state, so the same information state always gets the
    same play). For exact measures such as ``exploitability.nash_conv``."""

    def __init__(self, game: HisssGame, name: str) -> None:
        super().__init__(game, list(range(game.num_players())))
        self.name = name
        self._cache: dict[tuple[int, str], dict[int, float]] = {}

    def action_probabilities(
        self, state: HisssState, player_id: int | None = None
    ) -> dict[int, float]:
        """The bot's probability of each legal action of ``state`` (for its player to act)."""
        player = state.current_player() if player_id is None else player_id
        key = (player, state.information_state_string(player))
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        view = seen_by(state.game_state, player)
        assert isinstance(view, SeatView)
        rng = random.Random(zlib.crc32(key[1].encode()))
        codec = state.codec
        out = {codec.action_to_index(a): p for a, p in play_distribution(self.name, view, rng)}
        self._cache[key] = out
        return out


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
        """The position in words: the same for every player in the classic game, where nothing
        is hidden; in the hand variant the player's view."""
        seen = seen_by(state.game_state, player)
        return render_view(seen) if isinstance(seen, SeatView) else render_text(seen)


class HandHistoryObserver:
    """The hand variant's information state (perfect recall): the observation vector followed by
    the card of each play and each card the player drew, one-hot; the string is the history with
    the cards drawn into other hands hidden."""

    def __init__(self, game: HisssGame, params: Any) -> None:
        if params:
            raise ValueError(f"python_hisss observations take no parameters, got {params}")
        self.layout = game.layout
        self.turns = game.hisss_deck.size - 1
        size = self.layout.size + 2 * self.turns * CARD_KINDS
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}
        self.open = game.hisss_rules.hands_seen_by_all

    def set_from(self, state: HisssState, player: int) -> None:
        """Fill :attr:`tensor` with the information state of ``state`` for ``player``."""
        layout = self.layout
        self.tensor[:] = 0.0
        self.tensor[: layout.size] = layout.encode(state.game_state, player)
        codec = state.codec
        played = layout.size
        drawn = played + self.turns * CARD_KINDS
        for seat, code, play in state.trail:
            if play >= 0:
                card = codec.index_to_action(play).card
                assert card is not None
                self.tensor[played + card.code] = 1.0
                played += CARD_KINDS
            elif seat == player:
                self.tensor[drawn + code] = 1.0
                drawn += CARD_KINDS

    def string_from(self, state: HisssState, player: int) -> str:
        """The history ``player`` saw, step by step."""
        codec = state.codec
        steps = [f"p{player}"]
        for seat, code, play in state.trail:
            if play >= 0:
                steps.append(str(codec.index_to_action(play)))
            elif seat < 0:
                steps.append(f"starter {card_from_code(code)}")
            elif seat == player or self.open:
                steps.append(f"seat {seat + 1} draws {card_from_code(code)}")
            else:
                steps.append(f"seat {seat + 1} draws")
        return " ".join(steps)


if GAME_TYPE.short_name not in pyspiel.registered_names():
    pyspiel.register_game(GAME_TYPE, HisssGame)
