"""The analysis report: a self-contained HTML page with plots, from results files and tournaments.

:func:`analyze` reads results files of ``hisss simulate --out`` (JSON lines, streamed: any number of
games in bounded memory) and reports of ``hisss tournament --json``, and writes one HTML file with
every plot inline (PNG, base64; matplotlib's Agg renderer, no pyplot state) and no external asset:

* **scores**: the distribution of the cards in a seat's pit at the end, per configuration;
* **snake lengths**: the lengths of the claimed snakes, and the longest snake of each game;
* **seat advantage**: for each number of players, each seat's rate among the winners with its
  Wilson 95% interval, against the fair share ``1/P``, from the games with the same bot in every
  seat (elsewhere a seat's advantage mixes with its bot's);
* **configurations**: rule presets and decks (with players and bots) compared: mean claimed cards
  and the share of shared wins with 95% intervals, and a table of the main figures;
* **bots**: win rates with 95% intervals, per configuration. From results files a seat's score is
  1, ``1/k`` for a win shared by ``k`` seats, or 0, and the interval is clustered by game (seats
  of one game are not independent), as :mod:`hisss.sim.ratings` does by deal; from tournament
  reports the rates and intervals are taken as reported.

A *configuration* is the number of players, the rules, the deck and the bots of a game. Every
figure states its sample size (games, seat-games or snakes) in its title or legend and caption.
matplotlib is needed (``pip install 'hisss[dist]'``); :func:`analyze` raises a clear error
without it.
"""

from __future__ import annotations

import base64
import html
import importlib
import io
import json
import math
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hisss.core import ConfigError
from hisss.sim.ratings import Z95, ClusteredScore, wilson_interval
from hisss.sim.results import is_header

#: The most configurations drawn in one overlaid plot (the table lists them all).
MAX_OVERLAID = 8

_ROW_KEYS = ("players", "rules", "deck", "bots", "cards", "snakes", "longest", "claimed", "winners")


def _label(value: object) -> str:
    if isinstance(value, dict):
        if value.get("preset"):
            return str(value["preset"])
        return ",".join(f"{k}={v}" for k, v in value.items() if k != "preset")
    return str(value)


@dataclass(slots=True)
class _Mean:
    """Count, sum and sum of squares of a figure: its mean and standard error."""

    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, x: float) -> None:
        self.n += 1
        self.total += x
        self.squares += x * x

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else math.nan

    @property
    def se(self) -> float:
        if self.n < 2:
            return math.nan
        var = max(self.squares - self.total * self.total / self.n, 0.0) / (self.n - 1)
        return math.sqrt(var / self.n)


@dataclass(slots=True)
class _Config:
    """What the report keeps of one configuration's games."""

    games: int = 0
    seat_cards: Counter[int] = field(default_factory=Counter)
    snake_lengths: Counter[int] = field(default_factory=Counter)
    longest: Counter[int] = field(default_factory=Counter)
    claimed_cards: _Mean = field(default_factory=_Mean)
    claimed_snakes: _Mean = field(default_factory=_Mean)
    longest_mean: _Mean = field(default_factory=_Mean)
    shared: _Mean = field(default_factory=_Mean)
    seat1: _Mean = field(default_factory=_Mean)
    with_choice: _Mean = field(default_factory=_Mean)


@dataclass(slots=True)
class Summary:
    """Everything the report shows, gathered from the inputs."""

    files: list[tuple[str, str, int]] = field(default_factory=list)
    configs: dict[tuple[int, str, str, str], _Config] = field(default_factory=dict)
    #: players -> (games, wins per seat), from games with the same bot in every seat
    seats: dict[int, tuple[int, list[int]]] = field(default_factory=dict)
    #: (bot, configuration) -> clustered score from results files
    bots: dict[tuple[str, tuple[int, str, str, str]], ClusteredScore] = field(default_factory=dict)
    #: (label, games, win rate, interval) from tournament reports
    tournament_bots: list[tuple[str, int, float, tuple[float, float]]] = field(default_factory=list)

    @property
    def games(self) -> int:
        """The number of games read from results files."""
        return sum(c.games for c in self.configs.values())

    def add_row(self, row: dict[str, Any]) -> None:
        """Add one game (a results-file line)."""
        players = int(row["players"])
        bots = [str(b) for b in row["bots"]]
        key = (players, _label(row["rules"]), str(row["deck"]), ",".join(_short(bots)))
        config = self.configs.get(key)
        if config is None:
            config = self.configs[key] = _Config()
        cards = [int(n) for n in row["cards"]]
        winners = [int(w) for w in row["winners"]]
        config.games += 1
        config.seat_cards.update(cards)
        for pit in row["claimed"]:
            config.snake_lengths.update(int(n) for n in pit)
        longest = max((int(n) for n in row["longest"]), default=0)
        config.longest[longest] += 1
        config.claimed_cards.add(sum(cards))
        config.claimed_snakes.add(sum(int(n) for n in row["snakes"]))
        config.longest_mean.add(longest)
        config.shared.add(1.0 if len(winners) > 1 else 0.0)
        config.seat1.add(1.0 if 1 in winners else 0.0)
        config.with_choice.add(float(row.get("turns_with_choice", 0)))
        if len(set(bots)) == 1:
            games, wins = self.seats.get(players, (0, [0] * players))
            for w in winners:
                wins[w - 1] += 1
            self.seats[players] = (games + 1, wins)
        share = 1.0 / len(winners)
        per_bot: dict[str, tuple[float, int]] = {}
        for seat, bot in enumerate(bots, start=1):
            score, count = per_bot.get(bot, (0.0, 0))
            per_bot[bot] = (score + (share if seat in winners else 0.0), count + 1)
        for bot, (score, count) in per_bot.items():
            stat = self.bots.get((bot, key))
            if stat is None:
                stat = self.bots[(bot, key)] = ClusteredScore()
            stat.add(score, count)

    def add_tournament(self, name: str, report: dict[str, Any]) -> None:
        """Add the bots of a ``hisss tournament --json`` report."""
        players = report.get("players", "?")
        for bot, figures in report["bots"].items():
            interval = figures.get("ci95")
            if figures.get("win_rate") is None or interval is None:
                continue
            label = f"{bot} · {players}p · {name}"
            self.tournament_bots.append(
                (label, int(figures["games"]), float(figures["win_rate"]), tuple(interval))
            )


def _short(bots: list[str]) -> list[str]:
    """One name for a table of one bot, else the bot of each seat."""
    return bots[:1] if len(set(bots)) == 1 else bots


def _rows(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """The game lines of a results file with their line numbers (a partial last line skipped)."""
    with path.open("rb") as reader:
        for number, line in enumerate(reader, start=1):
            if not line.endswith(b"\n") or not line.strip():
                continue
            try:
                obj = json.loads(line)
            except ValueError:
                raise ConfigError(f"{path}: line {number} is not JSON") from None
            if is_header(obj):
                continue
            if not isinstance(obj, dict):
                raise ConfigError(f"{path}: line {number} is not a JSON object")
            missing = [k for k in _ROW_KEYS if k not in obj]
            if missing:
                raise ConfigError(
                    f"{path}: line {number} is not a game of a results file "
                    f"(missing {', '.join(missing)})"
                )
            yield number, obj


def _kind(path: Path) -> str:
    """``results`` for a results file, ``tournament`` for a tournament report."""
    with path.open("rb") as reader:
        first = reader.readline()
    try:
        obj = json.loads(first)
    except ValueError:
        obj = None
    if is_header(obj):
        return "results"
    try:
        whole = json.loads(path.read_bytes())
    except ValueError:
        whole = None
    if isinstance(whole, dict) and isinstance(whole.get("bots"), dict) and "rating_model" in whole:
        return "tournament"
    raise ConfigError(
        f"{path}: neither a results file (hisss simulate --out) nor a tournament report "
        "(hisss tournament --json)"
    )


def summarize_files(paths: Sequence[str | Path]) -> Summary:
    """Read every input into a :class:`Summary` (results files streamed line by line)."""
    if not paths:
        raise ConfigError("no input: give results files (hisss simulate --out) or reports")
    summary = Summary()
    for given in paths:
        path = Path(given)
        kind = _kind(path)
        if kind == "results":
            before = summary.games
            for number, row in _rows(path):
                try:
                    summary.add_row(row)
                except (KeyError, TypeError, ValueError, IndexError) as exc:
                    raise ConfigError(f"{path}: line {number}: bad game ({exc})") from None
            summary.files.append((str(path), "results", summary.games - before))
        else:
            report = json.loads(path.read_bytes())
            summary.add_tournament(path.name, report)
            summary.files.append((str(path), "tournament", int(report.get("games", 0))))
    if not summary.games and not summary.tournament_bots:
        raise ConfigError("no games in the inputs: nothing to analyse")
    return summary


# ---------------------------------------------------------------------- plots


def _matplotlib() -> Any:
    try:
        return importlib.import_module("matplotlib.figure")
    except ImportError:
        raise ConfigError("hisss analyze needs matplotlib: pip install 'hisss[dist]'") from None


def _png(fig: Any) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight", metadata={"Software": None})
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _config_label(key: tuple[int, str, str, str], config: _Config) -> str:
    players, rules, deck, bots = key
    return f"{players}p · {rules} · {deck} · {bots} (n = {config.games:,} games)"


def _overlaid(summary: Summary) -> list[tuple[tuple[int, str, str, str], _Config]]:
    return sorted(summary.configs.items())[:MAX_OVERLAID]


def _distribution(ax: Any, counts: Counter[int], label: str) -> None:
    total = sum(counts.values())
    xs = list(range(min(counts), max(counts) + 1))
    ax.step(xs, [counts.get(x, 0) / total for x in xs], where="mid", label=label)


def _fig_scores(figure: Any, summary: Summary) -> tuple[str, str]:
    fig = figure.Figure(layout="constrained", figsize=(8, 4.2))
    ax = fig.subplots()
    seats = 0
    for key, config in _overlaid(summary):
        n = sum(config.seat_cards.values())
        seats += n
        _distribution(ax, config.seat_cards, _config_label(key, config))
    ax.set_xlabel("cards in a seat's pit at the end")
    ax.set_ylabel("share of seat-games")
    ax.set_title(f"Scores: cards per seat (n = {seats:,} seat-games)")
    ax.legend(fontsize=7)
    return _png(fig), f"n = {seats:,} seat-games over {summary.games:,} games"


def _fig_snakes(figure: Any, summary: Summary) -> tuple[str, str]:
    fig = figure.Figure(layout="constrained", figsize=(10, 4.2))
    left, right = fig.subplots(1, 2)
    snakes = games = 0
    for key, config in _overlaid(summary):
        if config.snake_lengths:
            snakes += sum(config.snake_lengths.values())
            _distribution(left, config.snake_lengths, _config_label(key, config))
        games += config.games
        _distribution(right, config.longest, _config_label(key, config))
    left.set_xlabel("length of a claimed snake (cards)")
    left.set_ylabel("share of snakes")
    left.set_title(f"Claimed snakes (n = {snakes:,} snakes)")
    right.set_xlabel("longest snake in any pit (0: none)")
    right.set_ylabel("share of games")
    right.set_title(f"Longest snake per game (n = {games:,} games)")
    right.legend(fontsize=6)
    return _png(fig), f"n = {snakes:,} claimed snakes; {games:,} games"


def _fig_seats(figure: Any, summary: Summary) -> tuple[str, str]:
    tables = sorted(summary.seats.items())
    if not tables:
        return "", ""
    fig = figure.Figure(layout="constrained", figsize=(max(4.0, 3.6 * len(tables)), 3.8))
    axes = fig.subplots(1, len(tables), squeeze=False)[0]
    notes = []
    for ax, (players, (games, wins)) in zip(axes, tables, strict=True):
        seats = list(range(1, players + 1))
        rates = [w / games for w in wins]
        intervals = [wilson_interval(r, games) for r in rates]
        lower = [r - lo for r, (lo, _) in zip(rates, intervals, strict=True)]
        upper = [hi - r for r, (_, hi) in zip(rates, intervals, strict=True)]
        ax.errorbar(seats, rates, yerr=[lower, upper], fmt="o", capsize=4)
        ax.axhline(1 / players, linestyle="--", linewidth=1, color="grey", label="fair 1/P")
        ax.set_xticks(seats)
        ax.set_xlabel("seat")
        ax.set_ylabel("rate among the winners")
        ax.set_title(f"{players} players (n = {games:,} games)")
        ax.legend(fontsize=7)
        notes.append(f"{players} players: n = {games:,} games")
    caption = "; ".join(notes) + " (games with the same bot in every seat)"
    return _png(fig), caption


def _fig_configs(figure: Any, summary: Summary) -> tuple[str, str]:
    items = sorted(summary.configs.items())
    fig = figure.Figure(layout="constrained", figsize=(10, 0.5 * len(items) + 2.2))
    left, right = fig.subplots(1, 2, sharey=True)
    labels = [_config_label(k, c) for k, c in items]
    ys = list(range(len(items)))
    cards = [c.claimed_cards for _, c in items]
    left.errorbar(
        [m.mean for m in cards],
        ys,
        xerr=[Z95 * (m.se if m.n > 1 else 0.0) for m in cards],
        fmt="o",
        capsize=4,
    )
    left.set_yticks(ys, labels, fontsize=7)
    left.set_xlabel("claimed cards per game (mean, 95% interval)")
    shared = [c.shared for _, c in items]
    lower, upper = [], []
    for m in shared:
        lo, hi = wilson_interval(m.mean, m.n)
        lower.append(m.mean - lo)
        upper.append(hi - m.mean)
    right.errorbar([m.mean for m in shared], ys, xerr=[lower, upper], fmt="o", capsize=4)
    right.set_xlabel("share of shared wins (95% interval)")
    total = sum(c.games for _, c in items)
    fig.suptitle(f"Configurations compared (n = {total:,} games; per row in its label)")
    return _png(fig), f"n = {total:,} games in {len(items)} configurations"


def _fig_bots(figure: Any, summary: Summary) -> tuple[str, str]:
    entries: list[tuple[str, int, float, tuple[float, float]]] = []
    for (bot, (players, rules, deck, bots)), stat in sorted(summary.bots.items()):
        label = f"{bot} in {players}p · {rules} · {deck} · {bots}"
        interval = stat.interval()
        assert interval is not None  # a bot is kept from its first game on
        entries.append((label, stat.clusters, stat.rate, interval))
    entries.extend(summary.tournament_bots)
    fig = figure.Figure(layout="constrained", figsize=(8, 0.45 * len(entries) + 1.8))
    ax = fig.subplots()
    ys = list(range(len(entries)))
    rates = [e[2] for e in entries]
    lower = [r - e[3][0] for r, e in zip(rates, entries, strict=True)]
    upper = [e[3][1] - r for r, e in zip(rates, entries, strict=True)]
    ax.errorbar(rates, ys, xerr=[lower, upper], fmt="o", capsize=4)
    ax.set_yticks(ys, [f"{e[0]} (n = {e[1]:,} games)" for e in entries], fontsize=7)
    ax.set_xlabel("win rate (shared wins count 1/k; 95% interval)")
    total = sum(e[1] for e in entries)
    ax.set_title(f"Bot win rates (n = {total:,} bot-games in all; per bot in its label)")
    return _png(fig), f"n = {total:,} bot-games over {len(entries)} bots"


# ---------------------------------------------------------------------- page

_STYLE = """
body { font-family: sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ccc; padding-bottom: 0.2em; }
figure { margin: 1em 0; } figcaption { color: #555; font-size: 0.9em; }
table { border-collapse: collapse; font-size: 0.85em; }
td, th { border: 1px solid #ccc; padding: 0.25em 0.5em; text-align: right; }
td:first-child, th:first-child { text-align: left; }
"""


def _figure_html(name: str, title: str, png: str, caption: str) -> str:
    return (
        f'<figure id="fig-{name}"><img alt="{html.escape(title)}" '
        f'src="data:image/png;base64,{png}"><figcaption>{html.escape(title)}: '
        f"{html.escape(caption)}</figcaption></figure>"
    )


def _fmt(m: _Mean, places: int = 3) -> str:
    if not m.n:
        return "-"
    se = "" if m.n < 2 else f" ± {m.se:.{places}f}"
    return f"{m.mean:.{places}f}{se}"


def _config_table(summary: Summary) -> str:
    head = (
        "<tr><th>players · rules · deck · bots</th><th>games</th><th>claimed cards</th>"
        "<th>claimed snakes</th><th>longest snake</th><th>seat 1 among winners</th>"
        "<th>shared wins</th><th>turns with a choice</th></tr>"
    )
    body = []
    for (players, rules, deck, bots), c in sorted(summary.configs.items()):
        cells = [
            f"{players} · {rules} · {deck} · {bots}",
            f"{c.games:,}",
            _fmt(c.claimed_cards, 2),
            _fmt(c.claimed_snakes, 2),
            _fmt(c.longest_mean, 2),
            _fmt(c.seat1),
            _fmt(c.shared),
            _fmt(c.with_choice, 2),
        ]
        body.append("<tr>" + "".join(f"<td>{html.escape(x)}</td>" for x in cells) + "</tr>")
    return f"<table>{head}{''.join(body)}</table><p>Figures are means ± standard errors.</p>"


def render_report(summary: Summary) -> str:
    """The HTML page of a :class:`Summary`."""
    figure = _matplotlib()
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>Hisss simulation report</title>",
        f"<style>{_STYLE}</style></head><body>",
        "<h1>Hisss simulation report</h1>",
        f"<p>{summary.games:,} games from results files; {len(summary.tournament_bots)} bot "
        "entries from tournament reports.</p>",
        "<ul>",
        *(
            f"<li>{html.escape(name)}: {kind}, {games:,} games</li>"
            for name, kind, games in summary.files
        ),
        "</ul>",
    ]
    sections: list[tuple[str, str, Any]] = [
        ("scores", "Score distributions", _fig_scores),
        ("snakes", "Snake-length distributions", _fig_snakes),
        ("seats", "Seat advantage by number of players", _fig_seats),
        ("configurations", "Rule presets and decks compared", _fig_configs),
    ]
    for name, title, draw in sections:
        parts.append(f'<section id="{name}"><h2>{title}</h2>')
        if summary.games:
            png, caption = draw(figure, summary)
            if png:
                parts.append(_figure_html(name, title, png, caption))
            else:
                parts.append(
                    "<p>No games with the same bot in every seat: a seat's advantage cannot be "
                    "told apart from its bot's.</p>"
                )
            if name == "configurations":
                parts.append(_config_table(summary))
        else:
            parts.append("<p>No results files given: no games to show here.</p>")
        parts.append("</section>")
    parts.append('<section id="bots"><h2>Bot win rates</h2>')
    if summary.bots or summary.tournament_bots:
        png, caption = _fig_bots(figure, summary)
        parts.append(_figure_html("bots", "Bot win rates", png, caption))
    else:
        parts.append("<p>No bots to compare.</p>")
    parts.append("</section></body></html>")
    return "\n".join(parts) + "\n"


def analyze(paths: Sequence[str | Path], output: str | Path) -> Summary:
    """Read the inputs and write the HTML report to ``output``; return what was read.

    Raises :class:`ConfigError` for an input that is neither a results file nor a tournament
    report, a bad line (naming the file and line), no games at all, or missing matplotlib.
    """
    _matplotlib()  # fail before reading anything
    folder = Path(output).expanduser().resolve().parent
    if not folder.is_dir():
        raise ConfigError(f"{output}: the folder {folder} does not exist")
    summary = summarize_files(paths)
    page = render_report(summary)
    Path(output).write_text(page, encoding="utf-8")
    return summary


__all__ = ["MAX_OVERLAID", "Summary", "analyze", "render_report", "summarize_files"]
