"""The core's public API at its edges: wrong types and bad values get clear errors."""

from __future__ import annotations

import json

import pytest

from hisss.core import (
    ALL_PAIRS,
    NEW,
    Action,
    ActionKind,
    Colour,
    ConfigError,
    DecidedBy,
    End,
    IllegalActionError,
    IllegalDrawError,
    JoinClaim,
    NotationError,
    Rules,
    Scoring,
    get_deck,
    get_rules,
    new_game,
    parse_action,
    parse_card,
    parse_snake,
    score,
)
from hisss.core import actions as actions_module


def test_new_game_takes_preset_and_deck_names() -> None:
    state = new_game(3, "pl", "all-pairs")
    assert state.rules.join_claim is JoinClaim.ALWAYS
    assert state.deck is ALL_PAIRS
    assert state.players == 3


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rules": 3}, "rules must be Rules or a preset name, not int"),
        ({"deck": 3}, "deck must be a Deck or a deck name, not int"),
        ({"rules": "house"}, 'unknown rules preset "house"'),
        ({"deck": "tarot"}, "unknown deck 'tarot'"),
    ],
)
def test_new_game_rejects_bad_set_up(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        new_game(2, **kwargs)  # type: ignore[arg-type]


def test_names_are_case_insensitive() -> None:
    assert get_rules(" PL ") is get_rules("pl")
    assert get_deck("Rainbow") is get_deck("rainbow")
    rules = Rules.from_mapping({"preset": "classic", "scoring": "FIRST-TO", "target": 5})
    assert rules.scoring is Scoring.FIRST_TO


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"forced_placement": "no"}, "forced_placement must be true or false"),
        ({"six_players": 1}, "six_players must be true or false"),
        ({"target": None}, "target must be a whole number of cards, not null"),
        ({"target": 1.5, "scoring": Scoring.FIRST_TO}, "target must be a whole number"),
        ({"target": True, "scoring": Scoring.FIRST_TO}, "target must be a whole number"),
        ({"target": 3}, "used only with scoring 'first-to'"),
        ({"scoring": Scoring.FIRST_TO}, "needs a target of at least 1 card"),
        ({"scoring": "cards"}, "scoring must be a Scoring"),
    ],
)
def test_rules_check_their_options(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Rules(**kwargs)  # type: ignore[arg-type]


def test_wrong_types_to_draw_and_apply_change_nothing() -> None:
    state = new_game(2)
    state.draw(parse_card("M:red-orange"))
    with pytest.raises(IllegalDrawError, match="expected a Card, not str"):
        state.draw("H:red")  # type: ignore[arg-type]
    state.draw(parse_card("H:red"))
    before = (state.table, state.drawn, state.remaining, state.turns)
    with pytest.raises(IllegalActionError, match="expected an Action, not str"):
        state.apply("1L")  # type: ignore[arg-type]
    assert not state.can_apply("1L")  # type: ignore[arg-type]
    assert (state.table, state.drawn, state.remaining, state.turns) == before
    state.apply(parse_action("1L"))
    assert str(state.pits[0][0] if state.pits[0] else state.table[0]) == "H:red M:red-orange"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ((ActionKind.NEW, 0, End.L), "a new-snake action touches no snake"),
        ((ActionKind.CAP, -1, End.L), "a snake position is a whole number from 0"),
        ((ActionKind.CAP, 0, "L"), "an end is End.L or End.R"),
        ((ActionKind.CAP, 0, End.L, Colour.RED), "a cap names no side"),
        ((ActionKind.EXTEND, 0, End.L), "names the side that touches"),
        ((ActionKind.EXTEND, 0, End.L, Colour.RED, 1, End.L, Colour.BLUE), "only a join"),
        ((ActionKind.JOIN, 2, End.L, Colour.RED, 2, End.R, Colour.BLUE), "two different snakes"),
        ((ActionKind.JOIN, 1, End.L, Colour.RED, 2, End.R, Colour.RED), "two different sides"),
        ((ActionKind.JOIN, 1, End.L, Colour.RED), "names a second end"),
    ],
)
def test_actions_check_their_fields(fields: tuple[object, ...], message: str) -> None:
    with pytest.raises(NotationError, match=message):
        Action(*fields)  # type: ignore[arg-type]


def test_a_join_has_one_spelling_however_it_is_built() -> None:
    built = Action(ActionKind.JOIN, 4, End.L, Colour.RED, 1, End.R, Colour.BLUE)
    assert (built.snake, built.end, built.side) == (1, End.R, Colour.BLUE)
    assert built == parse_action("5L:red+2R:blue") == parse_action("2R:blue+5L:red")
    assert str(built) == "2R:blue+5L:red"


def test_parsing_does_not_grow_the_action_cache() -> None:
    size = len(actions_module._cache)
    parsed = [parse_action(f"{n}R:red+{n + 1}L:blue") for n in range(100_000, 100_050)]
    assert len(actions_module._cache) == size
    assert parse_action(str(parsed[0])) == parsed[0]
    assert parse_action("new") is NEW


@pytest.mark.parametrize(
    ("scoring", "measures"),
    [
        (Scoring.CARDS, ("cards", "longest")),
        (Scoring.FIRST_TO, ("cards", "longest")),
        (Scoring.SNAKES, ("snakes", "longest")),
        (Scoring.LONGEST, ("longest", "cards")),
    ],
)
def test_each_scoring_names_its_measure_and_tie_break(
    scoring: Scoring, measures: tuple[str, str]
) -> None:
    assert scoring.measures == measures
    assert all(isinstance(m, DecidedBy) for m in scoring.measures)


def test_decided_by_is_an_enum_written_as_its_notation() -> None:
    six = parse_snake("H:red M:red-orange M:orange-yellow M:yellow-green M:green-blue T:blue")
    three = parse_snake("H:red M:red-orange T:orange")
    result = score([[six], [three, three]], Rules())  # 6 cards each: the longest snake decides
    assert result.decided_by is DecidedBy.LONGEST
    assert json.dumps({"decided_by": result.decided_by}) == '{"decided_by": "longest"}'
    assert [str(d) for d in DecidedBy] == ["cards", "snakes", "longest", "target", "shared"]
    assert DecidedBy("shared") is DecidedBy.SHARED
    assert score([[three], [three]], Rules()).decided_by is DecidedBy.SHARED
