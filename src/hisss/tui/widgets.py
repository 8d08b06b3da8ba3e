"""The terminal game's own widgets: the fan of face-down cards, the table of snakes, the players,
the "Hisss!" banner and the move log.

Each draws itself at its own width with :class:`~hisss.tui.render.Look`; the fan and the table
report a pick or a click as a message, and the application decides what it means. Names are
always plain text, never markup.
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

from hisss.core import Action, Card, End, Snake, State
from hisss.i18n import Catalog
from hisss.tui.render import CHOSEN_STYLE, Look, Marks, fan_shown, token_positions, wrap_tokens


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
        self.claimed: tuple[int, Snake, str] | None = None

    def show(
        self,
        look: Look,
        snakes: tuple[Snake, ...],
        card: Card | None,
        actions: Sequence[Action],
        chosen: Action | None,
        empty_text: str,
        claimed: tuple[int, Snake, str] | None = None,
    ) -> None:
        """Show ``snakes`` with the marks of the drawn ``card``'s placements ``actions`` (the
        ``chosen`` one drawn in place); ``empty_text`` when there are no snakes. ``claimed``
        (a row, a snake just claimed and the word to tag it with) shows that snake highlighted
        at that row, as it was completed, for the moment before it leaves."""
        self.look = look
        self.snakes = snakes
        self.card = card
        self.actions = actions
        self.chosen = chosen
        self.empty_text = empty_text
        self.claimed = claimed
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
        snakes: list[Snake | None] = list(self.snakes)
        claimed_row = None
        if self.claimed is not None:
            claimed_row = self.claimed[0]
            snakes.insert(claimed_row, self.claimed[1])
        if not snakes and marks.new is None:
            return [Text(self.empty_text, style="italic")], [], None
        rows = len(snakes) + (1 if marks.new is not None else 0)
        digits = len(str(rows))
        for index in range(rows):
            if index and width >= self.WIDE:
                lines.append(Text())
            snake = snakes[index] if index < len(snakes) else None
            label = str(index + 1).rjust(digits)
            if index == claimed_row and self.claimed is not None:
                cards = look.placed_cards(self.claimed[1])
                word = Text(f" {self.claimed[2]} ", style=CHOSEN_STYLE)
                claim_lines = wrap_tokens(label, [*cards, word], width)
                claim_lines[0].stylize(CHOSEN_STYLE, 0, len(label))
                lines.extend(claim_lines)
                continue
            # The snake's index in the table, for the marks (the claimed row is not in it).
            at = index - 1 if claimed_row is not None and index > claimed_row else index
            tokens = look.snake_tokens(snake, at, marks)
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


class PlayersView(Widget):
    """One line per player: who moves (``▶``), the name, in the hand variant how many cards the
    hand holds, the cards in the pit and the pit itself, fitted to the widget's width (a name is
    cut only when the width leaves no room for it)."""

    def __init__(self, look: Look, catalog: Catalog, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.look = look
        self.catalog = catalog
        self.names: Sequence[str] = ()
        self.state: State | None = None
        self.over = False

    def show(self, look: Look, names: Sequence[str], state: State, over: bool) -> None:
        """Show the players of ``state`` named ``names``."""
        self.look = look
        self.names = names
        self.state = state
        self.over = over
        self.refresh(layout=True)

    def render(self) -> Text:
        """The title and a line per player."""
        state = self.state
        # How many cards each seat holds (none in the classic game).
        hands = state.hand_sizes if state is not None else ()
        title = "\n".join(self._title_lines(self.size.width))
        text = Text(title, style="bold", no_wrap=True)
        if state is None or not self.names:
            return text
        longest = max(len(name) for name in self.names)
        width = max(4, min(longest, self.size.width - (11 if hands else 8)))
        for seat, name in enumerate(self.names):
            moving = seat == state.to_move and not self.over
            line = Text()
            line.append("▶ " if moving else "  ", style="bold #ffd43b")
            shown = name if len(name) <= width else name[: width - 1] + "…"
            line.append(shown.ljust(width), style="bold" if moving else "")
            if hands:
                line.append(f" {hands[seat]:>2}", style="bold")
            line.append(f" {state.pit_cards(seat):>2} ")
            pit = self.look.pit(state.pits[seat])
            line.append_text(pit or Text(self.catalog.text("players.empty_pit"), style="dim"))
            # A long pit is cut at the edge: a line that wrapped would hide the next player.
            line.truncate(max(1, self.size.width), overflow="ellipsis")
            text.append("\n")
            text.append_text(line)
        text.overflow = "ellipsis"
        return text

    def _title_lines(self, width: int) -> list[str]:
        """The title folded between its headings (``·``) to fit ``width`` (a heading longer than
        the width is cut): a title wrapped by the widget would push the last player out."""
        hands = self.state is not None and self.state.hand_sizes
        title = self.catalog.text("players.title_hands" if hands else "players.title")
        headings = title.split(" · ")
        lines = [""]
        for number, heading in enumerate(headings, 1):
            joined = f"{lines[-1]} · {heading}" if lines[-1] else heading
            room = width - (0 if number == len(headings) else 2)  # for a " ·" at the line's end
            if len(joined) <= room or not lines[-1]:
                lines[-1] = joined
            else:
                lines[-1] += " ·"
                lines.append(heading)
        return [line if len(line) <= width else line[: max(1, width - 1)] + "…" for line in lines]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """The title's lines and a line per player."""
        return len(self._title_lines(width)) + len(self.names)


class BannerView(Widget):
    """The "Hisss!" banner: its words, then the whole snake taken, wrapped onto more lines when
    it is long, never splitting or dropping a card."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.words = ""
        self.cards: list[Text] = []

    def show(self, words: str, cards: list[Text]) -> None:
        """Show ``words`` and the ``cards`` of the snake taken, as they lay."""
        self.words = words
        self.cards = cards
        self.refresh(layout=True)

    def lines(self, width: int) -> list[Text]:
        """The banner's lines at ``width`` cells."""
        width = max(width, 8)
        words = Text(self.words, style="bold")
        out = list(words.wrap(self.app.console, width))
        if self.cards:
            out.extend(wrap_tokens("", self.cards, width))
        return out

    def render(self) -> Text:
        """The words and the snake."""
        return Text("\n", no_wrap=True).join(self.lines(self.size.width))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """As many lines as the words and the snake take at ``width``."""
        return len(self.lines(width))


class LogView(Widget):
    """The move log: the latest entries that fit, the newest at the foot, one line each (an
    entry too long for the width shows its short form, cut with an ellipsis if need be)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.entries: list[Text] = []
        self.short: list[Text] = []

    def show(self, entries: list[Text], short: list[Text] | None = None) -> None:
        """Show ``entries`` (the oldest first), with their ``short`` forms for a narrow log; the
        same entries again need no redraw."""
        short = short if short is not None else entries
        if entries == self.entries and short == self.short:
            return
        self.entries = entries
        self.short = short
        self.refresh()

    def lines(self, width: int, height: int) -> list[Text]:
        """The last ``height`` entries, one line of at most ``width`` cells each."""
        if height <= 0:
            return []
        width = max(width, 8)
        out: list[Text] = []
        for entry, short in zip(self.entries[-height:], self.short[-height:], strict=True):
            line = (entry if entry.cell_len <= width else short).copy()
            line.truncate(width, overflow="ellipsis")
            out.append(line)
        return out

    def render(self) -> Text:
        """The entries that fit."""
        return Text("\n", no_wrap=True).join(self.lines(self.size.width, self.size.height))
