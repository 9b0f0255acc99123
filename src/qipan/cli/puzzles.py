"""``qipan puzzles``: generate puzzles from the game database with the games' own searches."""

from __future__ import annotations

import json
from pathlib import Path

import click

from .db import DB_OPTION, open_database


@click.group()
def puzzles():
    """Puzzles from real games: forced wins each game's own search finds, solution trees
    checked through the rules."""


@puzzles.command()
@click.option("--from-db", "from_db", is_flag=True, required=True, help="from the games in the game database")
@DB_OPTION
@click.option("--game", default=None, help="only games of this game or preset")
@click.option(
    "--limit", default=100, show_default=True, type=click.IntRange(1, 100_000), help="puzzles at most"
)
@click.option(
    "--moves",
    default=3,
    show_default=True,
    type=click.IntRange(1, 5),
    help="longest win, in the solver's moves",
)
@click.option("--missed", is_flag=True, help="only wins the player missed in the game")
@click.option(
    "--out", default=None, type=click.Path(dir_okay=False), help="also write them to this JSON file"
)
def generate(from_db, db, game, limit, moves, missed, out):
    """Find puzzles in the stored games (one per game at most) and store them."""
    from ..server.puzzles import Puzzles
    from .main import console

    database = open_database(db)
    store = Puzzles(database.engine)
    seen = [0]

    def progress(row, puzzle):
        seen[0] += 1
        if puzzle is not None:
            console.print(f"{puzzle['id']}: {puzzle['theme']}, win in {puzzle['plies']} ({row['game']})")

    found = store.generate_from_db(game=game, limit=limit, max_moves=moves, progress=progress, missed=missed)
    counts: dict[str, int] = {}
    for p in found:
        counts[p["game"]] = counts.get(p["game"], 0) + 1
    console.print(
        f"{len(found)} puzzles from {seen[0]} games, each solution tree checked: "
        + (", ".join(f"{g} {n}" for g, n in sorted(counts.items())) or "none")
    )
    if out:
        Path(out).write_text(json.dumps({"puzzles": found}, ensure_ascii=False) + "\n", encoding="utf-8")
        console.print(f"written to {out}")


@puzzles.command()
@click.argument("path", type=click.Path(dir_okay=False, exists=True))
def check(path):
    """Check every puzzle of a JSON file: its position replays and its solution tree holds."""
    from ..server.puzzles import check_puzzle
    from .main import console

    data = json.loads(Path(path).read_text(encoding="utf-8"))
    for puzzle in data["puzzles"]:
        check_puzzle(puzzle)
    console.print(f"{len(data['puzzles'])} puzzles: every solution tree holds")
