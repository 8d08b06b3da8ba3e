"""A game's result told in words: who won, and which measure or tie-break decided it.

Every scoring of the rules is covered: ``cards`` and ``snakes`` (ties broken by the longest snake),
``longest`` (ties broken by the most cards) and ``first-to`` (the target reached, or, when nobody
reached it, scored as ``cards``). A tie on every measure is a shared win, and a game in which
nobody took a snake is a win shared by everybody.

>>> from hisss.core import Rules, parse_snake, score
>>> from hisss.i18n import get_catalog
>>> six = parse_snake("H:red M:red-orange M:orange-yellow M:yellow-green M:green-blue T:blue")
>>> three = parse_snake("H:red M:red-orange T:orange")
>>> result = score([[six], [three, three]], Rules())
>>> print(explain_result(result, Rules(), ["Ala", "Ola"], get_catalog("en")))
Ala and Ola tie on cards (6); Ala wins the tie-break with the longest snake (6 cards).
>>> print(explain_result(result, Rules(), ["Ala", "Ola"], get_catalog("pl")))
Ala i Ola mają tyle samo kart (6); remis rozstrzyga najdłuższy wąż – wygrywa Ala (kart: 6).
"""

from __future__ import annotations

from collections.abc import Sequence

from hisss.core import DecidedBy, Result, Rules, Scoring
from hisss.i18n.catalog import LANGUAGES, Catalog, get_catalog


def explain_result(
    result: Result,
    rules: Rules,
    names: Sequence[str],
    catalog: Catalog,
    *,
    you: int | None = None,
) -> str:
    """One or two sentences on who won ``result`` under ``rules`` and why, naming the seats by
    ``names`` (one per seat, in seat order), in the catalog's language. The seat ``you``, if
    given, is spoken to ("You win", "Wygrywasz"), and a group with it in it too ("macie").

    >>> from hisss.core import parse_snake, score
    >>> three = parse_snake("H:red M:red-orange T:orange")
    >>> result = score([[three], [three], []], Rules())
    >>> print(explain_result(score([[three], []], Rules()), Rules(), ["You", "Ola"],
    ...                      get_catalog("en"), you=0))
    You win with the most cards (3).
    >>> explain_result(result, Rules(), ["Ty", "Ola", "Ela"], get_catalog("pl"), you=0)[:34]
    'Ty i Ola dzielicie się zwycięstwem'
    """
    if len(names) != len(result.cards):
        raise ValueError(f"{len(names)} names for a result of {len(result.cards)} seats")

    def who(seats: Sequence[int]) -> str:
        return catalog.names([names[s] for s in seats])

    def spoken(key: str, subject: Sequence[int], group: Sequence[int] = ()) -> str:
        if you is not None and tuple(subject) == (you,):
            return f"{key}.you"
        return f"{key}.with_you" if you in group else key

    if rules.scoring is Scoring.FIRST_TO and result.decided_by is DecidedBy.TARGET:
        key = spoken("explain.win.target", result.winners)
        return catalog.text(key, winner=who(result.winners), value=rules.target)
    prefix = ""
    if rules.scoring is Scoring.FIRST_TO:
        prefix = catalog.text("explain.target_missed", target=rules.target) + " "
    if not any(result.cards):
        return prefix + catalog.text("explain.nobody")
    primary, tiebreak = rules.scoring.measures
    first, second = result.measure(primary), result.measure(tiebreak)
    value = max(first)
    tied = [seat for seat, v in enumerate(first) if v == value]
    winner = result.winners[0]
    if len(tied) == 1:
        key = spoken(f"explain.win.{primary}", tied)
        sentence = catalog.text(key, winner=who(tied), value=value)
    elif result.is_shared:
        sentence = catalog.text(
            spoken(f"explain.shared.{primary}", (), result.winners),
            winners=who(result.winners),
            value=value,
            best=second[winner],
        )
    else:
        sentence = catalog.text(
            spoken(f"explain.tie.{primary}", result.winners, tied),
            tied=who(tied),
            winner=who(result.winners),
            value=value,
            best=second[winner],
        )
    return prefix + sentence


def explain_everywhere(result: Result, rules: Rules, names: Sequence[str]) -> dict[str, str]:
    """:func:`explain_result` in every language, by language code; each language says the
    seats' ``names`` its own way (:meth:`~hisss.i18n.Catalog.seat_name`).

    >>> from hisss.core import parse_snake, score
    >>> three = parse_snake("H:red M:red-orange T:orange")
    >>> result = score([[three], []], Rules())
    >>> explained = explain_everywhere(result, Rules(), ["Bot 1 (easy)", "Ola"])
    >>> for language in ("en", "pl"):
    ...     print(explained[language])
    Bot 1 (easy) wins with the most cards (3).
    Bot 1 (łatwy) wygrywa: najwięcej kart (3).
    """
    out = {}
    for language in LANGUAGES:
        catalog = get_catalog(language)
        seats = [catalog.seat_name(name) for name in names]
        out[language] = explain_result(result, rules, seats, catalog)
    return out


__all__ = ["explain_everywhere", "explain_result"]
