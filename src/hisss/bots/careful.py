"""The careful bot: greedy, plus care not to leave an easy completion to the next player.

Policy. For each legal action ``a`` the bot computes

    value(a) = claim(a) - E[ best claim of the next player with the next card | table after a ]

and plays an action of greatest value, uniformly at random among equal values (compared exactly, in
whole numbers). ``claim(a)`` is the number of cards ``a`` takes now
(:func:`~hisss.bots.features.claim_of`). The expectation is a one-draw lookahead over the exact
remaining cards: every distinct card that can come next, weighted by its copies left (the
probabilities of :meth:`~hisss.core.State.draw_weights` after the placement), and for each the most
cards the next player could take by placing it on the table that ``a`` leaves
(:func:`~hisss.bots.features.claim_profile`). So the bot takes the longest snake unless that hands
over more than it gains, and among the rest prefers placements that leave nothing to complete,
including placements that spoil a completion already waiting (by extending the end it needs, or by
taking the snake). Points the lookahead counts:

* Only the next player draws next: with three or more players the gift is counted for the next
  seat alone (later seats draw from a table the next player will change).
* After the last card nobody draws: the gift is 0 and the bot plays greedily.
* Claims are valued in the measure of the scoring rule: cards (under ``cards``, the default, and
  ``longest``); under ``snakes``
  scoring a snake counts :data:`SNAKE_VALUE` plus its cards (as the tie-break); under
  ``first-to`` a claim that reaches the target is worth :data:`WIN_VALUE` more, for the bot (it
  wins at once, and nothing is left to give) as for the next player (who would).
* A forced move consumes no randomness.

It looks at one draw only: what the next player does when the card drawn takes nothing, and the
bot's own next draw, are not counted. How often it beats ``greedy``, and how long it thinks, are
measured in ``docs/strategy.md``.

In the hand variant (:func:`careful_play`) each play is worth its own claim minus the expected best
claim of the next seat on the table it leaves, over that seat's hand. A hidden hand is ``h`` cards
dealt at random from the cards this seat has not seen (``h`` the hand's size), and the expectation
of its best card is exact (:func:`expected_best`, hypergeometric); a hand seen by all is known.

>>> import random
>>> from hisss.core import new_game, parse_card
>>> s = new_game(2)
>>> for text in ("H:red", "M:red-orange", "M:yellow-green"):
...     s.draw(parse_card(text))
...     if s.drawn is not None:
...         _ = s.push(s.legal_actions()[0])
>>> [str(t) for t in s.table]
['H:red M:red-orange', 'M:yellow-green']
>>> s.draw(parse_card("M:orange-yellow"))
>>> [str(a) for a in s.legal_actions()]
['1R:orange', '2L:yellow', '1R:orange+2L:yellow']
>>> str(CarefulBot().choose(s, random.Random(0)))  # the tails that fit then take 3, not 4 or 5
'2L:yellow'
"""

from __future__ import annotations

import random
from math import comb
from typing import ClassVar

from hisss.bots.base import Bot, HandPolicy, legal_choices, pick
from hisss.bots.features import claim_of, claim_profile, expected_claim, remaining_weights
from hisss.bots.greedy import greedy_candidates
from hisss.core import Action, JoinClaim, Scoring, SeatView, State

#: Under ``snakes`` scoring, the value of taking one snake (its cards are added as a tie-break).
SNAKE_VALUE = 1000
#: Under ``first-to`` scoring, the extra value of a claim that reaches the target and ends the game.
WIN_VALUE = 1_000_000


def claim_value(state: State, seat: int, cards: int) -> int:
    """The value to ``seat`` of taking a snake of ``cards`` cards, in the scoring rule's measure.

    0 for no claim; ``cards`` under ``cards`` and ``longest`` scoring; :data:`SNAKE_VALUE` more
    under ``snakes``; :data:`WIN_VALUE` more under ``first-to`` when it reaches the target.
    """
    if not cards:
        return 0
    rules = state.rules
    scoring = rules.scoring
    if scoring is Scoring.SNAKES:
        return SNAKE_VALUE + cards
    if scoring is Scoring.FIRST_TO and state.pit_cards(seat) + cards >= rules.target:
        return WIN_VALUE + cards
    return cards


def lookahead_values(state: State, legal: list[Action]) -> list[int]:
    """``value(a)`` of every action of ``legal`` (see the module docstring), times the cards left.

    Whole numbers: ``claim(a) * left - Σ copies(c) * gift(c)``, so equal values are exactly equal.
    ``state`` is changed and restored (push and undo).
    """
    weights = remaining_weights(state)
    left = state.remaining
    seat = state.to_move
    nxt = (seat + 1) % state.players
    always = state.rules.join_claim is JoinClaim.ALWAYS
    plain = state.rules.scoring in (Scoring.CARDS, Scoring.LONGEST)
    values: list[int] = []
    for action in legal:
        own = claim_of(state, action)
        if not plain:
            own = claim_value(state, seat, own)
        if not left:
            values.append(own)
            continue
        state.push(action)
        try:
            if state.is_terminal():  # the bot reached a first-to target: nobody draws again
                values.append(own * left)
                continue
            profile = claim_profile(state.table, always)
            if not plain:
                profile = [claim_value(state, nxt, n) for n in profile]
        finally:
            state.undo()
        values.append(own * left - expected_claim(profile, weights))
    return values


def careful_candidates(state: State, legal: list[Action]) -> list[Action]:
    """The actions of ``legal`` of greatest lookahead value (greedy's after the last card)."""
    if len(legal) == 1:
        return legal
    if not state.remaining:
        return greedy_candidates(state, legal)
    values = lookahead_values(state, legal)
    best = max(values)
    return [a for a, v in zip(legal, values, strict=True) if v == best]


def expected_best(values: list[int], weights: list[tuple[int, int]], size: int) -> float:
    """The expected largest ``values[code]`` over a hand of ``size`` cards dealt at random from
    the cards ``weights`` lists (``(code, copies)``), exactly.

    >>> expected_best([0, 3, 5], [(0, 2), (1, 1), (2, 1)], 1)   # (0 + 0 + 3 + 5) / 4
    2.0
    """
    total = sum(n for _, n in weights)
    size = min(size, total)
    if not size:
        return 0.0
    hands = comb(total, size)
    levels = sorted({values[code] for code, _ in weights if values[code]}, reverse=True)
    out = 0.0
    for i, level in enumerate(levels):
        # P(best >= level): one minus the chance that the hand holds no card worth that much.
        at_least = sum(n for code, n in weights if values[code] >= level)
        chance = 1 - comb(total - at_least, size) / hands
        lower = levels[i + 1] if i + 1 < len(levels) else 0
        out += (level - lower) * chance
    return out


def careful_values(view: SeatView) -> list[tuple[Action, float]]:
    """The hand variant: every legal play with its value, own claim minus the next seat's
    expected best claim (see the module docstring)."""
    state = view.known()
    seat = view.seat
    nxt = (seat + 1) % view.players
    while nxt != seat and not view.hand_sizes[nxt]:
        nxt = (nxt + 1) % view.players
    always = view.rules.join_claim is JoinClaim.ALWAYS
    plain = view.rules.scoring in (Scoring.CARDS, Scoring.LONGEST)
    shown = view.hands[nxt]
    weights = [(card.code, n) for card, n in view.unseen]
    out: list[tuple[Action, float]] = []
    for action in view.legal_actions():
        own = claim_of(state, action)
        if not plain:
            own = claim_value(state, seat, own)
        state.push(action)
        try:
            over = state.is_terminal()
            profile = claim_profile(state.table, always)
            if not plain:
                profile = [claim_value(state, nxt, n) for n in profile]
        finally:
            state.undo()
        if over or nxt == seat:
            gift = 0.0
        elif shown is not None:
            gift = float(max((profile[c.code] for c in shown), default=0))
        else:
            gift = expected_best(profile, weights, view.hand_sizes[nxt])
        out.append((action, own - gift))
    return out


def careful_play(view: SeatView, rng: random.Random, seconds: float | None = None) -> Action:
    """The hand variant: the play of greatest value (:func:`careful_values`), ties at random."""
    legal = view.legal_actions()
    if len(legal) == 1:
        return legal[0]
    values = careful_values(view)
    best = max(v for _, v in values)
    return pick([a for a, v in values if v >= best - 1e-9], rng)


class CarefulBot(Bot):
    """Greedy with a one-draw lookahead: own claim minus the expected gift to the next player."""

    name = "careful"
    hand_policy: ClassVar[HandPolicy | None] = careful_play

    def choose(self, state: State, rng: random.Random) -> Action:
        """The action of greatest lookahead value (see the module docstring), ties at random."""
        top = careful_candidates(state, legal_choices(state))
        return top[0] if len(top) == 1 else top[rng.randrange(len(top))]


__all__ = [
    "SNAKE_VALUE",
    "WIN_VALUE",
    "CarefulBot",
    "careful_candidates",
    "careful_play",
    "careful_values",
    "claim_value",
    "expected_best",
    "lookahead_values",
]
