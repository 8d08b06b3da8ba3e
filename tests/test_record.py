"""Tests of the game-record format, the record builder and replay, against golden records."""

from __future__ import annotations

import copy
import importlib.util
import json
import os
import random
import re
import sys
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest

from hisss.cli import app
from hisss.core import (
    NEW,
    PRESETS,
    RAINBOW,
    HisssError,
    Rules,
    State,
    deal,
    parse_action,
    parse_card,
)
from hisss.record import (
    FORMAT_VERSION,
    MAX_DECK_FILE_SIZE,
    MAX_NAME,
    MAX_RECORD_SIZE,
    MAX_SEAT_NAME,
    MAX_SEAT_NAME_CODE_POINTS,
    Game,
    GameRecord,
    RecordError,
    ReplayError,
    Seat,
    Turn,
    load_record,
    replay,
    replay_steps,
    result_to_dict,
    save_record,
)
from hisss.record.files import size_text
from hisss.record.schema import RulesModel, record_schema, record_schema_text
from hisss.tui.match import Match, parse_players
from support.cli import CliRunner

GOLDEN = Path(__file__).parent / "golden"


def _load_make_golden() -> ModuleType:
    name = "hisss_golden_maker"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, GOLDEN / "make_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


MAKE_GOLDEN = _load_make_golden()
GAMES: tuple[Any, ...] = MAKE_GOLDEN.GAMES
GOLDEN_FILES = sorted(GOLDEN.glob("*.json"))
SNAPSHOT_GAME = GOLDEN / "classic-2p-rainbow.json"
FIRST_TO_GAME = GOLDEN / "first-to-3p-rainbow.json"


def _data(path: Path = SNAPSHOT_GAME) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _replay_error(data: dict[str, Any]) -> ReplayError:
    record = GameRecord.from_dict(data)
    with pytest.raises(ReplayError) as info:
        replay(record)
    return info.value


def _record_error(data: object) -> RecordError:
    with pytest.raises(RecordError) as info:
        GameRecord.from_dict(data)
    return info.value


def _json_error(text: str) -> RecordError:
    with pytest.raises(RecordError) as info:
        GameRecord.from_json(text)
    return info.value


def _play(
    seed: int,
    players: int = 2,
    turns: int | None = None,
    snapshots: bool = False,
    draw_next: bool = False,
) -> tuple[State, GameRecord]:
    """A random game of the classic rules, stopped after ``turns`` placements when given."""
    rng = random.Random(seed)
    seats = [Seat.bot("bot", "random")] * players
    game = Game(
        PRESETS["classic"], RAINBOW, seats, seed=seed, cards=deal(RAINBOW, rng), snapshots=snapshots
    )
    game.draw()
    while not game.is_over():
        if turns is not None and game.state.turns == turns:
            if draw_next:
                game.draw()
            break
        game.draw()
        game.place(rng.choice(game.legal_actions()))
    return game.state, game.record()


# ---------------------------------------------------------------------- golden records


def test_golden_files_are_exactly_the_generated_games() -> None:
    assert sorted(p.stem for p in GOLDEN_FILES) == sorted(g.name for g in GAMES)


def test_golden_games_cover_players_presets_decks_and_snapshots() -> None:
    records = [load_record(p) for p in GOLDEN_FILES]
    assert {2, 3, 5} <= {r.players for r in records}
    assert {"classic", "pl"} <= {r.rules.preset for r in records}
    assert {"rainbow", "all-pairs"} <= {r.deck.name for r in records}
    assert any(t.table is not None and t.pits is not None for r in records for t in r.turns)


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda p: p.stem)
def test_golden_record_replays_to_its_result(path: Path) -> None:
    record = load_record(path)
    state = replay(record)
    assert state.is_terminal()
    assert state.turns == len(record.turns)
    assert record.result is not None
    assert result_to_dict(state.result()) == record.result
    assert record.seed is not None
    assert record.seats == ("random",) * record.players


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_golden_record_regenerates_byte_identical(game: Any) -> None:
    assert game.path.read_bytes() == MAKE_GOLDEN.render(game).encode("utf-8")


def test_make_golden_check_mode_passes() -> None:
    assert MAKE_GOLDEN.main(["--check"]) == 0


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda p: p.stem)
def test_golden_record_round_trips(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    record = GameRecord.from_json(text)
    assert record.to_json() + "\n" == text
    assert GameRecord.from_dict(record.to_dict()) == record
    compact = record.to_json(indent=None)
    assert "\n" not in compact
    assert GameRecord.from_json(compact) == record
    assert GameRecord.from_json(record.to_json(indent=4)) == record


def test_replay_steps_yields_independent_copies_after_each_turn() -> None:
    record = load_record(SNAPSHOT_GAME)
    states = list(replay_steps(record))
    assert len(states) == len(record.turns)
    assert [s.turns for s in states] == list(range(1, len(record.turns) + 1))
    assert len({id(s) for s in states}) == len(states)
    for state, turn in zip(states, record.turns, strict=True):
        assert turn.table == tuple(str(s) for s in state.table)
        assert turn.pits == tuple(tuple(str(s) for s in pit) for pit in state.pits)
    assert states[0].table != states[-1].table
    assert states[-1].is_terminal()


def test_replay_steps_checks_the_end_after_the_last_state() -> None:
    data = _data()
    data["result"]["winners"] = [1]
    steps = replay_steps(GameRecord.from_dict(data))
    for _ in range(len(data["turns"])):
        next(steps)
    with pytest.raises(ReplayError, match="result mismatch"):
        next(steps)


# ---------------------------------------------------------------------- builder and files


def test_same_game_gives_the_same_bytes() -> None:
    first = _play(11, players=3, snapshots=True)[1]
    second = _play(11, players=3, snapshots=True)[1]
    assert first.to_json() == second.to_json()
    assert first.to_json() != _play(12, players=3, snapshots=True)[1].to_json()


def test_builder_without_snapshots_records_only_moves() -> None:
    state, record = _play(3)
    assert all(t.table is None and t.pits is None for t in record.turns)
    assert len(record.cards) == RAINBOW.size
    assert len(record.turns) == RAINBOW.size - 1
    assert record.result == result_to_dict(state.result())
    assert '"table"' not in record.to_json()
    assert replay(record).pits == state.pits


def test_builder_snapshots_match_the_game() -> None:
    state, record = _play(4, snapshots=True)
    last = record.turns[-1]
    assert last.table == tuple(str(s) for s in state.table)
    assert last.pits == tuple(tuple(str(s) for s in pit) for pit in state.pits)


def test_unfinished_game_between_turns_replays_to_the_same_position() -> None:
    state, record = _play(5, turns=12)
    assert record.result is None
    assert len(record.cards) == 13
    again = replay(GameRecord.from_json(record.to_json()))
    assert again.table == state.table and again.pits == state.pits
    assert again.is_chance_node() and again.to_move == state.to_move
    assert again.remaining == state.remaining


def test_unfinished_game_with_a_card_to_place_replays_with_the_card_drawn() -> None:
    state, record = _play(6, turns=20, draw_next=True)
    assert state.drawn is not None
    assert len(record.cards) == 22
    again = replay(GameRecord.from_json(record.to_json()))
    assert again.drawn == state.drawn
    assert again.legal_actions() == state.legal_actions()


def test_game_before_the_starter_is_an_empty_record() -> None:
    record = Game(Rules(), RAINBOW, [Seat.person("Ala"), Seat.person("Ola")]).record()
    assert record.cards == () and record.turns == () and record.result is None
    again = replay(GameRecord.from_json(record.to_json()))
    assert not again.started


def test_save_and_load_keep_the_record_and_the_bytes(tmp_path: Path) -> None:
    record = load_record(SNAPSHOT_GAME)
    target = tmp_path / "game.json"
    save_record(record, target)
    assert load_record(target) == record
    assert target.read_bytes() == SNAPSHOT_GAME.read_bytes()


def test_non_ascii_seat_names_are_written_as_text(tmp_path: Path) -> None:
    record = _play(7)[1]
    named = GameRecord(
        record.rules,
        record.deck,
        ("Łucja", "Zoë"),
        record.cards,
        record.turns,
        record.seed,
        record.result,
    )
    assert '"Łucja"' in named.to_json()
    save_record(named, tmp_path / "named.json")
    assert load_record(tmp_path / "named.json").seats == ("Łucja", "Zoë")


def test_reading_normalises_notation() -> None:
    data = _data()
    data["cards"][1] = "m:orange-red"
    data["turns"][0]["card"] = " M:orange-red "
    data["turns"][1]["table"] = [s.lower() for s in data["turns"][1]["table"]]
    record = GameRecord.from_dict(data)
    assert record.cards[1] == parse_card("M:red-orange")
    assert record == load_record(SNAPSHOT_GAME)
    replay(record)


def test_rules_may_start_from_a_preset() -> None:
    data = _data()
    data["rules"] = {"preset": "pl", "forced_placement": True}
    assert GameRecord.from_dict(data).rules == PRESETS["pl"]


def test_errors_belong_to_the_package_hierarchy() -> None:
    assert issubclass(RecordError, HisssError)
    assert issubclass(ReplayError, HisssError)
    reason = "action 3R:orange is illegal: the colours do not match"
    error = ReplayError(7, reason)
    assert str(error) == f"turn 7: {reason}"
    assert (error.turn, error.reason) == (7, reason)


# ---------------------------------------------------------------------- tampering: replay


def test_changed_card_is_rejected_at_its_turn() -> None:
    data = _data()
    recorded = data["turns"][6]["card"]
    data["turns"][6]["card"] = "T:wild" if recorded != "T:wild" else "H:wild"
    error = _replay_error(data)
    assert error.turn == 7
    assert error.reason == (
        f"card {data['turns'][6]['card']} is not the next card of the order ({recorded} is)"
    )


def test_card_not_in_the_deck_is_rejected() -> None:
    data = _data()
    data["cards"][9] = data["turns"][8]["card"] = "M:red-blue"
    error = _replay_error(data)
    assert error.turn == 9
    assert error.reason == 'card M:red-blue cannot be drawn: the deck "rainbow" has no such card'


def test_card_drawn_more_often_than_the_deck_holds_is_rejected() -> None:
    data = _data()
    starter = data["cards"][0]
    assert RAINBOW.count(parse_card(starter)) == 1
    data["cards"][30] = data["turns"][29]["card"] = starter
    error = _replay_error(data)
    assert error.turn == 30
    assert error.reason == (
        f'card {starter} cannot be drawn: the deck "rainbow" has 1 copy and all were drawn before'
    )


def test_starter_not_in_the_deck_is_rejected_at_turn_zero() -> None:
    data = _data()
    data["cards"][0] = "M:orange-blue"
    error = _replay_error(data)
    assert error.turn == 0
    assert "M:orange-blue cannot be drawn" in error.reason


def test_action_changed_to_new_when_the_card_fits_is_illegal() -> None:
    data = _data()
    k = next(i for i, t in enumerate(data["turns"]) if t["action"] != "new")
    card = data["turns"][k]["card"]
    data["turns"][k]["action"] = "new"
    error = _replay_error(data)
    assert error.turn == k + 1
    assert str(error).startswith(
        f"turn {k + 1}: action new is illegal: {card} fits onto a snake, so it may not start a "
        "new one"
    )


def test_action_onto_a_missing_snake_is_illegal() -> None:
    data = _data()
    data["turns"][14]["action"] = "99L:red" if data["turns"][14]["card"][0] == "M" else "99L"
    error = _replay_error(data)
    assert error.turn == 15
    assert f"action {data['turns'][14]['action']} is illegal: there is no snake 99" in error.reason


def test_wrong_player_is_rejected() -> None:
    data = _data()
    data["turns"][4]["seat"] = 1 if data["turns"][4]["seat"] == 2 else 2
    error = _replay_error(data)
    assert error.turn == 5
    assert error.reason == (
        f"seat {data['turns'][4]['seat']} is recorded, but seat "
        f"{3 - data['turns'][4]['seat']} is to move"
    )


def test_table_snapshot_mismatch_is_rejected() -> None:
    data = _data()
    table = data["turns"][9]["table"]
    actual = table[0]
    table[0] = "M:green-blue" if actual != "M:green-blue" else "M:blue-green"
    error = _replay_error(data)
    assert error.turn == 10
    assert error.reason == (
        f'table snapshot mismatch: snake 1 is "{actual}" after the turn, '
        f'the record says "{table[0]}"'
    )


def test_table_snapshot_with_a_snake_too_many_is_rejected() -> None:
    data = _data()
    data["turns"][2]["table"].append("M:red-orange")
    error = _replay_error(data)
    assert error.turn == 3
    assert "table snapshot mismatch: the table has" in error.reason


def test_pits_snapshot_mismatch_is_rejected() -> None:
    data = _data()
    last = data["turns"][-1]
    seat = next(i for i, pit in enumerate(last["pits"]) if pit)
    last["pits"][seat] = []
    error = _replay_error(data)
    assert error.turn == len(data["turns"])
    assert error.reason.startswith(f"pits snapshot mismatch: seat {seat + 1}'s pit is [\"")
    assert error.reason.endswith("the record says []")


def test_wrong_result_is_rejected() -> None:
    data = _data()
    data["result"]["winners"] = [1]
    error = _replay_error(data)
    assert error.turn == len(data["turns"])
    assert error.reason == "result mismatch: the record says winners [1], the game gives [2]"


def test_wrong_card_count_in_result_is_rejected() -> None:
    data = _data()
    data["result"]["cards"] = [20, 19]
    error = _replay_error(data)
    assert error.reason == (
        "result mismatch: the record says cards [20, 19], the game gives [18, 21]"
    )


def test_result_of_an_unfinished_game_is_rejected() -> None:
    data = _data()
    del data["turns"][20:]
    del data["cards"][21:]
    error = _replay_error(data)
    assert error.turn == 20
    assert error.reason == (
        "the record gives a result, but the game is not over (29 cards not drawn)"
    )


def test_turn_after_the_game_ended_is_rejected() -> None:
    data = _data(FIRST_TO_GAME)
    n = len(data["turns"])
    assert len(data["cards"]) < RAINBOW.size
    data["turns"].append({"seat": 1, "card": "M:red-orange", "action": "new"})
    error = _replay_error(data)
    assert error.turn == n + 1
    assert error.reason == f"the game is over after turn {n}, but the record goes on"


def test_card_drawn_after_the_game_ended_is_rejected() -> None:
    data = _data(FIRST_TO_GAME)
    n = len(data["turns"])
    data["cards"].append("M:red-orange")
    error = _replay_error(data)
    assert error.turn == n + 1
    assert error.reason == f"the game is over after turn {n}, but the card order has 1 more card"


def test_card_order_shorter_than_the_turns_is_rejected() -> None:
    data = _data()
    data["cards"].pop()
    data["result"] = None
    error = _replay_error(data)
    assert error.turn == len(data["turns"])
    assert error.reason.startswith("the card order ends after 49 cards")


def test_more_than_one_unplaced_card_is_rejected() -> None:
    data = _data()
    del data["turns"][10:]
    del data["cards"][13:]
    data["result"] = None
    error = _replay_error(data)
    assert error.turn == 11
    assert "the card order has 2 cards after the last turn" in error.reason


def test_turns_without_a_starter_are_rejected() -> None:
    data = _data()
    data["cards"] = []
    error = _replay_error(data)
    assert error.turn == 0
    assert error.reason == "the card order is empty, so there is no starter"


def test_header_that_is_not_a_game_is_rejected_at_turn_zero() -> None:
    record = load_record(SNAPSHOT_GAME)
    bad = GameRecord(record.rules, record.deck, ("solo",), record.cards, record.turns)
    with pytest.raises(ReplayError) as info:
        replay(bad)
    assert info.value.turn == 0
    assert "the header does not describe a game" in info.value.reason


def test_direct_records_are_checked_like_parsed_ones() -> None:
    record = load_record(SNAPSHOT_GAME)
    turns = list(record.turns)
    turns[0] = Turn(turns[0].player, turns[0].card, parse_action("5R:red"))
    bad = GameRecord(record.rules, record.deck, record.seats, record.cards, tuple(turns))
    expected = r"^turn 1: action 5R:red is illegal: there is no snake 5 "
    with pytest.raises(ReplayError, match=expected):
        replay(bad)
    assert turns[0].action != NEW


# ---------------------------------------------------------------------- malformed records


def test_truncated_json_names_the_line() -> None:
    lines = SNAPSHOT_GAME.read_text(encoding="utf-8").splitlines(keepends=True)
    error = _json_error("".join(lines[:30]))
    assert error.line == 31 and error.column == 1
    assert str(error) == (
        "line 31, column 1: not valid JSON: the text ends before the JSON is complete "
        "(the record may be cut short)"
    )


def test_malformed_json_names_line_and_column() -> None:
    lines = SNAPSHOT_GAME.read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[4] == '    "forced_placement": true,\n'
    lines[4] = '    "forced_placement": true,,\n'
    error = _json_error("".join(lines))
    assert (error.line, error.column) == (5, 30)
    assert str(error).startswith("line 5, column 30: not valid JSON: ")


def test_empty_text_is_not_a_record() -> None:
    assert _json_error("").line == 1


def test_duplicate_keys_and_nan_are_refused() -> None:
    text = SNAPSHOT_GAME.read_text(encoding="utf-8")
    assert "appears twice" in str(_json_error(text.replace('"seed": 1,', '"seed": 1, "seed": 2,')))
    assert "NaN" in str(_json_error(text.replace('"seed": 1,', '"seed": NaN,')))


def test_load_record_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "hisss-record",\n "version": 1,\n', encoding="utf-8")
    with pytest.raises(RecordError) as info:
        load_record(path)
    assert info.value.source == str(path)
    assert info.value.line == 3
    assert str(info.value).startswith(f"{path}: line 3, column 1: not valid JSON")
    with pytest.raises(RecordError, match="no such file"):
        load_record(tmp_path / "missing.json")


def test_unknown_future_version_is_refused() -> None:
    data = _data()
    data["version"] = FORMAT_VERSION + 1
    data["new_field"] = "from the future"
    error = _record_error(data)
    assert error.field == "version"
    assert str(error) == (
        f"version: record version {FORMAT_VERSION + 1} is newer than this hisss reads "
        f"(up to {FORMAT_VERSION}); upgrade hisss to read it"
    )


@pytest.mark.parametrize(
    ("change", "field", "reason"),
    [
        (lambda d: d.update(version=0), "version", "there is no record version 0"),
        (lambda d: d.update(version="1"), "version", 'must be a whole number, not "1"'),
        (lambda d: d.pop("version"), "version", "missing"),
        (lambda d: d.update(format="chess-pgn"), "format", "not a hisss record"),
        (lambda d: d.pop("turns"), "turns", "missing"),
        (lambda d: d.update(extra=1), "extra", "unknown field"),
        (lambda d: d.update(seed="7"), "seed", 'must be a whole number, not "7"'),
        (lambda d: d.update(seats=["one"]), "seats", "1 player"),
        (lambda d: d.update(seats=["a", 2]), "seats[1]", "must be text, not 2"),
        (lambda d: d["rules"].update(bogus=True), "rules.bogus", "unknown field"),
        (lambda d: d["rules"].update(scoring="fastest"), "rules", 'bad value "fastest"'),
        (
            lambda d: d["deck"]["cards"].update({"M:red-red": 1}),
            'deck.cards."M:red-red"',
            "not a card",
        ),
        (lambda d: d["deck"].update(cards={}), "deck.cards", "at least one card"),
        (lambda d: d["cards"].__setitem__(4, "X:red"), "cards[4]", "bad card 'X:red'"),
        (lambda d: d["cards"].__setitem__(4, 7), "cards[4]", "must be text, not 7"),
        (lambda d: d["turns"][3].update(action="3Q"), "turns[3].action", "bad action '3Q'"),
        (lambda d: d["turns"][3].pop("action"), "turns[3].action", "missing"),
        (lambda d: d["turns"][3].update(seat=0), "turns[3].seat", "numbered 1 to 2, not 0"),
        (lambda d: d["turns"][3].update(seat=True), "turns[3].seat", "whole number"),
        (lambda d: d["turns"][3].update(note="x"), "turns[3].note", "unknown field"),
        (lambda d: d["turns"].__setitem__(3, "1L"), "turns[3]", 'must be an object, not "1L"'),
        (
            lambda d: d["turns"][3]["table"].__setitem__(0, "H:red H:red"),
            "turns[3].table[0]",
            "bad snake",
        ),
        (lambda d: d["turns"][3].update(pits=[[]]), "turns[3].pits", "one pit per seat: 2, not 1"),
        (lambda d: d["result"].update(winners=[]), "result.winners", "at least one seat wins"),
        (lambda d: d["result"].update(winners=[3]), "result.winners", "numbered 1 to 2"),
        (lambda d: d["result"].update(winners=[2, 1]), "result.winners", "in seat order"),
        (lambda d: d["result"].update(cards=[1]), "result.cards", "one number per seat"),
        (lambda d: d["result"].pop("decided_by"), "result.decided_by", "missing"),
        (lambda d: d["result"].update(margin=3), "result.margin", "unknown field"),
    ],
)
def test_bad_field_is_named_with_its_path(change: Any, field: str, reason: str) -> None:
    data = copy.deepcopy(_data())
    change(data)
    error = _record_error(data)
    assert error.field == field
    assert reason in error.reason
    assert str(error).startswith(f"{field}: ")


def test_record_must_be_an_object() -> None:
    assert str(_json_error("[1, 2]")) == "a record must be a JSON object, not a list"
    assert "must be JSON text" in str(_record_error_from_json_bytes())


def _record_error_from_json_bytes() -> RecordError:
    with pytest.raises(RecordError) as info:
        GameRecord.from_json(b"{}")  # type: ignore[arg-type]
    return info.value


def test_optional_fields_may_be_left_out() -> None:
    data = _data()
    del data["seed"], data["result"]
    for turn in data["turns"]:
        del turn["table"], turn["pits"]
    record = GameRecord.from_dict(data)
    assert record.seed is None and record.result is None
    assert replay(record).is_terminal()


def test_result_may_omit_the_optional_measures() -> None:
    data = _data()
    del data["result"]["snakes"], data["result"]["longest"]
    record = GameRecord.from_dict(data)
    assert record.result == {"winners": [2], "decided_by": "cards", "cards": [18, 21]}
    replay(record)


# ---------------------------------------------------------------------- messages: place and wording


def _line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


@pytest.mark.parametrize(
    ("old", "new", "field", "reason"),
    [
        ('"seed": 1,', '"seed": 1.5,', "seed", "must be a whole number, not 1.5 (a number with a"),
        ('"seats": [', '"seats": [null, ', "seats[0]", "must be text, not null"),
        ('"six_players": false', '"six_players": false, "bogus": 1', "rules.bogus", "unknown"),
        ('"H:red": 1', '"H:red": 0', 'deck.cards."H:red"', "the number of copies"),
        ('"action": "new"', '"action": "3Q"', "turns[0].action", "bad action '3Q'"),
        ('"winners": [2]', '"winners": [true]', "result.winners[0]", "must be a whole"),
    ],
)
def test_bad_field_in_a_text_names_its_line(old: str, new: str, field: str, reason: str) -> None:
    text = SNAPSHOT_GAME.read_text(encoding="utf-8").replace(old, new, 1)
    error = _json_error(text)
    line = _line_of(text, new)
    assert (error.field, error.line, error.column) == (field, line, None)
    assert str(error).startswith(f"line {line}: {field}: {reason}")


def test_missing_field_has_no_line() -> None:
    text = SNAPSHOT_GAME.read_text(encoding="utf-8").replace('"version": 1,', "", 1)
    error = _json_error(text)
    assert error.line is None
    assert str(error) == "version: missing"


@pytest.mark.parametrize(
    ("change", "field", "reason"),
    [
        (lambda d: d.update(seed=1.5), "seed", "must be a whole number, not 1.5 (a number with a "),
        (lambda d: d.update(seed=True), "seed", "must be a whole number, not true"),
        (lambda d: d.update(version=None), "version", "must be a whole number, not null"),
        (lambda d: d.update(seats=["a", False]), "seats[1]", "must be text, not false"),
        (lambda d: d.update(format="hisss"), "format", 'expected "hisss-record", not "hisss"'),
        (lambda d: d.update(cards={}), "cards", "must be a list, not an object"),
        (lambda d: d["turns"].__setitem__(0, []), "turns[0]", "must be an object, not a list"),
        (lambda d: d.update(rules=[]), "rules", "must be an object, not a list"),
        (lambda d: d["turns"][0].update(seat=10**99), "turns[0].seat", "seats are numbered"),
    ],
)
def test_values_are_written_as_json_writes_them(change: Any, field: str, reason: str) -> None:
    data = copy.deepcopy(_data())
    change(data)
    error = _record_error(data)
    assert error.field == field
    assert error.reason.startswith(reason)
    assert "True" not in str(error) and "None" not in str(error)


def test_text_that_is_not_an_object_is_named_as_json_names_it() -> None:
    assert str(_json_error("null")) == "a record must be a JSON object, not null"
    assert str(_json_error("2.5")) == (
        "a record must be a JSON object, not 2.5 (a number with a fraction)"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "line 1, column 1: not valid JSON: the text is empty"),
        (
            '{"format": "hisss-rec',
            "line 1, column 12: not valid JSON: unterminated string: the text in double quotes "
            "that starts here is never closed (the record may be cut short)",
        ),
        (
            '{\n  "format": "hisss-record",\n  "version": 1,\n',
            "line 4, column 1: not valid JSON: the text ends before the JSON is complete "
            "(the record may be cut short)",
        ),
        (
            '{"seed": 1,}',
            "line 1, column 12: not valid JSON: a comma after the last item of a list or an "
            "object is not allowed in JSON",
        ),
        (
            "{'seed': 1}",
            "line 1, column 2: not valid JSON: expected a field name in double quotes, "
            "found a single quote (JSON writes text in double quotes)",
        ),
        (
            '{"seed": None}',
            "line 1, column 10: not valid JSON: expected a value (a number, text in double "
            "quotes, true, false, null, a list or an object), found None (JSON writes null)",
        ),
        (
            '{"seed" 1}',
            "line 1, column 9: not valid JSON: expected a colon after the field name, found 1",
        ),
        (
            '{"seats": ["a" "b"]}',
            "line 1, column 16: not valid JSON: expected a comma or a closing bracket after the "
            "value, found a double quote",
        ),
        (
            '{"seats": ["a\nb"]}',
            "line 1, column 14: not valid JSON: a string runs to the end of the line without "
            "its closing double quote (a line break inside a string is written \\n)",
        ),
        (
            '{"seats": ["a\\qb"]}',
            "line 1, column 14: not valid JSON: bad escape \\q in a string "
            '(JSON knows \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX)',
        ),
        (
            "{} {}",
            "line 1, column 4: not valid JSON: more text after the end of the JSON value: found an "
            "opening brace {",
        ),
        ('{"seed": NaN}', "line 1, column 10: not valid JSON: NaN is not a JSON number"),
        ('{"seed": 1e999}', "line 1, column 10: not valid JSON: the number 1e999 is too large"),
        (
            '{"seed": 1, "seats": [],\n "seed": 2}',
            'line 2, column 2: seed: the key "seed" appears twice in one object',
        ),
        (
            '{"turns": [{"seat": 1}, {"seat": 1, "seat": 2}]}',
            'line 1, column 37: turns[1].seat: the key "seat" appears twice in one object',
        ),
        (
            '{"seed": ' + "9" * 5000 + "}",
            "line 1, column 10: not valid JSON: a whole number of more than 4300 digits is too "
            "long to read",
        ),
        (
            '{"seed": ' + "[" * 100_000,
            "not valid JSON: lists and objects nested too deeply to read",
        ),
    ],
)
def test_json_syntax_errors_are_whole_sentences(text: str, message: str) -> None:
    assert str(_json_error(text)) == message


def test_every_cut_of_a_record_says_where_and_that_it_may_be_cut_short() -> None:
    text = SNAPSHOT_GAME.read_text(encoding="utf-8").rstrip()
    for end in range(1, len(text), 37):
        error = _json_error(text[:end])
        assert error.line is not None and error.column is not None
        assert str(error).endswith("(the record may be cut short)"), str(error)


def test_leading_byte_order_mark_is_ignored() -> None:
    text = SNAPSHOT_GAME.read_text(encoding="utf-8")
    assert GameRecord.from_json("\ufeff" + text) == GameRecord.from_json(text)


def test_non_utf8_file_names_the_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "latin.json"
    path.write_bytes('{"format": "hisss-record",\n "seats": ["żółw"]}'.encode("iso8859_2"))
    error = _load_error(path)
    assert (error.line, error.column) == (2, 13)
    assert str(error) == (
        f"{path}: line 2, column 13: not UTF-8 text: the byte 0xbf is not valid here "
        "(invalid start byte); save the file as UTF-8"
    )


def test_unreadable_paths_are_one_line(tmp_path: Path) -> None:
    assert str(_load_error(tmp_path)) == f"{tmp_path}: is a directory, not a record file"
    assert "cannot read" in str(_load_error(str(tmp_path / "a\0b.json")))


def _load_error(path: Path | str) -> RecordError:
    with pytest.raises(RecordError) as info:
        load_record(path)
    return info.value


_JUNK_VALUES: tuple[object, ...] = (
    None,
    True,
    1.5,
    -1,
    0,
    10**80,
    "",
    "x\ny",
    "H:red",
    "new",
    [],
    {},
    [None],
    {"a": [1]},
)


def _paths(value: object, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _paths(item, (*path, i))
    return out


def _assert_one_clear_line(error: Exception, prefix: str = "") -> None:
    message = str(error)
    assert message.startswith(prefix)
    assert message.isprintable() and "Traceback" not in message
    assert 0 < len(message) <= 500
    assert not message.endswith((" at", ": ", "starting")), message


@pytest.mark.slow
def test_malformed_records_give_one_clear_line_never_a_traceback(tmp_path: Path) -> None:
    rng = random.Random(2024)
    good = SNAPSHOT_GAME.read_bytes()
    texts: list[bytes] = [
        b"",
        b"\xff\xfe\x00{",
        b'{"format": "hisss-record", "version": 1, "seats": ["\xc3"]}',
        b"[" * 50_000,
        b"[" * 500 + b"]" * 500,
        b'{"version": ' + b"1" * 10_000 + b"}",
        b'{"seed": -1e400}',
        b"\x00",
        *(json.dumps(v).encode() for v in _JUNK_VALUES),
    ]
    for _ in range(300):
        texts.append(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))))
        texts.append(
            bytes(rng.choice(b'{}[]",:0123456789.eE-+ \ntruefalsnul\\') for _ in range(30))
        )
        cut = rng.randrange(len(good))
        texts.append(good[:cut] + bytes([rng.randrange(256)]) + good[cut + 1 :])
    path = tmp_path / "junk.json"
    refused = 0
    for raw in texts:
        path.write_bytes(raw)
        try:
            load_record(path)  # a changed byte may leave a good record, say in a seat name
        except RecordError as exc:
            _assert_one_clear_line(exc, f"{path}: ")
            refused += 1
    assert refused > len(texts) * 0.9


@pytest.mark.slow
def test_records_with_junk_values_give_one_clear_line_never_a_traceback() -> None:
    rng = random.Random(7)
    data = _data()
    paths = _paths(data)[1:]
    for _ in range(400):
        changed = copy.deepcopy(data)
        path = rng.choice(paths)
        parent = changed
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = copy.deepcopy(rng.choice(_JUNK_VALUES))
        try:
            record = GameRecord.from_json(json.dumps(changed, indent=2))
            replay(record)
        except (RecordError, ReplayError) as exc:
            _assert_one_clear_line(exc)


# ---------------------------------------------------------------------- reading limits


def _with_first_seat(name: str) -> str:
    data = _data()
    data["seats"][0] = name
    return json.dumps(data, indent=2, ensure_ascii=False)


def test_record_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text(_with_first_seat("x" * MAX_RECORD_SIZE), encoding="utf-8")
    size = path.stat().st_size
    assert str(_load_error(path)) == (
        f"{path}: too large: {size:,} bytes, more than the 4 MiB a record file may have"
    )


def test_record_file_at_the_size_limit_is_read(tmp_path: Path) -> None:
    text = SNAPSHOT_GAME.read_text(encoding="utf-8")
    path = tmp_path / "padded.json"
    path.write_text(text + " " * (MAX_RECORD_SIZE - len(text.encode())), encoding="utf-8")
    assert path.stat().st_size == MAX_RECORD_SIZE
    assert load_record(path) == load_record(SNAPSHOT_GAME)


def test_a_pipe_cannot_feed_a_record_larger_than_the_limit(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)

    def feed() -> None:
        try:
            with open(pipe, "wb") as out:
                out.write(b" " * (MAX_RECORD_SIZE + 4096))
        except BrokenPipeError:  # the reader stops one byte past the limit
            pass

    writer = threading.Thread(target=feed)
    writer.start()
    error = _load_error(pipe)
    writer.join()
    assert str(error) == f"{pipe}: too large: more than the 4 MiB a record file may have"


def test_record_text_over_the_size_limit_is_refused() -> None:
    text = _with_first_seat("x" * MAX_RECORD_SIZE)
    assert str(_json_error(text)) == (
        f"too large: {len(text):,} characters, more than the 4 MiB a record may have"
    )


def test_seat_name_limit_takes_every_name_a_front_end_writes() -> None:
    from hisss.server.setup import MAX_NAME as SERVER_NAME  # noqa: PLC0415
    from hisss.tui.match import MAX_NAME as TERMINAL_NAME  # noqa: PLC0415

    assert max(SERVER_NAME, TERMINAL_NAME) <= MAX_SEAT_NAME
    longest = "ż" * MAX_SEAT_NAME
    assert GameRecord.from_json(_with_first_seat(longest)).seats[0] == longest


def test_seat_name_over_the_limit_is_refused_with_its_line() -> None:
    name = "x" * (MAX_SEAT_NAME + 1)
    text = _with_first_seat(name)
    error = _json_error(text)
    assert str(error) == (
        f"line {_line_of(text, name)}: seats[0]: a name has at most {MAX_SEAT_NAME} "
        f"characters, not {MAX_SEAT_NAME + 1}"
    )


def test_text_with_a_lone_surrogate_is_refused_by_name() -> None:
    data = _data()
    data["seats"][0] = "Ala \ud800"
    text = json.dumps(data, indent=2)  # spelt \\ud800: JSON can write what is no character
    assert str(_json_error(text)) == (
        f'line {_line_of(text, "Ala")}: seats[0]: must be text, not "Ala \\ud800": it holds a '
        "lone UTF-16 surrogate (an escape such as \\ud800 that is no character)"
    )


def test_deeply_nested_record_file_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "nested.json"
    half = MAX_RECORD_SIZE // 2
    path.write_text("[" * half + "]" * half, encoding="utf-8")
    assert str(_load_error(path)) == (
        f"{path}: not valid JSON: lists and objects nested too deeply to read"
    )


def test_nesting_the_parser_takes_is_refused_by_the_field_that_holds_it() -> None:
    data = _data()
    value: list[Any] = []
    for _ in range(500):
        value = [value]
    data["seed"] = value
    text = json.dumps(data, indent=None)
    assert str(_json_error(text)) == "line 1: seed: must be a whole number, not a list"


# ---------------------------------------------------------------------- the JSON Schema

SCHEMA_FILE = Path(__file__).resolve().parent.parent / "docs" / "record.schema.json"
SCHEMA = jsonschema.Draft202012Validator(record_schema())


def _schema_errors(path: Path) -> list[str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [error.message for error in SCHEMA.iter_errors(data)]


def test_published_schema_is_the_one_the_reader_checks_with() -> None:
    assert SCHEMA_FILE.read_text(encoding="utf-8") == record_schema_text()
    jsonschema.Draft202012Validator.check_schema(json.loads(record_schema_text()))


def test_schema_rule_options_are_the_cores() -> None:
    # The hand variant's options are written only when used: a hand size shows them all.
    assert list(RulesModel.model_fields) == [*Rules(hand_size=1).to_mapping(), "preset"]


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda p: p.stem)
def test_golden_records_validate_against_the_schema(path: Path) -> None:
    assert _schema_errors(path) == []


@pytest.mark.parametrize("deck", ["rainbow", str(SCHEMA_FILE.parent / "decks" / "mini.toml")])
def test_simulated_records_validate_against_the_schema(tmp_path: Path, deck: str) -> None:
    args = ["simulate", "-n", "3", "-p", "3", "--deck", deck, "--snapshots"]
    result = CliRunner().invoke(app, [*args, "--record-dir", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    for file in files:
        assert _schema_errors(file) == []


def test_saved_unfinished_game_validates_against_the_schema(tmp_path: Path) -> None:
    match = Match(parse_players("Ala,bot:medium", Rules()), Rules(), RAINBOW, seed=21)
    rng = random.Random(5)
    for _ in range(9):
        match.draw()
        match.place(rng.choice(match.game.state.legal_actions()))
    match.draw()  # saved with a card drawn and waiting
    path = tmp_path / "saved.json"
    save_record(match.record(), path)
    assert load_record(path).result is None
    assert _schema_errors(path) == []


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.update(extra=1), "extra"),
        (lambda d: d.pop("turns"), "turns"),
        (lambda d: d.update(seed="7"), "seed"),
        # A schema counts code points, not graphemes: its bound is the code points' one.
        (lambda d: d["seats"].__setitem__(0, "x" * (MAX_SEAT_NAME_CODE_POINTS + 1)), "seats[0]"),
        (lambda d: d["turns"][3].update(seat=0), "turns[3].seat"),
        (lambda d: d["deck"]["cards"].update({"H:red": 0}), 'deck.cards."H:red"'),
        (lambda d: d["result"].update(winners=[]), "result.winners"),
        (lambda d: d["rules"].update(target=-1), "rules.target"),
    ],
)
def test_schema_refuses_what_the_reader_refuses(change: Any, field: str) -> None:
    data = copy.deepcopy(_data())
    change(data)
    assert list(SCHEMA.iter_errors(data))
    assert _record_error(data).field == field


# ---------------------------------------------------------------------- the format document

DOC = Path(__file__).resolve().parent.parent / "docs" / "record-format.md"


def _doc_blocks(language: str) -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.DOTALL)


def test_document_example_is_a_canonical_record_that_replays() -> None:
    example = _doc_blocks("json")[0]
    record = GameRecord.from_json(example)
    assert record.to_json() + "\n" == example
    state = replay(record)
    assert result_to_dict(state.result()) == record.result
    assert record.deck.name == "mini" and record.seats == ("Ala", "random")


def test_document_snapshot_example_matches_the_example_game() -> None:
    record = GameRecord.from_json(_doc_blocks("json")[0])
    snippet = json.loads(_doc_blocks("text")[0])
    state = list(replay_steps(record))[7]
    turn = record.turns[7]
    assert (snippet["seat"], snippet["card"], snippet["action"]) == (
        turn.player + 1,
        str(turn.card),
        str(turn.action),
    )
    assert snippet["table"] == [str(s) for s in state.table]
    assert snippet["pits"] == [[str(s) for s in pit] for pit in state.pits]


def test_document_states_the_reading_limits() -> None:
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    for what, limit in (("a record file", MAX_RECORD_SIZE), ("a deck file", MAX_DECK_FILE_SIZE)):
        assert f"| {what} | {size_text(limit)} ({limit:,} bytes) |" in text
    assert f"| a seat name | {MAX_SEAT_NAME} graphemes," in text
    assert f"has at most {MAX_NAME} (`hisss.record.MAX_NAME`)" in text
    assert f"{MAX_RECORD_SIZE:,} characters" in text


def test_document_recording_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    exec(compile(_doc_blocks("python")[0], str(DOC), "exec"), {})
    record = load_record(tmp_path / "game.json")
    assert record.seats == ("Ala", "random") and record.seed == 7
    assert replay(record).is_terminal()
