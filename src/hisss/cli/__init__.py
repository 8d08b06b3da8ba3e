"""The ``hisss`` command line (a Typer application); :func:`main` is the console script.

Run ``hisss --help`` for the commands: ``simulate``, ``tournament``, ``bench``, ``movetimes``,
``analyze``, ``replay``, ``play``, ``serve`` and ``loadtest``.
"""

from hisss.cli.app import app, main

__all__ = ["app", "main"]
