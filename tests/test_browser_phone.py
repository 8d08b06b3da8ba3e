"""The web game on phones, tablets and a desktop, in real Chromium: at 320x568, 360x740,
390x844 (touch), 844x390 (a phone on its side), 768x1024 and 1280x800 a whole game against four
bots, its seats named with the longest names allowed (no spaces, emoji sequences, right to
left, Chinese), and a game with five cards in hand. At each size: the table starts in the top
third and takes most of the screen, nothing is wider than the screen, the turn is one line, the
snakes are rows, the deck and the hand sit along the bottom edge with every card and Hint in
sight, and the end screen waits for the last placement's motion. One rematch moves the first
turn to the next seat. Screenshots of every phase at every size are saved for review."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, WebSocketRoute, expect

from support.browser import (
    Server,
    Watch,
    click_turn,
    new_context,
    open_menu,
    open_page,
    phase,
    shot,
    wait_connected,
    wait_my_turn_or_end,
)

pytest_plugins = ["support.browser"]

#: The sizes: width, height, and whether the screen is touched.
SIZES = [
    (320, 568, True),
    (360, 740, True),
    (390, 844, True),
    (844, 390, True),
    (768, 1024, True),
    (1280, 800, False),
]
#: 40 letters without a space: the longest name the server takes.
LONG = "Wolfeschlegelsteinhausenbergerdorffvoral"
#: Names as long as names get, of every kind of text: shown in place of the seats' names.
LONG_NAMES = [
    LONG,
    "👩‍👩‍👧‍👦" * 40,  # 40 emoji joined from four each
    "سلام" * 10,  # right to left
    "龍" * 40,  # Chinese, each letter as wide as two
    "שלום" * 10,
]
#: An 80-letter title without a space, the longest the server takes.
LONG_TITLE = "Snakes" * 13 + "Hs"

#: Elements wider than the window, or sticking out of it on the right.
TOO_WIDE = """() => [...document.querySelectorAll('body *')]
  .filter(e => !e.closest('.visually-hidden, .fly-layer, dialog:not([open]), .table-scroll'))
  .filter(e => { const r = e.getBoundingClientRect();
                 return r.width > innerWidth + 0.5 || r.right > innerWidth + 0.5; })
  .map(e => e.tagName + '.' + e.className).slice(0, 5)"""

#: Where the parts of the game page are: the table, the dock, the turn line, the snakes' rows.
LAYOUT = """() => {
  const box = (s) => { const e = document.querySelector(s); if (!e) return null;
                       const r = e.getBoundingClientRect();
                       return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                               height: r.height, width: r.width}; };
  const status = document.querySelector('.turn-status');
  // A row is one line when one horizontal line crosses all its cards and places.
  const rows = [...document.querySelectorAll('.table-area .snake-row')].map(row => {
    const boxes = [...row.children].map(c => c.getBoundingClientRect());
    return Math.max(...boxes.map(b => b.top)) < Math.min(...boxes.map(b => b.bottom)) ? 1 : 2;
  });
  return {table: box('.table-area'), dock: box('.game .hand'), status: box('.turn-status'),
          statusLine: parseFloat(getComputedStyle(status).fontSize),
          rows, scrollWidth: document.documentElement.scrollWidth,
          scrollY: window.scrollY};
}"""


def sized(size: tuple[int, int, bool]) -> str:
    return f"{size[0]}x{size[1]}"


def rename(names: list[str]) -> Any:
    """A websocket route that shows the seats under ``names`` (the page draws what it gets)."""

    def change(message: str | bytes) -> str | bytes:
        if not isinstance(message, str) or '"seats"' not in message:
            return message
        data = json.loads(message)
        for seat, name in zip(data.get("seats") or [], names, strict=False):
            if isinstance(seat, dict) and "name" in seat:
                seat["name"] = name
        return json.dumps(data)

    def route(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()
        upstream.on_message(lambda message: ws.send(change(message)))
        ws.on_message(upstream.send)

    return route


def game_page(context: BrowserContext, watch: Watch, url: str, names: list[str]) -> Page:
    """The game at ``url`` in a new tab whose seats show ``names``."""
    page = context.new_page()
    page.route_web_socket("**/ws/games/*", rename(names))
    page.on("pageerror", lambda error: watch.errors.append(str(error)))
    page.goto(url)
    page.wait_for_selector("body[data-ready='yes']")
    wait_connected(page)
    return page


#: Nothing is moving or changing size (the glow of the places to play goes on for ever).
SETTLED = """() => document.getAnimations().every(
  a => a.playState !== 'running' || a.effect.getTiming().iterations === Infinity)"""


def check_frame(
    page: Page, size: tuple[int, int, bool], where: str, shots: tuple[Path, str] | None = None
) -> dict[str, Any]:
    """The frame of the game at ``size``, once still: saved to ``shots`` (a folder and a name),
    checked, and returned for more checks."""
    width, height, _touch = size
    page.wait_for_function(SETTLED)
    if shots is not None:
        shot(page, *shots)
    wide = page.evaluate(TOO_WIDE)
    assert not wide, f"{where} at {sized(size)}: wider than the screen: {wide}"
    layout: dict[str, Any] = page.evaluate(LAYOUT)
    assert layout["scrollWidth"] <= width, f"{where}: the page is {layout['scrollWidth']} px wide"
    table, dock, status = layout["table"], layout["dock"], layout["status"]
    assert table["top"] <= height / 3, f"{where}: the table starts at y={table['top']}"
    # Most of the screen: the table and the dock under it are the game's part.
    share = table["height"] / height
    least = 0.4 if height > width else 0.45
    assert share >= least, f"{where}: the table takes {share:.0%} of the height"
    assert dock["bottom"] <= height + 0.5 and dock["bottom"] >= height - 24, (
        f"{where}: the dock ends at y={dock['bottom']} of {height}"
    )
    assert dock["top"] >= table["bottom"] - 0.5, f"{where}: the dock is not under the table"
    assert status["height"] <= 2.2 * layout["statusLine"], f"{where}: the turn takes two lines"
    assert all(n == 1 for n in layout["rows"]), f"{where}: a snake breaks: {layout['rows']}"
    assert layout["scrollY"] == 0, f"{where}: the page scrolled"
    return layout


#: The number of lines the end dialog's title takes.
TITLE_LINES = """() => {
  const range = document.createRange();
  range.selectNodeContents(document.querySelector('.end-screen h2'));
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
}"""


def check_hand(page: Page, size: tuple[int, int, bool]) -> None:
    """Every card of the hand, and Hint, in sight without scrolling."""
    width, height, _ = size
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('.hand .hand-choice, .hand .hint-button')]
             .map(e => { const r = e.getBoundingClientRect();
                         return [e.className, r.left, r.top, r.right, r.bottom]; })"""
    )
    assert len(boxes) == 6, f"five cards and Hint: {boxes}"
    for name, left, top, right, bottom in boxes:
        assert left >= 0 and top >= 0 and right <= width + 0.5 and bottom <= height + 0.5, (
            f"{name} at ({left}, {top}, {right}, {bottom}) is out of a {sized(size)} screen"
        )


@pytest.mark.parametrize("size", SIZES, ids=sized)
def test_a_whole_game_at_every_size(
    server: Server, browser: Browser, screenshot_dir: Path, size: tuple[int, int, bool]
) -> None:
    width, height, touch = size
    tag = sized(size)
    watch = Watch()
    context = new_context(browser, watch, {"width": width, "height": height}, touch=touch)
    lobby = open_page(context, watch, server.url + "/")
    assert lobby.evaluate(TOO_WIDE) == [], "the first screen is wider than the screen"
    shot(lobby, screenshot_dir, f"phone-{tag}-1-first-screen")
    game = server.create(
        {"kind": "person", "name": LONG},
        *[{"kind": "bot", "level": "easy"}] * 4,
        pace="fast",
        title=LONG_TITLE,
    )
    page = game_page(context, watch, server.url + game["seats"][0]["link"], LONG_NAMES)
    lobby.close()
    assert wait_my_turn_or_end(page)
    assert phase(page) == "draw"
    check_frame(page, size, "drawing", (screenshot_dir, f"phone-{tag}-2-draw"))
    # The whole name shows on focus (and on hover): the seat's tile holds it.
    expect(page.locator(".seat[data-seat='2'] .seat-head")).to_have_attribute(
        "data-full", LONG_NAMES[1]
    )
    click_turn(page)
    check_frame(page, size, "placing", (screenshot_dir, f"phone-{tag}-3-place"))
    open_menu(page)
    expect(page.locator("#menu .menu-code")).to_contain_text(game["code"])
    assert page.evaluate(TOO_WIDE) == [], "the open menu is wider than the screen"
    shot(page, screenshot_dir, f"phone-{tag}-4-menu")
    page.keyboard.press("Escape")
    expect(page.locator("#menu")).to_be_hidden()
    steps = 1
    late = False
    while wait_my_turn_or_end(page):
        click_turn(page)
        steps += 1
        if not late and steps >= 8 and phase(page) == "place":
            check_frame(page, size, "late in the game", (screenshot_dir, f"phone-{tag}-5-late"))
            late = True
        assert steps < 200, "the game does not end"
    # The end screen waits for the last placement's slide, or its Hisss! and flying cards.
    page.wait_for_selector(".game[data-over-at]")
    end = page.locator("dialog.end-screen")
    expect(end).to_be_visible()
    last = server.get(f"/api/games/{game['code']}/state")["last_event"]
    over_at = float(page.locator(".game").get_attribute("data-over-at") or 0)
    end_at = float(page.locator(".game").get_attribute("data-end-at") or 0)
    least = 1800 if last["hisss"] else 600
    assert end_at - over_at >= least, f"the end opened {end_at - over_at} ms after the last step"
    assert not page.evaluate("!!document.querySelector('.hisss-banner.show')")
    expect(end.locator("h2")).to_be_visible()
    # A long name is cut in the title (whole in its tooltip and for screen readers): before,
    # two names of 40 letters made a title of nine lines that pushed the buttons off a phone.
    title_lines = page.evaluate(TITLE_LINES)
    assert title_lines <= 5, f"{tag}: the end title takes {title_lines} lines"
    assert page.evaluate(TOO_WIDE) == [], "the end screen is wider than the screen"
    shot(page, screenshot_dir, f"phone-{tag}-6-end")
    # Escape, or the button, leaves the final table in sight and the focus on the way back.
    page.keyboard.press("Escape")
    expect(end).to_be_hidden()
    expect(page.locator(".end-show")).to_be_focused()
    check_frame(page, size, "the final table", (screenshot_dir, f"phone-{tag}-7-final-table"))
    taken = page.locator(".seat .pit-button")
    if taken.count():
        taken.first.click()
        expect(page.locator("dialog.pit-dialog .mini-snake").first).to_be_visible()
        assert page.evaluate(TOO_WIDE) == [], "the pit's dialog is wider than the screen"
        shot(page, screenshot_dir, f"phone-{tag}-8-pit")
        page.keyboard.press("Escape")
    watch.check(server)
    context.close()


@pytest.mark.parametrize("size", SIZES, ids=sized)
def test_five_cards_in_hand_at_every_size(
    server: Server, browser: Browser, screenshot_dir: Path, size: tuple[int, int, bool]
) -> None:
    width, height, touch = size
    tag = sized(size)
    watch = Watch()
    context = new_context(browser, watch, {"width": width, "height": height}, touch=touch)
    game = server.create(
        {"kind": "person", "name": LONG},
        *[{"kind": "bot", "level": "easy"}] * 4,
        pace="fast",
        set={"hand_size": 5},
    )
    page = game_page(context, watch, server.url + game["seats"][0]["link"], LONG_NAMES)
    assert wait_my_turn_or_end(page)
    check_frame(page, size, "the hand", (screenshot_dir, f"phone-{tag}-hand-1-choose"))
    check_hand(page, size)
    page.locator(".hand-choice.playable").first.click()
    page.wait_for_selector(".ghost")
    check_frame(page, size, "a card chosen", (screenshot_dir, f"phone-{tag}-hand-2-chosen"))
    check_hand(page, size)
    watch.check(server)
    context.close()


def test_the_lobby_cuts_long_titles_and_names(
    server: Server, browser: Browser, screenshot_dir: Path
) -> None:
    """A public game named with the longest title and names widens no phone's lobby."""
    code = server.create(
        {"kind": "person", "name": LONG},
        {"kind": "person", "name": "龍" * 40, "open": True},
        title=LONG_TITLE,
        public=True,
    )["code"]
    for size in SIZES:
        watch = Watch()
        context = new_context(browser, watch, {"width": size[0], "height": size[1]}, touch=size[2])
        page = open_page(context, watch, server.url + "/")
        item = page.locator(f".game-item[data-code='{code}']")
        expect(item).to_be_visible()
        assert page.evaluate(TOO_WIDE) == [], f"the lobby at {sized(size)}"
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
        title = item.locator(".game-item-title")
        expect(title).to_have_attribute("title", LONG_TITLE)
        item.scroll_into_view_if_needed()
        shot(page, screenshot_dir, f"phone-{sized(size)}-lobby-list")
        watch.check(server)
        context.close()


def test_each_rematch_moves_the_first_turn_to_the_next_seat(
    server: Server, browser: Browser, screenshot_dir: Path
) -> None:
    watch = Watch()
    context = new_context(browser, watch, {"width": 390, "height": 844}, touch=True)
    game = server.create(
        {"kind": "person", "name": "Ala"}, {"kind": "bot", "level": "easy"}, pace="fast"
    )
    server.finish(game)
    page = open_page(context, watch, server.url + game["seats"][0]["link"])
    wait_connected(page)
    end = page.locator("dialog.end-screen")
    expect(end).to_be_visible()  # a page opened on a finished game shows its end at once
    end.get_by_role("button", name="Rematch").click()
    page.wait_for_url(re.compile(r"/g/(?!" + game["code"] + r")[A-Z0-9]+$"))
    wait_connected(page)
    # Ala was seat 1 and moved first; in the rematch the bot does, and Ala holds seat 2.
    expect(page.locator(".seat.mine")).to_have_attribute("data-seat", "2")
    expect(page.locator(".seat[data-seat='1'] .seat-name")).to_have_text("Bot 1 (easy)")
    code = page.url.rsplit("/", 1)[1]
    stored = json.loads(page.evaluate(f"localStorage.getItem('hisss.seat.{code}')"))
    assert stored["seat"] == 2
    first = server.get(f"/api/games/{code}/state")
    assert [s["name"] for s in first["seats"]] == ["Bot 1 (easy)", "Ala"]
    shot(page, screenshot_dir, "phone-390x844-rematch")
    watch.check(server)
    context.close()


def test_installable_and_plain_about_play_needing_the_server_offline(
    server: Server, browser: Browser, screenshot_dir: Path
) -> None:
    watch = Watch()
    context = new_context(browser, watch, {"width": 390, "height": 844}, touch=True)
    page = open_page(context, watch, server.url + "/")
    manifest = page.evaluate(
        """async () => {
             const link = document.querySelector('link[rel=manifest]');
             return (await fetch(link.href)).json(); }"""
    )
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        status = page.evaluate("async (src) => (await fetch(src)).status", icon["src"])
        assert status == 200, icon
    assert any(i.get("purpose") == "maskable" for i in manifest["icons"])
    # The worker keeps every file of the front end under its versioned name.
    page.wait_for_function("async () => !!(await navigator.serviceWorker.ready).active")
    kept = page.evaluate(
        """async () => { const names = await caches.keys();
                         const cache = await caches.open(names.find(n => n.startsWith('hisss-')));
                         return (await cache.keys()).map(r => new URL(r.url).pathname); }"""
    )
    script = page.evaluate(
        "() => new URL(document.querySelector('script[src$=\"app.js\"]').src).pathname"
    )
    assert script in kept and "/offline" in kept
    context.set_offline(True)
    page.reload()
    expect(page.locator("h1").first).to_have_text("Playing needs the server")
    expect(page.locator("section[lang='pl'] h1")).to_have_text("Do gry potrzebny jest serwer")
    assert page.evaluate(TOO_WIDE) == []
    shot(page, screenshot_dir, "phone-390x844-offline")
    page.goto(server.url + "/g/ABCDEF")  # a game's page too: play needs the server
    expect(page.locator("h1").first).to_have_text("Playing needs the server")
    context.set_offline(False)
    context.close()


def test_one_device_shows_a_hand_without_the_table_jumping(
    server: Server, browser: Browser, screenshot_dir: Path
) -> None:
    """Passing a phone round: the hand face down, then shown, keeps the table's cards as they were
    (the dock keeps its height)."""
    watch = Watch()
    context = new_context(browser, watch, {"width": 390, "height": 844}, touch=True)
    game = server.create(
        {"kind": "person", "name": "Ala"},
        {"kind": "person", "name": "Olek"},
        device=True,
        set={"hand_size": 3},
    )
    page = open_page(context, watch, server.url + game["seats"][0]["link"])
    wait_connected(page)
    page.wait_for_selector(".hand-reveal")
    page.wait_for_function(SETTLED)
    size = (
        "() => getComputedStyle(document.querySelector('.table-area')).getPropertyValue('--card-w')"
    )
    dock = "() => document.querySelector('.game .hand').getBoundingClientRect().height"
    hidden = (page.evaluate(size), page.evaluate(dock))
    shot(page, screenshot_dir, "phone-390x844-device-hand-hidden")
    page.locator(".hand-reveal").click()
    page.wait_for_selector(".hand-choice")
    page.wait_for_function(SETTLED)
    shown = (page.evaluate(size), page.evaluate(dock))
    shot(page, screenshot_dir, "phone-390x844-device-hand-shown")
    assert hidden == shown, f"face down {hidden}, shown {shown}"
    watch.check(server)
    context.close()
