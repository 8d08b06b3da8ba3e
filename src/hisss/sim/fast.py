"""The fast path: bulk play of random and greedy bots through the compiled kernel.

:func:`play_fast` plays a range of games of a run in one call of :mod:`hisss.kernel.steps` and
returns their figures as arrays; :mod:`hisss.sim.stats` turns them into the same statistics (and
the same JSON lines) as the engine's games. Every rule option and every deck the engine plays is
supported; the bots must be ``random`` or ``greedy`` (one per seat, mixed as you like): asking for
another bot raises :class:`~hisss.core.ConfigError` naming it, and the command line says to run
without ``--fast``.

Game ``k`` of a fast run has the seed :func:`fast_game_seed` of the run's seed and ``k``, so a game
never depends on the chunk or process that plays it: its deal is shuffled with the kernel's
splitmix64 generator started at that seed, and each bot decision draws on
:func:`hisss.bots.turns.decision_rng` of that seed and the turn, so on that deal the bots choose as
:func:`hisss.bots.turns.next_decision` does. The deals differ from the engine's deals of the same
seed (another shuffle), so the games do too, but follow the same distribution; the tests compare
every statistic within standard errors, play each fast deal again in the engine with
``next_decision`` and compare the outcome, and
:func:`replay_counts` replays a fixed deal and choice sequence so that the kernel's legal-action
counts can be checked against the engine's exactly.

numba is needed (the ``dist`` extra); :func:`require_kernel` raises a clear error without it.

>>> fast_game_seed(0, 1) == fast_game_seed(0, 1) != fast_game_seed(0, 2)
True
"""

from __future__ import annotations

import hashlib
import importlib
import time
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from hisss.core import (
    Card,
    ConfigError,
    DecidedBy,
    Deck,
    Result,
    Rules,
)

#: The bots the kernel plays, by registry name.
FAST_BOTS: tuple[str, ...] = ("random", "greedy")

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def require_kernel() -> ModuleType:
    """The compiled kernel module; :class:`ConfigError` when numba or numpy is missing."""
    try:
        return importlib.import_module("hisss.kernel.steps")
    except ImportError as exc:
        raise ConfigError(
            f"the fast path needs numba and numpy ({exc.name or exc} is missing): "
            "pip install 'hisss[dist]'"
        ) from None


def base_seed(seed: int) -> int:
    """The 64-bit base of a fast run's game seeds, derived from the run's seed by SHA-256."""
    digest = hashlib.sha256(f"hisss-fast:{seed}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def fast_game_seed(seed: int, number: int) -> int:
    """The seed of game ``number`` (from 1) of a fast run seeded with ``seed`` (63 bits).

    The same value the kernel computes (:func:`hisss.kernel.steps.game_seeds`).
    """
    z = (base_seed(seed) + number * _GOLDEN) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return (z ^ (z >> 31)) >> 1


@dataclass(frozen=True, slots=True)
class FastSpec:
    """A fast run's table: the rules, the deck and the bot of each seat (small and picklable)."""

    players: int
    rules: Rules
    deck: Deck
    bots: tuple[str, ...]

    def __post_init__(self) -> None:
        self.rules.check_players(self.players)
        if len(self.bots) != self.players:
            raise ConfigError(f"{len(self.bots)} bots for {self.players} players")
        for name in self.bots:
            if name not in FAST_BOTS:
                raise ConfigError(
                    f"the fast path plays only the bots {', '.join(FAST_BOTS)}, not {name!r}"
                )


@dataclass(frozen=True, slots=True)
class FastGames:
    """The figures of consecutive games from the kernel (see ``hisss.kernel.steps.COL_*``)."""

    #: The number of the first game (from 1).
    first: int
    #: Each game's seed.
    seeds: Any
    #: One row of figures per game.
    rows: Any
    #: Per game, the seat and the length of each claim in order (the number of claims is the
    #: sum of the game's per-seat snake counts).
    claim_seat: Any
    claim_len: Any


class _Tables:
    """The spec's arrays for the kernel, built once per process and spec."""

    def __init__(self, spec: FastSpec, np: Any) -> None:
        tables = importlib.import_module("hisss.kernel.tables")
        self.game = tables.game_tuple(spec.players, spec.rules)
        self.cards = tables.card_arrays()
        self.deck = np.array([c.code for c in spec.deck.cards()], dtype=np.int64)
        self.bots = np.array([FAST_BOTS.index(n) for n in spec.bots], dtype=np.int64)


_TABLES: dict[FastSpec, _Tables] = {}


def _tables(spec: FastSpec, np: Any) -> _Tables:
    tables = _TABLES.get(spec)
    if tables is None:
        tables = _TABLES[spec] = _Tables(spec, np)
    return tables


def max_claims(deck: Deck) -> int:
    """The most snakes one game of ``deck`` can see claimed (a claim takes 3 cards or more)."""
    return deck.size // 3 + 1


def play_fast(spec: FastSpec, seed: int, first: int, count: int) -> FastGames:
    """Play games ``first`` to ``first + count - 1`` of the fast run seeded with ``seed``."""
    kernel = require_kernel()
    np = importlib.import_module("numpy")
    tables = _tables(spec, np)
    seeds = kernel.game_seeds(np.uint64(base_seed(seed)), first, count)
    rows = np.empty((count, kernel.row_width(spec.players)), dtype=np.int64)
    width = max_claims(spec.deck)
    claim_seat = np.zeros((count, width), dtype=np.int8)
    claim_len = np.zeros((count, width), dtype=np.int32)
    kernel.play_games(
        tables.deck, seeds, tables.game, tables.cards, tables.bots, rows, claim_seat, claim_len
    )
    return FastGames(first, seeds, rows, claim_seat, claim_len)


def warm_up(spec: FastSpec) -> float:
    """Compile the kernel (or load it from the cache) for ``spec``; return the seconds spent."""
    start = time.perf_counter()
    play_fast(spec, 0, 1, 1)
    return time.perf_counter() - start


@dataclass(frozen=True, slots=True)
class Replayed:
    """A game replayed by the kernel: the legal-action count of each turn and the outcome."""

    #: The number of legal actions on each turn played.
    counts: tuple[int, ...]
    #: Per turn, the most cards one legal action takes (greedy's aim), and how many legal
    #: actions greedy chooses among (those taking that many, or all when none takes any).
    best_claims: tuple[int, ...]
    greedy_choices: tuple[int, ...]
    #: The result, as the engine's :class:`~hisss.core.Result`.
    result: Result
    #: Snakes and cards left on the table.
    table_snakes: int
    table_cards: int
    #: The (seat, length) of each claim, in order.
    claims: tuple[tuple[int, int], ...]


def replay_counts(
    cards: Sequence[Card], choices: Sequence[int], players: int, rules: Rules
) -> Replayed:
    """Replay a stacked deal (starter first) choosing action ``choices[t]`` on turn ``t``.

    A debug entry point for exact tests: indices number the legal actions in the engine's order
    (``State.legal_actions()``), so the same deal and choices replayed by the engine must give the
    same counts on every turn and the same result. Raises :class:`ConfigError` when a choice is
    out of range (naming the turn and the count) or the choices run out before the game ends.
    """
    kernel = require_kernel()
    replay = importlib.import_module("hisss.sim.kernel_replay")
    np = importlib.import_module("numpy")
    rules.check_players(players)
    order = np.array([c.code for c in cards], dtype=np.int64)
    picks = np.array(list(choices), dtype=np.int64)
    counts = np.zeros((max(len(cards), 1), 3), dtype=np.int64)
    row = np.zeros(kernel.row_width(players), dtype=np.int64)
    width = len(cards) // 3 + 1
    seats = np.zeros(width, dtype=np.int8)
    lengths = np.zeros(width, dtype=np.int32)
    out = (row, seats, lengths)
    tables = importlib.import_module("hisss.kernel.tables")
    game = tables.game_tuple(players, rules)
    claims = replay.replay_game(order, picks, game, tables.card_arrays(), counts, out)
    if claims < 0:
        turn = -1 - claims
        if turn >= len(choices):
            raise ConfigError(f"the choices ran out on turn {turn + 1} ({len(choices)} given)")
        raise ConfigError(
            f"turn {turn + 1}: choice {choices[turn]} is out of range "
            f"({counts[turn, 0]} legal actions)"
        )
    turns = int(row[kernel.COL_TURNS])
    return Replayed(
        counts=tuple(int(n) for n in counts[:turns, 0]),
        best_claims=tuple(int(n) for n in counts[:turns, 1]),
        greedy_choices=tuple(int(n) for n in counts[:turns, 2]),
        result=row_result(row.tolist(), players),
        table_snakes=int(row[kernel.COL_TABLE_SNAKES]),
        table_cards=int(row[kernel.COL_TABLE_CARDS]),
        claims=tuple((int(seats[k]), int(lengths[k])) for k in range(claims)),
    )


_DECIDED = ("cards", "snakes", "longest", "target", "shared")


def row_result(row: Sequence[int], players: int) -> Result:
    """The :class:`~hisss.core.Result` of a kernel row of figures."""
    base = 12
    cards = tuple(int(v) for v in row[base : base + players])
    snakes = tuple(int(v) for v in row[base + players : base + 2 * players])
    longest = tuple(int(v) for v in row[base + 2 * players : base + 3 * players])
    mask = int(row[11])
    winners = tuple(s for s in range(players) if mask >> s & 1)
    return Result(cards, snakes, longest, winners, DecidedBy(_DECIDED[int(row[10])]))


__all__ = [
    "FAST_BOTS",
    "FastGames",
    "FastSpec",
    "Replayed",
    "base_seed",
    "fast_game_seed",
    "play_fast",
    "replay_counts",
    "require_kernel",
    "row_result",
    "warm_up",
]
