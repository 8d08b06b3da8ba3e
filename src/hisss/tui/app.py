"""The terminal game: a Textual application around a :class:`~hisss.tui.match.Match`.

The screen, from the top: the turn and the game's options; what the player to move should do;
then the table on the left (the fan of face-down cards, the "Hisss!" banner and the snakes, which
scroll) and on the right each player's cards and pit, the drawn card and the list of places it can
go; at the foot the last thing that happened and the keys.

People pick a card from the fan and choose a placement from the list (arrows and Enter, or a
click; a click on a marked end of a snake chooses a placement there). Bots play by themselves,
pausing ``delay`` seconds before each move, and think on a worker thread so the screen stays
live. Keys: ``h`` hint, ``u`` undo, ``s`` save, ``c`` colour-blind letters and symbols, ``?``
rules, ``q`` quit.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import ClassVar, TypeVar

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from hisss.core import Action, ActionKind, Snake
from hisss.i18n import Catalog
from hisss.record import Phase, Seat
from hisss.tui.match import Match
from hisss.tui.render import Look
from hisss.tui.screens import EndScreen, RulesScreen, SaveScreen, end_report
from hisss.tui.widgets import FanView, TableView

W = TypeVar("W", bound=Widget)

#: How long the "Hisss!" banner stays, in seconds.
BANNER_SECONDS = 3.0
#: The pause before each bot move unless ``--delay`` says otherwise, in seconds.
DEFAULT_DELAY = 0.8

CSS = """
Screen { layout: vertical; }
#top { height: 1; padding: 0 1; background: $primary-background; }
#prompt { height: auto; max-height: 2; padding: 0 1; text-style: bold; }
#body { height: 1fr; }
#left { width: 1fr; }
#fan { height: 1; padding: 0 1; }
#banner { height: auto; display: none; padding: 0 1; background: #ffd43b; color: #000000;
          text-style: bold; }
#table-scroll { height: 1fr; padding: 0 1; }
#table { height: auto; }
#side { width: 40%; min-width: 30; max-width: 72; padding: 0 1; border-left: tall $primary; }
#players { height: auto; margin-bottom: 1; text-wrap: nowrap; text-overflow: ellipsis; }
#drawn { height: auto; margin-bottom: 1; }
#actions-title { height: 1; text-style: bold; }
#actions { height: 1fr; min-height: 3; border: none; padding: 0; }
#legend { height: auto; display: none; margin-top: 1; }
#status { height: auto; max-height: 2; padding: 0 1; background: $boost; }
#keys { height: auto; max-height: 2; padding: 0 1; color: $text-muted; }
#rules-box, #save-box, #end-box { border: round $primary; padding: 0 1; background: $surface; }
RulesScreen, SaveScreen { align: center middle; }
#rules-box { width: 90%; max-width: 100; height: 90%; }
#rules-scroll { height: 1fr; }
#rules-keys, #save-keys, #end-keys { height: auto; color: $text-muted; }
#save-box { width: 70%; max-width: 80; height: auto; }
#save-error { height: auto; color: $error; }
#end-box { height: 1fr; }
#end-scroll { height: 1fr; }
#end-status { height: auto; padding: 0 1; }
"""


def seat_names(seats: Sequence[Seat], catalog: Catalog) -> list[str]:
    """The names the game shows for its seats: people by name, bots by level (numbered when the
    table has more than one bot)."""
    bots = [i for i, seat in enumerate(seats) if seat.is_bot]
    names = []
    for i, seat in enumerate(seats):
        if not seat.is_bot:
            names.append(seat.name)
            continue
        level = catalog.text(f"level.{seat.level}")
        if len(bots) > 1:
            names.append(catalog.text("seat.bot_numbered", number=bots.index(i) + 1, level=level))
        else:
            names.append(catalog.text("seat.bot", level=level))
    return names


def describe_action(catalog: Catalog, action: Action) -> str:
    """A placement in words, such as "snake 2, right end (orange side)"."""
    if action.kind is ActionKind.NEW:
        return catalog.text("action.new")
    assert action.end is not None
    if action.kind is ActionKind.EXTEND:
        return catalog.text(
            f"action.extend.{action.end.value}",
            snake=action.snake + 1,
            side=catalog.colour_side(action.side),
        )
    if action.kind is ActionKind.CAP:
        return catalog.text(f"action.cap.{action.end.value}", snake=action.snake + 1)
    assert action.end2 is not None
    return catalog.text(
        "action.join",
        snake=action.snake + 1,
        end=catalog.text(f"end.short.{action.end.value}"),
        snake2=action.snake2 + 1,
        end2=catalog.text(f"end.short.{action.end2.value}"),
    )


class HisssApp(App[None]):
    """The terminal game; see the module docstring.

    ``save_path`` is the file offered when saving (by default ``hisss-SEED.json``); ``loaded``
    says the match continues a saved game.
    """

    TITLE = "Hisss"
    CSS = CSS
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h", "hint", show=False),
        Binding("u", "undo", show=False),
        Binding("s", "save", show=False),
        Binding("c", "colour_blind", show=False),
        Binding("question_mark", "rules", show=False),
        Binding("q", "quit", show=False),
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
    ) -> None:
        super().__init__()
        self.match = match
        self.catalog = catalog
        self.look = Look(catalog, colour_blind)
        self.delay = delay
        self.save_path = save_path
        self.loaded = loaded
        self.names = seat_names(match.game.seats, catalog)
        #: Every snake claimed with its seat, in order ("Hisss!").
        self.claims: list[tuple[int, Snake]] = []
        #: Every hint shown.
        self._actions: list[Action] = []
        self._options_key: tuple[int, object, bool] | None = None
        self._banner_timer: Timer | None = None
        self._end_shown = False

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        """The game's widgets (see the module docstring)."""
        yield Static(id="top")
        yield Static(id="prompt")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                yield FanView(self.look, id="fan")
                yield Static(id="banner")
                with VerticalScroll(id="table-scroll"):
                    yield TableView(self.look, id="table")
            with Vertical(id="side"):
                yield Static(id="players")
                yield Static(id="drawn")
                yield Static(id="actions-title")
                yield OptionList(id="actions")
                yield Static(id="legend")
        yield Static(id="status")
        yield Static(id="keys")

    def on_mount(self) -> None:
        """Greet, name the starter, and let the first player (or bot) move."""
        catalog, match = self.catalog, self.match
        if self.loaded:
            greeting = catalog.text("status.loaded", turn=match.game.state.turns + 1)
        elif match.is_demo():
            greeting = catalog.text("status.demo")
        else:
            greeting = catalog.text("status.welcome")
        game = match.game
        if game.cards and not game.placements:
            starter = catalog.text("status.starter", card=catalog.card_name(game.cards[0]))
            greeting = f"{greeting} {starter}"
        self.say(greeting)
        self.advance()

    # ------------------------------------------------------------------ state of play

    def phase(self) -> str:
        """``pick`` (a person draws), ``place`` (a person places), ``bot`` or ``over``."""
        match = self.match
        if match.is_over():
            return "over"
        if match.bot_to_move():
            return "bot"
        return "pick" if match.game.phase is Phase.DRAW else "place"

    def advance(self) -> None:
        """Hand the game to whoever moves next: a person (focus), the bots, or the end screen."""
        self.refresh_view()
        phase = self.phase()
        if phase == "over":
            self.show_end()
        elif phase == "bot":
            self.play_bots()
        elif phase == "pick":
            self.part(FanView).focus()
        else:
            self.part("#actions", OptionList).focus()

    def alive(self) -> bool:
        """True while the app runs with its game screen (timers may fire as it closes)."""
        return self.is_running and bool(self.screen_stack)

    def part(self, selector: str | type[W], expect: type[W] | None = None) -> W:
        """A widget of the game screen, even while another screen is over it."""
        screen = self.screen_stack[0]
        if isinstance(selector, str):
            assert expect is not None
            return screen.query_one(selector, expect)
        return screen.query_one(selector)

    def say(self, text: str) -> None:
        """Show ``text`` on the status line."""
        self.part("#status", Static).update(text)
        if isinstance(self.screen, EndScreen):
            self.screen.show_status(text)

    # ------------------------------------------------------------------ drawing the screen

    def refresh_view(self) -> None:
        """Redraw every part of the game screen from the match."""
        catalog, match, look = self.catalog, self.match, self.look
        state = match.game.state
        phase = self.phase()
        rules = state.rules
        scoring = catalog.text(f"scoring.{rules.scoring.value}", target=rules.target)
        top = Text.assemble(
            (catalog.text("app.title"), "bold"),
            " · ",
            catalog.text("top.turn", turn=state.turns + (0 if phase == "over" else 1)),
            " · ",
            catalog.text(
                "top.setup",
                rules=rules.preset or catalog.text("rules.custom"),
                deck=state.deck.name,
                scoring=scoring,
            ),
        )
        self.part("#top", Static).update(top)
        name = self.names[state.to_move]
        card = catalog.card_name(state.drawn) if state.drawn is not None else ""
        prompts = {
            "pick": catalog.text("phase.pick", name=name),
            "place": catalog.text("phase.place", name=name, card=card),
            "bot": catalog.text("phase.bot", name=name),
            "over": catalog.text("phase.over"),
        }
        self.part("#prompt", Static).update(prompts[phase])
        self.part(FanView).show(look, state.remaining, phase == "pick")
        self.part("#players", Static).update(self.players_text())
        drawn = Text(catalog.text("drawn.title"), style="bold")
        drawn.append("\n")
        if state.drawn is not None:
            drawn.append_text(look.card(state.drawn))
            drawn.append(" " + catalog.card_name(state.drawn))
        else:
            drawn.append(catalog.text("drawn.none"), style="italic")
        self.part("#drawn", Static).update(drawn)
        self.part("#actions-title", Static).update(catalog.text("actions.title"))
        self.refresh_actions(phase)
        legend = self.part("#legend", Static)
        legend.display = look.colour_blind
        legend.update(look.legend())
        keys = {
            "pick": catalog.text("keys.pick"),
            "place": catalog.text("keys.place"),
            "bot": catalog.text("keys.wait"),
            "over": "",
        }[phase]
        common = catalog.text("keys.common")
        self.part("#keys", Static).update(f"{keys} · {common}" if keys else common)
        self.refresh_table()

    def players_text(self) -> Text:
        """One line per player: who moves, the name, the cards in the pit and the pit itself."""
        state = self.match.game.state
        over = self.match.is_over()
        room = self.part("#players", Static).size.width
        width = min(max(len(n) for n in self.names), max(8, room - 12) if room else 12)
        text = Text(self.catalog.text("players.title"), style="bold")
        for seat, name in enumerate(self.names):
            moving = seat == state.to_move and not over
            text.append("\n")
            text.append("▶ " if moving else "  ", style="bold #ffd43b")
            shown = name if len(name) <= width else name[: width - 1] + "…"
            text.append(shown.ljust(width), style="bold" if moving else "")
            text.append(f" {state.pit_cards(seat):>2} ")
            pit = self.look.pit(state.pits[seat])
            text.append_text(pit or Text(self.catalog.text("players.empty_pit"), style="dim"))
        text.no_wrap = True
        text.overflow = "ellipsis"
        return text

    def refresh_actions(self, phase: str) -> None:
        """Fill the list of placements for the drawn card (kept while the position stays)."""
        options = self.part("#actions", OptionList)
        state = self.match.game.state
        key = (state.turns, state.drawn, self.look.colour_blind)
        if phase != "place":
            if self._options_key is not None or options.option_count:
                options.clear_options()
                options.add_option(Option(self.catalog.text("actions.none"), disabled=True))
            self._actions = []
            self._options_key = None
            return
        if key == self._options_key:
            return
        highlighted = options.highlighted if self._options_key is not None else None
        self._actions = state.legal_actions()
        options.clear_options()
        options.add_options([Option(self.action_prompt(a)) for a in self._actions])
        options.highlighted = highlighted if highlighted is not None else 0
        self._options_key = key

    def action_prompt(self, action: Action) -> Text:
        """A placement in the list: the card as it would lie there, and the place in words."""
        card = self.match.game.state.drawn
        assert card is not None
        if action.kind is ActionKind.NEW:
            ghost = self.look.card(card)
        else:
            assert action.end is not None
            ghost = self.look.ghost(card, action.end, action.side)
        return Text.assemble(ghost, " ", describe_action(self.catalog, action))

    def chosen_action(self) -> Action | None:
        """The placement highlighted in the list, if any."""
        index = self.part("#actions", OptionList).highlighted
        if index is None or not 0 <= index < len(self._actions):
            return None
        return self._actions[index]

    def refresh_table(self) -> None:
        """Redraw the snakes with the marks of the highlighted placement, scrolled into view."""
        state = self.match.game.state
        self.part(TableView).show(
            self.look,
            state.table,
            state.drawn if self._actions else None,
            self._actions,
            self.chosen_action(),
            self.catalog.text("table.empty"),
        )
        self.call_after_refresh(self._scroll_to_chosen)

    def _scroll_to_chosen(self) -> None:
        if not self.alive():
            return
        table = self.part(TableView)
        region = table.chosen_region()
        if region is not None:
            scroll = self.part("#table-scroll", VerticalScroll)
            scroll.scroll_to_region(region.translate(table.virtual_region.offset), animate=False)

    def show_banner(self, seat: int, snake: Snake) -> None:
        """The "Hisss!" banner: who took which snake (it hides itself after a few seconds)."""
        self.claims.append((seat, snake))
        banner = self.part("#banner", Static)
        banner.update(self.banner_text(seat, snake))
        banner.display = True
        if self._banner_timer is not None:
            self._banner_timer.stop()
        self._banner_timer = self.set_timer(BANNER_SECONDS, self._hide_banner)

    def banner_text(self, seat: int, snake: Snake) -> Text:
        """The banner's words and the snake taken."""
        text = Text(self.catalog.plural("banner.hisss", snake.length, name=self.names[seat]) + "  ")
        text.append_text(Text(" ").join(self.look.placed_cards(snake)))
        return text

    def _hide_banner(self) -> None:
        if self.alive():
            self.part("#banner", Static).display = False

    # ------------------------------------------------------------------ moves

    def on_fan_view_picked(self, _: FanView.Picked) -> None:
        """A person picks a card: the next card of the deck is drawn."""
        if self.phase() != "pick":
            return
        self.match.draw()
        self.advance()

    def on_option_list_option_highlighted(self, _: OptionList.OptionHighlighted) -> None:
        """Show the highlighted placement on the table."""
        if self._actions:
            self.refresh_table()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Place the drawn card as the chosen placement."""
        if self.phase() == "place" and 0 <= event.option_index < len(self._actions):
            self.place(self._actions[event.option_index])
            self.advance()

    def on_table_view_end_clicked(self, event: TableView.EndClicked) -> None:
        """A click on a marked end: choose a placement there, or place it when already chosen."""
        if self.phase() != "place":
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

    def place(self, action: Action) -> None:
        """The player to move places the drawn card as ``action``; say what the placement did,
        with the "Hisss!" banner when it claimed a snake."""
        catalog = self.catalog
        placement = self.match.place(action)
        self.say(
            catalog.text(
                "status.placed",
                name=self.names[placement.seat],
                card=catalog.card_name(placement.card),
                action=describe_action(catalog, placement.action),
            )
        )
        if placement.claimed is not None:
            self.show_banner(placement.seat, placement.claimed)

    @work(exclusive=True, group="bots")
    async def play_bots(self) -> None:
        """Let the bots move, one after another, until a person is to move or the game ends."""
        match = self.match

        def going_on() -> bool:  # the app still runs the same game
            return self.alive() and match is self.match

        while going_on() and match.bot_to_move():
            if self.delay > 0:
                await asyncio.sleep(self.delay)
            if not going_on() or not match.bot_to_move():
                break
            if match.game.phase is Phase.DRAW:
                match.draw()
                self.refresh_view()
            turn = match.game.state.turns
            action = await asyncio.to_thread(match.bot_choice, match.game.state.copy())
            if not going_on() or match.game.state.turns != turn:
                return
            self.place(action)
            self.refresh_view()
        if going_on():
            self.advance()

    # ------------------------------------------------------------------ keys

    def action_hint(self) -> None:
        """Show what the strongest bot would play (``h``)."""
        phase = self.phase()
        if phase == "pick":
            self.say(self.catalog.text("hint.pick_first"))
        elif phase != "place":
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
        action = await asyncio.to_thread(match.hint, state.copy())
        if not self.alive() or match is not self.match or (state.turns, state.drawn) != where:
            return
        if action in self._actions:
            self.part("#actions", OptionList).highlighted = self._actions.index(action)
        self.say(self.catalog.text("hint.shows", action=describe_action(self.catalog, action)))

    def action_undo(self) -> None:
        """Take back the person's last move and the bots' moves since (``u``)."""
        match = self.match
        reason = match.undo_block()
        if reason is not None:
            self.say(self.catalog.text(reason))
            return
        person = match.people[0]
        match.undo()
        self._options_key = None
        self.say(self.catalog.text("undo.done", name=self.names[person]))
        self.advance()

    def action_save(self) -> None:
        """Save the game so far as a game record (``s``)."""
        seed = self.match.game.seed if self.match.game.seed is not None else "game"
        path = self.save_path or f"hisss-{seed}.json"
        self.push_screen(SaveScreen(self.catalog, self.match.record(), path), self._saved)

    def _saved(self, path: str | None) -> None:
        if path is not None:
            self.save_path = path
            self.say(self.catalog.text("save.done", path=path))

    def action_colour_blind(self) -> None:
        """Turn the colour letters and symbols on or off (``c``)."""
        self.look.colour_blind = not self.look.colour_blind
        if self.claims:
            self.part("#banner", Static).update(self.banner_text(*self.claims[-1]))
        self.say(
            self.catalog.text("colour_blind.on" if self.look.colour_blind else "colour_blind.off")
        )
        self.refresh_view()

    def action_rules(self) -> None:
        """Show the rules (``?``)."""
        self.push_screen(RulesScreen(self.catalog, self.match.game.state))

    # ------------------------------------------------------------------ the end

    def show_end(self) -> None:
        """The end screen, once per game."""
        if self._end_shown:
            return
        self._end_shown = True
        report = end_report(self.catalog, self.look, self.match.game.state, self.names)
        self.push_screen(EndScreen(self.catalog, report, self.match.undo_block), self._ended)

    def _ended(self, choice: str | None) -> None:
        self._end_shown = False
        if choice == "new":
            self.match = self.match.again()
            self._options_key = None
            self.part("#banner", Static).display = False
            self.say(self.catalog.text("status.welcome"))
            self.advance()
        elif choice == "undo":
            self.action_undo()
        else:
            self.exit()


__all__ = ["DEFAULT_DELAY", "HisssApp", "describe_action", "seat_names"]
