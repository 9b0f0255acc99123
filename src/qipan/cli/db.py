"""``qipan db``: the game database (import record files, search, count)."""

from __future__ import annotations

import json
import sys
from datetime import date

import click

from ..core.errors import QipanError
from ..records import read_records

DB_OPTION = click.option(
    "--db",
    default=None,
    help="database URL, e.g. postgresql://user@host/db (default: the site's SQLite in the user data directory)",
)


def open_database(url: str | None):
    """The game database of the site at ``url`` (migrated to the current schema)."""
    try:
        from ..server.gamedb import GameDatabase
        from ..server.storage import Storage
    except ImportError as exc:
        raise QipanError(
            f"the game database needs the server extra: pip install 'qipan[server]' ({exc})"
        ) from exc
    return GameDatabase(Storage(url).engine)


@click.group()
def db():
    """The game database the site searches (positions, players, results)."""


@db.command(name="import")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, exists=True))
@DB_OPTION
def import_files(files, db):
    """Replay the games of FILES (any format ``qipan replay`` reads) and store them; a game
    that does not replay is reported with its ply and skipped, duplicates are skipped."""
    from .main import console

    database = open_database(db)
    totals = [0, 0, 0]
    for path in files:
        try:
            records = read_records(path, settle=False)  # replayed once, by the database
        except QipanError as exc:
            console.print(f"[red]{path}: not read:[/red] {exc}")
            totals[2] += 1
            continue
        report = database.add(records)
        for rejected in report.rejected[:20]:
            console.print(f"[red]{path}: game {rejected.index} skipped:[/red] {rejected.reason}")
        if len(report.rejected) > 20:
            console.print(f"[red]{path}: ... and {len(report.rejected) - 20} more skipped[/red]")
        console.print(
            f"{path}: {len(records)} games: {report.added} added, {report.duplicates} already stored, "
            f"{len(report.rejected)} skipped"
        )
        totals[0] += report.added
        totals[1] += report.duplicates
        totals[2] += len(report.rejected)
    console.print(f"added {totals[0]}, already stored {totals[1]}, skipped {totals[2]}")
    if totals[2]:
        sys.exit(1)


@db.command()
@DB_OPTION
@click.option("--player", default=None, help="a player's name (* matches any characters)")
@click.option("--opponent", default=None, help="another player's name in the same game")
@click.option("--game", default=None, help="a game or preset id")
@click.option("--result", default=None, help="1-0, 0-1, draw, ...")
@click.option(
    "--from", "date_from", default=None, type=click.DateTime(["%Y-%m-%d"]), help="played on or after"
)
@click.option("--to", "date_to", default=None, type=click.DateTime(["%Y-%m-%d"]), help="played on or before")
@click.option("--min-plies", default=None, type=int)
@click.option("--max-plies", default=None, type=int)
@click.option("--moves", default=None, help="games through the position after these moves (space-separated)")
@click.option("--symmetric", is_flag=True, help="with --moves: the position turned or mirrored too")
@click.option("--limit", default=20, show_default=True, type=click.IntRange(1, 200))
@click.option("--json", "as_json", is_flag=True)
def search(
    db,
    player,
    opponent,
    game,
    result,
    date_from,
    date_to,
    min_plies,
    max_plies,
    moves,
    symmetric,
    limit,
    as_json,
):
    """Games matching every filter, newest first."""
    from rich.table import Table

    from .main import console

    database = open_database(db)
    keys = None
    if moves is not None:
        from ..server.gamedb import position_keys_after

        if not game:
            raise click.UsageError("--moves needs --game (the position's game)")
        keys = position_keys_after(game, {}, None, moves.split(), symmetric)
    found = database.search(
        player=player,
        opponent=opponent,
        game=game,
        result=result,
        date_from=_day(date_from),
        date_to=_day(date_to),
        min_plies=min_plies,
        max_plies=max_plies,
        keys=keys,
        limit=limit,
    )
    if as_json:
        click.echo(json.dumps(found, ensure_ascii=False, indent=1))
        return
    table = Table("id", "game", "date", "players", "result", "plies")
    for g in found["games"]:
        table.add_row(
            g["id"], g["game"], g["date"] or "", " – ".join(g["names"]), g["result"], str(g["plies"])
        )
    console.print(table)
    console.print(f"{found['total']} games match")


@db.command()
@DB_OPTION
def stats(db):
    """How many games the database holds, per game and source."""
    from .main import console

    counts = open_database(db).count()
    for row in counts["by_game"]:
        console.print(f"{row['game']} ({row['source']}): {row['games']}")
    console.print(f"{counts['total']} games")


def _day(value) -> date | None:
    return value.date() if value is not None else None
