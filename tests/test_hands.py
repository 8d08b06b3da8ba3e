"""The hand variant (RULES section 6): the core's rules, the seats' views, the driver, records,
replay and the bots that play it. Scenarios use stacked decks, and every step checks the exact
legal plays, as in tests/test_scenarios.py.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

from hisss.bots import BOT_NAMES, make_bot, make_bots
from hisss.bots.hand import (
    HAND_POLICIES,
    careful_play,
    careful_values,
    expected_best,
    greedy_play,
)
from hisss.bots.hand_expert import expert_play
from hisss.cli.app import app
from hisss.core import (
    RAINBOW,
    ConfigError,
    Deck,
    HandState,
    IllegalActionError,
    IllegalDrawError,
    JoinClaim,
    Rules,
    State,
    deal,
    new_game,
    parse_action,
    parse_card,
)
from hisss.core.errors import NotationError
from hisss.record import Game, GameRecord, ReplayError, Seat, replay, replay_game
from hisss.sim.play import play_game
from support import oracle
from support.cli import CliRunner

K2 = Rules(hand_size=2)
K3 = Rules(hand_size=3)
#: The cards of a small stacked deck: the starter and three more.
SMALL = ("M:blue-green", "H:red", "T:red", "M:red-orange")


def stacked(*cards: str) -> Deck:
    return Deck.from_cards("stacked", [parse_card(c) for c in cards])


def dealt(rules: Rules, players: int, *cards: str, deck: Deck = RAINBOW) -> HandState:
    """A game of the hand variant with these cards drawn in order (the starter first)."""
    state = new_game(players, rules, deck)
    assert isinstance(state, HandState)
    for text in cards:
        state.draw(parse_card(text))
    return state


def texts(values: object) -> list[str]:
    return [str(v) for v in values]  # type: ignore[attr-defined]


def random_game(rules: Rules, players: int, seed: int) -> HandState:
    state = new_game(players, rules)
    assert isinstance(state, HandState)
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.sample_draw(rng)
        else:
            state.push(rng.choice(state.legal_actions()))
    return state


# --------------------------------------------------------------------------- options


def test_options_are_checked() -> None:
    assert Rules(hand_size=5).has_hands and not Rules().has_hands
    for bad in (-1, 6, True, "3"):
        with pytest.raises(ConfigError, match="hand_size must be a whole number from 0"):
            Rules(hand_size=bad)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="hands_seen_by_all needs hands"):
        Rules(hands_seen_by_all=True)
    with pytest.raises(ConfigError, match="expected true or false"):
        Rules.from_mapping({"hand_size": 3, "hands_seen_by_all": "yes"})
    assert Rules.from_mapping({"hand_size": 3}).hand_size == 3


def test_hand_size_zero_is_the_classic_game() -> None:
    assert type(new_game(2, Rules(hand_size=0))) is State
    assert Rules(hand_size=0) == Rules() and Rules().preset == "classic"
    assert "hand_size" not in Rules().to_mapping()
    mapping = K3.to_mapping()
    assert (mapping["hand_size"], mapping["hands_seen_by_all"]) == (3, False)
    assert Rules.from_mapping(mapping) == K3


# --------------------------------------------------------------------------- §6.1 the deal


def test_the_deal_goes_round_the_seats_one_card_at_a_time() -> None:
    state = dealt(K2, 3, "M:blue-green")
    receivers = []
    for text in ("H:red", "T:red", "M:red-orange", "H:blue", "T:blue", "M:orange-yellow"):
        receivers.append(state.receiver)
        assert state.is_chance_node() and state.dealing
        state.draw(parse_card(text))
    assert receivers == [0, 1, 2, 0, 1, 2]
    assert [texts(h) for h in state.hands] == [
        ["H:red", "H:blue"],
        ["T:red", "T:blue"],
        ["M:red-orange", "M:orange-yellow"],
    ]
    assert not state.dealing and state.current_player == 0 and state.remaining == 50 - 7


def test_the_deal_stops_when_the_deck_runs_out() -> None:
    deck = stacked("M:blue-green", "H:red", "T:red", "M:red-orange")
    state = dealt(
        Rules(hand_size=3), 2, "M:blue-green", "H:red", "T:red", "M:red-orange", deck=deck
    )
    assert state.hand_sizes == (2, 1) and state.remaining == 0
    assert not state.is_chance_node() and state.current_player == 0


def test_deal_draws_have_exact_probabilities() -> None:
    state = dealt(K3, 2, "M:blue-green", "M:green-yellow")
    outcomes = dict(state.chance_outcomes())
    assert sum(outcomes.values()) == 1
    assert outcomes[parse_card("M:green-yellow")] == Fraction(5, 48)
    assert outcomes[parse_card("H:red")] == Fraction(1, 48)
    assert all(Fraction(n, 48) == outcomes[card] for card, n in state.draw_weights())


# --------------------------------------------------------------------------- §6.2 a turn


def test_worked_example_forced_placement_applies_to_the_chosen_card() -> None:
    # RULES §6.6: K = 2, table [mid blue-green], seat 1 holds green-yellow and a purple head.
    state = dealt(K2, 2, "M:blue-green", "M:green-yellow", "T:red", "H:purple", "T:blue")
    assert texts(state.hands[0]) == ["H:purple", "M:yellow-green"]
    assert texts(state.legal_actions()) == ["H:purple@new", "M:yellow-green@1L:green"]
    with pytest.raises(IllegalActionError, match="fits onto a snake"):
        state.apply(parse_action("M:green-yellow@new"))


def test_a_play_names_a_card_of_the_hand() -> None:
    state = dealt(K2, 2, "M:blue-green", "M:green-yellow", "T:red", "H:purple", "T:blue")
    before = (state.hands, state.table, state.remaining)
    with pytest.raises(IllegalActionError, match="say which card of the hand"):
        state.apply(parse_action("1L:green"))
    with pytest.raises(IllegalActionError, match="seat 1 holds no T:red"):
        state.apply(parse_action("T:red@new"))
    with pytest.raises(IllegalActionError, match="a card is to be drawn first"):
        dealt(K2, 2, "M:blue-green").apply(parse_action("H:purple@new"))
    assert (state.hands, state.table, state.remaining) == before


def test_after_a_play_the_player_draws_then_the_next_seat_plays() -> None:
    state = dealt(K2, 2, "M:blue-green", "M:green-yellow", "T:red", "H:purple", "T:blue")
    placed = state.apply(parse_action("M:green-yellow@1L:green"))
    assert (placed.seat, str(placed.card), placed.claimed) == (0, "M:yellow-green", None)
    assert state.is_chance_node() and state.receiver == 0 and state.current_player is None
    with pytest.raises(IllegalDrawError, match="no copy"):
        state.draw(parse_card("T:red"))
    state.draw(parse_card("H:red"))
    assert texts(state.hands[0]) == ["H:red", "H:purple"]
    assert state.current_player == 1
    assert texts(state.legal_actions()) == ["T:red@new", "T:blue@1R"]


def test_a_card_from_the_hand_may_join_two_snakes() -> None:
    state = dealt(Rules(hand_size=1), 2, "M:red-orange", "H:red", "T:green")
    assert texts(state.legal_actions()) == ["H:red@1L"]
    state.apply(parse_action("H:red@1L"))
    state.draw(parse_card("M:yellow-green"))
    assert texts(state.legal_actions()) == ["T:green@new"]  # a lone tail takes nothing
    state.apply(parse_action("T:green@new"))
    state.draw(parse_card("M:orange-yellow"))
    assert texts(state.legal_actions()) == ["M:yellow-green@2L:green"]
    state.apply(parse_action("M:yellow-green@2L:green"))
    state.draw(parse_card("H:blue"))
    assert texts(state.table) == ["H:red M:red-orange", "M:yellow-green T:green"]
    assert texts(state.legal_actions()) == [
        "M:orange-yellow@1R:orange",
        "M:orange-yellow@2L:yellow",
        "M:orange-yellow@1R:orange+2L:yellow",
    ]
    placed = state.apply(parse_action("M:orange-yellow@1R:orange+2L:yellow"))
    assert placed.seat == 1 and placed.claimed is not None and len(placed.claimed.cards) == 5
    assert state.table == () and state.pit_cards(1) == 5


def test_equal_cards_in_a_hand_give_their_plays_once() -> None:
    state = dealt(K2, 2, "M:blue-green", "M:green-yellow", "T:red", "M:green-yellow", "T:blue")
    assert texts(state.legal_actions()) == ["M:yellow-green@1L:green"]


# --------------------------------------------------------------------------- §6.3 the end


def test_empty_hands_are_skipped_and_the_game_ends_when_every_card_is_placed() -> None:
    deck = stacked("M:blue-green", "H:red", "T:red", "M:red-orange", "H:blue")
    state = dealt(
        Rules(hand_size=2), 2, "M:blue-green", "H:red", "T:red", "M:red-orange", deck=deck
    )
    state.draw(parse_card("H:blue"))
    assert state.hand_sizes == (2, 2) and state.remaining == 0
    order = []
    while not state.is_terminal():
        assert not state.is_chance_node()
        order.append(state.current_player)
        state.apply(state.legal_actions()[0])
    assert order == [0, 1, 0, 1]
    deck = stacked("M:blue-green", "H:red", "T:red", "M:red-orange")
    state = dealt(
        Rules(hand_size=2), 2, "M:blue-green", "H:red", "T:red", "M:red-orange", deck=deck
    )
    order = []
    while not state.is_terminal():
        order.append(state.current_player)
        state.apply(state.legal_actions()[0])
    assert order == [0, 1, 0]  # seat 2's hand ran dry: seat 1 plays twice running


@pytest.mark.parametrize(("size", "players"), [(1, 2), (3, 2), (3, 4), (5, 5), (5, 2)])
def test_random_games_place_every_card_and_undo_to_the_start(size: int, players: int) -> None:
    for seed in range(20):
        state = random_game(Rules(hand_size=size), players, seed)
        assert state.turns == 49 and not any(state.hands) and state.remaining == 0
        on_table = sum(len(s.cards) for s in state.table)
        assert sum(state.result().cards) + on_table == 50
        while True:
            try:
                state.undo()
            except IndexError:
                break
        assert state.table == () and state.remaining == 50 and not any(state.hands)


def test_copy_is_independent() -> None:
    state = dealt(K2, 2, "M:blue-green", "M:green-yellow", "T:red", "H:purple", "T:blue")
    other = state.copy()
    assert isinstance(other, HandState)
    other.apply(other.legal_actions()[0])
    assert state.hand_sizes == (2, 2) and other.hand_sizes == (1, 2)
    assert texts(state.legal_actions()) == ["H:purple@new", "M:yellow-green@1L:green"]


def test_action_notation_names_the_card() -> None:
    action = parse_action("M:yellow-green@1L:green")
    assert str(action) == "M:yellow-green@1L:green" and parse_action(str(action)) == action
    assert str(action.where) == "1L:green" and action.where.card is None
    with pytest.raises(NotationError, match="has no blue side"):
        parse_action("M:yellow-green@1L:blue")
    with pytest.raises(NotationError, match="single side"):
        parse_action("H:red@1L:red")
    with pytest.raises(NotationError, match="names one card"):
        parse_action("H:red@H:red@new")


# --------------------------------------------------------------------------- §6.4 information


def _views(state: HandState) -> list[object]:
    return [state.view(seat) for seat in range(state.players)]


@pytest.mark.parametrize("seen_by_all", [False, True])
def test_views_do_not_depend_on_cards_no_seat_has_seen(seen_by_all: bool) -> None:
    rules = Rules(hand_size=3, hands_seen_by_all=seen_by_all)
    order = deal(RAINBOW, random.Random(5))
    # Swap two cards late in the pile that differ: nobody sees either until one is drawn.
    i, j = 40, 45
    while order[i] == order[j]:
        j += 1
    other = [*order]
    other[i], other[j] = other[j], other[i]
    games = [
        Game(rules, RAINBOW, [Seat.person("A"), Seat.person("B")], cards=o) for o in (order, other)
    ]
    rng = random.Random(1)
    differ = False
    while not games[0].is_over():
        views = [_views(g.state) for g in games]  # type: ignore[arg-type]
        if views[0] != views[1]:
            differ = True
            break
        if games[0].state.is_chance_node():
            for g in games:
                g.draw()
        else:
            legal = games[0].legal_actions()
            assert games[1].legal_actions() == legal
            action = legal[rng.randrange(len(legal))]
            for g in games:
                g.place(action)
    assert differ  # the swapped cards were drawn at last...
    assert games[0].cards_drawn - 1 in (i, j)  # ...and the views parted exactly then


def test_a_view_holds_only_what_the_seat_may_know() -> None:
    state = dealt(K2, 2, "M:blue-green", "M:green-yellow", "T:red", "H:purple", "T:blue")
    view = state.view(1)
    assert view.hands[0] is None and texts(view.hand) == ["T:red", "T:blue"]
    assert view.hand_sizes == (2, 2) and view.pile == 45 and view.to_move == 0
    unseen = dict(view.unseen)
    assert sum(unseen.values()) == 47 and parse_card("H:purple") in unseen
    assert parse_card("T:red") not in unseen and view.legal_actions() == []
    assert state.view(0).legal_actions() == state.legal_actions()
    world = view.sample(random.Random(3))
    assert world.hands[1] == state.hands[1] and world.remaining == 45
    assert world.legal_actions() and world.current_player == 0
    with pytest.raises(IndexError):
        state.view(2)


# --------------------------------------------------------------------------- driver and records


def _game(rules: Rules = K3, seed: int = 11, snapshots: bool = False) -> Game:
    seats = [Seat.person("Ala"), Seat.bot("Bot", "hard")]
    game = Game(rules, RAINBOW, seats, seed=seed, snapshots=snapshots)
    rng = random.Random(seed)
    phases = []
    while not game.is_over():
        phases.append(game.phase.value)
        if game.state.is_chance_node():
            game.draw()
        else:
            legal = game.legal_actions()
            game.place(legal[rng.randrange(len(legal))])
    assert phases[:8] == ["starting", "deal", "deal", "deal", "deal", "deal", "deal", "place"]
    assert phases[8] == "draw"
    return game


def test_the_driver_plays_and_undoes_the_hand_variant() -> None:
    game = _game()
    assert len(game.placements) == 49 and game.cards_drawn == 50
    while game.placements:
        game.undo()
    assert game.cards_drawn == 7 and game.phase.value == "place" and game.to_move == 0
    game.undo()
    assert game.phase.value == "deal" and game.to_move is None
    with pytest.raises(ConfigError, match="classic game has no hands"):
        Game(Rules(), RAINBOW, [Seat.person("A"), Seat.person("B")]).view(0)


def test_a_hand_record_round_trips_and_replays(tmp_path: Path) -> None:
    game = _game(snapshots=True)
    record = game.record()
    text = record.to_json()
    data = json.loads(text)
    assert data["rules"]["hand_size"] == 3 and len(data["cards"]) == 50
    assert "@" not in data["turns"][0]["action"] and len(data["turns"][0]["hands"]) == 2
    again = GameRecord.from_json(text)
    assert again == record
    final = replay(again)
    assert final.is_terminal() and final.result() == game.state.result()
    # The same turns with a card that is not in the hand are rejected, naming the turn.
    turns = list(data["turns"])
    held = {c for c in data["cards"][1:7]}
    wrong = next(c for c in ("H:red", "T:red", "H:blue", "T:blue") if c not in held)
    turns[0] = {**turns[0], "card": wrong, "action": "new"}
    with pytest.raises(ReplayError, match=r"turn 1: .*seat 1 holds no"):
        replay(GameRecord.from_dict({**data, "turns": turns}))
    bad_hands = [dict(t) for t in data["turns"]]
    bad_hands[2]["hands"] = [bad_hands[2]["hands"][1], bad_hands[2]["hands"][0]]
    with pytest.raises(ReplayError, match="turn 3: hands snapshot mismatch"):
        replay(GameRecord.from_dict({**data, "turns": bad_hands}))
    with pytest.raises(Exception, match="names a card"):
        GameRecord.from_dict({**data, "turns": [{**turns[1], "action": "H:red@new"}]})


def test_a_record_for_one_seat_hides_every_other_hand() -> None:
    game = Game(K3, RAINBOW, [Seat.person("A"), Seat.person("B")], seed=4, snapshots=True)
    for _ in range(12):
        if game.state.is_chance_node():
            game.draw()
        else:
            game.place(game.legal_actions()[0])
    mine = game.record(with_seed=False, seat=0)
    holders = [-1, 0, 1, 0, 1, 0, 1]
    for index, holder in enumerate(holders):
        assert (mine.cards[index] is None) == (holder == 1)
    assert all(t.hands is None or t.hands[1] is None for t in mine.turns)
    data = json.loads(mine.to_json())
    assert data["cards"][2] == "?" and data["seed"] is None
    assert GameRecord.from_json(mine.to_json()) == mine
    with pytest.raises(ReplayError, match="card 3 of the card order is hidden"):
        replay(mine)
    assert None not in game.record().cards
    open_game = Game(Rules(hand_size=3, hands_seen_by_all=True), RAINBOW, game.seats, seed=4)
    for _ in range(8):
        open_game.draw() if open_game.state.is_chance_node() else open_game.place(
            open_game.legal_actions()[0]
        )
    assert None not in open_game.record(seat=0).cards


def test_replay_game_of_an_unfinished_hand_record_goes_on() -> None:
    game = Game(K3, RAINBOW, [Seat.person("A"), Seat.person("B")], seed=9)
    for _ in range(20):
        if game.state.is_chance_node():
            game.draw()
        else:
            game.place(game.legal_actions()[-1])
    again = replay_game(game.record()).state
    assert isinstance(again, HandState) and isinstance(game.state, HandState)
    assert again.hands == game.state.hands and again.table == game.state.table


# --------------------------------------------------------------------------- bots


@pytest.mark.parametrize(
    "name", ["random", "casual", "greedy", "careful", "expert", "easy", "hard"]
)
def test_bots_play_whole_hand_games(name: str) -> None:
    out = play_game(K3, RAINBOW, make_bots(f"{name},random", 2), random.Random(2), record=True)
    assert out.turns == 49 and out.record is not None
    assert replay(out.record).result() == out.result


def test_a_bot_without_a_hand_policy_says_so() -> None:
    with pytest.raises(ConfigError, match="does not play the hand variant") as caught:
        play_game(K3, RAINBOW, make_bots("mcts,random", 2), random.Random(2))
    named = str(caught.value).partition("(bots that do: ")[2].rstrip(")").split(", ")
    assert sorted(named) == sorted(HAND_POLICIES)


def test_the_bots_of_the_hand_variant_are_those_with_a_hand_policy() -> None:
    for name in BOT_NAMES:
        bot = make_bot(name)
        assert type(bot).hand_policy is HAND_POLICIES.get(name), name


def test_greedy_takes_the_largest_claim_over_the_whole_hand() -> None:
    state = dealt(K2, 2, "H:red", "M:red-orange", "M:yellow-green", "T:orange", "M:green-blue")
    # Seat 1 holds M:red-orange and T:orange; neither takes anything yet.
    state.apply(parse_action("M:red-orange@1R:red"))
    state.draw(parse_card("T:yellow"))
    state.apply(state.legal_actions()[0])  # seat 2 plays something
    state.draw(parse_card("H:blue"))
    view = state.view(0)
    claims = {str(a): a for a in view.legal_actions()}
    assert "T:orange@1R" in claims
    assert str(greedy_play(view, random.Random(0))) == "T:orange@1R"


def test_expected_best_is_exact() -> None:
    # 4 cards: values 0, 0, 3, 5; a hand of 2 of the 6: P(5) = 3/6, P(3 without 5) = 2/6.
    values = [0, 3, 5]
    assert expected_best(values, [(0, 2), (1, 1), (2, 1)], 2) == pytest.approx(5 / 2 + 3 / 3)
    assert expected_best(values, [(0, 2)], 3) == 0


def test_careful_avoids_leaving_a_completion() -> None:
    # Seat 1 holds M:red-orange and M:yellow-green; table [H:red]. Extending the head with
    # red-orange leaves a snake any orange tail or wild tail completes.
    state = dealt(K2, 2, "H:red", "M:red-orange", "T:blue", "M:yellow-green", "T:purple")
    values = {str(a): v for a, v in careful_values(state.view(0))}
    assert values["M:yellow-green@new"] == 0
    # 2 of the 47 unseen cards (T:orange, T:wild) complete 3 cards, for a hand of 2 cards.
    gift = 3 * (1 - (45 * 44) / (47 * 46))
    assert values["M:red-orange@1R:red"] == pytest.approx(-gift)
    assert str(careful_play(state.view(0), random.Random(0))) == "M:yellow-green@new"


def test_the_expert_never_peeks_at_hidden_cards() -> None:
    state = dealt(K3, 2, "M:blue-green", *[str(c) for c in deal(RAINBOW, random.Random(8))[:6]])
    # Deal until seat 1 plays, then permute the hidden cards: seat 2's hand and the pile.
    assert state.current_player == 0
    view = state.view(0)
    twin = view.sample(random.Random(99))
    assert twin.view(0) == view and twin.hands[1] != state.hands[1]
    for seed in range(3):
        first = expert_play(view, random.Random(seed))
        assert expert_play(twin.view(0), random.Random(seed)) == first
        assert first in state.legal_actions()
    bot = make_bot("expert")
    assert bot.choose_from_hand(twin.view(0), random.Random(1)) == bot.choose_from_hand(
        view, random.Random(1)
    )


# --------------------------------------------------------------------------- command line


def test_simulate_tournament_and_replay_take_the_hand_variant(tmp_path: Path) -> None:
    runner = CliRunner()
    out = runner.invoke(
        app,
        [
            "simulate",
            "-n",
            "4",
            "--set",
            "hand_size=3",
            "--bots",
            "greedy,careful",
            "--json",
            "--record-dir",
            str(tmp_path),
        ],
    )
    assert out.exit_code == 0, out.output
    report = json.loads(out.output)
    assert report["rules"]["hand_size"] == 3 and report["turns"]["mean"] == 49
    assert report["legal_actions_per_turn"]["mean"] > 2
    files = sorted(tmp_path.glob("*.json"))
    assert files
    shown = runner.invoke(app, ["replay", str(files[0])])
    assert shown.exit_code == 0, shown.output
    assert "turn 1: seat 1 plays " in shown.output and "hands  seat 1:" in shown.output
    out = runner.invoke(
        app,
        [
            "tournament",
            "-b",
            "expert,careful",
            "-n",
            "2",
            "--mirror",
            "--set",
            "hand_size=2",
            "--json",
        ],
    )
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["games"] == 2
    fast = runner.invoke(app, ["simulate", "-n", "2", "--set", "hand_size=3", "--fast"])
    assert fast.exit_code == 2 and "the fast path plays the classic game only" in fast.output
    play = runner.invoke(app, ["play", "--set", "hand_size=3", "-p", "Ala,bot:gentle"])
    assert (
        play.exit_code == 2 and "the level 'gentle' does not play the hand variant" in play.output
    )


# --------------------------------------------------------------------------- the oracle


@pytest.mark.parametrize("rules", [K3, Rules(hand_size=5, join_claim=JoinClaim.ALWAYS)], ids=str)
def test_plays_are_each_cards_placements_by_the_independent_oracle(rules: Rules) -> None:
    """The legal plays of a hand are, card by card, what the naive oracle of the classic rules
    allows for that card (forced placement per chosen card), each once, naming the card."""
    for seed in range(4):
        rng = random.Random(seed)
        state = new_game(3, rules)
        while not state.is_terminal():
            if state.is_chance_node():
                state.sample_draw(rng)
                continue
            assert isinstance(state, HandState)
            rows = oracle.state_rows(state)
            expected = {
                f"{card}@{oracle.notation(touches)}"
                for card in set(state.hands[state.to_move])
                for touches in oracle.legal(rows, str(card), state.rules)
            }
            texts = [str(a) for a in state.legal_actions()]
            assert len(texts) == len(set(texts)) and set(texts) == expected, state.describe()
            state.push(rng.choice(state.legal_actions()))
