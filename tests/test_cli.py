"""Tests of the ``hisss`` command line: simulate, bench, replay, help, version and errors.

Most run in process through Typer's ``CliRunner``; a few run the real program in a subprocess to
check the separation of stdout and stderr, exit statuses and the absence of tracebacks.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import get_args

import pytest
import typer
from typer.core import TyperCommand, TyperGroup, TyperOption
from typer.models import OptionInfo
from typer.testing import Result

from hisss import __version__
from hisss.cli import app
from hisss.cli.options import (
    AddressOption,
    BackendOption,
    ClassicSetOption,
    DeckOption,
    JsonOption,
    PlayersOption,
    ProgressOption,
    RulesOption,
    SeedOption,
    SetOption,
    WorkersOption,
)
from hisss.core import get_rules
from hisss.i18n import explain_result, get_catalog
from hisss.record import load_record, replay
from hisss.sim.stats import CORE_STATS
from support.cli import CliRunner

runner = CliRunner()

TRIO_TOML = """\
name = "trio"
description = "A head, a mid-section and a tail."

[cards]
"H:red" = 1
"M:red-orange" = 1
"T:orange" = 1
"""


def _run(*args: str) -> Result:
    return runner.invoke(app, list(args))


def _json(result: Result) -> dict[str, object]:
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def _one_error_line(result: Result, *fragments: str) -> str:
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


# ---------------------------------------------------------------------- help and version


def test_version() -> None:
    result = _run("--version")
    assert result.exit_code == 0
    assert result.stdout == f"hisss {__version__}\n"


def test_help_lists_the_commands() -> None:
    result = _run("--help")
    assert result.exit_code == 0
    for command in ("simulate", "bench", "replay"):
        assert command in result.stdout


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("simulate", ["--games", "--players", "--seed", "--rules", "--deck", "--bots", "--json",
                      "--record-dir"]),
        ("bench", ["--json", "--seconds", "--players", "--rules", "--set", "--deck"]),
        ("replay", ["FILE", "--quiet"]),
    ],
)  # fmt: skip
def test_command_help(command: str, options: list[str]) -> None:
    result = _run(command, "--help")
    assert result.exit_code == 0
    for option in options:
        assert option in result.stdout, option


def test_no_arguments_shows_help() -> None:
    result = _run()
    assert "simulate" in result.output


#: The commands in the order ``hisss --help`` lists them.
COMMANDS = [
    "simulate", "tournament", "bench", "movetimes", "headroom", "analyze", "replay", "play",
    "serve", "loadtest", "warm",
]  # fmt: skip

#: Each shared option of :mod:`hisss.cli.options` and the commands that take it (``--set`` comes
#: in two forms: with the hand variant, and for the commands that measure the classic game only).
SHARED_OPTIONS: dict[str, tuple[object, set[str]]] = {
    "--players": (PlayersOption, {"simulate", "tournament", "bench", "movetimes", "headroom"}),
    "--rules": (RulesOption, {"simulate", "tournament", "bench", "movetimes", "headroom", "play"}),
    "--set": (SetOption, {"simulate", "tournament", "movetimes", "play"}),
    "--set classic": (ClassicSetOption, {"bench", "headroom"}),
    "--deck": (DeckOption, {"simulate", "tournament", "bench", "movetimes", "headroom", "play"}),
    "--seed": (SeedOption, {"simulate", "tournament", "headroom"}),
    "--json": (JsonOption, {"simulate", "tournament", "bench", "movetimes", "headroom"}),
    "--progress": (ProgressOption, {"simulate", "tournament", "headroom", "movetimes"}),
    "--workers": (WorkersOption, {"simulate", "tournament", "headroom"}),
    "--backend": (BackendOption, {"simulate", "tournament"}),
    "--address": (AddressOption, {"simulate", "tournament"}),
}

#: Options with the flag of a shared option that mean something else in that command.
OWN_MEANING = {
    ("play", "--players"),  # the seats by name
    ("play", "--seed"),  # of one deal, random by default
    ("movetimes", "--seed"),  # of the timed games
    ("loadtest", "--seed"),  # of the players' choices
    ("loadtest", "--json"),  # the figures, on one line
    ("warm", "--json"),  # the seconds of each compile
}


def _commands() -> dict[str, TyperCommand]:
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    return {name: c for name, c in group.commands.items() if isinstance(c, TyperCommand)}


def _options(command: TyperCommand) -> list[TyperOption]:
    return [p for p in command.params if isinstance(p, TyperOption) and not p.hidden]


def test_every_command_is_listed_and_explains_its_options() -> None:
    commands = _commands()
    assert list(commands) == COMMANDS
    listing = _run("--help").stdout
    assert [line.split()[0] for line in listing.split("Commands:\n")[1].splitlines()] == COMMANDS
    for name, command in commands.items():
        result = _run(name, "--help")
        assert result.exit_code == 0, result.output
        assert result.stdout.startswith(f"Usage: hisss {name} "), result.stdout
        assert command.help and " ".join(command.help.split()[:3]) in result.stdout
        for option in _options(command):
            assert option.help, (name, option.opts)
            for flag in (*option.opts, *option.secondary_opts):
                assert flag in result.stdout, (name, flag)


@pytest.mark.parametrize("name", list(SHARED_OPTIONS))
def test_shared_options_read_the_same_everywhere(name: str) -> None:
    alias, expected = SHARED_OPTIONS[name]
    flag = name.split(maxsplit=1)[0]
    # the commands of the option's other form
    others = {
        c
        for n, (_, cs) in SHARED_OPTIONS.items()
        if n != name and n.split(maxsplit=1)[0] == flag
        for c in cs
    }
    info = get_args(alias)[1]
    assert isinstance(info, OptionInfo)
    # in an Annotated option the first flag stands where the default would
    flags = [info.default, *(info.param_decls or ())]
    decls = sorted(d for decl in flags if isinstance(decl, str) for d in decl.split("/"))
    assert flag in decls
    taking = set()
    for command_name, command in _commands().items():
        for option in _options(command):
            if flag not in option.opts or (command_name, flag) in OWN_MEANING:
                continue
            if command_name in others:
                continue
            taking.add(command_name)
            assert sorted((*option.opts, *option.secondary_opts)) == decls, command_name
            assert (option.help, option.metavar) == (info.help, info.metavar), command_name
    assert taking == expected


# ---------------------------------------------------------------------- simulate


def test_simulate_json_keys_and_defaults() -> None:
    data = _json(_run("simulate", "--games", "40", "--json"))
    assert data["games"] == 40 and data["players"] == 2 and data["seed"] == 0
    assert data["rules"] == {"preset": "classic", **get_rules("classic").to_mapping()}
    assert data["deck"] == "rainbow"
    assert data["bots"] == ["random", "random"]
    for key in CORE_STATS:
        value = data[key]
        assert isinstance(value, dict) and set(value) == {"mean", "se", "ci95"}, key
        assert isinstance(value["mean"], float) and isinstance(value["se"], float)


def test_simulate_default_is_a_thousand_games() -> None:
    data = _json(_run("simulate", "--json"))
    assert data["games"] == 1000


def test_simulate_same_arguments_same_output() -> None:
    args = ["simulate", "-n", "60", "-p", "3", "-s", "11", "--rules", "pl", "--json"]
    first, second = _run(*args), _run(*args)
    assert first.exit_code == second.exit_code == 0
    assert first.stdout == second.stdout
    other = _run("simulate", "-n", "60", "-p", "3", "-s", "12", "--rules", "pl", "--json")
    assert other.stdout != first.stdout


def test_simulate_table_is_readable_and_deterministic() -> None:
    first = _run("simulate", "--games", "30", "--seed", "4")
    second = _run("simulate", "--games", "30", "--seed", "4")
    assert first.exit_code == 0 and first.stdout == second.stdout
    text = first.stdout
    assert "30 games" in text and "rules classic" in text and "seed 4" in text
    assert "± se" in text
    for key in CORE_STATS:
        assert key in text


def test_simulate_bots_per_seat_and_other_settings() -> None:
    data = _json(
        _run("simulate", "-n", "20", "-p", "3", "-b", "random,random,random", "-d", "double",
             "--json")
    )  # fmt: skip
    assert data["bots"] == ["random"] * 3 and data["deck"] == "double"
    assert data["turns"] == {"mean": 99.0, "se": 0.0, "ci95": [99.0, 99.0]}
    assert "seat3_win_rate" in data


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_simulate_deck_file(tmp_path: Path, suffix: str) -> None:
    deck = tmp_path / f"trio{suffix}"
    if suffix == ".toml":
        deck.write_text(TRIO_TOML, encoding="utf-8")
    else:
        cards = {"H:red": 1, "M:red-orange": 1, "T:orange": 1}
        deck.write_text(json.dumps({"name": "trio", "cards": cards}), encoding="utf-8")
    data = _json(_run("simulate", "-n", "500", "--deck", str(deck), "--json"))
    assert data["deck"] == "trio" and data["deck_cards"] == 3
    assert data["turns"] == {"mean": 2.0, "se": 0.0, "ci95": [2.0, 2.0]}
    claimed = data["claimed_cards"]
    assert isinstance(claimed, dict)
    assert abs(claimed["mean"] - 7 / 3) < 4.5 * claimed["se"]


def test_simulate_record_dir(tmp_path: Path) -> None:
    out_dir = tmp_path / "games"
    result = _run("simulate", "-n", "3", "--record-dir", str(out_dir), "--json")
    data = _json(result)
    files = sorted(out_dir.glob("*.json"))
    assert [f.name for f in files] == ["game-000001.json", "game-000002.json", "game-000003.json"]
    total = 0
    for file in files:
        total += sum(replay(load_record(file)).result().cards)
        shown = _run("replay", str(file))
        assert shown.exit_code == 0, shown.output
        assert "result: seat" in shown.stdout
    claimed = data["claimed_cards"]
    assert isinstance(claimed, dict) and claimed["mean"] == total / 3


def test_simulate_progress_goes_to_stderr() -> None:
    result = _run("simulate", "-n", "30", "--json", "--progress")
    data = _json(result)
    assert data["games"] == 30
    quiet = _run("simulate", "-n", "30", "--json", "--no-progress")
    assert quiet.stdout == result.stdout and quiet.stderr == ""


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--deck", "nope"], ["unknown deck 'nope'"]),
        (["--deck", "missing.toml"], ["missing.toml"]),
        (["--rules", "house"], ['unknown rules preset "house"', "classic, pl"]),
        (["--players", "7"], ["7 players"]),
        (["--players", "1"], ["1 player"]),
        (["--games", "0"], ["at least 1"]),
        (["--bots", "genius"], ["unknown bot 'genius'", "random"]),
        (["--bots", "random,random,random"], ["3 names for 2 players"]),
    ],
)
def test_simulate_errors(args: list[str], fragments: list[str]) -> None:
    _one_error_line(_run("simulate", *args, "--json"), *fragments)


def test_simulate_bad_deck_file_names_the_field(tmp_path: Path) -> None:
    deck = tmp_path / "bad.toml"
    deck.write_text('[cards]\n"M:red-red" = 2\n', encoding="utf-8")
    _one_error_line(_run("simulate", "--deck", str(deck)), "bad.toml", "M:red-red")


# ---------------------------------------------------------------------- bench


def test_bench_json() -> None:
    data = _json(_run("bench", "--json", "--seconds", "0.05"))
    games_per_second = data["games_per_second"]
    assert isinstance(games_per_second, float) and games_per_second > 0
    for key in ("turns_per_second", "us_per_turn", "us_per_copy", "us_per_undo", "python"):
        assert key in data


def test_bench_table() -> None:
    result = _run("bench", "--seconds", "0.05", "--players", "3")
    assert result.exit_code == 0
    assert "random games per second" in result.stdout and "µs per copy()" in result.stdout


def test_bench_error() -> None:
    _one_error_line(_run("bench", "--seconds", "0.05", "--rules", "x"), "unknown rules preset")


ONE_TOML = '[cards]\n"H:red" = 1\n'


@pytest.mark.slow
def test_bench_one_card_deck_ends(tmp_path: Path) -> None:
    deck = tmp_path / "one.toml"
    deck.write_text(ONE_TOML, encoding="utf-8")
    proc = _program("bench", "--seconds", "0.05", "--deck", str(deck), "--json", timeout=30)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["deck"] == "one" and data["games"] > 0 and data["turns"] == 0
    assert data["us_per_copy"] is None and data["us_per_turn"] is None
    table = _program("bench", "--seconds", "0.05", "--deck", str(deck), timeout=30)
    assert table.returncode == 0, table.stderr
    assert "no decision points" in table.stdout and "Traceback" not in table.stderr


def test_bench_first_to_games_stop_at_the_end() -> None:
    args = ["--set", "scoring=first-to", "--set", "target=3"]
    data = _json(_run("bench", "--seconds", "0.1", "--json", *args))
    assert isinstance(data["games"], int) and isinstance(data["turns"], int)
    # Every rainbow game plays 49 turns unless someone reaches 3 cards first, which is common.
    assert data["turns"] < 49 * data["games"]


@pytest.mark.parametrize("command", ["simulate", "bench"])
def test_six_players_error_tells_how_to_allow_them(command: str) -> None:
    _one_error_line(_run(command, "--players", "6", "--seconds" if command == "bench" else "-n",
                         "1"), "6 players", "add --set six_players=true")  # fmt: skip
    _one_error_line(_run(command, "--players", "7"), "7 players")
    assert "--set six_players" not in _run(command, "--players", "7").stderr


def test_counts_are_singular_for_one(tmp_path: Path) -> None:
    result = _run("simulate", "-n", "1", "--deck", _one_card_deck(tmp_path))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("1 game · 2 players") and "(1 card)" in result.stdout
    assert "1 games" not in result.stdout and "1 cards" not in result.stdout


# ---------------------------------------------------------------------- replay


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    result = _run("simulate", "-n", "1", "-s", "3", "--record-dir", str(tmp_path), "--json")
    assert result.exit_code == 0
    return tmp_path / "game-000001.json"


def test_replay_prints_the_game(record_file: Path) -> None:
    record = load_record(record_file)
    result = _run("replay", str(record_file))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("rules classic · deck rainbow · seat 1: random, seat 2: random")
    assert lines[1] == f"starter: {record.cards[0]}"
    turns = [line for line in lines if line.startswith("turn ")]
    assert len(turns) == len(record.turns) == 49
    first = record.turns[0]
    assert turns[0] == f"turn 1: seat 1 draws {first.card}, plays {first.action}"
    assert sum(1 for line in lines if line.strip().startswith("table")) == 49
    state = replay(record)
    names = [f"seat {s + 1}" for s in range(state.players)]
    explained = explain_result(state.result(), state.rules, names, get_catalog("en"))
    assert f"result: {explained}" in lines
    cards = " · ".join(f"seat {s + 1}: {n}" for s, n in enumerate(state.result().cards))
    assert f"cards per seat: {cards}" in lines
    hisss = sum(1 for line in lines if "Hisss!" in line)
    assert hisss == sum(len(pit) for pit in state.pits)
    assert result.stdout == _run("replay", str(record_file)).stdout


def test_replay_quiet(record_file: Path) -> None:
    result = _run("replay", "--quiet", str(record_file))
    assert result.exit_code == 0
    assert not any(line.startswith("turn ") for line in result.stdout.splitlines())
    assert "result: seat" in result.stdout


def _one_card_deck(tmp_path: Path) -> str:
    deck = tmp_path / "one.toml"
    deck.write_text(ONE_TOML, encoding="utf-8")
    return str(deck)


@pytest.mark.parametrize("quiet", [[], ["--quiet"]])
def test_replay_finished_game_with_no_turns(tmp_path: Path, quiet: list[str]) -> None:
    games = tmp_path / "games"
    made = _run("simulate", "-n", "1", "--deck", _one_card_deck(tmp_path), "--record-dir",
                str(games), "--json")  # fmt: skip
    assert made.exit_code == 0, made.output
    file = games / "game-000001.json"
    result = _run("replay", *quiet, str(file))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "final position after 0 turns:" in lines and "    table  1: H:red" in lines
    final = replay(load_record(file))
    explained = explain_result(final.result(), final.rules, ["seat 1", "seat 2"], get_catalog("en"))
    assert f"result: {explained}" in lines
    assert "left on the table: 1 snake, 1 card" in lines
    assert not any(line.startswith("unfinished") for line in lines)


def _cut(record_file: Path, turns: int, cards: int) -> Path:
    """The record file kept to its first ``turns`` turns and ``cards`` cards, with no result."""
    data = json.loads(record_file.read_text(encoding="utf-8"))
    data["turns"] = data["turns"][:turns]
    data["cards"] = data["cards"][:cards]
    data.pop("result", None)
    out = record_file.with_name(f"cut-{turns}-{cards}.json")
    out.write_text(json.dumps(data), encoding="utf-8")
    return out


@pytest.mark.parametrize("quiet", [[], ["--quiet"]])
def test_replay_starter_only_is_unfinished(record_file: Path, quiet: list[str]) -> None:
    cut = _cut(record_file, 0, 1)
    starter = load_record(cut).cards[0]
    result = _run("replay", *quiet, str(cut))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "final position after 0 turns:" in lines and f"    table  1: {starter}" in lines
    assert "unfinished game: turn 1, seat 1 to draw (49 cards not drawn)" in lines
    assert not any(line.startswith("result:") for line in lines)


@pytest.mark.parametrize("quiet", [[], ["--quiet"]])
def test_replay_unfinished_names_the_waiting_card(record_file: Path, quiet: list[str]) -> None:
    cut = _cut(record_file, 10, 12)
    record = load_record(cut)
    final = replay(record)
    assert final.drawn == record.cards[11]
    result = _run("replay", *quiet, str(cut))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    waiting = f"unfinished game: turn 11, seat {final.to_move + 1} to place {record.cards[11]}"
    assert lines[-1] == waiting
    assert ("final position after 10 turns:" in lines) == bool(quiet)
    assert sum(1 for line in lines if line.startswith("turn ")) == (0 if quiet else 10)


def _tamper(record_file: Path, turn: int, key: str, value: object) -> Path:
    data = json.loads(record_file.read_text(encoding="utf-8"))
    data["turns"][turn - 1][key] = value
    out = record_file.with_name("tampered.json")
    out.write_text(json.dumps(data), encoding="utf-8")
    return out


def test_replay_rejects_an_illegal_action(record_file: Path) -> None:
    bad = _tamper(record_file, 5, "action", "9R")
    _one_error_line(_run("replay", str(bad)), "tampered.json", "turn 5", "9R", "illegal")


def test_replay_rejects_a_wrong_seat(record_file: Path) -> None:
    bad = _tamper(record_file, 3, "seat", 2)
    _one_error_line(_run("replay", str(bad)), "turn 3", "seat 2")


def test_replay_rejects_a_changed_result(record_file: Path) -> None:
    data = json.loads(record_file.read_text(encoding="utf-8"))
    data["result"]["winners"] = [2] if data["result"]["winners"] != [2] else [1]
    bad = record_file.with_name("result.json")
    bad.write_text(json.dumps(data), encoding="utf-8")
    _one_error_line(_run("replay", str(bad)), "result mismatch")


def test_replay_missing_and_broken_files(tmp_path: Path) -> None:
    _one_error_line(_run("replay", str(tmp_path / "none.json")), "none.json", "no such file")
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    _one_error_line(_run("replay", str(broken)), "broken.json", "not valid JSON")


# ---------------------------------------------------------------------- the real program


def _program(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hisss.cli", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
    )


@pytest.mark.system  # starts a Python process of its own
def test_program_simulate_json_is_clean_and_repeatable() -> None:
    first = _program("simulate", "-n", "25", "--json", "--progress")
    second = _program("simulate", "-n", "25", "--json")
    assert first.returncode == second.returncode == 0
    assert first.stdout == second.stdout
    assert json.loads(first.stdout)["games"] == 25


@pytest.mark.system  # starts a Python process of its own
def test_program_error_is_one_line_and_status_2() -> None:
    proc = _program("simulate", "--deck", "nope")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("error: ")
    assert "Traceback" not in proc.stderr


def test_simulate_set_changes_rule_options() -> None:
    data = _json(
        _run(
            "simulate", "--games", "30", "--players", "6", "--json",
            "--set", "six_players=true", "--set", "scoring=first-to", "--set", "target=12",
        )
    )  # fmt: skip
    assert data["players"] == 6
    assert data["rules"] == {
        "preset": None,
        "forced_placement": True,
        "join_claim": "complete",
        "scoring": "first-to",
        "target": 12,
        "six_players": True,
    }
    # Under first-to 12 a game ends as soon as a pit holds 12 cards, so some games stop early.
    turns = data["turns"]
    assert isinstance(turns, dict)
    assert turns["mean"] < 49


def test_simulate_unforced_placement_offers_new_snake_every_turn() -> None:
    forced = _json(_run("simulate", "--games", "50", "--json"))
    unforced = _json(_run("simulate", "--games", "50", "--json", "--set", "forced_placement=no"))
    assert unforced["rules"]["forced_placement"] is False  # type: ignore[index]
    # "new" is one more legal action on every turn.
    assert unforced["legal_actions_per_turn"]["mean"] > forced["legal_actions_per_turn"]["mean"]  # type: ignore[index]


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("bogus=1", 'unknown rule option "bogus"'),
        ("scoring=first-to", "needs a target"),
        ("scoring=best", 'rule option scoring: bad value "best"'),
        ("forced_placement", "expected OPTION=VALUE"),
        ("six_players=maybe", "expected true or false"),
    ],
)
def test_simulate_bad_set_is_one_clear_error(setting: str, message: str) -> None:
    result = _run("simulate", "--games", "5", "--set", setting)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_movetimes_prints_the_figures_of_a_bot() -> None:
    data = _json(_run("movetimes", "careful", "--games", "2", "--json"))
    assert data["bot"] == "careful" and data["games"] == 2
    choice = data["choice"]
    assert isinstance(choice, dict)
    assert choice["count"] > 0
    assert 0 <= choice["median"] <= choice["p90"] <= choice["p99"] <= choice["max"]
    table = _run("movetimes", "greedy", "--games", "1")
    assert table.exit_code == 0 and "with a choice" in table.output
    assert "ms of thinking per game" in table.output


def test_movetimes_rejects_unknown_bots_clearly() -> None:
    result = _run("movetimes", "nobody")
    assert result.exit_code == 2
    assert "unknown bot 'nobody'" in result.output


def test_headroom_prints_the_bound_and_refuses_an_unknown_opponent() -> None:
    result = _run("headroom", "greedy", "--deals", "2", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "clairvoyant win share against greedy in every other seat, 2 players" in result.stdout
    assert "over 4 games (2 deals, seed 1)" in result.stdout
    bad = _run("headroom", "expert", "--deals", "2")
    assert bad.exit_code == 2 and "opponent must be one of random, greedy, careful" in bad.output


def test_warm_makes_the_compiled_code_ready() -> None:
    data = _json(_run("warm", "--json"))
    assert set(data) == {"rollout_seconds", "fast_seconds"}
    assert all(isinstance(v, float) and 0 <= v < 600 for v in data.values())
    text = _run("warm")
    assert text.exit_code == 0 and text.stdout.startswith("compiled code ready: ")


def test_movetimes_leaves_the_warm_up_out() -> None:
    data = _json(_run("movetimes", "expert", "-n", "1", "-p", "3", "--json"))
    warm_up = data["warm_up_seconds"]
    assert isinstance(warm_up, float) and 0 <= warm_up < 600  # apart, not as a decision
    counted = data["all"]
    assert isinstance(counted, dict) and data["decisions"] == counted["count"]
