"""Every Polish message rendered with sample values reads as Polish: no placeholder, message key
or internal name shows, counted nouns agree with their numbers (1, 2, 5, 22 and 112 cards), and
the rules' own terms are used (one verb for drawing a card, "joker", "remis", "karty na ręce").
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from hisss.core import parse_card
from hisss.i18n import get_catalog
from hisss.i18n.catalog import placeholders, read_catalog_data

PL = get_catalog("pl")
MESSAGES = read_catalog_data("pl")["messages"]
#: The counts every counted message is rendered with.
COUNTS = (1, 2, 5, 22, 112)
#: The forms of "karta" each plural form of Polish takes after a number.
CARD_FORMS = {"one": {"karta", "kartę", "karcie"}, "few": {"karty"}, "many": {"kart"}}
#: After a preposition that takes the genitive ("wąż z 2 kart", "do 22 kart").
GENITIVE = {"one": {"karty"}, "few": {"kart"}, "many": {"kart"}}
GENITIVE_PREPOSITIONS = {"z", "ze", "do", "od", "bez"}

#: Sample values of the placeholders that are not numbers.
WORDS: dict[str, str] = {
    "name": "Ala",
    "winner": "Ola",
    "tied": "Ala i Ola",
    "winners": "Ala i Ola",
    "names": "Ala i Ola",
    "first": "Ala",
    "second": "Ola",
    "rest": "Ala, Ola",
    "last": "Ela",
    "card": PL.card_name(parse_card("H:red")),
    "cards": PL.card_name(parse_card("M:red-orange")),
    "rules": PL.text("preset.classic") if PL.has("preset.classic") else "klasyczne",
    "deck": "tęczowa",
    "scoring": PL.text("scoring.cards") if PL.has("scoring.cards") else "najwięcej kart",
    "path": "gra.json",
    "reason": PL.text("save.denied"),
    "code": "K7Q2",
    "level": PL.text("level.medium"),
    "side": PL.colour_side(None),
    "colour": PL.colour_name(None),
    "left": "czerwony",
    "right": "żółty",
    "e": "lewy",
    "e1": "lewy",
    "e2": "prawy",
    "end": "lewy koniec",
    "end2": "prawy koniec",
    "ends": "otwarte końce",
    "action": "wąż 1, lewy koniec",
    "what": "czerwona głowa na lewy koniec węża 1",
    "delay": "0,8",
}


def _renderings(key: str, message: object) -> Iterator[tuple[str, int | None, str]]:
    """(form, count, text) for every way ``message`` is shown, with every sample count."""
    if isinstance(message, str):
        for n in COUNTS:
            yield "text", n, _fill(message, n)
    elif isinstance(message, dict):
        for n in COUNTS:
            yield "plural", n, PL.plural(key, n, **_values(message["one"], n))
    else:
        assert isinstance(message, list)
        for line in message:
            yield "line", None, _fill(line, 2)


def _values(text: str, n: int) -> dict[str, object]:
    return {p: WORDS.get(p, n) for p in placeholders(text)}


def _fill(text: str, n: int) -> str:
    return text.format_map(_values(text, n))


CASES = [(k, form, n, text) for k, m in MESSAGES.items() for form, n, text in _renderings(k, m)]
#: Names the program uses inside that must never reach a player.
RAW = re.compile(
    r"\b(classic|rainbow|all-pairs|first-to|hand_size|hands_seen_by_all|join_claim|"
    r"forced_placement|six_players|None|True|False|null|undefined)\b|\bpl\b(?! play)"
)


def test_every_polish_message_is_rendered() -> None:
    assert len(MESSAGES) > 400 and len(CASES) > 2000


@pytest.mark.parametrize(("key", "form", "count", "text"), CASES, ids=lambda v: str(v)[:40])
def test_a_polish_message_shows_no_raw_id_or_placeholder(
    key: str, form: str, count: int | None, text: str
) -> None:
    assert "{" not in text and "}" not in text, (key, text)
    assert not RAW.search(text.replace("hisss play", "")), (key, text)
    assert not re.search(r"\b[a-z]+\.[a-z][A-Za-z_]+\b", text.replace("gra.json", "")), (key, text)
    if form == "plural" and count is not None:
        # a counted "karta" takes the form of its number
        for before, word in re.findall(rf"(\w*) (?<![\d,]){count} (kart\w*)", text):
            forms = GENITIVE if before in GENITIVE_PREPOSITIONS else CARD_FORMS
            assert word in forms[_form(count)], (key, count, text)
    if form == "text" and count in (2, 22):
        # a number in a plain text cannot agree with a noun after it ("zbierze 22 kart")
        for match in re.finditer(rf"(\w+ )?(?<![\d,]){count} (kart|węż)\w*", text):
            assert match.group(1) in ("do ", "z "), (key, text)


def _form(count: int) -> str:
    if count == 1:
        return "one"
    return "few" if 2 <= count % 10 <= 4 and not 12 <= count % 100 <= 14 else "many"


def test_the_rules_own_terms() -> None:
    every = " ".join(text for _, _, _, text in CASES).lower()
    # one verb for drawing a card: "dobierz" (never wylosuj, wyciągnij, weź)
    for word in ("wylos", "wyciąg", "weź", "losuj"):
        assert word not in every, word
    # the rulebook's joker, a tie-break that is not extra time, neutral forms for any player
    for word in ("dzik", "dogrywk", "wygrał(a)", "nieobecny", "przyszedł", "łup"):
        assert word not in every, word
    assert "Ręka" not in " ".join(text for _, _, _, text in CASES)


def test_a_drawn_card_is_named_in_the_accusative() -> None:
    def drawn(card: str) -> str:
        return PL.text("news.youDraw", card=PL.card_name(parse_card(card), accusative=True))

    assert drawn("H:red") == "Dobierasz czerwoną głowę."
    assert drawn("H:wild") == "Dobierasz tęczową głowę."
    assert drawn("T:red") == "Dobierasz czerwony ogon."
    assert drawn("M:red-orange") == "Dobierasz środek czerwono-pomarańczowy."
    english = get_catalog("en")
    red = parse_card("H:red")
    assert english.card_name(red, accusative=True) == english.card_name(red) == "red head"
