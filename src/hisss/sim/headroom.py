"""How much any player could win: upper bounds on play against a fixed opponent.

Two measures of the skill a game holds, both against a *fixed* opponent policy (``random``,
``greedy`` or ``careful`` in every other seat):

* **The clairvoyant** (:func:`clairvoyant`) knows the order of the whole deck and plays, in every
  deal, the line that gives it the best result against the opponents' actual replies. No real
  player can do better on that deal, so its win share is an upper bound on what any player could
  win against those opponents. The opponents are the bots themselves, with one difference: their
  ties are broken by a generator seeded from the deal and the turn (:func:`tie_seed`), so that an
  opponent's reply depends only on the position and the turn, never on the path the search took
  to reach it. The search is a depth-first search over the clairvoyant's own choices (the
  opponents' moves are fixed replies), with a transposition table, the most-cards placement tried
  first, a cut as soon as a line wins outright, and two bounds: a seat that cannot catch up even
  with every card still on the table and in the deck has lost, one that no other seat can catch
  has won. Each deal has a node budget; a deal whose search runs out counts with the best line
  found in the lower bound and as a win in the upper bound, and the report gives both.
* **The exact value** (:func:`exact_value`) is the best any player could win *without* knowing the
  order: expectimax to the end of the game, every draw a chance node with its exact probability,
  the player's every choice maximised and each opponent playing its policy (its ties averaged
  uniformly, as the bot picks them). This is the win share of the best strategy there is against
  those opponents; it is feasible only on small decks (such as ``docs/decks/mini.toml``), with a
  transposition table keyed by the seat to draw, the cards left, the table and the pits.

The win share counts a shared win as a fraction, as tournaments do, and is averaged over every
seat of the player (a mirrored measure: each deal is searched once per seat).

>>> from hisss.core import get_rules
>>> from hisss.record import resolve_deck
>>> out = clairvoyant("greedy", Deals(2, players=2, seed=1))
>>> out.deals, out.games, 0.0 <= out.lower <= out.upper <= 1.0
(2, 4, True)
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from hisss.bots.base import Budget, Clock
from hisss.bots.careful import careful_candidates
from hisss.bots.endgame import EndgameSolver, Policy, win_share
from hisss.bots.expectimax import BudgetSpentError
from hisss.bots.features import claim_of
from hisss.bots.greedy import greedy_candidates
from hisss.core import RAINBOW, Action, ConfigError, Deck, Rules, State, deal, get_rules, new_game
from hisss.sim.executor import Backend, run_ordered
from hisss.sim.play import game_seed
from hisss.sim.ratings import clustered_interval
from hisss.sim.reports import ClairvoyantReport, ExactValueReport

#: The opponent policies, by bot name: the actions the bot picks among, uniformly.
POLICIES: dict[str, Policy] = {
    "random": lambda state, legal: legal,
    "greedy": greedy_candidates,
    "careful": careful_candidates,
}
#: The clairvoyant's node budget per deal and seat (placements searched).
CLAIRVOYANT_NODES = 200_000
#: The most positions the exact solver may store (its table is never cleared during a solve).
EXACT_POSITIONS = 50_000_000
#: The largest deck the exact value takes: ``docs/decks/tiny.toml`` (12 cards) takes well under a
#: minute with 2 or 3 players, and each card more multiplies the work many times over.
EXACT_MAX_CARDS = 12
#: The exact search's node budget over all seats (draws and placements searched; some 40,000 a
#: second): a search that spends it stops with an error after a minute or two instead of hours.
EXACT_NODES = 3_000_000


class _OutOfNodesError(Exception):
    """The clairvoyant search spent its node budget on a deal."""


def _policy(name: str) -> Policy:
    try:
        return POLICIES[name]
    except KeyError:
        raise ConfigError(
            f"unknown opponent {name!r}: the opponent must be one of {', '.join(POLICIES)}"
        ) from None


def tie_seed(seed: int, deal_number: int, turn: int) -> int:
    """The seed of the generator that breaks an opponent's tie on ``turn`` of a deal."""
    text = f"hisss-headroom:{seed}:{deal_number}:{turn}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def _settled(state: State, seat: int, loose: int) -> float | None:
    """1 or 0 when no play of the ``loose`` cards still to be claimed can change who wins (by
    cards), else None."""
    mine = state.pit_cards(seat)
    best = max(state.pit_cards(s) for s in range(state.players) if s != seat)
    if mine + loose < best:
        return 0.0
    if mine > best + loose:
        return 1.0
    return None


def _table_key(state: State) -> tuple[object, ...]:
    return (
        tuple(str(s) for s in state.table),
        tuple(
            (state.pit_cards(s), max((len(p.cards) for p in pit), default=0))
            for s, pit in enumerate(state.pits)
        ),
    )


class _Clairvoyant:
    """One deal's search for one seat (see the module docstring)."""

    def __init__(
        self,
        order: list[Any],
        seat: int,
        players: int,
        rules: Rules,
        deck: Deck,
        policy: Policy,
        ties: Callable[[int], int],
        nodes: int,
    ) -> None:
        self.order = order
        self.seat = seat
        self.policy = policy
        self.ties = ties
        self.nodes = nodes
        self.memo: dict[tuple[object, ...], float] = {}
        #: The best result of a line searched so far (every searched node's value is reached by
        #: a consistent line of play, so this is what the clairvoyant can surely get).
        self.found = 0.0
        self.state = new_game(players, rules, deck)
        self.state.push_draw(order[0])

    def value(self) -> float:
        state = self.state
        if state.is_terminal():
            return win_share(state, self.seat)
        loose = state.remaining + sum(len(s.cards) for s in state.table)
        settled = _settled(state, self.seat, loose)
        if settled is not None:
            return settled
        key = (state.turns, *_table_key(state))
        known = self.memo.get(key)
        if known is not None:
            return known
        turn = state.turns
        state.push_draw(self.order[turn + 1])
        try:
            legal = state.legal_actions()
            if state.to_move != self.seat:
                top = self.policy(state, legal) if len(legal) > 1 else legal
                pick = (
                    top[0]
                    if len(top) == 1
                    else top[random.Random(self.ties(turn)).randrange(len(top))]
                )
                best = self._after(pick)
            else:
                ranked = (
                    sorted(legal, key=lambda a: -claim_of(state, a)) if len(legal) > 1 else legal
                )
                best = -1.0
                for action in ranked:
                    best = max(best, self._after(action))
                    if best >= 1.0:
                        break
        finally:
            state.undo()
        self.memo[key] = best
        self.found = max(self.found, best)
        return best

    def _after(self, action: Action) -> float:
        self.nodes -= 1
        if self.nodes < 0:
            raise _OutOfNodesError
        state = self.state
        state.push(action)
        try:
            return self.value()
        finally:
            state.undo()


def _clairvoyant_deals(
    opponent: str,
    players: int,
    seed: int,
    rules: Rules,
    deck: Deck,
    first: int,
    last: int,
    nodes: int,
) -> list[tuple[float, float, int]]:
    """Deals ``first`` to ``last``: per deal, the summed lower and upper win shares over the seats
    and the number of seats whose search ran out of nodes."""
    policy = _policy(opponent)
    out = []
    for number in range(first, last + 1):
        order = deal(deck, random.Random(game_seed(seed, number)))
        low = high = 0.0
        cut = 0
        for seat in range(players):
            search = _Clairvoyant(
                order,
                seat,
                players,
                rules,
                deck,
                policy,
                partial(tie_seed, seed, number),
                nodes,
            )
            try:
                value = search.value()
            except _OutOfNodesError:
                low += search.found
                high += 1.0
                cut += 1
                continue
            low += value
            high += value
        out.append((low, high, cut))
    return out


@dataclass(frozen=True, slots=True)
class Deals:
    """The deals a clairvoyant searches: ``count`` deals for ``players`` seats, deal ``d`` (from
    1) dealt as game ``d`` of a tournament or simulation with ``seed``, under ``rules`` (default
    ``classic``) with ``deck``."""

    count: int
    players: int = 2
    seed: int = 0
    rules: Rules | None = None
    deck: Deck = RAINBOW


def clairvoyant(
    opponent: str,
    deals: Deals,
    *,
    nodes: int = CLAIRVOYANT_NODES,
    workers: int = 1,
    backend: Backend | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ClairvoyantReport:
    """The clairvoyant's win share against ``opponent`` in every other seat (module docstring).

    Deal ``d`` of ``deals`` is dealt as game ``d`` of a tournament or simulation with its seed
    (:func:`~hisss.sim.play.game_seed`) and searched once per seat. Returns a
    :class:`~hisss.sim.reports.ClairvoyantReport` (``opponent``, ``players``, ``deals``,
    ``games``, ``seed``, ``nodes``, ``lower``, ``upper``, ``ci95``, ``cut``): the win share with
    every deal's best line found (``lower``) and with every cut search counted as a win
    (``upper``), the 95% interval over deals of ``upper`` (clustered by deal, as tournaments
    give theirs), and the number of searches cut by the node budget. The result does not depend
    on ``workers`` or ``backend``. ``progress`` is called with (deals done, deals) as deals end.
    """
    policy_name = opponent.strip().lower()
    _policy(policy_name)
    players, seed, deck = deals.players, deals.seed, deals.deck
    rules = deals.rules
    count = deals.count
    if count < 1:
        raise ConfigError(f"deals must be a whole number of at least 1, not {count}")
    rules = rules if rules is not None else get_rules("classic")
    rules.check_players(players)
    check_headroom_rules(rules)
    backend = backend if backend is not None else Backend(workers=workers)
    size = max(1, min(50, math.ceil(count / (backend.workers * 8))))
    tasks = [
        (policy_name, players, seed, rules, deck, a, min(a + size - 1, count), nodes)
        for a in range(1, count + 1, size)
    ]
    rows: list[tuple[float, float, int]] = []
    for chunk in run_ordered(_clairvoyant_deals, tasks, backend):
        rows.extend(chunk)
        if progress is not None:
            progress(len(rows), count)
    games = count * players
    return ClairvoyantReport(
        opponent=policy_name,
        players=players,
        deals=count,
        games=games,
        seed=seed,
        nodes=nodes,
        lower=sum(r[0] for r in rows) / games,
        upper=sum(r[1] for r in rows) / games,
        ci95=clustered_interval([(r[1], players) for r in rows]),
        cut=sum(r[2] for r in rows),
    )


def check_headroom_rules(rules: Rules) -> None:
    """Refuse the hand variant: both searches play the classic game, where every drawn card is
    placed at once."""
    if not rules.seats_draw:
        raise ConfigError(
            "headroom searches the classic game, where each drawn card is placed at once: leave "
            "out hand_size (hisss tournament and simulate play the hand variant)"
        )


def exact_value(
    opponent: str,
    players: int,
    deck: Deck,
    *,
    rules: Rules | None = None,
    nodes: int = EXACT_NODES,
    progress: Callable[[int, int], None] | None = None,
) -> ExactValueReport:
    """The best win share any player can get against ``opponent`` in every other seat, with the
    order of the deck unknown: expectimax to the end (module docstring), for each seat and
    averaged over the seats. Feasible on small decks only: a deck of more than
    :data:`EXACT_MAX_CARDS` cards is refused at once, and a search that spends ``nodes`` (over
    all seats) stops with a :class:`~hisss.core.ConfigError`. ``progress`` is called with
    (seats done, seats) after each seat.

    Returns an :class:`~hisss.sim.reports.ExactValueReport` (``opponent``, ``players``,
    ``deck``, ``seats``, ``value``, ``positions``): each seat's value, their mean, and the number
    of positions stored.

    >>> exact_value("greedy", 2, RAINBOW)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    hisss.core.errors.ConfigError: the exact value takes decks of at most 12 cards ... with 50
    """
    policy = _policy(opponent.strip().lower())
    rules = rules if rules is not None else get_rules("classic")
    rules.check_players(players)
    check_headroom_rules(rules)
    if deck.size > EXACT_MAX_CARDS:
        raise ConfigError(
            f"the exact value takes decks of at most {EXACT_MAX_CARDS} cards (such as "
            f"docs/decks/tiny.toml), not {deck.name!r} with {deck.size}"
        )
    seats = []
    positions = 0
    clock = Clock(Budget(nodes=nodes))
    for seat in range(players):
        solver = EndgameSolver(max_entries=EXACT_POSITIONS, policy=policy)
        try:
            seats.append(solver.value(new_game(players, rules, deck), seat, clock))
        except BudgetSpentError:
            raise ConfigError(
                f"the exact search spent its budget of {nodes:,} nodes at seat {seat + 1} of "
                f"{players}: the deck {deck.name!r} is too large for it with {players} players"
            ) from None
        positions += solver.table_size()
        if progress is not None:
            progress(seat + 1, players)
    return ExactValueReport(
        opponent=opponent.strip().lower(),
        players=players,
        deck=deck.name,
        seats=tuple(seats),
        value=sum(seats) / players,
        positions=positions,
    )


__all__ = [
    "CLAIRVOYANT_NODES",
    "EXACT_MAX_CARDS",
    "EXACT_NODES",
    "EXACT_POSITIONS",
    "POLICIES",
    "check_headroom_rules",
    "clairvoyant",
    "exact_value",
    "tie_seed",
]
