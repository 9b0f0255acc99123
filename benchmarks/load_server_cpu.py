"""CPU cost of one move inside the server, without the network: validate and play it,
store it (SQLite or --db), describe the new state for the clients and encode it as JSON.
CPU time (not wall time), so the figure holds on a busy machine too.

    .venv/bin/python benchmarks/load_server_cpu.py --games 50 --moves 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time

from qipan.server.manager import Manager
from qipan.server.storage import Storage


async def run(args) -> None:
    storage = Storage(args.db or f"sqlite:///{tempfile.mkdtemp(prefix='qipan-cpu-')}/cpu.sqlite3")
    manager = Manager(storage)
    rng = random.Random(args.seed)
    two = {"kind": "human", "join": True}
    games = [
        await manager.create({"game": args.game, "seats": [two, two], "seed": i}) for i in range(args.games)
    ]
    cost = {"play + store": 0.0, "describe": 0.0, "json": 0.0}
    moves = 0
    for _ in range(args.moves):
        for session, tickets in games:
            if session.status != "active":
                continue
            token = next(t["token"] for t in tickets if t["seat"] == session.state.to_move)
            move = rng.choice(session.state.legal_moves()).text
            t0 = time.process_time()
            await manager.move(session.id, token, move, session.state.ply)
            t1 = time.process_time()
            described = session.describe()
            t2 = time.process_time()
            json.dumps(described, ensure_ascii=False)
            t3 = time.process_time()
            cost["play + store"] += t1 - t0
            cost["describe"] += t2 - t1
            cost["json"] += t3 - t2
            moves += 1
        await asyncio.sleep(0)  # let the broadcasts (to nobody) finish
    await manager.stop()
    storage.close()
    total = sum(cost.values())
    parts = ", ".join(f"{k} {1000 * v / moves:.2f}" for k, v in cost.items())
    print(
        f"{args.game}, {storage.url.split(':')[0]}: {moves} moves; ms CPU per move: {parts}; "
        f"total {1000 * total / moves:.2f} -> {moves / total:.0f} moves per CPU second"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="nine-mens-morris")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--db", default=None, help="database URL (default: a temporary SQLite file)")
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
