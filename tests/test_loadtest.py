"""``hisss loadtest``: a small load test against a server it starts itself, its JSON figures,
and whole games played to the end and started again."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from hisss.cli import app
from hisss.server.loadtest import KEYS, LoadTestError, run_loadtest


def test_a_small_load_test_reports_its_figures_with_nothing_lost() -> None:
    result = CliRunner().invoke(
        app, ["loadtest", "--games", "5", "--seconds", "3", "--ramp", "0.5", "--json"]
    )
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert tuple(figures) == KEYS
    assert figures["games"] >= 5 and figures["actions"] > 10
    assert figures["errors"] == 0 and figures["lost_actions"] == 0
    assert 0 < figures["p50_ms"] <= figures["p99_ms"]
    assert figures["actions_per_second"] > 0


def test_games_are_played_to_the_end_and_new_ones_started() -> None:
    figures = run_loadtest(2, 4, think=0.0, ramp=0.0, level="easy", seed=3)
    assert figures.finished >= 2 and figures.games > figures.finished
    assert figures.errors == 0 and figures.lost_actions == 0


def test_bad_arguments_are_refused_before_anything_starts() -> None:
    with pytest.raises(LoadTestError, match="expected http"):
        run_loadtest(1, 1, url="ftp://example.org")
    result = CliRunner().invoke(app, ["loadtest", "--level", "genius", "--seconds", "1"])
    assert result.exit_code != 0 and "genius" in result.output
