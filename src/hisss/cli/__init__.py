"""The ``hisss`` command line (a Typer application); :func:`main` is the console script.

Run ``hisss --help`` for the commands: ``simulate``, ``tournament``, ``bench``, ``replay``,
``movetimes`` and ``serve``.
"""

from hisss.cli.app import app, main

__all__ = ["app", "main"]
