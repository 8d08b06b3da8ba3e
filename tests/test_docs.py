"""The examples in the docs run: every ``>>>`` line in ``docs/*.md`` and ``README.md`` is a doctest.

Each Markdown file is one doctest session. Code-fence lines (```` ``` ````) are blanked before
parsing, so an example's expected output may end right at its closing fence.
"""

from __future__ import annotations

import doctest
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC_FILES = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
#: Files that must hold runnable examples.
MUST_HAVE_EXAMPLES = {"rules.md", "notation.md", "README.md"}
OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE

_FENCE = re.compile(r"^\s*(```|~~~).*$", re.MULTILINE)


def _doctest_for(path: Path) -> doctest.DocTest:
    text = _FENCE.sub("", path.read_text(encoding="utf-8"))
    name = path.name
    return doctest.DocTestParser().get_doctest(text, {"__name__": name}, name, str(path), 0)


@pytest.mark.parametrize("path", DOC_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_doc_examples_run(path: Path) -> None:
    test = _doctest_for(path)
    if path.name in MUST_HAVE_EXAMPLES:
        assert test.examples, f"{path.name} should hold runnable >>> examples"
    if not test.examples:
        # A page without examples has nothing to run; it must still exist and be read as text.
        assert path.read_text(encoding="utf-8").strip(), f"{path.name} is empty"
        return
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=OPTIONS)
    result = runner.run(test, out=report.append, clear_globs=True)
    assert result.failed == 0, "".join(report)
    assert result.attempted == len(test.examples)


def test_required_docs_exist() -> None:
    names = {p.name for p in DOC_FILES if p.exists()}
    missing = MUST_HAVE_EXAMPLES - names
    assert not missing, f"missing docs: {sorted(missing)}"


def _quick_start_commands() -> list[str]:
    """The shell commands of the README's Quick start section, in order."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```(?:sh|bash|console)?\n(.*?)```", section, flags=re.DOTALL)
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip()]


def test_readme_opens_with_two_command_quick_start() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings[:1] == ["## Quick start"], "the README's first section is the Quick start"
    commands = _quick_start_commands()
    assert len(commands) == 2, commands
    assert "hisss serve" in commands[0], "the first command runs the web game"
    assert commands[1] == "bash .ci/run", "the second command runs the whole test suite"


def test_ci_runs_the_whole_suite() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    install = "pip install -q -c requirements/constraints.txt -e '.[test]'"
    assert any(install in line and line.endswith("-m pytest") for line in ci), (
        ".ci/run installs the package with its test extra under the constraints, then runs pytest"
    )


def test_the_readme_layout_lists_every_package() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = text.split("## Project layout", 1)[1].split("```", 2)[1]
    listed = set(re.findall(r"^  (\w+)/", layout, flags=re.MULTILINE))
    packages = {p.parent.name for p in (ROOT / "src" / "hisss").glob("*/__init__.py")}
    assert len(packages) >= 10
    assert listed == packages


def test_the_architecture_map_names_every_package() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    packages = {p.parent.name for p in (ROOT / "src" / "hisss").glob("*/__init__.py")}
    assert {name for name in packages if f"`hisss.{name}`" not in text} == set()


def test_the_licence_is_at_the_root_and_goes_into_the_wheel() -> None:
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License"), "LICENSE holds the licence pyproject.toml declares"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT"
    # Hatchling copies every file listed here into the wheel's ``.dist-info/licenses``.
    assert project["license-files"] == ["LICENSE"]


def test_the_quick_start_names_debians_venv_package() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert "python3-venv" in section, "Debian's Python needs python3-venv for the first command"
