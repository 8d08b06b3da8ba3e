"""The RL example scripts run: OpenSpiel's MCTS against random, and a brief training."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _run(script: str, *args: str) -> str:
    proc = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


@pytest.mark.system  # starts a Python process of its own
def test_openspiel_mcts_example_plays() -> None:
    out = _run("openspiel_mcts.py", "--games", "2", "--simulations", "3")
    assert "game 1: MCTS in seat 1" in out and "game 2: MCTS in seat 2" in out
    assert "against random: won" in out and "of 2 games; mean return" in out


TINY_TRAINING = (
    "--episodes", "30", "--checkpoints", "0,10,25,500", "--checkpoint-deals", "3",
    "--eval-deals", "4",
)  # fmt: skip


@pytest.mark.system  # starts a Python process of its own
def test_train_agent_example_writes_a_png_and_prints_the_evaluations(tmp_path: Path) -> None:
    plot = tmp_path / "curve.png"
    out = _run("train_agent.py", *TINY_TRAINING, "--plot", str(plot))
    assert "on the same 3 held-out mirrored deals" in out
    for games in (0, 10, 25, 30):
        assert f"after {games} games: win share" in out
    assert "after 500 games" not in out
    assert out.count("over 6 games on 3 mirrored deals") == 5  # 4 checkpoints and greedy
    assert "final evaluation against random, most probable action: win share" in out
    assert "over 8 games on 4 mirrored deals" in out
    assert "the greedy bot, evaluated on the same deals" in out
    data = plot.read_bytes()
    assert data.startswith(PNG_SIGNATURE) and len(data) > 10_000


def test_train_agent_example_plots_the_checkpoints_it_prints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from matplotlib.container import ErrorbarContainer  # noqa: PLC0415
    from matplotlib.figure import Figure  # noqa: PLC0415

    saved: list[Figure] = []
    savefig = Figure.savefig

    def keep(self: Figure, *args: Any, **kwargs: Any) -> None:
        saved.append(self)
        savefig(self, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", keep)
    spec = importlib.util.spec_from_file_location("train_agent", EXAMPLES / "train_agent.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    script.main([*TINY_TRAINING, "--plot", str(tmp_path / "curve.png")])
    printed = {
        int(games): float(share)
        for games, share in re.findall(
            r"after (\d+) games: win share ([\d.]+)%", capsys.readouterr().out
        )
    }
    assert sorted(printed) == [0, 10, 25, 30]
    (ax,) = saved[0].axes
    (curve,) = [
        c for c in ax.containers
        if isinstance(c, ErrorbarContainer) and "at each checkpoint" in str(c.get_label())
    ]  # fmt: skip
    assert "the same 3 deals x 2 seats each" in str(curve.get_label())
    line = curve.lines[0]
    assert line is not None
    xs = [int(x) for x in np.asarray(line.get_xdata(), dtype=float)]
    ys = [float(f"{100 * y:.1f}") for y in np.asarray(line.get_ydata(), dtype=float)]
    assert xs == [0, 10, 25, 30]
    assert ys == [printed[x] for x in xs]
    legend = ax.get_legend()
    assert legend is not None
    labels = [t.get_text() for t in legend.get_texts()]
    assert any(t.startswith("greedy bot on the same 3 deals") for t in labels)
    assert any("after 30 games (4 other deals x 2 seats)" in t for t in labels)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "10", "25", "30"]


@pytest.mark.system  # starts a Python process of its own
def test_openspiel_cfr_example_solves_a_small_deck(tmp_path: Path) -> None:
    deck = tmp_path / "four.toml"
    deck.write_text('[cards]\n"H:red" = 1\n"T:orange" = 1\n"M:red-orange" = 2\n')
    out = _run(
        "openspiel_cfr.py",
        "--deck",
        str(deck),
        "--hand-size",
        "1",
        "--iterations",
        "3",
        "--checkpoints",
        "1",
        "--bots",
        "random,careful",
    )
    assert "CFR+ after 1 iterations: NashConv" in out and "CFR+ after 3 iterations" in out
    assert re.search(r"random: NashConv [0-9.]+, exploitability [0-9.]+", out)
    assert "careful: NashConv" in out


@pytest.mark.slow
@pytest.mark.system
def test_maskable_ppo_example_trains_and_evaluates() -> None:
    """Needs the ``learn`` extra (sb3-contrib, torch), which the ``test`` extra brings."""
    out = _run(
        "train_maskable_ppo.py",
        "--envs",
        "8",
        "--n-steps",
        "8",
        "--minutes",
        "0.02",
        "--deals",
        "2",
        "--against",
        "random,careful",
    )
    assert re.search(r"trained [0-9,]+ learner steps in \d+ s wall", out)
    assert "against random: win share" in out and "against careful: win share" in out


def test_the_maskable_ppo_head_keeps_a_legal_output_for_every_decision() -> None:
    """The example's narrow head: indices below its size, and "other" for the rest."""
    from gymnasium.spaces import Discrete  # noqa: PLC0415

    from hisss.core import Rules  # noqa: PLC0415
    from hisss.rl.batched import BatchedHisssEnv  # noqa: PLC0415

    path = EXAMPLES / "train_maskable_ppo.py"
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    head = script.Head(4, 10)
    full = np.zeros((2, 10), dtype=np.bool_)
    full[0, [7, 9]] = True  # nothing below 4: only "other"
    full[1, [1, 8]] = True  # 1 below 4: "other" masked
    assert head.masks(full).tolist() == [
        [False, False, False, False, True],
        [False, True, False, False, False],
    ]
    assert head.actions(np.array([4, 1]), full).tolist() == [7, 1]
    assert head.space.n == 5 and script.Head(0, 10).space.n == 10
    env = BatchedHisssEnv(num_envs=64, rules=Rules(hand_size=3), seat="random", skip_forced=True)
    env.reset(seed=3)
    space = env.single_action_space
    assert isinstance(space, Discrete)
    narrow = script.Head(3, int(space.n))  # "other" is often the only output
    rng = np.random.default_rng(0)
    for _ in range(40):
        full = env.action_masks().copy()
        masks = narrow.masks(full)
        assert masks.any(axis=1).all()
        outputs = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        actions = narrow.actions(outputs, full)
        assert full[np.arange(64), actions].all()
        env.step(actions)


def test_the_maskable_ppo_shaping_pays_the_change_of_the_pit_margin() -> None:
    """``--shaping w``: each step that does not end a game also pays ``w`` times the change of
    (the learner's pit cards - the seats' mean) / deck size, read from the observation."""
    import random  # noqa: PLC0415

    from gymnasium.spaces import Discrete  # noqa: PLC0415

    from hisss.core import RAINBOW, Rules  # noqa: PLC0415
    from hisss.record import Game, Seat  # noqa: PLC0415
    from hisss.rl.batched import BatchedHisssEnv  # noqa: PLC0415

    path = EXAMPLES / "train_maskable_ppo.py"
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    rules = Rules(hand_size=3)
    env = BatchedHisssEnv(
        num_envs=32, players=3, rules=rules, seat="random", normalize=True, skip_forced=True
    )
    space = env.single_action_space
    assert isinstance(space, Discrete)
    head = script.Head(0, int(space.n))
    venv = script.SB3Batched(env, head, 3, shaping=2.0)
    # The pit numbers the wrapper reads are the seats' pit cards, the observer's first.
    game = Game(rules, RAINBOW, [Seat.person(name) for name in ("Ala", "Ola", "Ela")], seed=5)
    rng = random.Random(5)
    while not (game.state.pit_cards(1) and game.state.pit_cards(2)):
        legal = game.legal_actions()
        if legal:
            game.push(rng.choice(legal))
        else:
            game.draw()
    obs = env.space.encode(game.state, 1)[None, :]
    size = RAINBOW.size
    cards = [game.state.pit_cards(s) for s in (1, 2, 0)]
    assert np.allclose(obs[0, venv._pits] * size, cards)
    assert np.isclose(venv.potential(obs)[0], (cards[0] - sum(cards) / 3) / size)
    venv.seed(11)
    before = venv.potential(venv.reset())
    plain = BatchedHisssEnv(
        num_envs=32, players=3, rules=rules, seat="random", normalize=True, skip_forced=True
    )
    plain.reset(seed=11)
    paid = 0
    for _ in range(60):
        actions = np.array([int(np.flatnonzero(row)[0]) for row in venv.action_masks()])
        venv.step_async(actions)
        obs, reward, done, _ = venv.step_wait()
        _, terminal, _, _, _ = plain.step(actions)
        after = venv.potential(obs)
        expected = terminal + np.where(done, 0.0, 2.0 * (after - before))
        assert np.allclose(reward, expected)
        paid += int(np.count_nonzero(reward[~done]))
        before = after
    assert paid > 0


@pytest.mark.parametrize("hand_size", [0, 3])
def test_the_placement_policy_scores_each_placement_by_its_snakes(hand_size: int) -> None:
    """The example's placement head: swapping two table snakes in the observation swaps the
    scores of the placements on them, index by index (caps, extensions and joins), so every
    score sits at its placement's ``v1`` index."""
    import torch  # noqa: PLC0415

    from hisss.core import Action, ActionKind, End, Rules, get_deck  # noqa: PLC0415
    from hisss.core.cards import WHEEL, card_from_code  # noqa: PLC0415
    from hisss.rl.versions import Space  # noqa: PLC0415

    path = EXAMPLES / "train_maskable_ppo.py"
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    deck = get_deck("rainbow")
    space = Space(Rules(hand_size=hand_size), deck, 2, "v1", normalize=True)
    torch.manual_seed(0)
    hidden = 8
    placements = script.Placements(space, hidden, 16, script.Head(0, space.size))
    obs = torch.rand(1, hidden + space.layout.size)
    table = space.layout.parts["table"].start + hidden
    swapped = obs.clone()
    a, b = slice(table + 18 * 2, table + 18 * 3), slice(table + 18 * 5, table + 18 * 6)
    swapped[0, a], swapped[0, b] = obs[0, b], obs[0, a]
    with torch.no_grad():
        before, after = placements(obs)[0], placements(swapped)[0]
    assert before.shape == (space.size,)
    mid = space.codec.mids[0]
    assert mid.a is not None and mid.b is not None
    card = mid if hand_size else None
    head = card_from_code(0) if hand_size else None  # a card that caps
    side = mid.a if hand_size else WHEEL[3]  # an extension's colour (its card's, with hands)

    def index(action: Action) -> int:
        return space.codec.action_to_index(action)

    for end in (End.L, End.R):
        cap = [index(Action(ActionKind.CAP, i, end, card=head)) for i in (2, 5)]
        extend = [index(Action(ActionKind.EXTEND, i, end, side, card=card)) for i in (2, 5)]
        join = [
            index(Action(ActionKind.JOIN, i, end, mid.a, 7, End.L, mid.b, card=card))
            for i in (2, 5)
        ]
        for old, new in (cap, extend, join):
            assert torch.isclose(after[new], before[old])
            assert torch.isclose(after[old], before[new])
            assert not torch.isclose(after[old], before[old])
    untouched = index(Action(ActionKind.JOIN, 0, End.R, mid.a, 9, End.L, mid.b, card=card))
    assert torch.isclose(after[untouched], before[untouched])


@pytest.mark.system  # starts a Python process of its own
def test_example_scripts_have_help() -> None:
    for script in ("openspiel_mcts.py", "train_agent.py", "openspiel_cfr.py"):
        assert "usage:" in _run(script, "--help")


def test_the_learning_curve_is_drawn(tmp_path: Path) -> None:
    from hisss.rl.agent import Evaluation, plot_curve  # noqa: PLC0415

    def share(value: float) -> Evaluation:
        return Evaluation(50, 100, value, value - 0.05, value + 0.05)

    path = tmp_path / "curve.png"
    checkpoints = [(0, share(0.5)), (10, share(0.55)), (100, share(0.6))]
    plot_curve(checkpoints, path, final=(100, share(0.62)), reference=("greedy", share(0.7)))
    assert path.read_bytes().startswith(b"\x89PNG") and path.stat().st_size > 10_000
    with pytest.raises(ValueError, match="at least one checkpoint"):
        plot_curve([], tmp_path / "none.png")
