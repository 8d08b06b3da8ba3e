"""Fast facts about a position for bots: how many cards a placement takes, and what a draw offers.

A placement takes cards ("Hisss!") only by a cap that closes a snake with the other closing already
in place, or by a join: one that leaves a head and a tail in the joined snake, or any join under the
``pl`` rule (the joiner always takes the joined snake). An extend or a new snake never takes cards.
These helpers read only the table and the rules, never copy the state, and do not build the legal
actions, so search bots can call them in their inner loops:

* :func:`claim_of`: the cards the player to move takes by playing one legal action;
* :func:`best_claim`: the most cards a player could take if a given card were drawn now;
* :func:`claim_profile`: :func:`best_claim` for every distinct card at once, in one pass over the
  table (a list indexed by ``card.code``), for weighing all the possible next draws;
* :func:`expected_claim`: the expected best claim of the next draw, over the exact remaining cards.

>>> from hisss.core import Rules, new_game, parse_card
>>> s = new_game(2)
>>> for text in ("H:red", "M:red-orange"):  # the starter, then seat 1 extends it
...     s.draw(parse_card(text))
...     if s.drawn is not None:
...         _ = s.push(s.legal_actions()[0])
>>> str(s.table[0])
'H:red M:red-orange'
>>> best_claim(s, parse_card("T:orange")), best_claim(s, parse_card("T:wild"))
(3, 3)
>>> best_claim(s, parse_card("T:red")), best_claim(s, parse_card("M:orange-yellow"))
(0, 0)
>>> s.draw(parse_card("T:wild"))  # seat 2 caps the snake and takes its three cards
>>> [(str(a), claim_of(s, a)) for a in s.legal_actions()]
[('1R', 3)]
"""

from __future__ import annotations

from hisss.core import Action, ActionKind, Card, CardKind, JoinClaim, Snake, State
from hisss.core.cards import ALL_CARDS, CARD_KINDS, WHEEL, WILD

_HEAD = CardKind.HEAD
_TAIL = CardKind.TAIL
_MID = CardKind.MID
_CAP = ActionKind.CAP
_JOIN = ActionKind.JOIN

#: Index of an open end's colour: 0 to 5 around the wheel, 6 for a lone wild neck.
_END_INDEX: dict[object, int] = {c: i for i, c in enumerate(WHEEL)}
_END_INDEX[WILD] = 6
_WILD_END = 6

# Bits of a snake's closings: 1 for a head, 2 for a tail. Two snakes may be joined when their
# bits share nothing (never two heads or two tails); the joined snake is complete when the bits
# together are 3.
_H = 1
_T = 2
_HT = 3

_HEAD_CODES: tuple[int, ...] = tuple(Card.head(c).code for c in WHEEL)
_TAIL_CODES: tuple[int, ...] = tuple(Card.tail(c).code for c in WHEEL)
_WILD_HEAD = Card.head(None).code
_WILD_TAIL = Card.tail(None).code
#: (code, index of colour a, index of colour b) of every mid-section.
_MIDS: tuple[tuple[int, int, int], ...] = tuple(
    (c.code, _END_INDEX[c.a], _END_INDEX[c.b]) for c in ALL_CARDS if c.kind is _MID
)


def _bits(snake: Snake) -> int:
    cards = snake.cards
    return (cards[0].kind is _HEAD) | ((cards[-1].kind is _TAIL) << 1)


def claim_of(state: State, action: Action) -> int:
    """The number of cards the player to move takes by playing ``action`` (0 if none); in the
    hand variant, by playing the card of the hand that ``action`` names.

    ``action`` must be one of ``state.legal_actions()``; under the ``pl`` rule every join takes
    the joined snake.

    >>> from hisss.core import new_game, parse_card
    >>> s = new_game(2, "pl")
    >>> for text in ("M:red-orange", "H:red", "M:yellow-green"):
    ...     s.draw(parse_card(text))
    ...     if s.drawn is not None:
    ...         _ = s.push(s.legal_actions()[-1])
    >>> [str(t) for t in s.table]
    ['H:red M:red-orange', 'M:yellow-green']
    >>> s.draw(parse_card("M:orange-yellow"))
    >>> [(str(a), claim_of(s, a)) for a in s.legal_actions()]
    [('1R:orange', 0), ('2L:yellow', 0), ('1R:orange+2L:yellow', 4)]
    """
    kind = action.kind
    if kind is _CAP:
        snake = state.table[action.snake]
        card = state.drawn if action.card is None else action.card  # the hand variant names it
        assert card is not None, "claim_of needs a drawn card"
        cards = snake.cards
        closed = cards[-1].kind is _TAIL if card.kind is _HEAD else cards[0].kind is _HEAD
        return len(cards) + 1 if closed else 0
    if kind is _JOIN:
        table = state.table
        s = table[action.snake]
        u = table[action.snake2]
        if state.rules.join_claim is JoinClaim.ALWAYS or _bits(s) | _bits(u) == _HT:
            return len(s.cards) + len(u.cards) + 1
    return 0


def best_claim(state: State, card: Card) -> int:
    """The most cards a player could take by placing ``card`` on the table of ``state`` now.

    Only the table and the rules are read: ``state`` may be a draw or a decision point, and
    ``card`` need not be among the remaining cards.
    """
    return best_claim_on(state.table, card, state.rules.join_claim is JoinClaim.ALWAYS)


def best_claim_on(table: tuple[Snake, ...], card: Card, join_always: bool = False) -> int:
    """:func:`best_claim` for a bare table; ``join_always`` is the ``pl`` rule."""
    if card.kind is not _MID:
        return _cap_claim_on(table, card)
    return _join_claim_on(table, card, join_always)


def _cap_claim_on(table: tuple[Snake, ...], card: Card) -> int:
    """:func:`best_claim_on` of a head or a tail: the longest snake it completes, and it."""
    best = 0
    colour = card.a
    if card.kind is _HEAD:
        for s in table:
            cards = s.cards
            # a tail and no head, and a mid-section at the open (left) end
            if (
                cards[-1].kind is _TAIL
                and cards[0].kind is _MID
                and (colour is None or s.path[0] is colour)
            ):
                best = max(best, len(cards) + 1)
    else:
        for s in table:
            cards = s.cards
            if (
                cards[0].kind is _HEAD
                and cards[-1].kind is _MID
                and (colour is None or s.path[-1] is colour)
            ):
                best = max(best, len(cards) + 1)
    return best


def _join_claim_on(table: tuple[Snake, ...], card: Card, join_always: bool) -> int:
    """:func:`best_claim_on` of a mid-section: the longest two snakes it joins, and it."""
    best = 0
    x, y = card.a, card.b
    ends_x: list[tuple[int, int, int]] = []
    ends_y: list[tuple[int, int, int]] = []
    for i, s in enumerate(table):
        bits = _bits(s)
        n = len(s.cards)
        for c in (s.path[0], s.path[-1]):
            if c is None:
                continue
            if c is x or c is WILD:
                ends_x.append((i, n, bits))
            if c is y or c is WILD:
                ends_y.append((i, n, bits))
    for i, n, b in ends_x:
        for j, m, d in ends_y:
            if i != j and not b & d and (join_always or b | d == _HT):
                best = max(best, n + m + 1)
    return best


def claim_profile(table: tuple[Snake, ...], join_always: bool = False) -> list[int]:
    """:func:`best_claim_on` of every distinct card at once: ``profile[card.code]``.

    One pass over the table; under the classic rule each card then costs a few look-ups (only a
    snake with a head and one with a tail complete each other), under ``pl`` a loop over the
    pairs of open ends that fit the mid-section.

    >>> from hisss.core import parse_card, parse_snake
    >>> table = (parse_snake("H:red M:red-orange"), parse_snake("M:yellow-green T:green"))
    >>> p = claim_profile(table)
    >>> p[parse_card("M:orange-yellow").code], p[parse_card("T:orange").code]
    (5, 3)
    >>> p[parse_card("H:yellow").code], p[parse_card("H:wild").code], p[parse_card("H:red").code]
    (3, 3, 0)
    """
    out = [0] * CARD_KINDS
    head_cap, tail_cap, ends, with_head, with_tail = _profile_scan(table, join_always)
    _profile_caps(out, head_cap, tail_cap)
    if join_always:
        _profile_joins_any(out, ends)
    else:
        _profile_joins_classic(out, with_head, with_tail)
    return out


def _profile_scan(
    table: tuple[Snake, ...], join_always: bool
) -> tuple[list[int], list[int], list[list[tuple[int, int, int]]], list[int], list[int]]:
    """The one pass of :func:`claim_profile` over the table. By colour (0-5): the longest snake
    a head completes and the longest a tail completes. By end colour (0-6, 6 wild): under
    ``join_always`` every open end (snake index, length, head and tail bits), else the longest
    head-only and the longest tail-only snake with an open end of that colour."""
    head_cap = [0] * 6  # longest snake a head of each colour completes (its length)
    tail_cap = [0] * 6
    ends: list[list[tuple[int, int, int]]] = [[] for _ in range(7)] if join_always else []
    with_head = [0] * 7  # longest head-only snake with an open end of each colour
    with_tail = [0] * 7
    index = _END_INDEX
    for i, s in enumerate(table):
        cards = s.cards
        path = s.path
        n = len(cards)
        bits = (cards[0].kind is _HEAD) | ((cards[-1].kind is _TAIL) << 1)
        left = path[0]
        right = path[-1]
        if bits == _T:
            if n > 1:
                k = index[left]
                head_cap[k] = max(head_cap[k], n)
        elif bits == _H and n > 1:
            k = index[right]
            tail_cap[k] = max(tail_cap[k], n)
        if join_always:
            if left is not None:
                ends[index[left]].append((i, n, bits))
            if right is not None:
                ends[index[right]].append((i, n, bits))
        elif bits == _H:
            k = index[right]
            with_head[k] = max(with_head[k], n)
        elif bits == _T:
            k = index[left]
            with_tail[k] = max(with_tail[k], n)
    return head_cap, tail_cap, ends, with_head, with_tail


def _profile_caps(out: list[int], head_cap: list[int], tail_cap: list[int]) -> None:
    """Set in ``out`` the claims of the heads and tails, the wild ones too."""
    best_head = 0
    best_tail = 0
    for k in range(6):
        n = head_cap[k]
        if n:
            out[_HEAD_CODES[k]] = n + 1
            best_head = max(best_head, n)
        n = tail_cap[k]
        if n:
            out[_TAIL_CODES[k]] = n + 1
            best_tail = max(best_tail, n)
    if best_head:
        out[_WILD_HEAD] = best_head + 1
    if best_tail:
        out[_WILD_TAIL] = best_tail + 1


def _profile_joins_any(out: list[int], ends: list[list[tuple[int, int, int]]]) -> None:
    """Set in ``out`` the claims of the mid-sections under ``pl``: any two snakes join."""
    wild = ends[_WILD_END]
    for code, a, b in _MIDS:
        ea = ends[a] + wild if wild else ends[a]
        eb = ends[b] + wild if wild else ends[b]
        if not ea or not eb:
            continue
        best = 0
        for i, n, bi in ea:
            for j, m, bj in eb:
                if i != j and not bi & bj and n + m >= best:
                    best = n + m + 1
        out[code] = best


def _profile_joins_classic(out: list[int], with_head: list[int], with_tail: list[int]) -> None:
    """Set in ``out`` the claims of the mid-sections under the classic rule: a snake with a
    head joins one with a tail."""
    wh = with_head[_WILD_END]
    wt = with_tail[_WILD_END]
    for code, a, b in _MIDS:
        ha = max(with_head[a], wh)
        hb = max(with_head[b], wh)
        ta = max(with_tail[a], wt)
        tb = max(with_tail[b], wt)
        best = 0
        if ha and tb:
            best = ha + tb + 1
        if hb and ta and hb + ta + 1 > best:
            best = hb + ta + 1
        out[code] = best


def remaining_weights(state: State) -> list[tuple[int, int]]:
    """``(card code, copies left)`` of every card still to be drawn, the drawn card not counted.

    At a decision point these are the exact weights of the next draw (what
    :meth:`~hisss.core.State.draw_weights` gives once the drawn card is placed).
    """
    return [(card.code, n) for card, n in state.remaining_counts().items()]


def expected_claim(profile: list[int], weights: list[tuple[int, int]]) -> int:
    """The best claim of the next draw, summed over the remaining copies (``Σ n · profile``).

    Divide by the number of cards left for the expectation; kept whole so that bots compare
    positions exactly.
    """
    return sum(n * profile[code] for code, n in weights)


__all__ = [
    "best_claim",
    "best_claim_on",
    "claim_of",
    "claim_profile",
    "expected_claim",
    "remaining_weights",
]
