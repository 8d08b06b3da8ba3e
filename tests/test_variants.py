"""The hand variant is written in the rules core, the compiled kernel and the records; the layers
above ask them what differs (who draws, what a seat sees, which levels play) instead of branching
on the variant themselves.

The count below is of the places in the package's Python, outside ``core/``, ``kernel/`` and
``record/``, that name the variant: the identifiers ``HandState``, ``has_hands`` and
``hand_size`` (code only: comments, docstrings and strings, such as the ``--set hand_size=K``
help, do not count). Each that is left names the variant for a reason: the hand variant's own
bots (``bots/hand_expert.py``) and learning space (``rl/hand_spaces.py``), the number of cards in
hand shown to a player, the OpenSpiel trail of who drew what, and the protocol's ``hand_size``.
"""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

from hisss.core import RAINBOW, Rules, SeatView, State, new_game, seen_by
from hisss.record import Game, Phase, Seat

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "hisss"

#: The identifiers that name the hand variant.
NAMES = frozenset({"HandState", "has_hands", "hand_size"})

#: The packages where the variant is written: they may name it freely.
HOMES = frozenset({"core", "kernel", "record"})

#: The most places outside the homes that may name the variant.
LIMIT = 15

#: The places that name it today (the count is stated, so a new one is seen).
TODAY = 13


def naming_places(source: str) -> list[int]:
    """The lines of ``source`` (Python) with a code identifier of :data:`NAMES`, once per use."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return [t.start[0] for t in tokens if t.type == tokenize.NAME and t.string in NAMES]


def test_few_places_outside_the_core_kernel_and_records_name_the_hand_variant() -> None:
    places = []
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 50, "the scan found too few modules"
    for path in modules:
        relative = path.relative_to(PACKAGE)
        if relative.parts[0] in HOMES:
            continue
        source = path.read_text(encoding="utf-8")
        places += [f"{relative}:{line}" for line in naming_places(source)]
    shown = "\n".join(places)
    assert len(places) <= LIMIT, f"{len(places)} places name the hand variant:\n{shown}"
    assert len(places) == TODAY, f"{len(places)} places (not {TODAY}) name it:\n{shown}"


def test_the_scan_counts_code_and_not_words() -> None:
    source = (
        '"""Rules(hand_size=3) in a docstring."""\n'
        "# has_hands in a comment\n"
        "x = rules.hand_size or isinstance(s, HandState)\n"
        "y = 'hand_size'\n"
        "z = game.has_hands\n"
    )
    assert naming_places(source) == [3, 3, 5]


def test_the_rules_say_who_draws_and_what_is_hidden() -> None:
    classic, hands, open_hands = (
        Rules(),
        Rules(hand_size=3),
        Rules(hand_size=3, hands_seen_by_all=True),
    )
    assert [r.seats_draw for r in (classic, hands, open_hands)] == [True, False, False]
    assert [r.hides_cards for r in (classic, hands, open_hands)] == [False, True, False]
    assert hands.without_variant() == classic == open_hands.without_variant()


def test_the_driver_says_who_draws_next() -> None:
    seats = [Seat.person("Ala"), Seat.person("Ola")]
    classic = Game(Rules(), RAINBOW, seats, seed=3)
    assert classic.dealer_draws and classic.receiver is None  # the starter
    classic.draw()
    assert not classic.dealer_draws and classic.phase is Phase.DRAW and classic.receiver == 0
    classic.draw()
    assert classic.receiver is None  # a card waits to be placed

    hands = Game(Rules(hand_size=2), RAINBOW, seats, seed=3)
    hands.draw()  # the starter
    receivers = []
    while hands.dealer_draws:
        receivers.append(hands.receiver)
        hands.draw()
    assert receivers == [0, 1, 0, 1] and hands.phase is Phase.PLACE
    hands.place(hands.legal_actions()[0])
    assert hands.dealer_draws and hands.receiver == 0  # the seat that played refills its hand


def test_what_a_seat_sees() -> None:
    classic = new_game(2, Rules())
    seen = seen_by(classic, 1)
    assert isinstance(seen, State) and seen is not classic and classic.hand_sizes == ()
    hands = new_game(2, Rules(hand_size=2))
    assert isinstance(seen_by(hands, 1), SeatView) and hands.hand_sizes == (0, 0)
