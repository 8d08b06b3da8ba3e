"""Tests of deck files: reading user decks from TOML and JSON, and resolving deck names."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from hisss.core import (
    ALL_PAIRS,
    DOUBLE,
    RAINBOW,
    Card,
    Colour,
    Deck,
    DeckError,
    HisssError,
    Rules,
    deal,
    new_game,
)
from hisss.record import (
    DeckFileError,
    GameRecord,
    RecordBuilder,
    load_deck,
    replay,
    resolve_deck,
)

DOCS_DECKS = Path(__file__).resolve().parent.parent / "docs" / "decks"

SMALL_TOML = """\
name = "small"
description = "A test deck."

[cards]
"H:red" = 1
"T:wild" = 1
"M:red-orange" = 4
"""

SMALL_JSON = """\
{
  "name": "small",
  "description": "A test deck.",
  "cards": {"H:red": 1, "T:wild": 1, "M:red-orange": 4}
}
"""

SMALL = Deck.from_cards(
    "small",
    [Card.head(Colour.RED), Card.tail(None), *[Card.mid(Colour.RED, Colour.ORANGE)] * 4],
    "A test deck.",
)


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _error(path: Path) -> DeckFileError:
    with pytest.raises(DeckFileError) as info:
        load_deck(path)
    return info.value


# ---------------------------------------------------------------------- good files


def test_toml_deck_is_read(tmp_path: Path) -> None:
    deck = load_deck(_write(tmp_path, "small.toml", SMALL_TOML))
    assert deck == SMALL
    assert deck.size == 6
    assert deck.count(Card.mid(Colour.ORANGE, Colour.RED)) == 4


def test_json_deck_is_read(tmp_path: Path) -> None:
    assert load_deck(_write(tmp_path, "small.json", SMALL_JSON)) == SMALL


def test_extension_case_does_not_matter(tmp_path: Path) -> None:
    assert load_deck(_write(tmp_path, "SMALL.TOML", SMALL_TOML)) == SMALL


def test_deck_without_a_name_is_named_after_the_file(tmp_path: Path) -> None:
    deck = load_deck(_write(tmp_path, "tiny.toml", '[cards]\n"M:blue-green" = 2\n'))
    assert deck.name == "tiny"
    assert deck.description == ""
    assert deck.size == 2


def test_either_spelling_of_a_mid_section_is_read(tmp_path: Path) -> None:
    deck = load_deck(_write(tmp_path, "turned.json", '{"cards": {"m:Orange-Red": 3}}'))
    assert deck.count(Card.mid(Colour.RED, Colour.ORANGE)) == 3


def test_deck_written_by_to_mapping_reads_back(tmp_path: Path) -> None:
    path = _write(tmp_path, "all.json", json.dumps(ALL_PAIRS.to_mapping()))
    assert load_deck(path) == ALL_PAIRS


@pytest.mark.parametrize(("name", "size"), [("mini.toml", 16), ("quick.json", 32)])
def test_example_decks_in_the_docs_load(name: str, size: int) -> None:
    deck = load_deck(DOCS_DECKS / name)
    assert deck.name == Path(name).stem
    assert deck.size == size
    assert deck.description


def test_example_deck_plays_and_replays_from_its_record() -> None:
    deck = load_deck(DOCS_DECKS / "mini.toml")
    rng = random.Random(3)
    state = new_game(3, Rules(), deck)
    builder = RecordBuilder(Rules(), deck, ("a", "b", "c"), seed=3)
    for card in deal(deck, rng):
        state.draw(card)
        builder.drew(card)
        if state.current_player is not None:
            seat, action = state.to_move, rng.choice(state.legal_actions())
            state.apply(action)
            builder.placed(seat, card, action, state)
    record = GameRecord.from_json(builder.finish(state).to_json())
    assert record.deck == deck
    assert replay(record).pits == state.pits


# ---------------------------------------------------------------------- resolving names


@pytest.mark.parametrize(
    ("name", "deck"), [("rainbow", RAINBOW), ("all-pairs", ALL_PAIRS), ("double", DOUBLE)]
)
def test_builtin_names_resolve_to_builtin_decks(name: str, deck: Deck) -> None:
    assert resolve_deck(name) is deck


def test_paths_resolve_to_files(tmp_path: Path) -> None:
    assert resolve_deck(str(_write(tmp_path, "small.toml", SMALL_TOML))) == SMALL
    assert resolve_deck(str(DOCS_DECKS / "quick.json")).name == "quick"


def test_unknown_name_lists_the_builtin_decks() -> None:
    with pytest.raises(DeckError) as info:
        resolve_deck("rainbows")
    message = str(info.value)
    assert "unknown deck 'rainbows'" in message
    assert "rainbow, all-pairs, double" in message
    assert ".toml or .json" in message


def test_resolving_a_bad_file_reports_the_file(tmp_path: Path) -> None:
    with pytest.raises(DeckFileError, match=r"missing\.toml: no such file$"):
        resolve_deck(str(tmp_path / "missing.toml"))


# ---------------------------------------------------------------------- bad files


def test_toml_syntax_error_names_the_line(tmp_path: Path) -> None:
    path = _write(tmp_path, "broken.toml", 'name = "x"\n\n[cards]\n"H:red" = \n')
    error = _error(path)
    assert (error.line, error.column) == (4, 11)
    assert str(error) == f"{path}: line 4, column 11: not valid TOML: Invalid value"


def test_toml_duplicate_key_is_a_syntax_error(tmp_path: Path) -> None:
    path = _write(tmp_path, "twice.toml", '[cards]\n"H:red" = 1\n"H:red" = 2\n')
    error = _error(path)
    assert error.line == 3
    assert "Cannot overwrite a value" in str(error)


def test_json_syntax_error_names_line_and_column(tmp_path: Path) -> None:
    path = _write(tmp_path, "broken.json", '{\n  "cards": {\n    "H:red": 1,\n  }\n}\n')
    error = _error(path)
    assert (error.line, error.column) == (4, 3)
    assert str(error).startswith(f"{path}: line 4, column 3: not valid JSON: ")


def test_json_duplicate_key_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, "twice.json", '{"cards": {"H:red": 1, "H:red": 2}}')
    error = _error(path)
    assert error.field == 'cards."H:red"'
    assert str(error) == f"{path}: cards.\"H:red\": the key 'H:red' appears twice in one object"


def test_json_nan_is_refused(tmp_path: Path) -> None:
    error = _error(_write(tmp_path, "nan.json", '{"cards": {"H:red": NaN}}'))
    assert "NaN is not a JSON number" in str(error)


@pytest.mark.parametrize(
    ("text", "field", "reason"),
    [
        ('colour = "red"\n[cards]\n"H:red" = 1\n', "colour", "unknown field"),
        ('[cards]\n"H:pink" = 1\n', 'cards."H:pink"', "not a card: bad card 'H:pink'"),
        ('[cards]\n"M:red-red" = 1\n', 'cards."M:red-red"', "not a card"),
        ('[cards]\n"Q:red" = 1\n', 'cards."Q:red"', "the kind must be H, T or M"),
        ('[cards]\n"H:red" = "two"\n', 'cards."H:red"', "must be a whole number, not 'two'"),
        ('[cards]\n"H:red" = 1.5\n', 'cards."H:red"', "must be a whole number, not 1.5"),
        ('[cards]\n"H:red" = true\n', 'cards."H:red"', "must be a whole number, not True"),
        ('[cards]\n"H:red" = 0\n', 'cards."H:red"', "must be at least 1, not 0"),
        ('[cards]\n"H:red" = -2\n', 'cards."H:red"', "must be at least 1, not -2"),
        ('[cards]\n"H:red" = 5000\n', 'cards."H:red"', "at most 1000 copies"),
        (
            '[cards]\n"M:red-orange" = 1\n"M:orange-red" = 2\n',
            'cards."M:orange-red"',
            "M:red-orange is listed twice",
        ),
        ("[cards]\n", "cards", "a deck needs at least one card"),
        ('name = "empty"\n', "cards", "missing"),
        ('cards = ["H:red"]\n', "cards", "must be a table from card to number of copies"),
        ('name = ""\n[cards]\n"H:red" = 1\n', "name", "must be non-empty text"),
        ('description = 3\n[cards]\n"H:red" = 1\n', "description", "must be text"),
    ],
)
def test_bad_toml_deck_names_the_field(tmp_path: Path, text: str, field: str, reason: str) -> None:
    path = _write(tmp_path, "bad.toml", text)
    error = _error(path)
    assert error.field == field
    assert reason in error.reason
    assert str(error).startswith(f"{path}: {field}: ")
    assert error.line is None


@pytest.mark.parametrize(
    ("text", "field", "reason"),
    [
        ('{"cards": {"H:red": 1}, "extra": 1}', "extra", "unknown field"),
        ('{"cards": {"T:wild": 0}}', 'cards."T:wild"', "at least 1, not 0"),
        (
            '{"cards": {"M:red-orange": 1, "M:orange-red": 1}}',
            'cards."M:orange-red"',
            "listed twice",
        ),
        ('{"cards": {"M:blue": 1}}', 'cards."M:blue"', "not a card"),
        ('{"cards": {}}', "cards", "at least one card"),
    ],
)
def test_bad_json_deck_names_the_field(tmp_path: Path, text: str, field: str, reason: str) -> None:
    error = _error(_write(tmp_path, "bad.json", text))
    assert error.field == field
    assert reason in error.reason


def test_json_deck_must_be_an_object(tmp_path: Path) -> None:
    error = _error(_write(tmp_path, "list.json", '["H:red"]'))
    assert str(error).endswith("a deck must be a table of fields, not a list")


@pytest.mark.parametrize("name", ["deck.yaml", "deck.txt", "deck"])
def test_unknown_extension_is_refused(tmp_path: Path, name: str) -> None:
    path = _write(tmp_path, name, SMALL_TOML)
    error = _error(path)
    assert str(error).startswith(f"{path}: unknown deck file type")
    assert "use .toml or .json" in str(error)


def test_missing_file_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.toml"
    assert str(_error(path)) == f"{path}: no such file"


def test_directory_is_not_a_deck_file(tmp_path: Path) -> None:
    folder = tmp_path / "folder.json"
    folder.mkdir()
    assert "is a directory" in str(_error(folder))


def test_non_utf8_file_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "latin.toml"
    path.write_bytes('name = "żółw"\n[cards]\n"H:red" = 1\n'.encode("iso8859_2"))
    assert "not UTF-8 text" in str(_error(path))


def test_deck_file_errors_are_deck_errors() -> None:
    assert issubclass(DeckFileError, DeckError)
    assert issubclass(DeckFileError, HisssError)
    error = DeckFileError("x.toml", "bad count", field='cards."H:red"')
    assert (error.file, error.field, error.reason) == ("x.toml", 'cards."H:red"', "bad count")
    assert str(error) == 'x.toml: cards."H:red": bad count'
