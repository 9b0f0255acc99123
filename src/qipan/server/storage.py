"""Where games live between requests and restarts: one small interface, SQLAlchemy
underneath, so SQLite (the default, zero setup) and PostgreSQL share one implementation.

A game row holds its setup (game id, options, players, seed), its seats, clocks and
result; every move is its own row keyed by (game_id, ply), appended in a transaction that
first checks the ply, so a duplicate or stale move is rejected and never applied twice.

Several serving processes may share one database (PostgreSQL): every change of a game is
written against the game's ``version`` (``UPDATE ... WHERE version = :seen``, which takes
the row lock until commit), so two processes' changes of one game are serialised and the
one made against an old version is refused (``GameChanged``) rather than stored. A game's
lease (``game_leases``) names the process that runs its bots, clocks and ticks."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from .seats import Seat, seats_from_dicts, seats_to_dicts

#: A game waits for its seats to be taken, is played, or is over.
Status = Literal["open", "active", "over"]

metadata = sa.MetaData()

games_table = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    # open: waiting for people to join; active: being played; over: finished.
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("public", sa.Boolean, nullable=False, default=True),
    sa.Column("seats", sa.JSON, nullable=False),
    sa.Column("clock", sa.JSON, nullable=True),
    sa.Column("result", sa.JSON, nullable=True),
    # Seconds per tick for a game played in real time (None: turn-based).
    sa.Column("realtime", sa.Float, nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("updated", sa.Float, nullable=False, index=True),
    # Bumped by every stored change (see the module's docstring).
    sa.Column("version", sa.BigInteger, nullable=False, server_default="0"),
    # The draw and undo offers standing ({"draw": [seats], "undo": [seats], "undo_to": ply});
    # a move clears them.
    sa.Column("offers", sa.JSON, nullable=True),
    # The position text the game was set up from (the position editor); NULL: the rules' start.
    sa.Column("position", sa.Text, nullable=True),
)

moves_table = sa.Table(
    "moves",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("ply", sa.Integer, primary_key=True),
    sa.Column("text", sa.Text, nullable=False),
    # The seat that moved; -1 for a chance move resolved by the server.
    sa.Column("player", sa.Integer, nullable=False),
    sa.Column("spent", sa.Float, nullable=True),
    sa.Column("at", sa.Float, nullable=False),
)


processes_table = sa.Table(
    "server_processes",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("started", sa.Float, nullable=False),
    sa.Column("alive", sa.Float, nullable=False, index=True),
)


queued_table = sa.Table(
    "queued_moves",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column(
        "game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True
    ),
    # A real-time move sent to a process that does not run the game's ticks, waiting for
    # the lease holder to take it at its next tick.
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)


leases_table = sa.Table(
    "game_leases",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    # The process running the game's bots, clocks and ticks while its heartbeat is fresh.
    sa.Column("holder", sa.String(32), nullable=False, index=True),
    sa.Column("since", sa.Float, nullable=False),
)


class GameChanged(Exception):
    """The game was changed (by another process) since the version a change was made
    against: nothing was stored; the caller catches up and tries again."""


class StaleMove(Exception):
    """The move's ply is not the next one: someone else moved first, or it was sent twice."""


@dataclass
class StoredMove:
    ply: int
    text: str
    player: int
    spent: float | None = None


@dataclass
class StoredGame:
    id: str
    game: str
    options: dict
    players: int
    seed: int
    status: Status
    public: bool
    #: Stored as one dict per seat (``Seat.to_dict``).
    seats: list[Seat]
    clock: dict | None = None
    result: dict | None = None
    realtime: float | None = None
    created: float = 0.0
    updated: float = 0.0
    moves: list[StoredMove] = field(default_factory=list)
    #: The stored version: bumped by every stored change.
    version: int = 0
    #: The offers standing: {"draw": [seats], "undo": [seats], "undo_to": ply}, or None.
    offers: dict | None = None
    #: The position text the game was set up from (``game.position``); None: the rules' start.
    position: str | None = None


def normalise_url(url: str) -> str:
    """Accept ``postgresql://`` and ``postgres://`` for psycopg 3; a bare path means SQLite."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser().resolve()}"
    return url


def default_url() -> str:
    import platformdirs

    folder = Path(platformdirs.user_data_dir("qipan"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'qipan.sqlite3'}"


class Storage:
    """Games and their moves in a SQL database (SQLite or PostgreSQL). Thread-safe: the
    server calls it from a small pool of threads, at most ``workers`` at a time."""

    def __init__(self, url: str | None = None, migrate: bool = True, workers: int | None = None):
        self.url = normalise_url(url) if url else default_url()
        kwargs: dict[str, Any] = {"future": True}
        if self.url.startswith("sqlite"):
            # SQLite has one writer at a time: one thread writes, queued in order, rather
            # than several threads waiting on the file lock (busy-wait sleeps). Connections
            # move between threads (pooled), so the same-thread check is off; a long wait for
            # the lock (another process) fails after 30 s rather than at once.
            self.workers = workers or 1
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            # One pooled connection per storage thread, kept open (no ping per checkout:
            # that would be one more round trip per move; a dropped connection fails one
            # call, which the server reports as 503, and the pool then reconnects).
            self.workers = workers or 4
            kwargs.update(pool_size=self.workers, max_overflow=2, pool_recycle=1800, pool_timeout=30)
        self.engine = sa.create_engine(self.url, **kwargs)
        if self.url.startswith("sqlite"):
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        if migrate:
            from .migrate import upgrade

            upgrade(self.engine)
        # Built once: the per-move statements are then found in SQLAlchemy's cache quickly.
        self._insert_move = moves_table.insert()
        self._update_after_move = (
            games_table.update()
            .where(games_table.c.id == sa.bindparam("gid"))
            .values(
                status=sa.bindparam("status"),
                result=sa.bindparam("result", type_=sa.JSON),
                clock=sa.bindparam("clock", type_=sa.JSON),
                updated=sa.bindparam("now"),
                version=games_table.c.version + 1,
                offers=sa.null(),  # a move ends every offer
            )
        )
        self._update_after_move_at = self._update_after_move.where(
            games_table.c.version == sa.bindparam("seen")
        )
        # The usual move (one) goes to the database driver directly: SQLAlchemy's
        # statement and result layers cost about 4x the driver's own work per move
        # (0.47 against 0.09 ms CPU on SQLite, 1.1 against 0.38 ms on PostgreSQL).
        # PostgreSQL: one statement in autocommit, one round trip instead of four (BEGIN,
        # UPDATE, INSERT, COMMIT); the UPDATE in the WITH takes the row lock, the INSERT adds
        # the move only where it matched, and one statement is one transaction, so a
        # duplicate ply undoes both. The driver prepares it after a few uses.
        self._postgres = self.engine.dialect.name == "postgresql"
        driver = self.engine.dialect.dbapi
        self._driver_errors = driver.IntegrityError
        self._driver_failures = (driver.OperationalError, driver.InterfaceError)
        if self._postgres:
            self._one_move = (
                "WITH changed AS (UPDATE games SET status = %(status)s, result = %(result)s::json,"
                " clock = %(clock)s::json, updated = %(now)s, version = version + 1, offers = NULL"
                " WHERE id = %(gid)s AND version = %(seen)s RETURNING id)"
                " INSERT INTO moves (game_id, ply, text, player, spent, at)"
                " SELECT id, %(ply)s, %(text)s, %(player)s, %(spent)s, %(now)s FROM changed"
            )
        else:
            update = (
                "UPDATE games SET status = :status, result = :result, clock = :clock, updated = :now,"
                " version = version + 1, offers = NULL WHERE id = :gid"
            )
            self._one_update = {None: update, "seen": update + " AND version = :seen"}
            self._one_insert = (
                "INSERT INTO moves (game_id, ply, text, player, spent, at)"
                " VALUES (:gid, :ply, :text, :player, :spent, :now)"
            )

    def close(self) -> None:
        self.engine.dispose()

    # -- games -------------------------------------------------------------------------
    def create_game(self, game: StoredGame, holder: str | None = None) -> None:
        """Insert the game row and its first moves (``game.moves``: chance moves the server
        played at once) in one transaction; with ``holder``, that process's lease on it."""
        now = time.time()
        game.created = game.updated = now
        with self.engine.begin() as conn:
            conn.execute(
                games_table.insert().values(
                    id=game.id,
                    game=game.game,
                    options=game.options,
                    players=game.players,
                    seed=game.seed,
                    status=game.status,
                    public=game.public,
                    seats=seats_to_dicts(game.seats),
                    clock=game.clock,
                    result=game.result,
                    realtime=game.realtime,
                    created=now,
                    updated=now,
                    version=game.version,
                    position=game.position,
                )
            )
            if game.moves:
                conn.execute(self._insert_move, _move_rows(game.id, 0, game.moves, now))
            if holder is not None:
                conn.execute(leases_table.insert().values(game_id=game.id, holder=holder, since=now))

    def update_game(self, game_id: str, version: int | None = None, **fields: Any) -> None:
        """Change a game's status, seats, clock or result; with ``version``, only if the game
        is still at that version (GameChanged otherwise)."""
        fields["updated"] = time.time()
        with self.engine.begin() as conn:
            _update_at(conn, game_id, version, fields)

    def get_game(self, game_id: str) -> StoredGame | None:
        with self.engine.connect() as conn:
            row = conn.execute(games_table.select().where(games_table.c.id == game_id)).mappings().first()
            if row is None:
                return None
            moves = conn.execute(
                sa.select(moves_table.c.ply, moves_table.c.text, moves_table.c.player, moves_table.c.spent)
                .where(moves_table.c.game_id == game_id)
                .order_by(moves_table.c.ply)
            ).all()
        game = _game_from_row(row)
        game.moves = [StoredMove(m.ply, m.text, m.player, m.spent) for m in moves]
        return game

    def list_games(
        self, status: str | None = None, limit: int = 50, public_only: bool = False
    ) -> list[StoredGame]:
        """Games (without their moves), most recently updated first."""
        query = games_table.select().order_by(games_table.c.updated.desc()).limit(limit)
        if status is not None:
            query = query.where(games_table.c.status == status)
        if public_only:
            query = query.where(games_table.c.public.is_(True))
        with self.engine.connect() as conn:
            return [_game_from_row(row) for row in conn.execute(query).mappings()]

    def versions(self, game_ids: list[str]) -> dict[str, int]:
        """The stored version of each of these games (those that exist)."""
        if not game_ids:
            return {}
        query = sa.select(games_table.c.id, games_table.c.version).where(games_table.c.id.in_(game_ids))
        with self.engine.connect() as conn:
            return dict(conn.execute(query).all())

    def unfinished_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(games_table.c.id).where(games_table.c.status != "over"))
            return [r.id for r in rows]

    # -- serving processes -------------------------------------------------------------
    def process_periods(self, exclude: str | None = None) -> list[tuple[float, float]]:
        """When each serving process (other than ``exclude``) ran: (started, last alive)."""
        query = sa.select(processes_table.c.started, processes_table.c.alive)
        if exclude is not None:
            query = query.where(processes_table.c.id != exclude)
        with self.engine.connect() as conn:
            return [(r.started, r.alive) for r in conn.execute(query)]

    def heartbeat(self, process: str, now: float, forget_before: float | None = None) -> None:
        """Record that ``process`` is running at ``now`` (and drop processes silent since
        ``forget_before``)."""
        with self.engine.begin() as conn:
            done = conn.execute(
                processes_table.update().where(processes_table.c.id == process).values(alive=now)
            ).rowcount
            if not done:
                conn.execute(processes_table.insert().values(id=process, started=now, alive=now))
            if forget_before is not None:
                conn.execute(processes_table.delete().where(processes_table.c.alive < forget_before))

    # -- moves -------------------------------------------------------------------------
    def append_moves(
        self,
        game_id: str,
        first_ply: int,
        moves: list[StoredMove],
        status: str,
        result: dict | None,
        clock: dict | None,
        version: int | None = None,
    ) -> None:
        """Append moves starting at ``first_ply`` and set the game's status, result and
        clock, all in one transaction. With ``version``, only if the game is still at that
        version: the row update comes first and holds the row lock, so another process's
        change of the game waits, then finds a new version (GameChanged, nothing stored).
        The primary key (game_id, ply) makes a duplicate or stale ply fail too: StaleMove
        is raised and nothing is stored. (The server checks the ply against the live game
        first, so there are never gaps.)"""
        now = time.time()
        if len(moves) == 1 and (version is not None or not self._postgres):
            return self._append_one(game_id, first_ply, moves[0], status, result, clock, version, now)
        rows = _move_rows(game_id, first_ply, moves, now)
        values = {"gid": game_id, "status": status, "result": result, "clock": clock, "now": now}
        try:
            with self.engine.begin() as conn:
                if version is None:
                    conn.execute(self._update_after_move, values)
                elif conn.execute(self._update_after_move_at, values | {"seen": version}).rowcount != 1:
                    raise GameChanged(f"game {game_id} is no longer at version {version}")
                if rows:
                    conn.execute(self._insert_move, rows)
        except IntegrityError as exc:
            raise StaleMove(f"ply {first_ply} was already played") from exc

    def _append_one(
        self,
        game_id: str,
        ply: int,
        move: StoredMove,
        status: str,
        result: dict | None,
        clock: dict | None,
        version: int | None,
        now: float,
    ) -> None:
        """``append_moves`` of one move, on a pooled connection's driver (see __init__)."""
        params = {
            "gid": game_id,
            "seen": version,
            "status": status,
            "result": json.dumps(result) if result is not None else None,
            "clock": json.dumps(clock) if clock is not None else None,
            "now": now,
            "ply": ply,
            "text": move.text,
            "player": move.player,
            "spent": move.spent,
        }
        pooled = self.engine.raw_connection()
        try:
            if self._postgres:
                driver = pooled.driver_connection
                driver.autocommit = True  # the pool hands connections out idle
                try:
                    added = driver.execute(self._one_move, params).rowcount
                finally:
                    driver.autocommit = False
            else:
                cursor = pooled.cursor()
                cursor.execute("BEGIN")
                try:
                    added = cursor.execute(
                        self._one_update[None if version is None else "seen"], params
                    ).rowcount
                    if added == 1 or version is None:
                        cursor.execute(self._one_insert, params)
                        pooled.commit()
                    else:
                        pooled.rollback()
                except BaseException:
                    pooled.rollback()
                    raise
        except self._driver_errors as exc:
            raise StaleMove(f"ply {ply} was already played") from exc
        except self._driver_failures:
            pooled.invalidate()  # perhaps a dropped connection: the pool opens a new one
            raise
        finally:
            pooled.close()  # back to the pool
        if version is not None and added != 1:
            raise GameChanged(f"game {game_id} is no longer at version {version}")

    def truncate_moves(self, game_id: str, keep: int, version: int | None = None, **game_fields: Any) -> None:
        """Delete every move from ply ``keep`` on (an agreed undo), with the game row update
        (only at ``version``, as in ``update_game``); the offers end with it."""
        game_fields["updated"] = time.time()
        game_fields.setdefault("offers", sa.null())
        with self.engine.begin() as conn:
            _update_at(conn, game_id, version, game_fields)
            conn.execute(
                moves_table.delete().where(moves_table.c.game_id == game_id, moves_table.c.ply >= keep)
            )

    # -- real-time moves for the tick holder --------------------------------------------
    def take_queued(self, game_id: str) -> list[tuple[int, str]]:
        """The moves left for this game (seat, text), oldest first, deleted as they are
        read (one statement: two takers never get the same move)."""
        query = (
            queued_table.delete()
            .where(queued_table.c.game_id == game_id)
            .returning(queued_table.c.id, queued_table.c.seat, queued_table.c.text)
        )
        with self.engine.begin() as conn:
            rows = conn.execute(query).all()
        return [(r.seat, r.text) for r in sorted(rows)]

    # -- leases ------------------------------------------------------------------------
    def claim_orphans(self, holder: str, stale_before: float, limit: int = 100) -> list[str]:
        """Take over the leases of unfinished games whose holder's heartbeat is older than
        ``stale_before`` (or who has none), and of unfinished games without a lease; returns
        the games now held by ``holder``. Each claim is conditional on the old holder, so
        of several processes claiming at once exactly one gets each game."""
        now = time.time()
        live = sa.select(processes_table.c.id).where(processes_table.c.alive >= stale_before)
        orphaned = (
            sa.select(leases_table.c.game_id, leases_table.c.holder)
            .join(games_table, games_table.c.id == leases_table.c.game_id)
            .where(games_table.c.status != "over", leases_table.c.holder.not_in(live))
            .limit(limit)
        )
        unleased = (
            sa.select(games_table.c.id)
            .outerjoin(leases_table, leases_table.c.game_id == games_table.c.id)
            .where(games_table.c.status != "over", leases_table.c.game_id.is_(None))
            .limit(limit)
        )
        claimed = []
        with self.engine.begin() as conn:
            for game_id, old in conn.execute(orphaned).all():
                done = conn.execute(
                    leases_table.update()
                    .where(leases_table.c.game_id == game_id, leases_table.c.holder == old)
                    .values(holder=holder, since=now)
                ).rowcount
                if done:
                    claimed.append(game_id)
            for (game_id,) in conn.execute(unleased).all():
                if self._lease_new(conn, game_id, holder, now):
                    claimed.append(game_id)
        return claimed

    def _lease_new(self, conn: sa.Connection, game_id: str, holder: str, now: float) -> bool:
        """Take the lease of a game nobody holds; False where another process took it first
        (so two processes never both run it)."""
        return insert_if_new(conn, leases_table, game_id=game_id, holder=holder, since=now)

    def leases_of(self, holder: str) -> set[str]:
        """The games whose lease ``holder`` has."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(leases_table.c.game_id).where(leases_table.c.holder == holder))
            return {r.game_id for r in rows}

    def release_lease(self, game_id: str | None, holder: str) -> None:
        """Give up a game's lease (it ended), or with ``game_id`` None every lease of
        ``holder`` (it stops: the other processes take its games over at once)."""
        query = leases_table.delete().where(leases_table.c.holder == holder)
        if game_id is not None:
            query = query.where(leases_table.c.game_id == game_id)
        with self.engine.begin() as conn:
            conn.execute(query)


def _update_at(conn: Any, game_id: str, version: int | None, fields: dict) -> None:
    """Update a game row and bump its version; with ``version``, only from that version."""
    if "seats" in fields:
        fields["seats"] = seats_to_dicts(fields["seats"])
    query = games_table.update().where(games_table.c.id == game_id)
    if version is not None:
        query = query.where(games_table.c.version == version)
    done = conn.execute(query.values(version=games_table.c.version + 1, **fields)).rowcount
    if version is not None and done != 1:
        raise GameChanged(f"game {game_id} is no longer at version {version}")


def insert_if_new(conn: sa.Connection, table: sa.Table, **values: Any) -> bool:
    """INSERT a row unless its primary key is taken (PostgreSQL and SQLite); whether it went
    in. RETURNING decides, not rowcount: psycopg reports -1 (true) for an INSERT ... ON
    CONFLICT DO NOTHING that inserted nothing."""
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    key = next(iter(table.primary_key.columns))
    return (
        conn.execute(insert(table).on_conflict_do_nothing().values(**values).returning(key)).first()
        is not None
    )


def _move_rows(game_id: str, first_ply: int, moves: list[StoredMove], now: float) -> list[dict]:
    return [
        {
            "game_id": game_id,
            "ply": first_ply + i,
            "text": m.text,
            "player": m.player,
            "spent": m.spent,
            "at": now,
        }
        for i, m in enumerate(moves)
    ]


def _game_from_row(row: Any) -> StoredGame:
    return StoredGame(
        id=row["id"],
        game=row["game"],
        options=dict(row["options"] or {}),
        players=row["players"],
        seed=row["seed"],
        status=row["status"],
        public=bool(row["public"]),
        seats=seats_from_dicts(row["seats"]),
        clock=row["clock"],
        result=row["result"],
        realtime=row["realtime"],
        created=row["created"],
        updated=row["updated"],
        version=row["version"],
        offers=row["offers"],
        position=row["position"],
    )


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    # WAL keeps readers and the writer apart; NORMAL sync is durable across process crashes.
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
