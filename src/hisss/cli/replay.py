"""``hisss replay``: check a game record by the rules, then print the game."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from hisss.cli.output import errors, in_file, stdout
from hisss.cli.render import print_game
from hisss.core import HisssError
from hisss.record import load_record, replay


def replay_command(
    file: Annotated[
        Path, typer.Argument(metavar="FILE", help="A game record (JSON), e.g. from --record-dir.")
    ],
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Check the record and print only the result.")
    ] = False,
) -> None:
    """Check a game record action by action, then print the game turn by turn and its result.

    A record that is not a game played by the rules is rejected with the turn and the reason
    (exit status 2).
    """
    with errors():
        record = load_record(file)
        try:
            final = replay(record)  # check it all before printing anything
        except HisssError as exc:
            raise in_file(file, exc) from None
    print_game(stdout(), record, quiet=quiet, final=final)
