"""Starting a game: :func:`new_game` makes the state the rules ask for, the classic game's
:class:`~hisss.core.state.State` or the hand variant's :class:`~hisss.core.hands.HandState`
(a subclass, in a module of its own that imports the classic state's); :func:`seen_by` is what
one seat may know of either."""

from __future__ import annotations

from hisss.core.decks import RAINBOW, Deck, get_deck
from hisss.core.errors import ConfigError
from hisss.core.hands import HandState, SeatView
from hisss.core.rules import Rules, get_rules
from hisss.core.state import State


def new_game(
    players: int = 2, rules: Rules | str | None = None, deck: Deck | str = RAINBOW
) -> State:
    """A new game before the starter is drawn (a :class:`~hisss.core.hands.HandState` when the
    rules ask for hands).

    ``rules`` is a :class:`Rules` or a preset name (default ``classic``); ``deck`` a :class:`Deck`
    or a built-in deck name. Raises :class:`~hisss.core.errors.ConfigError` when the rules do not
    allow ``players``, :class:`~hisss.core.errors.DeckError` for an unknown deck name.
    """
    if rules is None:
        rules = Rules()
    elif isinstance(rules, str):
        rules = get_rules(rules)
    elif not isinstance(rules, Rules):
        raise ConfigError(f"rules must be Rules or a preset name, not {type(rules).__name__}")
    if isinstance(deck, str):
        deck = get_deck(deck)
    elif not isinstance(deck, Deck):
        raise ConfigError(f"deck must be a Deck or a deck name, not {type(deck).__name__}")
    if rules.hand_size:
        return HandState(rules, deck, players)
    return State(rules, deck, players)


def seen_by(state: State, seat: int) -> State | SeatView:
    """What ``seat`` (0-based) may know of ``state``: in the classic game, where nothing is
    hidden, a copy of the position; in the hand variant the seat's
    :class:`~hisss.core.hands.SeatView` (its own hand, the others' only when seen by all).

    Raises ``IndexError`` for a seat the game does not have.
    """
    if isinstance(state, HandState):
        return state.view(seat)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise IndexError(f"there is no seat {seat!r} (seats 0 to {state.players - 1})")
    return state.copy()


__all__ = ["new_game", "seen_by"]
