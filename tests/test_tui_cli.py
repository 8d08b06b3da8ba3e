"""``hisss play`` on the command line: its options reach the game, bad ones end with one clear line
and exit status 2, and without Textual it says which extra to install."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

from hisss.cli import app
from hisss.core import RAINBOW, Rules
from hisss.record import load_record, save_record
from hisss.tui import DEFAULT_DELAY, Match, parse_players
from hisss.tui.saving import autosave_path
from support.cli import CliRunner
from support.tui import played as played_turns

runner = CliRunner()


@pytest.fixture(autouse=True)
def user_folders(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The user's data and state folders (unfinished games, the error log) in a temporary
    folder."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return tmp_path


@dataclass
class Played:
    """What the replaced game reports when it ends."""

    kept: Path | None = None
    failure: BaseException | None = None


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Replace the full-screen game by a recorder of what it was asked to play."""
    calls: list[dict[str, Any]] = []

    def fake_play(match: Match, language: str, **options: Any) -> Played:
        calls.append({"match": match, "language": language, **options})
        return Played()

    monkeypatch.setattr("hisss.tui.play", fake_play)
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)
    return calls


def _play(*args: str, env: dict[str, str] | None = None) -> Result:
    return runner.invoke(app, ["play", *args], env=env)


def _error(result: Result, fragment: str) -> None:
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert fragment in lines[0], lines[0]
    assert result.stdout == ""


def test_play_with_options(played: list[dict[str, Any]]) -> None:
    result = _play(
        "--players", "Ala,bot:hard,Ola", "--rules", "pl", "--set", "scoring=snakes",
        "--deck", "docs/decks/quick.json", "--seed", "42", "--lang", "PL", "--colour-blind",
        "--delay", "0",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    (call,) = played
    match: Match = call["match"]
    assert [s.name for s in match.game.seats] == ["Ala", "bot:hard", "Ola"]
    assert (
        match.game.rules.join_claim.value == "always" and match.game.rules.scoring.value == "snakes"
    )
    assert match.game.deck.name == "quick" and match.game.seed == 42
    assert call["language"] == "pl" and call["colour_blind"] is True and call["delay"] == 0
    assert call["loaded"] is False and call["save_path"] is None


def test_play_defaults(played: list[dict[str, Any]]) -> None:
    assert _play(env={"LANG": "pl_PL.UTF-8"}).exit_code == 0
    assert _play(env={"LANG": "en_GB.UTF-8"}).exit_code == 0
    polish, english = played
    assert polish["language"] == "pl" and english["language"] == "en"
    assert [s.name for s in polish["match"].game.seats] == ["Ty", "bot:medium"]
    assert [s.name for s in english["match"].game.seats] == ["You", "bot:medium"]
    assert polish["match"].game.rules == Rules() and polish["match"].game.deck.name == "rainbow"
    assert polish["delay"] == DEFAULT_DELAY and polish["colour_blind"] is False
    assert isinstance(polish["match"].game.seed, int)


def test_no_color_turns_the_colour_letters_and_symbols_on(played: list[dict[str, Any]]) -> None:
    # Before: with NO_COLOR=1 the cards were four greys and the letters stayed off.
    assert _play(env={"NO_COLOR": "1"}).exit_code == 0
    assert _play(env={"NO_COLOR": ""}).exit_code == 0  # set but empty: colours as usual
    assert [call["colour_blind"] for call in played] == [True, False]


def test_play_loads_a_saved_game(played: list[dict[str, Any]], tmp_path: Path) -> None:
    match = Match(parse_players("Ala,bot:easy", Rules()), Rules(), RAINBOW, seed=5)
    match.draw()
    match.place(match.game.state.legal_actions()[0])
    path = tmp_path / "saved.json"
    save_record(match.record(), path)
    result = _play("--load", str(path), "--lang", "en")
    assert result.exit_code == 0, result.output
    (call,) = played
    assert call["loaded"] is True and call["save_path"] == str(path)
    assert played_turns(call["match"]) == played_turns(match)
    assert call["match"].game.order == match.game.order


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--players", "Ala,,Ola"], "--players 'Ala,,Ola': a name is empty"),
        (["--players", "Ala,bot:genius"], "unknown bot level 'genius'"),
        (["--players", "Ala,Ala"], "the name 'Ala' is given twice"),
        (["--players", "Ala"], "1 player: Hisss is played by 2 to 5"),
        (["--players", "a,b,c,d,e,f"], "6 players"),
        (["--players", "Ala,Ola", "--rules", "nope"], "unknown rules preset"),
        (["--players", "Ala,Ola", "--deck", "nope"], "nope"),
        (["--players", "Ala,Ola", "--set", "scoring=fast"], "scoring"),
        (["--lang", "de"], "--lang 'de': unknown language (languages: en, pl)"),
        (["--delay", "-1"], "--delay -1.0: give a pause of 0 seconds or more"),
        (["--delay", "nan"], "give a pause of 0 seconds or more"),
        (["--load", "missing.json"], "missing.json: no such file"),
        (["--load", "x.json", "--seed", "0"], "leave out --seed"),
        (
            ["--load", "x.json", "--players", "A,B", "--deck", "double"],
            "leave out --players, --deck",
        ),
    ],
)
def test_bad_options_are_one_line_errors(
    played: list[dict[str, Any]], args: list[str], fragment: str
) -> None:
    _error(_play(*args), fragment)
    assert not played


def test_loading_a_record_that_cannot_go_on(played: list[dict[str, Any]], tmp_path: Path) -> None:
    match = Match(parse_players("Ala,Ola", Rules()), Rules(), RAINBOW, seed=5)
    match.draw()
    match.place(match.game.state.legal_actions()[0])
    path = tmp_path / "tampered.json"
    save_record(replace(match.record(), seed=6), path)
    _error(_play("--load", str(path)), f"{path}: cards: not the order the seed 6 deals")


def test_help_lists_play() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0 and "play" in result.stdout
    result = runner.invoke(app, ["play", "--help"])
    for option in ("--players", "--rules", "--set", "--deck", "--seed", "--lang", "--colour-blind",
                   "--load", "--delay"):  # fmt: skip
        assert option in result.stdout


@pytest.mark.system  # starts a Python process of its own
def test_play_without_textual_says_what_to_install() -> None:
    code = (
        "import sys\n"
        "sys.modules['textual'] = None  # as if Textual were not installed\n"
        "from hisss.cli import main\n"
        "sys.argv = ['hisss', 'play', '--players', 'Ala,Ola']\n"
        "main()\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.splitlines() == [
        "error: hisss play needs the tui extra (textual is missing): pip install 'hisss[tui]'"
    ]
    # Any module of the extra: the one missing is named.
    other = code.replace("sys.modules['textual']", "sys.modules['platformdirs']")
    proc = subprocess.run(
        [sys.executable, "-c", other], capture_output=True, text=True, check=False, timeout=60
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.splitlines() == [
        "error: hisss play needs the tui extra (platformdirs is missing): pip install 'hisss[tui]'"
    ]
    # The other commands work without Textual.
    code = code.replace("'play', '--players', 'Ala,Ola'", "'simulate', '--games', '3'")
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert "3 games" in proc.stdout


@pytest.mark.system  # starts a Python process of its own
def test_play_without_a_terminal_says_so_and_exits_2() -> None:
    """Standard input from /dev/null (and output to a pipe): no game starts, nothing waits."""
    with open(os.devnull, encoding="utf-8") as nothing:
        proc = subprocess.run(
            [sys.executable, "-m", "hisss.cli", "play", "--players", "Ala,bot:easy"],
            stdin=nothing,
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: hisss play needs a terminal"), lines
    assert proc.stdout == ""


def test_replay_reads_games_saved_by_play(tmp_path: Path) -> None:
    match = Match(parse_players("Ala,bot:hard", Rules()), Rules(), RAINBOW, seed=5)
    match.draw()
    match.place(match.game.state.legal_actions()[0])
    match.draw()
    unfinished = tmp_path / "unfinished.json"
    save_record(match.record(), unfinished)
    result = runner.invoke(app, ["replay", str(unfinished), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "seat 1: Ala, seat 2: bot:hard · seed 5" in result.stdout
    assert "unfinished game: turn 2, seat 2 to place" in result.stdout
    while not match.is_over():
        if match.game.state.is_chance_node():
            match.draw()
        match.place(match.game.state.legal_actions()[-1])
    finished = tmp_path / "finished.json"
    save_record(match.record(), finished)
    result = runner.invoke(app, ["replay", str(finished), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "result: " in result.stdout


def test_resume_goes_on_with_the_game_left_last(
    played: list[dict[str, Any]], user_folders: Path
) -> None:
    result = _play("--resume")
    _error(result, "--resume: no unfinished game is kept (in ")
    folder = user_folders / "data" / "hisss" / "unfinished"
    assert str(folder) in result.stderr
    older = Match(parse_players("Ala,bot:easy", Rules()), Rules(), RAINBOW, seed=5)
    newer = Match(parse_players("Ola,bot:hard", Rules()), Rules(), RAINBOW, seed=6)
    folder.mkdir(parents=True)
    for match in (older, newer):
        match.draw()
        match.place(match.game.state.legal_actions()[0])
        save_record(match.record(), autosave_path(match.game.seed, folder))
        assert load_record(autosave_path(match.game.seed, folder)).seed == match.game.seed
    os.utime(autosave_path(5, folder), (1, 1))  # the game of seed 5 was left first
    result = _play("--resume", "--lang", "en")
    assert result.exit_code == 0, result.output
    (call,) = played
    assert call["loaded"] is True and played_turns(call["match"]) == played_turns(newer)
    assert call["autosave"] == folder and call["save_path"] is None
    _error(_play("--resume", "--seed", "3"), "--resume takes the players")
    _error(_play("--resume", "--load", "x.json"), "leave out --load")


def test_a_kept_game_is_named_when_the_game_is_left(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    kept = tmp_path / "hisss-5.json"
    monkeypatch.setattr("hisss.tui.play", lambda *_, **__: Played(kept=kept))
    result = _play("--players", "Ala,Ola", "--lang", "pl")
    assert result.exit_code == 0
    assert (
        result.stdout == f"Gra jest zachowana w {kept}: hisss play --resume pozwoli ją dokończyć.\n"
    )
    result = _play("--players", "Ala,Ola", "--lang", "en")
    assert result.exit_code == 0
    assert result.stdout == f"The game is kept in {kept}: hisss play --resume goes on with it.\n"


def test_an_unexpected_error_is_one_line_a_log_and_exit_1(
    monkeypatch: pytest.MonkeyPatch, user_folders: Path
) -> None:
    # Before: a traceback over the terminal, and exit status 0.
    def crash() -> None:
        raise ValueError("the snake bit\nits own tail")

    try:
        crash()
    except ValueError as exc:
        error = exc
    monkeypatch.setattr("hisss.tui.play", lambda *_, **__: Played(failure=error))
    result = _play("--players", "Ala,Ola")
    log = user_folders / "state" / "hisss" / "log" / "play-errors.log"
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "error: the game stopped on an unexpected error (ValueError: the snake bit its own "
        f"tail); details in {log}"
    ]
    details = log.read_text()
    assert "Traceback (most recent call last)" in details and "in crash" in details
    assert "ValueError: the snake bit" in details
