"""Where games live between requests and restarts: one small interface, SQLAlchemy
underneath, so SQLite (the default, zero setup) and PostgreSQL share one implementation.

A game row holds its setup (game id, options, players, seed), its seats, clocks and
result; every move is its own row keyed by (game_id, ply), appended in a transaction that
first checks the ply, so a duplicate or stale move is rejected and never applied twice."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

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
    status: str
    public: bool
    #: One dict per seat: kind ("human"/"bot"), name, token, joined, agent, limits.
    seats: list[dict]
    clock: dict | None = None
    result: dict | None = None
    realtime: float | None = None
    created: float = 0.0
    updated: float = 0.0
    moves: list[StoredMove] = field(default_factory=list)


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
            )
        )

    def close(self) -> None:
        self.engine.dispose()

    # -- games -------------------------------------------------------------------------
    def create_game(self, game: StoredGame) -> None:
        """Insert the game row and its first moves (``game.moves``: chance moves the server
        played at once) in one transaction."""
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
                    seats=game.seats,
                    clock=game.clock,
                    result=game.result,
                    realtime=game.realtime,
                    created=now,
                    updated=now,
                )
            )
            if game.moves:
                conn.execute(self._insert_move, _move_rows(game.id, 0, game.moves, now))

    def update_game(self, game_id: str, **fields: Any) -> None:
        """Change a game's status, seats, clock or result."""
        fields["updated"] = time.time()
        with self.engine.begin() as conn:
            conn.execute(games_table.update().where(games_table.c.id == game_id).values(**fields))

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

    def unfinished_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(games_table.c.id).where(games_table.c.status != "over"))
            return [r.id for r in rows]

    # -- serving processes -------------------------------------------------------------
    def last_alive(self, exclude: str | None = None) -> float | None:
        """When a serving process (other than ``exclude``) was last known to be running."""
        query = sa.select(sa.func.max(processes_table.c.alive))
        if exclude is not None:
            query = query.where(processes_table.c.id != exclude)
        with self.engine.connect() as conn:
            return conn.execute(query).scalar()

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
    ) -> None:
        """Append moves starting at ``first_ply`` and set the game's status, result and
        clock, all in one transaction. The primary key (game_id, ply) makes a duplicate or
        stale ply fail: StaleMove is raised and nothing is stored. (The server checks the
        ply against the live game first, so there are never gaps.)"""
        now = time.time()
        rows = _move_rows(game_id, first_ply, moves, now)
        try:
            with self.engine.begin() as conn:
                if rows:
                    conn.execute(self._insert_move, rows)
                conn.execute(
                    self._update_after_move,
                    {"gid": game_id, "status": status, "result": result, "clock": clock, "now": now},
                )
        except IntegrityError as exc:
            raise StaleMove(f"ply {first_ply} was already played") from exc

    def truncate_moves(self, game_id: str, keep: int, **game_fields: Any) -> None:
        """Delete every move from ply ``keep`` on (an agreed undo), with the game row update."""
        game_fields["updated"] = time.time()
        with self.engine.begin() as conn:
            conn.execute(
                moves_table.delete().where(moves_table.c.game_id == game_id, moves_table.c.ply >= keep)
            )
            conn.execute(games_table.update().where(games_table.c.id == game_id).values(**game_fields))


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
        seats=list(row["seats"]),
        clock=row["clock"],
        result=row["result"],
        realtime=row["realtime"],
        created=row["created"],
        updated=row["updated"],
    )


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    # WAL keeps readers and the writer apart; NORMAL sync is durable across process crashes.
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
