"""The environments' text rendering: a position as a few lines, or a seat's view of the hand
variant (its own hand shown, the others as counts).

>>> from hisss.core import Rules, new_game, parse_card
>>> s = new_game(2, Rules(hand_size=1))
>>> for text in ("M:red-orange", "H:red", "T:orange"):
...     s.draw(parse_card(text))
>>> print(render_seat(s, 0))
table 1: M:red-orange; pits seat 1 0, seat 2 0
seat 1 hand: H:red
seat 2 hand: 1 cards
pile: 47 cards; to play: seat 1
"""

from __future__ import annotations

from hisss.core import SeatView, Snake, State, seen_by


def render_seat(game: State, seat: int) -> str:
    """What ``seat`` (from 0) may see of ``game``: in the hand variant its view, its own hand
    shown and the others as counts; in the classic game, where nothing is hidden, the position."""
    seen = seen_by(game, seat)
    return render_view(seen) if isinstance(seen, SeatView) else render_text(seen)


def render_text(game: State) -> str:
    """The position as a few lines of text."""
    lines = [game.describe()]
    for seat, pit in enumerate(game.pits):
        lines.append(f"seat {seat + 1} pit: {game.pit_cards(seat)} cards in {len(pit)} snakes")
    return "\n".join(lines)


def render_view(view: SeatView) -> str:
    """A seat's view of the hand variant as a few lines of text."""
    lines = [render_text_of(view.table, view.pits)]
    for seat, (hand, size) in enumerate(zip(view.hands, view.hand_sizes, strict=True)):
        cards = f"{size} cards" if hand is None else " ".join(str(c) for c in hand) or "empty"
        lines.append(f"seat {seat + 1} hand: {cards}")
    lines.append(f"pile: {view.pile} cards; to play: {_seat_text(view.to_move)}")
    return "\n".join(lines)


def render_text_of(table: tuple[Snake, ...], pits: tuple[tuple[Snake, ...], ...]) -> str:
    """The table and the pits in words."""
    snakes = " | ".join(f"{i + 1}: {s}" for i, s in enumerate(table)) or "empty"
    counts = ", ".join(
        f"seat {i + 1} {sum(len(s.cards) for s in pit)}" for i, pit in enumerate(pits)
    )
    return f"table {snakes}; pits {counts}"


def _seat_text(seat: int | None) -> str:
    return "nobody" if seat is None else f"seat {seat + 1}"
