"""The errors of the rules core.

One base class, :class:`HisssError`. Text that does not parse raises :class:`NotationError`; a
well-formed action or draw that the rules do not allow now raises :class:`IllegalActionError` or
:class:`IllegalDrawError`; a bad deck or set-up raises :class:`DeckError` or :class:`ConfigError`.
Every message names the input and, where there is one, the position. A rejected action or draw
leaves the state untouched.
"""

from __future__ import annotations


class HisssError(Exception):
    """Base class of every error the hisss package raises on purpose."""


class NotationError(HisssError, ValueError):
    """Text that is not valid notation for a card, an action or a snake."""


class SnakeError(HisssError, ValueError):
    """A snake whose cards break the shape rules (see :func:`hisss.core.snake.check_snake`)."""


class DeckError(HisssError, ValueError):
    """A deck description that is not valid; ``field`` names the offending field."""

    def __init__(self, field: str, reason: str) -> None:
        self.field = field
        self.reason = reason
        super().__init__(f"{field}: {reason}" if field else reason)


class ConfigError(HisssError, ValueError):
    """A game set-up that the rules do not allow (number of players, rule options)."""


class IllegalActionError(HisssError):
    """A well-formed action that is not legal in the current position."""

    def __init__(self, action: object, position: str, reason: str) -> None:
        self.action = action
        self.position = position
        self.reason = reason
        super().__init__(f"illegal action {action}: {reason} ({position})")


class IllegalDrawError(HisssError):
    """A draw that is not possible now: no draw is due, or the card is not among the remaining."""

    def __init__(self, card: object, position: str, reason: str) -> None:
        self.card = card
        self.position = position
        self.reason = reason
        super().__init__(f"illegal draw {card}: {reason} ({position})")


def show(value: object) -> str:
    """A value as a person wrote it in a JSON or TOML file, for error messages.

    >>> [show(v) for v in (True, None, 1.5, "7", [1], {"a": 1})]
    ['true', 'null', '1.5 (a number with a fraction)', '"7"', 'a list', 'an object']
    """
    if value is True or value is False:
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, float):
        return f"{value!r} (a number with a fraction)"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:37] + "..."
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
