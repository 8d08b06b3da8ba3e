"""Results files: a run's games streamed to disk as JSON lines, and resuming an interrupted run.

A results file is UTF-8 text, one compact JSON object per line. The first line is the *header*:
``{"format": "hisss-results", "version": 2, "command": "simulate", ...}`` with every setting that
decides the games (the engine, players, seed, rules, deck and its cards, bots) but not the number
of games. Each further line is one game, in game order (``game`` counts from 1), as
:func:`hisss.sim.stats.game_row` makes it: its seed and settings, then its figures (turns, legal
actions, placements by kind, what was left on the table, each seat's cards, snakes and longest
snake, the lengths of the snakes each seat claimed, the winners counted from 1 and what decided
them).

Lines are written as tasks complete, in game order, and flushed, so memory stays bounded however
long the run. Opening an existing file with the same header resumes the run: the complete lines
are read back (their statistics restored), a partial last line left by an interruption is cut
off, and the run goes on after the last complete game, so the finished file is byte for byte the
file an uninterrupted run writes. A file with another header is refused, naming what differs.

Version 2 came with the bots' one seeding scheme (each choice drawn from
:func:`hisss.bots.turns.decision_rng` of the game's seed and the turn): a version 1 file holds
games whose bots drew otherwise, so it is refused rather than resumed with games of another kind.

>>> header_line({"command": "simulate", "seed": 1})
'{"format":"hisss-results","version":2,"command":"simulate","seed":1}\\n'
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from hisss.core import ConfigError

#: The ``format`` of a results file's header.
FORMAT = "hisss-results"
#: The version of the format: 2 since the bots draw their choices per turn (see above).
VERSION = 2


def dumps(obj: object) -> str:
    """Compact, deterministic JSON for one line (no NaN)."""
    return json.dumps(obj, separators=(",", ":"), allow_nan=False)


def header_line(run: dict[str, Any]) -> str:
    """The header line of a run's results file (with its newline)."""
    return dumps({"format": FORMAT, "version": VERSION, **run}) + "\n"


def is_header(obj: object) -> bool:
    """True for a decoded header line."""
    return isinstance(obj, dict) and obj.get("format") == FORMAT


class ResultsWriter:
    """Appends complete lines to a results file and flushes them."""

    def __init__(self, file: IO[bytes], path: Path) -> None:
        self.file = file
        self.path = path

    def write(self, data: bytes) -> None:
        """Append complete lines (UTF-8, each ending with a newline) and flush them."""
        if data:
            self.file.write(data)
            self.file.flush()

    def close(self) -> None:
        """Close the file."""
        self.file.close()


def _differences(found: dict[str, Any], wanted: dict[str, Any]) -> str:
    keys = [k for k in wanted if found.get(k) != wanted[k]]
    keys += [k for k in found if k not in wanted]
    return ", ".join(keys) or "the header"


def open_results(
    path: str | Path,
    run: dict[str, Any],
    games: int,
    on_row: Callable[[dict[str, Any]], None],
) -> tuple[ResultsWriter, int]:
    """Open ``path`` to write a run of ``games`` games, resuming it when it already holds some.

    A new (or empty) file gets the header. A file whose header matches ``run`` is read back:
    ``on_row`` gets each complete game in order, a partial last line is cut off, and the writer
    appends after the last complete game. Returns the writer and the number of games already
    there. Raises :class:`ConfigError` (changing nothing) for a file of another run or format, a
    line that is not the next game, or a file holding more than ``games`` games.
    """
    target = Path(path)
    expected = header_line(run)
    if not target.exists() or target.stat().st_size == 0:
        target.parent.mkdir(parents=True, exist_ok=True)
        return _fresh(target, expected), 0
    with target.open("rb") as reader:
        first = reader.readline()
        if not first.endswith(b"\n"):
            keep, done = -1, 0  # an interrupted start: only part of the header was written
        else:
            _check_header(target, first, expected)
            keep, done = _read_games(target, reader, games, on_row)
            keep += len(first)
    if keep < 0:
        return _fresh(target, expected), 0
    file = target.open("r+b")
    file.truncate(keep)
    file.seek(keep)
    return ResultsWriter(file, target), done


def _fresh(target: Path, header: str) -> ResultsWriter:
    """A writer of a new results file at ``target``, its ``header`` written."""
    file = target.open("wb")
    file.write(header.encode("utf-8"))
    file.flush()
    return ResultsWriter(file, target)


def _check_header(target: Path, first: bytes, expected: str) -> None:
    """Raise :class:`ConfigError` unless ``first`` is the results header ``expected``."""
    try:
        found = json.loads(first)
    except ValueError:
        found = None
    if not is_header(found):
        raise ConfigError(
            f"{target}: not a hisss results file (its first line is no results header); "
            "give another file name"
        )
    assert isinstance(found, dict)
    if found.get("version") != VERSION:
        raise ConfigError(
            f"{target}: written by another version of hisss (results version "
            f"{found.get('version')!r}, this one writes {VERSION}), whose bots drew their "
            "choices otherwise, so its games cannot go on here; give another file name, or "
            "remove it to start again"
        )
    if first.decode("utf-8") != expected:
        raise ConfigError(
            f"{target}: holds another run (different: "
            f"{_differences(found, json.loads(expected))}); give another file name, "
            "or remove it to start again"
        )


def _read_games(
    target: Path, reader: IO[bytes], games: int, on_row: Callable[[dict[str, Any]], None]
) -> tuple[int, int]:
    """Read the game lines after the header, giving each complete one to ``on_row``; the bytes
    they take and their number (a partial last line is left out)."""
    keep = done = 0
    for number, line in enumerate(reader, start=1):
        if not line.endswith(b"\n"):
            break  # a partial last line, cut off by the caller
        try:
            row = json.loads(line)
        except ValueError:
            row = None
        if not isinstance(row, dict) or row.get("game") != number:
            raise ConfigError(
                f"{target}: line {number + 1} is not game {number} of this run; "
                "the file was changed by hand"
            )
        if number > games:
            raise ConfigError(
                f"{target}: holds more than the {games} games asked for; ask for "
                "at least as many games, or give another file name"
            )
        on_row(row)
        done = number
        keep += len(line)
    return keep, done


def read_rows(path: str | Path) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """The header (``None`` when absent) and the complete game lines of a results file.

    Raises :class:`ConfigError` naming the line for a line that is not JSON; a partial last line
    (an interrupted run) is left out.
    """
    target = Path(path)
    header: dict[str, Any] | None = None
    rows: list[dict[str, Any]] = []
    with target.open("rb") as reader:
        for number, line in enumerate(reader, start=1):
            if not line.endswith(b"\n"):
                break
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except ValueError:
                raise ConfigError(f"{target}: line {number} is not JSON") from None
            if is_header(obj):
                header = obj
            elif isinstance(obj, dict):
                rows.append(obj)
            else:
                raise ConfigError(f"{target}: line {number} is not a JSON object")
    return header, rows


__all__ = [
    "FORMAT",
    "VERSION",
    "ResultsWriter",
    "dumps",
    "header_line",
    "is_header",
    "open_results",
    "read_rows",
]
