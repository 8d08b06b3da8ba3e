"""Tournaments: bots play each other over seeded deals, optionally mirrored, on several processes.

**Entries.** The bots are given by registry name (``random``, ``greedy``, a level name, ...). Each
name given is one *entry*, one player at the table; a name given more than once makes separate
entries, labelled ``NAME#1``, ``NAME#2``, ... (``--bots greedy,greedy,random`` gives ``greedy#1``,
``greedy#2`` and ``random``). A game seats each entry at most once, so there must be at least as
many entries as players: repeat a name to seat that bot more than once.

**Seating.** With ``K`` entries and ``P`` seats the deals come in blocks of ``K``. Each block draws
a random cyclic order ``π`` of the entries from the run's seed, and deal ``j`` of the block (``j``
from 0) seats ``π[(j + i) mod K]`` in seat ``i + 1``. Over a block every entry plays ``P`` deals
and sits in each seat exactly once; when ``K == P`` every deal seats every entry. Without
``--mirror`` each deal is played once with that line-up. With ``--mirror`` each deal is played
``P`` times, the line-up rotated by one seat each time (rotation ``r`` puts the line-up's entry
``(s + r) mod P`` in seat ``s + 1``), so every bot of the line-up sits in every seat with the same
card order and the luck of the draw cancels out. ``games`` counts games; with ``--mirror`` it is
rounded up to a whole number of deals, a multiple of ``P`` (the report gives the games played).

**Determinism.** Deal ``d`` (from 1) is dealt with ``random.Random(game_seed(seed, d))``, the same
card order that game ``d`` of ``hisss simulate`` gets. Every game of the deal has the deal's seed,
and each bot decision draws on a generator of its own, seeded by that seed and the turn
(:func:`hisss.bots.turns.decision_rng`); each game has new bot objects. So one bot's randomness or
memory never shifts another's, and no game depends on which games a process played before it.
Worker processes play chunks of consecutive deals and the results are merged in deal order: the
same arguments give the same report whatever the number of workers or the backend (local
processes or Ray, :mod:`hisss.sim.executor`).
(A bot given a time budget depends on the machine's speed; node budgets are deterministic.)

>>> from hisss.core import RAINBOW, get_rules
>>> spec = TournamentSpec(("random", "random"), 2, 0, get_rules("classic"), RAINBOW, mirror=True)
>>> out = tournament(8, spec)
>>> out.games, out.deals, sorted(out.bots)
(8, 4, ['random#1', 'random#2'])
>>> out.bots["random#1"].games
8
"""

from __future__ import annotations

import hashlib
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from hisss.bots import make_bot
from hisss.core import (
    ConfigError,
    Deck,
    HisssError,
    Result,
    Rules,
    deal,
)
from hisss.sim.executor import Backend, run_ordered
from hisss.sim.play import game_seed, play_game
from hisss.sim.ratings import RATING_MODEL, TournamentGame, summarize
from hisss.sim.reports import TournamentReport
from hisss.sim.stats import Progress

#: The most deals one worker task plays; smaller chunks keep the progress bar moving.
MAX_CHUNK_DEALS = 100
#: Chunks per worker aimed for, so that uneven chunk times even out.
CHUNKS_PER_WORKER = 16


def _derive(*parts: object) -> int:
    """A 63-bit seed from the parts, the same on every machine and Python run."""
    text = "hisss-tournament:" + ":".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def entry_labels(names: Sequence[str]) -> tuple[str, ...]:
    """The label of each entry: its name, or ``NAME#k`` when the name is given more than once.

    >>> entry_labels(["greedy", "Random", "greedy"])
    ('greedy#1', 'random', 'greedy#2')
    """
    keys = [n.strip().lower() for n in names]
    totals = Counter(keys)
    seen: Counter[str] = Counter()
    labels = []
    for key in keys:
        seen[key] += 1
        labels.append(f"{key}#{seen[key]}" if totals[key] > 1 else key)
    return tuple(labels)


def lineup(seed: int, entries: int, players: int, deal_number: int) -> tuple[int, ...]:
    """The entries seated for deal ``deal_number`` (from 1), seat 1 first (see the module doc).

    >>> [lineup(0, 3, 2, d) for d in (1, 2, 3)]  # one block: each entry twice, once per seat
    [(2, 0), (0, 1), (1, 2)]
    """
    block, j = divmod(deal_number - 1, entries)
    order = list(range(entries))
    random.Random(_derive("lineup", seed, entries, block)).shuffle(order)
    return tuple(order[(j + i) % entries] for i in range(players))


def seatings(
    seed: int, entries: int, players: int, deal_number: int, mirror: bool
) -> list[tuple[int, ...]]:
    """The seatings deal ``deal_number`` is played with: one, or ``players`` rotations mirrored.

    >>> seatings(0, 3, 3, 1, mirror=True)
    [(2, 0, 1), (0, 1, 2), (1, 2, 0)]
    """
    base = lineup(seed, entries, players, deal_number)
    rotations = players if mirror else 1
    return [tuple(base[(s + r) % players] for s in range(players)) for r in range(rotations)]


def placements(result: Result, rules: Rules) -> tuple[int, ...]:
    """Each seat's place: the number of seats placed above it (0 for every winner).

    The winners come first; the others are ranked by the measure that decides the winner and its
    tie-break (cards, then the longest snake; snakes, then the longest; or the longest, then
    cards). Equal figures share a place, and the place after them skips (1, 1, 3).

    >>> from hisss.core import DecidedBy, get_rules
    >>> result = Result((3, 5, 3, 0), (1, 1, 1, 0), (3, 5, 3, 0), (1,), DecidedBy.CARDS)
    >>> placements(result, get_rules("classic"))
    (1, 0, 1, 3)
    """
    first, second = rules.scoring.measures
    keys = list(zip(result.measure(first), result.measure(second), strict=True))
    winners = set(result.winners)
    others = [s for s in range(len(keys)) if s not in winners]
    above = len(winners)
    return tuple(
        0 if seat in winners else above + sum(1 for o in others if keys[o] > keys[seat])
        for seat in range(len(keys))
    )


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    """A tournament: what :func:`tournament` is asked to play, and what every worker needs to
    play any deal of it (small and picklable)."""

    #: The registry name of each entry.
    bots: tuple[str, ...]
    players: int
    seed: int
    rules: Rules
    deck: Deck
    #: Each deal is played once per seating, every entry in every seat.
    mirror: bool = False


def play_deal(spec: TournamentSpec, deal_number: int) -> list[TournamentGame]:
    """Play deal ``deal_number`` (from 1): one game, or one per seat rotation when mirrored."""
    deal_seed = game_seed(spec.seed, deal_number)
    cards = deal(spec.deck, random.Random(deal_seed))
    games = []
    for rotation, seated in enumerate(
        seatings(spec.seed, len(spec.bots), spec.players, deal_number, spec.mirror)
    ):
        bots = [make_bot(spec.bots[e]) for e in seated]
        outcome = play_game(
            spec.rules, spec.deck, bots, random.Random(deal_seed), seed=deal_seed, cards=cards
        )
        result = outcome.result
        games.append(
            TournamentGame(
                deal=deal_number,
                rotation=rotation,
                entries=seated,
                cards=result.cards,
                places=placements(result, spec.rules),
            )
        )
    return games


def _play_chunk(spec: TournamentSpec, first: int, last: int) -> list[TournamentGame]:
    """Play deals ``first`` to ``last`` inclusive (a worker task).

    The package's errors are passed back as plain :class:`HisssError` naming the deal, so that
    they cross the process boundary intact.
    """
    games: list[TournamentGame] = []
    for number in range(first, last + 1):
        try:
            games.extend(play_deal(spec, number))
        except HisssError as exc:
            raise HisssError(f"deal {number}: {exc}") from None
    return games


def _chunks(deals: int, workers: int) -> list[tuple[int, int]]:
    """Consecutive ranges of deal numbers, ``(first, last)``, covering 1 to ``deals``."""
    size = max(1, min(MAX_CHUNK_DEALS, math.ceil(deals / (workers * CHUNKS_PER_WORKER))))
    return [(first, min(first + size - 1, deals)) for first in range(1, deals + 1, size)]


def _play_all(
    spec: TournamentSpec, deals: int, backend: Backend, progress: Progress | None
) -> list[TournamentGame]:
    per_deal = spec.players if spec.mirror else 1
    total = deals * per_deal
    if not backend.parallel or deals == 1:
        games: list[TournamentGame] = []
        for number in range(1, deals + 1):
            games.extend(_play_chunk(spec, number, number))
            if progress is not None:
                progress(number * per_deal, total)
        return games
    chunks = _chunks(deals, backend.workers)
    games = []
    for chunk_games in run_ordered(_play_chunk, [(spec, a, b) for a, b in chunks], backend):
        games.extend(chunk_games)
        if progress is not None:
            progress(len(games), total)
    return games


def _whole(value: object, what: str, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ConfigError(f"{what} must be a whole number of at least {least}, not {value!r}")
    return value


def tournament(
    games: int,
    spec: TournamentSpec,
    *,
    workers: int = 1,
    backend: Backend | None = None,
    progress: Progress | None = None,
) -> TournamentReport:
    """Play a tournament of ``games`` games between the named bots of ``spec`` (with its
    players, seed, rules, deck and whether deals are mirrored) and return its report (see the
    module docstring).

    The :class:`~hisss.sim.reports.TournamentReport` holds the run's settings (``games`` played,
    ``deals``, ``players``, ``seed``, ``mirror``, ``rules``, ``deck``, ``deck_cards``,
    ``rating_model``), then ``bots`` and ``head_to_head`` as
    :func:`hisss.sim.ratings.summarize` gives them; its ``to_dict()`` is the JSON object of
    ``hisss tournament --json``. ``workers`` processes play
    the deals (1: in this process); ``backend`` (:mod:`hisss.sim.executor`: local processes or
    Ray, with its own number of workers) takes its place when given. The report depends on
    neither. Workers are started with
    ``spawn`` (safe beside threads such as a progress bar's, and the same on every platform), so a
    script that asks for more than one must call this under ``if __name__ == "__main__":``, and
    the bots must be registered by importing :mod:`hisss.bots`. ``progress`` is called with
    (games done, games) as games finish.
    Raises :class:`~hisss.core.ConfigError` for an unknown bot, fewer than two bots, fewer bots
    than players, a number of players the rules do not allow, or games or workers below 1.
    """
    games = _whole(games, "games", 1)
    workers = _whole(workers, "workers", 1)
    bots, players, seed, rules, deck = spec.bots, spec.players, spec.seed, spec.rules, spec.deck
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigError(f"the seed must be a whole number, not {seed!r}")
    names = [n.strip().lower() if isinstance(n, str) else n for n in bots]
    if any(not isinstance(n, str) or not n for n in names):
        raise ConfigError(f"bots {list(bots)!r}: give bot names separated by commas")
    if len(names) < 2:
        raise ConfigError(
            f"a tournament needs at least 2 bots, not {len(names)}: "
            "give them separated by commas, e.g. greedy,random"
        )
    for name in names:
        make_bot(name)  # an unknown name fails here, before any game is played
    rules.check_players(players)
    if len(names) < players:
        raise ConfigError(
            f"{len(names)} bots for {players} players: a game seats each bot given at most once; "
            "repeat a name to seat that bot more than once (e.g. greedy,random,random)"
        )
    spec = TournamentSpec(tuple(names), players, seed, rules, deck, spec.mirror)
    deals = math.ceil(games / players) if spec.mirror else games
    if backend is None:
        backend = Backend(workers=workers)
    played = _play_all(spec, deals, backend, progress)
    standings = summarize(entry_labels(names), played)
    return TournamentReport(
        games=len(played),
        deals=deals,
        players=players,
        seed=seed,
        mirror=spec.mirror,
        rules=rules,
        deck=deck.name,
        deck_cards=deck.size,
        rating_model=RATING_MODEL,
        bots=standings.bots,
        head_to_head=standings.head_to_head,
    )


__all__ = [
    "TournamentSpec",
    "entry_labels",
    "lineup",
    "placements",
    "play_deal",
    "seatings",
    "tournament",
]
