"""The notation of snakes kept from one position to the next (:class:`SnakeTexts`).

A step changes one snake at most, and leaves every other snake as the same object: the game
driver's snapshots and the server's views write only the snakes that changed.
"""

from __future__ import annotations

from collections.abc import Sequence

from hisss.core import Snake


class SnakeTexts:
    """The notation of the snakes of one game's latest view, by the snake itself.

    Snakes are immutable, and a step leaves every snake it does not touch as the same object, so
    the text of a snake seen in the previous view is reused. Only the snakes of the latest view
    are kept.

    >>> from hisss.core import parse_snake
    >>> texts, snake = SnakeTexts(), parse_snake("H:red M:red-orange")
    >>> first = texts.of([snake]); texts.done()
    >>> first, texts.of([snake])[0] is first[0]
    (['H:red M:red-orange'], True)
    """

    def __init__(self) -> None:
        self._known: dict[int, tuple[Snake, str]] = {}
        self._seen: dict[int, tuple[Snake, str]] = {}

    def of(self, snakes: Sequence[Snake]) -> list[str]:
        """The notation of each of ``snakes``; call :meth:`done` after the view's last snake."""
        out = []
        for snake in snakes:
            key = id(snake)
            hit = self._known.get(key)
            if hit is None or hit[0] is not snake:  # the id of a snake gone since
                hit = (snake, str(snake))
            self._seen[key] = hit
            out.append(hit[1])
        return out

    def done(self) -> None:
        """Keep only the snakes of the view just made."""
        self._known, self._seen = self._seen, {}
