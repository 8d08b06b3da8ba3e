"""The terminal game's controller without a screen: seats, the deal, undo, hints and records."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from hisss.core import RAINBOW, ConfigError, Rules, deal, get_deck
from hisss.record import (
    GameRecord,
    RecordError,
    Seat,
    SeatKind,
    load_record,
    replay,
    save_record,
)
from hisss.record.deckfile import resolve_deck
from hisss.tui.match import Match, parse_players
from support.tui import bot_choice, played

QUICK = resolve_deck("docs/decks/quick.json")


def _bots_to_person(match: Match) -> None:
    """Let the bots play until a person (or nobody) is to move."""
    while match.bot_to_move():
        if match.game.state.is_chance_node():
            match.draw()
        match.place(bot_choice(match))


def _play_out(match: Match, rng: random.Random) -> None:
    """Play to the end: people at random, bots as they choose."""
    while not match.is_over():
        _bots_to_person(match)
        if match.person_to_move():
            if match.game.state.is_chance_node():
                match.draw()
            match.place(rng.choice(match.game.state.legal_actions()))


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("Ala,,Ola", "a name is empty"),
        (" ,bot:easy", "a name is empty"),
        ("Ala,bot:genius", "unknown bot level 'genius'"),
        ("Ala,ALA", "the name 'ALA' is given twice"),
        ("Ala", "1 player: Hisss is played by 2 to 5"),
        ("a,b,c,d,e,f", "6 players"),
        ("Ala," + "Bardzo Długie Imię Gracza" * 2, "at most 40 characters, not 50"),
        ("Ala,O\x07la", "control, bidirectional, zero-width or private-use"),
        ("Ala,O\u202ela", "control, bidirectional, zero-width or private-use"),
    ],
)
def test_bad_players_are_refused(spec: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_players(spec, Rules())


def test_players_people_and_bots() -> None:
    seats = parse_players("Ala, bot:HARD ,bot:hard,Ola", Rules())
    ala, hard, ola = Seat.person("Ala"), Seat.bot("bot:hard", "hard"), Seat.person("Ola")
    assert seats == (ala, hard, hard, ola)
    assert [s.name for s in seats] == ["Ala", "bot:hard", "bot:hard", "Ola"]
    assert len(parse_players("a,b,c,d,e,f", Rules(six_players=True))) == 6


def test_the_deal_comes_from_the_seed_and_the_starter_is_placed() -> None:
    match = Match(parse_players("Ala,Ola", Rules()), Rules(), RAINBOW, seed=11)
    assert match.game.order == tuple(deal(RAINBOW, random.Random(11)))
    assert match.game.cards_drawn == 1 and len(match.game.state.table) == 1
    assert match.person_to_move() and match.game.state.is_chance_node()
    assert match.draw() == deal(RAINBOW, random.Random(11))[1]
    with pytest.raises(ConfigError, match="no card can be drawn now"):
        match.draw()


def test_a_bot_seat_needs_a_level_of_the_terminal_game() -> None:
    for level in ("greedy", None):  # a bot's name (as simulations seat them), or no level at all
        bot = Seat(name="Bot", kind=SeatKind.BOT, level=level)
        with pytest.raises(ConfigError, match=f"seat 2 \\('Bot'\\): .* not {level!r}"):
            Match([Seat.person("Ala"), bot], Rules(), RAINBOW, seed=1)
    match = Match([Seat.person("Ala"), Seat.bot("Bot", "hard")], Rules(), RAINBOW, seed=1)
    assert list(match.bots) == [1] and match.bots[1].name == "careful"


def test_each_placement_reports_the_snake_it_claimed() -> None:
    match = Match(parse_players("Ala,bot:medium", Rules()), Rules(), QUICK, seed=2)
    rng = random.Random(3)
    claims = 0
    while not match.is_over():
        match.draw()
        seat, pits = match.game.state.to_move, match.game.state.pits
        action = (
            bot_choice(match)
            if match.bot_to_move()
            else rng.choice(match.game.state.legal_actions())
        )
        placed = match.place(action)
        assert (placed.seat, placed.action) == (seat, action)
        assert placed.card == played(match)[-1].card == match.game.cards[-1]
        if placed.claimed is None:
            assert match.game.state.pits == pits
        else:
            claims += 1
            assert match.game.state.pits[seat] == (*pits[seat], placed.claimed)
    assert claims == sum(len(pit) for pit in match.game.state.pits) > 0


def test_undo_goes_back_to_the_persons_drawn_card() -> None:
    match = Match(parse_players("Ala,bot:medium,bot:hard", Rules()), Rules(), RAINBOW, seed=4)
    assert match.undo_block() == "undo.nothing"
    match.draw()
    match.place(match.game.state.legal_actions()[0])
    _bots_to_person(match)
    card = match.draw()
    before = match.game.state.copy()
    turns = list(played(match))
    match.place(match.game.state.legal_actions()[-1])
    assert match.undo_block() == "undo.wait"
    _bots_to_person(match)
    assert match.undo_block() is None
    match.undo()
    # Back to just after Ala's second draw: the same card waits, the bots' moves are gone.
    assert match.game.state.drawn == card
    assert played(match) == turns
    assert (match.game.state.table, match.game.state.pits, match.game.state.remaining) == (
        before.table,
        before.pits,
        before.remaining,
    )
    assert match.game.state.legal_actions() == before.legal_actions()
    # Undo again: back to the first draw.
    match.undo()
    assert match.game.state.turns == 0 and match.game.state.drawn == match.game.cards[1]
    assert match.undo_block() == "undo.nothing"
    with pytest.raises(ConfigError, match="cannot undo now"):
        match.undo()


def test_undo_is_only_for_a_person_against_bots() -> None:
    people = Match(parse_players("Ala,Ola", Rules()), Rules(), RAINBOW, seed=1)
    assert people.undo_block() == "undo.people"
    demo = Match(parse_players("bot:easy,bot:gentle", Rules()), Rules(), RAINBOW, seed=1)
    assert demo.undo_block() == "undo.no_people" and demo.is_demo()


def test_undo_at_the_end_of_the_game() -> None:
    match = Match(parse_players("Ala,bot:medium", Rules()), Rules(), QUICK, seed=2)
    _play_out(match, random.Random(2))
    assert match.is_over() and match.undo_block() is None
    match.undo()
    assert not match.is_over() and match.person_to_move() and match.game.state.drawn is not None


def test_hint_is_the_expert_and_deterministic() -> None:
    match = Match(parse_players("Ala,bot:medium", Rules()), Rules(), RAINBOW, seed=9)
    for _ in range(6):
        _bots_to_person(match)
        match.draw()
        legal = match.game.state.legal_actions()
        hint = match.hint(match.game.state.copy())
        assert hint in legal
        assert Match.from_record(match.record()).hint(match.game.state.copy()) == hint
        match.place(legal[0])


def test_a_saved_game_goes_on_with_the_same_cards(tmp_path: object) -> None:
    seats = parse_players("Ala,bot:medium", Rules())
    match = Match(seats, Rules(), QUICK, seed=21)
    rng = random.Random(5)
    for _ in range(7):
        _bots_to_person(match)
        match.draw()
        match.place(rng.choice(match.game.state.legal_actions()))
    match.draw()  # saved with a card drawn and waiting
    record = match.record()
    assert record.result is None and record.seats == ("Ala", "bot:medium")
    text = record.to_json()
    loaded = Match.from_record(GameRecord.from_json(text))
    assert loaded.game.order == match.game.order
    assert loaded.game.seats == match.game.seats and played(loaded) == played(match)
    assert loaded.game.state.drawn == match.game.state.drawn
    assert (
        loaded.game.state.table == match.game.state.table
        and loaded.game.state.pits == match.game.state.pits
    )
    # Both go on identically; the finished record replays to the same end.
    _play_out(match, random.Random(8))
    _play_out(loaded, random.Random(8))
    assert loaded.record() == match.record()
    final = replay(loaded.record())
    assert final.pits == loaded.game.state.pits and final.result() == loaded.game.state.result()


def test_bots_play_the_same_game_after_a_reload(tmp_path: object) -> None:
    seats = parse_players("bot:medium,bot:hard,bot:easy", Rules())
    whole = Match(seats, Rules(), RAINBOW, seed=33)
    _play_out(whole, random.Random(0))
    part = Match(seats, Rules(), RAINBOW, seed=33)
    for _ in range(20):
        part.draw()
        part.place(bot_choice(part))
    again = Match.from_record(part.record())
    _play_out(again, random.Random(0))
    assert again.record() == whole.record()


def test_a_finished_record_loads_over(tmp_path: object) -> None:
    match = Match(parse_players("Ala,bot:hard", Rules()), Rules(), QUICK, seed=3)
    _play_out(match, random.Random(1))
    record = replace(match.record(), seed=None)  # a finished game needs no seed
    loaded = Match.from_record(record)
    assert loaded.is_over() and loaded.game.state.result() == match.game.state.result()


def test_an_unfinished_record_needs_its_seed() -> None:
    match = Match(parse_players("Ala,Ola", Rules()), Rules(), RAINBOW, seed=3)
    match.draw()
    match.place(match.game.state.legal_actions()[0])
    with pytest.raises(RecordError, match="seed: missing"):
        Match.from_record(replace(match.record(), seed=None))
    with pytest.raises(RecordError, match="not the order the seed 4 deals"):
        Match.from_record(replace(match.record(), seed=4))
    bad = replace(match.record(), seats=("Ala", "bot:genius"))
    with pytest.raises(ConfigError, match="seat 2 of the record: unknown bot level 'genius'"):
        Match.from_record(bad)


def test_records_of_other_games_load(tmp_path: object) -> None:
    """A record from ``hisss simulate`` (seats named after bots) loads as people's names."""
    record = load_record("tests/golden/classic-2p-rainbow.json")
    loaded = Match.from_record(record)
    assert loaded.is_over() and [s.name for s in loaded.game.seats] == list(record.seats)
    assert not any(s.is_bot for s in loaded.game.seats)


def test_again_deals_the_next_seed(tmp_path: object) -> None:
    match = Match(parse_players("Ala,bot:easy", Rules()), Rules(), get_deck("double"), seed=7)
    other = match.again()
    assert other.game.seed == 8 and other.game.seats == match.game.seats
    assert other.game.deck == match.game.deck
    path = tmp_path / "x.json"  # type: ignore[operator]
    save_record(other.record(), path)
    assert Match.from_record(load_record(path)).game.order == other.game.order
