"""The terminal game as a newcomer meets it: names that look like markup, the focus, the move log,
the "Hisss!" moment, grammar for "You", quitting and saving safely, autosave, a terminal too
small, the end screen's places, bot speed, and whole games at 80x24 and 200x60."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.style import Style
from rich.text import Text
from textual.content import Content
from textual.widgets import Input, OptionList, Static

from hisss.core import ActionKind, Colour, End, Rules, get_rules, parse_snake, score
from hisss.i18n import explain_result, get_catalog, symbol, symbol_path
from hisss.record import load_record, save_record
from hisss.record.deckfile import resolve_deck
from hisss.tui import HisssApp, Match, parse_players
from hisss.tui.app import CLAIM_SECONDS
from hisss.tui.dialogs import QuitScreen, SaveScreen
from hisss.tui.render import CHOSEN_MARK, LEGAL_MARK
from hisss.tui.saving import autosave_path
from hisss.tui.widgets import BannerView, FanView, LogView, PlayersView, TableView
from hisss.tui.words import where_placed
from support.tui import (
    log_text,
    make_app,
    person_step,
    person_turn,
    play_to_end,
    played,
    screen_text,
    status_text,
)
from support.waiting import wait_until_async

MINI = resolve_deck("docs/decks/mini.toml")
#: Seconds in which bots that pause 0.01 s before each move would have moved, were they not
#: waiting, even after a claim (to show that they wait, a test must let that time pass).
BOTS_WOULD_MOVE = CLAIM_SECONDS + 0.5


def _coloured_cells(texts: list[Text]) -> int:
    """How many cells of ``texts`` are drawn on a colour (a card's cells)."""
    return sum(
        span.end - span.start
        for text in texts
        for span in text.spans
        if isinstance(span.style, Style) and span.style.bgcolor is not None
    )


def _focused(app: HisssApp) -> object:
    """The widget with the focus."""
    return app.focused


def _flat(app: HisssApp) -> str:
    """The screen's text on one line, frames and runs of spaces folded."""
    return " ".join(re.sub("[│┃▊]", " ", screen_text(app)).split())


# ---------------------------------------------------------------------- names are plain text


@pytest.mark.parametrize("evil", ["[/]", "[red]Evil[/red]", "[bold"])
async def test_names_that_look_like_markup_are_shown_as_written(evil: str, tmp_path: Path) -> None:
    # Before: "[/]" ended the game in a MarkupError and "[red]Evil[/red]" turned the prompt red.
    app = make_app(f"{evil},Ola", seed=2, deck=MINI)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert f"{evil}: pick a card" in screen_text(app)
        prompt = app.query_one("#prompt", Static).render()
        assert not any(span.style for span in getattr(prompt, "spans", []))
        await play_to_end(pilot, app)
        assert evil in screen_text(app)  # the end screen: table, sentence and pits
        assert any(line.startswith(f"{evil}: ") for line in log_text(app))
        assert any(evil in line for line in log_text(app) if "Hisss!" in line)
    path = tmp_path / "evil.json"
    save_record(app.match.record(), path)
    assert load_record(path).seats[0] == evil
    loaded = HisssApp(Match.from_record(load_record(path)), get_catalog("en"), delay=0)
    async with loaded.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert evil in screen_text(loaded)


async def test_an_unexpected_error_is_kept_for_the_log_not_printed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = make_app("Ala,Ola", seed=2, deck=MINI)

    def broken(_: object) -> None:
        raise RuntimeError("the fan fell off the table")

    monkeypatch.setattr(HisssApp, "on_fan_view_picked", broken)
    with pytest.raises(RuntimeError, match="the fan fell off"):
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("enter")
            await pilot.pause()
    assert isinstance(app.failure, RuntimeError)
    assert app.return_code == 1 and not app._exit_renderables


# ---------------------------------------------------------------------- the keys shown work


async def test_arrows_and_enter_work_wherever_the_focus_is() -> None:
    # Before: one Tab moved the focus to the table, and the arrows and Enter did nothing.
    app = make_app("Ala,Ola", seed=8)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        fan, options = app.query_one(FanView), app.query_one("#actions", OptionList)
        for keys in (["tab"], ["tab", "tab"], ["shift+tab"]):
            await pilot.press(*keys)
            assert _focused(app) is fan  # the one widget the turn uses keeps the focus
            await pilot.press("right")
            assert fan.cursor == 1
            await pilot.press("left", "enter")
            assert app.prompt() == "place" and _focused(app) is options
            await pilot.press(*keys)
            assert _focused(app) is options
            await pilot.press("down")
            assert options.highlighted == min(1, options.option_count - 1)
            turns = len(played(app.match))
            await pilot.press("enter")
            assert len(played(app.match)) == turns + 1 and app.prompt() == "pick"
        # A click elsewhere does not take the keys away either.
        await pilot.click("#log")
        await pilot.press("enter")
        assert app.prompt() == "place"


# ---------------------------------------------------------------------- the move log


async def test_every_bot_move_is_in_the_log_and_old_messages_go() -> None:
    app = make_app("Ala,bot:easy,bot:medium", seed=4, deck=MINI)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        assert status_text(app).startswith("Hints are for placing a card: pick one")
        await pilot.press("enter")
        assert status_text(app) == ""  # the hint about picking no longer applies
        await pilot.press("enter")
        await wait_until_async(lambda: app.prompt() == "pick", what="Ala's turn", pause=pilot.pause)
        moves = [line for line in log_text(app) if " → " in line][1:]
        assert [line.split(":")[0] for line in moves[:3]] == [
            "Ala",
            "Bot 1 (easy)",
            "Bot 2 (medium)",
        ]
        log = app.query_one(LogView)
        assert log.border_title == "Moves" and "Bot 1 (easy)" in screen_text(app)


def test_the_log_says_where_a_card_lies_as_the_board_shows_it() -> None:
    # Before: "blue tail → snake 1, left end" while the board drew the tail on the right, as the
    # engine turns a snake so that a head lies on the left and a tail on the right.
    seen: set[tuple[ActionKind, bool]] = set()
    for rules in (Rules(), get_rules("pl"), Rules(forced_placement=False)):
        for seed in range(12):
            match = Match(parse_players("Ala,Ola,Ela", rules), rules, MINI, seed)
            while not match.is_over():
                match.draw()
                legal = match.game.state.legal_actions()
                placed = match.place(legal[seed % len(legal)])
                table = match.game.state.table
                where = where_placed(placed, table)
                seen.add((placed.action.kind, where is None))
                if where is None:
                    assert placed.claimed is not None
                    continue
                snake, end = where
                cards = table[snake].cards
                if end is End.L:
                    assert cards[0] == placed.card
                elif end is End.R:
                    assert cards[-1] == placed.card
                else:
                    assert placed.card in cards[1:-1]
    assert {(kind, False) for kind in ActionKind} <= seen and (ActionKind.CAP, True) in seen


# ---------------------------------------------------------------------- "Hisss!"


async def test_you_take_the_snake_highlighted_on_the_board_until_the_next_draw() -> None:
    app = make_app("You,Ola", seed=2, deck=MINI)
    async with app.run_test(size=(80, 24)) as pilot:
        while not app.claims:
            await person_step(pilot, app)
        seat, snake = app.claims[0]
        assert seat == 0
        text = screen_text(app)
        assert f"Hisss! You take a snake of {snake.length} cards" in text
        assert log_text(app)[-1] == f"Hisss! You take a snake of {snake.length} cards"
        table = app.query_one(TableView)
        assert table.claimed is not None and table.claimed[1] == snake
        assert re.search(r"\n ?\d+ .*Hisss!", text)  # the claimed row, tagged
        await pilot.press("enter")  # Ola draws: the claimed snake has left the table
        lines, _, _ = table.layout_lines(table.size.width)
        assert table.claimed is None and not any("Hisss!" in line.plain for line in lines)


@pytest.mark.parametrize("width", [80, 100, 120, 160, 200])
async def test_the_banner_shows_the_whole_snake_at_any_width(width: int) -> None:
    # Before: at 100 columns an 8-card snake showed "<" and " >", its six middle cards gone.
    snake = parse_snake(
        "H:red M:red-orange M:orange-yellow M:yellow-green M:green-blue M:blue-purple "
        "M:purple-red T:red"
    )
    for colour_blind in (False, True):
        app = make_app("Bartłomiej,bot:medium", seed=1, colour_blind=colour_blind)
        async with app.run_test(size=(width, 30)) as pilot:
            app.show_banner(0, snake)
            await pilot.pause()
            banner = app.query_one(BannerView)
            lines = banner.lines(banner.size.width)
            assert banner.size.height == len(lines) >= 2  # nothing is cut off
            assert all(line.cell_len <= banner.size.width for line in lines)
            table = app.query_one(TableView)
            big = table.size.width >= TableView.WIDE  # the banner's cards are the table's size
            cards = (app.look.scaled(4) if big else app.look).placed_cards(snake)
            assert _coloured_cells(lines) == _coloured_cells(cards)
            half = 2 if big else 1  # the cells of one colour: 1, or 2 for big cards
            assert _coloured_cells(cards) == 6 * 4 * half + 2 * (1 + 2 * half)  # 6 mids, 2 ends
            if colour_blind:
                shown = screen_text(app).split("Hisss!", 1)[1].split(" 1 ")[0]
                assert len(re.findall(r"[A-Z][●▲★◆■✚]", shown)) == 14


def test_grammar_for_you_in_both_languages() -> None:
    three = parse_snake("H:red M:red-orange T:orange")
    six = parse_snake("H:red M:red-orange M:orange-yellow M:yellow-green M:green-blue T:blue")
    cases = [
        ("en", [[three], []], "You win with the most cards (3)."),
        ("pl", [[three], []], "Wygrywasz: najwięcej kart (3)."),
        ("en", [[three], [three]], "You and Ola share the win: tied on cards (3)"),
        ("pl", [[three], [three]], "Ty i Ola dzielicie się zwycięstwem"),
        (
            "pl",
            [[three, three], [six]],
            "Ty i Ola macie tyle samo kart (6); remis rozstrzyga najdłuższy wąż – wygrywa Ola",
        ),
        (
            "pl",
            [[six], [three, three]],
            "Ty i Ola macie tyle samo kart (6); remis rozstrzyga najdłuższy wąż – wygrywasz",
        ),
        ("en", [[six], [three, three]], "You and Ola tie on cards (6); you win the tie-break"),
        ("en", [[], [three]], "Ola wins with the most cards (3)."),
    ]
    for language, pits, expected in cases:
        catalog = get_catalog(language)
        result = score(pits, Rules())
        you = catalog.text("seat.default_person")
        sentence = explain_result(result, Rules(), [you, "Ola"], catalog, you=0)
        assert sentence.startswith(expected), sentence


async def test_you_and_ty_take_and_undo_in_the_second_person() -> None:
    for language, banner, undone in (
        ("en", "Hisss! You take a snake of 3 cards", "Took back your last move."),
        ("pl", "Hisss! Zabierasz węża z 3 kart", "Cofnięto twój ostatni ruch."),
    ):
        name = get_catalog(language).text("seat.default_person")
        app = make_app(f"{name},bot:medium", seed=1, deck=MINI, language=language)
        async with app.run_test(size=(80, 24)) as pilot:
            while not any(seat == 0 for seat, _ in app.claims):
                assert await person_turn(pilot, app)
                await person_step(pilot, app)
            assert banner in log_text(app)
            await pilot.press("u")
            assert status_text(app) == undone


# ---------------------------------------------------------------------- quitting and saving


async def test_q_asks_first_and_the_game_is_kept(tmp_path: Path) -> None:
    # Before: q ended a running game at once, with nothing kept.
    app = make_app("Ala,bot:medium", seed=5, deck=MINI)
    app.autosave = tmp_path
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("q")  # nothing played yet: it just leaves
    assert app.kept is None and not list(tmp_path.iterdir())
    app = make_app("Ala,bot:medium", seed=5, deck=MINI)
    app.autosave = tmp_path
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "enter")
        await wait_until_async(lambda: app.prompt() == "pick", what="Ala's turn", pause=pilot.pause)
        kept = autosave_path(5, tmp_path)
        assert load_record(kept).turns == app.match.record().turns  # kept after every move
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen)
        assert "hisss play --resume goes on with it" in _flat(app)
        await pilot.press("escape")
        assert not isinstance(app.screen, QuitScreen) and app.is_running
        await pilot.press("enter", "q", "q")
    assert app.kept == kept and load_record(kept).turns == app.match.record().turns
    assert len(load_record(kept).cards) == len(app.match.game.cards)  # the drawn card too
    resumed = HisssApp(
        Match.from_record(load_record(kept)), get_catalog("en"), delay=0, loaded=True,
        autosave=tmp_path,
    )  # fmt: skip
    async with resumed.run_test(size=(80, 24)) as pilot:
        assert resumed.prompt() == "place"
        await play_to_end(pilot, resumed)
    assert not kept.exists()  # a finished game is not kept


async def test_a_game_the_autosave_cannot_keep_is_never_said_to_be_kept(tmp_path: Path) -> None:
    # Before: with a folder that could not be written, q said "The game is kept", the command
    # ended with status 0 and the game was lost.
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the folder should be\n")
    app = make_app("Ala,bot:medium", seed=5, deck=MINI)
    app.autosave = blocked
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "enter")
        await wait_until_async(lambda: app.prompt() == "pick", what="Ala's turn", pause=pilot.pause)
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen)
        said = _flat(app)
        assert "hisss play --resume goes on with it" not in said
        assert "The game could not be kept in" in said
        assert "press s to save it to a file first, or q to leave without it" in said
        await pilot.press("s")  # offered a save elsewhere before leaving
        assert isinstance(app.screen, SaveScreen)
        app.screen.query_one(Input).value = str(tmp_path / "rescued.json")
        await pilot.press("enter")
    assert app.kept is None  # so the command line says nothing about a kept game
    assert load_record(tmp_path / "rescued.json").turns == app.match.record().turns


async def test_a_save_asks_before_replacing_a_file_and_the_bots_wait(tmp_path: Path) -> None:
    # Before: a file of the same name was overwritten without a word, and the bots played on
    # behind the dialog, so the file held an older position than the message said.
    path = tmp_path / "game.json"
    path.write_text("my notes\n")
    app = make_app("bot:easy,bot:medium", seed=71, deck=MINI, delay=0.01, save_path=str(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until_async(lambda: len(played(app.match)) >= 3, what="moves", pause=pilot.pause)
        await pilot.press("s")
        assert isinstance(app.screen, SaveScreen)
        turns = len(played(app.match))
        await pilot.pause(BOTS_WOULD_MOVE)
        assert len(played(app.match)) == turns  # the bots wait behind the dialog
        await pilot.press("enter")
        assert path.read_text() == "my notes\n"
        assert "exists already: press Enter again to replace it" in _flat(app)
        assert len(played(app.match)) == turns
        await pilot.press("enter")
        assert not isinstance(app.screen, SaveScreen)
        assert status_text(app) == f"Saved turn {turns + 1} to {path}."
        assert len(load_record(path).turns) == turns
        await wait_until_async(
            lambda: len(played(app.match)) > turns, what="the bots go on", pause=pilot.pause
        )
        # Another name needs no confirmation; changing the name asks again for an existing one.
        await pilot.press("s")
        box = app.screen
        box.query_one(Input).value = str(tmp_path / "other.json")
        await pilot.press("enter")
        assert (tmp_path / "other.json").exists() and not isinstance(app.screen, SaveScreen)


# ---------------------------------------------------------------------- size, end, symbols


async def test_a_terminal_too_small_says_so_and_the_bots_wait() -> None:
    app = make_app("bot:easy,bot:medium", seed=71, deck=MINI, delay=0.01)
    async with app.run_test(size=(50, 15)) as pilot:
        await pilot.pause()
        assert "The window is too small to play: it is 50\N{MULTIPLICATION SIGN}15" in _flat(app)
        assert not app.query_one("#game").display
        await pilot.pause(BOTS_WOULD_MOVE)
        assert not played(app.match)  # the bots wait for the terminal to grow
        await pilot.resize_terminal(80, 24)
        await wait_until_async(lambda: played(app.match), what="a bot's move", pause=pilot.pause)
        assert app.query_one("#game").display and "too small" not in screen_text(app)


async def test_the_end_screen_gives_each_person_a_place_and_every_column_a_heading() -> None:
    app = make_app("Ala,bot:hard,Ola", seed=3, deck=MINI)
    async with app.run_test(size=(100, 30)) as pilot:
        await play_to_end(pilot, app)
        report = app.screen.query_one("#end-report", Static).render()
        text = _flat(app)
        assert re.search(r"Ala: place [1-3] of 3", text) and re.search(
            r"Ola: place [1-3] of 3", text
        )
        assert "Place Player Cards Snakes Longest" in text
        assert report is not None


async def test_colour_blind_symbols_are_the_catalogs_and_no_mark_is_a_symbol() -> None:
    glyphs = {symbol(colour) for colour in [*Colour, None]}
    assert CHOSEN_MARK not in glyphs and LEGAL_MARK not in glyphs
    assert symbol(None) == "✱" and symbol_path(None)
    app = make_app("Ala,Ola", seed=8, colour_blind=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("enter")
        assert "W✱" in screen_text(app)  # the legend's rainbow cell


async def test_names_are_whole_before_the_first_draw() -> None:
    # Before: "Bot 2 (medi…" until the first redraw.
    app = make_app("Aleksandra,bot:medium,Bartłomiej,bot:hard,bot:easy", seed=13)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        players = app.query_one(PlayersView)
        text = screen_text(app)
        for name in app.names:
            assert name in text, name
        assert players.region.height == 6


async def test_the_polish_header_names_the_rules_and_deck_in_polish() -> None:
    app = make_app("Ala,bot:medium", seed=1, language="pl")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert "zasady: klasyczne · talia: tęczowa · najwięcej kart" in screen_text(app)
        assert "classic" not in screen_text(app) and "rainbow" not in screen_text(app)


async def test_bot_speed_keys() -> None:
    app = make_app("Ala,bot:medium", seed=1, delay=0.8)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("minus")
        assert app.delay == 1.5 and status_text(app) == "Bots pause 1.5 s before each move."
        await pilot.press("plus", "plus", "plus")
        assert app.delay == 0.2
        await pilot.press("plus", "plus")
        assert app.delay == 0 and status_text(app) == "Bots play at full speed."
        assert "+/- bot speed" in screen_text(app)


# ---------------------------------------------------------------------- whole games


@pytest.mark.slow
@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_a_whole_game_of_five(size: tuple[int, int], tmp_path: Path) -> None:
    app = make_app("Ala,bot:easy,Ola,bot:medium,bot:hard", seed=21, colour_blind=True)
    async with app.run_test(size=size) as pilot:
        placed = 0
        while await person_turn(pilot, app):
            if app.prompt() == "place":
                placed += 1
                text = screen_text(app)
                assert all(line.rstrip() == line.rstrip()[: size[0]] for line in text.split("\n"))
                assert app.query_one(OptionList).region.height >= 3
            await person_step(pilot, app, down=placed % 3)
        assert app.match.is_over() and len(played(app.match)) == 49
        text = _flat(app)
        assert "Ala: place" in text and "Ola: place" in text
        app.save_screenshot(f"five-{size[0]}x{size[1]}.svg", str(tmp_path))
        await pilot.press("q")
    assert app.return_code == 0


# ---------------------------------------------------------------------- 80 by 24


@pytest.mark.parametrize("language", ["en", "pl"])
async def test_at_80_by_24_each_move_takes_one_line_and_nothing_is_cut(language: str) -> None:
    # Before: each logged move took two lines, so with five players the log held two moves; the
    # key bar wrapped; the hand variant's header was cut.
    players = "Ala,bot:easy,bot:easy,bot:medium,bot:easy"
    app = make_app(players, seed=3, rules=Rules(hand_size=3), language=language)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until_async(lambda: app.prompt() == "hand", what="Ala's turn", pause=pilot.pause)
        await pilot.press("enter")
        await wait_until_async(
            lambda: app.prompt() == "hand" and len(played(app.match)) >= 5,
            what="a round of moves",
            pause=pilot.pause,
        )
        log = app.query_one(LogView)
        shown = log.render().plain.splitlines()
        moves = log_text(app)[-4:]
        assert len(shown) == 4  # the last four moves: every opponent's
        for line, entry in zip(shown, moves, strict=True):
            assert line.split(":")[0] == entry.split(":")[0], (line, entry)
            assert len(line) <= log.size.width
        screen = screen_text(app).splitlines()
        top = app.part("#top", Static).render()
        assert isinstance(top, Content)
        assert top.plain.strip() in " ".join(line.strip() for line in screen[:2])
        keys = app.part("#keys", Static)
        assert keys.size.height == 1
        shown_keys = keys.render()
        assert isinstance(shown_keys, Content)
        assert len(shown_keys.plain) <= 78 and shown_keys.plain.strip() in screen[-1]
        for key in ("?", "q"):
            assert f"{key} " in shown_keys.plain
        await pilot.press("question_mark")  # the rules page lists every key, the hidden ones too
        every = screen_text(app)
        for word in app.all_keys().split(" · ")[:3]:
            assert word in every
        await pilot.press("escape")


def test_snake_ends_are_named_by_words_not_colour_letters() -> None:
    # Before: "(R)" and "(L)" (Polish "(P)") for a snake's ends, letters that also stand for red
    # (and Polish orange) when the colour letters are on.
    for language in ("en", "pl"):
        catalog = get_catalog(language)
        letters = {catalog.colour_letter(c) for c in (*Colour, None)}
        for end in ("L", "R"):
            word = catalog.text(f"end.short.{end}")
            assert word not in letters and len(word) > 1
