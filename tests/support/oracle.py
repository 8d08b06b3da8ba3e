"""A deliberately naive second implementation of where a drawn card may go (RULES.md §2-3).

It shares nothing with the engine's move generator. A snake is a row of *placed* cards, each
showing what its left and right sides present: a colour name, ``wild`` (the neck of a rainbow head
or tail) or ``closed`` (the back of a head or tail). A placement is legal when the row it makes is a
snake by the §2 definitions, checked card by card:

* touching sides show equal colours (a wild neck matches any colour) and a closed side touches
  nothing;
* at most one head and at most one tail;
* a head and a tail never touch.

Every rule of §3.3 (extend, cap, no cap onto a lone head or tail, join, the two-heads and two-tails
refusal) then follows from trying every way the card can touch one open end, or two open ends of
different snakes, and keeping the rows that pass. Nothing here looks at ``legal_actions``; the
engine is used only to read the table (card names and which way each card lies) and the rules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from hisss.core import JoinClaim, Rules, Snake, State

CLOSED = "closed"
WILD = "wild"

#: (snake number from 0, end "L" or "R", the colour of the card's side touching it; "" for a head
#: or tail, which has only one side).
Touch = tuple[int, str, str]


@dataclass(frozen=True)
class Placed:
    """A card as it lies: its notation and what its left and right sides present."""

    card: str
    left: str
    right: str

    @property
    def kind(self) -> str:
        return self.card[0]

    def turned(self) -> Placed:
        return Placed(self.card, self.right, self.left)

    def text(self) -> str:
        """The card as written in a snake: mid-sections left colour first."""
        if self.kind == "M":
            return f"M:{self.left}-{self.right}"
        return self.card


Row = tuple[Placed, ...]


def turned(row: Row) -> Row:
    """The same row read from the other end."""
    return tuple(p.turned() for p in reversed(row))


def row_text(row: Row) -> str:
    return " ".join(p.text() for p in row)


def row_key(row: Row) -> str:
    """A name for a row that does not depend on the end it is read from."""
    return min(row_text(row), row_text(turned(row)))


def ways_to_lie(card: str) -> list[Placed]:
    """Every way a card can lie in a row."""
    kind, _, rest = card.partition(":")
    if kind == "M":
        x, _, y = rest.partition("-")
        return [Placed(card, x, y), Placed(card, y, x)]
    return [Placed(card, CLOSED, rest), Placed(card, rest, CLOSED)]


def sides_touch(a: str, b: str) -> bool:
    if CLOSED in (a, b):
        return False
    return a == b or WILD in (a, b)


def is_snake(row: Row) -> bool:
    """True when ``row`` is a snake by the definitions of RULES.md §2."""
    kinds = [p.kind for p in row]
    if kinds.count("H") > 1 or kinds.count("T") > 1:
        return False
    for p, q in pairwise(row):
        if not sides_touch(p.right, q.left):
            return False
        if {p.kind, q.kind} == {"H", "T"}:
            return False
    return True


def is_complete(row: Row) -> bool:
    kinds = [p.kind for p in row]
    return "H" in kinds and "T" in kinds and "M" in kinds


def from_snake(snake: Snake) -> Row:
    """Read an engine snake as a row (the path tells which way each card lies)."""
    out = []
    for i, card in enumerate(snake.cards):
        text = str(card)
        left, right = snake.path[i], snake.path[i + 1]
        if text[0] == "M":
            out.append(Placed(text, str(left), str(right)))
        else:
            neck = text.partition(":")[2]
            out.append(
                Placed(text, CLOSED if left is None else neck, CLOSED if right is None else neck)
            )
    return tuple(out)


def open_ends(row: Row) -> list[str]:
    ends = []
    if row[0].left != CLOSED:
        ends.append("L")
    if row[-1].right != CLOSED:
        ends.append("R")
    return ends


@dataclass(frozen=True)
class Outcome:
    """One legal placement: the ends it touches, the snake it makes and the snakes it uses up."""

    touches: frozenset[Touch]
    row: Row
    used: frozenset[int]


def placements(rows: Sequence[Row], card: str) -> dict[frozenset[Touch], Outcome]:
    """Every placement onto one or two snakes (not ``new``), keyed by the ends and sides touched."""
    found: dict[frozenset[Touch], Outcome] = {}
    lies = ways_to_lie(card)
    for i, row in enumerate(rows):
        for end in open_ends(row):
            for p in lies:
                made = (*row, p) if end == "R" else (p, *row)
                side = p.left if end == "R" else p.right
                if is_snake(made):
                    touch = (i, end, side if p.kind == "M" else "")
                    found[frozenset([touch])] = Outcome(frozenset([touch]), made, frozenset([i]))
    if card[0] == "M":
        for i, a in enumerate(rows):
            for j, b in enumerate(rows):
                if i != j:
                    found.update(_joins(i, a, j, b, lies))
    return found


def _joins(
    i: int, a: Row, j: int, b: Row, lies: Sequence[Placed]
) -> dict[frozenset[Touch], Outcome]:
    """Every join of snake ``i`` (``a``) to snake ``j`` (``b``) through a mid-section lying one
    of the ways ``lies``, side ``left`` onto ``a``."""
    found: dict[frozenset[Touch], Outcome] = {}
    for e in open_ends(a):
        for f in open_ends(b):
            for p in lies:
                first = a if e == "R" else turned(a)
                second = b if f == "L" else turned(b)
                made = (*first, p, *second)
                if is_snake(made):
                    key = frozenset([(i, e, p.left), (j, f, p.right)])
                    found[key] = Outcome(key, made, frozenset([i, j]))
    return found


def legal(rows: Sequence[Row], card: str, rules: Rules) -> dict[frozenset[Touch], Outcome]:
    """Every legal action, ``new`` (the empty key) included when the rules allow it."""
    found = placements(rows, card)
    if not found or not rules.forced_placement:
        found[frozenset()] = Outcome(frozenset(), (ways_to_lie(card)[0],), frozenset())
    return found


def notation(touches: frozenset[Touch]) -> str:
    """The action's notation; a join names both ends with their sides, lower snake number first."""
    if not touches:
        return "new"
    if len(touches) == 1:
        ((i, end, side),) = touches
        return f"{i + 1}{end}" + (f":{side}" if side else "")
    a, b = sorted(touches)
    return f"{a[0] + 1}{a[1]}:{a[2]}+{b[0] + 1}{b[1]}:{b[2]}"


def is_claimed(outcome: Outcome, rules: Rules) -> bool:
    """True when the placer takes the snake the placement makes."""
    if is_complete(outcome.row):
        return True
    return len(outcome.used) == 2 and rules.join_claim is JoinClaim.ALWAYS


def successor(rows: Sequence[Row], outcome: Outcome, rules: Rules) -> tuple[list[Row], Row | None]:
    """The table after a placement, and the snake claimed by it (or ``None``)."""
    rest = [r for k, r in enumerate(rows) if k not in outcome.used]
    if is_claimed(outcome, rules):
        return rest, outcome.row
    return [*rest, outcome.row], None


def state_rows(state: State) -> list[Row]:
    return [from_snake(s) for s in state.table]


def legal_strings(state: State) -> set[str]:
    """The oracle's legal actions at a decision node, as notation."""
    assert state.drawn is not None
    card = str(state.drawn)
    return {notation(k) for k in legal(state_rows(state), card, state.rules)}


def table_keys(rows: Iterable[Row]) -> Counter[str]:
    return Counter(row_key(r) for r in rows)


def perft(rows: list[Row], remaining: Counter[str], rules: Rules) -> int:
    """Leaves of the full game tree: every distinct next card times every legal placement.

    Only for rules without an early end (the first-to scoring is not modelled).
    """
    if not +remaining:
        return 1
    total = 0
    for card, n in remaining.items():
        if n == 0:
            continue
        remaining[card] -= 1
        for outcome in legal(rows, card, rules).values():
            table, _ = successor(rows, outcome, rules)
            total += perft(table, remaining, rules)
        remaining[card] += 1
    return total
