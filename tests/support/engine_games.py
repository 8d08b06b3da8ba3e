"""A game of the ``v1`` learning environments rebuilt in the engine, without an environment: the
learning seat (when drawn) and the draws from ``SplitMix(seed)`` through the dealer, and every
opponent's move from ``next_decision(bot, state, seed)``, the single step of the bots' turn loop.

The tests compare it, decision by decision, with :class:`hisss.rl.HisssEnv` (``space="v1"``) and
with the compiled :class:`hisss.rl.batched.BatchedHisssEnv`, so each is shown to make the
choices any bot's turn makes for the same seed and turn.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from hisss.bots import make_bot
from hisss.bots.turns import SplitMix, next_decision
from hisss.core import Action, Deck, Rules, State, new_game
from hisss.rl.dealing import Dealer
from hisss.rl.spaces import terminal_rewards
from hisss.rl.versions import Space


class EngineGame:
    """The game of ``seed`` with the learning seat ``seat`` (or ``"random"``) against
    ``opponents`` (bot names of the other seats, in seat order), played to the learner's first
    decision; :meth:`step` plays the learner's index and on to its next decision."""

    def __init__(
        self,
        seed: int,
        players: int,
        rules: Rules,
        deck: Deck,
        seat: int | str,
        opponents: Sequence[str],
        *,
        normalize: bool = False,
    ) -> None:
        rng = SplitMix(seed)
        self.seed = seed
        self.seat = rng.randrange(players) if seat == "random" else int(seat)
        self.space = Space(rules, deck, players, "v1", normalize)
        self.state: State = new_game(players, rules, deck)
        self.dealer = Dealer()
        self.dealer.start(rng)
        others = [s for s in range(players) if s != self.seat]
        self.bots = {s: make_bot(name) for s, name in zip(others, opponents, strict=True)}
        #: Every opponent's move so far, as ``(turn, seat, action)``.
        self.moves: list[tuple[int, int, Action]] = []
        self._play_on()
        assert not self.state.is_terminal(), "the deal ended before the learner's turn"

    def _play_on(self) -> None:
        state = self.state
        while not state.is_terminal():
            if state.is_chance_node():
                self.dealer.draw(state)
                continue
            seat = state.to_move
            if seat == self.seat:
                return
            action = next_decision(self.bots[seat], state, self.seed)
            self.moves.append((state.turns, seat, action))
            state.push(action)

    def legal(self) -> list[int]:
        """The learner's legal indices now, in order (none at the end)."""
        return [] if self.state.is_terminal() else sorted(self.space.legal(self.state))

    def observation(self) -> npt.NDArray[np.float32]:
        """The learner's observation now."""
        return self.space.encode(self.state, self.seat)

    def step(self, index: int) -> float:
        """Play the learner's ``index`` and on; the reward (the result's share at the end)."""
        self.state.push(self.space.legal(self.state)[index])
        self._play_on()
        if not self.state.is_terminal():
            return 0.0
        return terminal_rewards(self.state.result().winners, self.state.players)[self.seat]


__all__ = ["EngineGame"]
