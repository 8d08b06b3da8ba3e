"""Reading a record or deck file: UTF-8 text of at most a given size.

The size is checked twice: from the file's status before anything is read, and by reading at most
one byte more than the limit, so that a file that grows while it is read, or a pipe, cannot make
the reader take more than the limit.
"""

from __future__ import annotations

import os

from hisss.record.text import utf8_error


class FileTextError(ValueError):
    """A file that cannot be read as text: ``reason`` is a whole sentence, ``line`` and ``column``
    the place of a byte that is not UTF-8."""

    def __init__(self, reason: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line
        self.column = column


def size_text(limit: int) -> str:
    """A size limit as the documents write it.

    >>> size_text(4 * 2**20), size_text(2**20)
    ('4 MiB', '1 MiB')
    """
    return f"{limit / 2**20:g} MiB"


def too_large(what: str, limit: int, size: int | None = None, unit: str = "bytes") -> str:
    """The reason a text of ``size`` (unknown: ``None``) is refused.

    >>> too_large("a record file", 4 * 2**20, 50_000_000)
    'too large: 50,000,000 bytes, more than the 4 MiB a record file may have'
    """
    found = "more" if size is None else f"{size:,} {unit}, more"
    return f"too large: {found} than the {size_text(limit)} {what} may have"


def read_text(path: str | os.PathLike[str], limit: int, kind: str) -> str:
    """The text of the UTF-8 file at ``path``.

    ``limit`` is the largest size in bytes; ``kind`` names the file in messages (``record
    file``). Raises :class:`FileTextError`.
    """
    try:
        with open(path, "rb") as file:
            size = os.fstat(file.fileno()).st_size
            raw = b"" if size > limit else file.read(limit + 1)
    except FileNotFoundError:
        raise FileTextError("no such file") from None
    except IsADirectoryError:
        raise FileTextError(f"is a directory, not a {kind}") from None
    except OSError as exc:
        raise FileTextError(f"cannot read: {exc.strerror or exc}") from None
    except ValueError as exc:  # a path with a NUL character
        raise FileTextError(f"cannot read: {exc}") from None
    if size > limit:
        raise FileTextError(too_large(f"a {kind}", limit, size))
    if len(raw) > limit:  # the file grew after its size was taken, or is a pipe
        raise FileTextError(too_large(f"a {kind}", limit))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column, reason = utf8_error(raw, exc)
        raise FileTextError(reason, line, column) from None
    return text
