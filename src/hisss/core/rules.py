"""Rule options and the named presets ``classic`` and ``pl``.

>>> PRESETS["pl"].join_claim
<JoinClaim.ALWAYS: 'always'>
>>> Rules().scoring
<Scoring.CARDS: 'cards'>
>>> [str(m) for m in Scoring.LONGEST.measures]
['longest', 'cards']
>>> Rules(hand_size=3).to_mapping()["hand_size"], "hand_size" in Rules().to_mapping()
(3, False)
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import Enum, StrEnum
from typing import Any

from hisss.core.errors import ConfigError, show

MIN_PLAYERS = 2
MAX_PLAYERS = 5
#: The largest table, allowed only with ``Rules(six_players=True)``.
MAX_PLAYERS_OPTION = 6
#: The largest hand of the hand variant (``Rules.hand_size``); 0 is the classic game.
MAX_HAND_SIZE = 5
#: The options of the hand variant, written in a record or a message only when they are used, so
#: that the classic game's mappings (and its records) stay as they were.
HAND_OPTIONS = ("hand_size", "hands_seen_by_all")


class JoinClaim(Enum):
    """Who takes a snake made by joining two snakes."""

    #: The joiner takes it only when the join completes it (head, tail and a mid-section).
    COMPLETE = "complete"
    #: The joiner always takes it, complete or not (the Polish text's reading).
    ALWAYS = "always"


class DecidedBy(StrEnum):
    """What settled the winner of a game: a measure, the target, or nothing (a shared win).

    The values are the notation of records and messages (``Result.decided_by``)."""

    #: The most cards in the pit.
    CARDS = "cards"
    #: The most snakes in the pit.
    SNAKES = "snakes"
    #: The longest single snake.
    LONGEST = "longest"
    #: The only player to reach the target of ``Scoring.FIRST_TO``.
    TARGET = "target"
    #: A tie on every measure: the tied players share the win.
    SHARED = "shared"


class Scoring(Enum):
    """How the winner is found."""

    #: Most cards in the pit; ties broken by the longest single snake, then shared.
    CARDS = "cards"
    #: Most snakes in the pit; ties broken by the longest single snake, then shared.
    SNAKES = "snakes"
    #: The longest single snake; ties broken by most cards, then shared.
    LONGEST = "longest"
    #: The first player to hold ``target`` cards ends the game and wins; if nobody does, as CARDS.
    FIRST_TO = "first-to"

    @property
    def measures(self) -> tuple[DecidedBy, DecidedBy]:
        """The measure that decides first under this scoring, then the tie-break after it."""
        if self is Scoring.SNAKES:
            return (DecidedBy.SNAKES, DecidedBy.LONGEST)
        if self is Scoring.LONGEST:
            return (DecidedBy.LONGEST, DecidedBy.CARDS)
        return (DecidedBy.CARDS, DecidedBy.LONGEST)  # CARDS, and FIRST_TO when nobody reached it


@dataclass(frozen=True, slots=True)
class Rules:
    """The rule options of a game. The defaults are the ``classic`` preset."""

    #: A drawn card must go onto a snake when it can; ``False`` allows a new snake on every turn.
    forced_placement: bool = True
    join_claim: JoinClaim = JoinClaim.COMPLETE
    scoring: Scoring = Scoring.CARDS
    #: With ``Scoring.FIRST_TO``: the number of cards that ends the game.
    target: int = 0
    #: Allow a sixth player.
    six_players: bool = False
    #: The hand variant: each player holds this many cards and plays one a turn (0: classic).
    hand_size: int = 0
    #: In the hand variant, every hand lies face up (for teaching).
    hands_seen_by_all: bool = False

    def __post_init__(self) -> None:
        for name in ("forced_placement", "six_players", "hands_seen_by_all"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"{name} must be true or false, not {show(getattr(self, name))}")
        if isinstance(self.target, bool) or not isinstance(self.target, int) or self.target < 0:
            raise ConfigError(f"target must be a whole number of cards, not {show(self.target)}")
        if not isinstance(self.join_claim, JoinClaim):
            raise ConfigError(f"join_claim must be a JoinClaim, not {self.join_claim!r}")
        if not isinstance(self.scoring, Scoring):
            raise ConfigError(f"scoring must be a Scoring, not {self.scoring!r}")
        if self.scoring is Scoring.FIRST_TO:
            if self.target < 1:
                raise ConfigError("scoring 'first-to' needs a target of at least 1 card")
        elif self.target:
            raise ConfigError("a target number of cards is used only with scoring 'first-to'")
        size = self.hand_size
        if isinstance(size, bool) or not isinstance(size, int) or not 0 <= size <= MAX_HAND_SIZE:
            raise ConfigError(
                f"hand_size must be a whole number from 0 (no hands, the classic game) to "
                f"{MAX_HAND_SIZE}, not {show(size)}"
            )
        if self.hands_seen_by_all and not size:
            raise ConfigError("hands_seen_by_all needs hands: set hand_size to 1 to 5 as well")

    @property
    def has_hands(self) -> bool:
        """True in the hand variant (``hand_size`` of 1 or more)."""
        return self.hand_size > 0

    @property
    def seats_draw(self) -> bool:
        """True when the seat to move draws the card it places (the classic game); False when
        the game itself deals the cards into the hands and refills them (the hand variant)."""
        return not self.hand_size

    @property
    def hides_cards(self) -> bool:
        """True when some cards are seen by their holder alone: the hand variant, unless every
        hand lies face up."""
        return self.hand_size > 0 and not self.hands_seen_by_all

    def without_variant(self) -> Rules:
        """These rules with the hand variant's options left out: what the table plays by."""
        return replace(self, hand_size=0, hands_seen_by_all=False)

    @property
    def max_players(self) -> int:
        """The largest number of players these rules allow."""
        return MAX_PLAYERS_OPTION if self.six_players else MAX_PLAYERS

    def check_players(self, players: int) -> None:
        """Raise :class:`ConfigError` unless ``players`` may play under these rules."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise ConfigError(f"the number of players must be a whole number, not {show(players)}")
        if not MIN_PLAYERS <= players <= self.max_players:
            extra = "" if self.six_players else " (6 with the option six_players=true)"
            counted = f"{players} player" if players == 1 else f"{players} players"
            raise ConfigError(
                f"{counted}: Hisss is played by {MIN_PLAYERS} to {self.max_players}{extra}"
            )

    @property
    def preset(self) -> str | None:
        """The name of the preset these rules equal, if any."""
        for name, rules in PRESETS.items():
            if rules == self:
                return name
        return None

    def to_mapping(self) -> dict[str, Any]:
        """The options as plain values, for records and messages."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in HAND_OPTIONS and not self.hand_size:
                continue
            out[f.name] = value.value if isinstance(value, Enum) else value
        return out

    @classmethod
    def from_mapping(cls, data: object) -> Rules:
        """Read options written by :meth:`to_mapping`; a ``preset`` key gives the starting point."""
        if not isinstance(data, dict):
            raise ConfigError(f"rules must be a table of options, not {show(data)}")
        data = dict(data)
        base = get_rules(data.pop("preset")) if "preset" in data else cls()
        known = {f.name for f in fields(cls)}
        changes: dict[str, Any] = {}
        for key, value in data.items():
            if key not in known:
                raise ConfigError(
                    f"unknown rule option {show(key)} (known: {', '.join(sorted(known))})"
                )
            try:
                if key == "join_claim":
                    changes[key] = JoinClaim(value.lower() if isinstance(value, str) else value)
                elif key == "scoring":
                    changes[key] = Scoring(value.lower() if isinstance(value, str) else value)
                else:
                    changes[key] = value
            except ValueError:
                raise ConfigError(f"rule option {key}: bad value {show(value)}") from None
            if key in ("forced_placement", "six_players", "hands_seen_by_all") and not isinstance(
                value, bool
            ):
                raise ConfigError(f"rule option {key}: expected true or false, not {show(value)}")
        return replace(base, **changes)


#: The named presets.
PRESETS: dict[str, Rules] = {
    "classic": Rules(),
    "pl": Rules(join_claim=JoinClaim.ALWAYS),
}


def get_rules(name: str) -> Rules:
    """A preset by name (``classic`` or ``pl``)."""
    try:
        return PRESETS[name.strip().lower()]
    except (KeyError, AttributeError):
        raise ConfigError(
            f"unknown rules preset {show(name)} (presets: {', '.join(PRESETS)})"
        ) from None
