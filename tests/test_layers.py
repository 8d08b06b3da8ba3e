"""The layering holds: imports point down only, no modules import each other in a circle, and the
rules core stays pure.

Three checks. import-linter enforces the layers contract of ``[tool.importlinter]`` in
pyproject.toml (``cli`` over ``tui | server`` over ``storage`` over ``sim | rl`` over
``bots | record | i18n`` over ``core``). The import graph of every module (grimp's, imports
inside functions included) holds no cycle, within a layer either. A direct scan of the
source of ``hisss/core`` then checks what the contract cannot see: the core imports only the
standard library and itself, never calls the module-level functions of ``random`` (every random
choice takes an injected ``random.Random``), and does no I/O.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import grimp
import pytest

from hisss.core import State

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "src" / "hisss" / "core"

#: Standard-library modules that exist to do I/O (files, processes, network, logging, terminals).
IO_MODULES = frozenset(
    {
        "asyncio",
        "fileinput",
        "ftplib",
        "getpass",
        "glob",
        "http",
        "io",
        "logging",
        "mmap",
        "multiprocessing",
        "os",
        "pathlib",
        "select",
        "selectors",
        "shelve",
        "shutil",
        "signal",
        "smtplib",
        "socket",
        "socketserver",
        "sqlite3",
        "ssl",
        "subprocess",
        "tempfile",
        "threading",
        "urllib",
        "webbrowser",
    }
)
#: Built-in functions that do I/O or stop for a debugger.
IO_BUILTINS = frozenset({"open", "print", "input", "breakpoint"})
#: Attributes of ``sys`` that are I/O streams.
SYS_STREAMS = frozenset({"stdin", "stdout", "stderr", "__stdin__", "__stdout__", "__stderr__"})
#: The only names the core may take from the ``random`` module.
RANDOM_ALLOWED = frozenset({"Random"})


def _lint_imports_executable() -> str:
    beside = Path(sys.executable).with_name("lint-imports")
    if beside.exists():
        return str(beside)
    found = shutil.which("lint-imports")
    if found is None:
        pytest.fail("lint-imports (import-linter) is not installed: pip install -e '.[test]'")
    return found


def test_import_linter_contracts() -> None:
    proc = subprocess.run(
        [_lint_imports_executable(), "--no-cache", "--no-logo"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert proc.returncode == 0, (
        f"lint-imports exited with {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    )


def _core_files() -> list[Path]:
    files = sorted(CORE.rglob("*.py"))
    assert files, f"no modules found under {CORE}"
    return files


def _where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}"


def _imported_modules(path: Path, tree: ast.Module) -> Iterator[tuple[ast.AST, str]]:
    """Every absolute module name imported by the file, relative imports resolved."""
    package = (
        "hisss.core"
        if path.parent == CORE
        else "hisss.core." + ".".join(path.parent.relative_to(CORE).parts)
    )
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node, alias.name
        elif isinstance(node, ast.ImportFrom):
            if not node.level:
                yield node, node.module or ""
                continue
            parts = package.split(".")
            base = ".".join(parts[: len(parts) - (node.level - 1)])
            if node.module:
                yield node, f"{base}.{node.module}"
            else:  # ``from . import x``: each name is a module of the package or one of its names
                for alias in node.names:
                    yield node, f"{base}.{alias.name}"


def _is_allowed_import(module: str) -> bool:
    top = module.split(".", maxsplit=1)[0]
    if module == "hisss.core" or module.startswith("hisss.core."):
        return True
    return top != "hisss" and top in sys.stdlib_module_names


def import_offences(path: Path, tree: ast.Module) -> list[str]:
    """Imports of anything but the standard library and ``hisss.core``."""
    return [
        f"{_where(path, node)} imports {module}"
        for node, module in _imported_modules(path, tree)
        if not _is_allowed_import(module)
    ]


def random_offences(path: Path, tree: ast.Module) -> list[str]:
    """Uses of the ``random`` module other than ``random.Random``."""
    aliases: set[str] = set()  # the names bound to the random module in this file
    bad: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            aliases.update(a.asname or "random" for a in node.names if a.name == "random")
        elif isinstance(node, ast.ImportFrom) and node.module == "random" and not node.level:
            bad.extend(
                f"{_where(path, node)} imports random.{alias.name}"
                for alias in node.names
                if alias.name not in RANDOM_ALLOWED
            )
    bad.extend(
        f"{_where(path, node)} uses {node.value.id}.{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in aliases
        and node.attr not in RANDOM_ALLOWED
    )
    return bad


def io_offences(path: Path, tree: ast.Module) -> list[str]:
    """Imports of I/O modules, calls of I/O built-ins and uses of the ``sys`` streams."""
    bad = [
        f"{_where(path, node)} imports {module}"
        for node, module in _imported_modules(path, tree)
        if module.split(".", maxsplit=1)[0] in IO_MODULES
    ]
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in IO_BUILTINS
        ):
            bad.append(f"{_where(path, node)} calls {node.func.id}()")
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "sys"
            and node.attr in SYS_STREAMS
        ):
            bad.append(f"{_where(path, node)} uses sys.{node.attr}")
    return bad


def _parse(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


@pytest.mark.parametrize("path", _core_files(), ids=lambda p: p.name)
def test_core_imports_only_stdlib_and_core(path: Path) -> None:
    bad = import_offences(path, _parse(path))
    assert not bad, "the core imports only the standard library and hisss.core:\n" + "\n".join(bad)


@pytest.mark.parametrize("path", _core_files(), ids=lambda p: p.name)
def test_core_uses_no_global_random(path: Path) -> None:
    bad = random_offences(path, _parse(path))
    assert not bad, (
        "the core takes randomness from an injected random.Random, never the random module's "
        "functions:\n" + "\n".join(bad)
    )


@pytest.mark.parametrize("path", _core_files(), ids=lambda p: p.name)
def test_core_does_no_io(path: Path) -> None:
    bad = io_offences(path, _parse(path))
    assert not bad, "the core does no I/O:\n" + "\n".join(bad)


def test_the_scans_catch_offences() -> None:
    """The scans flag what they should: a guard against a scan that silently sees nothing."""
    fake = CORE / "fake.py"
    tree = ast.parse(
        "import random as r\n"
        "import logging\n"
        "import typer\n"
        "from random import shuffle, Random\n"
        "from .cards import Card\n"
        "from .. import cli\n"
        "import sys\n"
        "r.shuffle([])\n"
        "print(r.Random(1).random())\n"
        "sys.stdout.write('x')\n"
    )
    assert [line.split(" ", 1)[1] for line in import_offences(fake, tree)] == [
        "imports typer",
        "imports hisss.cli",
    ]
    assert [line.split(" ", 1)[1] for line in random_offences(fake, tree)] == [
        "imports random.shuffle",
        "uses r.shuffle",
    ]
    assert [line.split(" ", 1)[1] for line in io_offences(fake, tree)] == [
        "imports logging",
        "calls print()",
        "uses sys.stdout",
    ]


def import_cycles(
    modules: Iterable[str], imported_by: Callable[[str], Iterable[str]]
) -> list[list[str]]:
    """The modules that import each other in a circle: every strongly connected component of
    more than one module (Tarjan's algorithm, without recursion), each sorted, in sorted order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(modules):
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(sorted(imported_by(root))))]
        while work:
            module, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(imported_by(target)))))
                    break
                if target in on_stack:
                    low[module] = min(low[module], index[target])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[module])
                if low[module] == index[module]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == module:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found)


def test_no_modules_import_each_other_in_a_circle() -> None:
    graph = grimp.build_graph("hisss", cache_dir=None)
    assert len(graph.modules) > 100, "the import graph holds too few modules"
    cycles = import_cycles(graph.modules, graph.find_modules_directly_imported_by)
    lines = []
    for component in cycles:
        lines.append("these modules import each other in a circle: " + ", ".join(component))
        for importer in component:
            for imported in sorted(graph.find_modules_directly_imported_by(importer)):
                if imported in component:
                    for detail in graph.get_import_details(importer=importer, imported=imported):
                        lines.append(
                            f"  {importer} -> {imported} (line {detail['line_number']}: "
                            f"{detail['line_contents']})"
                        )
    assert not cycles, "\n".join(lines)


def test_the_cycle_scan_catches_a_cycle() -> None:
    """A guard against a scan that silently sees nothing: circles of two and three modules, a
    module importing into a circle without being in it, and a chain without a circle."""
    imports = {
        "a": {"b"},
        "b": {"c"},
        "c": {"a", "d"},
        "d": set(),
        "e": {"a", "f"},
        "f": {"e"},
        "g": {"d"},
    }
    assert import_cycles(imports, imports.__getitem__) == [["a", "b", "c"], ["e", "f"]]
    assert import_cycles({"x": {"y"}, "y": set()}, {"x": {"y"}, "y": set()}.__getitem__) == []


#: The private members of the core's State: its own business, never touched from outside the core.
STATE_PRIVATE = frozenset(
    name
    for name in (*State.__slots__, *vars(State))
    if name.startswith("_") and not name.startswith("__")
)


def state_private_offences(path: Path, tree: ast.Module) -> list[str]:
    """Uses of a private member of :class:`hisss.core.State` on anything but ``self``."""
    return [
        f"{_where(path, node)} uses .{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr in STATE_PRIVATE
        and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
    ]


def _outside_core() -> list[Path]:
    files = [
        path
        for folder in ("src/hisss", "tests", "examples")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if CORE not in path.parents
    ]
    assert len(files) > 50, "the scan found too few modules"
    return files


def test_nothing_outside_the_core_touches_the_private_members_of_state() -> None:
    assert {"_remaining", "_left", "_undo", "_finished", "_why_illegal"} <= STATE_PRIVATE
    bad = [line for path in _outside_core() for line in state_private_offences(path, _parse(path))]
    assert not bad, (
        "outside the core, a State is used through its public methods (push_draw, push, undo...):\n"
        + "\n".join(bad)
    )


def test_the_private_member_scan_catches_offences() -> None:
    tree = ast.parse("state._left\nself._left\ngame.state._undo.pop()\nx._other\n")
    assert [line.split(" ", 1)[1] for line in state_private_offences(ROOT / "fake.py", tree)] == [
        "uses ._left",
        "uses ._undo",
    ]
