"""Helpers for the tests of the terminal game: the screen as text, and playing games with the
pilot."""

from __future__ import annotations

from textual.content import Content
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Static

from hisss.bots.turns import Turn as BotTurn
from hisss.core import RAINBOW, Action, Deck, Rules, State
from hisss.i18n import get_catalog
from hisss.record import Turn
from hisss.tui import HisssApp, Match, parse_players
from hisss.tui.screens import EndScreen
from support.waiting import wait_until_async


def bot_choice(match: Match, snapshot: State | None = None) -> Action:
    """The placement the bot to move in ``match`` chooses, asked of the bots' turn loop as the
    terminal app asks it (``snapshot``: a copy of the position, by default the game's own)."""
    step = match.next_step()
    assert isinstance(step, BotTurn), f"no bot is to place now ({step})"
    return step.decide(snapshot or match.game.state.copy())[0]


def make_app(
    players: str,
    *,
    seed: int = 1,
    deck: Deck = RAINBOW,
    rules: Rules | None = None,
    language: str = "en",
    delay: float = 0.0,
    colour_blind: bool = False,
    save_path: str | None = None,
) -> HisssApp:
    """An app for a new game."""
    rules = rules or Rules()
    match = Match(parse_players(players, rules), rules, deck, seed)
    return HisssApp(
        match,
        get_catalog(language),
        delay=delay,
        colour_blind=colour_blind,
        save_path=save_path,
    )


def played(match: Match) -> list[Turn]:
    """The turns played so far in ``match``, as its record holds them."""
    return list(match.game.record().turns)


def screen_text(app: HisssApp) -> str:
    """What the terminal shows now, as plain text."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def status_text(app: HisssApp) -> str:
    """The text the status line of the game screen shows now."""
    shown = app.part("#status", Static).render()
    assert isinstance(shown, Content)
    return shown.plain


def log_text(app: HisssApp) -> list[str]:
    """The entries of the move log, as plain text, oldest first."""
    return [app.log_line(entry).plain for entry in app.log_entries]


async def person_step(pilot: Pilot[None], app: HisssApp, down: int = 0) -> bool:
    """One step of a person with the keyboard: pick with Enter, or place the option ``down``
    places below the first. False when a bot moves (nothing is pressed then)."""
    phase = app.prompt()
    if phase == "pick":
        await pilot.press("enter")
    elif phase == "place":
        await pilot.press(*(["down"] * down), "enter")
    else:
        await pilot.pause(0.01)
        return False
    return True


async def person_turn(pilot: Pilot[None], app: HisssApp) -> bool:
    """Let the app run until a person is to act (True) or the end screen shows (False)."""
    await wait_until_async(
        lambda: app.prompt() in ("pick", "place", "hand") or isinstance(app.screen, EndScreen),
        what="a person's turn or the end screen",
        pause=pilot.pause,
    )
    return not isinstance(app.screen, EndScreen)


async def play_to_end(pilot: Pilot[None], app: HisssApp, down: int = 0) -> None:
    """Play every person's move with the keyboard until the end screen shows."""
    while await person_turn(pilot, app):
        await person_step(pilot, app, down)
    await pilot.pause()


def inside(widget: Widget, app: HisssApp) -> bool:
    """True when the widget is shown and lies wholly on the screen."""
    region = widget.region
    return (
        widget.display
        and widget.visible
        and region.width > 0
        and region.height > 0
        and app.screen.region.contains_region(region)
    )
