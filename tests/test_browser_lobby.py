"""The lobby and the layout in real Chromium: seat links with copy buttons, joining by code and
by link, watching, the lists of games, and crowded tables on a phone and a desktop."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from hisss.record import GameRecord, replay_steps
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
    shot,
    wait_connected,
)

pytest_plugins = ["support.browser"]

ROOT = Path(__file__).resolve().parent.parent


def test_create_share_join_by_code_and_by_link_and_watch(server: Server, browser: Browser) -> None:
    watch = Watch()
    host = new_context(browser, watch, DESKTOP)
    host.grant_permissions(["clipboard-read", "clipboard-write"])
    lobby = open_page(host, watch, server.url + "/")
    open_ways(lobby)
    rows = lobby.locator(".seat-row")
    lobby.locator(".seat-name-input").first.fill("Ala")
    lobby.get_by_role("button", name="Add a seat").click()
    lobby.get_by_role("button", name="Add a seat").click()
    expect(rows).to_have_count(4)
    rows.nth(1).locator(".seat-kind").select_option("person")
    rows.nth(1).locator(".seat-open").check()
    rows.nth(2).locator(".seat-kind").select_option("person")
    rows.nth(2).locator(".seat-name-input").fill("Ewa")
    rows.nth(3).locator(".seat-level").select_option("gentle")
    lobby.get_by_label("Deck").select_option("double")
    lobby.get_by_label("Rules").select_option("pl")
    lobby.get_by_label("List it in the lobby").check()
    lobby.get_by_role("button", name="Create the game").click()
    code = lobby.locator(".game-code").inner_text()
    summary = server.get(f"/api/games/{code}")
    assert summary["deck"] == "double" and summary["preset"] == "pl"
    assert [s["kind"] for s in summary["seats"]] == ["person", "person", "person", "bot"]
    assert summary["seats"][3]["level"] == "gentle" and summary["open_seats"] == [2]
    # Each person's link, ready to copy; the open seat's link joins whoever opens it.
    ewa_row = lobby.locator(".share-row[data-seat='3']")
    ewa_link = ewa_row.locator(".share-link").inner_text()
    assert f"/g/{code}#seat=3&token=" in ewa_link
    ewa_row.get_by_role("button", name="Copy").click()
    expect(lobby.locator("#toast")).to_have_text("Copied")
    assert lobby.evaluate("navigator.clipboard.readText()") == ewa_link
    open_link = lobby.locator(".share-row[data-seat='2'] .share-link").inner_text()
    assert open_link.endswith(f"/g/{code}#join=2")
    # The game waits for its open seat, and says so in the lists.
    expect(lobby.locator(f".list-open .game-item[data-code='{code}']")).to_be_visible(timeout=8000)
    # Olek joins by typing the code in his own browser.
    guest = new_context(browser, watch, PHONE)
    olek = open_page(guest, watch, server.url + "/")
    open_ways(olek)
    olek.get_by_label("Code or link").fill(code.lower())
    olek.locator(".join").get_by_label("Your name").fill("Olek")
    olek.locator(".join-button").click()
    olek.wait_for_url(f"**/g/{code}")
    wait_connected(olek)
    expect(olek.locator(".seat.mine .seat-name")).to_have_text("Olek")
    assert server.get(f"/api/games/{code}")["status"] == "running"
    # Ewa opens her link; a third browser pastes the watch link and only watches.
    ewa = new_context(browser, watch, DESKTOP)
    page = open_page(ewa, watch, ewa_link)
    wait_connected(page)
    expect(page.locator(".seat.mine .seat-name")).to_have_text("Ewa")
    viewer = new_context(browser, watch, DESKTOP)
    spectator = open_page(viewer, watch, server.url + "/")
    open_ways(spectator)
    spectator.get_by_label("Code or link").fill(f"{server.url}/g/{code}")
    spectator.get_by_role("button", name="Watch").click()
    wait_connected(spectator)
    expect(spectator.locator(".notice")).to_contain_text("You are watching")
    assert spectator.locator(".seat.mine").count() == 0
    assert spectator.locator(".deck-active").count() == 0
    # A code that names no game says so, and offers the way back.
    lost = open_page(viewer, watch, server.url + "/g/NOSUCH")
    expect(lost.locator(".notice")).to_contain_text("There is no game with the code NOSUCH")
    lost.get_by_role("link", name="Back to the lobby").first.click()
    lost.wait_for_selector(".lobby")
    watch.check(server)
    for context in (host, guest, ewa, viewer):
        context.close()


def test_an_open_seat_link_asks_for_a_name(server: Server, browser: Browser) -> None:
    game = server.create({"kind": "person", "name": "Ala"}, {"kind": "person", "open": True})
    watch = Watch()
    context = new_context(browser, watch, PHONE)
    page = open_page(context, watch, server.url + game["seats"][1]["link"])
    expect(page.locator(".join-form h1")).to_contain_text("seat 2")
    page.get_by_label("Your name").fill("Zosia")
    page.get_by_role("button", name="Join", exact=True).click()
    wait_connected(page)
    expect(page.locator(".seat.mine .seat-name")).to_have_text("Zosia")
    assert "join" not in page.url
    # Someone else opening the same link later can only watch: the seat is taken.
    other = new_context(browser, watch, PHONE)
    late = open_page(other, watch, server.url + game["seats"][1]["link"])
    late.get_by_role("button", name="Join", exact=True).click()
    expect(late.locator(".join-form .form-error")).to_contain_text("taken")
    watch.check(server, expected=("status of 409",))
    context.close()
    other.close()


def test_an_open_seat_nobody_takes_goes_to_a_bot(server: Server, browser: Browser) -> None:
    game = server.create({"kind": "person", "name": "Ala"}, {"kind": "person", "open": True})
    watch = Watch()
    context = new_context(browser, watch, DESKTOP)
    page = open_page(context, watch, server.url + game["seats"][0]["link"])
    wait_connected(page)
    expect(page.locator(".hand h2")).to_have_text("Waiting for players")
    expect(page.locator(".hand .share-link")).to_contain_text(f"/g/{game['code']}#join=2")
    seat = page.locator(".seat[data-seat='2']")
    seat.get_by_role("button", name="Hand the seat to a bot").click(timeout=5000)
    expect(page.locator(".turn-status")).to_contain_text("Your turn")
    expect(seat.locator(".seat-tags")).to_contain_text("bot, medium")
    assert server.get(f"/api/games/{game['code']}")["status"] == "running"
    watch.check(server)
    context.close()


def _crowded_replay(server: Server) -> tuple[str, int]:
    """A golden four-player game on the double deck, and its step with the most cards out."""
    text = (ROOT / "tests" / "golden" / "unforced-snakes-4p-double.json").read_text()
    stored: dict[str, Any] = server.post_text("/api/replays", text)
    best, most = 0, -1
    for number, state in enumerate(replay_steps(GameRecord.from_json(text)), 1):
        cards = sum(len(snake.cards) for snake in state.table) + len(state.table)
        if cards > most:
            best, most = number, cards
    return stored["id"], best


#: No card is changing size (a table's cards grow or shrink smoothly to their new size).
SETTLED = """() => document.getAnimations().every(
  a => a.playState !== 'running' || a.effect.getTiming().iterations === Infinity)"""


def _no_sideways_scroll(page: Page) -> None:
    page.wait_for_function(SETTLED)
    assert_no_sideways_scroll(page)
    overflow = page.evaluate(
        """() => {
        const area = document.querySelector('.table-scroll').getBoundingClientRect();
        return [...document.querySelectorAll('.table-area .snake-row > .card')]
          .filter(card => card.getBoundingClientRect().right > area.right + 1).length;
      }"""
    )
    if overflow:
        # Every snake is one row: past the smallest card the rows scroll sideways inside the
        # table, which says so, and never the page.
        scrolls = page.evaluate(
            "() => { const s = document.querySelector('.table-scroll');"
            " return s.scrollWidth > s.clientWidth; }"
        )
        assert scrolls, f"{overflow} cards stick out of a table that does not scroll"
        expect(page.locator(".table-area.table-wide .table-more")).to_be_visible()


def test_a_crowded_table_fits_a_phone_and_a_desktop(
    server: Server, browser: Browser, screenshot_dir: Path
) -> None:
    replay, step = _crowded_replay(server)
    watch = Watch()
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        context = new_context(browser, watch, viewport)
        page = open_page(context, watch, server.url + f"/replay/{replay}?step={step}")
        page.wait_for_selector(f".replay[data-step='{step}']")
        assert page.locator(".table-area .snake[data-snake]").count() >= 5
        _no_sideways_scroll(page)
        page.locator(".table-area").scroll_into_view_if_needed()
        shot(page, screenshot_dir, f"crowded-table-{name}")
        open_menu(page)
        page.locator("#cb-toggle").click()
        expect(page.locator(".table-area .cb-mark").first).to_be_visible()
        _no_sideways_scroll(page)
        shot(page, screenshot_dir, f"crowded-table-{name}-colour-blind")
        context.close()
    watch.check(server)
