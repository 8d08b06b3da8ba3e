"""Playing one whole game between bots, and the per-game figures that statistics are made of.

:func:`play_game` deals the deck with an injected random generator (the starter first) and plays
it through the game driver (:class:`hisss.record.Game`) with the bots' turn loop
(:func:`hisss.bots.turns.bot_turns`): each card is drawn in turn, the bot of the seat to move
chooses an action and the driver plays it, until the game is over. In the hand variant the driver
deals and fills the hands, and each bot chooses from its seat's view
(:meth:`~hisss.bots.Bot.choose_from_hand`). It returns a
:class:`GameOutcome` with the result and per-game counts, and optionally the driver's record.

:func:`game_seed` derives the seed of each game of a run from the run's seed and the game's number,
so a game's course never depends on which other games were played or in what order.

>>> import random
>>> from hisss.bots import make_bots
>>> from hisss.core import RAINBOW, get_rules
>>> out = play_game(get_rules("classic"), RAINBOW, make_bots("random", 2), random.Random(1))
>>> out.turns, len(out.choices), sum(out.result.cards) + out.table_cards
(49, 49, 50)
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass

from hisss.bots import Bot
from hisss.bots.turns import bot_turns
from hisss.core import (
    ActionKind,
    Card,
    Deck,
    Result,
    Rules,
    deal,
)
from hisss.record import Game, GameRecord, Seat

_NEW = ActionKind.NEW
_EXTEND = ActionKind.EXTEND
_CAP = ActionKind.CAP
_JOIN = ActionKind.JOIN


def game_seed(seed: int, number: int) -> int:
    """The seed of game ``number`` (counted from 1) of a run seeded with ``seed``.

    A hash of both, so neighbouring games get unrelated seeds and the value is the same on every
    machine and every Python run.

    >>> game_seed(0, 1) == game_seed(0, 1) != game_seed(0, 2)
    True
    """
    digest = hashlib.sha256(f"hisss:{seed}:{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """What happened in one game."""

    #: The final score and winners.
    result: Result
    #: The number of cards placed (the starter not counted).
    turns: int
    #: The number of legal actions on each turn, in turn order.
    choices: tuple[int, ...]
    #: How many placements of each kind were played.
    new_snakes: int
    extends: int
    caps: int
    joins: int
    #: Snakes left unfinished on the table at the end, and the cards in them.
    table_snakes: int
    table_cards: int
    #: The lengths of the snakes in each seat's pit, in the order claimed.
    claimed: tuple[tuple[int, ...], ...] = ()
    #: The game's record, when one was asked for.
    record: GameRecord | None = None

    @property
    def legal_actions_per_turn(self) -> float | None:
        """The mean number of legal actions over the game's turns (``None`` with no turns)."""
        return sum(self.choices) / len(self.choices) if self.choices else None

    @property
    def turns_with_choice(self) -> int:
        """The number of turns with two or more legal actions."""
        return sum(1 for n in self.choices if n > 1)


def play_game(
    rules: Rules,
    deck: Deck,
    bots: Sequence[Bot],
    rng: random.Random,
    *,
    record: bool = False,
    seed: int | None = None,
    snapshots: bool = False,
    cards: Sequence[Card] | None = None,
) -> GameOutcome:
    """Play one whole game with one bot per seat (seat 1 first) and return its outcome.

    The deal comes from ``rng`` (``hisss.core.deal``) unless ``cards`` gives it (starter first, for
    stacked decks). The game is played by the bots' turn loop (:func:`hisss.bots.turns.bot_turns`),
    whose decisions are seeded by ``seed`` and the turn; without a ``seed`` one is drawn from
    ``rng`` after the deal. With ``record`` the outcome carries the game's record, which stores
    ``seed`` as the seed that dealt the game (and, with ``snapshots``, the table and pits after
    every turn).
    Raises :class:`~hisss.core.ConfigError` when the rules do not allow ``len(bots)`` players, and
    :class:`~hisss.core.IllegalActionError` when a bot returns an action that is not legal.
    """
    order = deal(deck, rng) if cards is None else cards
    seats = [Seat.bot(bot.name, bot.name) for bot in bots]
    game = Game(rules, deck, seats, seed=seed, cards=order, snapshots=record and snapshots)
    state = game.state
    choices: list[int] = []
    kinds = {_NEW: 0, _EXTEND: 0, _CAP: 0, _JOIN: 0}
    decisions = seed if seed is not None else rng.getrandbits(63)
    # The deal and the draws into a hand are nobody's choice: the loop draws them; a stacked
    # deck shorter than the deck ends the game when it runs out.
    stop = None if cards is None else lambda: game.cards_drawn == len(order)
    for _, action, legal in bot_turns(game, bots, decisions, stop=stop):
        choices.append(legal)
        kinds[action.kind] += 1
    return GameOutcome(
        result=state.result(),
        turns=state.turns,
        choices=tuple(choices),
        new_snakes=kinds[_NEW],
        extends=kinds[_EXTEND],
        caps=kinds[_CAP],
        joins=kinds[_JOIN],
        table_snakes=len(state.table),
        table_cards=sum(len(s.cards) for s in state.table),
        claimed=tuple(tuple(len(s.cards) for s in pit) for pit in state.pits),
        record=game.record() if record else None,
    )
