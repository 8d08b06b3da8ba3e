"""Colour-blind marks agree in both front ends: every colour, drawn by the terminal game (Textual
and Rich) and by the browser game (real Chromium), carries the same letter and the same symbol, in
every language."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from hisss.core import NEW, RAINBOW, Colour, Rules
from hisss.core.cards import ALL_CARDS
from hisss.i18n import LANGUAGES, get_catalog, symbol, symbol_path
from hisss.record import Game, Seat
from hisss.tui.render import Look
from support.browser import DESKTOP, Server, Watch, new_context, open_menu, open_page, shot
from support.tui import make_app, screen_text

pytest_plugins = ["support.browser"]

#: Every colour as the catalogs key it (``wild``: the rainbow cards).
KEYS: dict[str, Colour | None] = {**{c.value: c for c in Colour}, "wild": None}
#: Each symbol's glyph by the shape the browser draws for it.
GLYPH_OF_PATH = {symbol_path(c): symbol(c) for c in KEYS.values()}

Marks = dict[str, tuple[str, str]]


async def _terminal_legend(language: str) -> Marks:
    """Each colour's letter and symbol as the terminal game's screen shows them in its legend
    (every colour's cell followed by the colour's name), with colour-blind marks on."""
    catalog = get_catalog(language)
    by_name = {catalog.colour_name(colour): key for key, colour in KEYS.items()}
    app = make_app("Ala,Ola", seed=3, language=language, colour_blind=True)
    async with app.run_test(size=(200, 40)):
        text = screen_text(app)
    title = catalog.text("legend.title")
    panel = [line.split("▊", 1)[1].strip() for line in text.splitlines() if "▊" in line]
    start = next(i for i, line in enumerate(panel) if line.startswith(title))
    end = panel.index("", start) if "" in panel[start:] else len(panel)
    cells = " ".join(panel[start:end]).removeprefix(title).split()
    marks = {}
    for cell in cells:
        letter, glyph, name = cell[0], cell[1], cell[2:]
        marks[by_name[name]] = (letter, glyph)
    return marks


def _terminal_cards(language: str) -> Marks:
    """Each colour's letter and symbol as the terminal game draws every card (Rich text)."""
    look = Look(get_catalog(language), colour_blind=True)
    marks: dict[str, set[tuple[str, str]]] = {}
    for card in ALL_CARDS:
        cells = look.card(card).plain.strip("<>")
        colours = [card.a, card.b] if card.b is not None else [card.a]
        for i, colour in enumerate(colours):
            key = "wild" if colour is None else colour.value
            marks.setdefault(key, set()).add((cells[2 * i], cells[2 * i + 1]))
    assert all(len(seen) == 1 for seen in marks.values()), marks
    return {key: next(iter(seen)) for key, seen in marks.items()}


@pytest.fixture(scope="module")
def terminal() -> dict[str, Marks]:
    """The terminal game's marks in every language (before the module's browser starts: the
    terminal game runs its own event loop)."""
    out = {}
    for language in LANGUAGES:
        legend = asyncio.run(_terminal_legend(language))
        assert legend == _terminal_cards(language), language
        out[language] = legend
    return out


def _all_on_the_table() -> str:
    """A game record in which every card of the rainbow deck lies alone on the table (free
    placement, a new snake each turn): every colour and both wild cards are in view."""
    rules = Rules(forced_placement=False)
    game = Game(rules, RAINBOW, [Seat.person("Ala"), Seat.person("Ola")], seed=5)
    game.draw()
    while not game.is_over():
        game.draw()
        game.place(NEW)
    return game.record().to_json()


READ_MARKS = """() => [...document.querySelectorAll('.table-area svg.card')].flatMap(card =>
  [...card.querySelectorAll('.cb-mark')].map(mark => ({
    card: card.dataset.card,
    colour: mark.dataset.colour,
    letter: mark.querySelector('.cb-letter').textContent,
    path: mark.querySelector('.cb-symbol').getAttribute('d'),
    shown: mark.checkVisibility(),
  })))"""


def _browser_marks(page: Page) -> Marks:
    """Each colour's letter and symbol as the page draws them on the table's cards."""
    found: list[dict[str, Any]] = page.evaluate(READ_MARKS)
    assert len(found) >= 50
    marks: dict[str, set[tuple[str, str]]] = {}
    for mark in found:
        assert mark["shown"], mark
        assert mark["colour"] in mark["card"], mark  # the mark of one of the card's colours
        glyph = GLYPH_OF_PATH.get(mark["path"], f"an unknown shape {mark['path']}")
        marks.setdefault(mark["colour"], set()).add((mark["letter"], glyph))
    assert all(len(seen) == 1 for seen in marks.values()), marks
    return {key: next(iter(seen)) for key, seen in marks.items()}


def test_every_colour_has_the_same_letter_and_symbol_in_both_front_ends(
    terminal: dict[str, Marks], server: Server, browser: Browser, screenshot_dir: Path
) -> None:
    for language, marks in terminal.items():
        assert set(marks) == set(KEYS), language
        catalog = get_catalog(language)
        for key, colour in KEYS.items():
            assert marks[key] == (catalog.colour_letter(colour), symbol(colour)), (language, key)
    uploaded = server.post_text("/api/replays", _all_on_the_table())
    watch = Watch()
    context = new_context(browser, watch, DESKTOP)
    page = open_page(context, watch, server.url + uploaded["link"])
    page.wait_for_selector(".replay[data-step='0']")
    page.keyboard.press("End")
    page.wait_for_selector(f".replay[data-step='{uploaded['steps']}']")
    expect(page.locator(".table-area .snake[data-snake]")).to_have_count(RAINBOW.size)
    open_menu(page)
    page.locator("#cb-toggle").click()
    expect(page.locator("#cb-toggle")).to_have_attribute("aria-pressed", "true")
    for language in LANGUAGES:
        page.locator("#lang").select_option(language)
        page.wait_for_function("code => document.documentElement.lang === code", arg=language)
        expect(page.locator("#lang")).to_have_value(language)
        shown = _browser_marks(page)
        assert shown == terminal[language], language
        shot(page, screenshot_dir, f"colour-marks-{language}")
    watch.check(server)
    context.close()
