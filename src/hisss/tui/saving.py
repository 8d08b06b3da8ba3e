"""Where the terminal game keeps its files: unfinished games (autosaved after every move, so that
``hisss play --resume`` goes on with the last one) and the log of unexpected errors.

Both live in the user's folders as :mod:`platformdirs` names them (on Linux
``~/.local/share/hisss/unfinished`` and ``~/.local/state/hisss/log``, or under
``XDG_DATA_HOME`` and ``XDG_STATE_HOME`` when they are set). An unfinished game is an ordinary
game record, ``hisss-SEED.json``, which ``--load`` reads as well; it is removed when its game ends.
"""

from __future__ import annotations

import os
import traceback
from datetime import UTC, datetime
from pathlib import Path

import platformdirs

from hisss.record import GameRecord, save_record

#: The application's name for :mod:`platformdirs`.
APP_NAME = "hisss"


def unfinished_folder() -> Path:
    """The folder of the autosaved unfinished games."""
    return Path(platformdirs.user_data_dir(APP_NAME)) / "unfinished"


def autosave_path(seed: int | None, folder: Path | None = None) -> Path:
    """The file that keeps the unfinished game dealt from ``seed``."""
    return (folder or unfinished_folder()) / f"hisss-{seed if seed is not None else 'game'}.json"


def latest_unfinished(folder: Path | None = None) -> Path | None:
    """The unfinished game saved last, or ``None`` when there is none."""
    games = sorted(
        (folder or unfinished_folder()).glob("hisss-*.json"),
        key=lambda path: path.stat().st_mtime_ns,
    )
    return games[-1] if games else None


def write_atomically(record: GameRecord, path: Path) -> None:
    """Write ``record`` to ``path`` through a file beside it, so that a file is never half
    written (raises :class:`OSError` when the folder cannot be made or written)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    save_record(record, partial)
    os.replace(partial, path)


def crash_log() -> Path:
    """The file that collects the details of unexpected errors."""
    return Path(platformdirs.user_log_dir(APP_NAME)) / "play-errors.log"


def log_crash(error: BaseException) -> Path:
    """Append ``error`` with its traceback and the time to :func:`crash_log`; returns the file."""
    path = crash_log()
    path.parent.mkdir(parents=True, exist_ok=True)
    when = datetime.now(UTC).isoformat(timespec="seconds")
    details = "".join(traceback.format_exception(error))
    with path.open("a", encoding="utf-8") as log:
        log.write(f"--- {when} hisss play\n{details}\n")
    return path


__all__ = [
    "APP_NAME",
    "autosave_path",
    "crash_log",
    "latest_unfinished",
    "log_crash",
    "unfinished_folder",
    "write_atomically",
]
