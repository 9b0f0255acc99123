"""Real-time moves waiting for their seat's next tick, kept in the store until played.

A real-time move is acknowledged only once it is a row of ``queued_moves`` (migration 0007),
whichever process it reached: a holder that dies before its next tick loses nothing, the
process that takes the game over reads the rows and plays them. A queued move leaves the
table in the same transaction that stores the tick playing it (``append_taking``), so a
move is played once: a crash before that commit leaves the row for the next holder, after
it the row is gone. The rows a process holds in memory (``Session.queued``) only save it a
read per tick; the table is what counts."""

from __future__ import annotations

import time

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from .storage import GameChanged, StaleMove, Storage, StoredMove, _move_rows, queued_table


class QueuedMoves:
    """The ``queued_moves`` rows of a store (blocking calls: run them in the storage threads)."""

    def __init__(self, storage: Storage):
        self.storage = storage
        self.engine = storage.engine
        # Built once, with bound parameters: SQLAlchemy then finds them in its cache quickly.
        q = queued_table.c
        gid, seat = sa.bindparam("gid", type_=q.game_id.type), sa.bindparam("seat", type_=sa.Integer)
        waiting = sa.select(sa.func.count()).where(q.game_id == gid, q.seat == seat).scalar_subquery()
        values = sa.select(
            sa.cast(gid, q.game_id.type),
            sa.cast(seat, sa.Integer),
            sa.cast(sa.bindparam("text", type_=sa.Text), sa.Text),
            sa.cast(sa.bindparam("at", type_=sa.Float), sa.Float),
        ).where(waiting < sa.bindparam("most", type_=sa.Integer))
        self._add = (
            queued_table.insert().from_select(["game_id", "seat", "text", "at"], values).returning(q.id)
        )
        self._delete = queued_table.delete().where(q.id.in_(sa.bindparam("ids", expanding=True)))

    def add(self, game_id: str, seat: int, text: str, most: int) -> int | None:
        """Store ``seat``'s move for its next tick; returns its row id, or None if ``most``
        moves of the seat wait already (counted in the same statement)."""
        values = {"gid": game_id, "seat": seat, "text": text, "at": time.time(), "most": most}
        with self.engine.begin() as conn:
            return conn.execute(self._add, values).scalar()

    def waiting(self, game_id: str) -> list[tuple[int, int, str]]:
        """The game's waiting moves (row id, seat, text), oldest first; read, not taken."""
        query = (
            sa.select(queued_table.c.id, queued_table.c.seat, queued_table.c.text)
            .where(queued_table.c.game_id == game_id)
            .order_by(queued_table.c.id)
        )
        with self.engine.connect() as conn:
            return [(r.id, r.seat, r.text) for r in conn.execute(query)]

    def append_taking(
        self,
        game_id: str,
        first_ply: int,
        moves: list[StoredMove],
        status: str,
        result: dict | None,
        clock: dict | None,
        version: int,
        taken: list[int],
    ) -> None:
        """``Storage.append_moves`` at ``version`` that also deletes the queued rows ``taken``
        (the move played and the ones dropped as no longer legal), in one transaction. If
        any of them is gone (another process played it), nothing is stored: GameChanged."""
        values = {"gid": game_id, "status": status, "result": result, "clock": clock, "now": time.time()}
        rows = _move_rows(game_id, first_ply, moves, values["now"])
        try:
            with self.engine.begin() as conn:
                update = self.storage._update_after_move_at  # the statement append_moves uses
                if conn.execute(update, values | {"seen": version}).rowcount != 1:
                    raise GameChanged(f"game {game_id} is no longer at version {version}")
                conn.execute(self.storage._insert_move, rows)
                gone = conn.execute(self._delete, {"ids": list(taken)}).rowcount
                if gone != len(set(taken)):
                    raise GameChanged(f"game {game_id}: a queued move was taken by another process")
        except IntegrityError as exc:
            raise StaleMove(f"ply {first_ply} was already played") from exc
