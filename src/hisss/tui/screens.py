"""The terminal game's other screens: the rules, saving a game, and the end of a game.

Every text comes from the game's catalog, so each screen speaks the game's language.
"""

from __future__ import annotations

import errno
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Static

from hisss.core import State
from hisss.i18n import Catalog, explain_result
from hisss.record import GameRecord, save_record
from hisss.tui.render import Look


def rules_text(catalog: Catalog, state: State) -> Text:
    """The rules summary in the catalog's language, and this game's options."""
    rules = state.rules
    scoring = catalog.text(f"scoring.{rules.scoring.value}", target=rules.target)
    text = Text()
    text.append(
        catalog.text(
            "rules.this_game",
            rules=rules.preset or catalog.text("rules.custom"),
            deck=state.deck.name,
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
    return text


class RulesScreen(ModalScreen[None]):
    """The rules summary over the game; Esc, ? or q closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("question_mark", "close", show=False),
        Binding("q", "close", show=False),
    ]

    def __init__(self, catalog: Catalog, state: State) -> None:
        super().__init__()
        self.catalog = catalog
        self.state = state

    def compose(self) -> ComposeResult:
        """A framed, scrollable page of rules."""
        with Vertical(id="rules-box") as box:
            box.border_title = self.catalog.text("rules.title")
            with VerticalScroll(id="rules-scroll"):
                yield Static(rules_text(self.catalog, self.state), id="rules-text")
            yield Static(self.catalog.text("rules.keys"), id="rules-keys")

    def on_mount(self) -> None:
        """Scroll with the arrow keys at once."""
        self.query_one("#rules-scroll").focus()

    def action_close(self) -> None:
        """Back to the game."""
        self.dismiss(None)


class SaveScreen(ModalScreen[str | None]):
    """Asks for a file and saves the game's record there; dismissed with the path saved to."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", show=False)]

    def __init__(self, catalog: Catalog, record: GameRecord, path: str) -> None:
        super().__init__()
        self.catalog = catalog
        self.record = record
        self.path = path

    def compose(self) -> ComposeResult:
        """A file name to confirm or change."""
        with Vertical(id="save-box") as box:
            box.border_title = self.catalog.text("save.title")
            yield Static(self.catalog.text("save.prompt"))
            yield Input(self.path, id="save-path")
            yield Static("", id="save-error")
            yield Static(self.catalog.text("save.keys"), id="save-keys")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Save to the file given; an error is shown and the screen stays."""
        path = event.value.strip()
        error = self.query_one("#save-error", Static)
        if not path:
            error.update(self.catalog.text("save.empty"))
            return
        try:
            save_record(self.record, Path(path).expanduser())
        except OSError as exc:
            error.update(self.catalog.text("save.failed", path=path, reason=self.reason(exc)))
            return
        self.dismiss(path)

    def reason(self, error: OSError) -> str:
        """Why a file could not be written, in the game's language where it is a usual reason."""
        keys = {
            errno.ENOENT: "save.no_folder",
            errno.EACCES: "save.denied",
            errno.EPERM: "save.denied",
            errno.EISDIR: "save.is_folder",
        }
        key = keys.get(error.errno or 0)
        return self.catalog.text(key) if key else error.strerror or str(error)

    def action_cancel(self) -> None:
        """Back to the game without saving."""
        self.dismiss(None)


def end_report(catalog: Catalog, look: Look, state: State, names: list[str]) -> RenderableType:
    """The end of a game: every player's cards, snakes and longest snake, the winners, why they
    won, and what stays on the table."""
    result = state.result()
    table = Table(expand=False, show_edge=False, pad_edge=False)
    table.add_column(catalog.text("end.player"))
    table.add_column(catalog.text("end.cards"), justify="right")
    table.add_column(catalog.text("end.snakes"), justify="right")
    table.add_column(catalog.text("end.longest"), justify="right")
    table.add_column("")
    for seat, name in enumerate(names):
        won = seat in result.winners
        table.add_row(
            Text(name, style="bold" if won else ""),
            str(result.cards[seat]),
            str(result.snakes[seat]),
            str(result.longest[seat]),
            Text("★ " + catalog.text("end.winner"), style="bold #ffd43b") if won else "",
        )
    pits = Text()
    for seat, name in enumerate(names):
        pits.append(f"{name}: ")
        pits.append_text(look.pit(state.pits[seat]) or Text(catalog.text("players.empty_pit")))
        pits.append("\n")
    left = sum(len(s.cards) for s in state.table)
    why = explain_result(result, state.rules, names, catalog)
    return Group(
        table,
        Text(""),
        Text(why, style="bold"),
        Text(catalog.plural("end.table_left", left)),
        Text(""),
        pits,
    )


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
            yield Static(self.catalog.text("end.keys"), id="end-keys")
        yield Static("", id="end-status")

    def show_status(self, text: str) -> None:
        """A message at the foot of the screen (after saving, or why undo is not possible)."""
        self.query_one("#end-status", Static).update(text)

    def action_choose(self, choice: str) -> None:
        """Leave the end screen with ``choice`` (undo only when it is possible: else say why)."""
        if choice == "undo":
            reason = self.undo_block()
            if reason is not None:
                self.show_status(self.catalog.text(reason))
                return
        self.dismiss(choice)
