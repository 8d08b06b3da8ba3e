"""Code quality gates: ruff and mypy pass on the whole code base (configured in pyproject.toml:
complexity at most 12, at most 8 arguments but where a command declares its options), no
module of the package is longer than 600 lines and no function's body longer than 60.

mypy is marked ``slow``: on a clean checkout (no ``.mypy_cache``) it takes about half a minute of
CPU, a fifth of the fast part's budget, so the whole suite runs it and the fast part does not
(run ``.venv/bin/mypy`` while working, as the README says).

The tools run as modules of the interpreter running the tests, so they are the versions installed
beside it.
"""

from __future__ import annotations

import ast
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


#: The most lines a function's body may have (its signature and docstring not counted): a longer
#: one does more than one thing.
MAX_FUNCTION_LINES = 60

#: Longer functions kept on purpose, each with the reason: none today. An entry names a function
#: as ``"package/module.py:name"`` and says why it stays long.
LONG_FUNCTIONS: dict[str, str] = {}


def _function_lengths(source: str) -> dict[str, int]:
    """Each function's name (nested ones as ``outer.inner``) and the lines of its body."""
    out: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    body = child.body
                    if (
                        body
                        and isinstance(body[0], ast.Expr)
                        and isinstance(body[0].value, ast.Constant)
                        and isinstance(body[0].value.value, str)
                    ):
                        body = body[1:]
                    last = body[-1].end_lineno if body else None
                    out[name] = (last - body[0].lineno + 1) if body and last else 0
                visit(child, f"{name}.")

    visit(ast.parse(source), "")
    return out


def test_no_function_is_longer_than_the_limit() -> None:
    package = ROOT / "src" / "hisss"
    long = {}
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package).as_posix()
        if relative.startswith("storage/migrations/versions/"):
            continue  # a migration is the schema's history, written once and never changed
        for name, lines in _function_lengths(path.read_text(encoding="utf-8")).items():
            if lines > MAX_FUNCTION_LINES:
                long[f"{relative}:{name.rsplit('.', 1)[-1]}"] = lines
    assert set(long) == set(LONG_FUNCTIONS), f"functions over {MAX_FUNCTION_LINES} lines: {long}"


def test_the_function_length_scan_counts_bodies() -> None:
    source = (
        'def f(\n    a: int,\n) -> int:\n    """Doc.\n\n    More."""\n    x = a\n    return x\n'
    )
    assert _function_lengths(source) == {"f": 2}
    nested = (
        "class C:\n    def m(self):\n        def inner():\n            pass\n        return 1\n"
    )
    assert _function_lengths(nested) == {"C.m": 3, "C.m.inner": 1}
