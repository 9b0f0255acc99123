"""``qipan probe GAME POSITION``: a position's value from the game's retrograde tables, for
any game whose package registers tables (:mod:`qipan.solve.providers`)."""

from __future__ import annotations

import json

import click
from rich.console import Console

import qipan

from ..cli.options import parse_options
from ..core.errors import QipanError
from .providers import open_tables

console = Console(highlight=False, soft_wrap=True)


@click.command("probe")
@click.argument("game")
@click.argument("position")
@click.option(
    "--option", "-o", "options", multiple=True, metavar="KEY=VALUE", help="a rule option (repeatable)"
)
@click.option("--dir", "directory", default=None, help="the tables' directory (default: the user cache)")
@click.option("--stones", type=int, default=None, help="endgame tables with at most this many stones a side")
@click.option("--build", is_flag=True, help="build the tables first if they are missing")
@click.option("--json", "as_json", is_flag=True, help="machine-readable output")
def probe(game, position, options, directory, stones, build, as_json):
    """The value of POSITION (the game's position text) for the side to move, the plies to
    the end with best play, and the best moves."""
    g = qipan.load(game, **parse_options(options))
    state = g.position(position)
    tables = open_tables(g, directory, stones)
    if build and not tables.db.complete():
        tables.build()
    why = tables.why_not(state)
    if why is not None:
        raise QipanError(why)
    kind, plies = tables.value(state)
    moves = tables.move_values(state)
    best = [v for v in moves if v.rank() == moves[0].rank()] if moves else []
    if as_json:
        data = {
            "value": kind,
            "plies": plies,
            "best": [str(v.move) for v in best],
            "moves": [{"move": str(v.move), "value": v.value, "plies": v.plies} for v in moves],
            "manifest": tables.db.hash(),
        }
        click.echo(json.dumps(data, ensure_ascii=False, indent=1))
        return
    end = f" in {plies} plies" if plies is not None else ""
    console.print(f"{kind}{end} for the side to move")
    console.print("best: " + (", ".join(str(v.move) for v in best) or "(no move)"))
    for v in moves:
        console.print(f"  {v.move!s:12} {v.value}" + (f" in {v.plies}" if v.plies is not None else ""))
