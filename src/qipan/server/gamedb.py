"""The game database: records imported from files (``qipan db import``) and the site's own
finished games, each replayed through the rules, searchable by players, date, result, game,
length and position.

Every position of a stored game is a row (game, ply, position key, the move played from it),
so "every game through this position" and the opening explorer are one indexed lookup. A
position key is a 63-bit digest of the rules' ``state.key()``; under the board's symmetries
(for games that declare ``symmetric_keys``) the search looks up the key of every image.

A game's id is a digest of what defines it (game, options, players, seed, moves): the same
game imported twice, from two files or two formats, has one id and is stored once. A record
the rules refuse is reported with its ply and stored not at all; a batch of games is stored
in one transaction, so nothing is ever half-stored."""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import sqlalchemy as sa

from ..core import QipanError
from ..core.records import Record
from ..core.refs import load_ref
from .storage import metadata

db_games = sa.Table(
    "db_games",
    metadata,
    # A digest of the game's setup and moves (``game_digest``): duplicates share it.
    sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("game", sa.String(64), nullable=False, index=True),
    sa.Column("family", sa.String(64), nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=True),
    sa.Column("moves", sa.JSON, nullable=False),
    sa.Column("plies", sa.Integer, nullable=False, index=True),
    # "1-0", "0-1", "draw", "winners 1,3" (as Outcome.result_text) or "*" (unfinished).
    sa.Column("result", sa.String(40), nullable=False),
    sa.Column("reason", sa.String(120), nullable=True),
    # The winners as "0,2" (seats), "" for a draw, None when unfinished: the explorer's score.
    sa.Column("winners", sa.String(40), nullable=True),
    sa.Column("played", sa.Date, nullable=True, index=True),
    # "import" (a file) or "site" (a game played here; ``site_game`` is its id).
    sa.Column("source", sa.String(16), nullable=False),
    sa.Column("site_game", sa.String(32), nullable=True, unique=True),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("tags", sa.JSON, nullable=False),
    sa.Column("added", sa.Float, nullable=False),
)

db_players = sa.Table(
    "db_players",
    metadata,
    sa.Column("game_id", sa.BigInteger, sa.ForeignKey("db_games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(80), nullable=False),
    # Lower case, for searches that ignore case on every database.
    sa.Column("name_key", sa.String(80), nullable=False, index=True),
    sa.Column("rating", sa.Float, nullable=True),
)

db_positions = sa.Table(
    "db_positions",
    metadata,
    sa.Column("game_id", sa.BigInteger, sa.ForeignKey("db_games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("ply", sa.Integer, primary_key=True),
    sa.Column("key", sa.BigInteger, nullable=False, index=True),
    # The move played from this position (None after the last move).
    sa.Column("move", sa.String(200), nullable=True),
    # The seat to move (-1 at a chance node, None when the game is over).
    sa.Column("mover", sa.Integer, nullable=True),
)

#: Games stored per transaction when importing.
BATCH = 500
#: Rows a search returns at most.
MAX_RESULTS = 200


# -- keys ---------------------------------------------------------------------------------
def digest63(text: str) -> int:
    """A signed 63-bit integer digest of ``text`` (fits a BIGINT on every database)."""
    return _digest63(text.encode())


def _digest63(data: bytes, blake2b=hashlib.blake2b, from_bytes=int.from_bytes) -> int:
    return from_bytes(blake2b(data, digest_size=8).digest(), "big") >> 1


def position_key(state) -> int:
    """The database key of ``state``'s position: a digest of the game's id and the rules'
    ``key()`` (whose ``repr`` is made of numbers and tuples, the same in every process). The
    id keeps apart games whose keys look alike (the Morris boards' stone masks); the presets
    of one game share it, so a Pente position is one position under every preset."""
    return _digest63(f"{state.game.id}:{state.key()!r}".encode())


def symmetric_position_keys(state) -> list[int]:
    """The database keys of the position under every symmetry the game declares (its own
    key first; only its own where the game declares none)."""
    ref = state.game.symmetric_keys
    if ref is None:
        return [position_key(state)]
    keys = dict.fromkeys(digest63(f"{state.game.id}:{k!r}") for k in load_ref(ref)(state))
    return list(keys)


def position_keys_after(
    game: str, options: dict, players: int | None, moves: list[str], symmetric: bool, seed: int | None = None
) -> list[int]:
    """The key(s) of the position after ``moves`` (RecordError naming the bad ply)."""
    from ..core import load

    record = Record(game, options, players or load(game, **options).players[0], moves=moves, seed=seed)
    state = record.replay()
    return symmetric_position_keys(state) if symmetric else [position_key(state)]


def game_digest(record: Record) -> int:
    """The id a game is stored under: the same setup and moves give the same id."""
    return digest63(
        json.dumps(
            [record.game, record.options, record.players, record.seed, record.moves],
            sort_keys=True,
            separators=(",", ":"),
        )
    )


# -- importing ----------------------------------------------------------------------------
@dataclass
class Rejected:
    index: int  # 1-based, in the order the records came
    ply: int | None
    reason: str


@dataclass
class ImportReport:
    added: int = 0
    duplicates: int = 0
    rejected: list[Rejected] = field(default_factory=list)
    #: The ids of the games added, in order.
    ids: list[int] = field(default_factory=list)

    def merge(self, other: ImportReport) -> None:
        self.added += other.added
        self.duplicates += other.duplicates
        self.rejected += other.rejected
        self.ids += other.ids


@dataclass
class Prepared:
    """A replayed record, ready to store."""

    game: dict
    players: list[dict]
    #: One row per position, in the columns of ``POSITION_COLUMNS``.
    positions: list[tuple]


POSITION_COLUMNS = ("game_id", "ply", "key", "move", "mover")


def prepare(record: Record, source: str = "import", site_game: str | None = None, rated: bool = False):
    """Replay ``record`` through the rules and build its rows (RecordError with the ply if
    it does not replay)."""
    from ..core.errors import RecordError
    from ..core.records import POSITION_TAG

    if POSITION_TAG in record.tags:
        # The database's games replay from the rules' start (search, explorer, puzzles).
        raise RecordError("the game starts from a set-up position, not the rules' start: not stored")
    state = record.new_state()
    gid = game_digest(record)
    positions = []
    # position_key, with what is the same at every ply looked up once (an import keys
    # every position it replays)
    prefix = f"{state.game.id}:".encode()
    play, key, digest = state.play, state.key, _digest63
    for ply, text in enumerate(record.moves):
        mover = state.to_move
        before = digest(prefix + repr(key()).encode())
        try:
            move = play(text)
        except QipanError as exc:
            reason = str(exc) if text in str(exc) else f"{text!r}: {exc}"
            raise RecordError(reason, ply + 1) from exc
        positions.append((gid, ply, before, move.text, mover))
    positions.append((gid, len(record.moves), digest(prefix + repr(key()).encode()), None, state.to_move))
    record.settle(state)  # a result read without replaying is settled by this replay
    outcome = state.outcome or record.result
    if record.result is not None and state.outcome is not None:
        if tuple(state.outcome.winners) != tuple(record.result.winners):
            raise RecordError(
                f"the rules end the game as {state.outcome.result_text()} "
                f"({state.outcome.reason}), the record says {record.result.result_text()}"
            )
    game = state.game
    row = {
        "id": gid,
        "game": game.preset,
        "family": game.family,
        "options": dict(record.options),
        "players": record.players,
        "seed": record.seed,
        "moves": list(record.moves),
        "plies": len(record.moves),
        "result": outcome.result_text() if outcome else "*",
        "reason": (outcome.reason[:120] if outcome else None),
        "winners": ",".join(map(str, outcome.winners)) if outcome else None,
        "played": record_date(record),
        "source": source,
        "site_game": site_game,
        "rated": rated,
        "tags": dict(record.tags),
        "added": time.time(),
    }
    players = [
        {
            "game_id": gid,
            "seat": seat,
            "name": name[:80],
            "name_key": name[:80].lower(),
            "rating": _rating(record.tags.get(f"Player {seat + 1} Rating")),
        }
        for seat, name in enumerate(record.names)
        if name
    ]
    return Prepared(row, players, positions)


_DATE_FORMS = (
    (re.compile(r"(\d{4})-(\d{2})-(\d{2})"), (1, 2, 3)),
    (re.compile(r"(\d{4})\.(\d{2})\.(\d{2})"), (1, 2, 3)),
    # pente.org writes month/day/year.
    (re.compile(r"(\d{2})/(\d{2})/(\d{4})"), (3, 1, 2)),
)


def record_date(record: Record) -> date | None:
    """The day a game was played: its start time, else its Date tag; None if neither reads."""
    for text in (record.started, record.tags.get("Date"), record.ended):
        if not text:
            continue
        for pattern, (y, m, d) in _DATE_FORMS:
            found = pattern.match(text.strip())
            if found:
                try:
                    return date(int(found.group(y)), int(found.group(m)), int(found.group(d)))
                except ValueError:
                    break
    return None


def _rating(text: str | None) -> float | None:
    try:
        return float(text) if text else None
    except ValueError:
        return None


class GameDatabase:
    """The game database on the site's SQL engine (SQLite or PostgreSQL)."""

    def __init__(self, engine: sa.Engine):
        self.engine = engine
        mark = "?" if engine.dialect.paramstyle == "qmark" else "%s"
        self._insert_positions = (
            f"INSERT INTO db_positions ({', '.join(POSITION_COLUMNS)}) "
            f"VALUES ({', '.join([mark] * len(POSITION_COLUMNS))})"
        )

    # -- storing -------------------------------------------------------------------------
    def add(self, records: Iterable[Record], source: str = "import") -> ImportReport:
        """Replay and store ``records``; the ones that do not replay are reported (with their
        ply) and skipped, the ones stored already counted as duplicates."""
        report = ImportReport()
        batch: list[Prepared] = []
        for index, record in enumerate(records, start=1):
            try:
                batch.append(prepare(record, source))
            except QipanError as exc:
                report.rejected.append(Rejected(index, getattr(exc, "ply", None), str(exc)))
                continue
            if len(batch) >= BATCH:
                report.merge(self.store(batch))
                batch = []
        if batch:
            report.merge(self.store(batch))
        return report

    def store(self, batch: list[Prepared]) -> ImportReport:
        """Store prepared games in one transaction, skipping those already stored."""
        report = ImportReport()
        unique: dict[int, Prepared] = {}
        for item in batch:
            if item.game["id"] in unique:
                report.duplicates += 1
            else:
                unique[item.game["id"]] = item
        with self.engine.begin() as conn:
            known = set()
            ids = list(unique)
            for start in range(0, len(ids), 500):  # bound the IN list
                chunk = ids[start : start + 500]
                known.update(conn.execute(sa.select(db_games.c.id).where(db_games.c.id.in_(chunk))).scalars())
            fresh = [item for gid, item in unique.items() if gid not in known]
            report.duplicates += len(unique) - len(fresh)
            if fresh:
                conn.execute(db_games.insert(), [item.game for item in fresh])
                players = [row for item in fresh for row in item.players]
                if players:
                    conn.execute(db_players.insert(), players)
                # Positions are most of the rows (one per ply): straight to the driver's
                # executemany, without SQLAlchemy's per-row work (a third of an import's time).
                conn.exec_driver_sql(self._insert_positions, [r for item in fresh for r in item.positions])
        report.added = len(fresh)
        report.ids = [item.game["id"] for item in fresh]
        return report

    def add_site_game(self, record: Record, site_game: str, rated: bool, ratings: dict[int, float]) -> bool:
        """Store a game finished on the site (once; False if it was stored already)."""
        prepared = prepare(record, "site", site_game=site_game, rated=rated)
        for row in prepared.players:
            row["rating"] = ratings.get(row["seat"])
        with self.engine.begin() as conn:
            taken = conn.execute(
                sa.select(db_games.c.id).where(
                    (db_games.c.site_game == site_game) | (db_games.c.id == prepared.game["id"])
                )
            ).first()
            if taken is not None:
                return False
            conn.execute(db_games.insert(), [prepared.game])
            if prepared.players:
                conn.execute(db_players.insert(), prepared.players)
            conn.exec_driver_sql(self._insert_positions, prepared.positions)
        return True

    def delete(self, game_id: int) -> bool:
        with self.engine.begin() as conn:
            conn.execute(db_positions.delete().where(db_positions.c.game_id == game_id))
            conn.execute(db_players.delete().where(db_players.c.game_id == game_id))
            return conn.execute(db_games.delete().where(db_games.c.id == game_id)).rowcount == 1

    # -- reading -------------------------------------------------------------------------
    def get(self, game_id: int) -> dict | None:
        with self.engine.connect() as conn:
            row = conn.execute(db_games.select().where(db_games.c.id == game_id)).mappings().first()
            if row is None:
                return None
            names = _names(conn, [game_id])
        return _summary(row, names.get(game_id, {})) | {"moves": list(row["moves"]), "tags": row["tags"]}

    def count(self) -> dict:
        """How many games, per game and source."""
        query = sa.select(db_games.c.game, db_games.c.source, sa.func.count()).group_by(
            db_games.c.game, db_games.c.source
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return {
            "total": sum(n for _, _, n in rows),
            "by_game": [{"game": g, "source": s, "games": n} for g, s, n in sorted(rows)],
        }

    def search(
        self,
        player: str | None = None,
        opponent: str | None = None,
        game: str | None = None,
        result: str | None = None,
        date_from: date | None = None,
        date_to: date | None = None,
        min_plies: int | None = None,
        max_plies: int | None = None,
        keys: list[int] | None = None,
        source: str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> dict:
        """Games matching every filter given, newest first. ``player``/``opponent``: a name
        (case ignored; ``*`` matches any characters); ``keys``: position keys, of which a
        game must pass through one (``position_key`` or ``symmetric_position_keys``)."""
        query = sa.select(db_games)
        for name in (player, opponent):
            if name:
                pattern = name.lower().replace("%", r"\%").replace("_", r"\_").replace("*", "%")
                match = sa.select(db_players.c.game_id).where(
                    db_players.c.name_key.like(pattern, escape="\\")
                )
                query = query.where(db_games.c.id.in_(match))
        if game:
            query = query.where(db_games.c.game == game)
        if result:
            query = query.where(db_games.c.result == result)
        if date_from:
            query = query.where(db_games.c.played >= date_from)
        if date_to:
            query = query.where(db_games.c.played <= date_to)
        if min_plies is not None:
            query = query.where(db_games.c.plies >= min_plies)
        if max_plies is not None:
            query = query.where(db_games.c.plies <= max_plies)
        if source:
            query = query.where(db_games.c.source == source)
        if keys is not None:
            through = sa.select(db_positions.c.game_id).where(db_positions.c.key.in_(keys))
            query = query.where(db_games.c.id.in_(through))
        total_query = sa.select(sa.func.count()).select_from(query.subquery())
        query = query.order_by(db_games.c.played.desc().nulls_last(), db_games.c.id).limit(
            min(limit, MAX_RESULTS)
        )
        with self.engine.connect() as conn:
            total = conn.execute(total_query).scalar()
            rows = conn.execute(query.offset(offset)).mappings().all()
            names = _names(conn, [r["id"] for r in rows])
        return {"total": total, "games": [_summary(r, names.get(r["id"], {})) for r in rows]}


def _names(conn, ids: list[int]) -> dict[int, dict[int, dict]]:
    if not ids:
        return {}
    out: dict[int, dict[int, dict]] = {}
    rows = conn.execute(
        sa.select(db_players.c.game_id, db_players.c.seat, db_players.c.name, db_players.c.rating).where(
            db_players.c.game_id.in_(ids)
        )
    )
    for r in rows:
        out.setdefault(r.game_id, {})[r.seat] = {"name": r.name, "rating": r.rating}
    return out


def _summary(row, players: dict[int, dict]) -> dict[str, Any]:
    return {
        # As text: a 63-bit id is beyond JavaScript's exact integers.
        "id": str(row["id"]),
        "game": row["game"],
        "options": row["options"],
        "players": row["players"],
        "seed": row["seed"],
        "names": [players.get(s, {}).get("name", "") for s in range(row["players"])],
        "ratings": [players.get(s, {}).get("rating") for s in range(row["players"])],
        "result": row["result"],
        "reason": row["reason"],
        "plies": row["plies"],
        "date": row["played"].isoformat() if row["played"] else None,
        "source": row["source"],
        "site_game": row["site_game"],
        "rated": row["rated"],
    }


class FinishedGames:
    """Puts every game that ends on the site into the database (hooked on the manager's
    changes, as the ratings are): its record, whether it was rated, and the ratings of the
    seats that belong to accounts when it ended."""

    def __init__(self, manager, database: GameDatabase):
        self.manager = manager
        self.database = database
        self._seen: set[str] = set()
        manager.on_change.append(self._changed)

    def _changed(self, session) -> None:
        if session.status == "over" and session.id not in self._seen and session.state.ply > 0:
            self._seen.add(session.id)
            self.manager._spawn(self._store(session.id, session.record(), session.game.family))

    async def _store(self, game_id: str, record: Record, family: str) -> None:
        try:
            await self.manager._db(self.store, game_id, record, family)
        except Exception:  # the game itself is stored; the database misses it, and says so
            import logging

            logging.getLogger("qipan.server").exception("game %s not added to the game database", game_id)

    def store(self, game_id: str, record: Record, family: str) -> bool:
        from .sitedb import game_accounts, site_games
        from .standings import Standings

        with self.database.engine.connect() as conn:
            terms = conn.execute(
                sa.select(site_games.c.rated, site_games.c.time_class).where(site_games.c.game_id == game_id)
            ).first()
            seats = dict(
                conn.execute(
                    sa.select(game_accounts.c.seat, game_accounts.c.account_id).where(
                        game_accounts.c.game_id == game_id
                    )
                ).all()
            )
        ratings: dict[int, float] = {}
        if terms is not None:
            standings = Standings(self.database.engine)
            for seat, account in seats.items():
                ratings[seat] = standings.rating(account, family, terms.time_class).rating
        try:
            return self.database.add_site_game(record, game_id, bool(terms and terms.rated), ratings)
        except QipanError:
            return False  # not replayed from the start (a toy game, a set-up position): left out
