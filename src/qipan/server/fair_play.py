"""Rated games between real opponents: who may be paired rated, and a report of pairings a
moderator should look at.

Farming a rating takes two accounts of one person, one losing to the other on purpose.
Three rules make it harder (docs/site.md, "Fair play"):

- a rated game that ends before each side has made a move is aborted and unrated (a
  resignation then is an abort; manager.py, standings.py);
- two accounts seen at the same address within the last day (signing up, logging in,
  posting or accepting a seek) are not paired rated;
- two accounts created from the same address within a day of each other are never paired
  rated.

What slips through (several addresses, accounts made days apart) shows as the same two
accounts playing many rated games with one side winning nearly all: ``qipan admin
pairings`` lists those (``lopsided_pairings``)."""

from __future__ import annotations

import os
import time
from collections import defaultdict
from dataclasses import dataclass

import sqlalchemy as sa

from .sitedb import account_addresses, accounts, game_accounts, site_games
from .storage import games_table

DAY = 86400.0


class Addresses:
    """Where accounts act from (blocking calls: run them in the storage threads)."""

    def __init__(self, engine: sa.Engine):
        self.engine = engine

    def seen(self, account_id: int, address: str, signup: bool = False, now: float | None = None) -> None:
        now = time.time() if now is None else now
        address = address[:64]
        key = (account_addresses.c.account_id == account_id, account_addresses.c.address == address)
        with self.engine.begin() as conn:
            if not conn.execute(account_addresses.update().where(*key).values(last_seen=now)).rowcount:
                try:
                    with conn.begin_nested():
                        conn.execute(
                            account_addresses.insert().values(
                                account_id=account_id,
                                address=address,
                                first_seen=now,
                                last_seen=now,
                                signup=signup,
                            )
                        )
                except sa.exc.IntegrityError:  # recorded by a parallel request
                    pass

    def why_not_rated(self, a: int, b: int, now: float | None = None) -> str | None:
        """Why accounts ``a`` and ``b`` may not play each other rated, or None if they may.
        ``QIPAN_RATED_SAME_ADDRESS=1`` lifts the address rule, for a site whose players share
        one address (a club or a family behind one router; the browser tests on loopback)."""
        if os.environ.get("QIPAN_RATED_SAME_ADDRESS") == "1":
            return None
        now = time.time() if now is None else now
        x, y = account_addresses.alias("x"), account_addresses.alias("y")
        with self.engine.connect() as conn:
            shared = conn.execute(
                sa.select(sa.func.count())
                .select_from(x.join(y, x.c.address == y.c.address))
                .where(
                    x.c.account_id == a,
                    y.c.account_id == b,
                    x.c.last_seen > now - DAY,
                    y.c.last_seen > now - DAY,
                )
            ).scalar_one()
            if shared:
                return "the two accounts were used from the same address today"
            created = dict(
                conn.execute(
                    sa.select(accounts.c.id, accounts.c.created).where(accounts.c.id.in_((a, b)))
                ).all()
            )
            signed_up_together = conn.execute(
                sa.select(sa.func.count())
                .select_from(x.join(y, x.c.address == y.c.address))
                .where(x.c.account_id == a, y.c.account_id == b, x.c.signup, y.c.signup)
            ).scalar_one()
            if signed_up_together and abs(created.get(a, 0.0) - created.get(b, DAY * 2)) < DAY:
                return "the two accounts were created from the same address within a day"
        return None


@dataclass(frozen=True)
class Pairing:
    """Two accounts' rated games against each other."""

    winner: str
    loser: str
    games: int
    wins: int
    losses: int

    @property
    def share(self) -> float:
        return self.wins / self.games


def lopsided_pairings(engine: sa.Engine, min_games: int = 5, min_share: float = 0.8) -> list[Pairing]:
    """Pairs of accounts with at least ``min_games`` rated games against each other of
    which one side won at least ``min_share``, most games first."""
    query = (
        sa.select(game_accounts.c.game_id, game_accounts.c.seat, accounts.c.username, games_table.c.result)
        .join(site_games, site_games.c.game_id == game_accounts.c.game_id)
        .join(games_table, games_table.c.id == game_accounts.c.game_id)
        .join(accounts, accounts.c.id == game_accounts.c.account_id)
        .where(site_games.c.rated.is_(True), games_table.c.status == "over")
    )
    seats: dict[str, dict[int, str]] = defaultdict(dict)
    results: dict[str, dict] = {}
    with engine.connect() as conn:
        for row in conn.execute(query):
            seats[row.game_id][row.seat] = row.username
            results[row.game_id] = row.result or {}
    # (first, second) in name order -> [games, wins of first, wins of second]
    tally: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    for game_id, names in seats.items():
        if set(names) != {0, 1} or names[0] == names[1]:
            continue
        pair = tuple(sorted((names[0], names[1])))
        counts = tally[pair]
        counts[0] += 1
        winners = results[game_id].get("winners") or []
        if len(winners) == 1 and winners[0] in names:
            counts[1 if names[winners[0]] == pair[0] else 2] += 1
    out = []
    for (first, second), (games, first_wins, second_wins) in tally.items():
        if games < min_games:
            continue
        if first_wins >= second_wins:
            pairing = Pairing(first, second, games, first_wins, second_wins)
        else:
            pairing = Pairing(second, first, games, second_wins, first_wins)
        if pairing.share >= min_share:
            out.append(pairing)
    return sorted(out, key=lambda p: (-p.games, -p.share, p.winner))
