"""The options that several commands share, and how their values become rules.

Each shared option is written once here as an ``Annotated`` Typer option, so that its flags,
metavar and help read the same in every command that takes it. :func:`checked_rules` turns
``--rules`` and ``--set`` into the core's :class:`~hisss.core.Rules` for a number of players.
"""

from __future__ import annotations

from typing import Annotated

import typer

from hisss.core import PRESETS, ConfigError, Rules

#: The help of --rules, and of --deck, also where the option has no default (``hisss play``).
RULES_HELP = f"Rules preset: {' or '.join(PRESETS)}."
DECK_HELP = "A built-in deck (rainbow, all-pairs, double) or a deck file (.toml or .json)."

PlayersOption = Annotated[
    int,
    typer.Option(
        "--players", "-p", metavar="P", help="Players: 2 to 5, or 6 with --set six_players=true."
    ),
]
RulesOption = Annotated[str, typer.Option("--rules", "-r", metavar="NAME", help=RULES_HELP)]
SetOption = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="OPTION=VALUE",
        help="Change one rule option of the preset (repeatable): forced_placement=false, "
        "join_claim=always|complete, scoring=cards|snakes|longest|first-to, target=N, "
        "six_players=true, hand_size=K (the hand variant: 1 to 5 cards in hand), "
        "hands_seen_by_all=true.",
    ),
]
#: ``--set`` of the commands that play the classic game only (``bench``, ``headroom``).
ClassicSetOption = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="OPTION=VALUE",
        help="Change one rule option of the preset (repeatable): forced_placement=false, "
        "join_claim=always|complete, scoring=cards|snakes|longest|first-to, target=N, "
        "six_players=true (the hand variant is not measured here).",
    ),
]
DeckOption = Annotated[str, typer.Option("--deck", "-d", metavar="NAME|FILE", help=DECK_HELP)]
SeedOption = Annotated[int, typer.Option("--seed", "-s", metavar="S", help="Seed of the run.")]
JsonOption = Annotated[
    bool, typer.Option("--json", help="Print one JSON object instead of a table.")
]
ProgressOption = Annotated[
    bool | None,
    typer.Option(
        "--progress/--no-progress",
        help="Show a progress bar on stderr (default: when stderr is a terminal).",
    ),
]
WorkersOption = Annotated[
    int,
    typer.Option(
        "--workers",
        "-w",
        metavar="W",
        help="Processes that play the games (with --backend ray and no --address: the CPUs of "
        "the local Ray); the output does not depend on it.",
    ),
]
BackendOption = Annotated[
    str,
    typer.Option(
        "--backend",
        metavar="local|ray",
        help="Where the games run: local processes, or Ray (pip install 'hisss[dist]').",
    ),
]
AddressOption = Annotated[
    str | None,
    typer.Option(
        "--address",
        metavar="ADDR",
        help="With --backend ray: the address of an existing Ray cluster (default: start a "
        "local Ray with --workers CPUs).",
    ),
]


def rules_from(preset: str, settings: list[str] | None) -> Rules:
    """The preset with ``OPTION=VALUE`` changes (``--set``), checked by the core.

    >>> rules_from("classic", ["forced_placement=false"]).forced_placement
    False
    """
    data: dict[str, object] = {"preset": preset}
    for item in settings or ():
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ConfigError(f"--set {item!r}: expected OPTION=VALUE, e.g. forced_placement=false")
        data[key.strip()] = _option_value(value.strip())
    return Rules.from_mapping(data)


def checked_rules(preset: str, settings: list[str] | None, players: int) -> Rules:
    """:func:`rules_from`, checked for ``players``; six players need ``--set six_players=true``."""
    rules = rules_from(preset, settings)
    try:
        rules.check_players(players)
    except ConfigError as exc:
        if players == 6 and not rules.six_players:
            raise ConfigError(f"{exc}; add --set six_players=true to play with 6") from None
        raise
    return rules


def _option_value(text: str) -> object:
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    return int(text) if text.lstrip("-").isdigit() else text
