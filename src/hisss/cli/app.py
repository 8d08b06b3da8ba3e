"""The ``hisss`` command line: the root Typer application, which gathers the commands.

Commands: ``simulate`` (a seeded batch of bot games, summarised), ``tournament`` (bots against
each other, with win rates, intervals, ratings and a head-to-head table), ``bench`` (engine speed),
``movetimes`` (a bot's decision times), ``analyze`` (an HTML report with plots from results
files), ``replay`` (check a game record and print the game), ``play`` (the terminal game) and
``serve`` and ``loadtest`` (the web game server, and its load test), and ``warm`` (compile the
compiled code ahead of its first use). Each group of commands has
its module (:mod:`~hisss.cli.simulate`, :mod:`~hisss.cli.tournament`, :mod:`~hisss.cli.replay`,
:mod:`~hisss.cli.play`, :mod:`~hisss.cli.server`); the options they share are in
:mod:`~hisss.cli.options`, and errors and output in :mod:`~hisss.cli.output`: every error the
package raises on purpose (:class:`~hisss.core.HisssError`) ends the command with one line on
stderr and exit status 2. Output meant for programs (``--json``) goes to stdout alone; progress
bars go to stderr.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer

# Typer carries its own copy of Click; its exceptions are the ones the commands raise.
from typer._click import exceptions as click_errors
from typer.core import TyperGroup

from hisss import __version__
from hisss.cli.play import play
from hisss.cli.replay import replay_command
from hisss.cli.server import loadtest_command, serve_command
from hisss.cli.simulate import bench, headroom, movetimes, simulate, warm
from hisss.cli.tournament import analyze, tournament


class _OneLineErrors(TyperGroup):
    """The root group, whose usage errors (an unknown option, a value that does not parse) end the
    command as every other error does: one line ``error: ...`` on stderr and exit status 2."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        def run() -> Any:
            return super(_OneLineErrors, self).main(
                args, prog_name, complete_var, False, windows_expand_args, **extra
            )

        if not standalone_mode:
            return run()
        try:
            code = run()
        except click_errors.NoArgsIsHelpError as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except click_errors.ClickException as exc:
            ctx = getattr(exc, "ctx", None)
            hint = f" (see {ctx.command_path} --help)" if ctx is not None else ""
            typer.echo(f"error: {exc.format_message()}{hint}", err=True)
            sys.exit(exc.exit_code)
        except typer.Abort:
            typer.echo("aborted", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    name="hisss",
    cls=_OneLineErrors,
    context_settings={"help_option_names": ["-h", "--help"]},
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
app.command()(warm)


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
