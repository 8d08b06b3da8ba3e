"""The translations: both catalogs hold the same messages with the same placeholders, every card
and colour has a name and a distinct letter, the language comes from the environment, and a result
is explained for every scoring and tie-break in both languages."""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from hisss.core import Colour, ConfigError, Rules, Scoring, parse_snake, score
from hisss.core.cards import ALL_CARDS
from hisss.i18n import (
    LANGUAGES,
    PLURAL_FORMS,
    detect_language,
    explain_everywhere,
    explain_result,
    get_catalog,
    placeholders,
    plural_form,
    read_catalog_data,
    symbol,
    symbol_path,
)

ROOT = Path(__file__).resolve().parent.parent
I18N = ROOT / "src" / "hisss" / "i18n"


def _message_placeholders(message: Any) -> set[str]:
    if isinstance(message, str):
        return placeholders(message)
    if isinstance(message, dict):
        return set().union(*(placeholders(form) for form in message.values()))
    assert isinstance(message, list)
    return set().union(*(placeholders(line) for line in message))


def test_catalogs_have_the_same_keys_and_placeholders() -> None:
    data = {language: read_catalog_data(language) for language in LANGUAGES}
    english = data["en"]
    for language, catalog in data.items():
        assert set(catalog) == set(english), language
        for section in ("colours", "kinds", "cards", "messages"):
            assert set(catalog[section]) == set(english[section]), (language, section)
        for key, message in english["messages"].items():
            other = catalog["messages"][key]
            assert type(other) is type(message), (language, key)
            assert _message_placeholders(other) == _message_placeholders(message), (language, key)


@pytest.mark.parametrize("name", ["en.json", "pl.json", "symbols.json"])
def test_no_key_is_written_twice_in_a_catalog(name: str) -> None:
    # json keeps the last of two equal keys without a word: two texts for one key means one of
    # the places that reads it shows the other's words.
    twice: list[str] = []

    def check(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [key for key, _ in pairs]
        twice.extend(sorted({key for key in keys if keys.count(key) > 1}))
        return dict(pairs)

    json.loads((I18N / name).read_text(encoding="utf-8"), object_pairs_hook=check)
    assert twice == [], f"{name} writes these keys twice: {twice}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_plural_messages_give_the_forms_of_their_language(language: str) -> None:
    messages = read_catalog_data(language)["messages"]
    plurals = {key: m for key, m in messages.items() if isinstance(m, dict)}
    assert plurals, "the catalogs have counted messages"
    for key, forms in plurals.items():
        assert tuple(forms) == PLURAL_FORMS[language], key
        for form in forms.values():
            assert "count" in placeholders(form), key


@pytest.mark.parametrize(
    ("language", "count", "form"),
    [
        ("en", 1, "one"),
        ("en", 0, "other"),
        ("en", 2, "other"),
        ("pl", 1, "one"),
        ("pl", 4, "few"),
        ("pl", 5, "many"),
        ("pl", 13, "many"),
        ("pl", 23, "few"),
        ("pl", 0, "many"),
    ],
)
def test_plural_form(language: str, count: int, form: str) -> None:
    assert plural_form(language, count) == form


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_colour_has_a_distinct_letter_and_every_card_a_name(language: str) -> None:
    catalog = get_catalog(language)
    colours: list[Colour | None] = [*Colour, None]
    letters = [catalog.colour_letter(c) for c in colours]
    assert len(set(letters)) == len(letters)
    assert all(len(letter) == 1 and letter.isalpha() for letter in letters)
    names = [catalog.colour_name(c) for c in colours]
    assert len(set(names)) == len(names)
    card_names = [catalog.card_name(card) for card in ALL_CARDS]
    assert len(set(card_names)) == len(ALL_CARDS)


def test_symbols_are_distinct_and_shared() -> None:
    symbols = [symbol(c) for c in [*Colour, None]]
    assert len(set(symbols)) == len(symbols)
    assert all(len(s) == 1 and not s.isalnum() for s in symbols)
    paths = [symbol_path(c) for c in [*Colour, None]]
    assert len(set(paths)) == len(paths)
    for path in paths:
        assert re.fullmatch(r"M[0-9. ]+(?:[LHVA][0-9. ]+)+Z", path), path
        numbers = [float(n) for n in re.findall(r"[0-9.]+", path)]
        assert all(0 <= n <= 12 for n in numbers), path  # inside the 12 by 12 box


def test_the_colour_table_of_the_docs_is_the_catalogs() -> None:
    """docs/play.md shows each colour's letters and symbol: they are the catalogs'."""
    text = (ROOT / "docs" / "play.md").read_text(encoding="utf-8")
    section = text.split("## Colours for colour-blind players", 1)[1].split("\n## ", 1)[0]
    rows = [line.strip("|").split("|") for line in section.splitlines() if line.startswith("| ")]
    en, pl = get_catalog("en"), get_catalog("pl")
    documented = {
        row[0].strip().split(" ")[0]: [cell.strip() for cell in row[1:]] for row in rows[2:]
    }
    expected = {
        en.colour_name(c): [
            en.colour_letter(c),
            f"{pl.colour_letter(c)} ({pl.colour_name(c)})",
            symbol(c),
        ]
        for c in [*Colour, None]
    }
    assert documented == expected


def test_default_seat_names_are_said_in_each_language() -> None:
    en, pl = get_catalog("en"), get_catalog("pl")
    assert pl.seat_name("Bot 12 (expert)") == "Bot 12 (ekspert)"
    assert pl.seat_name("Player 2") == "Gracz 2"
    assert en.seat_name("Player 2") == "Player 2"
    for name in ("Bot 2 (wizard)", "Player two", "Bot 2 (medium) ", "Ala", "player 2"):
        assert pl.seat_name(name) == name


def test_a_result_is_explained_in_every_language() -> None:
    rules = Rules()
    result = score([[SIX], [THREE, THREE], []], rules)
    names = ["Ala", "Player 2", "Bot 3 (gentle)"]
    explained = explain_everywhere(result, rules, names)
    assert set(explained) == set(LANGUAGES)
    assert explained["en"] == explain_result(result, rules, names, get_catalog("en"))
    assert explained["pl"] == (
        "Ala i Gracz 2 mają tyle samo kart (6); remis rozstrzyga najdłuższy wąż – wygrywa Ala "
        "(kart: 6)."
    )


def test_polish_names() -> None:
    pl = get_catalog("pl")
    assert pl.colour_name(Colour.ORANGE) == "pomarańczowy"
    assert pl.colour_letter(Colour.YELLOW) == "Ż"
    assert pl.card_name(ALL_CARDS[0]) == "czerwona głowa"
    assert pl.kind_name(ALL_CARDS[0].kind) == "głowa"
    assert pl.names(["Ala", "Ola", "Ela"]) == "Ala, Ola i Ela"


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({}, "en"),
        ({"LANG": "pl_PL.UTF-8"}, "pl"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LC_MESSAGES": "pl_PL", "LANG": "en_US"}, "pl"),
        ({"LC_ALL": "en_US.UTF-8", "LC_MESSAGES": "pl_PL"}, "en"),
        ({"LC_ALL": "", "LANG": "pl"}, "pl"),
        ({"LC_ALL": "C", "LANG": "pl_PL"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
    ],
)
def test_language_from_the_environment(environ: dict[str, str], language: str) -> None:
    assert detect_language(environ) == language


def test_unknown_language_and_message_are_errors() -> None:
    with pytest.raises(ConfigError, match="unknown language 'de'"):
        get_catalog("de")
    with pytest.raises(ConfigError, match="no message 'nope'"):
        get_catalog("en").text("nope")
    with pytest.raises(ConfigError, match=r"needs a value for \{turn\}"):
        get_catalog("en").text("top.turn")


def test_rules_summary_in_both_languages() -> None:
    en, pl = (get_catalog(lang).lines("rules.summary") for lang in ("en", "pl"))
    assert len(en) == len(pl)
    assert [line.startswith("# ") for line in en] == [line.startswith("# ") for line in pl]
    assert "Hisss!" in "\n".join(en) and "Hisss!" in "\n".join(pl)
    assert "najwięcej kart" in "\n".join(pl)


# ---------------------------------------------------------------------- explaining a result

SIX = parse_snake("H:red M:red-orange M:orange-yellow M:yellow-green M:green-blue T:blue")
FOUR = parse_snake("H:red M:red-orange M:orange-yellow T:yellow")
THREE = parse_snake("H:red M:red-orange T:orange")
NAMES = ["Ala", "Ola", "Ela"]

CASES = [
    # (scoring, target, pits, English sentence)
    (Scoring.CARDS, 0, [[SIX], [THREE], []], "Ala wins with the most cards (6)."),
    (
        Scoring.CARDS,
        0,
        [[SIX], [THREE, THREE], []],
        "Ala and Ola tie on cards (6); Ala wins the tie-break with the longest snake (6 cards).",
    ),
    (
        Scoring.CARDS,
        0,
        [[THREE], [], [THREE]],
        "Ala and Ela share the win: tied on cards (3) and on the longest snake (3 cards).",
    ),
    (Scoring.CARDS, 0, [[], [], []], "Nobody took a snake, so everybody shares the win."),
    (Scoring.SNAKES, 0, [[SIX], [THREE, THREE], []], "Ola wins with the most snakes (2)."),
    (
        Scoring.SNAKES,
        0,
        [[SIX], [THREE], [FOUR]],
        "Ala, Ola and Ela tie on snakes (1); Ala wins the tie-break with the longest snake "
        "(6 cards).",
    ),
    (
        Scoring.LONGEST,
        0,
        [[SIX], [THREE, THREE, THREE], []],
        "Ala wins with the longest snake (6 cards).",
    ),
    (
        Scoring.LONGEST,
        0,
        [[FOUR], [FOUR, THREE], []],
        "Ala and Ola tie on the longest snake (4 cards); Ola wins the tie-break with the most "
        "cards (7).",
    ),
    (
        Scoring.LONGEST,
        0,
        [[FOUR], [FOUR], []],
        "Ala and Ola share the win: tied on the longest snake (4 cards) and on cards (4).",
    ),
    (Scoring.FIRST_TO, 6, [[SIX], [THREE], []], "Ala wins by reaching the target (6 cards) first."),
    (
        Scoring.FIRST_TO,
        20,
        [[SIX], [THREE, THREE], []],
        "Nobody reached the target (20 cards), so the game is scored on cards. Ala and Ola tie "
        "on cards (6); Ala wins the tie-break with the longest snake (6 cards).",
    ),
]


#: A phrase of each kind of Polish explanation.
POLISH_MARKS = {
    "wins": "wygrywa",
    "tie": "remis rozstrzyga",
    "share": "dzielą się zwycięstwem",
    "Nobody took": "Nikt nie zdobył węża",
}


@pytest.mark.parametrize(("scoring", "target", "pits", "sentence"), CASES)
def test_explain_every_scoring(
    scoring: Scoring, target: int, pits: list[list[Any]], sentence: str
) -> None:
    rules = Rules(scoring=scoring, target=target)
    result = score(pits, rules)
    assert explain_result(result, rules, NAMES, get_catalog("en")) == sentence
    polish = explain_result(result, rules, NAMES, get_catalog("pl"))
    kind = next(k for k in ("Nobody took", "share", "tie", "wins") if k in sentence)
    assert POLISH_MARKS[kind] in polish, polish
    if kind != "Nobody took":
        assert all(NAMES[seat] in polish for seat in result.winners), polish
    if scoring is Scoring.FIRST_TO and result.decided_by != "target":
        assert polish.startswith("Nikt nie osiągnął celu (kart: 20)")


def test_explain_needs_a_name_per_seat() -> None:
    result = score([[SIX], []], Rules())
    with pytest.raises(ValueError, match="1 names for a result of 2 seats"):
        explain_result(result, Rules(), ["Ala"], get_catalog("en"))


# ---------------------------------------------------------------------- the layer

#: What the translations may import besides hisss.core and themselves.
ALLOWED = {
    "__future__",
    "json",
    "re",
    "string",
    "collections.abc",
    "dataclasses",
    "functools",
    "importlib",
    "typing",
}


def test_i18n_imports_only_the_core_and_plain_stdlib() -> None:
    for path in sorted(I18N.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                modules = [node.module or ""]
            else:
                continue
            for module in modules:
                ok = module in ALLOWED or module.startswith(("hisss.core", "hisss.i18n"))
                assert ok, f"{path.name} imports {module}"
                assert module.split(".")[0] in sys.stdlib_module_names | {"hisss", "__future__"}
