"""The RL example scripts run: OpenSpiel's MCTS against random, and a brief training."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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


def test_openspiel_mcts_example_plays() -> None:
    out = _run("openspiel_mcts.py", "--games", "2", "--simulations", "3")
    assert "game 1: MCTS in seat 1" in out and "game 2: MCTS in seat 2" in out
    assert "against random: won" in out and "of 2 games; mean return" in out


def test_train_agent_example_writes_a_png_and_prints_the_evaluation(tmp_path: Path) -> None:
    plot = tmp_path / "curve.png"
    out = _run(
        "train_agent.py",
        "--episodes", "30", "--eval-deals", "4", "--block", "5", "--plot", str(plot),
    )  # fmt: skip
    assert "evaluation against random: win share" in out
    assert "over 8 games on 4 mirrored deals" in out
    assert "the greedy bot, evaluated on the same deals" in out
    data = plot.read_bytes()
    assert data.startswith(PNG_SIGNATURE) and len(data) > 10_000


def test_example_scripts_have_help() -> None:
    for script in ("openspiel_mcts.py", "train_agent.py"):
        assert "usage:" in _run(script, "--help")
