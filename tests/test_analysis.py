"""Tests of ``hisss analyze``: a report from small runs holds its sections, plots and sizes."""

from __future__ import annotations

import base64
import io
import json
import re
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import Result

from hisss.cli import app
from hisss.core import ConfigError
from hisss.sim.analysis import analyze as run_analyze
from hisss.sim.analysis import summarize_files
from support.cli import CliRunner

runner = CliRunner()

SECTIONS = ("scores", "snakes", "seats", "configurations", "bots")


def _run(*args: str) -> Result:
    return runner.invoke(app, list(args))


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Three small runs of different configurations, and a tournament report."""
    folder = tmp_path_factory.mktemp("analysis")
    runs = [
        ["-n", "300", "-p", "2"],
        ["-n", "200", "-p", "3", "--rules", "pl", "-b", "greedy,random,random"],
        ["-n", "150", "-p", "2", "-d", "all-pairs", "-b", "greedy"],
    ]
    paths = []
    for k, run in enumerate(runs):
        out = folder / f"run{k}.jsonl"
        result = _run("simulate", *run, "--out", str(out))
        assert result.exit_code == 0, result.output
        paths.append(out)
    report = _run("tournament", "-b", "greedy,random", "-n", "40", "--json")
    assert report.exit_code == 0, report.output
    tournament = folder / "tournament.json"
    tournament.write_text(report.stdout, encoding="utf-8")
    paths.append(tournament)
    return paths


def _images(page: str) -> dict[str, bytes]:
    found = re.findall(
        r'<figure id="fig-(\w+)"><img alt="[^"]*" src="data:image/png;base64,([^"]+)"', page
    )
    return {name: base64.b64decode(data, validate=True) for name, data in found}


def test_report_has_every_section_plot_and_sample_size(inputs: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    result = _run("analyze", *map(str, inputs), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert result.stdout == f"wrote {out}: 650 games from 4 files\n"
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    for section in SECTIONS:
        assert f'<section id="{section}">' in page
    # self-contained: no external asset of any kind
    assert not re.search(r'(src|href)="(?!data:)', page)
    images = _images(page)
    assert sorted(images) == sorted(SECTIONS)
    for name, data in images.items():
        picture = Image.open(io.BytesIO(data))
        picture.verify()
        assert picture.format == "PNG" and picture.size[0] > 200, name
    captions = dict(re.findall(r'<figure id="fig-(\w+)">.*?<figcaption>(.*?)</figcaption>', page))
    # 300 games of 2 seats, 200 of 3 and 150 of 2
    assert captions["scores"] == "Score distributions: n = 1,500 seat-games over 650 games"
    assert "650 games" in captions["snakes"] and "claimed snakes" in captions["snakes"]
    # only the tables with one bot in every seat tell a seat's advantage: 300 + 150 games
    assert captions["seats"] == (
        "Seat advantage by number of players: 2 players: n = 450 games "
        "(games with the same bot in every seat)"
    )
    assert "n = 650 games in 3 configurations" in captions["configurations"]
    assert "bot-games" in captions["bots"]
    # the table of configurations, with the games of each
    for label, games in (
        ("2 · classic · rainbow · random", 300),
        ("3 · pl · rainbow · greedy,random,random", 200),
        ("2 · classic · all-pairs · greedy", 150),
    ):
        assert f"<tr><td>{label}</td><td>{games}</td>" in page


def test_summary_counts(inputs: list[Path]) -> None:
    summary = summarize_files(inputs)
    assert summary.games == 650
    assert sorted(c.games for c in summary.configs.values()) == [150, 200, 300]
    assert {p: g for p, (g, _) in summary.seats.items()} == {2: 450}
    labels = [label for label, *_ in summary.tournament_bots]
    assert labels == ["greedy · 2p · tournament.json", "random · 2p · tournament.json"]


def test_report_from_a_tournament_alone(inputs: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "t.html"
    result = _run("analyze", str(inputs[-1]), "-o", str(out))
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert list(_images(page)) == ["bots"]
    assert "No results files given" in page


def test_partial_last_line_is_left_out(inputs: list[Path], tmp_path: Path) -> None:
    torn = tmp_path / "torn.jsonl"
    data = inputs[0].read_bytes()
    torn.write_bytes(data + b'{"game":301,"se')
    assert summarize_files([torn]).games == 300


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("hello\n", "neither a results file"),
        ('{"bots": {}}\n', "neither a results file"),
        (None, "line 3 is not JSON"),
        ("BAD_ROW", "line 2 is not a game of a results file (missing"),
    ],
)
def test_bad_inputs_are_refused(
    inputs: list[Path], tmp_path: Path, content: str | None, message: str
) -> None:
    bad = tmp_path / "bad.jsonl"
    lines = inputs[0].read_text(encoding="utf-8").splitlines(keepends=True)
    if content is None:
        bad.write_text(lines[0] + lines[1] + "{oops\n", encoding="utf-8")
    elif content == "BAD_ROW":
        bad.write_text(lines[0] + json.dumps({"game": 1}) + "\n", encoding="utf-8")
    else:
        bad.write_text(content, encoding="utf-8")
    out = tmp_path / "r.html"
    result = _run("analyze", str(bad), "-o", str(out))
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert result.stderr.startswith("error: ") and message in result.stderr, result.stderr
    assert not out.exists()


def test_missing_input_and_empty_run(tmp_path: Path) -> None:
    result = _run("analyze", str(tmp_path / "nope.jsonl"), "-o", str(tmp_path / "r.html"))
    assert result.exit_code == 2 and "nope.jsonl" in result.stderr
    header_only = tmp_path / "empty.jsonl"
    header_only.write_text('{"format":"hisss-results","version":1}\n', encoding="utf-8")
    empty = _run("analyze", str(header_only), "-o", str(tmp_path / "r.html"))
    assert empty.exit_code == 2 and "no games in the inputs" in empty.stderr


def test_a_report_into_a_missing_folder_fails_before_any_reading(tmp_path: Path) -> None:
    # Before: the inputs were read and plotted (9 s for a large file) before the write failed.
    unread = tmp_path / "never-read.jsonl"  # does not exist: reading it would fail differently
    with pytest.raises(ConfigError, match=r"the folder .* does not exist"):
        run_analyze([unread], tmp_path / "missing" / "report.html")
