"""Tests of tournaments: seating, determinism across workers, statistics, ratings, JSON and CLI.

The statistics are checked on hand-made game lists with answers worked out by hand, on tiny decks
where the winning seat is forced (so a mirrored win rate must be exactly 1/P), and on synthetic
correlated data where the true win rate is known, to check that the clustered 95% interval covers
it about 95% of the time where the naive interval would not.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from typer.testing import Result

from hisss.bots import Bot
from hisss.bots import registry as bots_module
from hisss.cli import app
from hisss.core import (
    RAINBOW,
    Action,
    ConfigError,
    DecidedBy,
    Deck,
    HisssError,
    Rules,
    Scoring,
    State,
    get_rules,
    parse_action,
)
from hisss.core import Result as GameResult
from hisss.sim import TournamentGame, summarize, tournament
from hisss.sim.ratings import (
    Z95,
    PairScore,
    clustered_interval,
    openskill_ratings,
    wilson_interval,
)
from hisss.sim.tournament import (
    TournamentSpec,
    entry_labels,
    lineup,
    placements,
    play_deal,
    seatings,
)
from support.cli import CliRunner

CLASSIC = get_rules("classic")
runner = CliRunner()

#: A head, a mid-section and a tail: the third card placed always completes (or nobody claims).
TRIO = Deck.from_mapping({"name": "trio", "cards": {"H:red": 1, "M:red-orange": 1, "T:orange": 1}})
#: Two cards that never make a snake: every game is a shared win of all seats.
DUO = Deck.from_mapping({"name": "duo", "cards": {"H:red": 1, "M:red-orange": 1}})

BOT_KEYS = {"games", "win_rate", "ci95", "mean_cards", "rating", "rating_sigma"}


def _game(
    deal: int, entries: tuple[int, ...], cards: tuple[int, ...], places: tuple[int, ...]
) -> TournamentGame:
    return TournamentGame(deal=deal, rotation=0, entries=entries, cards=cards, places=places)


# ---------------------------------------------------------------------- seating


@pytest.mark.parametrize(("entries", "players"), [(2, 2), (3, 2), (3, 3), (5, 3), (6, 5), (4, 4)])
def test_mirror_seats_every_bot_of_the_deal_in_every_seat(entries: int, players: int) -> None:
    for number in range(1, 3 * entries + 1):
        rotations = seatings(7, entries, players, number, mirror=True)
        assert len(rotations) == players
        base = set(rotations[0])
        assert len(base) == players  # each entry at most once in a game
        for seat in range(players):
            assert {r[seat] for r in rotations} == base  # every bot of the deal in every seat
        assert all(set(r) == base for r in rotations)
        assert seatings(7, entries, players, number, mirror=False) == [rotations[0]]


@pytest.mark.parametrize(("entries", "players"), [(2, 2), (3, 2), (4, 3), (5, 2), (5, 5)])
def test_lineups_are_balanced_over_each_block(entries: int, players: int) -> None:
    for block in range(4):
        lineups = [lineup(3, entries, players, block * entries + j + 1) for j in range(entries)]
        plays = Counter(e for seats in lineups for e in seats)
        assert plays == dict.fromkeys(range(entries), players)
        for seat in range(players):
            assert sorted(seats[seat] for seats in lineups) == list(range(entries))


def test_lineups_depend_on_the_seed_only() -> None:
    first = [lineup(1, 4, 2, d) for d in range(1, 41)]
    assert first == [lineup(1, 4, 2, d) for d in range(1, 41)]
    assert first != [lineup(2, 4, 2, d) for d in range(1, 41)]


def test_entry_labels_number_repeated_names() -> None:
    assert entry_labels(["greedy", "greedy"]) == ("greedy#1", "greedy#2")
    assert entry_labels([" Random", "greedy", "random"]) == ("random#1", "greedy", "random#2")
    assert entry_labels(["a", "b"]) == ("a", "b")


def test_same_bot_twice_plays_as_two_entries() -> None:
    out = tournament(12, TournamentSpec(("random", "random", "random"), 2, 0, CLASSIC, RAINBOW))
    assert list(out.bots) == ["random#1", "random#2", "random#3"]
    assert sum(b.games for b in out.bots.values()) == 2 * 12
    assert set(out.head_to_head["random#2"]) == {"random#1", "random#3"}


def test_mirror_rounds_games_up_to_whole_deals() -> None:
    out = tournament(5, TournamentSpec(("random", "random"), 2, 0, CLASSIC, RAINBOW, mirror=True))
    assert (out.games, out.deals) == (6, 3)
    out = tournament(
        7, TournamentSpec(("random", "random", "random"), 3, 0, CLASSIC, RAINBOW, mirror=True)
    )
    assert (out.games, out.deals) == (9, 3)
    out = tournament(5, TournamentSpec(("random", "random"), 2, 0, CLASSIC, RAINBOW))
    assert (out.games, out.deals) == (5, 5)


def test_mirrored_deal_uses_one_card_order_for_every_rotation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Bots without randomness play the same game on the same cards: every rotation of a deal
    # must then give the same cards per seat, whoever sits there.
    monkeypatch.setitem(bots_module._FACTORIES, "still", _Still)
    spec = TournamentSpec(("still", "still", "still"), 3, 5, CLASSIC, RAINBOW, mirror=True)
    for number in (1, 2, 3):
        games = play_deal(spec, number)
        assert [g.rotation for g in games] == [0, 1, 2]
        assert all(g.deal == number for g in games)
        assert len({g.cards for g in games}) == 1
        assert len({g.entries for g in games}) == 3
    assert play_deal(spec, 1)[0].cards != play_deal(spec, 2)[0].cards or (
        play_deal(spec, 1)[0].cards != play_deal(spec, 3)[0].cards
    )


# ---------------------------------------------------------------------- determinism


@pytest.mark.system
def test_same_seed_same_report_whatever_the_workers() -> None:
    spec = TournamentSpec(("random", "random", "random"), 2, 11, CLASSIC, RAINBOW, mirror=True)
    one = tournament(45, spec, workers=1)
    two = tournament(45, spec, workers=2)
    three = tournament(45, spec, workers=3)
    assert json.dumps(one.to_dict()) == json.dumps(two.to_dict()) == json.dumps(three.to_dict())
    assert one.games == 46
    other = tournament(45, dataclasses.replace(spec, seed=12), workers=1)
    assert json.dumps(other.to_dict()) != json.dumps(one.to_dict())


@pytest.mark.system
def test_cli_json_is_byte_identical_across_workers() -> None:
    base = ["tournament", "--bots", "random,random", "-n", "40", "--seed", "3", "--mirror"]
    one = runner.invoke(app, [*base, "--workers", "1", "--json"])
    two = runner.invoke(app, [*base, "--workers", "2", "--json"])
    assert one.exit_code == 0 and two.exit_code == 0, (one.output, two.output)
    assert one.stdout == two.stdout


class _Probe(Bot):
    """Records every random number it draws; plays the first legal action."""

    name = "probe"
    drawn: list[float] = []  # noqa: RUF012 - shared on purpose: the test reads what was drawn

    def choose(self, state: State, rng: random.Random) -> Action:
        _Probe.drawn.append(rng.random())
        return state.legal_actions()[0]


class _Hungry(Bot):
    """Draws many random numbers on every move, then plays the first legal action."""

    name = "hungry"

    def choose(self, state: State, rng: random.Random) -> Action:
        for _ in range(7):
            rng.random()
        return state.legal_actions()[0]


class _Still(Bot):
    """Draws no random number at all."""

    name = "still"

    def choose(self, state: State, rng: random.Random) -> Action:
        return state.legal_actions()[0]


def test_one_bots_randomness_never_shifts_anothers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(bots_module._FACTORIES, "probe", _Probe)
    monkeypatch.setitem(bots_module._FACTORIES, "hungry", _Hungry)
    monkeypatch.setitem(bots_module._FACTORIES, "still", _Still)
    runs = []
    for opponent in ("hungry", "still"):
        _Probe.drawn = []
        out = tournament(
            6, TournamentSpec(("probe", opponent), 2, 9, CLASSIC, RAINBOW, mirror=True)
        )
        assert out.bots["probe"].games == 6
        runs.append(list(_Probe.drawn))
    # Both opponents play the same moves, so the probe sees the same positions; only the
    # opponent's use of randomness differs, and it must not move the probe's numbers.
    assert runs[0] == runs[1] and len(runs[0]) > 0


# ---------------------------------------------------------------------- forced outcomes


def test_forced_seat_on_a_tiny_deck_gives_exact_mirrored_win_rates(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # On the trio deck the second player places the third card: it always wins or nobody claims
    # (a shared win). Bots without randomness play every rotation of a deal alike; mirrored, each
    # bot is second once per deal, so its win rate is exactly 1/2.
    monkeypatch.setitem(bots_module._FACTORIES, "still", _Still)
    out = tournament(60, TournamentSpec(("still", "still"), 2, 0, CLASSIC, TRIO, mirror=True))
    assert list(out.bots) == ["still#1", "still#2"]
    for row in out.bots.values():
        assert row.games == 60 and row.win_rate == 0.5
        assert row.ci95 is not None
        lo, hi = row.ci95
        assert lo < 0.5 < hi
    assert out.head_to_head["still#1"]["still#2"].score == 0.5
    spec = TournamentSpec(("random", "random"), 2, 0, CLASSIC, TRIO, mirror=True)
    for number in range(1, 31):
        for game in play_deal(spec, number):
            assert game.places[1] == 0  # the second seat always wins or shares


def test_forced_three_player_mirror_win_rate_is_a_third(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(bots_module._FACTORIES, "still", _Still)
    out = tournament(30, TournamentSpec(("still",) * 3, 3, 1, CLASSIC, TRIO, mirror=True))
    for row in out.bots.values():
        assert row.win_rate == round(1 / 3, 6)


def test_all_shared_wins_count_as_fractions() -> None:
    out = tournament(10, TournamentSpec(("random", "random"), 2, 0, CLASSIC, DUO))
    for row in out.bots.values():
        assert row.win_rate == 0.5 and row.mean_cards == 0.0
        assert row.rating == 25.0  # every game a tie between equals: no rating change


# ---------------------------------------------------------------------- statistics


def test_summarize_hand_made_games() -> None:
    names = ["a", "b", "c"]
    games = [
        _game(1, (0, 1), (10, 4), (0, 1)),  # a beats b
        _game(2, (1, 2), (6, 6), (0, 0)),  # b and c share
        _game(3, (2, 0), (9, 1), (0, 1)),  # c beats a
        _game(4, (0, 1, 2), (5, 5, 2), (0, 0, 2)),  # a and b share, c third
        _game(5, (2, 1, 0), (8, 3, 3), (0, 1, 1)),  # c wins, a and b equal second
    ]
    out = summarize(names, games)
    a, b, c = (out.bots[n] for n in names)
    assert (a.games, b.games, c.games) == (4, 4, 4)
    assert a.win_rate == float(Fraction(1 + 0 + Fraction(1, 2) + 0, 4))
    assert b.win_rate == float(Fraction(0 + Fraction(1, 2) + Fraction(1, 2) + 0, 4))
    assert c.win_rate == float(Fraction(Fraction(1, 2) + 1 + 0 + 1, 4))
    assert a.mean_cards == (10 + 1 + 5 + 3) / 4
    assert c.mean_cards == (6 + 9 + 2 + 8) / 4
    h2h = out.head_to_head
    # a against b: games 1 (win), 4 (equal), 5 (equal); a against c: games 3, 4, 5.
    assert h2h["a"]["b"] == PairScore(3, round(2 / 3, 6), h2h["a"]["b"].ci95)
    assert h2h["b"]["a"].score == round(1 / 3, 6)
    assert h2h["a"]["c"].games == 3 and h2h["a"]["c"].score == round(1 / 3, 6)
    # c against b: game 2 (equal), game 4 (b above c), game 5 (c above b).
    assert h2h["c"]["b"].games == 3 and h2h["c"]["b"].score == 0.5
    for x in names:
        for y in names:
            if x != y:
                pair, back = h2h[x][y], h2h[y][x]
                assert pair.games == back.games
                assert pair.score is not None and back.score is not None
                assert pair.score + back.score == pytest.approx(1.0)


def test_summarize_takes_games_in_deal_order() -> None:
    games = [
        TournamentGame(d, r, (r % 2, 1 - r % 2), (3, 1), (0, 1))
        for d in range(1, 6)
        for r in range(2)
    ]
    shuffled = list(games)
    random.Random(0).shuffle(shuffled)
    assert summarize(["x", "y"], shuffled) == summarize(["x", "y"], games)


def test_summarize_bot_without_games_has_no_figures() -> None:
    out = summarize(["a", "b", "c"], [_game(1, (0, 1), (2, 1), (0, 1))])
    c = out.bots["c"]
    assert c.games == 0 and c.win_rate is None and c.ci95 is None
    assert c.mean_cards is None and c.rating == 25.0
    assert out.head_to_head["a"]["c"] == PairScore(games=0, score=None, ci95=None)


@pytest.mark.parametrize(
    "game",
    [
        _game(1, (0, 0), (1, 1), (0, 1)),  # the same entry twice
        _game(1, (0, 5), (1, 1), (0, 1)),  # an unknown entry
        _game(1, (0, 1), (1,), (0, 1)),  # lengths differ
        _game(1, (0, 1), (1, 1), (1, 1)),  # no winner
    ],
)
def test_summarize_rejects_malformed_games(game: TournamentGame) -> None:
    with pytest.raises(ConfigError):
        summarize(["a", "b"], [game])


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson_interval(0.5, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.4038, 0.5962)
    lo, hi = wilson_interval(0.0, 20)
    assert lo == 0.0 and hi == pytest.approx(Z95**2 / (20 + Z95**2))
    with pytest.raises(ConfigError):
        wilson_interval(0.5, 0)


def test_clustered_interval_without_clusters_is_the_plain_one() -> None:
    # One game per deal: the clustered standard error is the ordinary one (sample variance).
    scores = [1.0] * 30 + [0.0] * 70
    interval = clustered_interval([(s, 1) for s in scores])
    assert interval is not None
    n_eff = 0.3 * 0.7 / (0.3 * 0.7 * 100 / 99 / 100)
    assert interval == pytest.approx(wilson_interval(0.3, n_eff))
    assert clustered_interval([]) is None


def test_clustered_interval_covers_the_truth_where_the_naive_one_does_not() -> None:
    # Deals with a luck factor shared by their games (positively correlated games) and a true
    # win rate of 0.5: the clustered interval keeps its 95% coverage, the naive one loses it.
    rng = random.Random(2024)
    trials, deals, per_deal = 400, 60, 4
    covered = naive_covered = 0
    for _ in range(trials):
        clusters = []
        for _ in range(deals):
            luck = rng.random()
            clusters.append((float(sum(rng.random() < luck for _ in range(per_deal))), per_deal))
        interval = clustered_interval(clusters)
        assert interval is not None
        lo, hi = interval
        covered += lo <= 0.5 <= hi
        mean = sum(s for s, _ in clusters) / (deals * per_deal)
        nlo, nhi = wilson_interval(mean, deals * per_deal)
        naive_covered += nlo <= 0.5 <= nhi
    assert 0.91 <= covered / trials <= 0.99
    assert naive_covered / trials < 0.88


def test_clustered_interval_contains_a_known_rate() -> None:
    rng = random.Random(5)
    clusters = [(float(rng.random() < 0.7), 1) for _ in range(2000)]
    interval = clustered_interval(clusters)
    assert interval is not None and interval[0] < 0.7 < interval[1]
    assert interval[1] - interval[0] < 0.05


def test_mirrored_deals_with_no_spread_fall_back_to_one_observation_per_deal() -> None:
    # Every mirrored deal split 1-1: no spread between deals, so the interval is Wilson's with
    # one observation per deal (conservative), never a zero-width interval.
    assert clustered_interval([(1.0, 2)] * 25) == wilson_interval(0.5, 25)
    all_won = clustered_interval([(2.0, 2)] * 25)
    assert all_won is not None and all_won[1] == 1.0 and all_won[0] < 1.0


# ---------------------------------------------------------------------- ratings and places


def test_openskill_ratings_rank_the_stronger_bot_first() -> None:
    games = [_game(d, (d % 2, 1 - d % 2), (3, 1), (0, 1) if d % 2 else (1, 0)) for d in range(40)]
    # entry 1 sits first on odd deals and wins there; on even deals entry 0 sits first and loses.
    (mu0, sigma0), (mu1, sigma1) = openskill_ratings(2, games)
    assert mu1 > 25.0 > mu0
    assert sigma0 < 25 / 3 and sigma1 < 25 / 3
    assert openskill_ratings(2, games) == [(mu0, sigma0), (mu1, sigma1)]


@pytest.mark.parametrize(
    ("scoring", "expected"),
    [
        (Scoring.CARDS, (1, 0, 3, 2)),  # cards, then the longest snake
        (Scoring.SNAKES, (2, 0, 1, 3)),  # snakes, then the longest snake
        (Scoring.LONGEST, (1, 0, 3, 2)),  # the longest snake, then cards
    ],
)
def test_placements_follow_the_scoring(scoring: Scoring, expected: tuple[int, ...]) -> None:
    result = GameResult(
        cards=(6, 9, 4, 6),
        snakes=(1, 3, 2, 1),
        longest=(6, 5, 4, 4),
        winners=(1,),
        decided_by=DecidedBy.CARDS,
    )
    assert placements(result, Rules(scoring=scoring)) == expected


def test_placements_tie_and_skip() -> None:
    result = GameResult((2, 7, 2, 2, 0), (1, 2, 1, 1, 0), (2, 4, 2, 2, 0), (1,), DecidedBy.CARDS)
    assert placements(result, CLASSIC) == (1, 0, 1, 1, 4)


def test_placements_share_first_place_among_winners() -> None:
    result = GameResult((4, 4, 1), (1, 1, 1), (4, 4, 1), (0, 1), DecidedBy.SHARED)
    assert placements(result, CLASSIC) == (0, 0, 2)  # two seats above the third


# ---------------------------------------------------------------------- report and JSON


def test_report_shape() -> None:
    typed = tournament(
        30, TournamentSpec(("random", "random", "random"), 3, 2, CLASSIC, RAINBOW, mirror=True)
    )
    assert typed.games == 30 and typed.rules == CLASSIC and typed.bots["random#1"].games == 30
    out: dict[str, Any] = typed.to_dict()  # the JSON object of tournament --json
    for key in ("games", "deals", "players", "seed", "mirror", "rules", "deck", "rating_model"):
        assert key in out
    assert (out["games"], out["deals"], out["players"], out["mirror"]) == (30, 10, 3, True)
    assert set(out["bots"]) == {"random#1", "random#2", "random#3"}
    for row in out["bots"].values():
        assert set(row) == BOT_KEYS
        assert row["games"] == 30
        assert isinstance(row["win_rate"], float) and 0.0 <= row["win_rate"] <= 1.0
        lo, hi = row["ci95"]
        assert 0.0 <= lo <= row["win_rate"] <= hi <= 1.0
        assert isinstance(row["rating"], float) and row["rating_sigma"] > 0
    # In a 3-player mirrored tournament with 3 bots, the win shares add up to one per game.
    total = sum(row["win_rate"] * row["games"] for row in out["bots"].values())
    assert total == pytest.approx(out["games"], abs=1e-4)
    for a, row in out["head_to_head"].items():
        assert a not in row and len(row) == 2
        for cell in row.values():
            assert set(cell) == {"games", "score", "ci95"} and cell["games"] == 30
    json.dumps(out)  # plain JSON data
    assert out["bots"]["random#1"] == typed.bots["random#1"].to_dict()


def test_tournament_rejects_bad_arguments(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ConfigError, match="unknown bot 'genius'"):
        tournament(4, TournamentSpec(("random", "genius"), 2, 0, CLASSIC, RAINBOW))
    with pytest.raises(ConfigError, match="at least 2 bots"):
        tournament(4, TournamentSpec(("random",), 2, 0, CLASSIC, RAINBOW))
    with pytest.raises(ConfigError, match="2 bots for 3 players"):
        tournament(4, TournamentSpec(("random", "random"), 3, 0, CLASSIC, RAINBOW))
    with pytest.raises(ConfigError, match="games"):
        tournament(0, TournamentSpec(("random", "random"), 2, 0, CLASSIC, RAINBOW))
    with pytest.raises(ConfigError, match="workers"):
        tournament(4, TournamentSpec(("random", "random"), 2, 0, CLASSIC, RAINBOW), workers=0)
    with pytest.raises(ConfigError, match="players"):
        tournament(4, TournamentSpec(("random", "random"), 1, 0, CLASSIC, RAINBOW))
    with pytest.raises(ConfigError, match="seed"):
        tournament(4, TournamentSpec(("random", "random"), 2, True, CLASSIC, RAINBOW))


class _Cheat(Bot):
    """Always asks to extend a 50th snake, which no table holds."""

    name = "cheat"

    def choose(self, state: State, rng: random.Random) -> Action:
        return parse_action("50R:red")


def test_an_illegal_bot_action_names_the_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(bots_module._FACTORIES, "cheat", _Cheat)
    with pytest.raises(HisssError, match=r"^deal 1: illegal action"):
        tournament(4, TournamentSpec(("cheat", "random"), 2, 0, CLASSIC, RAINBOW))


@pytest.mark.system
def test_tournament_progress_reaches_the_total() -> None:
    seen: list[tuple[int, int]] = []
    tournament(
        10,
        TournamentSpec(("random", "random"), 2, 0, CLASSIC, RAINBOW, mirror=True),
        progress=lambda d, t: seen.append((d, t)),
    )
    assert seen[-1] == (10, 10) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    seen.clear()
    tournament(
        40,
        TournamentSpec(("random", "random"), 2, 0, CLASSIC, RAINBOW),
        workers=2,
        progress=lambda d, t: seen.append((d, t)),
    )
    assert seen[-1] == (40, 40)


# ---------------------------------------------------------------------- command line


def _run(*args: str) -> Result:
    return runner.invoke(app, ["tournament", *args])


def _one_error_line(result: Result, *fragments: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


def test_cli_json_shape() -> None:
    result = _run("--bots", "random,random", "-n", "20", "-p", "2", "-s", "4", "--mirror", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data["bots"]) == {"random#1", "random#2"}
    for row in data["bots"].values():
        assert set(row) == BOT_KEYS and row["games"] == 20 and len(row["ci95"]) == 2
    assert data["head_to_head"]["random#1"]["random#2"]["games"] == 20
    assert data["games"] == 20 and data["seed"] == 4 and data["mirror"] is True


def test_cli_table() -> None:
    result = _run("--bots", "random,random,random", "-n", "12", "--players", "2")
    assert result.exit_code == 0, result.output
    for text in ("random#1", "win rate", "95% interval", "rating", "head to head", "12 games"):
        assert text in result.stdout, text
    assert result.stdout == _run("--bots", "random,random,random", "-n", "12").stdout


def test_cli_rules_set_and_deck() -> None:
    result = _run(
        "--bots", "random,random", "-n", "6", "--rules", "pl", "--set", "forced_placement=false",
        "--deck", "all-pairs", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["rules"] == {
        "preset": None,
        **get_rules("pl").to_mapping(),
        "forced_placement": False,
    }
    assert data["deck"] == "all-pairs" and data["games"] == 6


def test_cli_progress_goes_to_stderr() -> None:
    shown = _run("--bots", "random,random", "-n", "8", "--json", "--progress")
    quiet = _run("--bots", "random,random", "-n", "8", "--json", "--no-progress")
    assert shown.exit_code == 0 and quiet.exit_code == 0
    assert shown.stdout == quiet.stdout and quiet.stderr == ""


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--bots", "genius,random"], ["unknown bot 'genius'", "random"]),
        (["--bots", "random"], ["at least 2 bots"]),
        ([], ["at least 2 bots"]),
        (["--bots", "random,,random"], ["give bot names"]),
        (["--bots", "random,random", "--players", "7"], ["7 players"]),
        (["--bots", "random,random", "--players", "1"], ["1 player"]),
        (["--bots", "random,random", "--players", "3"], ["2 bots for 3 players"]),
        (["--bots", "random,random", "--games", "0"], ["games", "at least 1"]),
        (["--bots", "random,random", "--workers", "0"], ["workers", "at least 1"]),
        (["--bots", "random,random", "--rules", "house"], ["unknown rules preset"]),
    ],
)
def test_cli_errors(args: list[str], fragments: list[str]) -> None:
    _one_error_line(_run(*args, "--json"), *fragments)


def test_cli_help_lists_the_options() -> None:
    result = _run("--help")
    assert result.exit_code == 0
    for option in ("--bots", "--games", "--players", "--seed", "--workers", "--mirror", "--json",
                   "--rules", "--set", "--deck"):  # fmt: skip
        assert option in result.stdout, option
    assert "tournament" in runner.invoke(app, ["--help"]).stdout
