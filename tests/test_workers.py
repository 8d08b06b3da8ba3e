"""Tests of runs on workers and on Ray, of results files and of resuming an interrupted run.

The same seed must give the same ``--json`` output, and the same results file, byte for byte,
whether the games run in this process, on two local worker processes or on a local Ray instance
with 2 CPUs (started once for the module: it costs seconds and hundreds of megabytes). An
interrupted run must resume to exactly the file of an uninterrupted run: the real program
stopped part way, and results files cut as an interrupted run leaves them.
"""

from __future__ import annotations

import io
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.progress import Progress
from typer.testing import Result

from hisss.cli import app
from hisss.cli.progress import RateColumn
from hisss.core import ConfigError, get_rules
from hisss.sim.executor import Backend, BackendKind, run_ordered
from hisss.sim.results import header_line, open_results
from support.cli import CliRunner
from support.waiting import wait_until

runner = CliRunner()

RAY_ENV = {"RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}


@pytest.fixture(scope="module")
def ray_local() -> Iterator[None]:
    """A local Ray instance with 2 CPUs for the module; the commands find it and leave it up."""
    import ray  # noqa: PLC0415 - only the tests that start Ray pay for its import

    temp = tempfile.mkdtemp(prefix="hisss-ray-")
    env = {**RAY_ENV, "RAY_TMPDIR": temp}
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        logging_level=logging.ERROR,
        _temp_dir=temp,
    )
    try:
        yield
    finally:
        ray.shutdown()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        shutil.rmtree(temp, ignore_errors=True)


def _ok(result: Result) -> str:
    assert result.exit_code == 0, result.output
    return result.stdout


def _run(*args: str) -> Result:
    return runner.invoke(app, list(args))


BACKENDS = [
    ["--workers", "1"],
    ["--workers", "2"],
    ["--backend", "ray", "--workers", "2"],
]


@pytest.mark.parametrize(
    "run",
    [
        ["-n", "240", "-p", "3", "-s", "7", "--rules", "pl", "-b", "greedy,random,careful"],
        ["--fast", "-n", "40000", "-p", "4", "-s", "3", "-d", "all-pairs", "-b", "greedy"],
    ],
    ids=["engine", "fast"],
)
def test_simulate_same_output_on_every_backend(
    ray_local: None, tmp_path: Path, run: list[str]
) -> None:
    outputs, files = [], []
    for k, backend in enumerate(BACKENDS):
        out = tmp_path / f"run{k}.jsonl"
        outputs.append(_ok(_run("simulate", *run, *backend, "--json", "--out", str(out))))
        files.append(out.read_bytes())
    assert outputs[0] == outputs[1] == outputs[2]
    assert files[0] == files[1] == files[2]
    games = int(run[run.index("-n") + 1])
    lines = files[0].decode().splitlines()
    assert len(lines) == games + 1
    assert [json.loads(line)["game"] for line in lines[1:]] == list(range(1, games + 1))
    # the same statistics without a results file, and on a single task
    plain = _ok(_run("simulate", *run, "--json", "--chunk", str(games)))
    assert plain == outputs[0]


@pytest.mark.parametrize(("players", "games"), [(2, 90), (3, 30)])
def test_tournament_same_output_on_every_backend(ray_local: None, players: int, games: int) -> None:
    # with three players the expert rolls out in compiled code, in every worker
    base = ["tournament", "-b", "greedy,expert,careful", "-n", str(games), "-p", str(players)]
    outputs = [_ok(_run(*base, "--mirror", *backend, "--json")) for backend in BACKENDS]
    assert outputs[0] == outputs[1] == outputs[2]
    assert json.loads(outputs[0])["games"] == games


#: A run to resume, on the engine and on the fast path, in tasks of a few games.
RESUMED = [
    ["-n", "300", "-p", "2", "-s", "5", "--chunk", "40"],
    ["--fast", "-n", "3000", "-p", "3", "-s", "5", "--chunk", "400", "-b", "greedy"],
]


@pytest.mark.parametrize("run", RESUMED, ids=["engine", "fast"])
@pytest.mark.system
def test_partial_results_file_resumes_to_the_same_file(tmp_path: Path, run: list[str]) -> None:
    whole = tmp_path / "whole.jsonl"
    expected = _ok(_run("simulate", *run, "--json", "--out", str(whole)))
    lines = whole.read_bytes().splitlines(keepends=True)
    half = len(lines) // 2
    # what an interrupted run leaves: the header (or part of it), then some whole games, then
    # perhaps part of the next line, as a process killed while writing leaves it
    cuts = [
        lines[0][:12],
        lines[0],
        b"".join(lines[:2]),
        b"".join(lines[:half]) + lines[half][:25],
        b"".join(lines[:-1]) + lines[-1][:-1],
    ]
    part = tmp_path / "part.jsonl"
    for k, cut in enumerate(cuts):
        part.write_bytes(cut)
        workers = str(1 + k % 2)
        resumed = _ok(_run("simulate", *run, "--json", "--out", str(part), "--workers", workers))
        assert resumed == expected, k
        assert part.read_bytes() == whole.read_bytes(), k
    # a finished run asked again reads its file back and changes nothing
    assert _ok(_run("simulate", *run, "--json", "--out", str(part))) == expected
    assert part.read_bytes() == whole.read_bytes()


def _games_in(path: Path) -> int:
    """The complete games of a results file: its whole lines after the header."""
    return max(0, path.read_bytes().count(b"\n") - 1) if path.exists() else 0


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["ctrl-c", "kill"])
@pytest.mark.system
def test_stopped_program_resumes_to_the_same_file(tmp_path: Path, sig: signal.Signals) -> None:
    """The real program stopped part way through a results file (Ctrl-C, or killed outright)
    resumes to the file and report of a run that was never stopped."""
    part = tmp_path / "part.jsonl"
    run = ["-p", "2", "-s", "5", "--chunk", "40"]
    # far more games than it plays before it is stopped; Python's own Ctrl-C handling even when
    # this test runs with SIGINT ignored, as background jobs are
    program = (
        "import signal; signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "from hisss.cli import main; main()"
    )
    args = ["simulate", "-n", "1000000", *run, "--json", "--out", str(part)]
    proc = subprocess.Popen(
        [sys.executable, "-c", program, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:

        def written() -> bool:
            assert proc.poll() is None, proc.communicate()
            return _games_in(part) >= 80

        wait_until(written, what="80 games in the results file", timeout=300)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode != 0 and out == b""
    assert b"Traceback" not in err
    done = _games_in(part)
    assert 80 <= done < 1000000
    # resumed with more games than the file holds: the run goes on after them
    games = str(done + 120)
    whole = tmp_path / "whole.jsonl"
    expected = _ok(_run("simulate", "-n", games, *run, "--json", "--out", str(whole)))
    resumed = _ok(_run("simulate", "-n", games, *run, "--json", "--out", str(part)))
    assert resumed == expected
    assert part.read_bytes() == whole.read_bytes()


def test_results_file_of_another_run_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    _ok(_run("simulate", "-n", "30", "--out", str(out), "--json"))
    before = out.read_bytes()
    other = _run("simulate", "-n", "30", "-s", "9", "--out", str(out))
    assert other.exit_code == 2 and "holds another run (different: seed)" in other.stderr
    fewer = _run("simulate", "-n", "20", "--out", str(out))
    assert fewer.exit_code == 2 and "more than the 20 games" in fewer.stderr
    assert out.read_bytes() == before
    # more games than the file holds: the run goes on after them
    more = json.loads(_ok(_run("simulate", "-n", "45", "--out", str(out), "--json")))
    assert more["games"] == 45 and len(out.read_bytes().splitlines()) == 46
    assert out.read_bytes().startswith(before)
    stranger = tmp_path / "notes.txt"
    stranger.write_text("hello\n", encoding="utf-8")
    refused = _run("simulate", "-n", "5", "--out", str(stranger))
    assert refused.exit_code == 2 and "not a hisss results file" in refused.stderr
    assert stranger.read_text(encoding="utf-8") == "hello\n"


def test_a_torn_header_starts_again(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    out.write_bytes(b'{"format":"hisss-res')
    rows: list[dict[str, Any]] = []
    writer, done = open_results(out, {"command": "simulate"}, 10, rows.append)
    writer.close()
    assert done == 0 and rows == []
    assert out.read_text(encoding="utf-8") == header_line({"command": "simulate"})


def test_a_results_file_of_the_earlier_seeding_is_refused(tmp_path: Path) -> None:
    """A version 1 file's bots drew their choices otherwise: it is not resumed with other games."""
    out = tmp_path / "r.jsonl"
    _ok(_run("simulate", "-n", "5", "--fast", "--out", str(out)))
    lines = out.read_bytes().splitlines(keepends=True)
    lines[0] = lines[0].replace(b'"version":2', b'"version":1')
    out.write_bytes(b"".join(lines))
    before = out.read_bytes()
    result = _run("simulate", "-n", "9", "--fast", "--out", str(out))
    assert result.exit_code == 2
    assert "written by another version of hisss (results version 1, this one writes 2)" in (
        result.stderr
    )
    assert out.read_bytes() == before


def test_a_changed_line_is_reported(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    _ok(_run("simulate", "-n", "5", "--out", str(out)))
    lines = out.read_bytes().splitlines(keepends=True)
    lines[3] = lines[3].replace(b'"game":3', b'"game":7')
    out.write_bytes(b"".join(lines))
    result = _run("simulate", "-n", "5", "--out", str(out))
    assert result.exit_code == 2 and "line 4 is not game 3" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--backend", "spark"], "unknown backend 'spark'"),
        (["--address", "127.0.0.1:6379"], "only with the ray backend"),
        (["--workers", "0"], "workers must be a whole number of at least 1"),
        (["--chunk", "0"], "games per task must be a whole number of at least 1"),
    ],
)
def test_bad_backend_options(args: list[str], message: str) -> None:
    for command in (["simulate", "-n", "5"], ["tournament", "-b", "random,greedy", "-n", "4"]):
        if command[0] == "tournament" and args[0] == "--chunk":
            continue
        result = _run(*command, *args)
        assert result.exit_code == 2 and result.stdout == "", result.output
        assert message in result.stderr, result.stderr


def test_backend_kinds_are_the_command_line_spellings() -> None:
    assert [kind.value for kind in BackendKind] == ["local", "ray"]
    assert Backend().kind is BackendKind.LOCAL and not Backend().parallel
    assert Backend("ray", 2) == Backend(BackendKind.RAY, 2)
    assert Backend("ray", 2).kind is BackendKind.RAY and Backend("ray").parallel
    with pytest.raises(ConfigError, match=r"unknown backend 'spark' \(backends: local, ray\)"):
        Backend("spark")


@pytest.mark.system
def test_worker_errors_come_back_as_they_were() -> None:
    tasks = [("classic",), ("house",), ("pl",)]
    with pytest.raises(ConfigError, match='unknown rules preset "house"'):
        list(run_ordered(get_rules, tasks, Backend(workers=2)))
    assert list(run_ordered(get_rules, [("pl",)], Backend(workers=2))) == [get_rules("pl")]


def test_ray_task_errors_come_back_as_they_were(ray_local: None) -> None:
    with pytest.raises(ConfigError, match='unknown rules preset "house"'):
        list(run_ordered(get_rules, [("classic",), ("house",)], Backend("ray", 2)))


def test_help_names_the_new_options() -> None:
    simulate = _ok(_run("simulate", "--help"))
    for option in ("--fast", "--workers", "--backend", "--address", "--out", "--chunk"):
        assert option in simulate
    gone = _run("simulate", "-n", "5", "--stop-after", "2")  # no test hook in the program
    assert gone.exit_code == 2 and "No such option: --stop-after" in gone.stderr
    tournament = _ok(_run("tournament", "--help"))
    for option in ("--workers", "--backend", "--address"):
        assert option in tournament
    assert "RESULTS" in _ok(_run("analyze", "--help"))
    assert "analyze" in _ok(_run("--help"))


def test_progress_bar_shows_the_rate() -> None:
    column = RateColumn()
    clock = [100.0]  # Rich's clock, moved by hand: 20 games in half a second
    with Progress(column, console=Console(file=io.StringIO()), get_time=lambda: clock[0]) as bar:
        task = bar.add_task("games", total=100)
        assert column.render(bar.tasks[0]).plain == "- games/s"
        bar.update(task, completed=10)
        clock[0] += 0.5
        bar.update(task, completed=30)
        shown = column.render(bar.tasks[0]).plain
    assert shown == "40 games/s"
