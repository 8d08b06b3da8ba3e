"""The terminal game's other screens: the rules and the end of a game (the dialogs of saving and
quitting are in :mod:`hisss.tui.dialogs`).

Every text comes from the game's catalog, so each screen speaks the game's language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from hisss.core import State, places
from hisss.i18n import Catalog, explain_result
from hisss.tui.render import Look
from hisss.tui.words import setup_names


def rules_text(catalog: Catalog, state: State) -> Text:
    """The rules summary in the catalog's language, and this game's options."""
    rules = state.rules
    scoring = catalog.text(f"scoring.{rules.scoring.value}", target=rules.target)
    rules_name, deck_name = setup_names(catalog, state)
    text = Text()
    text.append(
        catalog.text(
            "rules.this_game",
            rules=rules_name,
            deck=deck_name,
            count=state.deck.size,
            scoring=scoring,
        )
        + "\n",
        style="italic",
    )
    for line in catalog.lines("rules.summary"):
        if line.startswith("# "):
            text.append("\n" + line[2:] + "\n", style="bold underline")
        else:
            text.append(line + "\n")
    if hands := rules.hand_size:
        text.append("\n" + catalog.plural("rules.hands_more", hands) + "\n", style="bold")
    return text


class RulesScreen(ModalScreen[None]):
    """The rules summary over the game; Esc, ? or q closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("question_mark", "close", show=False),
        Binding("q", "close", show=False),
    ]

    def __init__(self, catalog: Catalog, state: State, keys: str = "") -> None:
        super().__init__()
        self.catalog = catalog
        self.state = state
        #: Every key of the game (the key bar shows those that fit).
        self.keys = keys

    def compose(self) -> ComposeResult:
        """A framed, scrollable page of rules, after every key of the game."""
        with Vertical(id="rules-box") as box:
            box.border_title = self.catalog.text("rules.title")
            with VerticalScroll(id="rules-scroll"):
                if self.keys:
                    keys = Text(self.catalog.text("keys.title") + "\n", style="bold")
                    keys.append(self.keys + "\n", style="")
                    yield Static(keys, id="rules-all-keys")
                yield Static(rules_text(self.catalog, self.state), id="rules-text")
            yield Static(Text(self.catalog.text("rules.keys")), id="rules-keys")

    def on_mount(self) -> None:
        """Scroll with the arrow keys at once."""
        self.query_one("#rules-scroll").focus()

    def action_close(self) -> None:
        """Back to the game."""
        self.dismiss(None)


def end_report(
    catalog: Catalog,
    look: Look,
    state: State,
    names: Sequence[str],
    people: Sequence[int] = (),
    you: int | None = None,
) -> RenderableType:
    """The end of a game: the place of each person (the seats ``people``), every player's place,
    cards, snakes and longest snake, why the winners won (speaking to the seat ``you``), and what
    stays on the table and in each pit."""
    result = state.result()
    place = places(result, state.rules)
    table = Table(expand=False, show_edge=False, pad_edge=False)
    table.add_column(catalog.text("end.place"), justify="right")
    table.add_column(catalog.text("end.player"))
    table.add_column(catalog.text("end.cards"), justify="right")
    table.add_column(catalog.text("end.snakes"), justify="right")
    table.add_column(catalog.text("end.longest"), justify="right")
    for seat in sorted(range(len(names)), key=lambda s: (place[s], s)):
        won = seat in result.winners
        table.add_row(
            Text(f"★ {place[seat]}", style="bold #ffd43b") if won else Text(str(place[seat])),
            Text(names[seat], style="bold" if won else ""),
            Text(str(result.cards[seat])),
            Text(str(result.snakes[seat])),
            Text(str(result.longest[seat])),
        )
    standing = [
        Text(
            catalog.text("end.your_place", name=names[seat], place=place[seat], count=len(names)),
            style="bold",
        )
        for seat in people
    ]
    pits = Text()
    for seat, name in enumerate(names):
        pits.append(f"{name}: ")
        pits.append_text(look.pit(state.pits[seat]) or Text(catalog.text("players.empty_pit")))
        pits.append("\n")
    left = sum(len(s.cards) for s in state.table)
    why = explain_result(result, state.rules, names, catalog, you=you)
    return Group(
        *standing,
        *([Text("")] if standing else []),
        table,
        Text(""),
        Text(why, style="bold"),
        Text(catalog.plural("end.table_left", left)),
        Text(""),
        pits,
    )


class PassScreen(Screen[None]):
    """People at one keyboard, in the hand variant: the whole screen asks to pass the keyboard
    to the person to move, and goes when they press Enter; the game, with their hand, shows
    only then."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "held", show=False),
        Binding("space", "held", show=False),
    ]

    def __init__(self, catalog: Catalog, name: str) -> None:
        super().__init__()
        self.catalog = catalog
        self.person = name

    def compose(self) -> ComposeResult:
        """The request, in the middle of an otherwise empty screen."""
        with Vertical(id="pass-box"):
            yield Static(Text(self.catalog.text("pass.title", name=self.person)), id="pass-title")
            yield Static(Text(self.catalog.text("pass.keys", name=self.person)), id="pass-keys")

    def action_held(self) -> None:
        """The person holds the keyboard: show the game."""
        self.dismiss(None)

    def on_screen_suspend(self) -> None:
        """A dialog (q's question) opens over this screen: it shows alone, not over the box."""
        self.query_one("#pass-box").display = False

    def on_screen_resume(self) -> None:
        """Back from the dialog: the request shows again."""
        self.query_one("#pass-box").display = True


class EndScreen(Screen[str]):
    """The end of a game. Dismissed with ``new`` (another game), ``undo`` or ``quit``; ``s``
    saves the game from here."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "choose('new')", show=False),
        Binding("q", "choose('quit')", show=False),
        Binding("u", "choose('undo')", show=False),
        Binding("s", "app.save", show=False),
    ]

    def __init__(
        self, catalog: Catalog, report: RenderableType, undo_block: Callable[[], str | None]
    ) -> None:
        super().__init__()
        self.catalog = catalog
        self.report = report
        self.undo_block = undo_block

    def compose(self) -> ComposeResult:
        """The result and the keys."""
        with Vertical(id="end-box") as box:
            box.border_title = self.catalog.text("end.title")
            with VerticalScroll(id="end-scroll"):
                yield Static(self.report, id="end-report")
            yield Static(Text(self.catalog.text("end.keys")), id="end-keys")
        yield Static("", id="end-status")

    def show_status(self, text: str) -> None:
        """A message at the foot of the screen (after saving, or why undo is not possible)."""
        self.query_one("#end-status", Static).update(Text(text))

    def action_choose(self, choice: str) -> None:
        """Leave the end screen with ``choice`` (undo only when it is possible: else say why)."""
        if choice == "undo":
            reason = self.undo_block()
            if reason is not None:
                self.show_status(self.catalog.text(reason))
                return
        self.dismiss(choice)
