"""The game for everyone, in real Chromium: a keyboard-only game with the text view and the live
region, Polish, colour-blind mode, reduced motion, and the phone and desktop layouts."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from support.browser import (
    DESKTOP,
    PHONE,
    Server,
    Watch,
    assert_no_sideways_scroll,
    new_context,
    open_menu,
    open_page,
    open_ways,
    phase,
    shot,
    version,
    wait_changed,
    wait_connected,
    wait_my_turn_or_end,
)

pytest_plugins = ["support.browser"]

POLISH_LETTERS = {"C", "P", "Ż", "Z", "N", "F", "T"}


def focused(page: Page, selector: str) -> bool:
    """Whether the focused element matches ``selector``."""
    return bool(page.evaluate("s => !!document.activeElement?.matches(s)", selector))


def tab_to(page: Page, selector: str, limit: int = 80) -> int:
    """Press Tab until an element matching ``selector`` has the focus; returns the presses."""
    for presses in range(limit):
        if focused(page, selector):
            return presses
        page.keyboard.press("Tab")
    where = page.evaluate("document.activeElement.outerHTML.slice(0, 200)")
    count = page.locator(selector).count()
    raise AssertionError(f"Tab never reached {selector} ({count} of them); at {where}")


def test_a_keyboard_only_game_with_the_text_view_and_the_live_region(
    server: Server, browser: Browser, screenshot_dir: Path
) -> None:
    game = server.create(
        {"kind": "person", "name": "Ala"}, {"kind": "bot", "level": "easy"}, deck="all-pairs"
    )
    watch = Watch()
    context = new_context(browser, watch, DESKTOP, reduced_motion=True)
    page = open_page(context, watch, server.url + game["seats"][0]["link"])
    wait_connected(page)
    # The text view is switched on from the keyboard, like everything else.
    assert focused(page, ".deck-active"), "on the player's turn the focus waits on the deck"
    tab_to(page, "#menu-button")  # the settings are in the top bar's menu
    page.keyboard.press("Enter")
    assert focused(page, "#menu button, #menu select"), "the open menu takes the focus"
    tab_to(page, "#text-toggle")
    page.keyboard.press("Enter")
    expect(page.locator("#text-toggle")).to_have_attribute("aria-pressed", "true")
    text_view = page.locator(".text-view")
    expect(text_view).not_to_have_class(re.compile("visually-hidden"))
    # The table read out as text: one line per snake, with its cards and open ends.
    snakes = page.locator(".tv-snakes li")
    expect(snakes.first).to_contain_text("snake 1: ")
    assert "open end" in snakes.first.inner_text()
    assert snakes.count() == page.locator(".table-area .snake[data-snake]").count()
    steps = 0
    used_text_controls = False
    while wait_my_turn_or_end(page):
        before = version(page)
        if phase(page) == "draw":
            tab_to(page, ".deck-active")
            page.keyboard.press("Enter")
        elif not used_text_controls:
            tab_to(page, ".tv-move")  # the text view's labelled buttons play as well
            label = page.evaluate("document.activeElement.textContent")
            assert label.startswith(("Put ", "Join ", "Start "))
            page.keyboard.press("Enter")
            used_text_controls = True
        else:
            tab_to(page, ".ghost")
            assert page.evaluate("document.activeElement.getAttribute('aria-label')")
            page.keyboard.press("Enter")
        wait_changed(page, before)
        steps += 1
        if steps == 1:
            # After a draw the focus waits on the first place for the card: no Tab needed.
            expect(page.locator("#announcer")).to_contain_text("You drew")
            wait_my_turn_or_end(page)
            assert focused(page, ".ghost"), "the focus should move to the places"
            # This browser asks for reduced motion: nothing glows, slides or shakes.
            styles = (
                "e => [getComputedStyle(e).animationName, getComputedStyle(e).transitionDuration]"
            )
            assert page.locator(".ghost").first.evaluate(styles) == ["none", "0s"]
        if steps == 2:
            expect(page.locator("#announcer")).to_contain_text("Ala: ")
            tv_status = page.locator(".tv-status").inner_text()
        if steps == 4:
            assert page.locator(".tv-status").inner_text() != tv_status  # kept up to date
    assert steps >= 40
    expect(page.locator("dialog.end-screen")).to_be_visible()
    headline = page.locator(".end-screen h2").inner_text()
    announced = page.locator("#announcer").inner_text()
    assert headline in announced
    summary = server.get(f"/api/games/{game['code']}")
    if any(summary["result"]["snakes"]):
        assert "Hisss!" in page.content()  # a claim was announced or shown
    page.keyboard.press("Escape")  # the end screen closes from the keyboard
    expect(page.locator("dialog.end-screen")).to_be_hidden()
    expect(page.locator(".tv-result")).to_contain_text(headline)
    watch.check(server)
    context.close()


def test_polish_and_colour_blind_mode(
    server: Server, browser: Browser, screenshot_dir: Path
) -> None:
    watch = Watch()
    context = new_context(browser, watch, PHONE, locale="en-GB")
    lobby = open_page(context, watch, server.url + "/")
    open_ways(lobby)
    expect(lobby.locator(".quick h2")).to_have_text("Play against the computer")
    assert_no_sideways_scroll(lobby)
    shot(lobby, screenshot_dir, "lobby-phone")
    open_menu(lobby)
    lobby.locator("#lang").select_option("pl")
    expect(lobby.locator(".quick h2")).to_have_text("Graj z komputerem")
    assert lobby.evaluate("document.documentElement.lang") == "pl"
    expect(lobby.locator(".brand")).to_have_attribute("title", "Wróć do poczekalni")
    lobby.reload()
    lobby.wait_for_selector("body[data-ready='yes']")
    expect(lobby.locator(".quick h2")).to_have_text("Graj z komputerem")  # remembered
    # A game, in Polish, with colour-blind marks on every colour.
    game = server.create({"kind": "person", "name": "Ala"}, {"kind": "bot", "level": "medium"})
    page = open_page(context, watch, server.url + game["seats"][0]["link"])
    wait_connected(page)
    expect(page.locator(".turn-status")).to_contain_text("Twój ruch")
    marks = page.locator(".table-area .cb-mark")
    assert marks.count() > 0
    expect(marks.first).to_be_hidden()
    open_menu(page)
    page.locator("#cb-toggle").click()
    expect(page.locator("#cb-toggle")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Escape")  # the menu closes, and gives the focus back to its button
    expect(page.locator("#menu")).to_be_hidden()
    assert focused(page, "#menu-button")
    expect(marks.first).to_be_visible()
    letters = set(page.locator(".table-area .cb-letter").all_text_contents())
    assert letters and letters <= POLISH_LETTERS
    page.locator(".deck-active").click()
    page.wait_for_selector(".ghost")
    expect(page.locator(".ghost .cb-mark").first).to_be_visible()
    assert_no_sideways_scroll(page)
    shot(page, screenshot_dir, "table-phone-polish-colour-blind")
    page.reload()
    page.wait_for_selector("body[data-ready='yes']")
    wait_connected(page)
    assert page.evaluate("document.documentElement.classList.contains('cb')")
    expect(page.locator(".table-area .cb-mark").first).to_be_visible()
    # Back to English: the marks carry English letters.
    open_menu(page)
    page.locator("#lang").select_option("en")
    expect(page.locator(".turn-status")).to_contain_text("Place your card")
    english = set(page.locator(".table-area .cb-letter").all_text_contents())
    assert english <= {"R", "O", "Y", "G", "B", "P", "W"}
    watch.check(server)
    context.close()
    # A browser that prefers Polish starts in Polish.
    polish = new_context(browser, watch, DESKTOP, locale="pl-PL")
    first = open_page(polish, watch, server.url + "/")
    open_ways(first)
    expect(first.locator("[data-way=create] h2")).to_have_text("Graj online ze znajomymi")
    expect(first.locator("[data-way=join] h2")).to_have_text("Dołącz do gry")
    watch.check(server)
    polish.close()
