"""Make the golden game records in this folder: fixed-seed games of uniformly random players.

Run ``python tests/golden/make_golden.py`` to write the ``*.json`` files, or with ``--check`` to
compare them with a fresh run (exit status 1 on any difference). ``tests/test_record.py`` imports
:data:`GAMES` and :func:`render` to check that regeneration is byte-identical.

Each game shuffles the deck with ``random.Random(seed)`` and then, with the same generator, picks
every placement uniformly among ``state.legal_actions()``.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from pathlib import Path

from hisss.core import PRESETS, Deck, Rules, Scoring, deal, get_deck
from hisss.record import Game, GameRecord, Seat

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class GoldenGame:
    """The set-up of one golden game; ``name`` is its file name without ``.json``."""

    name: str
    players: int
    rules: Rules
    deck: Deck
    seed: int
    snapshots: bool = False

    @property
    def path(self) -> Path:
        """The golden file of this game."""
        return HERE / f"{self.name}.json"


GAMES: tuple[GoldenGame, ...] = (
    GoldenGame("classic-2p-rainbow", 2, PRESETS["classic"], get_deck("rainbow"), 1, True),
    GoldenGame("pl-3p-all-pairs", 3, PRESETS["pl"], get_deck("all-pairs"), 2, True),
    GoldenGame("classic-5p-all-pairs", 5, PRESETS["classic"], get_deck("all-pairs"), 3),
    GoldenGame("pl-5p-rainbow", 5, PRESETS["pl"], get_deck("rainbow"), 4),
    GoldenGame(
        "unforced-snakes-4p-double",
        4,
        Rules(forced_placement=False, scoring=Scoring.SNAKES),
        get_deck("double"),
        5,
    ),
    GoldenGame(
        "first-to-3p-rainbow",
        3,
        Rules(scoring=Scoring.FIRST_TO, target=10),
        get_deck("rainbow"),
        6,
        True,
    ),
)


def play(game: GoldenGame) -> GameRecord:
    """Play ``game`` with uniformly random players and return its record."""
    rng = random.Random(game.seed)
    seats = [Seat.bot("random", "random")] * game.players
    played = Game(
        game.rules,
        game.deck,
        seats,
        seed=game.seed,
        cards=deal(game.deck, rng),
        snapshots=game.snapshots,
    )
    while not played.is_over():
        played.draw()
        if played.legal_actions():
            played.place(rng.choice(played.legal_actions()))
    return played.record()


def render(game: GoldenGame) -> str:
    """The golden file text of ``game``."""
    return play(game).to_json() + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the golden files, or with ``--check`` report those that differ."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    stale = 0
    for game in GAMES:
        text = render(game)
        if args.check:
            old = game.path.read_text(encoding="utf-8") if game.path.exists() else None
            if old != text:
                print(f"{game.path.name}: differs from a fresh run")
                stale += 1
        else:
            game.path.write_text(text, encoding="utf-8", newline="\n")
            print(f"wrote {game.path.name}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
