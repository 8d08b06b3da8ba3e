"""Code quality gates: ruff and mypy pass on the whole code base (configured in pyproject.toml),
and no module of the package is longer than 600 lines.

mypy is marked ``slow``: on a clean checkout (no ``.mypy_cache``) it takes about half a minute of
CPU, a fifth of the fast part's budget, so the whole suite runs it and the fast part does not
(run ``.venv/bin/mypy`` while working, as the README says).

The tools run as modules of the interpreter running the tests, so they are the versions installed
beside it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )


def _report(proc: subprocess.CompletedProcess[str]) -> str:
    command = " ".join(str(a) for a in proc.args)
    return f"`{command}` exited with {proc.returncode}\n{proc.stdout}\n{proc.stderr}"


def test_ruff_check() -> None:
    proc = _run("ruff", "check", "--no-cache", "src", "tests", "examples")
    assert proc.returncode == 0, _report(proc)


@pytest.mark.slow
def test_mypy() -> None:
    proc = _run("mypy")
    assert proc.returncode == 0, _report(proc)


def test_ruff_format() -> None:
    proc = _run("ruff", "format", "--check", "--no-cache", "src", "tests", "examples")
    assert proc.returncode == 0, _report(proc)


#: The most lines a module of the package may have: a longer one does more than one thing.
MAX_MODULE_LINES = 600


def test_no_module_is_longer_than_the_limit() -> None:
    modules = sorted((ROOT / "src" / "hisss").rglob("*.py"))
    assert len(modules) > 50, "the scan found too few modules"
    long = {
        str(path.relative_to(ROOT)): lines
        for path in modules
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert not long, f"modules over {MAX_MODULE_LINES} lines: {long}"
