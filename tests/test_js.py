"""The browser front end's JavaScript: ESLint over every module (no module over 400 lines) and
the unit tests of its pure parts (``tests/js``) under Node's own test runner.

``.ci/run`` installs ESLint and its rules into ``.browser-tools`` from npm, as it does axe-core;
Node comes with npm from Debian. A missing tool fails the test with the command that installs
it: nothing skips. Both start a Node process, so the tests are ``system`` tests.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ROOT / ".browser-tools" / "node_modules"
#: The releases ``.ci/run`` installs.
ESLINT = "eslint@10.16.0 @eslint/js@10.0.1 globals@17.14.0"
INSTALL = f"npm install --no-save --prefix .browser-tools {ESLINT}"

pytestmark = pytest.mark.system


def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.fail("the JavaScript checks need Node: apt-get install npm", pytrace=False)
    return found


def test_eslint_finds_nothing_in_the_front_end() -> None:
    eslint = TOOLS / "eslint" / "bin" / "eslint.js"
    if not eslint.exists():
        pytest.fail(f"ESLint is not installed: run .ci/run, or {INSTALL}", pytrace=False)
    run = subprocess.run(
        [
            node(),
            str(eslint),
            "--no-config-lookup",
            "--config",
            "eslint.config.mjs",
            "--max-warnings",
            "0",
            "src/hisss/server/static",
            "tests/js",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_pure_modules_pass_their_unit_tests() -> None:
    tests = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "js").glob("*.test.mjs"))
    assert len(tests) >= 3, tests
    run = subprocess.run(
        [node(), "--test", "--test-reporter=tap", *tests],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout and "# pass 0" not in run.stdout, run.stdout[-2000:]
