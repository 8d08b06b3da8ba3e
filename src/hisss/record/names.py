"""The one rule for seat names, wherever a name enters: the web forms, the API, uploaded and
loaded records, ``--players``.

A name is counted in graphemes (what a reader sees as one character: ``👩‍💻`` is one, made of
three code points), at most :data:`MAX_NAME` of them for a new name; records are read with names
of up to :data:`~hisss.record.parts.MAX_SEAT_NAME` graphemes, the limit earlier versions wrote
under. A name may hold letters of any script and emoji (sequences joined by a zero-width joiner
included), but no control character, no bidirectional override or isolate, no zero-width space
or other invisible format character, no private-use or unassigned code point: such characters can
hide text, reorder it, or drive a terminal.

>>> check_name("  Ala   Kot ")
'Ala Kot'
>>> check_name("👩‍💻 Ola"), grapheme_count("👩‍💻")
('👩\u200d💻 Ola', 1)
>>> try:
...     check_name("evil\\u202egnp")
... except SeatNameError as exc:
...     print(exc)
a name may not hold control, bidirectional, zero-width or private-use characters (U+202E)
"""

from __future__ import annotations

import unicodedata

import regex

from hisss.core import HisssError

#: The longest new name, in graphemes (the browser's forms say the same).
MAX_NAME = 40

#: Format characters (category Cf) a name may hold: the zero-width joiner and non-joiner (emoji
#: sequences, Persian and Indic writing) and the tag characters of subdivision flags.
_ALLOWED_FORMAT = {0x200C, 0x200D, *range(0xE0020, 0xE0080)}

#: Categories never allowed: control, surrogate, private use, unassigned, line and paragraph
#: separators.
_REFUSED_CATEGORIES = {"Cc", "Cs", "Co", "Cn", "Zl", "Zp"}

_GRAPHEME = regex.compile(r"\X")

REFUSED_MESSAGE = "a name may not hold control, bidirectional, zero-width or private-use characters"


class SeatNameError(HisssError, ValueError):
    """A name that breaks the rule; the message says which rule."""


def grapheme_count(text: str) -> int:
    """How many characters a reader sees in ``text`` (extended grapheme clusters)."""
    return len(_GRAPHEME.findall(text))


def refused_character(text: str) -> str | None:
    """The first character of ``text`` that no name may hold, or ``None``."""
    for ch in text:
        category = unicodedata.category(ch)
        if category in _REFUSED_CATEGORIES or (category == "Cf" and ord(ch) not in _ALLOWED_FORMAT):
            return ch
    return None


def check_name(text: str, limit: int = MAX_NAME, what: str = "name") -> str:
    """``text`` as a name: runs of white space made one space, ends stripped; raises
    :class:`SeatNameError` for a refused character or more than ``limit`` graphemes."""
    if not isinstance(text, str):
        raise SeatNameError(f"a {what} must be text")
    bad = refused_character(text.replace("\t", " ").replace("\n", " ").replace("\r", " "))
    if bad is not None:
        message = REFUSED_MESSAGE.replace("a name", f"a {what}")
        raise SeatNameError(f"{message} (U+{ord(bad):04X})")
    cleaned = " ".join(text.split())
    count = grapheme_count(cleaned)
    if count > limit:
        raise SeatNameError(f"a {what} has at most {limit} characters, not {count}")
    return cleaned


def printable(text: str) -> str:
    """``text`` safe to print on a terminal: every character a name may not hold (a control
    character, an escape sequence's start) written as ``\\u{XXXX}``."""
    return "".join(
        f"\\u{{{ord(ch):04X}}}" if refused_character(ch) is not None else ch for ch in text
    )
