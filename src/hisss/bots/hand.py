"""Bots of the hand variant: what ``random``, ``casual``, ``greedy`` and ``careful`` play.

A bot of the hand variant sees only its seat's :class:`~hisss.core.SeatView` (its own hand, the
table, the pits, the sizes of the other hands and of the pile, the cards it has not seen) and
chooses one of the view's legal plays; the core says which plays are legal and what each claims.

* ``random``: every legal play equally likely.
* ``greedy``: a play taking the most cards over the whole hand, at random among the best; at
  random when no play takes any. ``casual`` is ``greedy`` that plays at random on one turn in three
  with a choice.
* ``careful``: ``greedy`` with a look at the next seat, as in the classic game: each play is worth
  its own claim minus the expected best claim of the next seat on the table it leaves, over that
  seat's hand. A hidden hand is ``h`` cards dealt at random from the cards this seat has not seen
  (``h`` the hand's size), and the expectation of its best card is exact (hypergeometric); a hand
  seen by all is known. Claims are valued in the scoring rule's measure
  (:func:`~hisss.bots.careful.claim_value`).

A forced play consumes no randomness.

>>> import random
>>> from hisss.core import Rules, new_game, parse_action, parse_card
>>> s = new_game(2, Rules(hand_size=2))
>>> for text in ("M:red-orange", "H:red", "T:orange", "M:blue-green", "T:blue"):
...     s.draw(parse_card(text))                  # the starter, then the deal
>>> placed = s.apply(parse_action("H:red@1L"))    # seat 1 caps the starter, then draws
>>> s.draw(parse_card("H:blue"))
>>> [str(a) for a in s.legal_actions()]           # seat 2 holds two tails
['T:orange@1R', 'T:blue@new']
>>> str(greedy_play(s.view(1), random.Random(0)))
'T:orange@1R'
"""

from __future__ import annotations

import random
from collections.abc import Callable
from math import comb

from hisss.bots.careful import claim_value
from hisss.bots.features import claim_of, claim_profile
from hisss.bots.greedy import greedy_action, greedy_candidates
from hisss.bots.hand_expert import expert_play
from hisss.core import Action, ConfigError, JoinClaim, Scoring, SeatView

#: ``casual``'s chance of a uniformly random play on a turn with a choice.
CASUAL_MISS = 1 / 3


def _pick(options: list[Action], rng: random.Random) -> Action:
    return options[0] if len(options) == 1 else options[rng.randrange(len(options))]


def random_play(view: SeatView, rng: random.Random, seconds: float | None = None) -> Action:
    """A uniformly random legal play."""
    return _pick(view.legal_actions(), rng)


def greedy_play(
    view: SeatView, rng: random.Random, seconds: float | None = None, miss: float = 0.0
) -> Action:
    """A play taking the most cards, at random among the best (see the module docstring); with
    probability ``miss`` on a turn with a choice, a uniformly random play instead. The bots of
    this module never search, so they take no time limit (``seconds``)."""
    legal = view.legal_actions()
    if len(legal) == 1:
        return legal[0]
    if miss and rng.random() < miss:
        return _pick(legal, rng)
    return greedy_action(view.known(), legal, rng)


def casual_play(view: SeatView, rng: random.Random, seconds: float | None = None) -> Action:
    """``greedy`` that misses one turn in three with a choice."""
    return greedy_play(view, rng, miss=CASUAL_MISS)


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
    """Every legal play with its value: own claim minus the next seat's expected best claim."""
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
    """The play of greatest value (see the module docstring), ties at random."""
    legal = view.legal_actions()
    if len(legal) == 1:
        return legal[0]
    values = careful_values(view)
    best = max(v for _, v in values)
    return _pick([a for a, v in values if v >= best - 1e-9], rng)


def play_distribution(name: str, view: SeatView, rng: random.Random) -> list[tuple[Action, float]]:
    """The probability of each legal play of bot ``name`` in ``view``: exact for ``random``,
    ``casual``, ``greedy`` and ``careful`` (uniform over their ties, ``casual`` mixing in its
    random third), and for the others the one play they choose with ``rng`` (probability 1).
    For exact measures over a whole game (a best response, an exploitability)."""
    legal = view.legal_actions()
    if len(legal) == 1:
        return [(legal[0], 1.0)]
    if name == "random":
        return [(a, 1 / len(legal)) for a in legal]
    if name in ("greedy", "casual"):
        top = set(greedy_candidates(view.known(), legal))
        miss = CASUAL_MISS if name == "casual" else 0.0
        return [
            (a, miss / len(legal) + (1 - miss) * (1 / len(top) if a in top else 0.0)) for a in legal
        ]
    if name == "careful":
        values = careful_values(view)
        best = max(v for _, v in values)
        top_count = sum(v >= best - 1e-9 for _, v in values)
        return [(a, 1 / top_count if v >= best - 1e-9 else 0.0) for a, v in values]
    policy = HAND_POLICIES.get(name)
    if policy is None:
        raise ConfigError(
            f"bot {name!r} does not play the hand variant "
            f"(bots that do: {', '.join(HAND_POLICIES)})"
        )
    chosen = policy(view, rng, None)
    return [(a, 1.0 if a == chosen else 0.0) for a in legal]


#: The bots that play the hand variant, by registry name: each maps a seat's view, a random
#: generator and a time limit in seconds (or ``None``) to a legal play (``expert``:
#: :mod:`hisss.bots.hand_expert`).
HAND_POLICIES: dict[str, Callable[[SeatView, random.Random, float | None], Action]] = {
    "random": random_play,
    "casual": casual_play,
    "greedy": greedy_play,
    "careful": careful_play,
    "expert": expert_play,
}


__all__ = [
    "CASUAL_MISS",
    "HAND_POLICIES",
    "careful_play",
    "careful_values",
    "casual_play",
    "expected_best",
    "greedy_play",
    "play_distribution",
    "random_play",
]
