"""Fixtures and helpers for the browser tests: a real server, real Chromium, and the page's moves.

The server is ``hisss serve`` in a subprocess on a free port, with a temporary SQLite database,
no bot delay, a one-second away time and a two-second wait for seats never opened. The browser
is the system's Chromium driven by Playwright (never ``playwright install``: it would download a
browser). A test fails, not skips, when Chromium is missing. Every page opened through
:func:`open_page` records the requests it makes and the errors it raises, so each test can check
that nothing left the server and that the scripts ran cleanly.

Screenshots go to ``HISSS_SCREENSHOT_DIR`` when it is set, else to a pytest temporary directory.

The test modules import the helpers and load the fixtures with ``pytest_plugins``; the module
is imported before pytest sees it as a plugin, so its asserts are left as they are
(PYTEST_DONT_REWRITE) and carry their own messages.
"""

from __future__ import annotations

import json
import os
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from websockets.sync.client import connect

from support.server_process import ServerProcess
from support.waiting import wait_until

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: Seconds a person seat must be away before it may be handed to a bot, in the test server.
AWAY_SECONDS = 1.0
#: Seconds a person seat whose holder never connected waits, in the test server.
UNSEEN_SECONDS = 2.0


@dataclass
class Server:
    """A running ``hisss serve``."""

    url: str

    @property
    def host(self) -> str:
        """``host:port`` of the server."""
        return urlsplit(self.url).netloc

    def get(self, path: str) -> Any:
        """GET a JSON answer from the API."""
        with urllib.request.urlopen(self.url + path, timeout=10) as answer:
            return json.loads(answer.read())

    def post(self, path: str, body: object) -> Any:
        """POST JSON to the API and return the JSON answer."""
        request = urllib.request.Request(
            self.url + path,
            data=json.dumps(body).encode(),
            method="POST",
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())

    def post_text(self, path: str, text: str) -> Any:
        """POST a text body (a game record) and return the JSON answer."""
        request = urllib.request.Request(
            self.url + path,
            data=text.encode(),
            method="POST",
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())

    def create(self, *seats: dict[str, Any], **fields: Any) -> dict[str, Any]:
        """Create a game with these seats."""
        game: dict[str, Any] = self.post("/api/games", {"seats": list(seats), **fields})
        return game

    def finish(self, game: dict[str, Any]) -> dict[str, Any]:
        """Play seat 1 of a game against bots over the websocket (always the first legal
        action) until the game is over; returns the last state."""
        token = game["seats"][0]["token"]
        with connect(self.url.replace("http", "ws", 1) + game["websocket"]) as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            acted = -1
            while True:
                message = json.loads(ws.recv(timeout=20))
                if message["type"] != "state":
                    continue
                if message["phase"] == "over":
                    state: dict[str, Any] = message
                    return state
                if message["to_move"] != 1 or message["version"] == acted:
                    continue
                acted = message["version"]
                step: dict[str, Any] = {"type": "draw", "version": acted}
                if message["phase"] == "place":
                    step = {"type": "play", "version": acted, "action": message["legal"][0]}
                ws.send(json.dumps(step))


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``hisss serve`` on a free port of 127.0.0.1 for the whole session."""
    directory = tmp_path_factory.mktemp("server")
    with ServerProcess(
        f"sqlite:///{directory / 'hisss.db'}",
        directory,
        args=("--away-seconds", str(AWAY_SECONDS), "--unseen-seconds", str(UNSEEN_SECONDS)),
    ) as process:
        yield Server(process.url.rstrip("/"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """The system's Chromium, headless, for one test module. (Playwright's synchronous API
    keeps an event loop running in the thread while it is open, which the asyncio tests of the
    other modules must not find: so it is closed at the end of each module.)"""
    if not CHROMIUM.exists():
        pytest.fail(
            f"the browser tests need Chromium at {CHROMIUM}: apt-get install chromium",
            pytrace=False,
        )
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def screenshot_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the tests save screenshots for review."""
    chosen = os.environ.get("HISSS_SCREENSHOT_DIR")
    if chosen:
        path = Path(chosen)
        path.mkdir(parents=True, exist_ok=True)
        return path
    return tmp_path_factory.mktemp("screenshots")


@dataclass
class Watch:
    """What a browser context did: every request and websocket URL, and every script error."""

    urls: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def check(self, server: Server, expected: tuple[str, ...] = ()) -> None:
        """No request went anywhere but the server, and no script failed (errors holding one
        of the ``expected`` texts, such as a refused upload's status, excepted)."""
        others = [url for url in self.urls if urlsplit(url).netloc != server.host]
        assert not others, f"requests to other hosts: {others}"
        errors = [e for e in self.errors if not any(text in e for text in expected)]
        assert not errors, f"errors in the page: {errors}"


def new_context(
    browser: Browser,
    watch: Watch,
    viewport: dict[str, int] = DESKTOP,
    locale: str = "en-GB",
    reduced_motion: bool = False,
    *,
    touch: bool = False,
    audit: bool = False,
) -> BrowserContext:
    """A fresh browser profile (its own storage) whose requests are recorded in ``watch``:
    with ``touch``, a touch screen; with ``audit``, one whose pages accept the axe-core script
    (:mod:`support.axe`) in spite of the server's Content-Security-Policy."""
    context = browser.new_context(
        viewport=viewport,  # type: ignore[arg-type]
        locale=locale,
        reduced_motion="reduce" if reduced_motion else "no-preference",
        accept_downloads=True,
        has_touch=touch,
        is_mobile=touch,
        bypass_csp=audit,
    )
    context.on("request", lambda request: watch.urls.append(request.url))
    context.set_default_timeout(15_000)
    return context


def open_page(context: BrowserContext, watch: Watch, url: str) -> Page:
    """A new tab at ``url``, its websockets and script errors recorded in ``watch``."""
    page = context.new_page()
    page.on("websocket", lambda ws: watch.urls.append(ws.url))
    page.on("pageerror", lambda error: watch.errors.append(str(error)))
    page.on(
        "console",
        lambda message: watch.errors.append(message.text) if message.type == "error" else None,
    )
    page.goto(url)
    page.wait_for_selector("body[data-ready='yes']")
    return page


def open_ways(page: Page) -> None:
    """Open every one of the first screen's other ways to play (on this device, online, join,
    replay), which start closed under their titles."""
    closed = page.locator("details.way:not([open]) > summary")
    while closed.count():
        closed.first.click()
    page.wait_for_function("() => !document.querySelector('details.way:not([open])')")


def open_menu(page: Page) -> None:
    """Open the top bar's menu (the game's tools and the settings), unless it is open."""
    if page.locator("#menu").is_hidden():
        page.locator("#menu-button").click()
    page.locator("#menu").wait_for(state="visible")


def wait_connected(page: Page) -> None:
    """Wait until the game page's websocket has said hello and the first state is drawn."""
    page.wait_for_selector(".game[data-ws='open'][data-version]")


def version(page: Page) -> int:
    """The version of the state the page shows."""
    return int(page.locator(".game").get_attribute("data-version") or -1)


def phase(page: Page) -> str:
    """The phase of the state the page shows."""
    return page.locator(".game").get_attribute("data-phase") or ""


WAIT_FOR_ME = """() => {
  const game = document.querySelector('.game');
  if (!game || game.classList.contains('pending')) return false;
  return game.dataset.phase === 'over' || game.classList.contains('my-turn');
}"""


def wait_my_turn_or_end(page: Page) -> bool:
    """Wait until the page's player is to act (True) or the game is over (False)."""
    page.wait_for_function(WAIT_FOR_ME, timeout=30_000)
    return phase(page) != "over"


def whose_turn(pages: list[Page], timeout: float = 30) -> Page | None:
    """The page whose player is to act now, or None once the game is over on every page."""

    def turn() -> Page | bool:
        states = [page.evaluate(f"({WAIT_FOR_ME})()") and phase(page) for page in pages]
        for page, state in zip(pages, states, strict=True):
            if state and state != "over":
                return page
        return all(state == "over" for state in states)

    found = wait_until(
        turn, what="a player to be asked to act, or the end on every page", timeout=timeout
    )
    return found if isinstance(found, Page) else None


def pump(page: Page) -> Callable[[float], None]:
    """A pause for :func:`support.waiting.wait_until` that lets Playwright handle its events
    (routes, websockets, page events): the synchronous API does so only inside its calls."""
    return lambda seconds: page.wait_for_timeout(seconds * 1000)


def wait_changed(page: Page, before: int) -> None:
    """Wait until the page shows a newer state than ``before``."""
    page.wait_for_function(
        "v => Number(document.querySelector('.game').dataset.version) > v", arg=before
    )


def click_turn(page: Page) -> None:
    """Take one step with the mouse: pick a face-down card, or place the drawn card."""
    before = version(page)
    if phase(page) == "draw":
        page.locator(".deck-active").click()
    else:
        page.locator(".ghost").first.click()
    wait_changed(page, before)


def play_with_clicks(page: Page, max_steps: int = 400, on_step: Any = None) -> int:
    """Play the page's seat with clicks until the game is over; returns the steps taken."""
    steps = 0
    while wait_my_turn_or_end(page):
        click_turn(page)
        steps += 1
        if on_step is not None:
            on_step(steps)
        assert steps < max_steps, "the game does not end"
    return steps


def assert_no_sideways_scroll(page: Page) -> None:
    """The page fits the width of its window: nothing makes it scroll sideways."""
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.viewport_size
    assert viewport is not None and width <= viewport["width"], (
        f"the page is {width} px wide in a {viewport} window"
    )


def shot(page: Page, directory: Path, name: str) -> Path:
    """Save a screenshot of the viewport for review."""
    path = directory / f"{name}.png"
    page.screenshot(path=str(path))
    return path
