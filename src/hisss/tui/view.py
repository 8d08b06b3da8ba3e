"""The terminal game's screen drawn from its match: :class:`GameView` is the base of
:class:`~hisss.tui.app.HisssApp`, which adds the moves, the bots, the keys and the dialogs.

The screen, from the top: the turn and the game's options; what the player to move should do;
then the table on the left (the fan of face-down cards, the "Hisss!" banner, the snakes, which
scroll, and the log of the last moves) and on the right each player's cards and pit, the drawn card
and the list of places it can go; at the foot a message and the keys. Every name is drawn as plain
text, never read as markup.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, TypeVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from hisss.core import Action, ActionKind, Card, Snake
from hisss.i18n import Catalog
from hisss.record import Phase
from hisss.tui.match import Match
from hisss.tui.render import Look, by_colour, hand_row
from hisss.tui.screens import EndScreen
from hisss.tui.styles import CSS
from hisss.tui.widgets import BannerView, FanView, LogView, PlayersView, TableView
from hisss.tui.words import SeatNames, describe_action, setup_names

W = TypeVar("W", bound=Widget)

#: How long the "Hisss!" banner stays, in seconds.
BANNER_SECONDS = 3.0

#: A line of the move log: a text, the starter, a move (seat, card, where) or a claim (seat,
#: length), with its data.
LogEntry = tuple[str, tuple[Any, ...]]


class Prompt(StrEnum):
    """What the terminal game waits for: the game's :class:`~hisss.record.Phase` as the screen
    asks it of whoever is at the keyboard. The value names its words in the catalog
    (``phase.<value>``, ``keys.<value>``)."""

    #: A person draws (picks a face-down card).
    PICK = "pick"
    #: A person places the card they drew.
    PLACE = "place"
    #: The hand variant: a person plays a card of their hand.
    HAND = "hand"
    #: The hand variant at one keyboard: the hand waits until its holder says they have it.
    PASS = "pass"
    #: A bot draws or places.
    BOT = "bot"
    #: The game is over.
    OVER = "over"


#: The prompts with keys of their own (``keys.<prompt>``).
KEYED_PROMPTS = (Prompt.PICK, Prompt.PLACE, Prompt.HAND)
#: The prompts in which a person chooses a placement from the list.
PLACING = (Prompt.PLACE, Prompt.HAND)


class GameView(App[None]):
    """Draws the game screen of ``match`` in the catalog's language (see the module docstring)."""

    CSS = CSS

    def __init__(self, match: Match, catalog: Catalog, colour_blind: bool) -> None:
        super().__init__()
        self.match = match
        self.catalog = catalog
        self.look = Look(catalog, colour_blind)
        self.seats = SeatNames.of(match.game.seats, catalog)
        self.names = list(self.seats.names)
        #: The move log, oldest first.
        self.log_entries: list[LogEntry] = []
        self._claim_moment: tuple[int, Snake] | None = None
        self._actions: list[Action] = []
        self._options_key: tuple[int, object, bool] | None = None
        self._banner_timer: Timer | None = None
        self._too_small = False
        self._lasting = False
        #: The hand variant: the card of the hand chosen to play, and the seat of the person who
        #: said they hold the keyboard (people at one keyboard see their hand only after that).
        self.chosen_card: Card | None = None
        self.holder: int | None = None

    def compose(self) -> ComposeResult:
        """The game's widgets (see the module docstring)."""
        yield Static(id="too-small")
        with Vertical(id="game"):
            yield Static(id="top")
            yield Static(id="prompt")
            with Horizontal(id="body"):
                with Vertical(id="left"):
                    yield FanView(self.look, id="fan")
                    yield BannerView(id="banner")
                    with VerticalScroll(id="table-scroll") as scroll:
                        scroll.can_focus = False
                        yield TableView(self.look, id="table")
                    yield LogView(id="log")
                with Vertical(id="side"):
                    yield PlayersView(self.look, self.catalog, id="players")
                    yield Static(id="drawn")
                    yield Static(id="actions-title")
                    yield OptionList(id="actions")
                    yield Static(id="legend")
            yield Static(id="status")
            yield Static(id="keys")

    def prompt(self) -> Prompt:
        """What the screen waits for now (see :class:`Prompt`)."""
        match = self.match
        if match.is_over():
            return Prompt.OVER
        if match.bot_to_move():
            return Prompt.BOT
        if match.holds_hands():
            game = match.game
            hidden = not game.rules.hands_seen_by_all and len(match.people) > 1
            return Prompt.PASS if hidden and self.holder != game.to_move else Prompt.HAND
        return Prompt.PICK if match.game.phase is Phase.DRAW else Prompt.PLACE

    def shown_hands(self) -> list[int]:
        """The seats whose hands the screen shows: every seat when hands are seen by all, the
        one person's against bots, and at one keyboard the hand of the person to move once they
        hold the keyboard."""
        match = self.match
        game = match.game
        if not match.holds_hands():
            return []
        if game.rules.hands_seen_by_all:
            return list(range(game.players))
        if len(match.people) == 1:
            return match.people
        return [game.to_move] if self.prompt() is Prompt.HAND and game.to_move is not None else []

    def shown_hand(self, seat: int) -> list[Card]:
        """The hand of ``seat`` as its view holds it, sorted by colour."""
        return sorted(self.match.game.view(seat).hand, key=by_colour)

    def placing_card(self) -> Card | None:
        """The card whose placements the list offers: the drawn card, or the chosen card of the
        hand."""
        if self.match.holds_hands():
            return self.chosen_card if self.prompt() is Prompt.HAND else None
        return self.match.game.state.drawn

    def choose_card(self, step: int = 0) -> None:
        """The hand variant: keep the chosen card in the hand of the seat to play (the first card
        that can go somewhere when it is not), or move ``step`` cards along the hand."""
        game = self.match.game
        if self.prompt() is not Prompt.HAND or game.to_move is None:
            self.chosen_card = None
            return
        hand = self.shown_hand(game.to_move)
        if self.chosen_card in hand:
            index = hand.index(self.chosen_card)
        else:
            playable = {action.card for action in game.legal_actions()}
            index = next((i for i, card in enumerate(hand) if card in playable), 0)
        self.chosen_card = hand[(index + step) % len(hand)] if hand else None

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

    def write(self, selector: str, content: Text) -> Static:
        """Show ``content`` in the game screen's text ``selector``; an unchanged text is left
        alone, as a new one makes the screen lay out and draw the part again."""
        static = self.part(selector, Static)
        if static.content != content:
            static.update(content)
        return static

    def say(self, text: str, *, lasting: bool = False) -> None:
        """Show ``text`` on the status line (plain text, never markup). It goes with the next
        move (:meth:`unsay`) unless it is ``lasting`` (it stays true after a move)."""
        self._lasting = lasting
        self.write("#status", Text(text))
        if isinstance(self.screen, EndScreen):
            self.screen.show_status(text)

    def unsay(self) -> None:
        """Clear the status line when its message was about the position before a move."""
        if not self._lasting:
            self.say("")

    # ------------------------------------------------------------------ drawing the screen

    def refresh_view(self) -> None:
        """Redraw every part of the game screen from the match."""
        catalog, match, look = self.catalog, self.match, self.look
        state = match.game.state
        prompt = self.prompt()
        rules_name, deck_name = setup_names(catalog, state)
        scoring = catalog.text(f"scoring.{state.rules.scoring.value}", target=state.rules.target)
        turn = catalog.text("top.turn", turn=state.turns + (0 if prompt is Prompt.OVER else 1))
        setup = catalog.text("top.setup", rules=rules_name, deck=deck_name, scoring=scoring)
        top = Text.assemble((catalog.text("app.title"), "bold"), " · ", turn, " · ", setup)
        if top.cell_len > self.size.width - 2:
            # A narrow terminal: the game's name goes first, then the line wraps (never cut).
            top = Text.assemble((turn, "bold"), " · ", setup)
        self.write("#top", top)
        to_move = match.game.to_move
        name = self.names[state.to_move if to_move is None else to_move]
        card = catalog.card_name(state.drawn) if state.drawn is not None else ""
        prompts = {
            Prompt.PICK: catalog.text("phase.pick", name=name),
            Prompt.PLACE: catalog.text("phase.place", name=name, card=card),
            Prompt.HAND: catalog.text("phase.hand", name=name),
            Prompt.PASS: catalog.text("phase.pass", name=name),
            Prompt.BOT: catalog.text("phase.bot", name=name),
            Prompt.OVER: catalog.text("phase.over"),
        }
        self.write("#prompt", Text(prompts[prompt]))
        fan = self.part(FanView)
        fan.show(look, state.remaining, prompt is Prompt.PICK)
        fan.can_focus = prompt is Prompt.PICK and not self._too_small
        self.part(PlayersView).show(look, self.names, state, match.is_over())
        self.choose_card()
        if match.holds_hands():
            drawn = self.hands_text()
        else:
            drawn = Text(catalog.text("drawn.title"), style="bold")
            drawn.append("\n")
            if state.drawn is not None:
                drawn.append_text(look.card(state.drawn))
                drawn.append(" " + catalog.card_name(state.drawn))
            else:
                drawn.append(catalog.text("drawn.none"), style="italic")
        self.write("#drawn", drawn)
        self.write("#actions-title", Text(catalog.text("actions.title")))
        self.refresh_actions(prompt)
        self.write("#legend", look.legend()).display = look.colour_blind
        self.write("#keys", Text(self.key_bar(prompt, self.size.width - 2)))
        entries = self.log_entries[-40:]
        self.part(LogView).show(
            [self.log_line(entry) for entry in entries],
            [self.log_line(entry, short=True) for entry in entries],
        )
        self.refresh_table()

    def hands_text(self) -> Text:
        """The hand variant: the hands the screen shows (:meth:`shown_hands`), sorted by colour,
        the cards that can go somewhere marked, and the chosen card named."""
        catalog, game = self.catalog, self.match.game
        seats = self.shown_hands()
        if not seats:
            return Text(catalog.text("hand.hidden_all"), style="italic")
        playing = self.prompt() is Prompt.HAND
        playable = frozenset(a.card for a in game.legal_actions() if a.card is not None)
        text = Text()
        for seat in seats:
            hand = self.shown_hand(seat)
            if text:
                text.append("\n")
            title = catalog.text(self.seats.key("hand.title", seat), name=self.names[seat])
            text.append(title, style="bold")
            text.append("\n")
            if not hand:
                text.append(catalog.text("hand.empty"), style="italic")
                continue
            moving = playing and seat == game.to_move
            chosen = hand.index(self.chosen_card) if moving and self.chosen_card in hand else None
            text.append_text(hand_row(self.look, hand, playable if moving else frozenset(), chosen))
            if moving and self.chosen_card is not None:
                text.append("\n" + catalog.card_name(self.chosen_card))
        return text

    def key_bar(self, prompt: Prompt, width: int) -> str:
        """The keys of this moment on one line of ``width`` cells: the keys of the prompt, then
        the common ones; when they do not fit, the least needed give way (``?`` shows the rules
        page, which lists every key)."""
        catalog = self.catalog
        keys = catalog.text(f"keys.{prompt}").split(" · ") if prompt in KEYED_PROMPTS else []
        if prompt is Prompt.BOT:
            keys.append(catalog.text("keys.wait"))
        common = catalog.text("keys.common").split(" · ")
        extra = [catalog.text("keys.speed")] if self.match.bots else []
        # hint, undo, save, colours, rules, quit: save and colours go first, the rules (which
        # list every key) and quit never
        going = [common[2], common[3], common[1], *extra, common[0]]
        shown = [*keys, *common, *extra]
        while len(" · ".join(shown)) > width and going:
            shown.remove(going.pop(0))
        return " · ".join(shown)

    def all_keys(self) -> str:
        """Every key of the game, for the rules page."""
        catalog = self.catalog
        keys = [catalog.text(f"keys.{prompt}") for prompt in KEYED_PROMPTS]
        return " · ".join([*keys, catalog.text("keys.common"), catalog.text("keys.speed")])

    def log_line(self, entry: LogEntry, *, short: bool = False) -> Text:
        """A line of the move log, drawn with the current look; ``short`` leaves out the card's
        name (its picture stays) for a narrow log."""
        kind, data = entry
        catalog = self.catalog
        if kind == "starter":
            (card,) = data
            return Text.assemble(
                self.look.card(card), " ", catalog.text("log.starter", card=catalog.card_name(card))
            )
        if kind == "move":
            seat, card, where = data
            named = "" if short else f" {catalog.card_name(card)}"
            return Text.assemble(
                (self.names[seat], "bold"), ": ", self.look.card(card), f"{named} → {where}"
            )
        if kind == "claim":
            seat, length = data
            return Text(self.seats.banner(seat, length), style="bold #ffd43b")
        return Text(str(data[0]), style="italic")

    def refresh_actions(self, prompt: Prompt) -> None:
        """Fill the list of placements for the drawn card (kept while the position stays)."""
        options = self.part("#actions", OptionList)
        options.can_focus = prompt in PLACING and not self._too_small
        state = self.match.game.state
        card = self.placing_card()
        key = (state.turns, card, self.look.colour_blind)
        if prompt not in PLACING or card is None:
            if self._options_key is not None or not options.option_count:
                options.clear_options()
                options.add_option(Option(Text(self.catalog.text("actions.none")), disabled=True))
            self._actions = []
            self._options_key = None
            return
        if key == self._options_key:
            return
        # The highlighted placement stays when only the look changes.
        same = self._options_key is not None and self._options_key[:2] == key[:2]
        highlighted = options.highlighted if same else None
        legal = self.match.game.legal_actions()
        self._actions = [a for a in legal if a.card in (None, card)]
        options.clear_options()
        options.add_options([Option(self.action_prompt(a)) for a in self._actions])
        if not self._actions:
            nowhere = self.catalog.text("hand.nowhere", card=self.catalog.card_name(card))
            options.add_option(Option(Text(nowhere), disabled=True))
        if self._actions:
            options.highlighted = highlighted if highlighted is not None else 0
        self._options_key = key

    def action_prompt(self, action: Action) -> Text:
        """A placement in the list: the card as it would lie there, and the place in words."""
        card = action.card or self.match.game.state.drawn
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
        """Redraw the snakes with the marks of the highlighted placement (or the snake just
        claimed, highlighted where it lay), scrolled into view."""
        state = self.match.game.state
        moment = self._claim_moment
        self.part(TableView).show(
            self.look,
            state.table,
            self.placing_card() if self._actions else None,
            self._actions,
            self.chosen_action(),
            self.catalog.text("table.empty"),
            None if moment is None else (*moment, self.catalog.text("hisss.word")),
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
        self.draw_banner(seat, snake)
        banner = self.part(BannerView)
        banner.display = True
        if self._banner_timer is not None:
            self._banner_timer.stop()
        self._banner_timer = self.set_timer(BANNER_SECONDS, self._hide_banner)

    def draw_banner(self, seat: int, snake: Snake) -> None:
        """Draw the banner's words and the snake, its cards as big as the table's."""
        table = self.part(TableView)
        cards = table.look_at(table.size.width).placed_cards(snake)
        self.part(BannerView).show(self.seats.banner(seat, snake.length), cards)

    def _hide_banner(self) -> None:
        if self.alive():
            self.part(BannerView).display = False


__all__ = ["BANNER_SECONDS", "GameView", "LogEntry"]
