"""Tests of the bots of ``hisss.bots`` other than the searching ones: the claim features,
``greedy``, ``casual``, ``careful``, ``gentle``, the levels and the registry.

Property tests walk seeded random games (Hypothesis chooses the seed, the number of players, the
rule options and the deck) and check every bot at every decision against brute force; scenario
tests stack the draws to build positions worked out by hand; a statistical test plays a few hundred
mirrored games.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given, settings

from hisss.bots import (
    BOT_NAMES,
    LEVEL_NAMES,
    LEVELS,
    Bot,
    Budget,
    CarefulBot,
    CasualBot,
    GentleBot,
    GreedyBot,
    RandomBot,
    make_bot,
    make_bots,
    make_level,
)
from hisss.bots.careful import lookahead_values
from hisss.bots.features import best_claim, best_claim_on, claim_of, claim_profile
from hisss.bots.levels import LEVEL_HELP, Level
from hisss.core import (
    RAINBOW,
    Action,
    ConfigError,
    Deck,
    IllegalActionError,
    JoinClaim,
    Rules,
    Scoring,
    State,
    deal,
    get_rules,
    new_game,
    parse_action,
    parse_card,
)
from hisss.core.cards import ALL_CARDS
from hisss.sim.play import play_game
from support.strategies import Setup, setups

CLASSIC = get_rules("classic")

SETTINGS = settings(max_examples=60, deadline=None, database=None)

#: The bots of this module's concern, one of each.
BOTS: tuple[Bot, ...] = (RandomBot(), CasualBot(), GreedyBot(), CarefulBot(), GentleBot())


def _decisions(setup: Setup) -> Iterator[State]:
    """Every decision point of a game played at random (by ``setup.seed``), one live state.

    The consumer must hand the state back as it found it; the walk then plays a random action.
    """
    rng = random.Random(setup.seed)
    state = new_game(setup.players, setup.rules, setup.deck)
    for card in deal(setup.deck, rng):
        if state.is_terminal():
            break
        state.draw(card)
        if state.drawn is None:
            continue
        yield state
        legal = state.legal_actions()
        state.push(legal[rng.randrange(len(legal))])


def _snapshot(state: State) -> tuple[object, ...]:
    return (
        state.table,
        state.pits,
        state.drawn,
        state.to_move,
        state.turns,
        state.remaining_counts(),
        state.is_terminal(),
        state.legal_actions(),
    )


def _cards_taken(state: State, action: Action) -> int:
    """Brute force: the growth of the mover's pit when ``action`` is played."""
    seat = state.to_move
    before = state.pit_cards(seat)
    state.push(action)
    after = state.pit_cards(seat)
    state.undo()
    return after - before


def _position(
    steps: Sequence[str | tuple[str, str]], players: int = 2, rules: Rules = CLASSIC
) -> State:
    """A position built by stacked draws: the starter, then each card with its action.

    A step is a card alone (the starter, or a card with a forced placement) or (card, action);
    the last step is a card left waiting to be placed.
    """
    state = new_game(players, rules, RAINBOW)
    for i, step in enumerate(steps):
        card, action = (step, None) if isinstance(step, str) else step
        state.draw(parse_card(card))
        if state.drawn is None or i == len(steps) - 1:
            continue
        legal = state.legal_actions()
        if action is None:
            assert len(legal) == 1, (card, [str(a) for a in legal])
            state.push(legal[0])
        else:
            state.apply(parse_action(action))
    assert state.drawn is not None
    return state


def _choices(bot: Bot, state: State, seeds: int = 60) -> Counter[str]:
    return Counter(str(bot.choose(state, random.Random(seed))) for seed in range(seeds))


# ---------------------------------------------------------------------- features


@SETTINGS
@given(setups())
def test_claim_features_equal_brute_force(setup: Setup) -> None:
    join_always = setup.rules.join_claim is JoinClaim.ALWAYS
    for state in _decisions(setup):
        legal = state.legal_actions()
        taken = [_cards_taken(state, a) for a in legal]
        assert [claim_of(state, a) for a in legal] == taken
        assert state.drawn is not None
        assert best_claim(state, state.drawn) == max(taken)
        # every card as if drawn now: the best of its legal actions, taken by brute force
        profile = claim_profile(state.table, join_always)
        for card in ALL_CARDS:
            probe = state.copy()
            probe.drawn = card
            best = max(_cards_taken(probe, a) for a in probe.legal_actions())
            assert best_claim_on(state.table, card, join_always) == best, (card, state)
            assert profile[card.code] == best, (card, state)


# ---------------------------------------------------------------------- every bot


@SETTINGS
@given(setups())
def test_bots_play_legal_actions_leave_the_state_alone_and_repeat_for_a_seed(
    setup: Setup,
) -> None:
    for i, state in enumerate(_decisions(setup)):
        legal = state.legal_actions()
        before = _snapshot(state)
        for bot in BOTS:
            rng = random.Random(setup.seed + i)
            action = bot.choose(state, rng)
            assert action in legal, (bot.name, action, state)
            assert _snapshot(state) == before, bot.name
            again = random.Random(setup.seed + i)
            assert bot.choose(state, again) == action, bot.name
            assert again.getstate() == rng.getstate(), bot.name
            if len(legal) == 1:  # a forced move consumes no randomness
                assert rng.getstate() == random.Random(setup.seed + i).getstate(), bot.name
        # the bots' pushes and undos left the undo history intact: the draw still undoes
        card = state.drawn
        assert card is not None
        state.undo()
        assert state.drawn is None and state.is_chance_node()
        state.draw(card)
        assert _snapshot(state) == before


@pytest.mark.parametrize("bot", BOTS, ids=lambda b: b.name)
def test_bots_raise_without_a_drawn_card(bot: Bot) -> None:
    state = new_game(2)
    state.draw(parse_card("H:red"))
    with pytest.raises(IllegalActionError, match="no card is waiting"):
        bot.choose(state, random.Random(0))


@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("rules", ["classic", "pl"])
def test_whole_games_between_all_bots(players: int, rules: str) -> None:
    names = ["random", "casual", "greedy", "careful", "gentle"]
    for seed in range(4):
        seats = [names[(seed + k) % len(names)] for k in range(players)]
        out = play_game(get_rules(rules), RAINBOW, make_bots(seats, players), random.Random(seed))
        assert sum(out.result.cards) + out.table_cards == RAINBOW.size


# ---------------------------------------------------------------------- greedy and casual

#: Seat 1 draws the wild tail; it caps snake 1 (3 cards) or snake 2 (4 cards). Forced otherwise.
TWO_COMPLETIONS = [
    "H:blue",
    "M:blue-green",
    "H:red",
    "M:red-orange",
    "M:orange-yellow",
    "T:wild",
]


def test_two_completions_position() -> None:
    state = _position(TWO_COMPLETIONS)
    assert [str(s) for s in state.table] == [
        "H:blue M:blue-green",
        "H:red M:red-orange M:orange-yellow",
    ]
    assert {str(a): claim_of(state, a) for a in state.legal_actions()} == {"1R": 3, "2R": 4}


def test_greedy_takes_the_longest_completion() -> None:
    state = _position(TWO_COMPLETIONS)
    assert _choices(GreedyBot(), state) == {"2R": 60}
    # and the same through a whole stacked game: seat 1 takes the four cards
    order = [parse_card(c) for c in TWO_COMPLETIONS]
    rest = RAINBOW.cards()
    for card in order:
        rest.remove(card)
    for seed in range(10):
        random.Random(seed).shuffle(rest)
        out = play_game(
            CLASSIC, RAINBOW, make_bots("greedy", 2), random.Random(seed), cards=order + rest
        )
        assert out.result.cards[0] >= 4


def test_greedy_prefers_a_completing_join_to_extends() -> None:
    state = _position(["H:red", "M:red-orange", "M:yellow-green", "T:green", "M:orange-yellow"])
    assert {str(a): claim_of(state, a) for a in state.legal_actions()} == {
        "1R:orange": 0,
        "2L:yellow": 0,
        "1R:orange+2L:yellow": 5,
    }
    assert _choices(GreedyBot(), state) == {"1R:orange+2L:yellow": 60}


def test_greedy_without_a_claim_is_uniform() -> None:
    # A lone mid-section and a lone head: a red-orange card extends, caps nothing, takes nothing.
    state = _position(["H:red", "M:orange-yellow", "M:red-orange"])
    legal = [str(a) for a in state.legal_actions()]
    assert len(legal) == 3
    draws = 3000
    counts = _choices(GreedyBot(), state, draws)
    assert set(counts) == set(legal)
    for n in counts.values():
        assert abs(n - draws / 3) < 5 * math.sqrt(draws * (1 / 3) * (2 / 3))


def test_casual_misses_one_turn_in_three() -> None:
    state = _position(TWO_COMPLETIONS)
    draws = 3000
    counts = _choices(CasualBot(), state, draws)
    # a miss plays one of the two actions at random: the short cap one time in six
    p = CasualBot.miss / 2
    assert abs(counts["1R"] - draws * p) < 5 * math.sqrt(draws * p * (1 - p))
    assert counts["1R"] + counts["2R"] == draws


# ---------------------------------------------------------------------- careful

#: Seat 2 draws M:red-orange beside a lone red head and a lone orange-yellow mid-section.
GIFT = ["H:red", "M:orange-yellow", "M:red-orange"]


def test_careful_does_not_hand_the_next_player_a_completion() -> None:
    state = _position(GIFT)
    assert [str(a) for a in state.legal_actions()] == ["1R:red", "2L:orange", "1R:red+2L:orange"]
    # Growing the head (1R:red), or joining the head to the mid-section, leaves a snake that an
    # orange or yellow tail (or the wild tail) completes; extending the mid-section leaves nothing.
    gifts = {}
    for action in state.legal_actions():
        state.push(action)
        gifts[str(action)] = (
            best_claim(state, parse_card("T:orange")),
            best_claim(state, parse_card("T:yellow")),
            best_claim(state, parse_card("T:wild")),
        )
        state.undo()
    assert gifts == {"1R:red": (3, 0, 3), "2L:orange": (0, 0, 0), "1R:red+2L:orange": (0, 4, 4)}
    assert _choices(CarefulBot(), state) == {"2L:orange": 60}
    assert len(_choices(GreedyBot(), state)) == 3  # greedy does not look ahead
    left = state.remaining
    # values: own claim times the cards left, minus the copies of each next card times its claim
    assert lookahead_values(state, state.legal_actions()) == [-6, 0, -8]
    assert left == 47


def test_careful_takes_a_snake_when_it_gains_more_than_it_gives() -> None:
    state = _position(TWO_COMPLETIONS)
    assert _choices(CarefulBot(), state) == {"2R": 60}


def test_careful_weighs_a_snake_against_what_it_leaves() -> None:
    # The completing join takes 5 cards and leaves an empty table; an extend takes nothing and
    # leaves a snake that a tail (or a head) completes.
    state = _position(["H:red", "M:red-orange", "M:yellow-green", "T:green", "M:orange-yellow"])
    values = lookahead_values(state, state.legal_actions())
    best = max(values)
    expected = {str(a) for a, v in zip(state.legal_actions(), values, strict=True) if v == best}
    assert set(_choices(CarefulBot(), state)) == expected == {"1R:orange+2L:yellow"}


def test_careful_plays_greedily_on_the_last_card() -> None:
    state = _position(TWO_COMPLETIONS)
    # the same position, with the remaining cards gone: nothing is left to give away
    order = [parse_card(c) for c in TWO_COMPLETIONS]
    small = Deck.from_cards("small", order)
    last = new_game(2, CLASSIC, small)
    for card in order:
        last.draw(card)
        if last.drawn is not None and card is not order[-1]:
            last.push(last.legal_actions()[0])
    assert last.table == state.table and last.remaining == 0
    assert lookahead_values(last, last.legal_actions()) == [3, 4]
    assert _choices(CarefulBot(), last) == {"2R": 60}


def test_careful_values_a_first_to_win() -> None:
    # First to 3 cards: taking the 3-card snake wins at once, whatever it leaves behind.
    rules = Rules(scoring=Scoring.FIRST_TO, target=3)
    state = _position(TWO_COMPLETIONS, rules=rules)
    left = state.remaining
    # either cap wins at once: nothing is given away, and the longer snake is the better win
    assert lookahead_values(state, state.legal_actions()) == [
        (1_000_000 + 3) * left,
        (1_000_000 + 4) * left,
    ]
    assert _choices(CarefulBot(), state) == {"2R": 60}


# ---------------------------------------------------------------------- gentle

#: Seat 2 draws the wild tail beside a mid-section, a red head with a mid-section, and another
#: mid-section: five caps, one of which (2R) takes three cards.
LEVEL_SCORES: list[str | tuple[str, str]] = [
    "M:yellow-green",
    "H:red",
    ("M:red-orange", "2R:red"),
    "M:blue-purple",
    "T:wild",
]
#: The same, after seat 1 has taken a snake of four cards: seat 2 is four cards behind.
BEHIND: list[str | tuple[str, str]] = [
    "H:green",
    "M:green-blue",
    "M:blue-purple",
    "T:purple",
    *LEVEL_SCORES,
]


def test_gentle_holds_back_when_level() -> None:
    state = _position(LEVEL_SCORES)
    assert state.pits == ((), ()) and state.to_move == 1
    claims = {str(a): claim_of(state, a) for a in state.legal_actions()}
    assert claims == {"1L": 0, "1R": 0, "2R": 3, "3L": 0, "3R": 0}
    assert _choices(GreedyBot(), state) == {"2R": 60}
    assert "2R" not in _choices(GentleBot(), state)


def test_gentle_plays_greedily_when_far_behind() -> None:
    state = _position(BEHIND)
    assert state.to_move == 1 and state.pit_cards(0) == 4 and state.pit_cards(1) == 0
    assert [str(s) for s in state.table] == [
        "M:yellow-green",
        "H:red M:red-orange",
        "M:blue-purple",
    ]
    assert _choices(GentleBot(), state) == {"2R": 60}
    # with more slack it still holds back four cards behind
    assert "2R" not in _choices(GentleBot(slack=4), state)


def test_gentle_helps_a_next_player_who_is_not_ahead() -> None:
    state = _position(GIFT)
    # the opposite of careful: it leaves the next player the most to complete
    assert _choices(GentleBot(), state) == {"1R:red+2L:orange": 60}


def _random_score(bot_name: str, deals: int) -> float:
    """The score of ``random`` against ``bot_name`` over mirrored deals (a shared win is 1/2)."""
    total = 0.0
    for d in range(deals):
        order = deal(RAINBOW, random.Random(10_000 + d))
        for swap in (False, True):
            names = ["random", bot_name] if swap else [bot_name, "random"]
            out = play_game(CLASSIC, RAINBOW, make_bots(names, 2), random.Random(d), cards=order)
            seat = 0 if swap else 1
            winners = out.result.winners
            total += 1 / len(winners) if seat in winners else 0.0
    return total / (2 * deals)


def test_gentle_loses_to_random_more_often_than_greedy_does() -> None:
    deals = 150  # 300 games each
    vs_greedy = _random_score("greedy", deals)
    vs_gentle = _random_score("gentle", deals)
    # binomial standard error of the difference, at most 0.5 / sqrt(n) per rate
    se = math.sqrt(2) * 0.5 / math.sqrt(2 * deals)
    assert vs_gentle - vs_greedy > 4 * se, (vs_greedy, vs_gentle)
    assert vs_greedy < 0.35
    assert vs_gentle > 0.45


# ---------------------------------------------------------------------- levels and registry


def test_registry_names() -> None:
    assert BOT_NAMES[:5] == ("random", "casual", "greedy", "careful", "gentle")
    assert LEVEL_NAMES == ("easy", "medium", "hard", "expert", "gentle")
    assert set(LEVEL_HELP) == set(LEVEL_NAMES)
    for name, cls in [
        ("random", RandomBot),
        ("casual", CasualBot),
        ("greedy", GreedyBot),
        ("careful", CarefulBot),
        ("gentle", GentleBot),
    ]:
        bot = make_bot(name)
        assert type(bot) is cls and bot.name == name
        assert make_bot(f" {name.upper()} ").name == name


@pytest.mark.parametrize(
    ("level", "cls"),
    [("easy", CasualBot), ("medium", GreedyBot), ("hard", CarefulBot), ("gentle", GentleBot)],
)
def test_levels_resolve_to_their_bots(level: str, cls: type[Bot]) -> None:
    assert LEVELS[level] == Level(cls.name, Budget())
    for bot in (make_level(level), make_bot(level), make_bot(level.upper()), *make_bots(level, 2)):
        assert type(bot) is cls and bot.budget == Budget()


def test_expert_level_names_the_expert_bot() -> None:
    assert LEVELS["expert"].bot == "expert"
    bot = make_level("expert")
    default = type(bot).default_budget
    # The level keeps the bot's deterministic node budget and adds a time limit for slow machines.
    assert bot.name == "expert" and default.seconds is None
    assert bot.budget == Budget(nodes=default.nodes, seconds=0.3)


def test_unknown_names() -> None:
    with pytest.raises(ConfigError, match=r"unknown level 'impossible' \(levels: easy, medium"):
        make_level("impossible")
    with pytest.raises(ConfigError, match=r"unknown bot 'genius' \(known bots: random, casual"):
        make_bot("genius")
    with pytest.raises(ConfigError, match="levels: easy, medium, hard, expert, gentle"):
        make_bot("genius")
    # bot names only, when levels are not wanted
    with pytest.raises(ConfigError, match=r"unknown bot 'hard' \(known bots: [^;]+\)$"):
        make_bot("hard", levels=False)
