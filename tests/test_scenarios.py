"""Scenario tests with stacked decks: one or more for every rule, option and worked example of
RULES.md. Each turn draws a chosen card, checks the exact list of legal actions (as notation) and
plays one of them, so every step of every scenario is checked, not only its end.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from hisss.core import (
    ALL_PAIRS,
    DOUBLE,
    NEW,
    PRESETS,
    RAINBOW,
    WHEEL,
    WILD,
    Card,
    ConfigError,
    Deck,
    DeckError,
    HisssError,
    IllegalActionError,
    IllegalDrawError,
    JoinClaim,
    Rules,
    Scoring,
    State,
    get_deck,
    get_rules,
    new_game,
    parse_action,
    parse_card,
    parse_snake,
    score,
)
from hisss.core.cards import ALL_CARDS, CardKind
from hisss.core.errors import NotationError
from hisss.core.snake import check_snake
from support.strategies import snapshot

PL = get_rules("pl")
UNFORCED = Rules(forced_placement=False)

# --------------------------------------------------------------------------- helpers


def start(
    starter: str, players: int = 2, rules: Rules | None = None, deck: Deck = RAINBOW
) -> State:
    """A new game whose starter (the first card of the deck) is ``starter``."""
    state = new_game(players, rules, deck)
    state.draw(parse_card(starter))
    return state


def stacked(*cards: str) -> Deck:
    """A deck holding exactly these cards (drawn in this order by the scenario)."""
    return Deck.from_cards("stacked", [parse_card(c) for c in cards])


def turn(state: State, card: str, expected: list[str], play: str | None = None) -> None:
    """Draw ``card``, check the legal actions are exactly ``expected`` (in order), play ``play``."""
    state.draw(parse_card(card))
    assert [str(a) for a in state.legal_actions()] == expected
    if play is not None:
        state.apply(parse_action(play))


def table(state: State) -> list[str]:
    return [str(s) for s in state.table]


def pits(state: State) -> list[list[str]]:
    return [[str(s) for s in pit] for pit in state.pits]


# --------------------------------------------------------------------------- §1 decks


def test_rainbow_deck_is_the_default_fifty_cards() -> None:
    assert RAINBOW.size == 50
    assert get_deck("rainbow") is RAINBOW
    assert new_game().deck is RAINBOW
    for colour in WHEEL:
        assert RAINBOW.count(Card.head(colour)) == 1
        assert RAINBOW.count(Card.tail(colour)) == 1
    assert RAINBOW.count(Card.head(None)) == 1
    assert RAINBOW.count(Card.tail(None)) == 1
    mids = {card: n for card, n in RAINBOW.items() if card.kind is CardKind.MID}
    neighbours = {Card.mid(WHEEL[i], WHEEL[(i + 1) % 6]) for i in range(6)}
    assert mids == dict.fromkeys(neighbours, 6)
    assert sum(mids.values()) == 36


def test_all_pairs_deck_composition() -> None:
    deck = get_deck("all-pairs")
    assert deck is ALL_PAIRS
    assert deck.size == 50
    for card in ALL_CARDS:
        if card.kind is not CardKind.MID:
            assert deck.count(card) == 1, card
            continue
        a, b = card.colours
        # the 15 unordered pairs twice each, plus the 6 wheel-neighbour pairs once more
        neighbours = (a.index - b.index) % 6 in (1, 5)
        assert deck.count(card) == (3 if neighbours else 2), card
    assert sum(n for c, n in deck.items() if c.kind is CardKind.MID) == 36
    assert len([c for c, _ in deck.items() if c.kind is CardKind.MID]) == 15


def test_double_deck_is_two_rainbow_decks() -> None:
    deck = get_deck("double")
    assert deck is DOUBLE
    assert deck.size == 100
    assert deck.counts == tuple(2 * n for n in RAINBOW.counts)


def test_unknown_deck_name_is_refused() -> None:
    with pytest.raises(DeckError, match="no-such-deck"):
        get_deck("no-such-deck")


def test_user_deck_from_mapping() -> None:
    deck = Deck.from_mapping(
        {"name": "tiny", "cards": {"H:red": 1, "T:wild": 2, "M:orange-red": 3}}
    )
    assert deck.name == "tiny"
    assert deck.size == 6
    assert deck.count(parse_card("M:red-orange")) == 3
    assert Deck.from_mapping(deck.to_mapping()) == deck


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"cards": {"M:red-red": 1}}, 'cards."M:red-red"'),
        ({"cards": {"H:red": 0}}, 'cards."H:red"'),
        ({"cards": {"H:red": "two"}}, 'cards."H:red"'),
        ({"cards": {"H:red": 1, "h:RED": 1}}, 'cards."h:RED"'),
        ({"cards": {}}, "cards"),
        ({"name": "x"}, "cards"),
        ({"cards": {"H:red": 1}, "colour": "red"}, "colour"),
        ({"name": "", "cards": {"H:red": 1}}, "name"),
    ],
)
def test_bad_user_deck_names_the_field(data: dict[str, object], field: str) -> None:
    with pytest.raises(DeckError) as info:
        Deck.from_mapping(data)
    assert info.value.field == field
    assert str(info.value).startswith(field)


# --------------------------------------------------------------------------- §2 terms


def test_head_goes_to_the_left_end_and_tail_to_the_right_end() -> None:
    state = start("M:red-orange", deck=stacked("M:red-orange", "H:orange", "T:red", "H:red"))
    turn(state, "H:orange", ["1R"], "1R")
    (snake,) = state.table
    assert str(snake) == "H:orange M:orange-red"
    assert snake.has_head and snake.path[0] is None and snake.cards[0].kind is CardKind.HEAD
    check_snake(snake)


def test_tail_capping_a_left_end_is_turned_to_the_right() -> None:
    state = start("M:red-orange")
    turn(state, "T:red", ["1L"], "1L")
    (snake,) = state.table
    assert str(snake) == "M:orange-red T:red"
    assert snake.path[-1] is None and snake.has_tail and not snake.has_head


def test_at_most_one_head() -> None:
    state = start("H:red")
    turn(state, "M:red-orange", ["1R:red"], "1R:red")
    # the open end is orange, but the snake already has a head
    turn(state, "H:orange", ["new"], "new")
    assert table(state) == ["H:red M:red-orange", "H:orange"]


def test_at_most_one_head_even_for_the_wild_head() -> None:
    state = start("H:red")
    turn(state, "M:red-orange", ["1R:red"], "1R:red")
    turn(state, "H:wild", ["new"])


def test_at_most_one_tail() -> None:
    state = start("T:orange")
    turn(state, "M:red-orange", ["1L:orange"], "1L:orange")
    assert table(state) == ["M:red-orange T:orange"]
    # the open end is red, but the snake already has a tail
    turn(state, "T:red", ["new"])
    turn_wild = start("T:orange")
    turn(turn_wild, "M:red-orange", ["1L:orange"], "1L:orange")
    turn(turn_wild, "T:wild", ["new"])


@pytest.mark.parametrize(
    ("lone", "drawn"),
    [
        ("H:red", "T:red"),
        ("H:red", "T:wild"),
        ("H:wild", "T:wild"),
        ("H:wild", "T:blue"),
        ("T:red", "H:red"),
        ("T:wild", "H:wild"),
        ("T:green", "H:wild"),
        ("H:red", "H:wild"),
        ("T:red", "T:wild"),
    ],
)
def test_heads_and_tails_never_go_onto_a_lone_head_or_tail(lone: str, drawn: str) -> None:
    state = start(lone)
    turn(state, drawn, ["new"], "new")
    assert table(state) == [lone, drawn]
    assert state.pits == ((), ())


def test_two_same_heads_never_touch() -> None:
    state = start("H:red", deck=DOUBLE)
    turn(state, "H:red", ["new"], "new")
    assert table(state) == ["H:red", "H:red"]


def test_head_and_tail_never_adjacent_in_notation() -> None:
    with pytest.raises(NotationError):
        parse_snake("H:red T:red")
    with pytest.raises(NotationError):
        parse_snake("H:wild T:wild")


def test_completeness_needs_head_tail_and_a_mid_section() -> None:
    assert parse_snake("H:red M:red-orange T:orange").is_complete
    assert parse_snake("H:wild M:blue-green M:green-yellow T:wild").is_complete
    assert not parse_snake("H:red M:red-orange").is_complete
    assert not parse_snake("M:red-orange T:orange").is_complete
    assert not parse_snake("M:red-orange").is_complete
    assert not parse_snake("H:red").is_complete


def test_a_snake_with_a_head_but_no_tail_stays_on_the_table() -> None:
    state = start("M:red-orange")
    turn(state, "H:red", ["1L"], "1L")
    turn(state, "M:orange-yellow", ["1R:orange"], "1R:orange")
    assert table(state) == ["H:red M:red-orange M:orange-yellow"]
    assert state.pits == ((), ())


# --------------------------------------------------------------------------- §3 play


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_any_card_may_be_the_starter_and_it_is_nobodys_turn(card: Card) -> None:
    state = new_game(3, deck=ALL_PAIRS)
    assert state.is_chance_node() and not state.started
    state.draw(card)
    assert [str(s) for s in state.table] == [str(card)]
    check_snake(state.table[0])
    assert state.turns == 0
    assert state.to_move == 0
    assert state.current_player is None
    assert state.drawn is None
    assert state.legal_actions() == []
    assert state.is_chance_node()
    assert state.remaining == ALL_PAIRS.size - 1
    assert state.pits == ((), (), ())
    # seat 1 places the second card of the deck
    state.draw(parse_card("M:red-orange"))
    assert state.current_player == 0


def test_lone_head_and_tail_starters_are_open_at_their_neck() -> None:
    assert start("H:wild").table[0].path == (None, WILD)
    assert start("T:wild").table[0].path == (WILD, None)
    assert start("H:blue").table[0].path == (None, WHEEL[4])
    assert start("T:red").table[0].path == (WHEEL[0], None)


def test_seats_play_in_order_and_the_placer_claims() -> None:
    state = start("M:red-orange", players=3)
    state.draw(parse_card("M:orange-yellow"))
    assert state.current_player == 0
    assert [str(a) for a in state.legal_actions()] == ["1R:orange"]
    state.apply(parse_action("1R:orange"))
    assert state.current_player is None and state.to_move == 1
    state.draw(parse_card("H:red"))
    assert state.current_player == 1
    assert [str(a) for a in state.legal_actions()] == ["1L"]
    state.apply(parse_action("1L"))
    state.draw(parse_card("T:yellow"))
    assert state.current_player == 2
    assert [str(a) for a in state.legal_actions()] == ["1R"]
    state.apply(parse_action("1R"))
    assert pits(state) == [[], [], ["H:red M:red-orange M:orange-yellow T:yellow"]]
    assert state.table == ()
    assert state.turns == 3
    assert state.to_move == 0
    # an empty table: the only place is a new snake
    turn(state, "M:green-blue", ["new"], "new")
    assert table(state) == ["M:green-blue"]
    assert state.to_move == 1


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_seat_order_wraps_round(players: int) -> None:
    rules = Rules(six_players=players == 6)
    deck = Deck.from_mapping({"cards": {"M:red-orange": 1, "M:green-blue": 20}})
    state = start("M:red-orange", players=players, rules=rules, deck=deck)
    seen = []
    for _ in range(2 * players + 1):
        state.draw(parse_card("M:green-blue"))
        seen.append(state.current_player)
        state.apply(state.legal_actions()[0])
    assert seen == [*range(players), *range(players), 0]


def test_extend_at_either_end_turning_the_card_round() -> None:
    state = start("M:green-blue")
    turn(state, "M:blue-purple", ["1R:blue"], "1R:blue")
    turn(state, "M:yellow-green", ["1L:green"], "1L:green")
    assert table(state) == ["M:yellow-green M:green-blue M:blue-purple"]
    # purple-red: its purple side onto the right end (written purple first after turning)
    turn(state, "M:purple-red", ["1R:purple"], "1R:purple")
    # red-orange fits only the red right end; orange-yellow fits only the yellow left end
    turn(state, "M:red-orange", ["1R:red"], "1R:red")
    # orange-yellow fits both ends of the one snake; it never joins a snake to itself
    turn(state, "M:orange-yellow", ["1L:yellow", "1R:orange"], "1L:yellow")
    assert table(state) == [
        "M:orange-yellow M:yellow-green M:green-blue M:blue-purple M:purple-red M:red-orange"
    ]


def test_extend_a_lone_wild_head_either_way_round() -> None:
    state = start("H:wild")
    turn(state, "M:red-orange", ["1R:red", "1R:orange"])
    before = snapshot(state)
    state.apply(parse_action("1R:orange"))
    assert table(state) == ["H:wild M:orange-red"]
    assert state.table[0].right is WHEEL[0]
    state.undo()
    assert snapshot(state) == before
    state.apply(parse_action("1R:red"))
    assert table(state) == ["H:wild M:red-orange"]
    assert state.table[0].right is WHEEL[1]


def test_extend_a_lone_wild_tail_either_way_round() -> None:
    state = start("T:wild")
    turn(state, "M:green-blue", ["1L:green", "1L:blue"], "1L:green")
    assert table(state) == ["M:blue-green T:wild"]
    assert state.table[0].left is WHEEL[4]


def test_extend_a_plain_lone_head_at_its_neck() -> None:
    state = start("H:purple")
    turn(state, "M:purple-red", ["1R:purple"], "1R:purple")
    assert table(state) == ["H:purple M:purple-red"]


def test_cap_with_a_head_of_the_end_colour_then_complete_with_a_tail() -> None:
    state = start("M:red-orange")
    turn(state, "H:orange", ["1R"], "1R")
    turn(state, "T:red", ["1R"], "1R")
    assert pits(state) == [[], ["H:orange M:orange-red T:red"]]
    assert state.table == ()


def test_a_head_of_another_colour_does_not_cap() -> None:
    state = start("M:red-orange")
    turn(state, "H:blue", ["new"], "new")
    turn(state, "T:green", ["new"], "new")
    assert table(state) == ["M:red-orange", "H:blue", "T:green"]


def test_a_wild_head_caps_any_mid_section_colour() -> None:
    state = start("M:green-blue")
    turn(state, "H:wild", ["1L", "1R"], "1R")
    assert table(state) == ["H:wild M:blue-green"]
    turn(state, "T:wild", ["1R"], "1R")
    assert pits(state) == [[], ["H:wild M:blue-green T:wild"]]


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        ("H:red", ["1L"]),
        ("H:orange", ["new"]),
        ("H:yellow", ["new"]),
        ("H:green", ["new"]),
        ("H:blue", ["new"]),
        ("H:purple", ["1R"]),
        ("H:wild", ["1L", "1R"]),
    ],
)
def test_a_head_caps_only_an_end_of_its_colour_and_the_wild_head_any(
    head: str, expected: list[str]
) -> None:
    state = start("M:red-orange")
    turn(state, "M:orange-yellow", ["1R:orange"], "1R:orange")
    turn(state, "M:yellow-green", ["1R:yellow"], "1R:yellow")
    turn(state, "M:green-blue", ["1R:green"], "1R:green")
    turn(state, "M:blue-purple", ["1R:blue"], "1R:blue")
    assert table(state) == [
        "M:red-orange M:orange-yellow M:yellow-green M:green-blue M:blue-purple"
    ]
    turn(state, head, expected)
    state.undo()
    turn(state, "T:wild", ["1L", "1R"])


def test_a_cap_onto_a_lone_head_neck_is_refused_even_with_matching_colour() -> None:
    state = start("H:red")
    turn(state, "T:red", ["new"])
    with pytest.raises(IllegalActionError, match="lone head or tail"):
        state.apply(parse_action("1R"))


def test_join_lone_head_and_lone_tail_into_a_complete_snake() -> None:
    state = start("H:red")
    turn(state, "T:orange", ["new"], "new")
    turn(state, "M:red-orange", ["1R:red", "2L:orange", "1R:red+2L:orange"], "1R:red+2L:orange")
    assert state.table == ()
    assert pits(state) == [[], ["H:red M:red-orange T:orange"]]


def test_join_two_bare_snakes_is_not_claimed_under_classic() -> None:
    state = start("M:red-orange")
    turn(state, "M:yellow-green", ["new"], "new")
    turn(
        state,
        "M:orange-yellow",
        ["1R:orange", "2L:yellow", "1R:orange+2L:yellow"],
        "1R:orange+2L:yellow",
    )
    assert table(state) == ["M:red-orange M:orange-yellow M:yellow-green"]
    assert state.pits == ((), ())


def test_join_turns_snakes_round_as_needed() -> None:
    # snake 1 open at its left end (red), snake 2 open at its right end (orange)
    state = start("M:purple-red")
    turn(state, "M:yellow-orange", ["new"], "new")
    assert table(state) == ["M:purple-red", "M:orange-yellow"]
    turn(state, "T:purple", ["1L"], "1L")
    assert table(state) == ["M:red-purple T:purple", "M:orange-yellow"]
    turn(state, "H:yellow", ["2R"], "2R")
    assert table(state) == ["M:red-purple T:purple", "H:yellow M:yellow-orange"]
    turn(state, "M:red-orange", ["1L:red", "2R:orange", "1L:red+2R:orange"], "1L:red+2R:orange")
    assert pits(state) == [[], ["H:yellow M:yellow-orange M:orange-red M:red-purple T:purple"]]
    assert state.table == ()


def test_join_refused_when_it_would_make_two_tails() -> None:
    state = start("T:orange")
    turn(state, "M:red-orange", ["1L:orange"], "1L:orange")
    turn(state, "T:yellow", ["new"], "new")
    turn(state, "M:orange-yellow", ["2L:yellow"], "2L:yellow")
    assert table(state) == ["M:red-orange T:orange", "M:orange-yellow T:yellow"]
    turn(state, "M:red-orange", ["1L:red", "2L:orange"])
    with pytest.raises(IllegalActionError, match="two tails"):
        state.apply(parse_action("1L:red+2L:orange"))


def test_join_refused_when_it_would_make_two_heads_with_wild() -> None:
    state = start("H:wild")
    turn(state, "H:red", ["new"], "new")
    turn(state, "M:red-orange", ["1R:red", "1R:orange", "2R:red"])
    with pytest.raises(IllegalActionError, match="two heads"):
        state.apply(parse_action("1R:orange+2R:red"))


def test_only_the_drawn_card_joins_table_snakes_never_move() -> None:
    state = start("M:red-orange")
    turn(state, "M:yellow-green", ["new"], "new")
    turn(
        state,
        "M:orange-yellow",
        ["1R:orange", "2L:yellow", "1R:orange+2L:yellow"],
        "1R:orange",
    )
    # snake 1 now ends yellow beside snake 2's yellow end: they stay two snakes
    assert table(state) == ["M:red-orange M:orange-yellow", "M:yellow-green"]
    turn(state, "H:red", ["1L"], "1L")
    assert table(state) == ["H:red M:red-orange M:orange-yellow", "M:yellow-green"]
    # a head or tail never joins; the tail goes onto one end only
    turn(state, "T:green", ["2R"], "2R")
    assert table(state) == ["H:red M:red-orange M:orange-yellow", "M:yellow-green T:green"]
    assert state.pits == ((), ())


def test_new_snake_only_when_nothing_else_fits() -> None:
    state = start("M:red-orange")
    turn(state, "M:orange-yellow", ["1R:orange"])
    assert NEW not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="fits onto a snake"):
        state.apply(NEW)
    state.apply(parse_action("1R:orange"))
    turn(state, "M:green-blue", ["new"], "new")
    assert table(state) == ["M:red-orange M:orange-yellow", "M:green-blue"]


def test_the_player_who_completes_a_snake_takes_it_at_once() -> None:
    state = start("M:red-orange", players=4)
    turn(state, "H:red", ["1L"], "1L")
    turn(state, "M:green-blue", ["new"], "new")
    turn(state, "M:blue-purple", ["2R:blue"], "2R:blue")
    turn(state, "T:orange", ["1R"], "1R")
    assert pits(state) == [[], [], [], ["H:red M:red-orange T:orange"]]
    assert table(state) == ["M:green-blue M:blue-purple"]
    # a pit snake never returns: the pit keeps it whatever happens next
    turn(state, "T:purple", ["1R"], "1R")
    assert pits(state)[3] == ["H:red M:red-orange T:orange"]


def test_game_ends_with_the_last_card_and_leftovers_stay_on_the_table() -> None:
    deck = stacked("M:red-orange", "H:red", "M:yellow-green", "T:blue")
    state = start("M:red-orange", deck=deck)
    turn(state, "H:red", ["1L"], "1L")
    turn(state, "M:yellow-green", ["new"], "new")
    assert not state.is_terminal()
    turn(state, "T:blue", ["new"], "new")
    assert state.is_terminal()
    assert state.remaining == 0
    assert not state.is_chance_node()
    assert state.chance_outcomes() == []
    assert state.legal_actions() == []
    assert table(state) == ["H:red M:red-orange", "M:yellow-green", "T:blue"]
    assert state.pits == ((), ())
    result = state.result()
    # nobody has a card: everybody shares the win
    assert result.cards == (0, 0)
    assert result.winners == (0, 1)
    assert result.decided_by == "shared"
    before = snapshot(state)
    with pytest.raises(IllegalDrawError, match="game is over"):
        state.draw(parse_card("H:red"))
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply(NEW)
    assert snapshot(state) == before


def test_last_card_completing_a_snake_is_claimed_before_the_end() -> None:
    deck = stacked("M:red-orange", "H:red", "T:orange")
    state = start("M:red-orange", deck=deck)
    turn(state, "H:red", ["1L"], "1L")
    turn(state, "T:orange", ["1R"], "1R")
    assert state.is_terminal()
    assert pits(state) == [[], ["H:red M:red-orange T:orange"]]
    result = state.result()
    assert result.cards == (0, 3)
    assert result.winners == (1,)
    assert result.decided_by == "cards"


def test_a_played_game_won_on_cards() -> None:
    deck = stacked(
        "M:red-orange",
        "H:red",
        "T:orange",
        "H:green",
        "M:green-blue",
        "M:blue-purple",
        "M:red-yellow",
        "T:purple",
    )
    state = start("M:red-orange", deck=deck)
    turn(state, "H:red", ["1L"], "1L")
    turn(state, "T:orange", ["1R"], "1R")
    turn(state, "H:green", ["new"], "new")
    turn(state, "M:green-blue", ["1R:green"], "1R:green")
    turn(state, "M:blue-purple", ["1R:blue"], "1R:blue")
    turn(state, "M:red-yellow", ["new"], "new")
    turn(state, "T:purple", ["1R"], "1R")
    assert state.is_terminal()
    assert pits(state) == [
        ["H:green M:green-blue M:blue-purple T:purple"],
        ["H:red M:red-orange T:orange"],
    ]
    assert table(state) == ["M:red-yellow"]
    result = state.result()
    assert result.cards == (4, 3)
    assert result.winners == (0,)
    assert result.decided_by == "cards"


def test_a_played_game_tied_on_cards_and_longest_is_shared() -> None:
    deck = stacked("M:red-orange", "H:red", "T:orange", "H:green", "M:green-blue", "T:blue")
    state = start("M:red-orange", deck=deck)
    turn(state, "H:red", ["1L"], "1L")
    turn(state, "T:orange", ["1R"], "1R")
    turn(state, "H:green", ["new"], "new")
    turn(state, "M:green-blue", ["1R:green"], "1R:green")
    turn(state, "T:blue", ["1R"], "1R")
    assert state.is_terminal()
    assert pits(state) == [["H:green M:green-blue T:blue"], ["H:red M:red-orange T:orange"]]
    result = state.result()
    assert result.cards == (3, 3) and result.longest == (3, 3)
    assert result.winners == (0, 1)
    assert result.decided_by == "shared"


def test_action_identity_two_look_alike_snakes() -> None:
    state = start("H:red", deck=DOUBLE)
    turn(state, "H:red", ["new"], "new")
    turn(state, "M:red-orange", ["1R:red", "2R:red"], "2R:red")
    assert table(state) == ["H:red", "H:red M:red-orange"]


def test_action_identity_two_same_coloured_ends_of_one_snake() -> None:
    state = start("M:red-orange")
    turn(state, "M:red-orange", ["1L:red", "1R:orange"], "1R:orange")
    assert table(state) == ["M:red-orange M:orange-red"]
    turn(state, "M:purple-red", ["1L:red", "1R:red"])
    state.undo()
    turn(state, "H:red", ["1L", "1R"])
    state.apply(parse_action("1R"))
    assert table(state) == ["H:red M:red-orange M:orange-red"]
    turn(state, "T:red", ["1R"], "1R")
    assert pits(state) == [["H:red M:red-orange M:orange-red T:red"], []]


def test_action_identity_wild_head_and_wild_tail_give_six_actions() -> None:
    state = start("H:wild")
    turn(state, "T:wild", ["new"], "new")
    turn(
        state,
        "M:red-orange",
        [
            "1R:red",
            "1R:orange",
            "2L:red",
            "2L:orange",
            "1R:red+2L:orange",
            "1R:orange+2L:red",
        ],
    )
    actions = state.legal_actions()
    assert len(set(actions)) == 6
    state.apply(parse_action("1R:orange+2L:red"))
    assert pits(state) == [[], ["H:wild M:orange-red T:wild"]]


# --------------------------------------------------------------------------- §4 options


def test_unforced_placement_adds_new_on_every_turn() -> None:
    state = start("M:red-orange", rules=UNFORCED)
    turn(state, "M:orange-yellow", ["1R:orange", "new"], "new")
    assert table(state) == ["M:red-orange", "M:orange-yellow"]
    turn(
        state,
        "M:yellow-green",
        ["2R:yellow", "new"],
        "2R:yellow",
    )
    turn(state, "H:red", ["1L", "new"], "new")
    # nothing fits a tail of blue: new is there once
    turn(state, "T:blue", ["new"], "new")
    assert table(state) == ["M:red-orange", "M:orange-yellow M:yellow-green", "H:red", "T:blue"]


def test_unforced_placement_new_even_when_it_would_complete() -> None:
    state = start("M:red-orange", rules=UNFORCED)
    turn(state, "H:red", ["1L", "new"], "1L")
    turn(state, "T:orange", ["1R", "new"], "new")
    assert state.pits == ((), ())
    assert table(state) == ["H:red M:red-orange", "T:orange"]


@pytest.mark.parametrize(("rules", "claimed"), [(Rules(), False), (PL, True)])
def test_join_claim_option(rules: Rules, claimed: bool) -> None:
    state = start("H:red", rules=rules)
    turn(state, "M:red-orange", ["1R:red"], "1R:red")
    turn(state, "M:yellow-green", ["new"], "new")
    turn(
        state,
        "M:orange-yellow",
        ["1R:orange", "2L:yellow", "1R:orange+2L:yellow"],
        "1R:orange+2L:yellow",
    )
    joined = "H:red M:red-orange M:orange-yellow M:yellow-green"
    if claimed:
        assert state.table == ()
        assert pits(state) == [[joined], []]
        assert state.pit_cards(0) == 4
        assert state.result().cards == (4, 0)
        assert state.result().winners == (0,)
    else:
        assert table(state) == [joined]
        assert state.pits == ((), ())
        assert state.result().winners == (0, 1)


def test_pl_extend_or_cap_of_one_snake_is_not_taken_while_incomplete() -> None:
    state = start("H:red", rules=PL)
    turn(state, "M:red-orange", ["1R:red"], "1R:red")
    assert table(state) == ["H:red M:red-orange"]
    assert state.pits == ((), ())


def test_pl_incomplete_joined_snake_counts_for_cards_and_longest() -> None:
    incomplete = parse_snake("H:red M:red-orange M:orange-yellow M:yellow-green M:green-blue")
    small = parse_snake("H:red M:red-orange T:orange")
    pair = parse_snake("M:red-orange M:orange-yellow")
    result = score(((incomplete,), (small, pair)), PL)
    assert result.cards == (5, 5)
    assert result.longest == (5, 3)
    assert result.winners == (0,)
    assert result.decided_by == "longest"


def test_scoring_most_cards() -> None:
    a = parse_snake("H:red M:red-orange T:orange")
    b = parse_snake("H:blue M:blue-purple M:purple-red T:red")
    result = score(((a, a), (b,), ()), Rules())
    assert result.cards == (6, 4, 0)
    assert result.winners == (0,)
    assert result.decided_by == "cards"


def test_scoring_tie_broken_by_longest_snake_of_the_tied_players_only() -> None:
    three = parse_snake("H:red M:red-orange T:orange")
    four = parse_snake("H:red M:red-orange M:orange-yellow T:yellow")
    five = parse_snake("H:red M:red-orange M:orange-yellow M:yellow-green T:green")
    eight = parse_snake(
        "H:red M:red-orange M:orange-yellow M:yellow-green M:green-blue M:blue-purple "
        "M:purple-red T:red"
    )
    # seat 3 has the longest snake but fewer cards: it plays no part in the tie-break
    result = score(((three, three, three), (four, five), (eight,)), Rules())
    assert result.cards == (9, 9, 8)
    assert result.longest == (3, 5, 8)
    assert result.winners == (1,)
    assert result.decided_by == "longest"


def test_scoring_tie_after_longest_is_shared() -> None:
    three = parse_snake("H:red M:red-orange T:orange")
    four = parse_snake("H:red M:red-orange M:orange-yellow T:yellow")
    result = score(((three, four), (four, three), (three,)), Rules())
    assert result.winners == (0, 1)
    assert result.decided_by == "shared"
    assert result.is_shared


@pytest.mark.parametrize("players", [2, 3, 5])
def test_scoring_nobody_has_a_card_everybody_shares(players: int) -> None:
    for scoring, target in (
        (Scoring.CARDS, 0),
        (Scoring.SNAKES, 0),
        (Scoring.LONGEST, 0),
        (Scoring.FIRST_TO, 5),
    ):
        result = score(((),) * players, Rules(scoring=scoring, target=target))
        assert result.winners == tuple(range(players))
        assert result.decided_by == "shared"


def test_scoring_number_of_snakes() -> None:
    three = parse_snake("H:red M:red-orange T:orange")
    eight = parse_snake(
        "H:red M:red-orange M:orange-yellow M:yellow-green M:green-blue M:blue-purple "
        "M:purple-red T:red"
    )
    rules = Rules(scoring=Scoring.SNAKES)
    result = score(((three, three), (eight,)), rules)
    assert result.snakes == (2, 1)
    assert result.winners == (0,)
    assert result.decided_by == "snakes"
    # equal numbers of snakes: the longest snake decides
    result = score(((three,), (eight,)), rules)
    assert result.winners == (1,)
    assert result.decided_by == "longest"


def test_scoring_longest_snake() -> None:
    three = parse_snake("H:red M:red-orange T:orange")
    five = parse_snake("H:red M:red-orange M:orange-yellow M:yellow-green T:green")
    rules = Rules(scoring=Scoring.LONGEST)
    result = score(((five,), (three, three, three)), rules)
    assert result.winners == (0,)
    assert result.decided_by == "longest"
    # equal longest snakes: the number of cards decides
    result = score(((five,), (five, three)), rules)
    assert result.winners == (1,)
    assert result.decided_by == "cards"


def test_scoring_first_to_n_cards_ends_the_game_early() -> None:
    rules = Rules(scoring=Scoring.FIRST_TO, target=3)
    state = start("M:red-orange", rules=rules)
    turn(state, "H:red", ["1L"], "1L")
    assert not state.is_terminal()
    turn(state, "T:orange", ["1R"], "1R")
    assert state.is_terminal()
    assert state.remaining == 47
    assert not state.is_chance_node()
    assert state.chance_outcomes() == []
    result = state.result()
    assert result.winners == (1,)
    assert result.decided_by == "target"
    before = snapshot(state)
    with pytest.raises(IllegalDrawError, match="game is over"):
        state.draw(parse_card("H:blue"))
    with pytest.raises(IllegalDrawError):
        state.sample_draw(random.Random(0))
    assert snapshot(state) == before
    # undo takes back the end of the game
    state.undo()
    assert not state.is_terminal()
    assert state.drawn == parse_card("T:orange")


def test_scoring_first_to_a_higher_target_plays_on() -> None:
    rules = Rules(scoring=Scoring.FIRST_TO, target=4)
    state = start("M:red-orange", rules=rules)
    turn(state, "H:red", ["1L"], "1L")
    turn(state, "T:orange", ["1R"], "1R")
    assert not state.is_terminal()
    assert state.is_chance_node()


def test_scoring_first_to_nobody_reaching_the_target_scores_as_cards() -> None:
    rules = Rules(scoring=Scoring.FIRST_TO, target=10)
    deck = stacked("M:red-orange", "H:red", "T:orange", "M:green-blue")
    state = start("M:red-orange", rules=rules, deck=deck)
    turn(state, "H:red", ["1L"], "1L")
    turn(state, "T:orange", ["1R"], "1R")
    turn(state, "M:green-blue", ["new"], "new")
    assert state.is_terminal()
    result = state.result()
    assert result.winners == (1,)
    assert result.decided_by == "cards"


def test_first_to_needs_a_target_and_only_first_to_takes_one() -> None:
    with pytest.raises(ConfigError):
        Rules(scoring=Scoring.FIRST_TO)
    with pytest.raises(ConfigError):
        Rules(scoring=Scoring.FIRST_TO, target=0)
    with pytest.raises(ConfigError):
        Rules(target=5)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_two_to_five_players(players: int) -> None:
    state = new_game(players)
    assert state.players == players
    assert len(state.pits) == players


def test_six_players_only_with_the_option() -> None:
    with pytest.raises(ConfigError, match="6"):
        new_game(6)
    state = new_game(6, Rules(six_players=True))
    assert len(state.pits) == 6


@pytest.mark.parametrize("players", [0, 1, 7])
@pytest.mark.parametrize("six", [False, True])
def test_too_few_or_too_many_players_refused(players: int, six: bool) -> None:
    with pytest.raises(ConfigError, match=str(players)):
        new_game(players, Rules(six_players=six))


def test_presets() -> None:
    assert set(PRESETS) == {"classic", "pl"}
    classic = get_rules("classic")
    assert classic == Rules()
    assert classic.forced_placement
    assert classic.join_claim is JoinClaim.COMPLETE
    assert classic.scoring is Scoring.CARDS
    assert classic.max_players == 5
    assert Rules(join_claim=JoinClaim.ALWAYS) == PL
    assert PL.forced_placement and PL.scoring is Scoring.CARDS and PL.max_players == 5
    assert classic.preset == "classic" and PL.preset == "pl"
    assert UNFORCED.preset is None
    with pytest.raises(ConfigError):
        get_rules("house")


# --------------------------------------------------------------------------- §5 examples


def test_example_1_mid_section_must_extend_the_green_end() -> None:
    state = start("M:blue-green")
    turn(state, "M:green-yellow", ["1L:green"])
    with pytest.raises(IllegalActionError):
        state.apply(NEW)
    state.apply(parse_action("1L:green"))
    assert table(state) == ["M:yellow-green M:green-blue"]


def test_example_2_purple_head_lies_alone_then_is_extended() -> None:
    state = start("M:blue-green")
    turn(state, "M:green-yellow", ["1L:green"], "1L:green")
    turn(state, "H:purple", ["new"], "new")
    assert table(state) == ["M:yellow-green M:green-blue", "H:purple"]
    turn(state, "M:purple-red", ["2R:purple"], "2R:purple")
    assert table(state) == ["M:yellow-green M:green-blue", "H:purple M:purple-red"]


def _example_3_table(rules: Rules) -> State:
    state = start("H:red", rules=rules)
    turn(state, "M:red-orange", ["1R:red"], "1R:red")
    turn(state, "T:green", ["new"], "new")
    turn(state, "M:yellow-green", ["2L:green"], "2L:green")
    assert table(state) == ["H:red M:red-orange", "M:yellow-green T:green"]
    return state


@pytest.mark.parametrize("rules", [Rules(), PL], ids=["classic", "pl"])
def test_example_3_join_two_snakes_into_a_complete_one(rules: Rules) -> None:
    state = _example_3_table(rules)
    turn(state, "M:orange-yellow", ["1R:orange", "2L:yellow", "1R:orange+2L:yellow"])
    state.apply(parse_action("1R:orange+2L:yellow"))
    assert state.table == ()
    assert pits(state) == [[], ["H:red M:red-orange M:orange-yellow M:yellow-green T:green"]]
    assert state.pit_cards(1) == 5


def test_example_3_extending_one_snake_alone_is_also_legal() -> None:
    state = _example_3_table(Rules())
    turn(state, "M:orange-yellow", ["1R:orange", "2L:yellow", "1R:orange+2L:yellow"])
    state.apply(parse_action("1R:orange"))
    assert table(state) == ["H:red M:red-orange M:orange-yellow", "M:yellow-green T:green"]
    state.undo()
    state.apply(parse_action("2L:yellow"))
    assert table(state) == ["H:red M:red-orange", "M:orange-yellow M:yellow-green T:green"]
    assert state.pits == ((), ())


def test_example_4_all_pairs_join_refused_with_two_heads() -> None:
    state = start("H:red", deck=ALL_PAIRS)
    turn(state, "M:red-orange", ["1R:red"], "1R:red")
    turn(state, "H:blue", ["new"], "new")
    turn(state, "M:blue-green", ["2R:blue"], "2R:blue")
    assert table(state) == ["H:red M:red-orange", "H:blue M:blue-green"]
    turn(state, "M:orange-green", ["1R:orange", "2R:green"])
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="two heads"):
        state.apply(parse_action("1R:orange+2R:green"))
    assert snapshot(state) == before
    state.apply(parse_action("2R:green"))
    assert table(state) == ["H:red M:red-orange", "H:blue M:blue-green M:green-orange"]


def test_example_5_wild_tail_caps_either_end_of_a_mid_but_not_a_lone_head() -> None:
    state = start("M:red-orange")
    turn(state, "H:yellow", ["new"], "new")
    assert table(state) == ["M:red-orange", "H:yellow"]
    turn(state, "T:wild", ["1L", "1R"])
    with pytest.raises(IllegalActionError):
        state.apply(parse_action("2R"))
    state.apply(parse_action("1L"))
    assert table(state) == ["M:orange-red T:wild", "H:yellow"]
    state.undo()
    state.apply(parse_action("1R"))
    assert table(state) == ["M:red-orange T:wild", "H:yellow"]


# --------------------------------------------------------------------------- errors, undo, copy


def _busy_position() -> State:
    """Two snakes on the table and ``M:orange-yellow`` drawn (example 3's table, seat 2)."""
    state = _example_3_table(Rules())
    state.draw(parse_card("M:orange-yellow"))
    return state


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("new", "fits onto a snake"),
        ("3R:orange", "no snake 3"),
        ("1L:red", "closed"),
        ("2R:green", "closed"),
        ("1R", "mid-section"),
        ("1R:blue", "no blue side"),
        ("1R:yellow", "do not match"),
        ("1R:orange+2L:green", "no green side"),
        ("1R:yellow+2L:orange", "do not match"),
        ("1R:orange+3L:yellow", "no snake 3"),
    ],
)
def test_illegal_action_names_itself_and_the_position_and_changes_nothing(
    text: str, reason: str
) -> None:
    state = _busy_position()
    before = snapshot(state)
    action = parse_action(text)
    assert not state.can_apply(action)
    with pytest.raises(IllegalActionError) as info:
        state.apply(action)
    message = str(info.value)
    assert text in message
    assert state.describe() in message
    assert "M:orange-yellow" in message and "H:red M:red-orange" in message
    assert reason in info.value.reason
    assert info.value.action == action
    assert isinstance(info.value, HisssError)
    assert snapshot(state) == before
    # the undo history is untouched too: one undo takes back the draw
    state.undo()
    assert state.drawn is None and state.remaining == 46


@pytest.mark.parametrize("text", ["1R", "1R:red", "new"])
def test_illegal_action_when_no_card_is_drawn(text: str) -> None:
    state = start("H:red")
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="no card has been drawn"):
        state.apply(parse_action(text))
    assert snapshot(state) == before


def test_illegal_cap_reasons() -> None:
    state = start("H:red")
    turn(state, "M:red-orange", ["1R:red"], "1R:red")
    turn(state, "H:orange", ["new"])
    with pytest.raises(IllegalActionError, match="already has a head"):
        state.apply(parse_action("1R"))
    with pytest.raises(IllegalActionError, match="single side"):
        state.apply(parse_action("1R:orange"))


def test_illegal_draws_change_nothing() -> None:
    state = start("H:red")
    before = snapshot(state)
    with pytest.raises(IllegalDrawError, match=r"H:red.*no copy"):
        state.draw(parse_card("H:red"))
    assert snapshot(state) == before
    state.draw(parse_card("M:red-orange"))
    pending = snapshot(state)
    with pytest.raises(IllegalDrawError, match="must be placed first"):
        state.draw(parse_card("M:red-orange"))
    assert snapshot(state) == pending
    with pytest.raises(IllegalDrawError) as info:
        state.draw(parse_card("M:green-blue"))
    assert state.describe() in str(info.value)
    assert snapshot(state) == pending


def test_drawing_a_card_the_deck_never_had_is_refused() -> None:
    state = new_game(2, deck=RAINBOW)
    before = snapshot(state)
    with pytest.raises(IllegalDrawError, match="M:red-blue"):
        state.draw(parse_card("M:red-blue"))
    assert snapshot(state) == before


def test_chance_outcomes_follow_the_stacked_deck() -> None:
    deck = stacked("M:red-orange", "M:red-orange", "H:red", "T:wild")
    state = new_game(2, deck=deck)
    assert [(str(c), p) for c, p in state.chance_outcomes()] == [
        ("H:red", Fraction(1, 4)),
        ("T:wild", Fraction(1, 4)),
        ("M:red-orange", Fraction(1, 2)),
    ]
    state.draw(parse_card("M:red-orange"))
    assert [(str(c), p) for c, p in state.chance_outcomes()] == [
        ("H:red", Fraction(1, 3)),
        ("T:wild", Fraction(1, 3)),
        ("M:red-orange", Fraction(1, 3)),
    ]
    state.draw(parse_card("H:red"))
    assert state.chance_outcomes() == []
    state.apply(parse_action("1L"))
    assert [(str(c), p) for c, p in state.chance_outcomes()] == [
        ("T:wild", Fraction(1, 2)),
        ("M:red-orange", Fraction(1, 2)),
    ]


def test_undo_restores_every_step_back_to_the_start() -> None:
    state = new_game(3, rules=PL)
    history = [snapshot(state)]
    for card, action in [
        ("H:red", None),
        ("M:red-orange", "1R:red"),
        ("M:yellow-green", "new"),
        ("M:orange-yellow", "1R:orange+2L:yellow"),
        ("M:blue-purple", "new"),
        ("H:wild", "1L"),
        ("T:purple", "1R"),
    ]:
        state.draw(parse_card(card))
        history.append(snapshot(state))
        if action is not None:
            state.apply(parse_action(action))
            history.append(snapshot(state))
    assert pits(state) == [
        [],
        [],
        ["H:red M:red-orange M:orange-yellow M:yellow-green", "H:wild M:blue-purple T:purple"],
    ]
    while len(history) > 1:
        history.pop()
        state.undo()
        assert snapshot(state) == history[-1]
    with pytest.raises(IndexError):
        state.undo()


def test_copy_is_independent() -> None:
    state = start("M:red-orange")
    state.draw(parse_card("H:red"))
    before = snapshot(state)
    other = state.copy()
    assert snapshot(other) == before
    other.apply(parse_action("1L"))
    other.draw(parse_card("T:orange"))
    other.apply(parse_action("1R"))
    assert snapshot(state) == before
    assert pits(other) == [[], ["H:red M:red-orange T:orange"]]
    state.apply(parse_action("1L"))
    state.draw(parse_card("M:orange-yellow"))
    assert pits(other) == [[], ["H:red M:red-orange T:orange"]]
    assert other.remaining_counts()[parse_card("M:orange-yellow")] == 6
    assert state.remaining_counts()[parse_card("M:orange-yellow")] == 5
    # the copy's undo history starts empty
    with pytest.raises(IndexError):
        state.copy().undo()


def test_mid_section_notation_either_way_round_is_one_card() -> None:
    assert parse_card("M:orange-red") == parse_card("M:red-orange") == Card.mid(WHEEL[1], WHEEL[0])
    assert str(parse_card("M:red-purple")) == "M:purple-red"
    with pytest.raises(NotationError):
        parse_card("M:red-red")
    with pytest.raises(NotationError):
        parse_action("1R:red+1L:orange")
