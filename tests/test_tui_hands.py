"""The hand variant in the terminal game: a hand shown sorted by colour with the cards that can go
somewhere marked, a card then a place chosen with the arrows, every hand's size in the seat
panel, the bots on their view, people at one keyboard behind the "pass the keyboard" screen, hands
seen by all, Polish, and saving and going on."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from textual.widgets import Static

from hisss.bots import make_level
from hisss.bots.turns import decision_rng
from hisss.core import RAINBOW, ConfigError, HandState, Rules, get_rules, new_game
from hisss.i18n import get_catalog
from hisss.record import load_record
from hisss.tui import HisssApp, Match, parse_players
from hisss.tui.dialogs import QuitScreen
from hisss.tui.render import by_colour
from hisss.tui.saving import autosave_path
from hisss.tui.screens import EndScreen, PassScreen, rules_text
from hisss.tui.widgets import PlayersView
from hisss.tui.words import describe_action, setup_names
from support.tui import (
    bot_choice,
    log_text,
    make_app,
    person_turn,
    played,
    screen_text,
    status_text,
)
from support.waiting import wait_until_async

HANDS = Rules(hand_size=3)


def _hands(match: Match) -> HandState:
    """The position of a hand game."""
    state = match.game.state
    assert isinstance(state, HandState)
    return state


def _hand_box(app: HisssApp) -> str:
    """The text of the side panel's hand box."""
    return str(app.part("#drawn", Static).render())


async def _play_hand_turn(pilot: object, app: HisssApp, rights: int, downs: int) -> str:
    """A person's turn with the keyboard: ``rights`` cards along the hand, ``downs`` places down
    the list, Enter; returns the card played (checked to have left the hand)."""
    await pilot.press(*(["right"] * rights))  # type: ignore[attr-defined]
    card = app.chosen_card
    assert card is not None
    while not app._actions:  # a card that fits nowhere says so and waits for another
        await pilot.press("enter")  # type: ignore[attr-defined]
        assert "fits nowhere" in screen_text(app)
        await pilot.press("right")  # type: ignore[attr-defined]
        card = app.chosen_card
        assert card is not None
    count = len(app._actions)
    await pilot.press(*(["down"] * (downs % count)), "enter")  # type: ignore[attr-defined]
    return app.catalog.card_name(card)


def test_a_hand_game_deals_at_once_and_its_bots_play_their_view() -> None:
    match = Match(parse_players("Ala,bot:hard", HANDS), HANDS, RAINBOW, seed=4)
    game = match.game
    assert _hands(match).hand_sizes == (3, 3) and match.person_to_move()
    first = game.legal_actions()[0]
    match.place(first)
    assert _hands(match).hand_sizes == (3, 3) and match.bot_to_move()
    state = _hands(match)
    expected = make_level("hard").choose_from_hand(
        state.view(1), decision_rng(game.seed, state.turns)
    )
    assert bot_choice(match, state.copy()) == expected
    match.place(expected)
    before = _hands(match).hands[0]
    match.place(game.legal_actions()[-1])
    match.place(bot_choice(match))
    match.undo()  # back to the same hand, the bot's move and the draws taken back
    assert _hands(match).hands[0] == before and match.person_to_move()
    with pytest.raises(ConfigError, match="the level 'gentle' does not play the hand variant"):
        Match(parse_players("Ala,bot:gentle", HANDS), HANDS, RAINBOW, seed=4)


@pytest.mark.slow
async def test_a_whole_hand_game_against_bots_at_80x24(tmp_path: Path) -> None:
    app = make_app("Ala,bot:medium,bot:hard", seed=8, rules=HANDS)
    turns = 0
    async with app.run_test(size=(80, 24)) as pilot:
        while await person_turn(pilot, app):
            assert app.prompt() == "hand"
            game = app.match.game
            shown = app.shown_hand(0)
            assert shown == sorted(game.view(0).hand, key=by_colour)
            assert app.shown_hands() == [0]
            box = _hand_box(app)
            playable = {a.card for a in game.legal_actions()}
            # One mark under every card that can go somewhere, the chosen one a ▲.
            assert box.count("•") + box.count("▲") == sum(card in playable for card in shown)
            assert f"Hand of {app.names[0]}" in screen_text(app)
            assert "←/→ card · ↑/↓ placement · Enter play" in screen_text(app)
            panel = app.part(PlayersView)
            drawn = panel.render()
            players = drawn.plain.split("\n")
            # Only the ▶ of the player to move is yellow, not the rest of a line.
            yellow = [s for s in drawn.spans if "#ffd43b" in str(s.style)]
            assert yellow and all(s.end - s.start == 2 for s in yellow)
            assert players[0] == "Players · hand · cards · pit"
            # Every player's line fits: a long pit is cut, never wrapped over the next player.
            assert all(len(line) <= panel.size.width for line in players)
            for seat, line in enumerate(players[1:]):
                assert f" {_hands(app.match).hand_sizes[seat]:>2} " in line
            name = await _play_hand_turn(pilot, app, turns % 3, turns)
            turns += 1
            mine = [line for line in log_text(app) if line.startswith(f"{app.names[0]}: ")]
            assert name in mine[-1]
            if turns == 3:
                app.save_screenshot("hand-80x24.svg", str(tmp_path))
        assert app.match.is_over() and len(played(app.match)) == RAINBOW.size - 1
        assert isinstance(app.screen, EndScreen)
        await pilot.press("q")
    assert app.return_code == 0 and turns >= 10


@pytest.mark.slow
async def test_people_at_one_keyboard_see_their_hand_only_once_they_hold_it() -> None:
    app = make_app("Ala,Ola", seed=12, rules=HANDS)
    passes = 0
    async with app.run_test(size=(80, 24)) as pilot:
        while not app.match.is_over():
            await wait_until_async(
                lambda: isinstance(app.screen, (PassScreen, EndScreen)),
                what="the pass screen",
                pause=pilot.pause,
            )
            if isinstance(app.screen, EndScreen):
                break
            passes += 1
            seat = app.match.game.to_move
            assert seat is not None and app.prompt() == "pass"
            text = screen_text(app)
            assert f"Pass the keyboard to {app.names[seat]}." in text
            assert "Hand of" not in text
            # Under the screen the game shows no hand either: no card of either hand is named.
            assert app.shown_hands() == [] and "Hand of" not in _hand_box(app)
            assert "Each hand is shown only to its player." in _hand_box(app)
            for key in ("right", "down", "h", "u"):
                await pilot.press(key)  # no key but Enter shows the hand or plays
                assert app.prompt() == "pass" and isinstance(app.screen, PassScreen)
            await pilot.press("enter")
            assert app.prompt() == "hand" and app.shown_hands() == [seat]
            text = screen_text(app)
            assert f"Hand of {app.names[seat]}" in text
            assert f"Hand of {app.names[1 - seat]}" not in text
            await _play_hand_turn(pilot, app, passes % 2, passes)
        assert len(played(app.match)) == RAINBOW.size - 1 and passes == RAINBOW.size - 1
        await pilot.press("q")


async def test_the_pass_screen_lets_no_key_through_but_enter_and_q() -> None:
    # Before: c, u, h, s, ? and q all acted behind the pass screen (h said "Hints are for your
    # own turn" on the player's own turn) and q's dialog drew over the pass box.
    app = make_app("Ala,Ola", seed=12, rules=HANDS)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until_async(
            lambda: isinstance(app.screen, PassScreen), what="the pass screen", pause=pilot.pause
        )
        await pilot.press("enter")
        await _play_hand_turn(pilot, app, 0, 0)  # a move played: q will ask before leaving
        await wait_until_async(
            lambda: isinstance(app.screen, PassScreen), what="the next pass", pause=pilot.pause
        )
        status, look, delay = status_text(app), app.look.colour_blind, app.delay
        for key in ("c", "u", "h", "s", "question_mark", "plus", "minus", "left", "down", "n"):
            await pilot.press(key)
            assert isinstance(app.screen, PassScreen), key
            assert app.prompt() == "pass" and status_text(app) == status, key
            assert (app.look.colour_blind, app.delay) == (look, delay), key
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen)
        pass_box = app.screen_stack[-2].query_one("#pass-box")
        assert not pass_box.display  # the question shows alone
        for key in ("c", "h", "plus"):  # nor do keys act behind the question
            await pilot.press(key)
            assert isinstance(app.screen, QuitScreen), key
            assert (app.look.colour_blind, app.delay, status_text(app)) == (look, delay, status)
        await pilot.press("escape")
        assert isinstance(app.screen, PassScreen) and app.screen.query_one("#pass-box").display
        await pilot.press("enter")
        assert app.prompt() == "hand"
        await pilot.press("q")


async def test_hands_seen_by_all_show_every_hand_and_ask_nobody_to_pass() -> None:
    rules = Rules(hand_size=2, hands_seen_by_all=True)
    app = make_app("Ala,Ola,bot:easy", seed=3, rules=rules)
    async with app.run_test(size=(100, 30)) as pilot:
        await person_turn(pilot, app)
        assert app.prompt() == "hand" and not isinstance(app.screen, PassScreen)
        text = screen_text(app)
        assert all(f"Hand of {name}" in text for name in app.names)
        await _play_hand_turn(pilot, app, 0, 0)
        await person_turn(pilot, app)
        assert app.prompt() == "hand" and app.match.game.to_move == 1
        await pilot.press("h")  # the hint names the card and chooses it, with its place
        await wait_until_async(
            lambda: status_text(app).startswith("Hint (expert): "),
            what="the hint",
            pause=pilot.pause,
        )
        card, where = status_text(app).removeprefix("Hint (expert): ").split(" → ")
        assert app.chosen_card is not None and card == app.catalog.card_name(app.chosen_card)
        chosen = app.chosen_action()
        assert chosen is not None and chosen.card == app.chosen_card
        assert where == describe_action(app.catalog, chosen) + "."
        await pilot.press("q")


async def test_a_polish_hand_game_has_no_english_word(tmp_path: Path) -> None:
    from test_tui import _english_phrases, _leaks  # noqa: PLC0415

    app = make_app("Ala,Ola,bot:medium", seed=5, rules=HANDS, language="pl")
    seen: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(4):
            await wait_until_async(
                lambda: isinstance(app.screen, PassScreen), what="the pass", pause=pilot.pause
            )
            seen.append(screen_text(app))
            await pilot.press("enter")
            seen.append(screen_text(app))
            assert "Karty na ręce: " in seen[-1] and "karta · ↑/↓ miejsce" in seen[-1]
            await _play_hand_turn(pilot, app, 1, 1)
        seen.append(screen_text(app))
        app.save_screenshot("hand-pl.svg", str(tmp_path))
        await pilot.press("q")
    phrases = _english_phrases()
    assert not _leaks(seen, phrases), sorted(_leaks(seen, phrases))
    assert any("Przekaż klawiaturę" in text for text in seen)


async def test_a_hand_game_is_saved_kept_and_goes_on(tmp_path: Path) -> None:
    folder = tmp_path / "unfinished"
    match = Match(parse_players("Ala,bot:medium", HANDS), HANDS, RAINBOW, seed=9)
    app = HisssApp(
        match, get_catalog("en"), delay=0, autosave=folder, save_path=str(tmp_path / "hand.json")
    )
    async with app.run_test(size=(80, 24)) as pilot:
        for turn in range(3):
            await person_turn(pilot, app)
            await _play_hand_turn(pilot, app, turn, turn)
        await person_turn(pilot, app)
        await pilot.press("s", "enter")
        hands = _hands(app.match).hands
        await pilot.press("q", "q")  # asks first, then leaves: the game is kept
    assert app.kept == autosave_path(9, folder)
    kept = autosave_path(9, folder)
    for path in (kept, tmp_path / "hand.json"):
        record = load_record(path)
        assert record.rules.hand_size == 3
        again = Match.from_record(record)
        assert _hands(again).hands == hands and again.person_to_move()
        assert played(again) == played(app.match)
    loaded = HisssApp(Match.from_record(load_record(kept)), app.catalog, delay=0, loaded=True)
    async with loaded.run_test(size=(80, 24)) as pilot:
        await person_turn(pilot, loaded)
        assert loaded.shown_hand(0) == sorted(hands[0], key=by_colour)
        await _play_hand_turn(pilot, loaded, 0, 0)
        await person_turn(pilot, loaded)
        assert len(played(loaded.match)) == len(played(app.match)) + 2
        await pilot.press("q")


def test_the_header_names_the_hands_in_both_languages() -> None:
    def names(rules: str, hands: int, up: bool = False) -> list[str]:
        chosen = replace(get_rules(rules), hand_size=hands, hands_seen_by_all=up)
        return [setup_names(get_catalog(lang), new_game(2, chosen))[0] for lang in ("en", "pl")]

    assert names("classic", 0) == ["classic", "klasyczne"]
    assert names("classic", 3) == ["classic, hands of 3 cards", "klasyczne, po 3 karty na ręce"]
    assert names("pl", 1, up=True) == [
        "Polish, hands of 1 card face up",
        "polskie, po 1 karcie na ręce, odkryte",
    ]
    assert names("classic", 5)[1] == "klasyczne, po 5 kart na ręce"


def test_the_rules_page_explains_the_hands_only_in_a_game_with_hands() -> None:
    english = get_catalog("en")
    with_hands = rules_text(english, new_game(2, Rules(hand_size=3))).plain
    assert "each player holds 3 cards that only they see" in with_hands
    assert "holds" not in rules_text(english, new_game(2, Rules())).plain
    polish = rules_text(get_catalog("pl"), new_game(2, Rules(hand_size=5))).plain
    assert "każdy gracz ma na ręce 5 kart, których nie widzą inni" in polish


async def test_every_player_shows_when_the_polish_heading_takes_two_lines() -> None:
    # Before: the heading wrapped at 80x24 and the last player's line fell off the panel.
    app = make_app("Ala,bot:medium,bot:easy", seed=7, rules=HANDS, language="pl")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        panel = app.part(PlayersView)
        lines = panel.render().plain.split("\n")
        assert lines[:2] == ["Gracze · na ręce · karty ·", "zdobycz"]
        assert panel.region.height == 2 + 3
        text = screen_text(app)
        for name in app.names:
            assert name in text, name
