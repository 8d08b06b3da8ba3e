"""Message catalogs: the text of the game's front ends in every language, read from package data.

Each language has one JSON file in this package (``en.json``, ``pl.json``) with the same shape:

* ``colours``: for each colour of the wheel and for ``wild``, its ``name``, a ``letter`` that stands
  for it (distinct within the language) and its ``side`` form (as in "the red side");
* ``kinds``: the names of the card kinds ``H``, ``T`` and ``M``;
* ``cards``: the name of each of the 29 distinct cards, by its notation;
* ``cards_accusative``: the same names as the object of a verb ("Dobierasz czerwoną głowę"), for
  the messages whose ``{card}`` stands there (in English the same as ``cards``);
* ``messages``: each message by key. A message is a text with ``{placeholders}``, a table of plural
  forms (``one``/``other`` in English; ``one``/``few``/``many`` in Polish) or a list of lines.

``symbols.json`` holds one symbol per colour, shared by every language: its ``glyph`` (the
character the terminal shows) and its ``path`` (the same shape as SVG path data in a 12 by 12 box,
which the browser draws). :func:`web_catalog` gives a language's catalog with the symbols, as the
server sends it to the browser: both front ends read the same data.

>>> from hisss.core import parse_card
>>> en, pl = get_catalog("en"), get_catalog("pl")
>>> en.text("top.turn", turn=3), pl.text("top.turn", turn=3)
('Turn 3', 'Tura 3')
>>> [pl.plural("fan.left", n) for n in (1, 3, 5, 22)]
['została 1 karta', 'zostały 3 karty', 'zostało 5 kart', 'zostały 22 karty']
>>> en.card_name(parse_card("M:red-orange")), pl.card_name(parse_card("H:wild"))
('red-orange mid-section', 'tęczowa głowa')
>>> en.names(["Ala", "Ola", "Ela"]), pl.names(["Ala", "Ola"])
('Ala, Ola and Ela', 'Ala i Ola')
>>> detect_language({"LANG": "pl_PL.UTF-8"}), detect_language({"LC_ALL": "C", "LANG": "pl_PL"})
('pl', 'en')
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from hisss.core import Card, CardKind, Colour, ConfigError

#: The languages with a catalog, in the order they are offered.
LANGUAGES: tuple[str, ...] = ("en", "pl")
#: The language used when the environment names none of :data:`LANGUAGES`.
DEFAULT_LANGUAGE = "en"
#: The environment variables that name the language, the first one set wins (as in POSIX).
LANGUAGE_VARIABLES: tuple[str, ...] = ("LC_ALL", "LC_MESSAGES", "LANG")
#: The plural forms each language's catalog gives for a counted message.
PLURAL_FORMS: dict[str, tuple[str, ...]] = {"en": ("one", "other"), "pl": ("one", "few", "many")}
#: The key of the colour entry for the rainbow head and tail.
WILD_KEY = "wild"


def detect_language(environ: Mapping[str, str]) -> str:
    """The language named by the environment: ``pl`` when the first of ``LC_ALL``, ``LC_MESSAGES``
    and ``LANG`` that is set (and not empty) starts with ``pl``, otherwise ``en``."""
    for name in LANGUAGE_VARIABLES:
        value = environ.get(name, "")
        if value:
            return "pl" if value.lower().startswith("pl") else DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def plural_form(language: str, count: int) -> str:
    """The plural form of ``count`` in ``language`` (CLDR rules for whole numbers).

    >>> [plural_form("pl", n) for n in (0, 1, 2, 5, 12, 22, 112)]
    ['many', 'one', 'few', 'many', 'many', 'few', 'many']
    """
    if language == "pl":
        if count == 1:
            return "one"
        if 2 <= count % 10 <= 4 and not 12 <= count % 100 <= 14:
            return "few"
        return "many"
    return "one" if count == 1 else "other"


def placeholders(text: str) -> set[str]:
    """The names of the ``{placeholders}`` of a message text.

    >>> sorted(placeholders("{name}: {card} → {action}"))
    ['action', 'card', 'name']
    """
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def _colour_key(colour: Colour | None) -> str:
    return WILD_KEY if colour is None else colour.value


@dataclass(frozen=True)
class Catalog:
    """The text of one language; build it with :func:`get_catalog`."""

    language: str
    #: The language's own name (``English``, ``Polski``).
    language_name: str
    colours: Mapping[str, Mapping[str, str]]
    kinds: Mapping[str, str]
    cards: Mapping[str, str]
    messages: Mapping[str, Any]
    #: The card names as the object of a verb (:meth:`card_name` with ``accusative``).
    cards_accusative: Mapping[str, str] | None = None

    def has(self, key: str) -> bool:
        """True when the catalog has a message ``key``."""
        return key in self.messages

    def _message(self, key: str) -> Any:
        try:
            return self.messages[key]
        except KeyError:
            raise ConfigError(f"no message {key!r} in the {self.language} catalog") from None

    def text(self, key: str, /, **values: object) -> str:
        """The message ``key`` with its placeholders filled from ``values``."""
        message = self._message(key)
        if not isinstance(message, str):
            raise ConfigError(f"message {key!r} is not a plain text; use plural() or lines()")
        return _fill(key, message, values)

    def plural(self, key: str, count: int, /, **values: object) -> str:
        """The counted message ``key`` in the plural form for ``count`` (also its ``{count}``)."""
        message = self._message(key)
        if not isinstance(message, dict):
            raise ConfigError(f"message {key!r} has no plural forms; use text()")
        form = plural_form(self.language, count)
        return _fill(key, message[form], {"count": count, **values})

    def lines(self, key: str) -> list[str]:
        """A message that is a list of lines (such as the rules summary)."""
        message = self._message(key)
        if not isinstance(message, list):
            raise ConfigError(f"message {key!r} is not a list of lines")
        return list(message)

    def colour_name(self, colour: Colour | None) -> str:
        """A colour's name; ``None`` is the rainbow colour of the wild cards."""
        return self.colours[_colour_key(colour)]["name"]

    def colour_letter(self, colour: Colour | None) -> str:
        """The letter that stands for a colour in this language."""
        return self.colours[_colour_key(colour)]["letter"]

    def colour_side(self, colour: Colour | None) -> str:
        """A colour as it names the side of a mid-section ("the red side")."""
        return self.colours[_colour_key(colour)]["side"]

    def kind_name(self, kind: CardKind) -> str:
        """The name of a kind of card: head, tail or mid-section."""
        return self.kinds[kind.value]

    def card_name(self, card: Card, *, accusative: bool = False) -> str:
        """The name of a card, such as "red-orange mid-section"; with ``accusative``, as the
        object of a verb.

        >>> from hisss.core import parse_card
        >>> get_catalog("pl").text("news.youDraw", card=get_catalog("pl").card_name(
        ...     parse_card("H:red"), accusative=True))
        'Dobierasz czerwoną głowę.'
        """
        if accusative and self.cards_accusative is not None:
            return self.cards_accusative[str(card)]
        return self.cards[str(card)]

    def names(self, names: Sequence[str]) -> str:
        """Names joined as a sentence lists them: "A", "A and B", "A, B and C"."""
        if len(names) <= 1:
            return "".join(names)
        if len(names) == 2:
            return self.text("names.two", first=names[0], second=names[1])
        rest = self.text("names.separator").join(names[:-1])
        return self.text("names.many", rest=rest, last=names[-1])

    def seat_name(self, name: str) -> str:
        """A seat's name in this language. The names the server gives unnamed seats, written as
        the English ``seat.bot_numbered`` and ``seat.player_numbered`` ("Bot 2 (medium)",
        "Player 3"), are translated; any other name is kept as it is.

        >>> pl = get_catalog("pl")
        >>> pl.seat_name("Bot 2 (medium)"), pl.seat_name("Player 3"), pl.seat_name("Ala")
        ('Bot 2 (średni)', 'Gracz 3', 'Ala')
        """
        for key, pattern in _default_names():
            match = pattern.fullmatch(name)
            if match is None:
                continue
            level = match.groupdict().get("level")
            if level is None:
                return self.text(key, number=match["number"])
            if self.has(f"level.{level}"):
                level_name = self.text(f"level.{level}")
                return self.text(key, number=match["number"], level=level_name)
        return name


def _fill(key: str, message: str, values: Mapping[str, object]) -> str:
    try:
        return message.format_map(values)
    except KeyError as exc:
        raise ConfigError(f"message {key!r} needs a value for {{{exc.args[0]}}}") from None


@cache
def _default_names() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """The patterns of the English default seat names, with the key of each."""
    english = get_catalog(DEFAULT_LANGUAGE)
    out = []
    for key in ("seat.bot_numbered", "seat.player_numbered"):
        pattern = re.escape(english.text(key, number="{number}", level="{level}"))
        pattern = pattern.replace(re.escape("{number}"), r"(?P<number>[0-9]+)")
        pattern = pattern.replace(re.escape("{level}"), r"(?P<level>[a-z]+)")
        out.append((key, re.compile(pattern)))
    return tuple(out)


def symbol(colour: Colour | None) -> str:
    """The symbol that stands for a colour in every language (``None``: the wild colour).

    >>> symbol(Colour.RED), symbol(None)
    ('●', '✱')
    """
    return _symbols()[_colour_key(colour)]["glyph"]


def symbol_path(colour: Colour | None) -> str:
    """The shape of a colour's symbol as SVG path data in a 12 by 12 box (what the browser
    draws where the terminal shows :func:`symbol`)."""
    return _symbols()[_colour_key(colour)]["path"]


@cache
def _symbols() -> dict[str, dict[str, str]]:
    data = json.loads(resources.files(__package__).joinpath("symbols.json").read_text("utf-8"))
    assert isinstance(data, dict)
    return data


def web_catalog(language: str) -> dict[str, Any]:
    """What the browser needs to speak ``language``: the catalog file's data with the symbols,
    the language's plural forms and every language's own name (for the language menu).

    >>> data = web_catalog("pl")
    >>> data["symbols"]["yellow"]["glyph"], data["cards"]["H:wild"], data["languages"]["en"]
    ('★', 'tęczowa głowa', 'English')
    """
    data = read_catalog_data(language)
    return {
        **data,
        "plural_forms": list(PLURAL_FORMS[language]),
        "languages": {code: read_catalog_data(code)["language_name"] for code in LANGUAGES},
        "symbols": _symbols(),
    }


def read_catalog_data(language: str) -> dict[str, Any]:
    """The parsed JSON of a language's catalog file, as stored (for checks and for the web)."""
    if language not in LANGUAGES:
        raise ConfigError(f"unknown language {language!r} (languages: {', '.join(LANGUAGES)})")
    text = resources.files(__package__).joinpath(f"{language}.json").read_text("utf-8")
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


@cache
def get_catalog(language: str) -> Catalog:
    """The catalog of ``language`` (``en`` or ``pl``); raises ``ConfigError`` for another."""
    key = language.strip().lower() if isinstance(language, str) else language
    data = read_catalog_data(key)
    return Catalog(
        language=key,
        language_name=data["language_name"],
        colours=data["colours"],
        kinds=data["kinds"],
        cards=data["cards"],
        messages=data["messages"],
        cards_accusative=data["cards_accusative"],
    )


__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LANGUAGE_VARIABLES",
    "PLURAL_FORMS",
    "Catalog",
    "detect_language",
    "get_catalog",
    "placeholders",
    "plural_form",
    "read_catalog_data",
    "symbol",
    "symbol_path",
    "web_catalog",
]
