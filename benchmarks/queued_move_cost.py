"""What a real-time move costs the store now that it waits for its tick in ``queued_moves``
(``qipan.server.queued``): storing it (``QueuedMoves.add``) and the tick that plays it
(``append_taking``: the move and the row's deletion in one transaction), against a plain
tick (``Storage.append_moves``: a pass nobody clicked). Prints CPU and wall ms per move.

    .venv/bin/python benchmarks/queued_move_cost.py --db postgresql://postgres@127.0.0.1:5432/test
    .venv/bin/python benchmarks/queued_move_cost.py --db sqlite:////tmp/queued_cost.sqlite3

It makes two games with random ids in that database and deletes them at the end.
"""

from __future__ import annotations

import argparse
import time
import uuid

from qipan.server.queued import QueuedMoves
from qipan.server.storage import Storage, StoredGame, StoredMove, games_table


def per_move(moves: int, body) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    body()
    return 1e3 * (time.process_time() - cpu) / moves, 1e3 * (time.perf_counter() - wall) / moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="a SQLAlchemy URL (PostgreSQL or SQLite)")
    parser.add_argument("--moves", type=int, default=300)
    args = parser.parse_args()
    storage = Storage(args.db)
    queue = QueuedMoves(storage)
    plain, queued = (f"bench{uuid.uuid4().hex[:10]}" for _ in range(2))
    seats = [{"kind": "human", "joined": True}]
    for game_id in (plain, queued):  # the game itself is never replayed: any registered id
        storage.create_game(StoredGame(game_id, "pipemania", {}, 1, 1, "active", True, seats, realtime=1.0))

    def ticks() -> None:
        for ply in range(args.moves):
            storage.append_moves(plain, ply, [StoredMove(ply, "-", 0, 1.0)], "active", None, None, ply)

    def clicks() -> None:
        for ply in range(args.moves):
            row = queue.add(queued, 0, "p0,0", 3)
            queue.append_taking(
                queued, ply, [StoredMove(ply, "p0,0", 0, 1.0)], "active", None, None, ply, [row]
            )

    try:
        tick_cpu, tick_wall = per_move(args.moves, ticks)
        move_cpu, move_wall = per_move(args.moves, clicks)
    finally:
        with storage.engine.begin() as conn:
            conn.execute(games_table.delete().where(games_table.c.id.in_([plain, queued])))
        storage.close()
    print(
        f"{storage.engine.dialect.name}, {args.moves} moves: plain tick {tick_cpu:.3f} ms CPU "
        f"{tick_wall:.3f} ms wall; queued move (add + append_taking) {move_cpu:.3f} ms CPU "
        f"{move_wall:.3f} ms wall"
    )


if __name__ == "__main__":
    main()
