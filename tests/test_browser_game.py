"""The game in real Chromium: a whole game against a bot with clicks, two people online (one of
them reloading) and their rematch, a stale click, and a seat handed to a bot while its player is
away."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, WebSocketRoute, expect
from websockets.sync.client import connect

from support.browser import (
    DESKTOP,
    PHONE,
    Server,
    Watch,
    assert_no_sideways_scroll,
    click_turn,
    new_context,
    open_page,
    open_ways,
    phase,
    play_with_clicks,
    pump,
    shot,
    version,
    wait_changed,
    wait_connected,
    wait_my_turn_or_end,
    whose_turn,
)
from support.waiting import wait_until

pytest_plugins = ["support.browser"]


def test_a_whole_game_against_a_bot_with_clicks(
    server: Server, browser: Browser, screenshot_dir: Path
) -> None:
    watch = Watch()
    context = new_context(browser, watch, DESKTOP)
    page = open_page(context, watch, server.url + "/")
    open_ways(page)
    shot(page, screenshot_dir, "lobby-desktop")
    page.locator(".seat-name-input").first.fill("Ala")
    page.locator(".seat-row").nth(1).locator(".seat-level").select_option("medium")
    page.get_by_role("button", name="Create the game").click()
    expect(page.locator("#created-title")).to_contain_text("is ready")
    code = page.locator(".game-code").inner_text()
    page.locator(".play-here").first.click()
    page.wait_for_url(f"**/g/{code}")
    wait_connected(page)
    motion = "getComputedStyle(document.querySelector('.deck-active')).animationName"
    assert page.evaluate(motion) == "glow"  # the deck glows, unless reduced motion is asked for
    # The token left the address bar and lives in this browser's storage for this game only.
    assert "token" not in page.url
    stored = page.evaluate(f"localStorage.getItem('hisss.seat.{code}')")
    assert json.loads(stored)["seat"] == 1

    def on_step(step: int) -> None:
        if step == 21:  # mid-game, the card drawn and its places glowing
            wait_my_turn_or_end(page)
            if phase(page) == "draw":
                click_turn(page)
            if phase(page) == "place":
                shot(page, screenshot_dir, "table-desktop")

    steps = play_with_clicks(page, on_step=on_step)
    assert steps >= 40  # 49 placements in a two-player game: about half are ours, 2 steps each
    end = page.locator("dialog.end-screen")
    expect(end).to_be_visible()
    summary = server.get(f"/api/games/{code}")
    assert summary["status"] == "finished"
    result = summary["result"]
    headline = end.locator("h2").inner_text()
    # The end speaks to the one player at the table.
    expected = {
        (1,): "You win!",
        (2,): "Bot 2 (medium) wins this time!",
        (1, 2): "You share the win with Bot 2 (medium)!",
    }
    assert headline == expected[tuple(result["winners"])]
    assert end.locator(".end-how").inner_text()
    assert end.locator(".end-how").get_attribute("data-tie-break") == (
        "yes" if result["tie_break"] else "no"
    )
    cells = end.locator(".end-scores tbody tr").first.locator("td")
    assert int(cells.first.inner_text()) == result["cards"][0]
    shot(page, screenshot_dir, "end-desktop")
    announced = page.locator("#announcer").inner_text()
    assert headline in announced
    watch.check(server)
    context.close()


def _open_seat(browser: Browser, watch: Watch, server: Server, link: str, viewport: Any) -> Page:
    context = new_context(browser, watch, viewport)
    page = open_page(context, watch, server.url + link)
    wait_connected(page)
    return page


def test_two_people_play_online_and_one_reloads(
    server: Server, browser: Browser, screenshot_dir: Path
) -> None:
    game = server.create(
        {"kind": "person", "name": "Ala"},
        {"kind": "person", "name": "Olek"},
        deck="all-pairs",
        title="Family game",
    )
    watch = Watch()
    ala = _open_seat(browser, watch, server, game["seats"][0]["link"], DESKTOP)
    olek = _open_seat(browser, watch, server, game["seats"][1]["link"], PHONE)
    expect(ala.locator(".game-title")).to_contain_text("Family game")
    reloaded = False
    phone_shot = False
    steps = 0
    while True:
        # Whoever is to act takes a step; the other page must follow by itself.
        page = whose_turn([ala, olek])
        if page is None:
            break
        click_turn(page)
        steps += 1
        if steps == 20:
            shot(olek, screenshot_dir, "table-phone-waiting")
        if steps == 31 and not reloaded:
            olek.reload()
            olek.wait_for_selector("body[data-ready='yes']")
            wait_connected(olek)
            reloaded = True
        if steps >= 34 and not phone_shot and page is olek and phase(olek) == "place":
            # Olek has drawn: his card and its glowing places, on a phone.
            olek.wait_for_selector(".ghost")
            assert_no_sideways_scroll(olek)
            shot(olek, screenshot_dir, "table-phone")
            phone_shot = True
        assert steps < 300
    assert reloaded and phone_shot
    for page in (ala, olek):
        expect(page.locator("dialog.end-screen")).to_be_visible()
    # Each reads the same result, each in their own words ("You win!" or who won).
    assert ala.locator(".end-how").inner_text() == olek.locator(".end-how").inner_text()
    assert ala.locator(".end-screen h2").inner_text() != olek.locator(".end-screen h2").inner_text()
    assert version(ala) == version(olek)
    shot(olek, screenshot_dir, "end-phone")
    # The rematch is offered to both, and starts once both have asked for it.
    ala.locator(".end-screen").get_by_role("button", name="Rematch").click()
    expect(ala.locator(".end-screen .rematch-wait")).to_contain_text("Waiting for Olek")
    assert "/g/" + game["code"] in ala.url, "Ala waits for Olek"
    expect(olek.locator(".end-screen .rematch-button")).to_be_visible()
    olek.locator(".end-screen").get_by_role("button", name="Rematch").click()
    for page in (ala, olek):
        page.wait_for_url(re.compile(r"/g/(?!" + game["code"] + r")[A-Z0-9]+$"))
        wait_connected(page)
    assert ala.url == olek.url
    expect(ala.locator(".seat.mine .seat-name")).to_have_text("Ala")
    expect(olek.locator(".seat.mine .seat-name")).to_have_text("Olek")
    watch.check(server)
    ala.context.close()
    olek.context.close()


def test_a_stale_click_gets_the_fresh_state(server: Server, browser: Browser) -> None:
    game = server.create({"kind": "person", "name": "Ala"}, {"kind": "bot", "level": "easy"})
    watch = Watch()
    context = new_context(browser, watch)
    held: list[str] = []
    hold = {"on": False}

    def route(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()

        def down(message: str | bytes) -> None:
            if hold["on"] and isinstance(message, str) and '"type":"state"' in message:
                held.append(message)  # this tab misses the news for a while
                return
            ws.send(message)

        upstream.on_message(down)
        ws.on_message(upstream.send)

    first = context.new_page()
    first.route_web_socket("**/ws/games/*", route)  # only this tab's news can be held back
    first.on("pageerror", lambda error: watch.errors.append(str(error)))
    first.goto(server.url + game["seats"][0]["link"])
    wait_connected(first)
    second = open_page(context, watch, server.url + f"/g/{game['code']}")
    wait_connected(second)
    assert wait_my_turn_or_end(first)
    shown = version(first)
    hold["on"] = True
    second.locator(".deck-active").click()  # the other tab draws
    wait_changed(second, shown)
    wait_until(lambda: held, what="the news of the draw to reach the first tab", pause=pump(first))
    hold["on"] = False
    assert held  # the first tab did not hear of it ...
    assert version(first) == shown and phase(first) == "draw"
    first.locator(".deck-active").click()  # ... again
    # The server refuses the stale draw and sends the fresh state: both tabs agree again.
    first.wait_for_function(
        "v => Number(document.querySelector('.game').dataset.version) > v", arg=shown
    )
    expect(first.locator("#toast")).to_contain_text("The table changed")
    first.wait_for_function("() => document.querySelector('.game').dataset.phase === 'place'")
    assert version(first) == version(second)
    assert first.locator(".drawn figcaption").inner_text() == (
        second.locator(".drawn figcaption").inner_text()
    )
    click_turn(first)
    watch.check(server)
    context.close()


def test_a_lost_connection_comes_back_by_itself_with_the_fresh_state(
    server: Server, browser: Browser
) -> None:
    game = server.create({"kind": "person", "name": "Ala"}, {"kind": "bot", "level": "easy"})
    watch = Watch()
    context = new_context(browser, watch)
    routes: list[tuple[WebSocketRoute, WebSocketRoute]] = []
    network = {"up": True}

    def route(ws: WebSocketRoute) -> None:
        if not network["up"]:
            ws.close(code=1011, reason="no network")
            return
        upstream = ws.connect_to_server()
        upstream.on_message(ws.send)
        ws.on_message(upstream.send)
        routes.append((ws, upstream))

    page = context.new_page()
    page.route_web_socket("**/ws/games/*", route)
    page.on("pageerror", lambda error: watch.errors.append(str(error)))
    page.goto(server.url + game["seats"][0]["link"])
    wait_connected(page)
    assert wait_my_turn_or_end(page) and phase(page) == "draw"
    shown = version(page)
    network["up"] = False
    for ws, upstream in routes:
        ws.close(code=1006, reason="network lost")
        upstream.close()
    expect(page.locator(".conn")).to_have_text("connection lost: reconnecting…")
    # Meanwhile the same seat draws from another device.
    with connect(server.url.replace("http", "ws", 1) + game["websocket"]) as other:
        other.send(json.dumps({"type": "hello", "token": game["seats"][0]["token"]}))
        while json.loads(other.recv(timeout=10))["type"] != "state":
            pass
        other.send(json.dumps({"type": "draw", "version": shown}))
        while json.loads(other.recv(timeout=10)).get("phase") != "place":
            pass
    network["up"] = True
    expect(page.locator(".conn")).to_have_text("connected", timeout=10_000)
    page.wait_for_function(
        "v => Number(document.querySelector('.game').dataset.version) > v", arg=shown
    )
    assert phase(page) == "place" and page.locator(".ghost").count() > 0
    click_turn(page)
    watch.check(server)
    context.close()


def test_an_away_seat_is_handed_to_a_bot_and_taken_back(server: Server, browser: Browser) -> None:
    game = server.create({"kind": "person", "name": "Ala"}, {"kind": "person", "name": "Olek"})
    watch = Watch()
    ala = _open_seat(browser, watch, server, game["seats"][0]["link"], DESKTOP)
    olek = _open_seat(browser, watch, server, game["seats"][1]["link"], DESKTOP)
    olek_url = olek.url
    olek_context = olek.context
    olek.close()  # Olek leaves the game
    olek_seat = ala.locator(".seat[data-seat='2']")
    expect(olek_seat.locator(".seat-tags")).to_contain_text("away")
    button = olek_seat.get_by_role("button", name="Hand the seat to a bot")
    expect(button).to_be_visible(timeout=5000)
    level = olek_seat.get_by_role("combobox")
    level.focus()
    # The behaviour under test is what a second does: a tick of the page's one-second countdown
    # passes while the list has the focus, and must not redraw the list (nothing on the page
    # changes by design, so there is no condition to wait for instead).
    ala.wait_for_timeout(1200)
    expect(level).to_be_focused()
    level.select_option("easy")
    button.click()
    expect(olek_seat.locator(".seat-tags")).to_contain_text("bot, easy")
    expect(ala.locator("#announcer")).to_contain_text("played by a bot")
    # The bot plays Olek's turns; Olek comes back and takes his seat again.
    for _ in range(2):
        assert wait_my_turn_or_end(ala)
        click_turn(ala)
        click_turn(ala)
    olek = open_page(olek_context, watch, olek_url)  # his browser remembers his seat
    wait_connected(olek)
    take = olek.get_by_role("button", name="Take my seat back")
    expect(take).to_be_visible()
    take.click()
    expect(ala.locator(".seat[data-seat='2']")).not_to_contain_text("bot, easy")
    watch.check(server)
    ala.context.close()
