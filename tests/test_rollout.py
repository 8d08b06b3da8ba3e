"""The compiled ``careful`` and the expert's rollouts (:mod:`hisss.kernel.rollout`).

The compiled ``careful`` must give exactly the whole-number values of :mod:`hisss.bots.careful` on
every decision of random games, under every rule option and deck; a rollout of a position with no
card left to draw must give exactly the engine's result; and the expert at a table of three or
more must be reproducible for a seed, play ``careful``'s placement unless its rollouts say
otherwise, and say clearly when numba is missing.

The check of the compiled ``careful``'s values is marked ``slow``: its entry point,
:func:`hisss.kernel.rollout.careful_values`, is compiled for that test alone (about 15 s of CPU on a
clean checkout). The whole suite runs it; the fast part runs the same ``careful`` code inlined in
the rollouts (the engine's result with nothing left to draw, and the expert's tests).
"""

from __future__ import annotations

import hashlib
import random
import subprocess
import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from hisss.bots import make_bot
from hisss.bots.careful import careful_candidates, lookahead_values
from hisss.bots.expert import ExpertBot
from hisss.core import (
    ALL_PAIRS,
    DOUBLE,
    RAINBOW,
    ConfigError,
    Deck,
    JoinClaim,
    Rules,
    Scoring,
    State,
    new_game,
)
from hisss.kernel import rollout
from hisss.kernel.tables import card_arrays, game_tuple, position
from hisss.sim import kernel_replay
from hisss.sim.play import play_game

STEPS = Path(rollout.__file__).with_name("steps.py")

RULE_SETS = [
    Rules(),
    Rules(join_claim=JoinClaim.ALWAYS),
    Rules(forced_placement=False),
    Rules(scoring=Scoring.SNAKES),
    Rules(scoring=Scoring.LONGEST),
    Rules(scoring=Scoring.FIRST_TO, target=9),
]


def test_the_rollouts_name_the_steps_they_were_compiled_against() -> None:
    digest = hashlib.sha256(STEPS.read_bytes()).hexdigest()
    assert digest == rollout.STEPS_DIGEST, (
        "kernel/steps.py changed: set STEPS_DIGEST in kernel/rollout.py to its new SHA-256, "
        "so that numba compiles the rollouts afresh"
    )
    assert digest == kernel_replay.STEPS_DIGEST, (
        "kernel/steps.py changed: set STEPS_DIGEST in sim/kernel_replay.py to its new SHA-256, "
        "so that numba compiles the replay afresh"
    )


def decisions(rules: Rules, deck: Deck, players: int, seed: int) -> Iterator[State]:
    """Every decision with a choice of a random game (placements at random)."""
    rng = random.Random(seed)
    state = new_game(players, rules, deck)
    while not state.is_terminal():
        state.sample_draw(rng)
        if state.drawn is None:
            continue
        legal = state.legal_actions()
        if len(legal) > 1:
            yield state
        state.push(legal[rng.randrange(len(legal))])


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.scoring.value + str(r.target))
@pytest.mark.parametrize("deck", [RAINBOW, ALL_PAIRS, DOUBLE], ids=lambda d: d.name)
def test_compiled_careful_gives_careful_s_exact_values(rules: Rules, deck: Deck) -> None:
    cards = card_arrays()
    checked = 0
    for seed in range(6):
        players = 2 + seed % 4
        game = game_tuple(players, rules)
        for state in decisions(rules, deck, players, seed):
            if not state.remaining:
                continue
            legal = state.legal_actions()
            values = np.zeros(len(legal) + 1, dtype=np.int64)
            n = rollout.careful_values(position(state), state.to_move, game, cards, values)
            assert n == len(legal), state.describe()
            assert values[:n].tolist() == lookahead_values(state, legal), state.describe()
            checked += 1
    assert checked > 50


def exact_share(state: State, seat: int) -> Fraction:
    result = state.result()
    return Fraction(1, len(result.winners)) if seat in result.winners else Fraction(0)


@pytest.mark.parametrize("players", [3, 5])
def test_a_rollout_with_nothing_left_to_draw_is_the_engine_s_result(players: int) -> None:
    checked = 0
    for seed in range(30):
        for state in decisions(Rules(), RAINBOW, players, seed):
            if state.remaining:
                continue
            shares = rollout.win_shares(state, 3, seed)
            seat = state.to_move
            for a, action in enumerate(state.legal_actions()):
                state.push(action)
                expected = exact_share(state, seat)
                state.undo()
                assert shares[a].tolist() == [float(expected)] * 3, state.describe()
            checked += 1
    assert checked > 5


def test_rollouts_are_reproducible_for_a_seed_and_differ_between_seeds() -> None:
    state = next(s for s in decisions(Rules(), RAINBOW, 3, 4) if s.remaining == 30)
    first = rollout.win_shares(state, 40, 7)
    assert first.shape == (len(state.legal_actions()), 40)
    assert np.array_equal(first, rollout.win_shares(state, 40, 7))
    assert not np.array_equal(first, rollout.win_shares(state, 40, 8))
    allowed = {0.0, 0.5, 1.0, 1 / 3}
    assert {round(float(x), 9) for x in first.flat} <= {round(x, 9) for x in allowed}
    assert 0 < first.mean() < 1


def test_the_expert_of_a_table_of_three_is_reproducible_and_departs_from_careful_on_evidence() -> (
    None
):
    bots = (make_bot("expert"), make_bot("careful"), make_bot("careful"))
    one = play_game(Rules(), RAINBOW, bots, random.Random(3), record=True)
    two = play_game(Rules(), RAINBOW, bots, random.Random(3), record=True)
    assert one.record is not None and two.record is not None
    assert one.record.to_json() == two.record.to_json()
    never = ExpertBot(significance=float("inf"))
    always = ExpertBot(significance=0.0)
    rng = random.Random(1)
    departed = 0
    for state in decisions(Rules(), RAINBOW, 3, 9):
        legal = state.legal_actions()
        top = careful_candidates(state, legal)
        if len(top) == 1:
            assert never.choose(state, random.Random(0)) == top[0]
            departed += always.choose(state, rng) != top[0]
    assert departed > 0


def test_the_expert_of_a_table_of_three_needs_numba(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "hisss.kernel.rollout", None)
    state = next(s for s in decisions(Rules(), RAINBOW, 3, 2) if s.remaining > 5)
    with pytest.raises(ConfigError, match="needs numba"):
        make_bot("expert").choose(state, random.Random(0))


def test_while_the_rollouts_warm_up_the_expert_plays_careful_s_placement_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Before: the first expert move after an install waited for numba's compile (minutes on a
    # busy machine). A front end that warms the code up in the background gets careful's choice.
    def no_rollouts(*_: object) -> None:
        raise AssertionError("the expert rolled out while the code was warming up")

    monkeypatch.setattr("hisss.bots.expert.is_warming", lambda: True)
    monkeypatch.setattr("hisss.bots.expert.roll_out", no_rollouts)
    always = ExpertBot(significance=0.0)  # departs from careful whenever the rollouts say so
    checked = 0
    for state in decisions(Rules(), RAINBOW, 3, 9):
        legal = state.legal_actions()
        top = careful_candidates(state, legal)
        assert always.choose(state, random.Random(0)) in top
        checked += len(legal) > 1
    assert checked > 5


def test_the_expert_warms_up_apart_from_its_decisions() -> None:
    seconds = ExpertBot().warm_up()
    assert 0 <= seconds < 600
    assert make_bot("careful").warm_up() == 0.0  # nothing compiled to make ready


@pytest.mark.system
def test_a_front_end_warms_the_rollouts_up_in_the_background() -> None:
    # In a fresh process (the warm-up is once per process): the start returns at once, the
    # expert answers while the child compiles or loads the code, and then the code is ready.
    code = (
        "import random, time\n"
        "from hisss.bots.expert import ExpertBot\n"
        "from hisss.core import new_game, parse_card\n"
        "from hisss.kernel import warming\n"
        "start = time.perf_counter()\n"
        "assert warming.start_warming() and warming.is_warming()\n"
        "state = new_game(3)\n"
        "for text in ('M:red-orange', 'M:orange-yellow'):\n"
        "    state.draw(parse_card(text))\n"
        "ExpertBot().choose(state, random.Random(0))\n"
        "print('answered', time.perf_counter() - start < 5)\n"
        "assert warming.wait_until_warm(900)\n"
        "print('ready', not warming.is_warming(), warming._WARMING.failure)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=960, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["answered True", "ready True None"]
