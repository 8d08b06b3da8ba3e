"""The rules core of Hisss: cards, decks, rule options, state, actions, notation and scoring.

Standard library only, no I/O and no global randomness: every random choice takes an injected
``random.Random``.
"""

from hisss.core.actions import NEW, Action, ActionKind, End, parse_action
from hisss.core.cards import WHEEL, WILD, Card, CardKind, Colour, parse_card, parse_colour
from hisss.core.decks import ALL_PAIRS, BUILTIN_DECKS, DOUBLE, RAINBOW, Deck, get_deck
from hisss.core.errors import (
    ConfigError,
    DeckError,
    HisssError,
    IllegalActionError,
    IllegalDrawError,
    NotationError,
)
from hisss.core.hands import HandState, SeatView
from hisss.core.rules import MAX_HAND_SIZE, PRESETS, DecidedBy, JoinClaim, Rules, Scoring, get_rules
from hisss.core.scoring import Result, places, score
from hisss.core.snake import Snake, parse_snake
from hisss.core.starting import new_game, seen_by
from hisss.core.state import Placement, State, deal

__all__ = [
    "ALL_PAIRS",
    "BUILTIN_DECKS",
    "DOUBLE",
    "MAX_HAND_SIZE",
    "NEW",
    "PRESETS",
    "RAINBOW",
    "WHEEL",
    "WILD",
    "Action",
    "ActionKind",
    "Card",
    "CardKind",
    "Colour",
    "ConfigError",
    "DecidedBy",
    "Deck",
    "DeckError",
    "End",
    "HandState",
    "HisssError",
    "IllegalActionError",
    "IllegalDrawError",
    "JoinClaim",
    "NotationError",
    "Placement",
    "Result",
    "Rules",
    "Scoring",
    "SeatView",
    "Snake",
    "State",
    "deal",
    "get_deck",
    "get_rules",
    "new_game",
    "parse_action",
    "parse_card",
    "parse_colour",
    "parse_snake",
    "places",
    "score",
    "seen_by",
]
