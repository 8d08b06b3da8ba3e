"""Setting up a game: checking a new game's rules, deck and seats, and the seats' names and secret
tokens. Nothing here touches the database or a live game.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from hisss.bots import LEVEL_NAMES
from hisss.core import BUILTIN_DECKS, ConfigError, Deck, Rules, get_deck
from hisss.record import MAX_NAME as NAME_LIMIT
from hisss.record import Seat, SeatKind, SeatNameError, check_name
from hisss.server.errors import ErrorCode, ProtocolError
from hisss.server.hands import check_level
from hisss.server.settings import PACES
from hisss.storage import StoredGame

#: The longest name a seat may have, in graphemes (the records' rule for names).
MAX_NAME = NAME_LIMIT
#: The longest game title.
MAX_TITLE = 80


def new_token() -> str:
    """A new secret seat token."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What the database keeps of a token: its SHA-256, in hexadecimal. (A token is ASCII; text
    that JSON can spell but UTF-8 cannot, a lone surrogate, still hashes, to match nothing.)"""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_seats(token_hashes: dict[int, str], token: object) -> tuple[int, ...]:
    """The seats (from 0) whose token ``token`` is, by their ``token_hashes``: one, or every
    person seat of a game on one device; raises ``bad_token``."""
    if not isinstance(token, str) or not 0 < len(token) <= 256:
        raise ProtocolError(ErrorCode.BAD_TOKEN, "a seat token is text of up to 256 characters")
    hashed = token_hash(token)
    seats = tuple(
        seat for seat, stored in sorted(token_hashes.items()) if hmac.compare_digest(stored, hashed)
    )
    if not seats:
        raise ProtocolError(
            ErrorCode.BAD_TOKEN, "this token is not the token of any seat of this game"
        )
    return seats


def clean_name(value: object, default: str, what: str = "name") -> str:
    """A seat name or title: stripped, without control characters; ``default`` when empty."""
    if value is None:
        return default
    limit = MAX_TITLE if what == "title" else MAX_NAME
    try:
        text = check_name(value, limit, what)  # type: ignore[arg-type]
    except SeatNameError as exc:
        raise ProtocolError(ErrorCode.BAD_SEATS, str(exc)) from None
    return text or default


@dataclass(frozen=True, slots=True)
class GameSpec:
    """A checked game to create."""

    rules: Rules
    deck: Deck
    seats: tuple[Seat, ...]
    title: str = ""
    #: Whether the lobby lists the game.
    public: bool = False
    #: The bots' pace (a key of :data:`hisss.server.settings.PACES`).
    pace: str = "normal"
    #: Played on one device: every person seat is held with one token, and none is open.
    device: bool = False


def build_spec(
    preset: str,
    options: dict[str, Any],
    deck: str,
    seats: Sequence[Seat],
    title: str | None = None,
    *,
    public: bool = False,
    pace: str = "normal",
    device: bool = False,
) -> GameSpec:
    """Check a game's set-up; raises :class:`ProtocolError` (``bad_rules``, ``bad_deck``,
    ``bad_seats``, ``bad_level``) with the reason. A seat without a name gets one (``Player 2``,
    ``Bot 3 (hard)``); a bot without a level plays at ``medium``. A game on one ``device`` has
    no open seat."""
    rules = _checked_rules(preset, options, pace)
    if not isinstance(deck, str) or deck.strip().lower() not in BUILTIN_DECKS:
        raise ProtocolError(
            ErrorCode.BAD_DECK, f"unknown deck {deck!r} (decks: {', '.join(BUILTIN_DECKS)})"
        )
    the_deck = get_deck(deck)
    try:
        rules.check_players(len(seats))
    except ConfigError as exc:
        raise ProtocolError(ErrorCode.BAD_SEATS, str(exc)) from None
    checked = [_checked_seat(number, seat, rules) for number, seat in enumerate(seats, 1)]
    if all(s.is_bot for s in checked):
        raise ProtocolError(
            ErrorCode.BAD_SEATS, "a game needs at least one person (bots play on alone)"
        )
    if device and any(s.open for s in checked):
        raise ProtocolError(
            ErrorCode.BAD_SEATS, "a game on one device has no open seat: everyone is here"
        )
    return GameSpec(
        rules, the_deck, tuple(checked), clean_name(title, "", "title"), public, pace, device
    )


@dataclass(frozen=True, slots=True)
class CreatedGame:
    """A new game and the tokens of its reserved person seats (seat from 0 -> token)."""

    game: StoredGame
    tokens: dict[int, str]


def _renumbered(name: str, old: int, new: int) -> str:
    """A seat's name at another seat: a name the server gave ("Player 2", "Bot 3 (easy)") takes
    the new seat's number; a name someone chose stays as it is."""
    for default in (f"Player {old}", f"Bot {old} ("):
        if name == default or (default.endswith("(") and name.startswith(default)):
            return name.replace(str(old), str(new), 1)
    return name


def rematch_seating(seats: Sequence[Seat], held: Collection[int]) -> tuple[Seat, ...]:
    """The seats of a rematch: the same people (reserved for the holders of the seats ``held``)
    and bots, moved one seat round (seat 2 becomes seat 1, seat 1 the last), so that each rematch
    gives the first turn to the next player. A name the server gave follows the new seat."""
    count = len(seats)
    moved: list[Seat] = []
    for new in range(count):
        old = (new + 1) % count
        seat = seats[old]
        if old in held:
            seat = Seat.person(_renumbered(seat.name, old + 1, new + 1))
        elif seat.is_bot:
            seat = Seat.bot(_renumbered(seat.name, old + 1, new + 1), seat.level or "medium")
        moved.append(seat)
    return tuple(moved)


def rematch_tokens(token_hashes: dict[int, str], count: int) -> dict[int, str]:
    """The token hashes of a rematch of ``count`` seats: each holder keeps their token, at the
    seat :func:`rematch_seating` moves them to."""
    return {(seat - 1) % count: digest for seat, digest in token_hashes.items()}


def _checked_rules(preset: str, options: dict[str, Any], pace: str) -> Rules:
    """The rules of a preset with its options set, checked together with the bots' pace."""
    if pace not in PACES:
        raise ProtocolError(
            ErrorCode.BAD_RULES, f"unknown bot pace {pace!r} (paces: {', '.join(PACES)})"
        )
    if not isinstance(options, dict):
        raise ProtocolError(ErrorCode.BAD_RULES, "set must be an object of rule options")
    if "preset" in options:
        raise ProtocolError(ErrorCode.BAD_RULES, "give the preset as rules, not inside set")
    try:
        rules = Rules.from_mapping({"preset": preset, **options})
    except (ConfigError, TypeError, ValueError) as exc:
        raise ProtocolError(ErrorCode.BAD_RULES, str(exc)) from None
    return rules


def _checked_seat(number: int, seat: Seat, rules: Rules) -> Seat:
    """Seat ``number`` (from 1) checked, with its name and a bot's level filled in."""
    try:
        kind = SeatKind(seat.kind)
    except ValueError:
        raise ProtocolError(
            ErrorCode.BAD_SEATS,
            f"seat {number}: kind must be person or bot, not {seat.kind!r}",
        ) from None
    if kind is SeatKind.BOT:
        level = (seat.level or "medium").strip().lower()
        if level not in LEVEL_NAMES:
            raise ProtocolError(
                ErrorCode.BAD_LEVEL,
                f"seat {number}: unknown level {seat.level!r} (levels: {', '.join(LEVEL_NAMES)})",
            )
        check_level(rules, level, f"seat {number}: ")
        if seat.open:
            raise ProtocolError(ErrorCode.BAD_SEATS, f"seat {number}: a bot seat cannot be open")
        return Seat.bot(clean_name(seat.name, f"Bot {number} ({level})"), level)
    if seat.level is not None:
        raise ProtocolError(ErrorCode.BAD_SEATS, f"seat {number}: a person has no level")
    name = clean_name(seat.name, f"Player {number}")
    return Seat.person(name, open=seat.open)
