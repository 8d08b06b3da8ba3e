"""Replays in real Chromium: a finished game stepped through with buttons and keys, its record
downloaded, and a record uploaded from the lobby and replayed."""

from __future__ import annotations

import json
import random
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from hisss.bots import make_bot
from hisss.core import Rules
from hisss.record import resolve_deck
from hisss.sim.play import play_game
from support.browser import DESKTOP, PHONE, Server, Watch, new_context, open_page, open_ways, shot

pytest_plugins = ["support.browser"]

ROOT = Path(__file__).resolve().parent.parent


def counter(page: Page) -> str:
    return page.locator(".replay-counter").inner_text()


def test_a_finished_game_is_stepped_through_and_downloaded(
    server: Server, browser: Browser, screenshot_dir: Path, tmp_path: Path
) -> None:
    game = server.create({"kind": "person", "name": "Ala"}, {"kind": "bot", "level": "hard"})
    final = server.finish(game)
    steps = final["turn"]
    watch = Watch()
    context = new_context(browser, watch, DESKTOP)
    page = open_page(context, watch, server.url + f"/g/{game['code']}")
    end = page.locator("dialog.end-screen")
    expect(end).to_be_visible()  # a finished game opens on its result
    end.get_by_role("link", name="Replay step by step").click()
    page.wait_for_url(f"**/g/{game['code']}?view=replay")
    page.wait_for_selector(".replay[data-step='0']")
    assert counter(page) == f"Step 0 of {steps}"
    expect(page.locator(".keys-hint")).to_contain_text("Home and End")
    assert page.locator(".table-area .snake[data-snake]").count() == 1  # the starter alone
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(".replay[data-step='1']")
    expect(page.locator(".replay-event")).to_contain_text("Ala: ")
    page.get_by_role("button", name="Next").click()
    page.wait_for_selector(".replay[data-step='2']")
    expect(page.locator("#announcer")).to_contain_text("Step 2 of")
    page.keyboard.press("End")
    page.wait_for_selector(f".replay[data-step='{steps}']")
    expect(page.locator(".replay-result .result-line")).to_be_visible()
    assert page.locator(".seat.winner").count() == len(final["result"]["winners"])
    table = [
        s.get_attribute("data-cards") for s in page.locator(".table-area .snake[data-snake]").all()
    ]
    assert table == final["table"]
    shot(page, screenshot_dir, "replay-desktop")
    page.get_by_role("button", name="Previous").click()
    page.wait_for_selector(f".replay[data-step='{steps - 1}']")
    page.keyboard.press("Home")
    page.wait_for_selector(".replay[data-step='0']")
    page.reload()  # the step is kept in the address
    page.wait_for_selector(".replay[data-step='0']")
    with page.expect_download() as download:
        page.locator(".replay-download").click()
    saved = tmp_path / "record.json"
    download.value.save_as(saved)
    record = json.loads(saved.read_text())
    assert record["format"] == "hisss-record"
    assert record["result"]["winners"] == final["result"]["winners"]
    assert len(record["turns"]) == steps
    watch.check(server)
    context.close()


def test_an_uploaded_record_is_replayed(
    server: Server, browser: Browser, screenshot_dir: Path, tmp_path: Path
) -> None:
    deck = resolve_deck(str(ROOT / "docs" / "decks" / "mini.toml"))
    bots = [make_bot("medium"), make_bot("easy"), make_bot("hard")]
    outcome = play_game(Rules(), deck, bots, random.Random(5), record=True, seed=5, snapshots=True)
    assert outcome.record is not None
    path = tmp_path / "mini-game.json"
    path.write_text(outcome.record.to_json())
    watch = Watch()
    context = new_context(browser, watch, DESKTOP)
    page = open_page(context, watch, server.url + "/")
    open_ways(page)
    # A file that is no record is refused with the reason, and the lobby stays.
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    page.locator(".record-file").set_input_files(bad)
    page.get_by_role("button", name="Replay this record").click()
    expect(page.locator(".upload .form-error")).to_contain_text("cannot be replayed")
    page.locator(".record-file").set_input_files(path)
    page.get_by_role("button", name="Replay this record").click()
    page.wait_for_url("**/replay/*")
    page.wait_for_selector(".replay[data-step='0']")
    steps = len(outcome.record.turns)
    assert counter(page) == f"Step 0 of {steps}"
    assert page.locator(".seat-name").all_inner_texts() == [b.name for b in bots]
    for n in range(1, 4):
        page.locator(".replay-next").click()
        page.wait_for_selector(f".replay[data-step='{n}']")
    page.locator(".replay-last").click()
    page.wait_for_selector(f".replay[data-step='{steps}']")
    final = outcome.record.turns[-1]
    assert final.table is not None
    table = [
        s.get_attribute("data-cards") for s in page.locator(".table-area .snake[data-snake]").all()
    ]
    assert table == list(final.table)
    expect(page.locator(".replay-result")).to_be_visible()
    shot(page, screenshot_dir, "replay-upload-desktop")
    with page.expect_download() as download:
        page.locator(".replay-download").click()
    again = tmp_path / "again.json"
    download.value.save_as(again)
    assert json.loads(again.read_text())["cards"] == json.loads(path.read_text())["cards"]
    watch.check(server, expected=("status of 422",))  # the refused upload
    context.close()


def test_a_replay_on_a_touch_phone_speaks_of_buttons_not_keys(
    server: Server, browser: Browser, screenshot_dir: Path
) -> None:
    game = server.create({"kind": "person", "name": "Ala"}, {"kind": "bot", "level": "easy"})
    server.finish(game)
    watch = Watch()
    context = new_context(browser, watch, PHONE, touch=True)
    page = open_page(context, watch, server.url + f"/g/{game['code']}?view=replay")
    page.wait_for_selector(".replay[data-step='0']")
    assert page.locator(".keys-hint").count() == 0
    assert "Home and End" not in page.inner_text("main")
    page.get_by_role("button", name="Next").tap()
    page.wait_for_selector(".replay[data-step='1']")
    shot(page, screenshot_dir, "replay-phone")
    watch.check(server)
    context.close()
