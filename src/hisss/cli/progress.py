"""The progress bar of long runs (simulate, tournament, headroom): units done, units per second,
time left.

The bar goes to stderr and disappears when the run ends, so stdout holds the results alone.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

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

#: What a run returns: its report.
T = TypeVar("T")


def run_with_progress(
    run: Callable[..., T],
    args: dict[str, Any],
    label: str,
    games: int,
    progress: bool | None,
    unit: str = "games",
) -> T:
    """``run(**args)`` with a progress bar of ``games`` ``unit`` if asked, or by default whenever
    stderr is a terminal (the bar is transient: a run too short to notice leaves nothing)."""
    show = progress if progress is not None else sys.stderr.isatty()
    return _with_bar(label, games, run, args, unit) if show and games >= 1 else run(**args)


def _with_bar(label: str, games: int, run: Callable[..., T], args: dict[str, Any], unit: str) -> T:
    """``run(**args, progress=...)`` with a transient progress bar of ``games`` on stderr."""
    console = Console(stderr=True)
    columns = (
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(unit),
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
    """Units (games, deals) per second, as Rich estimates it from the recent progress."""

    def __init__(self, unit: str = "games") -> None:
        super().__init__()
        self.unit = unit

    def render(self, task: Task) -> Text:
        speed = task.speed
        if speed is None:
            return Text(f"- {self.unit}/s")
        return Text(f"{speed:,.0f} {self.unit}/s" if speed >= 10 else f"{speed:,.2f} {self.unit}/s")
