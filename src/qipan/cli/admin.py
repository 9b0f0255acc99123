"""``qipan admin``: what a site's moderators look at, read from the server's database."""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table

from ..core.errors import QipanError

console = Console(highlight=False)


@click.group()
def admin():
    """Moderators' reports on a site's database (the same --db as ``qipan serve``)."""


@admin.command()
@click.option("--db", default=None, help="the server's database URL (default: its SQLite file)")
@click.option("--min-games", default=5, show_default=True, type=click.IntRange(1, None))
@click.option("--min-share", default=0.8, show_default=True, type=click.FloatRange(0.5, 1.0))
def pairings(db, min_games, min_share):
    """Lopsided repeated pairings: two accounts with at least --min-games rated games
    against each other, one side winning at least --min-share of them (rating farming
    leaves this trace: docs/site.md, "Fair play")."""
    try:
        from ..server.fair_play import lopsided_pairings
        from ..server.storage import Storage
    except ImportError as exc:
        raise QipanError(f"the server needs its extra: pip install 'qipan[server]' ({exc})") from exc
    storage = Storage(db)
    try:
        found = lopsided_pairings(storage.engine, min_games, min_share)
    finally:
        storage.close()
    if not found:
        console.print(
            f"no pair of accounts with {min_games}+ rated games and one side winning {min_share:.0%}+"
        )
        return
    table = Table("winner", "loser", "games", "won", "lost", "share")
    for p in found:
        table.add_row(p.winner, p.loser, str(p.games), str(p.wins), str(p.losses), f"{p.share:.0%}")
    console.print(table)
