"""Replay: rebuild a game from its record through the game driver, checking every step.

This module owns :func:`replay_game`, :func:`replay`, :func:`replay_steps`, :func:`resume` and
:class:`ReplayError`. Replay never needs the seed: the driver draws the recorded cards in order.
For each turn it checks that the game is not over, that the turn's card is the next card of the
order and can be drawn from the deck, that the turn's seat is the one to move, that the action is
legal, and that the optional table and pit snapshots match. At the end it checks what is left of
the card order (at most one drawn card still to be placed) and the optional result.

In the hand variant the card order is the starter, the deal and each card drawn into a hand:
replay draws every card the game calls for before each turn, checks that the turn's card is in the
hand of the seat to play (the legality of the play) and the optional snapshot of the hands. A
record made for one seat, with the other hands hidden, cannot be replayed.

Turns are numbered from 1; turn 0 is the header and the starter.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence

from hisss.core.cards import Card
from hisss.core.errors import (
    ConfigError,
    HisssError,
    IllegalActionError,
    IllegalDrawError,
    NotationError,
)
from hisss.core.hands import HandState
from hisss.core.state import State, deal
from hisss.record.format import GameRecord, RecordError, Turn, printable, result_to_dict, show_value
from hisss.record.game import Game
from hisss.record.seats import Seat


class ReplayError(HisssError):
    """A record that is not a game played by the rules; ``turn`` counts from 1 (0: the header).

    ``kind`` names what is wrong, for a front end to say in its own words: ``setup`` (the header
    does not make a game), ``cards`` (the card order: a card that is not the next one, cannot be
    drawn, or too few or too many cards), ``seat`` (the wrong player), ``move`` (a placement the
    rules do not allow), ``snapshot`` (a table, pits or hands that differ from the game's),
    ``over`` (turns after the end) or ``result`` (a result that is not the game's).
    """

    KINDS = ("setup", "cards", "seat", "move", "snapshot", "over", "result")

    def __init__(self, turn: int, reason: str, kind: str = "move") -> None:
        assert kind in self.KINDS, kind
        self.turn = turn
        self.reason = reason
        self.kind = kind
        super().__init__(printable(f"turn {turn}: {reason}", None))


def replay_game(
    record: GameRecord, *, turns: int | None = None, seats: Sequence[Seat] | None = None
) -> Game:
    """The game of ``record`` rebuilt through the driver, every step checked; raises
    :class:`ReplayError`.

    The game ends at the end of the record (with the next card drawn when the record holds it),
    or after its first ``turns`` turns, without the checks of the record's end. ``seats`` gives
    the seats (default: a person per name of the record).
    """
    checker = _Replay(record, seats)
    for number, turn in enumerate(record.turns[:turns], 1):
        checker.play(number, turn)
    if turns is None:
        checker.finish()
    return checker.game


def replay(record: GameRecord) -> State:
    """Rebuild the game of ``record`` and return its final state; raises :class:`ReplayError`.

    The final state is the end of the game, or for a saved unfinished game the position after the
    last recorded turn (with the next card drawn when the record holds it).
    """
    return replay_game(record).state


def replay_steps(record: GameRecord) -> Iterator[State]:
    """Yield a copy of the state after each turn of ``record``, checking as :func:`replay` does.

    The checks of the end of the record (left-over cards, the result) run when the iteration is
    exhausted, after the last state is yielded.
    """
    checker = _Replay(record, None)
    for number, turn in enumerate(record.turns, 1):
        checker.play(number, turn)
        yield checker.game.state.copy()
    checker.finish()


def resume(record: GameRecord, seats: Sequence[Seat] | None = None) -> Game:
    """The game of ``record``, checked by :func:`replay_game`, ready to go on with the cards its
    seed deals (a finished game comes back over).

    Going on needs the seed that dealt the game: raises :class:`~hisss.record.RecordError` when an
    unfinished record has no seed, or when its cards are not the order its seed deals.
    """
    game = replay_game(record, seats=seats)
    if game.is_over():
        return game
    if record.seed is None:
        raise RecordError(
            "seed", "missing: an unfinished game goes on only with the seed that dealt it"
        )
    dealt = tuple(deal(record.deck, random.Random(record.seed)))
    if dealt[: len(record.cards)] != record.cards:
        raise RecordError(
            "cards",
            f"not the order the seed {record.seed} deals, so the game cannot go on "
            "with the same cards",
        )
    game.order = dealt
    return game


class _Replay:
    """A game being rebuilt from a record, step by step."""

    def __init__(self, record: GameRecord, seats: Sequence[Seat] | None) -> None:
        self.record = record
        if None in record.cards:
            hidden = record.cards.index(None)
            raise ReplayError(
                0,
                f"card {hidden + 1} of the card order is hidden (a record made for one seat "
                "hides the other hands), so the game cannot be replayed",
                kind="cards",
            )
        self.cards: tuple[Card, ...] = tuple(c for c in record.cards if c is not None)
        if seats is None:
            seats = [Seat.person(name) for name in record.seats]
        try:
            self.game = Game(record.rules, record.deck, seats, seed=record.seed, cards=self.cards)
        except ConfigError as exc:
            raise ReplayError(
                0, f"the header does not describe a game: {exc}", kind="setup"
            ) from None
        self.hands = isinstance(self.game.state, HandState)
        if self.cards:
            self._draw(0)
            if self.hands:
                self._draw_due(0)
        elif record.turns:
            raise ReplayError(0, "the card order is empty, so there is no starter", kind="cards")

    def _draw_due(self, number: int) -> None:
        """The hand variant: draw every card the game calls for that the record holds."""
        game = self.game
        while game.state.is_chance_node() and game.cards_drawn < len(self.cards):
            self._draw(number)

    def _draw(self, number: int) -> None:
        game = self.game
        try:
            game.draw()
        except IllegalDrawError:
            card = self.cards[game.cards_drawn]
            deck = game.deck
            copies = deck.count(card)
            if copies == 0:
                reason = (
                    f"card {card} cannot be drawn: the deck {_json(deck.name)} has no such card"
                )
            else:
                reason = (
                    f"card {card} cannot be drawn: the deck {_json(deck.name)} has {copies} "
                    f"{'copy' if copies == 1 else 'copies'} and all were drawn before"
                )
            raise ReplayError(number, reason, kind="cards") from None

    def play(self, number: int, turn: Turn) -> None:
        game = self.game
        if game.is_over():
            raise ReplayError(
                number,
                f"the game is over after turn {number - 1}, but the record goes on",
                kind="over",
            )
        if self.hands:
            self._play_hand(number, turn)
            return
        if number >= len(self.cards):
            raise ReplayError(
                number,
                f"the card order ends after {len(self.cards)} cards, none left for this turn",
                kind="cards",
            )
        expected = self.cards[number]
        if turn.card != expected:
            raise ReplayError(
                number,
                f"card {turn.card} is not the next card of the order ({expected} is)",
                kind="cards",
            )
        self._draw(number)
        state = game.state
        if turn.player != state.to_move:
            raise ReplayError(
                number,
                f"seat {_seat(turn.player)} is recorded, but seat {state.to_move + 1} is to move",
                kind="seat",
            )
        try:
            game.place(turn.action)
        except IllegalActionError as exc:
            table = " | ".join(f"{i + 1}: {s}" for i, s in enumerate(state.table)) or "empty"
            raise ReplayError(
                number,
                f"action {turn.action} is illegal: {exc.reason} "
                f"(placing {expected}; table {table})",
            ) from None
        if turn.table is not None:
            self._check_table(number, turn.table)
        if turn.pits is not None:
            self._check_pits(number, turn.pits)

    def _play_hand(self, number: int, turn: Turn) -> None:
        game = self.game
        state = game.state
        assert isinstance(state, HandState)
        if state.current_player is None:
            raise ReplayError(
                number,
                f"the card order ends after {len(self.cards)} cards, before the cards of this "
                "turn's hand are drawn",
                kind="cards",
            )
        if turn.player != state.to_move:
            raise ReplayError(
                number,
                f"seat {_seat(turn.player)} is recorded, but seat {state.to_move + 1} is to play",
                kind="seat",
            )
        try:
            game.place(turn.action.where.play(turn.card))
        except (IllegalActionError, NotationError) as exc:
            raise ReplayError(
                number, f"{turn.card}@{turn.action} is illegal: {getattr(exc, 'reason', exc)}"
            ) from None
        if turn.table is not None:
            self._check_table(number, turn.table)
        if turn.pits is not None:
            self._check_pits(number, turn.pits)
        if turn.hands is not None:
            for seat, (hand, theirs) in enumerate(zip(state.hands, turn.hands, strict=False)):
                mine = [str(c) for c in hand]
                if theirs is not None and mine != list(theirs):
                    raise ReplayError(
                        number,
                        f"hands snapshot mismatch: seat {seat + 1} holds {_json(mine)} after the "
                        f"turn, the record says {_json(list(theirs))}",
                        kind="snapshot",
                    )
        self._draw_due(number)

    def _check_table(self, number: int, recorded: Sequence[str]) -> None:
        actual = [str(s) for s in self.game.state.table]
        if len(actual) != len(recorded):
            raise ReplayError(
                number,
                f"table snapshot mismatch: the table has {len(actual)} snakes after the turn, "
                f"the record says {len(recorded)}",
                kind="snapshot",
            )
        for i, (mine, theirs) in enumerate(zip(actual, recorded, strict=True)):
            if mine != theirs:
                raise ReplayError(
                    number,
                    f"table snapshot mismatch: snake {i + 1} is {_json(mine)} after the turn, "
                    f"the record says {_json(theirs)}",
                    kind="snapshot",
                )

    def _check_pits(self, number: int, recorded: Sequence[Sequence[str]]) -> None:
        pits = self.game.state.pits
        if len(pits) != len(recorded):
            raise ReplayError(
                number,
                f"pits snapshot mismatch: the game has {len(pits)} pits, "
                f"the record {len(recorded)}",
                kind="snapshot",
            )
        for seat, (pit, theirs) in enumerate(zip(pits, recorded, strict=True)):
            mine = [str(s) for s in pit]
            if mine != list(theirs):
                raise ReplayError(
                    number,
                    f"pits snapshot mismatch: seat {seat + 1}'s pit is {_json(mine)} after the "
                    f"turn, the record says {_json(list(theirs))}",
                    kind="snapshot",
                )

    def finish(self) -> State:
        state = self.game.state
        placed = len(self.record.turns)
        extra = len(self.cards) - placed - 1
        if self.hands:
            self._draw_due(placed + 1)
            extra = len(self.cards) - self.game.cards_drawn
            if extra > 0:
                raise ReplayError(
                    placed + 1,
                    f"the card order has {extra} more {'card' if extra == 1 else 'cards'} than "
                    "the game draws",
                    kind="cards",
                )
        elif extra > 0:
            if state.is_terminal():
                raise ReplayError(
                    placed + 1,
                    f"the game is over after turn {placed}, but the card order has {extra} "
                    f"more {'card' if extra == 1 else 'cards'}",
                    kind="cards",
                )
            if extra > 1:
                raise ReplayError(
                    placed + 1,
                    f"the card order has {extra} cards after the last turn; a record holds "
                    "only the cards drawn, at most one of them not yet placed",
                    kind="cards",
                )
            self._draw(placed + 1)
        recorded = self.record.result
        if recorded is not None:
            if not state.is_terminal():
                left = (
                    f"{state.remaining} cards not drawn"
                    if state.remaining
                    else "a card is to be placed"
                )
                raise ReplayError(
                    placed,
                    f"the record gives a result, but the game is not over ({left})",
                    kind="result",
                )
            actual = result_to_dict(state.result())
            for key, value in recorded.items():
                mine = actual.get(key)
                wanted = list(value) if isinstance(value, tuple) else value
                if mine != wanted:
                    raise ReplayError(
                        placed,
                        f"result mismatch: the record says {key} {_json(wanted)}, "
                        f"the game gives {_json(mine)}",
                        kind="result",
                    )
        return state


def _json(value: object) -> str:
    """A value as JSON writes it, as the record holds it."""
    try:
        return json.dumps(value, ensure_ascii=False, default=repr)
    except (ValueError, RecursionError):  # a whole number too long to write, deep nesting
        return show_value(value)


def _seat(player: object) -> str:
    return str(player + 1) if isinstance(player, int) else repr(player)
