"""A live game: the state rebuilt from the stored log, the steps it accepts and its public view.

:class:`LiveGame` is pure: no I/O, no clock. It is built from a stored game and its log by
replaying every entry through the engine; the cards come from the game's seeded shuffle
(:func:`hisss.core.deal`) and each stored card is checked against it. The ``plan_*`` methods check
a step and return the log entry that would record it, changing nothing; :meth:`LiveGame.outcome`
tells the status and result an entry leads to, and :meth:`LiveGame.apply` applies a stored entry.
The server stores an entry before it applies it to the cached game, so that nobody ever sees a
step the database might still refuse, and can always throw the cache away and rebuild.

The log's entries (``kind``): ``starter`` (the server draws the first card, nobody's turn),
``draw`` (a seat draws; ``card`` is the card), ``play`` (a seat places the drawn card; ``action``
in notation), ``bot`` (a person seat is handed to a bot of level ``action``), ``person`` (the
seat's holder takes it back from the bot).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hisss.core import (
    Action,
    Card,
    DecidedBy,
    Deck,
    HisssError,
    IllegalActionError,
    Result,
    Rules,
    State,
    deal,
    new_game,
    parse_action,
    parse_card,
)
from hisss.i18n import explain_everywhere
from hisss.record import GameRecord, RecordBuilder, result_to_dict
from hisss.server.errors import ProtocolError
from hisss.storage import GameStatus, NewAction, StoredAction, StoredGame

#: The protocol version sent in ``welcome`` messages and served at ``/api/options``.
PROTOCOL_VERSION = 1


class LogError(HisssError):
    """A stored log that is not a game played by the rules (a damaged database)."""


@dataclass(slots=True)
class Seat:
    """A seat as the game knows it now (``seat`` counts from 0)."""

    seat: int
    kind: str
    name: str
    level: str | None
    open: bool


@dataclass(frozen=True, slots=True)
class Presence:
    """Whether a seat's player is connected, and for how long they have been away."""

    connected: bool
    away_seconds: float | None


class LiveGame:
    """A game being played, rebuilt from its log; see the module docstring."""

    def __init__(self, stored: StoredGame, log: Sequence[StoredAction]) -> None:
        self.id = stored.id
        self.code = stored.code
        self.title = stored.title
        self.status = stored.status
        self.seed = stored.seed
        self.created_at = stored.created_at
        self.rules = Rules.from_mapping(stored.rules)
        self.deck = Deck.from_mapping(stored.deck)
        self.seats = [Seat(s.seat, s.kind, s.name, s.level, s.open) for s in stored.seats]
        self.token_hashes = {s.seat: s.token_hash for s in stored.seats if s.token_hash}
        self.order = deal(self.deck, random.Random(self.seed))
        self.state: State = new_game(len(self.seats), self.rules, self.deck)
        self.version = 0
        self.last_event: dict[str, Any] | None = None
        self._builder = RecordBuilder(
            self.rules, self.deck, [s.name for s in self.seats], seed=self.seed, snapshots=True
        )
        for entry in log:
            try:
                self.apply(as_new(entry))
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
    def players(self) -> int:
        """The number of seats."""
        return len(self.seats)

    @property
    def cards_drawn(self) -> int:
        """Cards drawn so far, the starter included."""
        return self.deck.size - self.state.remaining

    @property
    def phase(self) -> str:
        """``waiting`` (for players), ``starting``, ``draw``, ``place`` or ``over``."""
        if self.status is GameStatus.OPEN:
            return "waiting"
        state = self.state
        if state.is_terminal():
            return "over"
        if not state.started:
            return "starting"
        return "place" if state.drawn is not None else "draw"

    @property
    def to_move(self) -> int | None:
        """The seat (from 0) to draw or place, or ``None``."""
        return self.state.to_move if self.phase in ("draw", "place") else None

    def server_step(self) -> tuple[str, int | None] | None:
        """The next step the server takes itself: ``("starter", None)``, ``("draw", seat)`` or
        ``("play", seat)`` for a bot seat; ``None`` when a person is to act or the game is not
        running."""
        if self.status is not GameStatus.RUNNING:
            return None
        phase = self.phase
        if phase == "starting":
            return ("starter", None)
        seat = self.to_move
        if seat is None or self.seats[seat].kind != "bot":
            return None
        return ("draw" if phase == "draw" else "play", seat)

    def bot_rng(self) -> random.Random:
        """The random generator of the next bot decision: fixed by the seed and the version, so a
        game rebuilt after a restart makes the same choice."""
        return random.Random(f"hisss-bot:{self.seed}:{self.version}")

    # ------------------------------------------------------------------ planning steps

    def _check_running(self) -> None:
        if self.status is GameStatus.OPEN:
            raise ProtocolError("not_started", "the game is waiting for players to join")
        if self.status is GameStatus.FINISHED or self.state.is_terminal():
            raise ProtocolError("game_over", "the game is over")

    def _check_turn(self, seat: int, phase: str) -> None:
        self._check_running()
        if self.to_move != seat:
            mover = self.to_move
            who = f"seat {mover + 1} is" if mover is not None else "nobody is"
            raise ProtocolError("not_your_turn", f"it is not your turn: {who} to move", resync=True)
        if self.phase != phase:
            drawn = self.state.drawn
            message = (
                f"you have drawn {drawn}: place it before drawing again"
                if phase == "draw"
                else "draw a card first, then place it"
            )
            raise ProtocolError("wrong_phase", message, resync=True)

    def plan_starter(self) -> NewAction:
        """The entry that draws the starter."""
        self._check_running()
        if self.phase != "starting":
            raise ProtocolError("wrong_phase", "the starter is already on the table")
        return NewAction(self.version + 1, "starter", card=str(self.order[0]))

    def plan_draw(self, seat: int) -> NewAction:
        """The entry for ``seat`` drawing the next card; raises :class:`ProtocolError`."""
        self._check_turn(seat, "draw")
        card = self.order[self.cards_drawn]
        return NewAction(self.version + 1, "draw", seat=seat, card=str(card))

    def plan_play(self, seat: int, text: object) -> NewAction:
        """The entry for ``seat`` placing the drawn card as ``text`` (notation)."""
        self._check_turn(seat, "place")
        if not isinstance(text, str) or len(text) > 64:
            raise ProtocolError("bad_action", "action must be text in the notation, e.g. 1R:orange")
        try:
            action = parse_action(text)
        except HisssError as exc:
            raise ProtocolError("bad_action", str(exc)) from None
        try:
            self.state.check_action(action)
        except IllegalActionError as exc:
            raise ProtocolError(
                "illegal_action",
                f"{action} is not legal: {exc.reason}",
                legal=[str(a) for a in self.state.legal_actions()],
            ) from None
        drawn = self.state.drawn
        return NewAction(self.version + 1, "play", seat=seat, action=str(action), card=str(drawn))

    def plan_bot_play(self, seat: int, action: Action) -> NewAction:
        """The entry for a bot's choice (checked like any other)."""
        return self.plan_play(seat, str(action))

    def plan_hand_over(self, seat: int, level: str, by: int | None) -> NewAction:
        """The entry handing person seat ``seat`` to a bot of ``level``; in a game still waiting
        for players, an open seat (which starts the game when it was the last one)."""
        if self.status is GameStatus.OPEN:
            if not self.seats[seat].open:
                raise ProtocolError(
                    "not_started", "before the game starts, only an open seat goes to a bot"
                )
        else:
            self._check_running()
        if self.seats[seat].kind != "person":
            raise ProtocolError("not_a_person", f"seat {seat + 1} is not played by a person")
        return NewAction(self.version + 1, "bot", seat=seat, action=level, by_seat=by)

    def plan_take_back(self, seat: int) -> NewAction:
        """The entry giving seat ``seat`` back to its person after a bot played it."""
        self._check_running()
        if self.seats[seat].kind != "bot" or seat not in self.token_hashes:
            raise ProtocolError("not_a_person", f"seat {seat + 1} was never a person's seat")
        return NewAction(self.version + 1, "person", seat=seat, by_seat=seat)

    # ------------------------------------------------------------------ applying

    def outcome(self, entry: NewAction) -> tuple[GameStatus, dict[str, Any] | None]:
        """The status the game will have after the planned ``entry``, and its result if that
        ends it; changes nothing. The server stores these with the entry, then applies it."""
        status = self.status
        state = self.state
        if entry.kind in ("starter", "draw", "play"):
            state = state.copy()
            if entry.kind == "play":
                state.apply(parse_action(entry.action or ""))
            else:
                state.draw(parse_card(entry.card or ""))
        elif (
            entry.kind == "bot"
            and status is GameStatus.OPEN
            and not any(s.open for s in self.seats if s.seat != entry.seat)
        ):
            status = GameStatus.RUNNING  # the last open seat went to a bot
        if state.is_terminal() and status is GameStatus.RUNNING:
            status = GameStatus.FINISHED
        finished = status is GameStatus.FINISHED
        return status, result_view(state, [s.name for s in self.seats]) if finished else None

    def apply(self, entry: NewAction) -> None:
        """Apply the next log entry; raises :class:`LogError` or :class:`ProtocolError` (then
        nothing changed) when it does not fit."""
        if entry.seq != self.version + 1:
            raise LogError(f"entry {entry.seq} does not follow version {self.version}")
        state = self.state
        event: dict[str, Any] = {"seq": entry.seq, "kind": entry.kind}
        if entry.kind == "starter":
            card = self._expected_card(entry.card)
            state.draw(card)
            self._builder.drew(card)
            event["card"] = str(card)
        elif entry.kind == "draw":
            seat = self._entry_seat(entry)
            if self.to_move != seat or self.phase != "draw":
                raise LogError(f"seat {seat + 1} draws out of turn")
            card = self._expected_card(entry.card)
            state.draw(card)
            self._builder.drew(card)
            event.update(seat=seat + 1, card=str(card))
        elif entry.kind == "play":
            seat = self._entry_seat(entry)
            if self.to_move != seat or self.phase != "place" or entry.action is None:
                raise LogError(f"seat {seat + 1} places out of turn")
            placed = state.drawn
            assert placed is not None
            action = parse_action(entry.action)
            before = len(state.pits[seat])
            state.apply(action)
            self._builder.placed(seat, placed, action, state)
            claimed = str(state.pits[seat][-1]) if len(state.pits[seat]) > before else None
            event.update(
                seat=seat + 1,
                card=str(placed),
                action=str(action),
                claimed=claimed,
                hisss=claimed is not None,
            )
        elif entry.kind in ("bot", "person"):
            seat = self._entry_seat(entry)
            target = self.seats[seat]
            if entry.kind == "bot":
                target.kind, target.level, target.open = "bot", entry.action, False
                if self.status is GameStatus.OPEN and not any(s.open for s in self.seats):
                    self.status = GameStatus.RUNNING
            else:
                target.kind, target.level = "person", None
            event.update(seat=seat + 1, level=target.level)
            if entry.by_seat is not None:
                event["by"] = entry.by_seat + 1
        else:
            raise LogError(f"unknown log entry kind {entry.kind!r}")
        self.version = entry.seq
        self.last_event = event
        if state.is_terminal() and self.status is GameStatus.RUNNING:
            self.status = GameStatus.FINISHED

    def _entry_seat(self, entry: NewAction) -> int:
        if entry.seat is None or not 0 <= entry.seat < self.players:
            raise LogError(f"entry {entry.seq} names no seat of the game")
        return entry.seat

    def _expected_card(self, text: str | None) -> Card:
        expected = self.order[self.cards_drawn]
        if text is None or parse_card(text) != expected:
            raise LogError(f"the stored card {text} is not the shuffle's next card {expected}")
        return expected

    # ------------------------------------------------------------------ views

    def result(self) -> dict[str, Any] | None:
        """The result with its explanation once the game is over, else ``None``."""
        return result_view(self.state, [s.name for s in self.seats])

    def seat_views(self, presence: Sequence[Presence] | None = None) -> list[dict[str, Any]]:
        """Each seat for messages: number (from 1), kind, name, level, open, presence."""
        out = []
        for seat in self.seats:
            here = presence[seat.seat] if presence is not None else None
            if seat.kind == "bot":
                here = Presence(True, None)  # a bot is always at the table
            out.append(
                {
                    "seat": seat.seat + 1,
                    "kind": seat.kind,
                    "name": seat.name,
                    "level": seat.level,
                    "open": seat.open,
                    "connected": here.connected if here is not None else False,
                    "away_seconds": here.away_seconds if here is not None else None,
                }
            )
        return out

    def view(self, presence: Sequence[Presence] | None = None) -> dict[str, Any]:
        """The public state: the ``state`` message of the protocol, the same for every client."""
        state = self.state
        result = state.result()
        phase = self.phase
        to_move = self.to_move
        return {
            "type": "state",
            "game": self.id,
            "code": self.code,
            "version": self.version,
            "status": self.status.value,
            "phase": phase,
            "to_move": to_move + 1 if to_move is not None else None,
            "drawn": str(state.drawn) if state.drawn is not None else None,
            "legal": [str(a) for a in state.legal_actions()] if phase == "place" else [],
            **table_view(state, result),
            "turn": state.turns,
            "seats": self.seat_views(presence),
            "last_event": self.last_event,
            "result": self.result(),
        }

    def summary(self, presence: Sequence[Presence] | None = None) -> dict[str, Any]:
        """The game for lists and the lobby: no table, no secrets."""
        return {
            "id": self.id,
            "code": self.code,
            "title": self.title,
            "status": self.status.value,
            "phase": self.phase,
            "version": self.version,
            "rules": self.rules.to_mapping(),
            "preset": self.rules.preset,
            "deck": self.deck.name,
            "players": self.players,
            "seats": self.seat_views(presence),
            "open_seats": [s.seat + 1 for s in self.seats if s.open],
            "to_move": self.to_move + 1 if self.to_move is not None else None,
            "cards_left": self.state.remaining,
            "created_at": self.created_at.isoformat(),
            "result": self.result(),
        }

    def record(self) -> GameRecord:
        """The game record so far (with the seed only once the game is over: the seed tells every
        card still to come)."""
        record = self._builder.finish(self.state)
        if not self.state.is_terminal():
            record = GameRecord(
                record.rules, record.deck, record.seats, record.cards, record.turns, None, None
            )
        return record


def as_new(entry: StoredAction) -> NewAction:
    """The stored log entry ``entry`` as an entry to apply."""
    return NewAction(entry.seq, entry.kind, entry.seat, entry.action, entry.card, entry.by_seat)


def result_view(state: State, names: Sequence[str]) -> dict[str, Any] | None:
    """The result of a finished game for messages: the record's fields (seats from 1), whether a
    tie-break settled it, and how it was decided in words, naming the seats by ``names``: in
    English (``explanation``) and in every language of the front end (``explanations``);
    ``None`` before the end."""
    if not state.is_terminal():
        return None
    result = state.result()
    out = result_to_dict(result)
    first = state.rules.scoring.measures[0]
    out["tie_break"] = result.decided_by not in (first, DecidedBy.TARGET)
    out["explanations"] = explain_everywhere(result, state.rules, names)
    out["explanation"] = out["explanations"]["en"]
    return out


def table_view(state: State, result: Result) -> dict[str, Any]:
    """The table, pits, scores and cards left of a position: the part of a view that live
    games and replays share."""
    return {
        "table": [str(s) for s in state.table],
        "pits": [[str(s) for s in pit] for pit in state.pits],
        "scores": [
            {"cards": c, "snakes": n, "longest": g}
            for c, n, g in zip(result.cards, result.snakes, result.longest, strict=True)
        ],
        "cards_left": state.remaining,
    }


def state_view(
    state: State, step: int, steps: int, event: dict[str, Any] | None, names: Sequence[str]
) -> dict[str, Any]:
    """The view of a replay position: after ``step`` of ``steps`` placements, the seats named
    ``names``."""
    result = state.result()
    return {
        "step": step,
        "steps": steps,
        **table_view(state, result),
        "drawn": str(state.drawn) if state.drawn is not None else None,
        "last_event": event,
        "result": result_view(state, names),
    }
