"""The game as a game, in real Chromium: one click from the first screen to a game against bots
played to the end and its rematch, people taking turns on one device, motion and sound (and
neither when asked), a phone with five players late in a double-deck game, and axe-core on
every page, desktop and phone. Screenshots of each are saved for review."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from support.axe import assert_accessible
from support.browser import (
    DESKTOP,
    PHONE,
    Server,
    Watch,
    assert_no_sideways_scroll,
    click_turn,
    new_context,
    open_menu,
    open_page,
    open_ways,
    phase,
    shot,
    version,
    wait_connected,
    wait_my_turn_or_end,
)

pytest_plugins = ["support.browser"]

#: The size of a table card on a 1280x800 screen before the table took the middle (78 x 52 px).
OLD_CARD_AREA = 78 * 52
#: How much of its table the snakes fill, across or down, at least: the cards grow with the room
#: (the whole game fits the window now, so the rows share its height). How much stays free
#: depends on the deal (the longest snake, the places offered, short snakes side by side); that
#: the cards take the largest size that fits is checked by the layout's own unit tests.
FILLED = 0.5
#: How the snakes fill their table: the longest row's share of its width, the rows' share of its
#: height.
FILLING = """() => { const s = document.querySelector('.table-scroll');
  const rows = [...s.querySelectorAll('.snake-row')].map(r => r.getBoundingClientRect().width);
  const list = s.querySelector('.snakes').getBoundingClientRect();
  return [Math.max(...rows) / s.clientWidth, list.height / s.clientHeight]; }"""

#: Elements wider than the window, or sticking out of it on the right (the snakes' rows may run
#: on inside the table, which then scrolls sideways by itself).
TOO_WIDE = """() => [...document.querySelectorAll('body *')]
  .filter(e => !e.closest('.visually-hidden, .fly-layer, dialog:not([open]), .table-scroll > *'))
  .filter(e => { const r = e.getBoundingClientRect();
                 return r.width > innerWidth + 0.5 || r.right > innerWidth + 0.5; })
  .map(e => e.tagName + '.' + e.className).slice(0, 5)"""


#: No card is changing size (the glow of the places to play goes on for ever).
SETTLED = """() => document.getAnimations().every(
  a => a.playState !== 'running' || a.effect.getTiming().iterations === Infinity)"""


def claimed_since(page: Page) -> bool:
    """Whether the page has shown a snake being claimed (the Hisss! banner)."""
    return bool(page.evaluate("document.querySelector('.hisss-banner.show') !== null"))


def play_until(page: Page, done: Any, max_steps: int = 400) -> int:
    """Take the page's turns with clicks until ``done(page)`` or the end; returns the steps."""
    steps = 0
    while wait_my_turn_or_end(page) and not done(page):
        click_turn(page)
        steps += 1
        assert steps < max_steps, "the game does not end"
    return steps


def card_area(page: Page) -> float:
    """The area of a card on the table, in square pixels."""
    box = page.locator(".table-area .snake-row > .card").first.bounding_box()
    assert box is not None
    return box["width"] * box["height"]


def test_one_click_to_a_game_against_bots_its_end_and_its_rematch(
    server: Server, browser: Browser, screenshot_dir: Path
) -> None:
    watch = Watch()
    context = new_context(browser, watch, DESKTOP, audit=True)
    page = open_page(context, watch, server.url + "/")
    open_ways(page)
    assert_accessible(page, "the first screen (desktop)")
    shot(page, screenshot_dir, "first-screen-desktop")
    quick = page.locator(".quick")
    quick.get_by_label("Opponents").select_option("2")
    quick.get_by_label("Their level").select_option("easy")
    quick.get_by_label("Bot speed").select_option("fast")
    quick.get_by_role("button", name="Play").click()  # the one click
    page.wait_for_url(re.compile(r"/g/[A-Z0-9]+$"))
    wait_connected(page)
    code = page.url.rsplit("/", 1)[1]
    summary = server.get(f"/api/games/{code}")
    assert summary["public"] is False and summary["pace"] == "fast"
    assert [s["kind"] for s in summary["seats"]] == ["person", "bot", "bot"]
    assert all(s["level"] == "easy" for s in summary["seats"][1:])
    lists = server.get("/api/games")
    assert code not in [g["code"] for g in lists["running"]], "a solo game is private"
    assert wait_my_turn_or_end(page)
    expect(page.locator(".turn-status")).to_contain_text("Your turn")
    assert_accessible(page, "the game page, drawing (desktop)")
    click_turn(page)
    page.wait_for_selector(".ghost")
    assert_accessible(page, "the game page, placing (desktop)")
    # For beginners: the places that complete a snake are marked, and the expert gives a hint.
    open_menu(page)  # the game's tools are in the top bar's menu
    page.get_by_role("button", name="Beginner marks").click()
    expect(page.get_by_role("button", name="Beginner marks")).to_have_attribute(
        "aria-pressed", "true"
    )
    state = server.get(f"/api/games/{code}/state")
    marked = page.locator(".ghost-claims").evaluate_all("gs => gs.map(g => g.dataset.action)")
    assert set(marked) == set(state["claims"])
    page.get_by_role("button", name="Hint").click()
    hinted = page.locator(".ghost.hinted").first
    expect(hinted).to_be_focused()
    assert hinted.get_attribute("data-action") in state["legal"]
    expect(page.locator("#announcer")).to_contain_text("Hint: the expert would play")
    play_until(page, lambda p: version(p) > 40)
    if wait_my_turn_or_end(page) and phase(page) == "draw":
        click_turn(page)
    # Mid-game, once their size has settled: the table's cards are larger than they were, and
    # as large as the room allows (the snakes fill the table across or down).
    page.wait_for_function(SETTLED)
    area = card_area(page)
    assert area >= OLD_CARD_AREA, f"a card covers {area:.0f} px², less than {OLD_CARD_AREA}"
    across, down = page.evaluate(FILLING)
    assert max(across, down) >= FILLED, f"the snakes fill {across:.0%} across, {down:.0%} down"
    shot(page, screenshot_dir, "mid-game-desktop")
    play_until(page, claimed_since)
    if claimed_since(page):
        shot(page, screenshot_dir, "claim-desktop")
    play_until(page, lambda p: False)
    end = page.locator("dialog.end-screen")
    expect(end).to_be_visible()
    expect(page.locator(".move-log .log-entry").first).to_be_attached()
    assert page.locator(".move-log .log-claim").count() == sum(
        server.get(f"/api/games/{code}")["result"]["snakes"]
    ), "every claim is in the log of moves"
    assert_accessible(page, "the end screen (desktop)")
    shot(page, screenshot_dir, "end-desktop")
    # The rematch: the same players moved one seat round (the first turn goes to the next seat),
    # a new deal, at once (nobody else has to agree).
    end.get_by_role("button", name="Rematch").click()
    page.wait_for_url(re.compile(r"/g/(?!" + code + r")[A-Z0-9]+$"))
    wait_connected(page)
    again = page.url.rsplit("/", 1)[1]
    rematch = server.get(f"/api/games/{again}")
    assert [s["kind"] for s in rematch["seats"]] == ["bot", "bot", "person"]
    assert [s["name"] for s in rematch["seats"]] == ["Bot 1 (easy)", "Bot 2 (easy)", "Player 3"]
    expect(page.locator(".seat.mine")).to_have_attribute("data-seat", "3")
    assert rematch["pace"] == "fast" and rematch["status"] == "running"
    expect(page.locator(".seat.mine")).to_have_count(1)
    # The first screen remembers the choices of the last game against the computer.
    first = open_page(context, watch, server.url + "/")
    open_ways(first)
    expect(first.locator(".quick-opponents")).to_have_value("2")
    expect(first.locator(".quick-level")).to_have_value("easy")
    expect(first.locator(".quick .pace-select")).to_have_value("fast")
    watch.check(server)
    context.close()


def test_two_people_and_a_bot_take_turns_on_one_device(
    server: Server, browser: Browser, screenshot_dir: Path
) -> None:
    watch = Watch()
    context = new_context(browser, watch, DESKTOP, audit=True)
    page = open_page(context, watch, server.url + "/")
    open_ways(page)
    device = page.locator(".device-form")
    device.get_by_label("Player 1").fill("Ala")
    device.get_by_label("Player 2").fill("Olek")
    device.get_by_label("Bots joining in").select_option("1")
    device.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/g/[A-Z0-9]+$"))
    wait_connected(page)
    code = page.url.rsplit("/", 1)[1]
    summary = server.get(f"/api/games/{code}")
    assert [(s["kind"], s["name"]) for s in summary["seats"]][:2] == [
        ("person", "Ala"),
        ("person", "Olek"),
    ]
    assert summary["seats"][2]["kind"] == "bot"
    # No link and no token anywhere on the page: everybody is here.
    assert page.locator(".share-link").count() == 0
    expect(page.locator(".copy-watch")).to_be_hidden()
    assert "token" not in page.content()
    banner = page.locator(".turn-status")
    seen: dict[str, str] = {}
    steps = 0
    while wait_my_turn_or_end(page):
        text = banner.inner_text()
        name = "Ala" if text.startswith("Ala") else "Olek" if text.startswith("Olek") else ""
        assert name, f"the banner names the person whose turn it is: {text!r}"
        style = banner.evaluate(
            "e => [getComputedStyle(e).backgroundColor, parseFloat(getComputedStyle(e).fontSize)]"
        )
        seen.setdefault(name, style[0])
        assert style[1] >= 18, "big enough to read across a table"
        if steps == 12:
            shot(page, screenshot_dir, "pass-and-play-desktop")
            assert_accessible(page, "a game on one device")
        click_turn(page)
        steps += 1
        assert steps < 300
    assert set(seen) == {"Ala", "Olek"}, "both people played on this page"
    assert seen["Ala"] != seen["Olek"], "each person's turn in their own colour"
    end = page.locator("dialog.end-screen")
    expect(end).to_be_visible()
    end.get_by_role("button", name="Rematch").click()
    page.wait_for_url(re.compile(r"/g/(?!" + code + r")[A-Z0-9]+$"))
    wait_connected(page)
    expect(page.locator(".seat.mine")).to_have_count(2)  # both people still on this device
    watch.check(server)
    context.close()


def test_motion_and_sound_and_neither_when_asked(server: Server, browser: Browser) -> None:
    game = server.create(
        {"kind": "person", "name": "Ala"}, {"kind": "bot", "level": "medium"}, deck="double"
    )
    watch = Watch()
    lively = new_context(browser, watch, DESKTOP)
    page = open_page(lively, watch, server.url + game["seats"][0]["link"])
    wait_connected(page)
    assert wait_my_turn_or_end(page)
    click_turn(page)  # a draw: the card turns over, with a sound (never the hidden tab's chime)
    assert page.evaluate("document.documentElement.dataset.lastMotion") == "turn"
    assert page.evaluate("document.documentElement.dataset.lastSound") == "draw"
    assert "turn" not in page.evaluate("document.documentElement.dataset.soundsHeard")
    play_until(page, claimed_since)
    motions = set(page.evaluate("document.documentElement.dataset.motions").split())
    assert {"turn", "slide"} <= motions, motions
    if claimed_since(page):
        assert "claim" in motions, "the claimed snake flies to its claimer's pit"
        assert "hisss" in page.evaluate("document.documentElement.dataset.soundsHeard")
    # A player whose tab is hidden hears that it is their turn, and sees it in the title.
    page.evaluate("Object.defineProperty(document, 'hidden', {value: true, configurable: true})")
    if wait_my_turn_or_end(page):
        click_turn(page)
        if wait_my_turn_or_end(page) and phase(page) == "place":
            click_turn(page)
        if wait_my_turn_or_end(page):  # a new turn, come while the tab is hidden
            page.wait_for_function(
                "() => document.documentElement.dataset.soundsHeard.split(' ').includes('turn')"
            )
            assert page.title().startswith("Your turn")
    # The sound switch is remembered.
    open_menu(page)
    page.locator("#sound-toggle").click()
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "false")
    page.reload()
    page.wait_for_selector("body[data-ready='yes']")
    wait_connected(page)
    expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "false")
    if wait_my_turn_or_end(page):
        click_turn(page)
    assert page.evaluate("document.documentElement.dataset.sounds") is None, "muted: no sound"
    lively.close()
    # Reduced motion: the same moves, nothing moves.
    calm_game = server.create(
        {"kind": "person", "name": "Ewa"}, {"kind": "bot", "level": "medium"}, deck="double"
    )
    calm = new_context(browser, watch, DESKTOP, reduced_motion=True)
    still = open_page(calm, watch, server.url + calm_game["seats"][0]["link"])
    wait_connected(still)
    steps = play_until(still, claimed_since)
    assert steps > 2
    assert still.evaluate("document.documentElement.dataset.lastMotion") is None
    assert still.evaluate("document.getAnimations().length") == 0
    assert still.evaluate("document.documentElement.dataset.lastSound"), "sound still plays"
    watch.check(server)
    calm.close()


def test_five_players_late_in_a_double_deck_game_fit_a_phone(
    server: Server, browser: Browser, screenshot_dir: Path
) -> None:
    game = server.create(
        {"kind": "person", "name": "Aleksandra"},
        *({"kind": "bot", "level": level} for level in ("easy", "medium", "hard", "gentle")),
        deck="double",
    )
    watch = Watch()
    context = new_context(browser, watch, PHONE, touch=True, audit=True)
    page = open_page(context, watch, server.url + game["seats"][0]["link"])
    wait_connected(page)
    assert wait_my_turn_or_end(page)
    expect(page.locator(".turn-status")).to_contain_text("tap the deck")
    assert "Arrow keys" not in page.inner_text("main") and "Enter" not in page.inner_text("main")
    assert_accessible(page, "the game page, drawing (phone)")
    shot(page, screenshot_dir, "early-game-phone")

    def late(p: Page) -> bool:
        return int(p.locator(".cards-left").inner_text().split()[0]) < 25

    play_until(page, late)
    if wait_my_turn_or_end(page) and phase(page) == "draw":
        click_turn(page)
    page.wait_for_selector(".ghost")
    assert_accessible(page, "the game page, placing (phone)")
    shot(page, screenshot_dir, "late-game-phone")
    # Nothing is wider than the phone, and every seat's score is on screen.
    assert page.evaluate(TOO_WIDE) == []
    assert_no_sideways_scroll(page)
    for seat in range(1, 6):
        score = page.locator(f".seat[data-seat='{seat}'] .seat-cards")
        expect(score).to_be_visible()
        box = score.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5
    play_until(page, claimed_since)
    if claimed_since(page):
        shot(page, screenshot_dir, "claim-phone")
    play_until(page, lambda p: False)
    end = page.locator("dialog.end-screen")
    expect(end).to_be_visible()
    fits = end.evaluate("e => [e.scrollWidth, e.clientWidth, e.getBoundingClientRect().right]")
    assert fits[0] <= fits[1] and fits[2] <= PHONE["width"], f"the end screen overflows: {fits}"
    table = end.locator(".end-scores").bounding_box()
    assert table is not None and table["x"] + table["width"] <= PHONE["width"]
    assert_accessible(page, "the end screen (phone)")
    shot(page, screenshot_dir, "end-phone-five-players")
    watch.check(server)
    context.close()


def test_every_page_passes_axe_on_a_desktop_and_a_phone(
    server: Server, browser: Browser, screenshot_dir: Path
) -> None:
    waiting = server.create(
        {"kind": "person", "name": "Ala"}, {"kind": "person", "open": True}, public=True
    )
    finished = server.create(
        {"kind": "person", "name": "Ala"}, {"kind": "bot", "level": "easy"}, public=True
    )
    server.finish(finished)
    watch = Watch()
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        context = new_context(browser, watch, viewport, touch=viewport is PHONE, audit=True)
        lobby = open_page(context, watch, server.url + "/")
        open_ways(lobby)
        lobby.wait_for_selector(f".game-item[data-code='{finished['code']}']")
        assert_accessible(lobby, f"the lobby with its lists ({name})")
        assert_no_sideways_scroll(lobby)
        shot(lobby, screenshot_dir, f"first-screen-{name}")
        page = open_page(context, watch, server.url + waiting["seats"][0]["link"])
        wait_connected(page)
        expect(page.locator(".hand h2")).to_have_text("Waiting for players")
        assert_accessible(page, f"the game page, waiting for players ({name})")
        watcher = open_page(context, watch, server.url + f"/g/{finished['code']}")
        wait_connected(watcher)
        expect(watcher.locator("dialog.end-screen")).to_be_visible()
        assert_accessible(watcher, f"a finished game watched ({name})")
        watcher.locator(".end-close").click()
        open_menu(page)
        page.locator("#rules-button, .rules-button").first.click()
        expect(page.locator("dialog.rules-dialog")).to_be_visible()
        assert_accessible(page, f"the rules ({name})")
        replay = open_page(context, watch, server.url + f"/g/{finished['code']}?view=replay")
        replay.wait_for_selector(".replay[data-step]")
        assert_accessible(replay, f"the replay page ({name})")
        context.close()
    watch.check(server)


def test_a_refused_upload_names_the_turn_in_the_players_language(
    server: Server, browser: Browser, tmp_path: Path
) -> None:
    watch = Watch()
    context = new_context(browser, watch, DESKTOP, locale="pl-PL")
    page = open_page(context, watch, server.url + "/")
    open_ways(page)
    golden = Path(__file__).parent / "golden" / "classic-2p-rainbow.json"
    text = golden.read_text()
    broken = tmp_path / "zla.json"
    broken.write_text(_break_turn(text, 3), encoding="utf-8")
    page.locator(".record-file").set_input_files(broken)
    page.locator(".upload-button").click()
    error = page.locator(".upload .form-error")
    expect(error).to_contain_text("zasady nie pozwalają na ruch 3")
    assert not re.search(r"\d[LR]:|M:[a-z]+-|is illegal", error.inner_text()), "no engine notation"
    watch.check(server, expected=("status of 422",))
    context.close()


def _break_turn(text: str, turn: int) -> str:
    """The record with the placement of ``turn`` (from 1) changed to one that cannot be."""
    record = json.loads(text)
    record["turns"][turn - 1]["action"] = "9L:red"
    return json.dumps(record)
