"""One game as the terminal game plays it: the game driver (:class:`hisss.record.Game`) with what
the terminal adds on top: the bots of its seats, hints, and the undo policy. Nothing here draws on
the screen, deals, works out a claim or builds a record: the driver does.

The deck is dealt once from the seed (:func:`hisss.core.deal` with ``random.Random(seed)``): the
fan of face-down cards is the same thing as that order, so whichever card of the fan a player
picks, the next card of the order comes. A saved game holds the seed, so a loaded game goes on
with the same remaining cards. What the bots do next is the bots' turn loop's
(:class:`hisss.bots.turns.BotTurns`: :meth:`Match.next_step`), which the terminal app drives with
its pauses; a bot's move, and a hint (:func:`hisss.bots.turns.next_decision`), draw on a generator
seeded by the game's seed and the turn number, so the same game played again, or loaded and
finished, plays the same.

>>> from hisss.core import RAINBOW, Rules
>>> from hisss.core.snake import lone
>>> match = Match(parse_players("Ala,bot:medium", Rules()), Rules(), RAINBOW, seed=5)
>>> match.game.state.table[0] == lone(match.game.order[0]), match.person_to_move()
(True, True)
>>> card = match.draw()
>>> placed = match.place(match.game.state.legal_actions()[0])
>>> placed.seat, placed.card == card, placed.claimed
(0, True, None)
>>> match.bot_to_move(), match.undo_block()
(True, 'undo.wait')
"""

from __future__ import annotations

from collections.abc import Sequence

from hisss.bots import Bot, make_bot, make_level
from hisss.bots.levels import LEVEL_NAMES, check_level
from hisss.bots.turns import BotTurns, Step, next_decision
from hisss.core import Action, Card, ConfigError, Deck, Placement, Rules, State
from hisss.record import MAX_NAME as NAME_LIMIT
from hisss.record import (
    Game,
    GameRecord,
    Phase,
    Seat,
    SeatNameError,
    check_name,
    printable,
    resume,
)

#: A seat written ``bot:LEVEL`` (in ``--players`` and in a record's seats) is a bot of that level.
BOT_PREFIX = "bot:"
#: The longest name of a person.
MAX_NAME = NAME_LIMIT


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
        return Seat.bot(f"{BOT_PREFIX}{level}", level)
    if not name:
        raise ConfigError(f"{where}: a name is empty (give names separated by commas)")
    try:
        name = check_name(name, MAX_NAME)
    except SeatNameError as exc:
        raise ConfigError(f"{where}: {printable(name)!r}: {exc}") from None
    return Seat.person(name)


def parse_players(spec: str, rules: Rules, where: str = "players") -> tuple[Seat, ...]:
    """The seats of ``--players``: names separated by commas, ``bot:LEVEL`` for a bot.

    Raises :class:`~hisss.core.ConfigError` for an empty name, a name given twice (whatever its
    case), an unknown level, or a number of players the rules do not allow; its message starts
    with ``where`` and the text given.

    >>> [s.name for s in parse_players("Ala, bot:Hard", Rules())]
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


class Match:
    """A game in play: a :class:`~hisss.record.Game` and the terminal's bots, hints and undo.

    The cards are dealt from ``seed`` and the starter is drawn at once: it is nobody's turn.
    Raises :class:`~hisss.core.ConfigError` when the rules do not allow that many seats or a bot's
    seat has no level of :data:`~hisss.bots.levels.LEVEL_NAMES`.
    """

    #: The game driver: the seats, the card order, the position, the placements and the record.
    game: Game
    #: The bot of each bot's seat.
    bots: dict[int, Bot]
    #: The bots' turn loop of this game: people draw their own cards.
    turns: BotTurns

    def __init__(self, seats: Sequence[Seat], rules: Rules, deck: Deck, seed: int) -> None:
        self._start(Game(rules, deck, seats, seed=seed))

    def _start(self, game: Game) -> None:
        bots = {}
        for i, seat in enumerate(game.seats):
            level = seat.level
            if not seat.is_bot:
                continue
            if level is None or level not in LEVEL_NAMES:
                raise ConfigError(
                    f"seat {i + 1} ({seat.name!r}): a bot of the terminal game needs a level "
                    f"({', '.join(LEVEL_NAMES)}), not {level!r}"
                )
            try:
                check_level(game.rules, level)
            except ConfigError as error:
                raise ConfigError(f"seat {i + 1} ({seat.name!r}): {error}") from None
            bots[i] = make_level(level)
        self.game = game
        self.bots = bots
        self.turns = BotTurns(bots, game.seed, people_draw=True)
        self._hint_bot: Bot | None = None
        if game.phase is Phase.STARTING:
            game.draw()
        self._deal_hands()

    def _deal_hands(self) -> None:
        """The cards the game draws itself (:attr:`hisss.record.Game.dealer_draws`: in the hand
        variant the deal and the draw after each play) are drawn at once, so a seat of the hand
        variant only ever plays."""
        game = self.game
        while game.dealer_draws:
            game.draw()

    # ------------------------------------------------------------------ queries

    @property
    def people(self) -> list[int]:
        """The seats of people, in seat order."""
        return [i for i, seat in enumerate(self.game.seats) if not seat.is_bot]

    def is_over(self) -> bool:
        """True when the game has ended."""
        return self.game.is_over()

    def bot_to_move(self) -> bool:
        """True when a bot draws or places next."""
        seat = self.game.to_move
        return seat is not None and self.game.seats[seat].is_bot

    def person_to_move(self) -> bool:
        """True when a person draws or places next."""
        seat = self.game.to_move
        return seat is not None and not self.game.seats[seat].is_bot

    def holds_hands(self) -> bool:
        """True when the seats hold cards in hand (the hand variant)."""
        return bool(self.game.state.hand_sizes)

    def is_demo(self) -> bool:
        """True when every seat is a bot."""
        return not self.people

    # ------------------------------------------------------------------ playing

    def draw(self) -> Card:
        """The seat to move draws: the next card of the order (whichever card of the fan)."""
        if self.game.phase is not Phase.DRAW:
            raise ConfigError("no card can be drawn now")
        return self.game.draw()

    def place(self, action: Action) -> Placement:
        """Place the drawn card as ``action`` (checked); returns what happened (the driver's
        :class:`~hisss.core.Placement`, with the snake claimed, if any). In the hand variant
        ``action`` names the card of the hand it plays, and the seat then draws its next card."""
        placement = self.game.place(action)
        self._deal_hands()
        return placement

    def next_step(self) -> Step:
        """What the bots' turn loop does next: a bot seat's :class:`~hisss.bots.turns.Draw`, its
        :class:`~hisss.bots.turns.Turn` to place, or the :class:`~hisss.bots.turns.End` (a person
        is to move, or the game is over). The cards the game draws itself are drawn already."""
        return self.turns.step(self.game.state)

    def hint(self, snapshot: State) -> Action:
        """What the strongest bot (``expert``, with its deterministic node budget) would play;
        in the hand variant it sees only the view of the seat to move."""
        if self._hint_bot is None:
            self._hint_bot = make_bot("expert", levels=False)
        return next_decision(self._hint_bot, snapshot, self.game.seed)

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
        if not any(placed.seat == people[0] for placed in self.game.placements):
            return "undo.nothing"
        return None

    def undo(self) -> None:
        """Go back to just after the person's last draw: their last placement and every bot move
        since are taken back, and the same card waits to be placed again (in the hand variant:
        the person holds the same hand again)."""
        reason = self.undo_block()
        if reason is not None:
            raise ConfigError(f"cannot undo now ({reason})")
        game, person = self.game, self.people[0]
        placements = game.placements
        last = max(i for i, placed in enumerate(placements) if placed.seat == person)
        while len(placements) > last or (game.rules.seats_draw and game.state.drawn is None):
            game.undo()

    # ------------------------------------------------------------------ records

    def record(self) -> GameRecord:
        """The game so far as a game record (with the result once it is over)."""
        return self.game.record()

    @classmethod
    def from_record(cls, record: GameRecord) -> Match:
        """The game of a record, ready to go on (or over, for a finished game).

        The record is replayed and checked first (:func:`hisss.record.resume`). Going on needs
        the seed that dealt the game: raises :class:`~hisss.record.RecordError` when an unfinished
        record has no seed or its cards are not the order its seed deals.
        """
        seats = tuple(
            parse_seat(name, f"seat {i + 1} of the record")
            if name.startswith(BOT_PREFIX)
            # A person's name is taken as written: records from elsewhere may name seats freely.
            else Seat.person(name)
            for i, name in enumerate(record.seats)
        )
        match = cls.__new__(cls)
        match._start(resume(record, seats))
        return match

    def again(self) -> Match:
        """A new game with the same seats, rules and deck, dealt from the next seed."""
        seed = (self.game.seed if self.game.seed is not None else 0) + 1
        return Match(self.game.seats, self.game.rules, self.game.deck, seed)


__all__ = [
    "BOT_PREFIX",
    "MAX_NAME",
    "Match",
    "parse_players",
    "parse_seat",
]
