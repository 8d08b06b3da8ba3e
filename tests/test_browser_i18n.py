"""The front end's files, without a browser: the two catalogs agree, every text the scripts ask
for exists, every asset is the package's own, and nothing points to another site."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

from hisss.bots import LEVEL_NAMES
from hisss.core import BUILTIN_DECKS, PRESETS

STATIC = Path(str(resources.files("hisss.server").joinpath("static")))
COLOURS = ["red", "orange", "yellow", "green", "blue", "purple", "wild"]
PLURAL_FORMS = ("one", "few", "many", "other")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalog(language: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((STATIC / "i18n" / f"{language}.json").read_text("utf-8"))
    return data


def scripts() -> dict[str, str]:
    return {path.name: path.read_text("utf-8") for path in sorted((STATIC / "js").glob("*.js"))}


def test_english_and_polish_have_the_same_keys_and_placeholders() -> None:
    english, polish = catalog("en"), catalog("pl")
    assert sorted(english) == sorted(polish)
    for key, text in english.items():
        assert isinstance(text, str) and text.strip(), key
        assert isinstance(polish[key], str) and polish[key].strip(), key
        assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(polish[key])), key


def test_every_text_the_page_asks_for_is_in_the_catalogs() -> None:
    english = catalog("en")
    used: set[str] = set()
    for name, source in scripts().items():
        for call, key in re.findall(r"\b(tn?)\(\s*\"([^\"$]+)\"", source):
            if call == "tn":
                used.update(f"{key}.{form}" for form in PLURAL_FORMS)
            else:
                used.add(key)
        assert "innerHTML" not in source, f"{name}: build elements, do not parse HTML"
    page = (STATIC / "index.html").read_text("utf-8")
    used.update(re.findall(r'data-i18n="([^"]+)"', page))
    for pairs in re.findall(r'data-i18n-attr="([^"]+)"', page):
        used.update(pair.split(":")[1] for pair in pairs.split(";"))
    # Keys built from names: colours, cards, levels, decks, presets, connection states, measures.
    for colour in COLOURS:
        used.update({f"colour.{colour}", f"colour.{colour}.letter"})
        used.update({f"card.head.{colour}", f"card.tail.{colour}"})
    for level in LEVEL_NAMES:
        used.update({f"level.{level}", f"levelHelp.{level}"})
    used.update(f"deck.{name}" for name in BUILTIN_DECKS)
    used.update(f"preset.{name}" for name in PRESETS)
    used.update(f"conn.{s}" for s in ("connecting", "open", "closed", "failed"))
    used.update(f"measure.{m}" for m in ("cards", "snakes", "longest"))
    used.update(f"result.how.{m}" for m in ("cards", "snakes", "longest", "target", "shared"))
    used.update(f"lists.{s}{e}" for s in ("open", "running", "finished") for e in ("", "Empty"))
    used.update({"end.L", "end.R"})
    missing = sorted(used - set(english))
    assert not missing, f"texts missing from the catalogs: {missing}"


@pytest.mark.parametrize("language", ["en", "pl"])
def test_colour_blind_letters_tell_the_colours_apart(language: str) -> None:
    texts = catalog(language)
    letters = [texts[f"colour.{colour}.letter"] for colour in COLOURS]
    assert len(set(letters)) == len(letters)
    assert all(len(letter) == 1 for letter in letters)


def test_every_asset_is_served_by_the_package_and_nothing_comes_from_elsewhere() -> None:
    files = [p for p in STATIC.rglob("*") if p.is_file()]
    names = {p.relative_to(STATIC).as_posix() for p in files}
    assert {"index.html", "js/app.js", "css/hisss.css", "i18n/en.json", "i18n/pl.json"} <= names
    page = (STATIC / "index.html").read_text("utf-8")
    for link in re.findall(r'(?:src|href)="([^"]+)"', page):
        if link.startswith("#") or link == "/":
            continue
        assert link.startswith("/static/"), link
        assert link.removeprefix("/static/") in names, link
    for source in scripts().values():
        for module in re.findall(r'from "([^"]+)"', source):
            assert module.startswith("./") and module[2:] in {p.name for p in files}, module
    for path in files:
        if path.suffix in {".html", ".js", ".css", ".svg", ".json"}:
            text = path.read_text("utf-8").replace('"http://www.w3.org/2000/svg"', "")
            assert not re.search(r"https?://|(?:src|href|url)\(?=?\"?//", text), path.name
            assert "@import" not in text and "@font-face" not in text, path.name
