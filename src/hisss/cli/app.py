"""The ``hisss`` command line: the root Typer application, which gathers the commands.

Commands: ``simulate`` (a seeded batch of bot games, summarised), ``tournament`` (bots against
each other, with win rates, intervals, ratings and a head-to-head table), ``bench`` (engine speed),
``movetimes`` (a bot's decision times), ``analyze`` (an HTML report with plots from results
files), ``replay`` (check a game record and print the game), ``play`` (the terminal game) and
``serve`` and ``loadtest`` (the web game server, and its load test). Each group of commands has
its module (:mod:`~hisss.cli.simulate`, :mod:`~hisss.cli.tournament`, :mod:`~hisss.cli.replay`,
:mod:`~hisss.cli.play`, :mod:`~hisss.cli.server`); the options they share are in
:mod:`~hisss.cli.options`, and errors and output in :mod:`~hisss.cli.output`: every error the
package raises on purpose (:class:`~hisss.core.HisssError`) ends the command with one line on
stderr and exit status 2. Output meant for programs (``--json``) goes to stdout alone; progress
bars go to stderr.
"""

from __future__ import annotations

from typing import Annotated

import typer

from hisss import __version__
from hisss.cli.play import play
from hisss.cli.replay import replay_command
from hisss.cli.server import loadtest_command, serve_command
from hisss.cli.simulate import bench, headroom, movetimes, simulate
from hisss.cli.tournament import analyze, tournament

app = typer.Typer(
    name="hisss",
    help="Hisss, the colour-matching snake card game: play it in the terminal, simulate bot "
    "games, play bot tournaments, benchmark the engine, analyse results, replay game records.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
    rich_markup_mode=None,
)

# In this order in ``hisss --help``.
for command in (simulate, tournament, bench, movetimes, headroom, analyze):
    app.command()(command)
app.command("replay")(replay_command)
app.command()(play)
app.command("serve")(serve_command)
app.command("loadtest")(loadtest_command)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"hisss {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Hisss, the colour-matching snake card game."""


def main() -> None:
    """The console script's entry point."""
    app(prog_name="hisss")
