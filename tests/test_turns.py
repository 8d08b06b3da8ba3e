"""The bots' one turn loop and its one seeding scheme (:mod:`hisss.bots.turns`): every place that
lets a bot take a turn goes through it, and each decision depends on the game's seed and the turn
alone."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hisss.bots import Bot, make_bot, make_bots
from hisss.bots.turns import bot_turns, decision_rng, next_decision
from hisss.core import RAINBOW, Action, IllegalActionError, Rules, State, deal, parse_action
from hisss.record import Game, Seat
from hisss.rl import HisssEnv
from hisss.sim.play import play_game
from support.engine_games import EngineGame

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "hisss"

#: The methods that ask a bot for a decision.
ASKING = frozenset({"move", "choose", "choose_from_hand"})

#: The modules, outside the bots themselves, where a bot is asked for a decision, and why.
ASKED_ELSEWHERE = {
    # The one loop and its single step.
    "bots/turns.py": "the loop",
    # A bot that times the bot it wraps: it is itself asked by the loop.
    "sim/movetimes.py": "a wrapping bot",
    # A built-in bot as the learning seat's policy (an agent's reference figures): the
    # environment's step drives it, not a bot's turn.
    "rl/agent.py": "the learning seat's policy",
}

#: The five places that play bots' turns, and what of the loop each uses: the synchronous
#: driver, or the planner itself, driven their own way (the server's through its live game).
CALLERS = {
    "sim/play.py": "bot_turns",
    "rl/gymnasium_env.py": "bot_turns",
    "tui/match.py": "BotTurns",
    "server/game.py": "BotTurns",
    "loadgen/client.py": "BotTurns",
}

#: The modules that ask for a single decision outside the loop: the hints (the expert's choice
#: for a person's seat), not a bot's turn.
SINGLE_DECISIONS = {"server/service.py", "tui/match.py"}


def asking_lines(source: str) -> list[int]:
    """The lines of ``source`` that call a method of :data:`ASKING` on something."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ASKING
    ]


def test_bots_are_asked_for_their_turns_by_the_loop_alone() -> None:
    asked: dict[str, list[int]] = {}
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 50, "the scan found too few modules"
    for path in modules:
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.startswith("bots/") and relative != "bots/turns.py":
            continue  # bots ask the bots they are made of
        lines = asking_lines(path.read_text(encoding="utf-8"))
        if lines:
            asked[relative] = lines
    assert sorted(asked) == sorted(ASKED_ELSEWHERE), asked


def test_the_five_places_that_play_bots_use_the_loop() -> None:
    for module, name in CALLERS.items():
        tree = ast.parse((PACKAGE / module).read_text(encoding="utf-8"))
        imported = {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module == "hisss.bots.turns"
            for alias in node.names
        }
        used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        assert name in imported and name in used, f"{module} does not use {name}"


def test_no_driver_of_bots_turns_writes_a_loop_of_its_own() -> None:
    # Outside the loop a single decision is asked for the hints alone: every bot's turn, the
    # server's, the terminal's and the load generator's included, is a step the planner gave.
    asking = {
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if path.parent.name != "bots"
        and "next_decision"
        in {n.id for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.Name)}
    }
    assert asking == SINGLE_DECISIONS


def test_the_scan_finds_calls_and_not_words() -> None:
    source = '"""bot.move(state, rng) in a docstring."""\nx = bot.choose(s, r)\ny = move(s)\n'
    assert asking_lines(source) == [2]


def test_a_decision_depends_on_the_seed_and_the_turn_alone() -> None:
    assert decision_rng(5, 9).getstate() == decision_rng(5, 9).getstate()
    draws = {
        tuple(decision_rng(seed, turn).random() for _ in range(3))
        for seed in range(4)
        for turn in range(30)
    }
    assert len(draws) == 4 * 30  # neighbouring seeds and turns give unrelated streams
    assert decision_rng(None, 3).getstate() == decision_rng(0, 3).getstate()
    order = deal(RAINBOW, random.Random(8))
    game = Game(Rules(), RAINBOW, [Seat.bot("random", "random")] * 2, seed=8, cards=order)
    state = game.state
    while state.is_chance_node() or len(state.legal_actions()) < 3:
        if state.is_chance_node():
            game.draw()
        else:
            game.push(state.legal_actions()[0])
    bot = make_bot("random")
    ask = [next_decision(bot, state.copy(), 8) for _ in range(3)]
    assert ask[0] == ask[1] == ask[2]
    assert len({str(next_decision(bot, state, seed)) for seed in range(40)}) > 1


def test_the_loop_makes_the_single_steps_decisions() -> None:
    # The loop reseeds one generator each turn: it gives what next_decision gives at every turn.
    rules = Rules()
    bots = make_bots("random,greedy", 2)
    order = deal(RAINBOW, random.Random(4))
    game = Game(rules, RAINBOW, [Seat.bot(b.name, b.name) for b in bots], seed=77, cards=order)
    replay = Game(rules, RAINBOW, [Seat.bot(b.name, b.name) for b in bots], seed=77, cards=order)
    turns = 0
    for seat, action, choices in bot_turns(game, bots, 77):
        while replay.state.is_chance_node():
            replay.draw()
        assert choices == len(replay.state.legal_actions())
        assert action == next_decision(bots[seat], replay.state, 77)
        replay.push(action)
        turns += 1
    assert game.is_over() and turns == game.state.turns > 40


def test_the_loop_stops_where_no_bot_plays() -> None:
    order = deal(RAINBOW, random.Random(2))
    seats = [Seat.bot("random", "random"), Seat.person("Ala")]
    game = Game(Rules(), RAINBOW, seats, seed=2, cards=order)
    played = list(bot_turns(game, {0: make_bot("random")}, 2))
    assert [seat for seat, _, _ in played] == [0]
    assert game.state.to_move == 1 and game.state.drawn is not None


def test_an_illegal_choice_names_the_bot_and_changes_nothing() -> None:
    class Cheat(Bot):
        name = "cheat"

        def choose(self, state: State, rng: random.Random) -> Action:
            return parse_action("40R")  # there is never a 40th snake

    order = deal(RAINBOW, random.Random(1))
    game = Game(Rules(), RAINBOW, [Seat.bot("cheat", "cheat")] * 2, seed=1, cards=order)
    with pytest.raises(IllegalActionError, match="bot 'cheat' chose an action that is not legal"):
        for _ in bot_turns(game, [Cheat(), Cheat()], 1):
            pass
    assert game.state.drawn is not None


def test_a_simulated_game_is_its_seeds() -> None:
    bots = make_bots("random", 2)
    one = play_game(Rules(), RAINBOW, bots, random.Random(6), seed=6)
    two = play_game(Rules(), RAINBOW, bots, random.Random(6), seed=6)
    other = play_game(Rules(), RAINBOW, bots, random.Random(6), seed=7)  # the same deal
    assert one == two and one.choices[:1] == other.choices[:1] and one != other


#: Settings of the v1 environment whose bot opponents are checked move by move.
V1_SETTINGS: list[dict[str, Any]] = [
    {"players": 3, "opponents": ["greedy", "random"], "seat": 1},
    {"players": 2, "rules": Rules(hand_size=3), "opponents": ["greedy"], "seat": 0},
    {"players": 3, "rules": Rules(hand_size=2), "opponents": ["random"] * 2, "seat": "random"},
]


@pytest.mark.parametrize("settings", V1_SETTINGS, ids=range(len(V1_SETTINGS)))
def test_the_v1_environments_bots_make_the_single_steps_decisions(
    settings: dict[str, Any],
) -> None:
    # The v1 environment's opponents play through the loop, seeded per turn by the game seed
    # alone: the same game rebuilt in the engine with next_decision for every opponent's move
    # gives the same observations, masks and rewards at every decision.
    env = HisssEnv(space="v1", **settings)
    players = settings["players"]
    rules = settings.get("rules", Rules())
    pick = random.Random(5)
    moves = 0
    for seed in (11, 12, 13):
        obs, info = env.reset(seed=seed)
        engine = EngineGame(seed, players, rules, RAINBOW, settings["seat"], settings["opponents"])
        assert env.seat == engine.seat
        done = False
        while not done:
            np.testing.assert_array_equal(obs, engine.observation())
            assert sorted(info["legal_actions"]) == engine.legal()
            index = pick.choice(engine.legal())
            obs, reward, done, _, info = env.step(index)
            assert reward == pytest.approx(engine.step(index))
        assert engine.state.is_terminal()
        moves += len(engine.moves)
    assert moves > 60
