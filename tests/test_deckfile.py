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
)
from hisss.record import (
    MAX_DECK_FILE_SIZE,
    DeckFileError,
    Game,
    GameRecord,
    Seat,
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
    game = Game(Rules(), deck, [Seat.person(name) for name in "abc"], seed=3, cards=deal(deck, rng))
    while not game.is_over():
        game.draw()
        if game.legal_actions():
            game.place(rng.choice(game.legal_actions()))
    record = GameRecord.from_json(game.record().to_json())
    assert record.deck == deck
    assert replay(record).pits == game.state.pits


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
    assert (error.line, error.column) == (1, 24)
    assert str(error) == (
        f'{path}: line 1, column 24: cards."H:red": the key "H:red" appears twice in one object'
    )


def test_json_nan_is_refused(tmp_path: Path) -> None:
    error = _error(_write(tmp_path, "nan.json", '{"cards": {"H:red": NaN}}'))
    assert "line 1, column 21: not valid JSON: NaN is not a JSON number" in str(error)


def test_toml_content_error_names_the_line(tmp_path: Path) -> None:
    path = _write(tmp_path, "pink.toml", 'name = "pink"\n[cards]\n"H:pink" = 1\n')
    error = _error(path)
    assert (error.line, error.column, error.field) == (3, None, 'cards."H:pink"')
    assert str(error) == (
        f"{path}: line 3: cards.\"H:pink\": not a card: bad card 'H:pink': unknown colour "
        "'pink' (expected one of red, orange, yellow, green, blue, purple)"
    )


@pytest.mark.parametrize(
    ("text", "line", "field", "reason"),
    [
        ('colour = "red"\n[cards]\n"H:red" = 1\n', 1, "colour", "unknown field"),
        ('[cards]\n"H:pink" = 1\n', 2, 'cards."H:pink"', "not a card: bad card 'H:pink'"),
        ('[cards]\n"M:red-red" = 1\n', 2, 'cards."M:red-red"', "not a card"),
        ('[cards]\n"Q:red" = 1\n', 2, 'cards."Q:red"', "the kind must be H, T or M"),
        ('[cards]\n"H:red" = "two"\n', 2, 'cards."H:red"', "must be a whole number"),
        ('[cards]\n"H:red" = 1.5\n', 2, 'cards."H:red"', "must be a whole number, not 1.5"),
        ('[cards]\n"H:red" = true\n', 2, 'cards."H:red"', "must be a whole number, not"),
        ('[cards]\n"H:red" = 0\n', 2, 'cards."H:red"', "must be at least 1, not 0"),
        ('[cards]\n"H:red" = -2\n', 2, 'cards."H:red"', "must be at least 1, not -2"),
        ('[cards]\n"H:red" = 5000\n', 2, 'cards."H:red"', "at most 1000 copies"),
        (
            '[cards]\n"M:red-orange" = 1\n"M:orange-red" = 2\n',
            3,
            'cards."M:orange-red"',
            "M:red-orange is listed twice",
        ),
        ("# no cards yet\n\n[cards]\n", 3, "cards", "a deck needs at least one card"),
        ('name = "empty"\n', None, "cards", "missing"),
        ('cards = ["H:red"]\n', 1, "cards", "must be a table from card to number of copies"),
        ('[[cards]]\n"H:red" = 1\n', 1, "cards", "must be a table from card to number"),
        ('name = ""\n[cards]\n"H:red" = 1\n', 1, "name", "must be non-empty text"),
        ('[cards]\n"H:red" = 1\n\n[description]\n', 4, "description", "must be text"),
        # Every way TOML can write a key finds the line that writes it.
        ('cards = {"H:red" = 1, "T:red" = 0}\n', 1, 'cards."T:red"', "at least 1"),
        ('name = "x"\ncards."H:red" = 0\n', 2, 'cards."H:red"', "at least 1"),
        ("[cards]\n'H:red' = 1\n'T:red' = 0\n", 3, 'cards."T:red"', "at least 1"),
        ('[cards]\n  "H:red"   =   0   # red\n', 2, 'cards."H:red"', "at least 1"),
        ('name = "x"\r\n[cards]\r\n"H:red" = 0\r\n', 3, 'cards."H:red"', "at least 1"),
        (
            'description = """\n[cards]\n"H:red" = 0\n"""\n[cards]\n"H:red" = 0\n',
            6,
            'cards."H:red"',
            "at least 1",
        ),
        (
            'description = [\n  "a",\n  "b",\n]\n[cards]\n"H:red" = 1\n',
            1,
            "description",
            "must be text",
        ),
    ],
)
def test_bad_toml_deck_names_the_line_and_field(
    tmp_path: Path, text: str, line: int | None, field: str, reason: str
) -> None:
    path = _write(tmp_path, "bad.toml", text)
    error = _error(path)
    assert (error.field, error.line, error.column) == (field, line, None)
    assert reason in error.reason
    where = f"line {line}: " if line is not None else ""
    assert str(error).startswith(f"{path}: {where}{field}: ")


@pytest.mark.parametrize(
    ("text", "line", "field", "reason"),
    [
        ('{"cards": {"H:red": 1},\n "extra": 1}', 2, "extra", "unknown field"),
        ('{"cards": {\n  "T:wild": 0\n}}', 2, 'cards."T:wild"', "at least 1, not 0"),
        (
            '{"cards": {\n"M:red-orange": 1,\n"M:orange-red": 1}}',
            3,
            'cards."M:orange-red"',
            "listed twice",
        ),
        ('{"cards": {"M:blue": 1}}', 1, 'cards."M:blue"', "not a card"),
        ('{\n"name": "x",\n"cards": {}}', 3, "cards", "at least one card"),
        ('{\n"name": ["x"],\n"cards": {}}', 2, "name", "must be non-empty text"),
        ('{"name": "no cards"}', None, "cards", "missing"),
        ('{"cards": {\r\n"H:red": 1,\r\n"T:red": 0}}', 3, 'cards."T:red"', "at least 1"),
    ],
)
def test_bad_json_deck_names_the_line_and_field(
    tmp_path: Path, text: str, line: int | None, field: str, reason: str
) -> None:
    path = _write(tmp_path, "bad.json", text)
    error = _error(path)
    assert (error.field, error.line) == (field, line)
    assert reason in error.reason
    where = f"line {line}: " if line is not None else ""
    assert str(error).startswith(f"{path}: {where}{field}: ")


@pytest.mark.parametrize(
    ("text", "shown"),
    [("[1]", "a list"), ("null", "null"), ("true", "true"), ('"H:red"', '"H:red"'), ("1.5", "1.5")],
)
def test_json_deck_must_be_an_object(tmp_path: Path, text: str, shown: str) -> None:
    path = _write(tmp_path, "list.json", f"\n{text}\n")
    error = _error(path)
    assert str(error).startswith(f"{path}: line 2: a deck must be a JSON object of fields, not ")
    assert str(error).split(", not ", 1)[1].startswith(shown)


def test_json_syntax_error_is_a_whole_sentence(tmp_path: Path) -> None:
    path = _write(tmp_path, "cut.json", '{\n  "name": "cut",\n  "cards": {"H:red": 1,\n')
    assert str(_error(path)) == (
        f"{path}: line 4, column 1: not valid JSON: the text ends before the JSON is complete "
        "(the file may be cut short)"
    )
    path = _write(tmp_path, "cut.json", '{"name": "cut", "cards": {"H:re')
    assert str(_error(path)) == (
        f"{path}: line 1, column 27: not valid JSON: unterminated string: the text in double "
        "quotes that starts here is never closed (the file may be cut short)"
    )


def test_toml_cut_short_names_the_end_of_the_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "cut.toml", 'name = "cut"\n[cards]\n"H:red" = 1\n"T:re')
    error = _error(path)
    assert (error.line, error.column) == (4, 6)
    assert str(error) == (
        f"{path}: line 4, column 6: not valid TOML: Unterminated string at the end of the file "
        "(the file may be cut short)"
    )


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ('[cards]\n"H:red" = nan\n', 2, "not valid TOML: the number nan is not finite"),
        ('[cards]\n"H:red" = 1e999\n', 2, "not valid TOML: the number 1e999 is not finite"),
        (
            '[cards]\n"H:red" = ' + "9" * 5000 + "\n",
            2,
            "not valid TOML: a whole number of more than 4300 digits is too long to read",
        ),
        (
            '[cards]\n"H:red" = ' + "[" * 5000 + "\n",
            2,
            "not valid TOML: tables or lists nested too deeply to read",
        ),
    ],
)
def test_toml_numbers_and_nesting_the_parser_cannot_take(
    tmp_path: Path, text: str, line: int, reason: str
) -> None:
    path = _write(tmp_path, "odd.toml", text)
    assert str(_error(path)) == f"{path}: line {line}: {reason}"


def test_deck_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = _write(tmp_path, "big.toml", SMALL_TOML + "#" * MAX_DECK_FILE_SIZE + "\n")
    size = path.stat().st_size
    assert str(_error(path)) == (
        f"{path}: too large: {size:,} bytes, more than the 1 MiB a deck file may have"
    )


def test_deck_file_at_the_size_limit_is_read(tmp_path: Path) -> None:
    padding = " " * (MAX_DECK_FILE_SIZE - len(SMALL_JSON))
    path = _write(tmp_path, "padded.json", SMALL_JSON + padding)
    assert path.stat().st_size == MAX_DECK_FILE_SIZE
    assert load_deck(path) == SMALL


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        (
            "deep.json",
            "[" * (MAX_DECK_FILE_SIZE // 2) + "]" * (MAX_DECK_FILE_SIZE // 2),
            "not valid JSON: lists and objects nested too deeply to read",
        ),
        (
            "deep.toml",
            "name = " + "[" * (MAX_DECK_FILE_SIZE - 100),
            "line 1: not valid TOML: tables or lists nested too deeply to read",
        ),
        (
            "nested.json",
            '{"cards": {"H:red": ' + "[" * 200 + "]" * 200 + "}}",
            'line 1: cards."H:red": must be a whole number, not a list',
        ),
    ],
)
def test_deeply_nested_deck_files_are_refused_in_one_line(
    tmp_path: Path, name: str, text: str, message: str
) -> None:
    path = _write(tmp_path, name, text)
    assert str(_error(path)) == f"{path}: {message}"


def test_byte_order_mark_is_ignored(tmp_path: Path) -> None:
    for name, text in (("small.toml", SMALL_TOML), ("small.json", SMALL_JSON)):
        path = tmp_path / name
        path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
        assert load_deck(path) == SMALL


def test_malformed_deck_files_give_one_clear_line_never_a_traceback(tmp_path: Path) -> None:
    rng = random.Random(11)
    bases = {".toml": SMALL_TOML.encode(), ".json": SMALL_JSON.encode()}
    junk = [b"[", b"{", b'"', b"'", b"1e999", b"true", b"null", b"=", b"\n", b",", b".", b"\xff"]
    refused = 0
    tries = 0
    for _ in range(300):
        for suffix, base in bases.items():
            raw = bytearray(base)
            cut = rng.randrange(len(raw))
            if rng.random() < 0.5:
                raw[cut:cut] = rng.choice(junk)
            else:
                del raw[cut : cut + rng.randint(1, 8)]
            for data in (bytes(raw), bytes(rng.randrange(256) for _ in range(rng.randrange(30)))):
                path = tmp_path / f"junk{suffix}"
                path.write_bytes(data)
                tries += 1
                try:
                    load_deck(path)
                except DeckFileError as exc:
                    message = str(exc)
                    assert message.startswith(f"{path}: ")
                    assert message.isprintable() and len(message) <= 500
                    assert not message.endswith((" at", ": ")), message
                    refused += 1
    assert refused > tries * 0.8


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
    assert str(_error(path)) == (
        f"{path}: line 1, column 9: not UTF-8 text: the byte 0xbf is not valid here "
        "(invalid start byte); save the file as UTF-8"
    )


def test_deck_file_errors_are_deck_errors() -> None:
    assert issubclass(DeckFileError, DeckError)
    assert issubclass(DeckFileError, HisssError)
    error = DeckFileError("x.toml", "bad count", field='cards."H:red"')
    assert (error.file, error.field, error.reason) == ("x.toml", 'cards."H:red"', "bad count")
    assert str(error) == 'x.toml: cards."H:red": bad count'
