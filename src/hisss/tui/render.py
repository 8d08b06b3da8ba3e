"""How the terminal game draws cards, snakes, pits and the fan, as Rich text.

Every colour is a coloured cell; with the colour-blind look each cell also carries the colour's
letter (in the game's language) and its symbol, so no information rests on colour alone. A
mid-section is two cells, its two colours in its turn (``[red|orange]``); a head is ``<`` before
its colour, a tail ``>`` after it, and a wild card a rainbow (with its letter and ``✱``). The
letters, symbols and names all come from :mod:`hisss.i18n`. Snakes wrap onto several
lines without ever splitting a card, so long snakes stay readable in a narrow window.

On the table, an open end that the drawn card can go onto is marked ``○``; the end or ends of the
chosen placement are marked ``◉`` (a mark that no colour's symbol uses) with the card drawn
beside them as it would lie.

>>> from hisss.core import parse_card, parse_snake
>>> from hisss.i18n import get_catalog
>>> look = Look(get_catalog("en"), colour_blind=True)
>>> look.card(parse_card("M:red-orange")).plain, look.card(parse_card("H:wild")).plain
('R●O▲', '<W✱')
>>> [line.plain for line in look.snake_lines("1", parse_snake("H:red M:red-orange T:orange"), 40)]
['1 <R● R●O▲ O▲>']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rich.style import Style
from rich.text import Text

from hisss.core import WHEEL, Action, ActionKind, Card, CardKind, Colour, End, Snake
from hisss.i18n import Catalog, symbol

#: Each colour's cell background and the text colour that reads on it.
PALETTE: dict[Colour, tuple[str, str]] = {
    Colour.RED: ("#e03131", "#ffffff"),
    Colour.ORANGE: ("#f76707", "#000000"),
    Colour.YELLOW: ("#fcc419", "#000000"),
    Colour.GREEN: ("#2f9e44", "#ffffff"),
    Colour.BLUE: ("#1971c2", "#ffffff"),
    Colour.PURPLE: ("#9c36b5", "#ffffff"),
}
#: The colours of the two cells of a wild card in the colour-blind look (its letter, its symbol).
RAINBOW_CELLS = (Colour.YELLOW, Colour.BLUE)
#: The marks of an open end that the drawn card can go onto, and of the chosen placement.
LEGAL_MARK = "○"
CHOSEN_MARK = "◉"
MARK_STYLE = Style(color="#ffd43b", bold=True)
CHOSEN_STYLE = Style(color="#000000", bgcolor="#ffd43b", bold=True)
#: The back of a face-down card in the fan, and of the one under the cursor.
BACK = "▌"
BACK_STYLE = Style(color="#5c7cfa")
BACK_CHOSEN_STYLE = Style(color="#ffd43b", bold=True)


def cell_style(colour: Colour) -> Style:
    """The style of a cell of ``colour``."""
    background, text = PALETTE[colour]
    return Style(color=text, bgcolor=background, bold=True)


@dataclass(frozen=True)
class Marks:
    """What to show at the ends of the table's snakes for the drawn card.

    ``legal`` are the (snake, end) pairs some legal action touches; ``chosen`` maps the ends of the
    highlighted action to the card as it would lie there; ``new`` is the card of a highlighted
    new-snake action.
    """

    legal: frozenset[tuple[int, End]] = frozenset()
    chosen: Mapping[tuple[int, End], Text] = field(default_factory=dict)
    new: Text | None = None


class Look:
    """Draws the game's pieces in one language, with or without the colour-blind letters;
    ``cell`` is the width of one colour (2, or 4 for big cards on a wide table)."""

    def __init__(self, catalog: Catalog, colour_blind: bool = False, cell: int = 2) -> None:
        self.catalog = catalog
        self.colour_blind = colour_blind
        self.cell = cell

    def scaled(self, cell: int) -> Look:
        """The same look with colours ``cell`` cells wide."""
        return Look(self.catalog, self.colour_blind, cell)

    # ------------------------------------------------------------------ cells and cards

    def half(self, colour: Colour | None) -> Text:
        """The cells of one colour (``None``: the rainbow of a wild card)."""
        size = self.cell // 2
        if colour is None and self.colour_blind:
            first, second = RAINBOW_CELLS
            return Text.assemble(
                (self.catalog.colour_letter(None).rjust(size), cell_style(first)),
                (symbol(None).ljust(size), cell_style(second)),
            )
        if colour is None:  # a rainbow: each cell shows two colours of the wheel
            return Text.assemble(
                *(
                    (
                        "▌",
                        Style(
                            color=PALETTE[WHEEL[2 * i % 6]][0],
                            bgcolor=PALETTE[WHEEL[(2 * i + 1) % 6]][0],
                        ),
                    )
                    for i in range(self.cell)
                )
            )
        content = self.catalog.colour_letter(colour) + symbol(colour) if self.colour_blind else ""
        return Text(content.center(self.cell), style=cell_style(colour))

    def mid(self, left: Colour, right: Colour) -> Text:
        """A mid-section lying with ``left`` on its left."""
        return Text.assemble(self.half(left), self.half(right))

    def head(self, colour: Colour | None) -> Text:
        """A head: ``<`` and its colour."""
        style = cell_style(colour if colour is not None else RAINBOW_CELLS[0])
        return Text.assemble(("<", style), self.half(colour))

    def tail(self, colour: Colour | None) -> Text:
        """A tail: its colour and ``>``."""
        style = cell_style(colour if colour is not None else RAINBOW_CELLS[1])
        return Text.assemble(self.half(colour), (">", style))

    def card(self, card: Card, left: Colour | None = None) -> Text:
        """A card; a mid-section lies with ``left`` on its left (its written order by default)."""
        if card.kind is CardKind.HEAD:
            return self.head(card.a)
        if card.kind is CardKind.TAIL:
            return self.tail(card.a)
        assert card.a is not None and card.b is not None
        first = left if left in (card.a, card.b) else card.a
        assert first is not None
        return self.mid(first, card.other(first))

    def placed_cards(self, snake: Snake) -> list[Text]:
        """Each card of a snake as it lies."""
        out = []
        for i, card in enumerate(snake.cards):
            left = snake.path[i]
            if card.kind is CardKind.MID and not isinstance(left, Colour):
                right = snake.path[i + 1]
                assert isinstance(right, Colour)
                left = card.other(right)
            out.append(self.card(card, left if isinstance(left, Colour) else None))
        return out

    def ghost(self, card: Card, end: End, side: Colour | None) -> Text:
        """The drawn card as it would lie at ``end``, its ``side`` touching (mid-sections)."""
        if card.kind is not CardKind.MID or side is None:
            return self.card(card)
        other = card.other(side)
        return self.mid(other, side) if end is End.L else self.mid(side, other)

    # ------------------------------------------------------------------ snakes

    def snake_tokens(
        self, snake: Snake | None, index: int = -1, marks: Marks | None = None
    ) -> list[tuple[Text, tuple[int, End] | None]]:
        """The pieces of a table row: the cards of ``snake`` (the ``index``-th of the table) as
        they lie and the marks of its ends, each mark tagged with its (snake, end). ``snake``
        ``None`` is the row of a new snake: only the marks' new-snake card."""
        marks = marks or Marks()
        if snake is None:
            if marks.new is None:
                return []
            return [(Text(CHOSEN_MARK, style=CHOSEN_STYLE), None), (marks.new, None)]
        tokens: list[tuple[Text, tuple[int, End] | None]] = []
        tokens.extend(self._end_tokens(index, End.L, marks))
        tokens.extend((card, None) for card in self.placed_cards(snake))
        tokens.extend(self._end_tokens(index, End.R, marks))
        return tokens

    def snake_lines(
        self,
        label: str,
        snake: Snake | None,
        width: int,
        index: int = -1,
        marks: Marks | None = None,
    ) -> list[Text]:
        """A table row labelled ``label`` (see :meth:`snake_tokens`), wrapped to ``width`` cells
        without splitting a card."""
        return wrap_tokens(
            label, [text for text, _ in self.snake_tokens(snake, index, marks)], width
        )

    def _end_tokens(
        self, index: int, end: End, marks: Marks
    ) -> list[tuple[Text, tuple[int, End] | None]]:
        tag = (index, end)
        chosen = marks.chosen.get(tag)
        if chosen is not None:
            mark = Text(CHOSEN_MARK, style=CHOSEN_STYLE)
            return [(chosen, tag), (mark, tag)] if end is End.L else [(mark, tag), (chosen, tag)]
        if tag in marks.legal:
            return [(Text(LEGAL_MARK, style=MARK_STYLE), tag)]
        return []

    def marks(self, card: Card | None, actions: Sequence[Action], chosen: Action | None) -> Marks:
        """The marks for the drawn ``card``: every end a legal action touches, and the chosen
        action's ends with the card as it would lie."""
        if card is None:
            return Marks()
        legal = frozenset(pair for action in actions for pair in action.ends)
        if chosen is None:
            return Marks(legal)
        if chosen.kind is ActionKind.NEW:
            return Marks(legal, {}, self.card(card))
        ghosts: dict[tuple[int, End], Text] = {}
        assert chosen.end is not None
        ghosts[(chosen.snake, chosen.end)] = self.ghost(card, chosen.end, chosen.side)
        if chosen.kind is ActionKind.JOIN:
            assert chosen.end2 is not None
            ghosts[(chosen.snake2, chosen.end2)] = self.ghost(card, chosen.end2, chosen.side2)
        return Marks(legal, ghosts)

    # ------------------------------------------------------------------ pits and the fan

    def pit(self, pit: Sequence[Snake]) -> Text:
        """A pit in one cell per card: each snake a strip of its colours, snakes apart."""
        strips = []
        for snake in pit:
            strip = Text()
            for i, card in enumerate(snake.cards):
                left, right = snake.path[i], snake.path[i + 1]
                colours = [c for c in (left, right) if isinstance(c, Colour)]
                if card.kind is CardKind.HEAD:
                    strip.append("<", cell_style(colours[0] if colours else Colour.YELLOW))
                elif card.kind is CardKind.TAIL:
                    strip.append(">", cell_style(colours[0] if colours else Colour.BLUE))
                else:
                    assert isinstance(left, Colour) and isinstance(right, Colour)
                    strip.append("▌", Style(color=PALETTE[left][0], bgcolor=PALETTE[right][0]))
            strips.append(strip)
        return Text(" ").join(strips)

    def fan(self, count: int, width: int, cursor: int | None) -> Text:
        """``count`` face-down cards in at most ``width`` cells (as many backs as fit), the one at
        ``cursor`` lit, and how many are left."""
        label = self.fan_label(count)
        shown = fan_shown(count, width, label.cell_len)
        text = Text()
        for i in range(shown):
            text.append(BACK, BACK_CHOSEN_STYLE if i == cursor else BACK_STYLE)
        text.append_text(label)
        return text

    def fan_label(self, count: int) -> Text:
        """The fan's count of the cards left."""
        return Text(" " + self.catalog.plural("fan.left", count))

    def legend(self) -> Text:
        """Each colour's cell with its name, for the colour-blind look."""
        parts = [Text(self.catalog.text("legend.title"))]
        for colour in Colour:
            parts.append(Text.assemble(self.half(colour), self.catalog.colour_name(colour)))
        parts.append(Text.assemble(self.half(None), self.catalog.colour_name(None)))
        return Text("  ").join(parts)


_KIND_ORDER = {CardKind.HEAD: 0, CardKind.MID: 1, CardKind.TAIL: 2}


def by_colour(card: Card) -> tuple[int, int, int]:
    """The order a hand is shown in: by colour round the wheel (wild cards last), then heads,
    mid-sections and tails, then a mid-section's second colour.

    >>> from hisss.core import parse_card
    >>> cards = ["T:red", "H:wild", "M:green-red", "H:red", "M:red-orange", "H:blue"]
    >>> [str(c) for c in sorted((parse_card(t) for t in cards), key=by_colour)]
    ['H:red', 'M:red-orange', 'M:red-green', 'T:red', 'H:blue', 'H:wild']
    """
    first = len(WHEEL) if card.a is None else WHEEL.index(card.a)
    second = -1 if card.b is None else WHEEL.index(card.b)
    return first, _KIND_ORDER[card.kind], second


def hand_row(
    look: Look, cards: Sequence[Card], playable: frozenset[Card], chosen: int | None
) -> Text:
    """A hand on two lines: its cards, and under each a mark, ``▲`` under the chosen card and
    ``•`` under every other card that can go somewhere."""
    row, marks = Text(no_wrap=True), Text(no_wrap=True)
    for i, card in enumerate(cards):
        shown = look.card(card)
        if i:
            row.append(" ")
            marks.append(" ")
        row.append_text(shown)
        if i == chosen:
            marks.append("▲".center(shown.cell_len), style=MARK_STYLE)
        elif card in playable:
            marks.append("•".center(shown.cell_len), style=MARK_STYLE)
        else:
            marks.append(" " * shown.cell_len)
    return Text("\n").join([row, marks])


def fan_shown(count: int, width: int, label_width: int) -> int:
    """How many card backs the fan shows for ``count`` cards in ``width`` cells."""
    return min(count, max(1, width - label_width - 1))


def token_positions(label: str, widths: Sequence[int], width: int) -> list[tuple[int, int]]:
    """The line and the first cell of each of the tokens of ``widths`` laid out after ``label``,
    one space apart, in lines of at most ``width`` cells. A token that does not fit starts a new
    line, indented under the first token (a token wider than a line gets a line of its own).

    >>> token_positions("12", [4, 2, 3], 10)
    [(0, 3), (0, 8), (1, 3)]
    """
    out: list[tuple[int, int]] = []
    line, filled = 0, len(label)
    for size in widths:
        if filled > len(label) and filled + 1 + size > width:
            line, filled = line + 1, len(label)
        start = filled + 1 if filled else 0
        out.append((line, start))
        filled = start + size
    return out


def wrap_tokens(label: str, tokens: Sequence[Text], width: int) -> list[Text]:
    """The lines of ``tokens`` laid out as :func:`token_positions` places them.

    >>> [t.plain for t in wrap_tokens("12", [Text("aaaa"), Text("bb"), Text("ccc")], 10)]
    ['12 aaaa bb', '   ccc']
    """
    places = token_positions(label, [t.cell_len for t in tokens], width)
    lines = [Text(label)]
    for token, (line, start) in zip(tokens, places, strict=True):
        if line == len(lines):
            lines.append(Text())
        current = lines[line]
        current.append(" " * (start - current.cell_len))
        current.append_text(token)
    return lines


__all__ = [
    "CHOSEN_MARK",
    "LEGAL_MARK",
    "PALETTE",
    "Look",
    "Marks",
    "cell_style",
    "fan_shown",
    "token_positions",
    "wrap_tokens",
]
