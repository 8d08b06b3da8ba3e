"""The progress bar of long runs (simulate, tournament): games done, games per second, time left.

The bar goes to stderr and disappears when the run ends, so stdout holds the results alone.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from hisss.cli.options import PROGRESS_MIN_GAMES


def run_with_progress(
    run: Callable[..., dict[str, Any]],
    args: dict[str, Any],
    label: str,
    games: int,
    progress: bool | None,
) -> dict[str, Any]:
    """``run(**args)`` with a progress bar if asked, or by default for long runs on a terminal."""
    show = progress if progress is not None else games >= PROGRESS_MIN_GAMES and sys.stderr.isatty()
    return _with_bar(label, games, run, args) if show and games >= 1 else run(**args)


def _with_bar(
    label: str, games: int, run: Callable[..., dict[str, Any]], args: dict[str, Any]
) -> dict[str, Any]:
    """``run(**args, progress=...)`` with a transient progress bar of ``games`` on stderr."""
    console = Console(stderr=True)
    columns = (
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("games", total=games)
        step = max(1, games // 200)
        shown = 0

        def advance(done: int, total: int) -> None:
            nonlocal shown
            if shown == 0 and done > 1 and done < total:
                # a resumed run starts part way: no rate from games played before
                bar.reset(task, total=total, completed=done)
                shown = done
            elif done - shown >= step or done == total:
                bar.update(task, completed=done)
                shown = done

        return run(**args, progress=advance)


class RateColumn(ProgressColumn):
    """Games per second, as Rich estimates it from the recent progress."""

    def render(self, task: Task) -> Text:
        speed = task.speed
        return Text("- games/s" if speed is None else f"{speed:,.0f} games/s")
