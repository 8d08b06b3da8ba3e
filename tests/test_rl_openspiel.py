"""The OpenSpiel game ``python_hisss``: OpenSpiel's random simulation test, exact chance nodes,
returns and observations."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pyspiel
import pytest

import hisss.rl.openspiel
from hisss.core import DeckError, new_game, parse_card
from hisss.record import DeckFileError
from hisss.rl.openspiel import HandBotPolicy
from hisss.rl.spaces import ActionCodec, terminal_rewards


@pytest.mark.parametrize("players", [2, 3, 5])
def test_random_sim_test(players: int) -> None:
    game = pyspiel.load_game("python_hisss", {"players": players})
    pyspiel.random_sim_test(game, num_sims=3, serialize=players == 2, verbose=False)


def test_random_sim_test_other_rules_and_decks() -> None:
    for params in ({"rules": "pl", "deck": "all-pairs"}, {"deck": "double", "players": 4}):
        game = pyspiel.load_game("python_hisss", params)
        pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_registered_with_its_type() -> None:
    assert "python_hisss" in pyspiel.registered_names()
    game = pyspiel.load_game("python_hisss")
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_players() == 2
    assert game.num_distinct_actions() == ActionCodec.for_deck("rainbow").size
    assert game.max_game_length() == 49
    assert hisss.rl.openspiel.GAME_TYPE.short_name == "python_hisss"
    with pytest.raises(Exception, match="7 players"):
        pyspiel.load_game("python_hisss", {"players": 7})


def test_chance_nodes_carry_the_exact_probabilities() -> None:
    game = pyspiel.load_game("python_hisss")
    state = game.new_initial_state()
    engine = new_game()
    rng = np.random.default_rng(4)
    for _ in range(12):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            exact = engine.chance_outcomes()
            assert outcomes == [(c.code, float(p)) for c, p in exact]
            assert sum(Fraction(p) for _, p in exact) == 1
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-12
            code = int(rng.choice([c for c, _ in outcomes]))
            state.apply_action(code)
            engine.draw(parse_card(state.action_to_string(pyspiel.PlayerId.CHANCE, code)[5:]))
        else:
            codec = ActionCodec.for_deck("rainbow")
            legal = state.legal_actions()
            assert legal == sorted(codec.legal_indices(engine))
            assert state.current_player() == engine.to_move
            state.apply_action(legal[0])
            engine.apply(codec.index_to_action(legal[0]))
    assert str(state.game_state.table) == str(engine.table)


def test_returns_and_observations() -> None:
    game = pyspiel.load_game("python_hisss", {"players": 3})
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        assert state.returns() == [0.0, 0.0, 0.0]
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            tensor = np.array(state.observation_tensor(state.current_player()))
            assert tensor.shape == (game.observation_tensor_size(),)
            assert "to place" in state.observation_string(0)
            state.apply_action(int(rng.choice(state.legal_actions())))
    winners = state.game_state.result().winners
    assert state.returns() == list(terminal_rewards(winners, 3))
    assert str(state).startswith("after turn")


FOUR_CARDS = '[cards]\n"H:red" = 1\n"T:orange" = 1\n"M:red-orange" = 2\n'


def test_decks_from_files(tmp_path: Path) -> None:
    deck = tmp_path / "four.toml"
    deck.write_text(FOUR_CARDS)
    game = pyspiel.load_game("python_hisss", {"deck": str(deck), "hand_size": 1})
    assert game.hisss_deck.size == 4 and game.hisss_deck.name == "four"
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    bad = tmp_path / "bad.toml"
    bad.write_text('[cards]\n"H:purple-ish" = 1\n')
    with pytest.raises(DeckFileError, match=r"bad\.toml"):
        pyspiel.load_game("python_hisss", {"deck": str(bad)})
    with pytest.raises(DeckError, match="unknown deck 'nothing'"):
        pyspiel.load_game("python_hisss", {"deck": "nothing"})


def test_cfr_plus_and_the_bots_as_exact_policies(tmp_path: Path) -> None:
    from open_spiel.python.algorithms import cfr, exploitability  # noqa: PLC0415

    deck = tmp_path / "four.toml"
    deck.write_text(FOUR_CARDS)
    game = pyspiel.load_game("python_hisss", {"deck": str(deck), "hand_size": 1})
    solver = cfr.CFRPlusSolver(game)
    convs = []
    for _ in range(20):
        solver.evaluate_and_update_policy()
        convs.append(exploitability.nash_conv(game, solver.average_policy()))
    assert convs[-1] < convs[0] and convs[-1] < 0.05
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    measured = {}
    for name in ("random", "casual", "greedy", "careful", "expert"):
        bot = HandBotPolicy(game, name)
        probs = bot.action_probabilities(state)
        assert sorted(probs) == state.legal_actions() and sum(probs.values()) == pytest.approx(1)
        measured[name] = exploitability.nash_conv(game, bot)
    assert min(measured.values()) >= -1e-9 and measured["random"] > measured["careful"]
    assert HandBotPolicy(game, "random").action_probabilities(state) == dict.fromkeys(
        state.legal_actions(), 1 / len(state.legal_actions())
    )
