"""A live game: the game driver rebuilt from the stored log, the steps it accepts, its views.

:class:`LiveGame` is pure: no I/O, no clock. It wraps the one game driver,
:class:`hisss.record.Game`, dealt from the game's secret seed, and rebuilds it by applying every
entry of the stored log; each stored card is checked against the shuffle. The ``plan_*`` methods
check a step and return the log entry that would record it, changing nothing (a placement keeps
its parsed and checked action, so that applying that very entry once stored checks it no more);
:meth:`LiveGame.outcome` tells the status and result an entry leads to, and
:meth:`LiveGame.apply` applies a stored entry through the driver. The server stores an entry before
it applies it to the cached game, so that nobody ever sees a step the database might still
refuse, and can always throw the cache away and rebuild.

The log's entries are those of :class:`hisss.storage.EntryKind`: ``starter`` (the server draws the
first card, nobody's turn), ``draw`` (a seat draws; ``card`` is the card), ``play`` (a seat places
the drawn card; ``action`` in notation), ``bot`` (a person seat is handed to a bot of level
``action``), ``person`` (the seat's holder takes it back from the bot), and after the end
``rematch``: a seat asks for a rematch, or (with no seat) the rematch game ``action`` was made.

The view of a game carries what its page shows besides the table: the log of the moves and
claims (``log``), which placements of the drawn card would complete a snake (``claims``, for
beginners) and the rematch asked for; the table, the pits and the result are written by
:mod:`hisss.server.views`, which live games and replays share.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hisss.bots.features import claim_of
from hisss.bots.levels import make_level
from hisss.bots.turns import BotTurns, Draw, End, Turn
from hisss.core import (
    Action,
    Card,
    HisssError,
    IllegalActionError,
    Result,
    Rules,
    Scoring,
    State,
    parse_action,
    parse_card,
)
from hisss.core.decks import Deck
from hisss.record import Game, GameRecord, Phase, Seat, SeatKind, SnakeTexts
from hisss.server.errors import ErrorCode, ProtocolError
from hisss.server.hands import check_level, hand_fields
from hisss.server.protocol import EventData, Message
from hisss.server.views import play_event, result_view, table_view
from hisss.storage import EntryKind, GameStatus, LogEntry, StoredGame

#: The protocol version sent in ``welcome`` messages and served at ``/api/options``.
PROTOCOL_VERSION = 1


class LogError(HisssError):
    """A stored log that is not a game played by the rules (a damaged database)."""


@dataclass(frozen=True, slots=True)
class Presence:
    """Whether a seat's player is connected, for how long they have been away, and whether
    they have connected at all (a seat whose link nobody has opened yet waits longer)."""

    connected: bool
    away_seconds: float | None
    arrived: bool = True


def seat_view(number: int, seat: Seat, presence: Presence | None = None) -> dict[str, Any]:
    """A seat as every message shows it: ``number`` counts from 0 and is shown from 1; a bot is
    always at the table, a person is connected only when ``presence`` says so."""
    if seat.is_bot:
        presence = Presence(True, None)
    return {
        "seat": number + 1,
        "kind": seat.kind.value,
        "name": seat.name,
        "level": seat.level,
        "open": seat.open,
        "connected": presence.connected if presence is not None else False,
        "away_seconds": presence.away_seconds if presence is not None else None,
        "arrived": presence.arrived if presence is not None else False,
    }


class LiveGame:
    """A game being played, rebuilt from its log; see the module docstring."""

    def __init__(self, stored: StoredGame, log: Sequence[LogEntry]) -> None:
        self.id = stored.id
        self.code = stored.code
        self.title = stored.title
        self.status = stored.status
        self.created_at = stored.created_at
        self.token_hashes = dict(stored.token_hashes)
        self.public = stored.public
        self.pace = stored.pace
        self.game = Game(
            Rules.from_mapping(stored.rules),
            Deck.from_mapping(stored.deck),
            stored.seats,
            seed=stored.seed,
            snapshots=True,
        )
        self.version = 0
        self._turn_key: tuple[int, GameStatus] | None = None
        self._turn_value: tuple[Phase, int | None] = (Phase.WAITING, None)
        self.last_event: EventData | None = None
        #: Every step but the draws, as its ``last_event``: the page's log of moves.
        self.history: list[EventData] = []
        self._snake_texts = SnakeTexts()
        #: The placement last planned (:meth:`plan_play`) with its action, parsed and checked:
        #: applied once stored without working either out again.
        self._planned: tuple[LogEntry, Action] | None = None
        #: The pits of the latest view and their scores.
        self._scored: tuple[object, Result] | None = None
        #: The seats (from 0) that asked for a rematch, and the rematch's code once made.
        self.rematch_votes: set[int] = set()
        self.rematch_code: str | None = None
        for entry in log:
            try:
                self.apply(entry)
            except (HisssError, ProtocolError) as exc:
                raise LogError(
                    f"game {self.id}: log entry {entry.seq} cannot be replayed: {exc}"
                ) from None
        if self.version != stored.version:
            raise LogError(
                f"game {self.id}: the log holds {self.version} entries, the game says "
                f"{stored.version}"
            )

    # ------------------------------------------------------------------ queries

    @property
    def state(self) -> State:
        """The position."""
        return self.game.state

    @property
    def rules(self) -> Rules:
        """The game's rules."""
        return self.game.rules

    @property
    def deck(self) -> Deck:
        """The game's deck."""
        return self.game.deck

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seats as they are now (a bot may have taken over a person's seat)."""
        return self.game.seats

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.game.players

    @property
    def phase(self) -> Phase:
        """``waiting`` (for players) while seats are open, else the driver's phase."""
        return self._turn()[0]

    @property
    def to_move(self) -> int | None:
        """The seat (from 0) to draw or place, or ``None``."""
        return self._turn()[1]

    def _turn(self) -> tuple[Phase, int | None]:
        # Asked about ten times a step (checks, views, the driver): worked out once per
        # version and status, the only things it depends on.
        key = (self.version, self.status)
        if self._turn_key != key:
            phase = Phase.WAITING if self.status is GameStatus.OPEN else self.game.phase
            to_move = self.game.to_move if phase in (Phase.DRAW, Phase.PLACE) else None
            self._turn_key, self._turn_value = key, (phase, to_move)
        return self._turn_value

    def has_seats_of(self, stored: StoredGame) -> bool:
        """Whether the game's status, seats and tokens are those ``stored``."""
        return (
            self.status is stored.status
            and self.seats == stored.seats
            and self.token_hashes == stored.token_hashes
        )

    def server_step(self) -> Draw | Turn | None:
        """The next step the server takes itself, as the bots' turn loop plans it
        (:meth:`bot_turns`): a :class:`~hisss.bots.turns.Draw` of a card the game draws itself
        (``seat`` ``None``: the starter, in the hand variant the deal and the refills) or of a
        bot seat's card, or a bot seat's :class:`~hisss.bots.turns.Turn` to place; ``None`` when
        a person is to act or the game is not running."""
        if self.status is not GameStatus.RUNNING:
            return None
        step = self.bot_turns().step(self.state)
        return None if isinstance(step, End) else step

    def bot_turns(self) -> BotTurns:
        """The bots' turn loop of this game as its seats are now: a new bot of each bot seat's
        level (``medium`` when it names none), seeded by the game's seed; people draw their own
        cards."""
        bots = {
            i: make_level(seat.level or "medium")
            for i, seat in enumerate(self.seats)
            if seat.is_bot
        }
        return BotTurns(bots, self.game.seed, people_draw=True)

    def hint_position(self, seat: int) -> State:
        """A copy of the position for a hint to ``seat``, a person who is to place the drawn
        card; raises ``no_hint``."""
        if self.to_move != seat or self.phase is not Phase.PLACE or self.seats[seat].is_bot:
            raise ProtocolError(ErrorCode.NO_HINT, "a hint is for your turn, once you have drawn")
        return self.state.copy()

    # ------------------------------------------------------------------ planning steps

    def _check_running(self) -> None:
        if self.status is GameStatus.OPEN:
            raise ProtocolError(ErrorCode.NOT_STARTED, "the game is waiting for players to join")
        if self.status is GameStatus.FINISHED or self.game.is_over():
            raise ProtocolError(ErrorCode.GAME_OVER, "the game is over")

    def _check_turn(self, seat: int, phase: Phase) -> None:
        self._check_running()
        if self.to_move != seat:
            mover = self.to_move
            who = f"seat {mover + 1} is" if mover is not None else "nobody is"
            raise ProtocolError(
                ErrorCode.NOT_YOUR_TURN, f"it is not your turn: {who} to move", resync=True
            )
        if self.phase is not phase:
            drawn = self.state.drawn
            message = (
                f"you have drawn {drawn}: place it before drawing again"
                if phase is Phase.DRAW
                else "draw a card first, then place it"
            )
            raise ProtocolError(ErrorCode.WRONG_PHASE, message, resync=True)

    def _next_card(self) -> Card:
        card = self.game.next_card()
        if card is None:  # pragma: no cover - a running game always has its next card dealt
            raise LogError(f"game {self.id}: no card left to draw")
        return card

    def plan_starter(self) -> LogEntry:
        """The entry of a card the server draws itself: the starter, or in the hand variant the
        next card dealt into a hand (of the deal, or the card the seat that played draws)."""
        self._check_running()
        if self.phase is Phase.STARTING:
            return LogEntry(self.version + 1, EntryKind.STARTER, card=str(self._next_card()))
        if not self.game.dealer_draws:
            raise ProtocolError(ErrorCode.WRONG_PHASE, "the starter is already on the table")
        seat = self.game.receiver
        return LogEntry(self.version + 1, EntryKind.DRAW, seat=seat, card=str(self._next_card()))

    def plan_draw(self, seat: int) -> LogEntry:
        """The entry for ``seat`` drawing the next card; raises :class:`ProtocolError`."""
        if not self.rules.seats_draw:
            raise ProtocolError(
                ErrorCode.WRONG_PHASE,
                "in the hand variant the server deals and fills the hands: play a card of yours",
            )
        self._check_turn(seat, Phase.DRAW)
        return LogEntry(self.version + 1, EntryKind.DRAW, seat=seat, card=str(self._next_card()))

    def plan_play(self, seat: int, text: object) -> LogEntry:
        """The entry for ``seat`` placing the drawn card as ``text`` (notation)."""
        self._check_turn(seat, Phase.PLACE)
        if not isinstance(text, str) or len(text) > 64:
            raise ProtocolError(
                ErrorCode.BAD_ACTION, "action must be text in the notation, e.g. 1R:orange"
            )
        try:
            action = parse_action(text)
        except HisssError as exc:
            raise ProtocolError(ErrorCode.BAD_ACTION, str(exc)) from None
        try:
            self.state.check_action(action)
        except IllegalActionError as exc:
            raise ProtocolError(
                ErrorCode.ILLEGAL_ACTION,
                f"{action} is not legal: {exc.reason}",
                legal=[str(a) for a in self.state.legal_actions()],
            ) from None
        entry = LogEntry(
            self.version + 1,
            EntryKind.PLAY,
            seat=seat,
            action=str(action),
            card=str(action.card if action.card is not None else self.state.drawn),
        )
        self._planned = (entry, action)
        return entry

    def plan_bot_play(self, seat: int, action: Action) -> LogEntry:
        """The entry for a bot's choice (checked like any other)."""
        return self.plan_play(seat, str(action))

    def plan_hand_over(self, seat: int, level: str, by: int | None) -> LogEntry:
        """The entry handing person seat ``seat`` to a bot of ``level``; in a game still waiting
        for players, an open seat (which starts the game when it was the last one)."""
        if self.status is GameStatus.OPEN:
            if not self.seats[seat].open:
                raise ProtocolError(
                    ErrorCode.NOT_STARTED, "before the game starts, only an open seat goes to a bot"
                )
        else:
            self._check_running()
        if self.seats[seat].kind is not SeatKind.PERSON:
            raise ProtocolError(
                ErrorCode.NOT_A_PERSON, f"seat {seat + 1} is not played by a person"
            )
        check_level(self.rules, level)
        return LogEntry(self.version + 1, EntryKind.BOT, seat=seat, action=level, by_seat=by)

    @property
    def rematch_seats(self) -> list[int]:
        """The seats (from 0) whose holders must ask for a rematch before it starts: every seat
        that was a person's (bots come along as they are)."""
        return sorted(self.token_hashes)

    def plan_rematch(self, seats: Sequence[int]) -> LogEntry:
        """The entry of the first of ``seats`` (one, or a device's) that has not asked for a
        rematch of the finished game asking for it."""
        if self.status is not GameStatus.FINISHED:
            raise ProtocolError(ErrorCode.NO_REMATCH, "a rematch is asked for after the end")
        if self.rematch_code is not None:
            raise ProtocolError(
                ErrorCode.NO_REMATCH, f"the rematch is made already: game {self.rematch_code}"
            )
        if not set(seats) <= set(self.rematch_seats):
            raise ProtocolError(ErrorCode.NOT_A_PERSON, "only the people at the table ask")
        waiting = [seat for seat in seats if seat not in self.rematch_votes]
        if not waiting:
            raise ProtocolError(ErrorCode.NO_REMATCH, "you have asked for the rematch already")
        seat = waiting[0]
        return LogEntry(self.version + 1, EntryKind.REMATCH, seat=seat, by_seat=seat)

    def rematch_agreed(self) -> bool:
        """Whether every seat that must has asked for the rematch, and it is not made yet."""
        return self.rematch_code is None and set(self.rematch_seats) <= self.rematch_votes

    def plan_rematch_made(self, code: str) -> LogEntry:
        """The entry saying the agreed rematch is the game ``code``."""
        if not self.rematch_agreed():
            raise ProtocolError(ErrorCode.NO_REMATCH, "the rematch is not agreed by every seat")
        return LogEntry(self.version + 1, EntryKind.REMATCH, action=code)

    def plan_take_back(self, seat: int) -> LogEntry:
        """The entry giving seat ``seat`` back to its person after a bot played it."""
        self._check_running()
        if not self.seats[seat].is_bot or seat not in self.token_hashes:
            raise ProtocolError(
                ErrorCode.NOT_A_PERSON, f"seat {seat + 1} was never a person's seat"
            )
        return LogEntry(self.version + 1, EntryKind.PERSON, seat=seat, by_seat=seat)

    # ------------------------------------------------------------------ applying

    def outcome(self, entry: LogEntry) -> tuple[GameStatus, dict[str, Any] | None]:
        """The status the game will have after the planned ``entry``, and its result if that
        ends it; changes nothing. The server stores these with the entry, then applies it."""
        status = self.status
        state = self.state
        if entry.kind is EntryKind.PLAY and self._may_end():
            # Only a placement ends a game: the last card, or a target reached. Any other step
            # is not worked out twice (here and again by :meth:`apply`).
            state = state.copy()
            state.apply(parse_action(entry.action or ""))
        elif (
            entry.kind is EntryKind.BOT
            and status is GameStatus.OPEN
            and not any(s.open for i, s in enumerate(self.seats) if i != entry.seat)
        ):
            status = GameStatus.RUNNING  # the last open seat went to a bot
        if state.is_terminal() and status is GameStatus.RUNNING:
            status = GameStatus.FINISHED
        finished = status is GameStatus.FINISHED
        return status, result_view(state, [s.name for s in self.seats]) if finished else None

    def _may_end(self) -> bool:
        """Whether the next placement may end the game: no card is left to draw (the last
        placement, or in the hand variant the hands played out), or the scoring ends the game
        when a pit reaches the target. A draw never ends a game."""
        return self.state.remaining == 0 or self.rules.scoring is Scoring.FIRST_TO

    def apply(self, entry: LogEntry) -> None:
        """Apply the next log entry; raises :class:`LogError` or :class:`ProtocolError` (then
        nothing changed) when it does not fit."""
        if entry.seq != self.version + 1:
            raise LogError(f"entry {entry.seq} does not follow version {self.version}")
        event = _APPLY[entry.kind](self, entry, {"seq": entry.seq, "kind": entry.kind.value})
        self.version = entry.seq
        self._planned = None
        self.last_event = event
        if entry.kind is not EntryKind.DRAW:
            self.history.append(event)
        if self.game.is_over() and self.status is GameStatus.RUNNING:
            self.status = GameStatus.FINISHED

    def _apply_starter(self, entry: LogEntry, event: EventData) -> EventData:
        if self.game.phase is not Phase.STARTING:
            raise LogError("the starter is drawn twice")
        event["card"] = str(self._draw(entry))
        return event

    def _apply_draw(self, entry: LogEntry, event: EventData) -> EventData:
        game = self.game
        seat = self._entry_seat(entry)
        due = game.receiver
        if due != seat or self.phase not in (Phase.DEAL, Phase.DRAW):
            raise LogError(f"seat {seat + 1} draws out of turn")
        card = str(self._draw(entry))
        # In the hand variant who drew is public; the card, only when hands are seen by all.
        hidden = self.rules.hides_cards
        event.update(seat=seat + 1, card=None if hidden else card)
        return event

    def _apply_play(self, entry: LogEntry, event: EventData) -> EventData:
        seat = self._entry_seat(entry)
        if self.to_move != seat or self.phase is not Phase.PLACE or entry.action is None:
            raise LogError(f"seat {seat + 1} places out of turn")
        planned = self._planned
        if planned is not None and planned[0] is entry:
            # The entry this game planned itself: its action is parsed and checked already.
            placement = self.game.push(planned[1])
        else:
            placement = self.game.place(parse_action(entry.action))
        return play_event(entry.seq, placement)

    def _apply_rematch(self, entry: LogEntry, event: EventData) -> EventData:
        if self.status is not GameStatus.FINISHED:
            raise LogError(f"entry {entry.seq}: a rematch before the end")
        if entry.seat is None:
            self.rematch_code = entry.action
            event["code"] = entry.action
        else:
            self.rematch_votes.add(self._entry_seat(entry))
            event["seat"] = entry.seat + 1
        return event

    def _apply_seat_change(self, entry: LogEntry, event: EventData) -> EventData:
        """A seat handed to a bot, or taken back by its person."""
        seat = self._entry_seat(entry)
        target = self.seats[seat]
        if entry.kind is EntryKind.BOT:
            target = dataclasses.replace(target, kind=SeatKind.BOT, level=entry.action, open=False)
            self.game.set_seat(seat, target)
            if self.status is GameStatus.OPEN and not any(s.open for s in self.seats):
                self.status = GameStatus.RUNNING
        else:
            target = dataclasses.replace(target, kind=SeatKind.PERSON, level=None)
            self.game.set_seat(seat, target)
        event.update(seat=seat + 1, level=target.level)
        if entry.by_seat is not None:
            event["by"] = entry.by_seat + 1
        return event

    def _entry_seat(self, entry: LogEntry) -> int:
        if entry.seat is None or not 0 <= entry.seat < self.players:
            raise LogError(f"entry {entry.seq} names no seat of the game")
        return entry.seat

    def _draw(self, entry: LogEntry) -> Card:
        expected = self._next_card()
        if entry.card is None or parse_card(entry.card) != expected:
            raise LogError(
                f"the stored card {entry.card} is not the shuffle's next card {expected}"
            )
        return self.game.draw(expected)

    # ------------------------------------------------------------------ views

    def result(self) -> dict[str, Any] | None:
        """The result with its explanation once the game is over, else ``None``."""
        return result_view(self.state, [s.name for s in self.seats])

    def seat_views(self, presence: Sequence[Presence] | None = None) -> list[dict[str, Any]]:
        """Each seat for messages, with its presence (see :func:`seat_view`)."""
        return [
            seat_view(i, seat, presence[i] if presence is not None else None)
            for i, seat in enumerate(self.seats)
        ]

    def view(self, presence: Sequence[Presence] | None = None) -> Message:
        """The ``state`` message of the protocol, the same for every client; in the hand variant
        with every seat's own part, kept by :func:`hisss.server.hands.for_seats` for its seats."""
        state = self.state
        scored = self._scored
        if scored is None or scored[0] is not state.pits:
            # The scores change only with the pits, which a step leaves as the same tuple
            # unless it claims a snake.
            scored = self._scored = (state.pits, state.result())
        result = scored[1]
        phase = self.phase
        to_move = self.to_move
        legal = state.legal_actions() if phase is Phase.PLACE else []
        legal_texts = [str(a) for a in legal]
        message = {
            "type": "state",
            "game": self.id,
            "code": self.code,
            "version": self.version,
            "status": self.status.value,
            "phase": phase.value,
            "to_move": to_move + 1 if to_move is not None else None,
            "drawn": str(state.drawn) if state.drawn is not None else None,
            "legal": legal_texts,
            "claims": {
                text: n
                for a, text in zip(legal, legal_texts, strict=True)
                if (n := claim_of(state, a))
            },
            **table_view(state, result, self._snake_texts),
            "turn": state.turns,
            "seats": self.seat_views(presence),
            "last_event": self.last_event,
            # A copy: the message may be sent after the game has moved on.
            "log": list(self.history),
            "pace": self.pace,
            "public": self.public,
            "rematch": self.rematch_view(),
            "result": self.result(),
        }
        if self.game.state.hand_sizes:
            message.update(hand_fields(self.game, playing=phase is Phase.PLACE))
        return message

    def rematch_view(self) -> dict[str, Any] | None:
        """Who must ask for the rematch, who has, and its game's code once made; ``None``
        before the end."""
        if self.status is not GameStatus.FINISHED:
            return None
        return {
            "needed": [s + 1 for s in self.rematch_seats],
            "asked": sorted(s + 1 for s in self.rematch_votes),
            "code": self.rematch_code,
        }

    def summary(self, presence: Sequence[Presence] | None = None) -> dict[str, Any]:
        """The game for lists and the lobby: no table, no secrets."""
        return {
            "id": self.id,
            "code": self.code,
            "title": self.title,
            "status": self.status.value,
            "phase": self.phase.value,
            "version": self.version,
            "rules": self.rules.to_mapping(),
            "preset": self.rules.preset,
            "deck": self.deck.name,
            "players": self.players,
            "seats": self.seat_views(presence),
            "open_seats": [i + 1 for i, s in enumerate(self.seats) if s.open],
            "public": self.public,
            "pace": self.pace,
            "to_move": self.to_move + 1 if self.to_move is not None else None,
            "cards_left": self.state.remaining,
            "created_at": self.created_at.isoformat(),
            "result": self.result(),
        }

    def record(self, seat: int | None = None) -> GameRecord:
        """The game record so far (with the seed only once the game is over: the seed tells every
        card still to come). In the hand variant, before the end, ``seat`` (from 0) asks: the
        record hides every hand but that seat's (:meth:`hisss.record.Game.record`)."""
        over = self.game.is_over()
        if self.rules.hides_cards and not over and seat is None:
            raise ProtocolError(
                ErrorCode.NOT_FINISHED,
                "a running game of the hand variant gives its record so far only to a seat: "
                "send the seat's token",
            )
        return self.game.record(with_seed=over, seat=None if over else seat)


#: How each kind of log entry applies to a live game; each gives the event it makes.
_APPLY: dict[EntryKind, Callable[[LiveGame, LogEntry, EventData], EventData]] = {
    EntryKind.STARTER: LiveGame._apply_starter,
    EntryKind.DRAW: LiveGame._apply_draw,
    EntryKind.PLAY: LiveGame._apply_play,
    EntryKind.REMATCH: LiveGame._apply_rematch,
    EntryKind.BOT: LiveGame._apply_seat_change,
    EntryKind.PERSON: LiveGame._apply_seat_change,
}
