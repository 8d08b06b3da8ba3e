"""The hand variant in real Chromium: a whole online game with hands against a bot from the first
screen, played with the mouse and the keyboard; two people with hands on one device, each hand
face down until its player says they hold the device, on a phone; axe-core on the new parts.
Screenshots of each are saved for review."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from support.axe import assert_accessible
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

HANDS_LABEL = "Play with hands: each player holds cards hidden from the others"


def hand_cards(page: Page) -> list[str]:
    """The cards of the hand the hand panel shows, left to right."""
    cards: list[str] = page.locator(".hand .hand-choice").evaluate_all(
        "bs => bs.map(b => b.dataset.card)"
    )
    return cards


def started(page: Page) -> str:
    """The code of the game the first screen has just started, once its page is connected."""
    page.wait_for_url(re.compile(r"/g/[A-Z0-9]+$"))
    wait_connected(page)
    return page.url.rsplit("/", 1)[1]


def play_a_card(page: Page, *, keyboard: bool = False) -> None:
    """Choose the first card that can be played, then its first place; by mouse or keyboard."""
    before = version(page)
    card = page.locator(".hand .hand-choice.playable").first
    if keyboard:
        card.focus()
        page.keyboard.press("Enter")
        ghost = page.locator(".table-area .ghost").first
        expect(ghost).to_be_focused()
        page.keyboard.press("Enter")
    else:
        card.click()
        page.locator(".table-area .ghost").first.click()
    wait_changed(page, before)


def test_a_whole_online_game_with_hands_against_a_bot(
    server: Server, browser: Browser, screenshot_dir: Path
) -> None:
    watch = Watch()
    context = new_context(browser, watch, DESKTOP, audit=True)
    page = open_page(context, watch, server.url + "/")
    open_ways(page)
    # Online with friends: the same options, here with the hands face up for teaching.
    create = page.locator("form.create")
    create.get_by_label(HANDS_LABEL).check()
    create.get_by_label("Cards in each hand").select_option("2")
    create.get_by_label("Hands face up, seen by all (for teaching)").check()
    create.get_by_role("button", name="Create the game").click()
    created = page.locator(".created .game-code").inner_text()
    rules = server.get(f"/api/games/{created}")["rules"]
    assert rules["hand_size"] == 2 and rules["hands_seen_by_all"] is True
    quick = page.locator(".quick")
    size = quick.get_by_label("Cards in each hand")
    expect(size).to_be_disabled()
    quick.get_by_label(HANDS_LABEL).check()
    expect(size).to_be_enabled()
    expect(size).to_have_value("3")  # suggested when the variant is chosen
    assert_accessible(page, "the first screen with the hand options")
    quick.get_by_label("Opponents").select_option("1")
    quick.get_by_label("Their level").select_option("medium")
    quick.get_by_label("Bot speed").select_option("fast")
    quick.get_by_role("button", name="Play").click()
    code = started(page)
    summary = server.get(f"/api/games/{code}")
    assert summary["rules"]["hand_size"] == 3 and not summary["rules"]["hands_seen_by_all"]
    assert wait_my_turn_or_end(page)
    expect(page.locator(".turn-status")).to_contain_text("play a card from your hand")
    open_menu(page)
    page.get_by_role("button", name="Rules").click()  # the rules speak of this game's hands
    rules = page.locator("dialog.rules-dialog")
    expect(rules).to_contain_text("each player holds 3 cards that only they see")
    expect(rules).not_to_contain_text("there are no hands")
    rules.get_by_role("button", name="Look at the table").click()
    cards = hand_cards(page)
    assert len(cards) == 3
    # Sorted by colour: the colour of each card's first half never goes back in the rainbow.
    order = ["red", "orange", "yellow", "green", "blue", "purple", "wild"]
    firsts = [order.index(re.split(r"[:-]", c)[1]) for c in cards]
    assert firsts == sorted(firsts), cards
    # Every opponent's hand size is shown, never its cards.
    expect(page.locator(".seat[data-seat='2'] .seat-hand-size")).to_have_text("3 cards in hand")
    assert page.locator(".seat .hand-shown").count() == 0
    # The marked cards are those some placement takes; the others cannot be chosen.
    playable = page.locator(".hand .hand-choice.playable")
    assert playable.count() >= 1
    for button in page.locator(".hand .hand-choice:not(.playable)").all():
        expect(button).to_be_disabled()
    playable.first.click()
    expect(playable.first).to_have_attribute("aria-pressed", "true")
    assert page.locator(".table-area .ghost").count() >= 1
    assert_accessible(page, "the game page, a card of the hand chosen")
    shot(page, screenshot_dir, "hands-chosen-desktop")
    before = version(page)
    page.locator(".table-area .ghost").first.click()
    wait_changed(page, before)
    steps = 1
    while wait_my_turn_or_end(page):
        play_a_card(page, keyboard=steps % 2 == 1)
        steps += 1
        if steps == 8:
            shot(page, screenshot_dir, "hands-mid-game-desktop")
        assert steps < 60, "the game does not end"
    assert phase(page) == "over"
    expect(page.locator("dialog.end-screen")).to_be_visible()
    result = server.get(f"/api/games/{code}")["result"]
    assert (
        sum(result["cards"])
        + sum(len(s.split()) for s in server.get(f"/api/games/{code}/state")["table"])
        == 50
    )
    shot(page, screenshot_dir, "hands-end-desktop")
    # The replay of the game shows every hand.
    replay = open_page(context, watch, server.url + f"/g/{code}?view=replay")
    replay.wait_for_selector(".replay[data-step]")
    expect(replay.locator(".seat-hand-size").first).to_be_visible()
    assert_accessible(replay, "the replay of a game with hands")
    watch.check(server)
    context.close()


def test_two_people_with_hands_on_one_phone_confirm_they_hold_it(
    server: Server, browser: Browser, screenshot_dir: Path
) -> None:
    watch = Watch()
    context = new_context(browser, watch, PHONE, touch=True, audit=True)
    page = open_page(context, watch, server.url + "/")
    open_ways(page)
    device = page.locator(".device-form")
    device.get_by_label("Player 1").fill("Ala")
    device.get_by_label("Player 2").fill("Olek")
    device.get_by_label(HANDS_LABEL).check()
    device.get_by_role("button", name="Start the game").click()
    code = started(page)
    assert server.get(f"/api/games/{code}")["rules"]["hand_size"] == 3
    seen: set[str] = set()
    steps = 0
    while wait_my_turn_or_end(page):
        text = page.locator(".turn-status").inner_text()
        name = "Ala" if text.startswith("Ala") else "Olek" if text.startswith("Olek") else ""
        assert name, f"the banner names the person whose turn it is: {text!r}"
        # Face down until the player says they hold the device.
        assert page.locator(".hand .hand-choice").count() == 0
        reveal = page.get_by_role("button", name=f"I am {name}: show my hand")
        expect(reveal).to_be_visible()
        if steps == 0:
            assert_accessible(page, "a hand face down on one device")
            shot(page, screenshot_dir, "hands-face-down-phone")
        reveal.click()
        expect(page.locator(".hand .hand-title")).to_have_text(f"{name}'s hand")
        assert len(hand_cards(page)) >= 1
        if steps == 1:
            assert_accessible(page, "a hand shown on one device")
            assert_no_sideways_scroll(page)
            shot(page, screenshot_dir, "hands-shown-phone")
        seen.add(name)
        play_a_card(page)
        steps += 1
        assert steps < 60, "the game does not end"
    assert seen == {"Ala", "Olek"}
    expect(page.locator("dialog.end-screen")).to_be_visible()
    shot(page, screenshot_dir, "hands-end-phone")
    watch.check(server)
    context.close()


def test_hands_face_up_for_teaching_show_every_hand(
    server: Server, browser: Browser, screenshot_dir: Path
) -> None:
    game = server.create(
        {"kind": "person", "name": "Ala"},
        {"kind": "bot", "level": "easy"},
        set={"hand_size": 3, "hands_seen_by_all": True},
    )
    watch = Watch()
    context = new_context(browser, watch, DESKTOP, audit=True)
    page = open_page(context, watch, server.url + game["seats"][0]["link"])
    wait_connected(page)
    assert wait_my_turn_or_end(page)
    state = server.get(f"/api/games/{game['code']}/state")  # as a spectator sees it
    bot_hand = page.locator(".seat[data-seat='2'] .seat-hand .hand-shown")
    expect(bot_hand).to_have_count(3)
    shown = bot_hand.evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert sorted(shown) == sorted(state["hands"][1])
    assert_accessible(page, "a game with hands face up")
    shot(page, screenshot_dir, "hands-face-up-desktop")
    watch.check(server)
    context.close()


def test_levels_whose_bots_do_not_play_hands_are_not_offered_with_hands(
    server: Server, browser: Browser
) -> None:
    # The gentle bot does not play the hand variant: with hands chosen, every form of the first
    # screen offers only the levels that do, and a game starts where the server used to refuse.
    watch = Watch()
    context = new_context(browser, watch, DESKTOP)
    page = open_page(context, watch, server.url + "/")
    open_ways(page)
    options = server.get("/api/options")["levels"]
    assert [level["name"] for level in options if not level["hands"]] == ["gentle"]

    create = page.locator("form.create")
    seat_level = create.locator(".seat-level").first
    seat_level.select_option("gentle")
    create.get_by_label(HANDS_LABEL).check()
    expect(create.locator(".seat-level").first).to_have_value("easy")
    expect(create.locator(".seat-level option[value=gentle]").first).to_be_disabled()
    create.get_by_role("button", name="Create the game").click()
    created = page.locator(".created .game-code").inner_text()
    bots = [s for s in server.get(f"/api/games/{created}")["seats"] if s["kind"] == "bot"]
    assert [s["level"] for s in bots] == ["easy"]

    page = open_page(context, watch, server.url + "/")

    open_ways(page)
    quick = page.locator("form.quick")
    level = quick.locator(".quick-level")
    level.select_option("gentle")
    quick.get_by_label(HANDS_LABEL).check()
    expect(level).to_have_value("easy")
    expect(level.locator("option[value=gentle]")).to_be_disabled()
    quick.get_by_label(HANDS_LABEL).uncheck()
    expect(level.locator("option[value=gentle]")).to_be_enabled()
    level.select_option("gentle")  # kept as the level of the bots on one device below

    device = page.locator(".device-form")
    device.locator(".device-bots").select_option("1")
    device.get_by_label(HANDS_LABEL).check()
    device.get_by_role("button", name="Start the game").click()
    code = started(page)
    bots = [s for s in server.get(f"/api/games/{code}")["seats"] if s["kind"] == "bot"]
    assert [s["level"] for s in bots] == ["easy"]
    watch.check(server)
    context.close()
