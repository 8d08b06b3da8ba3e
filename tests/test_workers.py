"""Tests of runs on workers and on Ray, of results files and of resuming an interrupted run.

The same seed must give the same ``--json`` output, and the same results file, byte for byte,
whether the games run in this process, on two local worker processes or on a local Ray instance
with 2 CPUs (started once for the module: it costs seconds and hundreds of megabytes). An
interrupted run (stopped by the ``--stop-after`` hook, with a torn last line added as a killed
process would leave it) must resume to exactly the file of an uninterrupted run.
"""

from __future__ import annotations

import io
import json
import logging
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import ray
from rich.console import Console
from rich.progress import Progress
from typer.testing import CliRunner, Result

from hisss.cli import app
from hisss.cli.app import _RateColumn
from hisss.core import ConfigError, get_rules
from hisss.sim.executor import Backend, run_ordered
from hisss.sim.results import header_line, open_results

runner = CliRunner()

RAY_ENV = {"RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}


@pytest.fixture(scope="module")
def ray_local() -> Iterator[None]:
    """A local Ray instance with 2 CPUs for the module; the commands find it and leave it up."""
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


def test_tournament_same_output_on_every_backend(ray_local: None) -> None:
    base = ["tournament", "-b", "greedy,random,careful", "-n", "90", "-p", "2", "--mirror"]
    outputs = [_ok(_run(*base, *backend, "--json")) for backend in BACKENDS]
    assert outputs[0] == outputs[1] == outputs[2]
    assert json.loads(outputs[0])["games"] == 90


@pytest.mark.parametrize(
    "run",
    [
        ["-n", "300", "-p", "2", "-s", "5", "--chunk", "40"],
        ["--fast", "-n", "3000", "-p", "3", "-s", "5", "--chunk", "400", "-b", "greedy"],
    ],
    ids=["engine", "fast"],
)
@pytest.mark.system
def test_interrupted_run_resumes_to_the_same_file(tmp_path: Path, run: list[str]) -> None:
    whole = tmp_path / "whole.jsonl"
    expected = _ok(_run("simulate", *run, "--json", "--out", str(whole)))
    part = tmp_path / "part.jsonl"
    stopped = _run("simulate", *run, "--json", "--out", str(part), "--stop-after", "2")
    assert stopped.exit_code == 2 and stopped.stdout == ""
    assert "run the same command again to resume" in stopped.stderr
    done = len(part.read_bytes().splitlines()) - 1
    chunk = int(run[run.index("--chunk") + 1])
    assert done == 2 * chunk
    # a process killed while writing leaves part of a line behind
    with part.open("ab") as file:
        file.write(whole.read_bytes().splitlines(keepends=True)[done + 1][:25])
    resumed = _ok(_run("simulate", *run, "--json", "--out", str(part), "--workers", "2"))
    assert resumed == expected
    assert part.read_bytes() == whole.read_bytes()
    # a finished run asked again reads its file back and changes nothing
    assert _ok(_run("simulate", *run, "--json", "--out", str(part))) == expected
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
    assert "--stop-after" not in simulate  # a test hook, hidden
    tournament = _ok(_run("tournament", "--help"))
    for option in ("--workers", "--backend", "--address"):
        assert option in tournament
    assert "RESULTS" in _ok(_run("analyze", "--help"))
    assert "analyze" in _ok(_run("--help"))


def test_progress_bar_shows_the_rate() -> None:
    column = _RateColumn()
    clock = [100.0]  # Rich's clock, moved by hand: 20 games in half a second
    with Progress(column, console=Console(file=io.StringIO()), get_time=lambda: clock[0]) as bar:
        task = bar.add_task("games", total=100)
        assert column.render(bar.tasks[0]).plain == "- games/s"
        bar.update(task, completed=10)
        clock[0] += 0.5
        bar.update(task, completed=30)
        shown = column.render(bar.tasks[0]).plain
    assert shown == "40 games/s"
