"""The terminal game's dialogs: saving a game to a file, and leaving a game that is not over.

While a dialog is open the bots wait (see :meth:`hisss.tui.app.HisssApp.open_dialog`), so what is
saved is the position the game shows. Every text is plain (a name or a path is never read as
markup) and comes from the game's catalog.
"""

from __future__ import annotations

import errno
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from hisss.i18n import Catalog
from hisss.record import GameRecord, save_record


def why_not_saved(catalog: Catalog, error: OSError) -> str:
    """Why a file could not be written, in the game's language where it is a usual reason."""
    keys = {
        errno.ENOENT: "save.no_folder",
        errno.EACCES: "save.denied",
        errno.EPERM: "save.denied",
        errno.EISDIR: "save.is_folder",
    }
    key = keys.get(error.errno or 0)
    return catalog.text(key) if key else error.strerror or str(error)


class SaveScreen(ModalScreen[str | None]):
    """Asks for a file and saves the game's record there; dismissed with the path saved to.

    A file that exists already is replaced only when Enter is pressed a second time on the same
    name, after the screen has said so.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", show=False)]

    def __init__(self, catalog: Catalog, record: Callable[[], GameRecord], path: str) -> None:
        super().__init__()
        self.catalog = catalog
        self.record = record
        self.path = path
        self._replace: Path | None = None

    def compose(self) -> ComposeResult:
        """A file name to confirm or change."""
        with Vertical(id="save-box") as box:
            box.border_title = self.catalog.text("save.title")
            yield Static(Text(self.catalog.text("save.prompt")))
            yield Input(self.path, id="save-path")
            yield Static("", id="save-error")
            yield Static(Text(self.catalog.text("save.keys")), id="save-keys")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Save to the file given; an error, or a file that would be replaced, is shown and the
        screen stays."""
        given = event.value.strip()
        error = self.query_one("#save-error", Static)
        if not given:
            error.update(Text(self.catalog.text("save.empty")))
            return
        path = Path(given).expanduser()
        if path.is_file() and path != self._replace:
            self._replace = path
            error.update(Text(self.catalog.text("save.exists", path=given)))
            return
        try:
            save_record(self.record(), path)
        except OSError as exc:
            reason = why_not_saved(self.catalog, exc)
            error.update(Text(self.catalog.text("save.failed", path=given, reason=reason)))
            return
        self.dismiss(given)

    def on_input_changed(self, _: Input.Changed) -> None:
        """A new name needs its own confirmation."""
        self._replace = None

    def action_cancel(self) -> None:
        """Back to the game without saving."""
        self.dismiss(None)


class QuitScreen(ModalScreen[str | None]):
    """Asked before leaving a game that is not over: dismissed with ``quit``, ``save`` (save to
    a file first) or ``None`` (play on)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "choose('quit')", show=False),
        Binding("s", "choose('save')", show=False),
        Binding("escape", "choose(None)", show=False),
        Binding("n", "choose(None)", show=False),
    ]

    def __init__(self, catalog: Catalog, kept: bool, not_kept: str | None = None) -> None:
        super().__init__()
        self.catalog = catalog
        self.kept = kept
        #: Why the game could not be kept (the autosave failed), or ``None``.
        self.not_kept = not_kept

    def compose(self) -> ComposeResult:
        """The question, what happens to the game (kept, or not and why), and the keys."""
        with Vertical(id="quit-box") as box:
            box.border_title = self.catalog.text("quit.title")
            if self.not_kept is not None:
                yield Static(Text(self.not_kept), id="quit-not-kept")
                yield Static(Text(self.catalog.text("quit.not_kept")))
            elif self.kept:
                yield Static(Text(self.catalog.text("quit.kept")))
            yield Static(Text(self.catalog.text("quit.keys")), id="quit-keys")

    def action_choose(self, choice: str | None) -> None:
        """Leave the dialog with ``choice``."""
        self.dismiss(choice)


__all__ = ["QuitScreen", "SaveScreen", "why_not_saved"]
