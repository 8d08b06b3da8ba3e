"""The browser's texts, without a browser: the page keeps no catalog of its own but loads the
package's (hisss.i18n) from the server, every catalog key the scripts look up exists in both
languages, every asset is the package's own, and nothing points to another site."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from hisss.bots import LEVEL_NAMES
from hisss.core import BUILTIN_DECKS, PRESETS, End
from hisss.i18n import LANGUAGES, PLURAL_FORMS, read_catalog_data, web_catalog
from hisss.server import ErrorCode
from hisss.server.settings import PACES
from hisss.storage import GameStatus

STATIC = Path(str(resources.files("hisss.server").joinpath("static")))
I18N = Path(str(resources.files("hisss.i18n")))
#: The functions of i18n.js that look a message up by key.
LOOKUP = re.compile(r"(?<![\w.$])(t|tn|has)\(")
STRING = re.compile(r'"([^"\\]*)"')
TERNARY = re.compile(r'[^?"]+\?\s*"([^"\\]+)"\s*:\s*"([^"\\]+)"')
TEMPLATE = re.compile(r"`([^`]*)`")
#: Lookups whose key is read from the page (index.html's data-i18n), checked from the page.
FROM_THE_PAGE = {"node.dataset.i18n", "key.trim()"}


def scripts() -> dict[str, str]:
    return {path.name: path.read_text("utf-8") for path in sorted((STATIC / "js").glob("*.js"))}


def without_comments(source: str) -> str:
    """A script or page without its comments (which may quote texts as examples)."""
    source = re.sub(r"/\*.*?\*/|<!--.*?-->", "", source, flags=re.DOTALL)
    return re.sub(r"(?m)^\s*//.*$", "", source)


def first_argument(source: str, start: int) -> str:
    """The text of a call's first argument, from just after its opening parenthesis."""
    depth, i, quote = 0, start, ""
    while True:
        char = source[i]
        if quote:
            if char == "\\":
                i += 1
            elif quote == "`" and source.startswith("${", i):
                depth_in, i = 1, i + 2
                while depth_in:
                    depth_in += {"{": 1, "}": -1}.get(source[i], 0)
                    i += 1
                continue
            elif char == quote:
                quote = ""
        elif char in "\"'`":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}" and depth:
            depth -= 1
        elif char in ",)" and not depth:
            return source[start:i].strip()
        i += 1


def lookups() -> list[tuple[str, str, str]]:
    """Every message lookup of the scripts: (script, function, the key's expression)."""
    found = []
    for name, text in scripts().items():
        source = without_comments(text)
        for match in LOOKUP.finditer(source):
            if source[: match.start()].endswith("function "):
                continue  # the definition itself
            found.append((name, match[1], first_argument(source, match.end())))
    return found


def dynamic_names() -> dict[str, list[str]]:
    """The keys the scripts build from names, as patterns (``{}`` for the name), each with every
    name it is built from: the server's own lists, or the names the scripts themselves use."""
    sources = scripts()
    statuses = re.findall(r'setStatus\("(\w+)"\)', sources["ws.js"])
    client_errors = re.findall(r'new ApiError\(\d+, "(\w+)"', sources["api.js"])
    lists = [s.value for s in (GameStatus.OPEN, GameStatus.RUNNING, GameStatus.FINISHED)]
    assert statuses and client_errors
    return {
        "level.{}": list(LEVEL_NAMES),
        "levelHelp.{}": list(LEVEL_NAMES),
        "preset.{}": list(PRESETS),
        "deck.{}": list(BUILTIN_DECKS),
        "error.{}": [*(code.value for code in ErrorCode), *client_errors],
        "end.{}": [end.value for end in End],
        "conn.{}": statuses,
        "lists.{}": lists,
        "lists.{}Empty": lists,
        "pace.{}": list(PACES),
    }


def used_keys() -> dict[str, set[str]]:
    """The keys the scripts and the page look up, by the kind of message each needs: ``text``
    (t, has and the page) or ``plural`` (tn)."""
    page = (STATIC / "index.html").read_text("utf-8")
    texts = set(re.findall(r'data-i18n="([^"]+)"', page))
    for pairs in re.findall(r'data-i18n-attr="([^"]+)"', page):
        texts.update(pair.split(":")[1] for pair in pairs.split(";"))
    plurals: set[str] = set()
    patterns = dynamic_names()
    seen_patterns: set[str] = set()
    for script, function, argument in lookups():
        keys: list[str]
        if match := STRING.fullmatch(argument):
            keys = [match[1]]
        elif match := TERNARY.fullmatch(argument):
            keys = [match[1], match[2]]
        elif match := TEMPLATE.fullmatch(argument):
            pattern = re.sub(r"\$\{[^}]*\}", "{}", match[1])
            assert pattern in patterns, (
                f"{script}: {function}({argument}) builds keys the test does not know: name the "
                "list they are built from in dynamic_names()"
            )
            seen_patterns.add(pattern)
            keys = [pattern.replace("{}", name) for name in patterns[pattern]]
        else:
            assert script == "i18n.js" and argument in FROM_THE_PAGE, (
                f"{script}: {function}({argument}): a key the test cannot read; write the key, "
                "or a template of a known list of names"
            )
            continue
        (plurals if function == "tn" else texts).update(keys)
    assert seen_patterns == set(patterns), "dynamic_names() lists keys the scripts no longer build"
    return {"text": texts, "plural": plurals}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_key_the_scripts_look_up_exists_in_the_language(language: str) -> None:
    messages = read_catalog_data(language)["messages"]
    used = used_keys()
    assert len(used["text"]) > 200 and len(used["plural"]) >= 8  # the scanner finds them
    missing = sorted((used["text"] | used["plural"]) - set(messages))
    assert not missing, f"keys missing from the {language} catalog: {missing}"
    for key in used["text"]:
        assert isinstance(messages[key], str) and messages[key].strip(), key
    for key in used["plural"]:
        assert isinstance(messages[key], dict), f"{key} is looked up with tn but has no forms"
        assert tuple(messages[key]) == PLURAL_FORMS[language], key


def test_a_key_the_scanner_cannot_read_is_reported() -> None:
    source = 'x = t(name); y = tn("a.b", n); z = t(cond ? "c.d" : "e.f"); w = has(`deck.${d}`);'
    arguments = [first_argument(source, m.end()) for m in LOOKUP.finditer(source)]
    assert arguments == ["name", '"a.b"', 'cond ? "c.d" : "e.f"', "`deck.${d}`"]
    assert TERNARY.fullmatch(arguments[2]) and not STRING.fullmatch(arguments[0])


def test_the_page_keeps_no_catalog_of_its_own() -> None:
    assert not list(STATIC.rglob("*.json")), "the browser's texts come from hisss.i18n"
    sources = scripts()
    assert "fetch(`/api/i18n/${encodeURIComponent(code)}`)" in sources["i18n.js"]
    page = (STATIC / "index.html").read_text("utf-8")
    everything = without_comments("\n".join([*sources.values(), page]))
    symbols = json.loads((I18N / "symbols.json").read_text("utf-8"))
    for colour, shape in symbols.items():
        assert shape["glyph"] not in everything, f"the symbol of {colour} is written in a script"
        assert shape["path"] not in everything, f"the shape of {colour} is written in a script"
    for language in LANGUAGES:
        data = read_catalog_data(language)
        colours = [entry["name"] for key, entry in data["colours"].items() if entry["name"] != key]
        names = [*data["cards"].values(), *colours]
        for name in names:
            assert f'"{name}"' not in everything, f"{name!r} is written in the page"
        for key, text in data["messages"].items():
            if isinstance(text, str) and len(text) > 12:
                assert text not in everything, f"the text of {key} is written in the page"


def test_the_server_sends_the_catalogs(make_client: Callable[..., Any]) -> None:
    client = make_client()
    tags = set()
    for language in LANGUAGES:
        answer = client.get(f"/api/i18n/{language}")
        assert answer.status_code == 200
        assert answer.headers["content-type"] == "application/json"
        assert answer.headers["cache-control"] == "no-cache"
        assert answer.json() == web_catalog(language)
        tag = answer.headers["etag"]
        tags.add(tag)
        again = client.get(f"/api/i18n/{language}", headers={"If-None-Match": f'"x", {tag}'})
        assert again.status_code == 304 and again.content == b""
        assert again.headers["etag"] == tag
        other = client.get(f"/api/i18n/{language}", headers={"If-None-Match": '"other"'})
        assert other.status_code == 200 and other.json() == answer.json()
    assert len(tags) == len(LANGUAGES)
    unknown = client.get("/api/i18n/de")
    assert unknown.status_code == 404
    assert unknown.json()["error"] == {
        "code": "not_found",
        "message": "there is no catalog for the language 'de' (languages: en, pl)",
    }


def test_the_catalog_has_what_the_browser_reads() -> None:
    polish = web_catalog("pl")
    assert polish["languages"] == {"en": "English", "pl": "Polski"}
    assert polish["plural_forms"] == ["one", "few", "many"]
    assert polish["cards"]["T:wild"] == "tęczowy ogon"
    assert polish["colours"]["green"]["letter"] == "Z"
    assert set(polish["symbols"]) == set(polish["colours"])


def test_every_asset_is_served_by_the_package_and_nothing_comes_from_elsewhere() -> None:
    files = [p for p in STATIC.rglob("*") if p.is_file()]
    names = {p.relative_to(STATIC).as_posix() for p in files}
    assert {"index.html", "js/app.js", "js/i18n.js", "css/hisss.css"} <= names
    page = (STATIC / "index.html").read_text("utf-8")
    for link in re.findall(r'(?:src|href)="([^"]+)"', page):
        if link.startswith("#") or link == "/":
            continue
        assert link.startswith("/static/"), link
        assert link.removeprefix("/static/") in names, link
    for name, source in scripts().items():
        assert "innerHTML" not in source, f"{name}: build elements, do not parse HTML"
        for module in re.findall(r'from "([^"]+)"', source):
            assert module.startswith("./") and module[2:] in {p.name for p in files}, module
    for path in files:
        if path.suffix in {".html", ".js", ".css", ".svg"}:
            text = path.read_text("utf-8").replace('"http://www.w3.org/2000/svg"', "")
            assert not re.search(r"https?://|(?:src|href|url)\(?=?\"?//", text), path.name
            assert "@import" not in text and "@font-face" not in text, path.name
