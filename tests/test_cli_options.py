"""Every option the research commands document in ``--help`` is accepted, and no combination of
them with the hand variant or a small deck ends in a traceback.

The options are read from the commands themselves, so an option added later is covered at once:
a test fails if it has no sample value here. Each command runs with tiny sizes once per option
and per variant; it must end with exit status 0, or 2 and one line ``error: ...`` on stderr.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import typer
from typer.core import TyperCommand, TyperGroup, TyperOption

from hisss.cli import app
from support.cli import CliRunner

ROOT = Path(__file__).resolve().parent.parent
DECKS = ROOT / "docs" / "decks"
SIX_TOML = """\
name = "six"
description = "Two colours, six cards."

[cards]
"H:red" = 1
"M:red-orange" = 2
"T:orange" = 1
"M:orange-yellow" = 1
"T:yellow" = 1
"""

#: The commands checked, each with the arguments that keep a run tiny.
BASE: dict[str, list[str]] = {
    "simulate": ["-n", "2"],
    "tournament": ["--bots", "random,greedy,random", "-n", "2"],
    "bench": ["-t", "0.02", "--no-fast"],
    "movetimes": ["greedy", "-n", "1"],
    "headroom": ["greedy", "--deals", "1", "--nodes", "2000"],
}

#: The rule variants and decks every option is tried with ("{six}" is a six-card deck file).
VARIANTS: dict[str, list[str]] = {
    "hands-tiny": ["--set", "hand_size=2", "--deck", str(DECKS / "tiny.toml")],
    "hands-open-six": ["--set", "hand_size=1", "--set", "hands_seen_by_all=true", "-d", "{six}"],
    "classic-six": ["--deck", "{six}"],
    "mini-3p": ["--deck", str(DECKS / "mini.toml"), "-p", "3"],
}


def _sample(command: str, flag: str, tmp: Path) -> list[str]:
    """The option with a small sample value (a flag alone); KeyError if none is known."""
    values: dict[str, list[str]] = {
        "--games": ["--games", "2" if command != "movetimes" else "1"],
        "--deals": ["--deals", "1"],
        "--players": ["--players", "3"],
        "--seed": ["--seed", "5"],
        "--rules": ["--rules", "pl"],
        "--set": ["--set", "scoring=snakes"],
        "--deck": ["--deck", str(DECKS / "tiny.toml")],
        "--bots": ["--bots", "greedy,random,greedy" if command == "tournament" else "greedy"],
        "--record-dir": ["--record-dir", str(tmp / "records" / "new")],
        "--out": ["--out", str(tmp / "out" / "run.jsonl")],
        "--chunk": ["--chunk", "1"],
        "--workers": ["--workers", "1"],
        "--backend": ["--backend", "local"],
        "--address": ["--address", "127.0.0.1:1"],
        "--seconds": ["--seconds", "0.02"],
        "--opponent": ["--opponent", "random"],
        "--nodes": ["--nodes", "50"],
    }
    flags = {"--json", "--snapshots", "--progress", "--no-progress", "--fast", "--no-fast",
             "--mirror", "--exact", "--learners", "--no-learners"}  # fmt: skip
    if flag in flags:
        return [flag]
    return values[flag]


def _commands() -> dict[str, TyperCommand]:
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    return {n: c for n, c in group.commands.items() if n in BASE and isinstance(c, TyperCommand)}


def _documented(command: TyperCommand) -> list[str]:
    out = []
    for p in command.params:
        if isinstance(p, TyperOption) and not p.hidden:
            out += [p.opts[0], *p.secondary_opts]
    return out


def test_every_documented_option_has_a_sample(tmp_path: Path) -> None:
    for name, command in _commands().items():
        for flag in _documented(command):
            assert _sample(name, flag, tmp_path), (name, flag)


CASES = [
    # the batched environment's kernel is compiled for a minute: that case is the whole suite's
    pytest.param(name, flag, variant, marks=pytest.mark.slow)
    if flag == "--learners"
    else (name, flag, variant)
    for name, command in _commands().items()
    for flag in _documented(command)
    for variant in VARIANTS
    # the compiled kernel is compiled once elsewhere (test_fast); here it must refuse hands
    if flag != "--fast" or variant.startswith("hands")
    # bench measures for a fixed time whatever the deck: one classic deck and the refusal
    if name != "bench" or variant in ("hands-tiny", "classic-six")
]


@pytest.mark.parametrize(("command", "flag", "variant"), CASES)
def test_documented_option_ends_cleanly(
    command: str, flag: str, variant: str, tmp_path: Path
) -> None:
    six = tmp_path / "six.toml"
    six.write_text(SIX_TOML, encoding="utf-8")
    args = [a.replace("{six}", str(six)) for a in VARIANTS[variant]]
    args = [command, *BASE[command], *args, *_sample(command, flag, tmp_path)]
    start = time.monotonic()
    result = CliRunner().invoke(app, args)
    took = time.monotonic() - start
    assert result.exit_code in (0, 2), (args, result.output, result.exception)
    if result.exit_code == 2:
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (args, result.stderr)
    else:
        assert result.exception is None, (args, result.exception)
        assert result.stdout.strip(), args
    # tiny sizes: a run that takes long has lost its way (generous for a loaded machine)
    assert took < 60, (args, took)


def test_exact_headroom_refuses_a_large_deck_at_once() -> None:
    for deck in ("rainbow", str(DECKS / "mini.toml"), str(DECKS / "quick.json")):
        start = time.monotonic()
        result = CliRunner().invoke(app, ["headroom", "careful", "--exact", "-d", deck, "-p", "3"])
        assert time.monotonic() - start < 10
        assert result.exit_code == 2
        assert "the exact value takes decks of at most 12 cards" in result.stderr


def test_minus_h_shows_help_and_usage_errors_take_one_line() -> None:
    for name in (*BASE, "analyze", "replay", "play", "serve", "loadtest"):
        short = CliRunner().invoke(app, [name, "-h"])
        assert short.exit_code == 0 and short.stdout.startswith(f"Usage: hisss {name} ")
    bad = CliRunner().invoke(app, ["simulate", "--games", "many"])
    assert bad.exit_code == 2
    assert bad.stderr.strip().splitlines() == [
        "error: Invalid value for '--games' / '-n': Input should be a valid integer, unable to "
        "parse string as an integer (see hisss simulate --help)"
    ]
