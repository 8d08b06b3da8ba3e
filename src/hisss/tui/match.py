"""One game as the terminal game plays it: the seats, the dealt card order, the position, the turns
played, the bots, hints, undo and the game record. Nothing here draws on the screen.

The deck is dealt once from the seed (:func:`hisss.core.deal` with ``random.Random(seed)``): the
fan of face-down cards is the same thing as that order, so whichever card of the fan a player
picks, the next card of the order comes. A saved game holds the seed, so a loaded game goes on
with the same remaining cards. Bots draw their randomness from a generator seeded by the game's
seed and the turn number, so the same game played again, or loaded and finished, plays the same.

>>> from hisss.core import RAINBOW, Rules
>>> from hisss.core.snake import lone
>>> match = Match(parse_players("Ala,bot:medium", Rules()), Rules(), RAINBOW, seed=5)
>>> match.state.table[0] == lone(match.order[0]), match.person_to_move()
(True, True)
>>> card = match.draw()
>>> claimed = match.place(match.state.legal_actions()[0])
>>> match.bot_to_move(), match.undo_block()
(True, 'undo.wait')
"""

from __future__ import annotations

import hashlib
import random
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from hisss.bots import Bot, make_bot, make_level
from hisss.bots.levels import LEVEL_NAMES
from hisss.core import Action, Card, ConfigError, Deck, Rules, Snake, State, deal, new_game
from hisss.record import GameRecord, RecordError, Turn, replay, result_to_dict

#: A seat written ``bot:LEVEL`` (in ``--players`` and in a record's seats) is a bot of that level.
BOT_PREFIX = "bot:"
#: The longest name of a person.
MAX_NAME = 20


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat at the table: a person with a name, or a bot of a level (``level`` set)."""

    name: str
    level: str | None = None

    @property
    def is_bot(self) -> bool:
        """True for a bot's seat."""
        return self.level is not None

    @property
    def record_name(self) -> str:
        """The seat as a record and ``--players`` write it: the name, or ``bot:LEVEL``."""
        return f"{BOT_PREFIX}{self.level}" if self.level is not None else self.name


def parse_seat(text: str, where: str) -> Seat:
    """One seat from its text: ``bot:LEVEL`` or a person's name; ``where`` names it in errors."""
    name = text.strip()
    if name.lower().startswith(BOT_PREFIX):
        level = name[len(BOT_PREFIX) :].strip().lower()
        if level not in LEVEL_NAMES:
            raise ConfigError(
                f"{where}: unknown bot level {level!r} in {name!r} "
                f"(levels: {', '.join(LEVEL_NAMES)})"
            )
        return Seat(f"{BOT_PREFIX}{level}", level)
    if not name:
        raise ConfigError(f"{where}: a name is empty (give names separated by commas)")
    if len(name) > MAX_NAME:
        raise ConfigError(f"{where}: the name {name!r} is longer than {MAX_NAME} characters")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise ConfigError(f"{where}: the name {name!r} holds a control character")
    return Seat(name)


def parse_players(spec: str, rules: Rules, where: str = "players") -> tuple[Seat, ...]:
    """The seats of ``--players``: names separated by commas, ``bot:LEVEL`` for a bot.

    Raises :class:`~hisss.core.ConfigError` for an empty name, a name given twice (whatever its
    case), an unknown level, or a number of players the rules do not allow; its message starts
    with ``where`` and the text given.

    >>> [s.record_name for s in parse_players("Ala, bot:Hard", Rules())]
    ['Ala', 'bot:hard']
    >>> parse_players("Ala,ala", Rules())
    Traceback (most recent call last):
    ...
    hisss.core.errors.ConfigError: players 'Ala,ala': the name 'ala' is given twice
    """
    where = f"{where} {spec!r}"
    seats = tuple(parse_seat(part, where) for part in spec.split(","))
    seen: set[str] = set()
    for seat in seats:
        key = seat.name.casefold()
        if not seat.is_bot and key in seen:
            raise ConfigError(f"{where}: the name {seat.name!r} is given twice")
        seen.add(key)
    try:
        rules.check_players(len(seats))
    except ConfigError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    return seats


def move_seed(seed: int | None, turn: int) -> int:
    """The seed of the random generator a bot or a hint uses on ``turn`` (counted from 0).

    >>> move_seed(1, 0) == move_seed(1, 0) != move_seed(1, 1)
    True
    """
    digest = hashlib.sha256(f"hisss-play:{seed}:{turn}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class Match:
    """A game in play; see the module docstring.

    ``order`` is the whole card order (the starter first); by default it is dealt from ``seed``.
    The starter is drawn at once: it is nobody's turn.
    """

    def __init__(
        self,
        seats: Sequence[Seat],
        rules: Rules,
        deck: Deck,
        seed: int | None,
        order: Sequence[Card] | None = None,
    ) -> None:
        rules.check_players(len(seats))
        self.seats = tuple(seats)
        self.rules = rules
        self.deck = deck
        self.seed = seed
        self.order: tuple[Card, ...] = (
            tuple(order) if order is not None else tuple(deal(deck, random.Random(seed)))
        )
        self.state: State = new_game(len(self.seats), rules, deck)
        self.turns: list[Turn] = []
        self.bots: dict[int, Bot] = {
            i: make_level(seat.level) for i, seat in enumerate(self.seats) if seat.level
        }
        self._hint_bot: Bot | None = None
        if self.order:
            self.state.draw(self.order[0])

    # ------------------------------------------------------------------ queries

    @property
    def drawn_cards(self) -> int:
        """The number of cards drawn so far, the starter included."""
        return self.deck.size - self.state.remaining

    @property
    def people(self) -> list[int]:
        """The seats of people, in seat order."""
        return [i for i, seat in enumerate(self.seats) if not seat.is_bot]

    def is_over(self) -> bool:
        """True when the game has ended."""
        return self.state.is_terminal()

    def seat_to_move(self) -> int | None:
        """The seat that draws or places next, or ``None`` when the game is over."""
        return None if self.is_over() else self.state.to_move

    def bot_to_move(self) -> bool:
        """True when a bot draws or places next."""
        seat = self.seat_to_move()
        return seat is not None and self.seats[seat].is_bot

    def person_to_move(self) -> bool:
        """True when a person draws or places next."""
        seat = self.seat_to_move()
        return seat is not None and not self.seats[seat].is_bot

    def is_demo(self) -> bool:
        """True when every seat is a bot."""
        return not self.people

    # ------------------------------------------------------------------ playing

    def draw(self) -> Card:
        """The seat to move draws: the next card of the order (whichever card of the fan)."""
        if not self.state.is_chance_node() or self.drawn_cards >= len(self.order):
            raise ConfigError("no card can be drawn now")
        card = self.order[self.drawn_cards]
        self.state.draw(card)
        return card

    def place(self, action: Action) -> list[Snake]:
        """Place the drawn card as ``action`` (checked); returns the snakes it claimed."""
        state = self.state
        card, seat = state.drawn, state.to_move
        before = len(state.pits[seat])
        state.apply(action)
        assert card is not None
        self.turns.append(Turn(seat, card, action))
        return list(state.pits[seat][before:])

    def bot_choice(self, snapshot: State) -> Action:
        """The action the bot of the seat to move in ``snapshot`` chooses (``snapshot`` is a copy
        of :attr:`state`, so that this may run on another thread)."""
        bot = self.bots[snapshot.to_move]
        return bot.choose(snapshot, random.Random(move_seed(self.seed, snapshot.turns)))

    def hint(self, snapshot: State) -> Action:
        """What the strongest bot (``expert``, with its deterministic node budget) would play."""
        if self._hint_bot is None:
            self._hint_bot = make_bot("expert", levels=False)
        return self._hint_bot.choose(snapshot, random.Random(move_seed(self.seed, snapshot.turns)))

    # ------------------------------------------------------------------ undo

    def undo_block(self) -> str | None:
        """Why undo is not possible now (a message key), or ``None`` when it is."""
        people = self.people
        if not people:
            return "undo.no_people"
        if len(people) > 1:
            return "undo.people"
        if self.bot_to_move():
            return "undo.wait"
        if not any(turn.player == people[0] for turn in self.turns):
            return "undo.nothing"
        return None

    def undo(self) -> None:
        """Go back to just after the person's last draw: their last placement and every bot move
        since are taken back, and the same card waits to be placed again."""
        reason = self.undo_block()
        if reason is not None:
            raise ConfigError(f"cannot undo now ({reason})")
        person = self.people[0]
        last = max(i for i, turn in enumerate(self.turns) if turn.player == person)
        state = self.state
        while len(self.turns) > last or state.drawn is None:
            if state.drawn is None:
                self.turns.pop()  # the last step was a placement: it goes back to the drawn card
            state.undo()

    # ------------------------------------------------------------------ records

    def record(self) -> GameRecord:
        """The game so far as a game record (with the result once it is over)."""
        state = self.state
        return GameRecord(
            self.rules,
            self.deck,
            tuple(seat.record_name for seat in self.seats),
            self.order[: self.drawn_cards],
            tuple(self.turns),
            self.seed,
            result_to_dict(state.result()) if state.is_terminal() else None,
        )

    @classmethod
    def from_record(cls, record: GameRecord) -> Match:
        """The game of a record, ready to go on (or over, for a finished game).

        The record is replayed and checked first. Going on needs the seed that dealt the game:
        raises :class:`~hisss.record.RecordError` when the record's cards are not the order its
        seed deals.
        """
        final = replay(record)
        seats = tuple(
            parse_seat(name, f"seat {i + 1} of the record")
            if name.startswith(BOT_PREFIX)
            # A person's name is taken as written: records from elsewhere may name seats freely.
            else Seat(name)
            for i, name in enumerate(record.seats)
        )
        order: Sequence[Card] | None = None
        if final.is_terminal():
            order = record.cards
        elif record.seed is None:
            raise RecordError(
                "seed", "missing: an unfinished game goes on only with the seed that dealt it"
            )
        else:
            dealt = deal(record.deck, random.Random(record.seed))
            if tuple(dealt[: len(record.cards)]) != record.cards:
                raise RecordError(
                    "cards",
                    f"not the order the seed {record.seed} deals, so the game cannot go on "
                    "with the same cards",
                )
        match = cls(seats, record.rules, record.deck, record.seed, order)
        for turn in record.turns:
            match.draw()
            match.place(turn.action)
        if len(record.cards) > len(record.turns) + 1:
            match.draw()
        return match

    def again(self) -> Match:
        """A new game with the same seats, rules and deck, dealt from the next seed."""
        seed = (self.seed if self.seed is not None else 0) + 1
        return Match(self.seats, self.rules, self.deck, seed)


__all__ = [
    "BOT_PREFIX",
    "MAX_NAME",
    "Match",
    "Seat",
    "move_seed",
    "parse_players",
    "parse_seat",
]
