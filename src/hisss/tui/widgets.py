"""The terminal game's own widgets: the fan of face-down cards and the table of snakes.

Both draw with :class:`~hisss.tui.render.Look` and report a pick or a click as a message; the
application decides what it means.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from hisss.core import Action, Card, End, Snake
from hisss.tui.render import Look, Marks, fan_shown, token_positions, wrap_tokens


class FanView(Widget, can_focus=True):
    """The face-down cards: ←/→ move the cursor, Enter (or a click on a card) picks one.

    Which card is picked does not change which card comes: the fan is the deck's next card.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", show=False),
        Binding("right", "move(1)", show=False),
        Binding("enter", "pick", show=False),
        Binding("space", "pick", show=False),
    ]

    cursor: reactive[int] = reactive(0)

    class Picked(Message):
        """A person picked a card of the fan."""

    def __init__(self, look: Look, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.look = look
        self.count = 0
        self.active = False

    def show(self, look: Look, count: int, active: bool) -> None:
        """Show ``count`` cards; ``active`` when a person is to pick one."""
        self.look = look
        self.count = count
        self.active = active
        self.cursor = min(self.cursor, max(self.shown() - 1, 0))
        self.refresh()

    def shown(self) -> int:
        """The number of card backs drawn at the current width."""
        label = self.look.fan_label(self.count).cell_len
        return fan_shown(self.count, self.size.width, label) if self.count else 0

    def render(self) -> Text:
        """The card backs, the one under the cursor lit while a person picks."""
        if not self.count:
            return Text("")
        return self.look.fan(self.count, self.size.width, self.cursor if self.active else None)

    def action_move(self, step: int) -> None:
        """Move the cursor along the fan (it wraps round)."""
        if self.active and self.shown():
            self.cursor = (self.cursor + step) % self.shown()
            self.refresh()

    def action_pick(self) -> None:
        """Pick the card under the cursor."""
        if self.active:
            self.post_message(self.Picked())

    def on_click(self, event: events.Click) -> None:
        """A click on a card back picks it."""
        offset = event.get_content_offset(self)
        if self.active and offset is not None and 0 <= offset.x < self.shown():
            self.cursor = offset.x
            self.post_message(self.Picked())


@dataclass(frozen=True)
class Hotspot:
    """Where an end of a snake is marked on the table: a line and a range of cells."""

    line: int
    start: int
    stop: int
    end: tuple[int, End]


class TableView(Widget):
    """The snakes under construction, one per row (wrapped when long), numbered from 1, with the
    marks of the drawn card's placements. A click on a marked end reports it.

    On a table at least :attr:`WIDE` cells wide the cards are drawn twice as wide, with a blank
    line between snakes."""

    #: The width from which cards are drawn big.
    WIDE = 100

    class EndClicked(Message):
        """A click on the mark of an open end."""

        def __init__(self, snake: int, end: End) -> None:
            super().__init__()
            self.snake = snake
            self.end = end

    def __init__(self, look: Look, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.look = look
        self.snakes: tuple[Snake, ...] = ()
        self.card: Card | None = None
        self.actions: Sequence[Action] = ()
        self.chosen: Action | None = None
        self.empty_text = ""

    def show(
        self,
        look: Look,
        snakes: tuple[Snake, ...],
        card: Card | None,
        actions: Sequence[Action],
        chosen: Action | None,
        empty_text: str,
    ) -> None:
        """Show ``snakes`` with the marks of the drawn ``card``'s placements ``actions`` (the
        ``chosen`` one drawn in place); ``empty_text`` when there are no snakes."""
        self.look = look
        self.snakes = snakes
        self.card = card
        self.actions = actions
        self.chosen = chosen
        self.empty_text = empty_text
        self.refresh(layout=True)

    def look_at(self, width: int) -> Look:
        """The look at a width: big cards from :attr:`WIDE` cells."""
        return self.look.scaled(4) if width >= self.WIDE else self.look

    @property
    def marks(self) -> Marks:
        """The marks of the drawn card's placements, as drawn now."""
        return self.look_at(self.size.width).marks(self.card, self.actions, self.chosen)

    def layout_lines(self, width: int) -> tuple[list[Text], list[Hotspot], int | None]:
        """The table's lines at ``width``, the marked ends' places, and the first line of the
        chosen placement (``None`` when nothing is chosen)."""
        width = max(width, 12)
        look = self.look_at(width)
        marks = look.marks(self.card, self.actions, self.chosen)
        lines: list[Text] = []
        hotspots: list[Hotspot] = []
        chosen: int | None = None
        if not self.snakes and marks.new is None:
            return [Text(self.empty_text, style="italic")], [], None
        rows = len(self.snakes) + (1 if marks.new is not None else 0)
        digits = len(str(rows))
        for index in range(rows):
            if index and width >= self.WIDE:
                lines.append(Text())
            snake = self.snakes[index] if index < len(self.snakes) else None
            label = str(index + 1).rjust(digits)
            tokens = look.snake_tokens(snake, index, marks)
            places = token_positions(label, [t.cell_len for t, _ in tokens], width)
            first = len(lines)
            if snake is None or any(tag in marks.chosen for _, tag in tokens if tag):
                chosen = first if chosen is None else chosen
            for (text, tag), (line, x) in zip(tokens, places, strict=True):
                if tag is not None:
                    hotspots.append(Hotspot(first + line, x, x + text.cell_len, tag))
            lines.extend(wrap_tokens(label, [t for t, _ in tokens], width))
        return lines, hotspots, chosen

    def render(self) -> Text:
        """The table's lines."""
        return Text("\n").join(self.layout_lines(self.size.width)[0])

    def hotspots(self) -> list[Hotspot]:
        """Where the marked ends are, as the table is laid out now."""
        return self.layout_lines(self.size.width)[1]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """As many lines as the snakes take at ``width``."""
        return len(self.layout_lines(width)[0])

    def chosen_region(self) -> Region | None:
        """The region of the first line of the chosen placement, to scroll it into view."""
        _, _, line = self.layout_lines(self.size.width)
        return None if line is None else Region(0, line, self.size.width, 1)

    def on_click(self, event: events.Click) -> None:
        """A click on a marked end reports which end it is."""
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for spot in self.hotspots():
            if spot.line == offset.y and spot.start <= offset.x < spot.stop:
                self.post_message(self.EndClicked(*spot.end))
                return
