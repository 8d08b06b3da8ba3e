"""Running the ``hisss`` command in process: Typer's ``CliRunner``, which builds the Click command
of a Typer application once rather than on every run.

Typer's runner turns the application into a Click command (reading every command's signature and
type hints) each time it invokes it, which costs about twice what a tiny command itself takes; a
program run from the shell does that once. The command is the same object every time, so what a
test sees (output, exit status, exceptions) is what Typer's runner gives.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any
from unittest import mock

import typer
import typer.main
import typer.testing
from typer.testing import Result


@functools.cache
def _command(app: typer.Typer) -> Any:
    """The Click command of ``app``, built once."""
    return typer.main.get_command(app)


class CliRunner(typer.testing.CliRunner):
    """Typer's ``CliRunner`` with each application's Click command built once."""

    def invoke(
        self,
        app: typer.Typer,
        args: str | Sequence[str] | None = None,
        input: bytes | str | None = None,
        env: Mapping[str, str | None] | None = None,
        catch_exceptions: bool = True,
        color: bool = False,
        **extra: Any,
    ) -> Result:
        """Run ``app`` as Typer's runner does, on the command built once."""
        with mock.patch.object(typer.testing, "_get_command", _command):
            return super().invoke(app, args, input, env, catch_exceptions, color, **extra)
