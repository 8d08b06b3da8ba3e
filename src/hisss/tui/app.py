"""The terminal game: a Textual application around a :class:`~hisss.tui.match.Match`, drawn by
:class:`~hisss.tui.view.GameView`. The message at the foot is cleared once it no longer applies
(a move is made); a terminal smaller than :data:`MIN_SIZE` shows a message instead of the game,
and the bots wait.

People pick a card from the fan and choose a placement from the list (arrows and Enter, or a click;
a click on a marked end of a snake chooses a placement there). In the hand variant they choose a
card of their hand (left and right) and its placement (up and down), then press Enter; people
sharing the keyboard see their hand only after saying they hold it. The arrows and Enter act on the
fan or the list, whichever the turn needs, wherever the focus is. Bots play by themselves, pausing
``delay`` seconds before each move (``+`` and ``-`` change it), and think on a worker thread so the
screen stays live; they wait while a dialog is open. Keys: ``h`` hint, ``u`` undo, ``s`` save, ``c``
colour-blind letters and symbols, ``?`` rules, ``q`` quit (asking first while the game runs). After
every move an unfinished game is kept in ``autosave`` (a folder), where ``hisss play --resume``
finds it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import events, work
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static

from hisss.bots.expert import answers_quickly
from hisss.bots.turns import Draw, End, Turn
from hisss.core import Action, ActionKind, Card, Placement, Snake
from hisss.i18n import Catalog
from hisss.tui.dialogs import QuitScreen, SaveScreen, why_not_saved
from hisss.tui.match import Match
from hisss.tui.saving import autosave_path, write_atomically
from hisss.tui.screens import EndScreen, PassScreen, RulesScreen, end_report
from hisss.tui.view import PLACING, GameView, Prompt
from hisss.tui.widgets import BannerView, FanView, LogView, TableView
from hisss.tui.words import describe_action, describe_placement

#: The least pause of a bot after a snake was claimed (when bots pause at all), in seconds, so
#: that the claimed snake is seen on the table before it leaves.
CLAIM_SECONDS = 1.5
#: The pause before each bot move unless ``--delay`` says otherwise, in seconds.
DEFAULT_DELAY = 0.8
#: The pauses that ``+`` and ``-`` step through, in seconds.
DELAYS = (0.0, 0.2, 0.4, 0.8, 1.5, 3.0)
#: The smallest terminal (columns, lines) the game is laid out in.
MIN_SIZE = (60, 24)


class HisssApp(GameView):
    """The terminal game; see the module docstring.

    ``save_path`` is the file offered when saving (by default ``hisss-SEED.json``); ``loaded``
    says the match continues a saved game; ``autosave`` is the folder of unfinished games
    (``None``: not kept). After the app ends, :attr:`kept` is the file that keeps the game when it
    is unfinished, and :attr:`failure` the unexpected error that stopped it, if any.
    """

    TITLE = "Hisss"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h", "hint", show=False),
        Binding("u", "undo", show=False),
        Binding("s", "save", show=False),
        Binding("c", "colour_blind", show=False),
        Binding("question_mark", "rules", show=False),
        Binding("q", "leave", show=False),
        Binding("plus", "speed(-1)", show=False),
        Binding("minus", "speed(1)", show=False),
        *(Binding(key, f"steer('{key}')", show=False) for key in ("left", "right", "up", "down")),
        Binding("enter", "steer('enter')", show=False),
        Binding("space", "steer('enter')", show=False),
    ]

    def __init__(
        self,
        match: Match,
        catalog: Catalog,
        *,
        colour_blind: bool = False,
        delay: float = DEFAULT_DELAY,
        save_path: str | None = None,
        loaded: bool = False,
        autosave: Path | None = None,
    ) -> None:
        super().__init__(match, catalog, colour_blind)
        self.delay = delay
        self.save_path = save_path
        self.loaded = loaded
        self.autosave = autosave
        #: Every snake claimed with its seat, in order ("Hisss!").
        self.claims: list[tuple[int, Snake]] = []
        self.kept: Path | None = None
        self.failure: BaseException | None = None
        self._end_shown = False
        self._dialogs = 0
        self._free = asyncio.Event()
        self._autosave_failed = False
        #: Why the last autosave failed, as the game says it.
        self._keep_failure = ""

    def on_mount(self) -> None:
        """Greet, name the starter, and let the first player (or bot) move."""
        catalog, game = self.catalog, self.match.game
        self.part("#log", LogView).border_title = catalog.text("log.title")
        if self.loaded:
            greeting = catalog.text("status.loaded", turn=game.state.turns + 1)
        elif self.match.is_demo():
            greeting = catalog.text("status.demo")
        else:
            greeting = catalog.text("status.welcome")
        if game.cards and not game.placements:
            starter = catalog.text("status.starter", card=catalog.card_name(game.cards[0]))
            greeting = f"{greeting} {starter}"
        if self.loaded:
            self.log_entries.append(("text", (greeting,)))
        elif game.cards:
            self.log_entries.append(("starter", (game.cards[0],)))
        self.say(greeting)
        self.fit(self.size.width, self.size.height)
        self.advance()

    def on_resize(self, event: events.Resize) -> None:
        """Lay the game out for the new size, or say it is too small."""
        self.fit(event.size.width, event.size.height)

    def fit(self, width: int, height: int) -> None:
        """Show the game, or the too-small message, for a terminal ``width`` wide and
        ``height`` high; the move log grows with the height."""
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        message = self.part("#too-small", Static)
        message.display = small
        self.part("#game", Vertical).display = not small
        message.update(
            Text(
                self.catalog.text(
                    "small.text",
                    width=width,
                    height=height,
                    min_width=MIN_SIZE[0],
                    min_height=MIN_SIZE[1],
                )
            )
        )
        self.part("#log", LogView).styles.height = max(5, min(14, 5 + (height - 24) // 3))
        if small != self._too_small:
            self._too_small = small
            self.unblocked()
            if self.screen_stack:
                self.refresh_view()
                if not small:
                    self.focus_turn()

    # ------------------------------------------------------------------ layout and turns

    def advance(self) -> None:
        """Hand the game to whoever moves next: a person (focus), the bots, or the end screen."""
        self.refresh_view()
        prompt = self.prompt()
        if prompt is Prompt.OVER:
            self.show_end()
        elif prompt is Prompt.BOT:
            self.play_bots()
        elif prompt is Prompt.PASS:
            self.ask_to_pass()
        else:
            self.focus_turn()

    def ask_to_pass(self) -> None:
        """The hand variant at one keyboard: cover the game until the person to move says they
        hold the keyboard."""
        if isinstance(self.screen, PassScreen):
            return
        seat = self.match.game.to_move

        def held(_: None) -> None:
            if self.match.game.to_move == seat:
                self.holder = seat
            self.advance()

        assert seat is not None
        self.push_screen(PassScreen(self.catalog, self.names[seat]), held)

    def focus_turn(self) -> None:
        """Focus the fan or the list of placements, whichever the person to move uses."""
        prompt = self.prompt()
        if prompt is Prompt.PICK:
            self.part(FanView).focus()
        elif prompt in PLACING:
            self.part("#actions", OptionList).focus()

    def blocked(self) -> bool:
        """True while a dialog is open or the terminal is too small: the bots wait."""
        return self._dialogs > 0 or self._too_small

    def unblocked(self) -> None:
        """Wake the bots when nothing blocks them any more."""
        if not self.blocked():
            self._free.set()

    async def until_free(self) -> None:
        """Wait while :meth:`blocked`."""
        while self.alive() and self.blocked():
            self._free.clear()
            await self._free.wait()

    # ------------------------------------------------------------------ moves

    def draw(self) -> Card:
        """The player to move draws; the last move's messages and claimed snake go."""
        card = self.match.draw()
        self._claim_moment = None
        self.unsay()
        return card

    def on_fan_view_picked(self, _: FanView.Picked) -> None:
        """A person picks a card: the next card of the deck is drawn."""
        if self.prompt() is not Prompt.PICK or self.blocked():
            return
        self.draw()
        self.advance()

    def on_option_list_option_highlighted(self, _: OptionList.OptionHighlighted) -> None:
        """Show the highlighted placement on the table."""
        if self._actions:
            self.refresh_table()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Place the drawn card as the chosen placement."""
        if self.prompt() in PLACING and 0 <= event.option_index < len(self._actions):
            self.place(self._actions[event.option_index])
            self.advance()

    def on_table_view_end_clicked(self, event: TableView.EndClicked) -> None:
        """A click on a marked end: choose a placement there, or place it when already chosen."""
        if self.prompt() not in PLACING:
            return
        touching = [i for i, a in enumerate(self._actions) if (event.snake, event.end) in a.ends]
        if not touching:
            return
        options = self.part("#actions", OptionList)
        if options.highlighted in touching:
            self.place(self._actions[options.highlighted])
            self.advance()
        else:
            options.highlighted = touching[0]

    def place(self, action: Action) -> Placement:
        """The player to move places the drawn card as ``action``: the move goes into the log,
        worded as the board shows it, with the "Hisss!" banner and the claimed snake when it
        claimed one; the game is kept (autosaved)."""
        placement = self.match.place(action)
        self.unsay()
        where = describe_placement(self.catalog, placement, self.match.game.state.table)
        self.log_entries.append(("move", (placement.seat, placement.card, where)))
        claimed = placement.claimed
        if claimed is not None:
            self.claims.append((placement.seat, claimed))
            self.log_entries.append(("claim", (placement.seat, claimed.length)))
            row = min(action.snake, action.snake2) if action.kind is ActionKind.JOIN else None
            self._claim_moment = (action.snake if row is None else row, claimed)
            self.show_banner(placement.seat, claimed)
        self.keep()
        return placement

    @work(exclusive=True, group="bots")
    async def play_bots(self) -> None:
        """Drive the bots' turn loop (:meth:`hisss.tui.match.Match.next_step`): the bots move,
        one after another, until a person is to move or the game ends. A bot's turn (its draw,
        then its placement, thought on a worker thread) begins with a pause; they wait while a
        dialog is open or the terminal is too small."""
        match = self.match

        def going_on() -> bool:  # the app still runs the same game
            return self.alive() and match is self.match

        paused = False
        while going_on():
            step = match.next_step()
            if isinstance(step, End):
                break
            if not paused:  # a bot's turn begins: look again after the pause
                await self.bot_pause()
                paused = True
            elif isinstance(step, Draw):
                self.draw()
                self.refresh_view()
            elif not await self.bot_place(step):
                return
            else:
                paused = False
        if going_on():
            self.advance()

    async def bot_pause(self) -> None:
        """The pause before a bot's turn (longer after a claim), then the wait while blocked."""
        pause = self.delay
        if pause > 0 and self._claim_moment is not None:
            pause = max(pause, CLAIM_SECONDS)
        if pause > 0:
            await asyncio.sleep(pause)
        await self.until_free()

    async def bot_place(self, turn: Turn) -> bool:
        """The bot of ``turn`` chooses on a worker thread and places; False when the game moved
        on or was left meanwhile (nothing placed)."""
        match = self.match
        state = match.game.state
        action, _ = await asyncio.to_thread(turn.decide, state.copy())
        await self.until_free()
        if not self.alive() or match is not self.match or match.game.state.turns != state.turns:
            return False
        self.place(action)
        self.refresh_view()
        return True

    # ------------------------------------------------------------------ keys

    def action_steer(self, key: str) -> None:
        """Arrows and Enter when the fan or the list does not have the focus: they act on the one
        the turn needs (and focus it)."""
        if len(self.screen_stack) > 1 or self._too_small:
            return
        prompt = self.prompt()
        if prompt is Prompt.PICK:
            fan = self.part(FanView)
            fan.focus()
            if key in ("left", "right"):
                fan.action_move(-1 if key == "left" else 1)
            elif key == "enter":
                fan.action_pick()
        elif prompt in PLACING:
            options = self.part("#actions", OptionList)
            options.focus()
            if prompt is Prompt.HAND and key in ("left", "right"):
                self.choose_card(-1 if key == "left" else 1)
                self.refresh_view()
            elif (
                prompt is Prompt.HAND and key == "enter" and self.chosen_card and not self._actions
            ):
                name = self.catalog.card_name(self.chosen_card)
                self.say(self.catalog.text("hand.nowhere", card=name))
            elif key == "up":
                options.action_cursor_up()
            elif key == "down":
                options.action_cursor_down()
            elif key == "enter":
                options.action_select()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While the keyboard is being passed, no key but Enter (the pass screen's own) and q
        acts, q's question over it included: nothing may happen behind the screen that hides the
        hand."""
        if not any(isinstance(screen, PassScreen) for screen in self.screen_stack):
            return True
        game_actions = {
            str(b.action).partition("(")[0] for b in self.BINDINGS if isinstance(b, Binding)
        }
        return action not in game_actions - {"leave"}

    def action_hint(self) -> None:
        """Show what the strongest bot would play (``h``)."""
        prompt = self.prompt()
        if prompt is Prompt.PICK:
            self.say(self.catalog.text("hint.pick_first"))
        elif prompt not in PLACING:
            self.say(self.catalog.text("hint.not_yours"))
        else:
            self.say(self.catalog.text("hint.thinking"))
            self.find_hint()

    @work(exclusive=True, group="hint")
    async def find_hint(self) -> None:
        """Ask the expert on a worker thread, then highlight its choice."""
        match = self.match
        state = match.game.state
        where = (state.turns, state.drawn)
        # While the expert's compiled code is made ready, the expert answers as careful does
        # (the hand variant's expert needs no compiled code): the hint says so.
        careful = answers_quickly(state)
        action = await asyncio.to_thread(match.hint, state.copy())
        if not self.alive() or match is not self.match or (state.turns, state.drawn) != where:
            return
        if action.card is not None and self.prompt() is Prompt.HAND:
            self.chosen_card = action.card
            self.refresh_view()
        if action in self._actions:
            self.part("#actions", OptionList).highlighted = self._actions.index(action)
        said = describe_action(self.catalog, action)
        if action.card is not None:  # the hand variant: which card, then where
            said = f"{self.catalog.card_name(action.card)} → {said}"
        self.say(self.catalog.text("hint.shows_careful" if careful else "hint.shows", action=said))

    def action_undo(self) -> None:
        """Take back the person's last move and the bots' moves since (``u``)."""
        match = self.match
        reason = match.undo_block()
        if reason is not None:
            self.say(self.catalog.text(reason))
            return
        person = match.people[0]
        match.undo()
        self.chosen_card = None
        self._options_key = None
        self._claim_moment = None
        message = self.seats.undone(person)
        self.log_entries.append(("text", (message,)))
        self.say(message)
        self.keep()
        self.advance()

    def action_speed(self, step: int) -> None:
        """Bots faster (``+``, ``step`` -1) or slower (``-``, ``step`` 1)."""
        if not self.match.bots:
            return
        if step < 0:
            self.delay = max((d for d in DELAYS if d < self.delay), default=self.delay)
        else:
            self.delay = min((d for d in DELAYS if d > self.delay), default=self.delay)
        if self.delay == 0:
            self.say(self.catalog.text("speed.full"), lasting=True)
            return
        number = f"{self.delay:g}"
        if self.catalog.language == "pl":
            number = number.replace(".", ",")
        self.say(self.catalog.text("speed.delay", delay=number), lasting=True)

    def open_dialog(self, screen: Screen[Any], done: Callable[[Any], None]) -> None:
        """Open a dialog over the game; the bots wait until it closes, then ``done`` gets its
        result."""

        def closed(result: Any) -> None:
            self._dialogs -= 1
            self.unblocked()
            done(result)

        self._dialogs += 1
        self.push_screen(screen, closed)

    def action_save(self, then_leave: bool = False) -> None:
        """Save the game so far as a game record (``s``); ``then_leave`` quits after saving."""
        seed = self.match.game.seed if self.match.game.seed is not None else "game"
        path = self.save_path or f"hisss-{seed}.json"
        screen = SaveScreen(self.catalog, self.match.record, path)
        self.open_dialog(screen, lambda saved: self._saved(saved, then_leave))

    def _saved(self, path: str | None, then_leave: bool) -> None:
        if path is None:
            return
        self.save_path = path
        state = self.match.game.state
        turn = state.turns + (0 if self.match.is_over() else 1)
        self.say(self.catalog.text("save.done", path=path, turn=turn), lasting=True)
        if then_leave:
            self.leave()

    def action_colour_blind(self) -> None:
        """Turn the colour letters and symbols on or off (``c``)."""
        self.look.colour_blind = not self.look.colour_blind
        if self.claims:
            self.draw_banner(*self.claims[-1])
        key = "colour_blind.on" if self.look.colour_blind else "colour_blind.off"
        self.say(self.catalog.text(key), lasting=True)
        self.refresh_view()

    def action_rules(self) -> None:
        """Show the rules (``?``)."""
        screen = RulesScreen(self.catalog, self.match.game.state, self.all_keys())
        self.open_dialog(screen, lambda _: None)

    def action_leave(self) -> None:
        """``q``: leave at once when the game is over or nothing was played yet, else ask."""
        if self.match.is_over() or not self.match.game.placements:
            self.leave()
            return
        # Say the game is kept only once it is written: write it now, and offer a save elsewhere
        # when the autosave folder refuses it.
        not_kept = None if self.autosave is None or self.keep() else self._keep_failure
        screen = QuitScreen(self.catalog, self.kept is not None, not_kept)
        self.open_dialog(screen, self._leave_chosen)

    def _leave_chosen(self, choice: str | None) -> None:
        if choice == "quit":
            self.leave()
        elif choice == "save":
            self.action_save(then_leave=True)

    def leave(self) -> None:
        """Keep the game (when unfinished) and quit."""
        self.keep()
        self.exit()

    # ------------------------------------------------------------------ keeping the game

    def keep(self) -> bool:
        """Autosave: write an unfinished game to the autosave folder, remove it when over.

        Returns False when the folder refused it (:attr:`kept` is then ``None``, so nothing says
        the game is kept); the reason, in the game's language, is kept for the quit dialog."""
        if self.autosave is None:
            return True
        game = self.match.game
        path = autosave_path(game.seed, self.autosave)
        try:
            if self.match.is_over():
                path.unlink(missing_ok=True)
                self.kept = None
            elif game.placements:
                write_atomically(self.match.record(), path)
                self.kept = path
        except OSError as exc:
            self.kept = None
            reason = why_not_saved(self.catalog, exc)
            self._keep_failure = self.catalog.text("autosave.failed", path=str(path), reason=reason)
            if not self._autosave_failed:
                self._autosave_failed = True
                self.say(self._keep_failure, lasting=True)
            return False
        return True

    # Two private methods of Textual's App are overridden here because Textual (8.2.8) has no
    # public hook for an unexpected error: every handler, worker, timer and screen hands it to
    # App._handle_exception, which renders its traceback, and App._print_error_renderables prints
    # that over the terminal as the app ends. They guard what hisss.cli.play promises: the error
    # itself is kept (self.failure) for the command line, which logs the traceback to a file and
    # says so in one line, and nothing is printed over the terminal.
    # test_tui_play.py's test_an_unexpected_error_is_kept_for_the_log_not_printed fails when a
    # Textual release renames or stops calling them.

    def _handle_exception(self, error: Exception) -> None:
        if self.failure is None:
            self.failure = error
        super()._handle_exception(error)

    def _print_error_renderables(self) -> None:
        if self.failure is None:
            super()._print_error_renderables()
        self._exit_renderables.clear()

    # ------------------------------------------------------------------ the end

    def show_end(self) -> None:
        """The end screen, once per game."""
        if self._end_shown:
            return
        self._end_shown = True
        state = self.match.game.state
        people = self.match.people
        report = end_report(self.catalog, self.look, state, self.names, people, self.seats.you)
        self.push_screen(EndScreen(self.catalog, report, self.match.undo_block), self._ended)
        self.keep()

    def _ended(self, choice: str | None) -> None:
        self._end_shown = False
        if choice == "new":
            self.match = self.match.again()
            self.holder = None
            self.chosen_card = None
            self._options_key = None
            self._claim_moment = None
            self.part(BannerView).display = False
            self.log_entries = [("starter", (self.match.game.cards[0],))]
            self.say(self.catalog.text("status.welcome"))
            self.advance()
        elif choice == "undo":
            self.action_undo()
        else:
            self.exit()


__all__ = ["DEFAULT_DELAY", "DELAYS", "MIN_SIZE", "HisssApp"]
