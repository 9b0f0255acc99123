"""CPU cost of one move inside the server, without the network: validate and play it,
store it (SQLite or --db), then tell the game's two players (the broadcast: describe the
new state, the per-change update for each listener, JSON). CPU time of the whole process
(the storage thread included), not wall time, so the figure holds on a busy machine too.
The garbage collector is tuned as in the serving process once the games are set up
(``QIPAN_GC=default`` keeps Python's defaults, as before that tuning).

    .venv/bin/python benchmarks/load_server_cpu.py --games 50 --moves 30
    .venv/bin/python benchmarks/load_server_cpu.py --game pente --profile 25   # where it goes
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import random
import tempfile
import time

from load_ws import scratch_database
from qipan.server.app import _settle_heap
from qipan.server.manager import Connection, Manager
from qipan.server.storage import Storage


async def run(args) -> None:
    storage = Storage(args.database)
    manager = Manager(storage)
    rng = random.Random(args.seed)
    two = {"kind": "human", "join": True}
    games = []
    sent: list[int] = []

    async def listen(text: str) -> None:
        sent.append(len(text))

    for i in range(args.games):
        session, tickets = await manager.create({"game": args.game, "seats": [two, two], "seed": i})
        for seat in (0, 1):  # both players listen, as over WebSocket
            manager.subscribe(session, Connection(listen, seat))
        games.append((session, tickets))
    await asyncio.gather(*list(manager.tasks))  # the presence broadcasts of the subscriptions
    sent.clear()
    _settle_heap()  # as the serving process does once started
    profile = cProfile.Profile(time.process_time) if args.profile else None
    cost = {"play + store": 0.0, "tell two listeners": 0.0}
    moves = 0
    for _ in range(args.moves):
        for session, tickets in games:
            if session.status != "active":
                continue
            token = next(t["token"] for t in tickets if t["seat"] == session.state.to_move)
            move = rng.choice(session.state.legal_moves()).text
            if profile:
                profile.enable()
            t0 = time.process_time()
            await manager.move(session.id, token, move, session.state.ply)
            t1 = time.process_time()
            await asyncio.gather(*list(manager.tasks))  # the broadcast the move spawned
            t2 = time.process_time()
            if profile:
                profile.disable()
            cost["play + store"] += t1 - t0
            cost["tell two listeners"] += t2 - t1
            moves += 1
    await manager.stop()
    storage.close()
    total = sum(cost.values())
    parts = ", ".join(f"{k} {1000 * v / moves:.2f}" for k, v in cost.items())
    print(
        f"{args.game}, {storage.url.split(':')[0]}: {moves} moves, {len(sent) / moves:.1f} messages "
        f"of {sum(sent) / max(1, len(sent)):.0f} bytes each per move; ms CPU per move: {parts}; "
        f"total {1000 * total / moves:.2f} -> {moves / total:.0f} moves per CPU second"
    )
    if profile:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(args.profile)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="nine-mens-morris")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--db", default=None, help="database URL (default: a temporary SQLite file)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--profile", type=int, default=0, help="print the N costliest calls (cProfile, CPU clock)"
    )
    args = parser.parse_args()
    default = f"sqlite:///{tempfile.mkdtemp(prefix='qipan-cpu-')}/cpu.sqlite3"
    # A PostgreSQL --db names the server: the games go to a scratch database, dropped after.
    with scratch_database(args.db or default, reuse=False) as args.database:
        asyncio.run(run(args))


if __name__ == "__main__":
    main()
