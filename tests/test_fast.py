"""Tests of the fast path: the compiled kernel against the engine, exactly and in distribution.

Two kinds of check. The exact one replays engine games (random choices over fixed deals, for every
preset, the built-in decks, 2 to 6 players and the other rule options) through the kernel's debug
entry point, built from the same compiled steps as the bots' games, and compares, turn by turn,
the number of legal actions, the most cards one action takes and the number of actions greedy
chooses among, then the result, the claims and what was left on the table: a subtle rule bug
cannot hide in statistical noise there. The statistical one compares every statistic of
``hisss simulate --json`` between the engine and the kernel, for random and greedy bots, within
standard errors. Beside them, the kernel's bots must make, on each fast game's deal, the very
choices ``next_decision`` makes in the engine for the game's seed and turn, and the bots' games in
the kernel for fixed seeds must stay exactly the same from one version to the next.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from typing import Any

import pytest

from hisss.bots import make_bot
from hisss.bots.features import claim_of
from hisss.bots.turns import SplitMix, next_decision
from hisss.cli import app
from hisss.core import (
    ALL_PAIRS,
    DOUBLE,
    RAINBOW,
    Card,
    ConfigError,
    Deck,
    JoinClaim,
    Rules,
    Scoring,
    deal,
    get_rules,
    new_game,
    parse_card,
)
from hisss.core.cards import card_from_code
from hisss.kernel.steps import COL_TABLE_CARDS, COL_TABLE_SNAKES, COL_TURNS
from hisss.sim import SimulationReport, simulate
from hisss.sim.batch import Engine, SimSpec, fast_lines, fast_stats, play_chunk
from hisss.sim.bench import fast_throughput
from hisss.sim.fast import FastSpec, fast_game_seed, play_fast, replay_counts, row_result
from hisss.sim.results import dumps
from hisss.sim.stats import RunStats
from support.cli import CliRunner

runner = CliRunner()

CONFIGS = [
    (2, get_rules("classic"), RAINBOW),
    (3, get_rules("pl"), RAINBOW),
    (5, get_rules("classic"), ALL_PAIRS),
    (4, get_rules("pl"), DOUBLE),
    (2, Rules(forced_placement=False), RAINBOW),
    (3, Rules(scoring=Scoring.SNAKES), ALL_PAIRS),
    (2, Rules(scoring=Scoring.LONGEST, join_claim=JoinClaim.ALWAYS), RAINBOW),
    (3, Rules(scoring=Scoring.FIRST_TO, target=12), RAINBOW),
    (6, Rules(six_players=True, join_claim=JoinClaim.ALWAYS), DOUBLE),
]


def _engine_game(players: int, rules: Rules, deck: Deck, seed: int) -> dict[str, Any]:
    """A random engine game: its deal, choices and per-turn counts, and its end."""
    rng = random.Random(seed)
    state = new_game(players, rules, deck)
    cards = deal(deck, rng)
    counts, bests, greedy, choices = [], [], [], []
    for card in cards:
        if state.is_terminal():
            break
        state.draw(card)
        if state.drawn is None:
            continue
        legal = state.legal_actions()
        claims = [claim_of(state, a) for a in legal]
        best = max(claims)
        counts.append(len(legal))
        bests.append(best)
        greedy.append(claims.count(best) if best else len(legal))
        k = rng.randrange(len(legal))
        choices.append(k)
        state.push(legal[k])
    return {
        "cards": cards,
        "choices": choices,
        "counts": tuple(counts),
        "bests": tuple(bests),
        "greedy": tuple(greedy),
        "result": state.result(),
        "table": (len(state.table), sum(s.length for s in state.table)),
        "claims": [(seat, s.length) for seat, pit in enumerate(state.pits) for s in pit],
    }


@pytest.mark.parametrize(("players", "rules", "deck"), CONFIGS)
def test_kernel_replays_engine_games_exactly(players: int, rules: Rules, deck: Deck) -> None:
    for seed in range(40):
        game = _engine_game(players, rules, deck, seed)
        out = replay_counts(game["cards"], game["choices"], players, rules)
        where = (players, rules, deck.name, seed)
        assert out.counts == game["counts"], where
        assert out.best_claims == game["bests"], where
        assert out.greedy_choices == game["greedy"], where
        assert out.result == game["result"], where
        assert (out.table_snakes, out.table_cards) == game["table"], where
        # claims in order per seat (the engine's pits keep each seat's order)
        for seat in range(players):
            mine = [n for s, n in out.claims if s == seat]
            assert mine == [n for s, n in game["claims"] if s == seat], where


def test_replay_counts_rejects_bad_choices() -> None:
    cards = deal(RAINBOW, random.Random(0))
    with pytest.raises(ConfigError, match="out of range"):
        replay_counts(cards, [99] * 49, 2, get_rules("classic"))
    with pytest.raises(ConfigError, match="ran out on turn 1"):
        replay_counts(cards, [], 2, get_rules("classic"))


def _close(engine: SimulationReport, fast: SimulationReport, where: object) -> None:
    assert list(engine.stats) == list(fast.stats)
    assert engine.rules == fast.rules
    for key, a in engine.stats.items():
        b = fast.stats[key]
        assert a.mean is not None and b.mean is not None, (where, key)
        assert a.se is not None and b.se is not None, (where, key)
        if a.se == 0.0 and b.se == 0.0:
            assert a.mean == b.mean, (where, key)
            continue
        spread = math.sqrt(a.se**2 + b.se**2)
        assert abs(a.mean - b.mean) <= 4.5 * spread, (where, key, a, b)


@pytest.mark.parametrize(
    ("players", "rules", "deck", "bots", "games"),
    [
        (2, "classic", RAINBOW, ["random"], 3000),
        (3, "pl", RAINBOW, ["greedy", "random", "greedy"], 1500),
        (4, "classic", ALL_PAIRS, ["greedy"], 1000),
    ],
)
@pytest.mark.slow
def test_fast_statistics_match_the_engine(
    players: int, rules: str, deck: Deck, bots: list[str], games: int
) -> None:
    rule_set = get_rules(rules)
    engine = simulate(games, SimSpec(players, 5, rule_set, deck, tuple(bots)))
    fast = simulate(100_000, SimSpec(players, 5, rule_set, deck, tuple(bots), engine=Engine.FAST))
    assert fast.engine == "fast" and engine.engine == "engine"
    assert set(engine.to_dict()) == set(fast.to_dict())
    _close(engine, fast, (players, rules, deck.name, bots))


def test_engines_are_the_spellings_of_reports() -> None:
    assert [engine.value for engine in Engine] == ["engine", "fast"]
    rules = get_rules("classic")
    by_member = simulate(
        300, SimSpec(2, 3, rules, RAINBOW, ("greedy", "random"), engine=Engine.FAST)
    )
    spelled = "fast"  # the engine's spelling, as the command line and JSON give it
    by_name = simulate(300, SimSpec(2, 3, rules, RAINBOW, ("greedy", "random"), spelled))  # type: ignore[arg-type]
    assert by_member == by_name
    engine = by_member.to_dict()["engine"]
    assert type(engine) is str and engine == "fast"


def test_greedy_beats_random_in_the_kernel() -> None:
    bots = ("greedy", "random")
    report = simulate(
        20_000, SimSpec(2, 1, get_rules("classic"), RAINBOW, bots, engine=Engine.FAST)
    )
    assert (report.stats["seat1_win_rate"].mean or 0.0) > 0.6


def _kernel_deal(deck: Deck, seed: int) -> list[Card]:
    """The deal of the kernel's game of ``seed``: its Fisher-Yates shuffle of the deck, drawn
    from the splitmix64 generator whose state starts at the seed (``steps._shuffle``)."""
    order = [c.code for c in deck.cards()]
    rng = SplitMix()
    rng.setstate((seed, None))
    for k in range(len(order) - 1, 0, -1):
        j = rng.randrange(k + 1)
        order[k], order[j] = order[j], order[k]
    return [card_from_code(code) for code in order]


FAST_BOT_TABLES = [
    (2, get_rules("classic"), RAINBOW, ("random", "greedy")),
    (3, get_rules("pl"), ALL_PAIRS, ("greedy", "random", "greedy")),
    (4, get_rules("pl"), DOUBLE, ("greedy", "greedy", "random", "random")),
    (2, Rules(forced_placement=False), RAINBOW, ("greedy", "random")),
    (3, Rules(scoring=Scoring.FIRST_TO, target=12), RAINBOW, ("greedy", "greedy", "greedy")),
]


@pytest.mark.parametrize(("players", "rules", "deck", "bots"), FAST_BOT_TABLES)
def test_fast_bots_make_the_engines_decisions(
    players: int, rules: Rules, deck: Deck, bots: tuple[str, ...]
) -> None:
    # Each fast game's deal, played in the engine with every choice from next_decision for the
    # game's seed and turn, ends exactly as the kernel's game: same result, claims, turns and
    # choices seen (one different choice changes the table, and so, almost surely, the figures).
    games = play_fast(FastSpec(players, rules, deck, bots), 5, 1, 60)
    seated = [make_bot(name) for name in bots]
    chose = 0
    for g, seed in enumerate(int(s) for s in games.seeds):
        state = new_game(players, rules, deck)
        for card in _kernel_deal(deck, seed):
            if state.is_terminal():
                break
            state.draw(card)
            if state.drawn is None:
                continue
            seat = state.current_player
            assert seat is not None
            chose += len(state.legal_actions()) > 1
            state.push(next_decision(seated[seat], state, seed))
        row = games.rows[g].tolist()
        where = (players, bots, g + 1, seed)
        assert row_result(row, players) == state.result(), where
        assert row[COL_TURNS] == state.turns, where
        assert (row[COL_TABLE_SNAKES], row[COL_TABLE_CARDS]) == (
            len(state.table),
            sum(s.length for s in state.table),
        ), where
        seats, lengths = games.claim_seat[g].tolist(), games.claim_len[g].tolist()
        claims = list(zip(seats, lengths, strict=True))
        for seat in range(players):
            mine = [n for s, n in claims if s == seat and n]
            assert mine == [s.length for s in state.pits[seat]], where
    assert chose > 60 * 10


def test_fast_games_depend_only_on_seed_and_number() -> None:
    spec = FastSpec(3, get_rules("pl"), RAINBOW, ("random", "greedy", "random"))
    whole = play_fast(spec, 9, 1, 50)
    part = play_fast(spec, 9, 21, 10)
    assert (whole.rows[20:30] == part.rows).all()
    assert whole.seeds.tolist()[:3] == [fast_game_seed(9, k) for k in (1, 2, 3)]


@pytest.mark.parametrize(
    ("players", "rules", "deck", "bots", "digest"),
    [
        (
            2,
            get_rules("classic"),
            RAINBOW,
            ("random", "greedy"),
            "0bc038046a8b40f67fda8fd39d7fbfb0",
        ),
        (
            4,
            get_rules("pl"),
            DOUBLE,
            ("greedy", "random", "random", "greedy"),
            "5dc0aa9e13eef378e6e6cb83208f7334",
        ),
        (
            3,
            Rules(scoring=Scoring.FIRST_TO, target=12),
            ALL_PAIRS,
            ("greedy", "greedy", "random"),
            "9655acd006bfe882b7b2977c74328d9f",
        ),
    ],
)
def test_kernel_games_stay_the_same(
    players: int, rules: Rules, deck: Deck, bots: tuple[str, ...], digest: str
) -> None:
    # The exact games the bots play in the kernel for fixed seeds (every figure and claim of 2000
    # games): a results file written by an earlier version resumes with the very same games.
    games = play_fast(FastSpec(players, rules, deck, bots), 2024, 1, 2000)
    h = hashlib.sha256()
    for array in (games.seeds, games.rows, games.claim_seat, games.claim_len):
        h.update(array.tobytes())
    assert h.hexdigest()[:32] == digest


def test_fast_stats_equal_the_rows_read_back() -> None:
    # The numpy statistics of a task equal the statistics of its lines added one by one, as a
    # resumed run adds them.
    rules = Rules(scoring=Scoring.FIRST_TO, target=10)
    spec = SimSpec(
        3, 4, rules, RAINBOW, ("greedy", "random", "random"), Engine.FAST, {"x": 1}, True
    )
    games = play_fast(FastSpec(3, rules, RAINBOW, ("greedy", "random", "random")), 4, 1, 500)
    stats = fast_stats(games.rows, 3, rules)
    again = RunStats(3, rules)
    for line in fast_lines(games, spec):
        row = json.loads(line)
        assert line == dumps(row) + "\n"  # the canonical text the engine's rows are written in
        again.add_row(row)
    assert again.report() == stats.report()
    assert play_chunk(spec, 1, 500).stats.report() == stats.report()


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: FastSpec(2, get_rules("classic"), RAINBOW, ("random", "careful")), "careful"),
        (
            lambda: simulate(
                5, SimSpec(2, 0, get_rules("classic"), RAINBOW, ("expert",), engine=Engine.FAST)
            ),
            "plays only the bots random, greedy",
        ),
        (
            lambda: simulate(
                5,
                SimSpec(2, 0, get_rules("classic"), RAINBOW, ("random",), "warp"),  # type: ignore[arg-type]
            ),
            "unknown engine",
        ),
    ],
)
def test_fast_path_refuses_what_it_cannot_play(call: Any, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        call()


def test_fast_cli_json_and_errors(tmp_path: Any) -> None:
    result = runner.invoke(app, ["simulate", "--fast", "-n", "2000", "-b", "greedy", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["engine"] == "fast" and data["games"] == 2000 and data["bots"] == ["greedy"] * 2
    bad = runner.invoke(app, ["simulate", "--fast", "-n", "20", "-b", "careful"])
    assert bad.exit_code == 2 and bad.stdout == ""
    assert bad.stderr.startswith("error: the fast path plays only the bots random, greedy")
    records = runner.invoke(app, ["simulate", "--fast", "--record-dir", str(tmp_path / "r")])
    assert records.exit_code == 2 and "--record-dir" in records.stderr


def test_bench_reports_the_kernel() -> None:
    figures = fast_throughput(0.05, 2, get_rules("classic"), RAINBOW)
    assert figures.games_per_second > 0 and figures.games > 0
    assert figures.compile_seconds >= 0
    result = runner.invoke(app, ["bench", "--seconds", "0.05", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["fast_games_per_second"] > 0 and data["games_per_second"] > 0
    table = runner.invoke(app, ["bench", "--seconds", "0.05"])
    assert "compiled kernel" in table.stdout
    without = json.loads(runner.invoke(app, ["bench", "-t", "0.05", "--no-fast", "--json"]).stdout)
    assert without["fast_games_per_second"] is None and without["fast_note"] == "not measured"


@pytest.mark.parametrize(
    ("deck", "order", "counts"),
    [
        # the worked examples of the rules: two heads may not be joined (all-pairs deck) ...
        (ALL_PAIRS, "H:red M:red-orange H:blue M:blue-green M:orange-green", (1, 1, 1, 2)),
        # ... a head and a tail may, and the join takes the five cards; extending either is legal
        (RAINBOW, "H:red M:red-orange M:yellow-green T:green M:orange-yellow", (1, 1, 1, 3)),
        # a wild tail caps either end of a lone mid-section, never a lone head
        (RAINBOW, "M:red-orange H:yellow T:wild", (1, 2)),
    ],
)
def test_kernel_counts_on_the_worked_examples(deck: Deck, order: str, counts: tuple[int]) -> None:
    cards = [parse_card(c) for c in order.split()]
    out = replay_counts(cards, [0] * len(counts), 2, get_rules("classic"))
    assert out.counts == counts
    engine = _engine_counts(cards)
    assert engine == counts


def _engine_counts(cards: list[Card]) -> tuple[int, ...]:
    state = new_game(2, get_rules("classic"), Deck.from_cards("stack", cards))
    counts = []
    for card in cards:
        state.draw(card)
        if state.drawn is not None:
            legal = state.legal_actions()
            counts.append(len(legal))
            state.push(legal[0])
    return tuple(counts)
