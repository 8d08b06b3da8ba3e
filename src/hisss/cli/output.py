"""Where the commands' output goes: results on stdout, errors as one line on stderr.

Every error the package raises on purpose (:class:`~hisss.core.HisssError`), and every file the
system refuses, ends the command with one line ``error: ...`` on stderr and exit status 2
(:func:`errors`). Output meant for programs (``--json``) goes to stdout alone.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol, TypeVar

import typer
from rich.console import Console

from hisss.core import HisssError
from hisss.record import printable


def failure(message: str) -> typer.Exit:
    """Print ``error: message`` on stderr and return the exit (status 2) to raise."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


@contextmanager
def errors() -> Iterator[None]:
    """Turn the package's errors into one line on stderr and exit status 2."""
    try:
        yield
    except HisssError as exc:
        # A message may quote a file's text: nothing in it may drive the terminal.
        raise failure(printable(str(exc))) from None
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        raise failure(f"{where}{exc.strerror or exc}") from None


def in_file(file: Path, exc: HisssError) -> HisssError:
    """The same error, its message naming the file it was found in."""
    return HisssError(f"{file}: {exc}")


def stdout() -> Console:
    """A console on stdout for tables and text."""
    # Plain, deterministic text: no colour codes or highlighting unless stdout is a terminal.
    return Console(highlight=False)


class Report(Protocol):
    """A command's report: a typed value that gives its JSON object (:mod:`hisss.sim.reports`)."""

    def to_dict(self) -> dict[str, object]:
        """The report as the command prints it with ``--json``."""
        ...


R = TypeVar("R", bound=Report)


def print_json(data: object) -> None:
    """``data`` as indented JSON on stdout: what ``--json`` prints."""
    typer.echo(json.dumps(data, indent=2))


def show(report: R, as_json: bool, printer: Callable[[Console, R], None]) -> None:
    """``report`` as indented JSON with ``--json`` (its ``to_dict()``), else as ``printer`` writes
    it for people."""
    if as_json:
        print_json(report.to_dict())
    else:
        printer(stdout(), report)
