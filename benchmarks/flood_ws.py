"""One WebSocket floods the server with messages while another game is played: how long do
that game's moves take? (Loopback only, bounded: --flood messages, --moves moves.)

Starts the server in a subprocess with the default per-connection message rate and no
per-address rate (every client here is 127.0.0.1, so a per-address limit would refuse the
players' moves too, which is what it is for), plays --moves moves of a Nine Men's Morris
game over WebSocket, first alone and then while one socket of another game sends --flood
pings as fast as it can, and prints the move round-trips both times.

    .venv/bin/python benchmarks/flood_ws.py --flood 20000 --moves 40
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_ws import Player, percentile, start_server  # noqa: E402


async def new_game(http, ws_base: str, game: str) -> tuple[str, list[Player], list[asyncio.Task]]:
    r = await http.post(
        "/api/games",
        json={"game": game, "seats": [{"kind": "human", "join": True}, {"kind": "human", "join": True}]},
    )
    created = r.json()
    players, tasks = [], []
    for seat in sorted(created["seats"], key=lambda s: s["seat"]):
        ws = await connect(
            f"{ws_base}/ws/games/{created['id']}",
            additional_headers={"Authorization": f"Bearer {seat['token']}"},
        )
        player = Player(ws, seat["seat"])
        tasks.append(asyncio.create_task(player.read()))
        players.append(player)
    for p in players:
        await p.wait(lambda s: True)
    return created["id"], players, tasks


async def play(
    players: list[Player], moves: int, rng: random.Random, starts: list[float] | None = None
) -> list[float]:
    """The round-trip of each move (seconds); ``starts``: gets each move's wall-clock start."""
    times = []
    for _ in range(moves):
        seat = players[0].state["to_move"]
        if seat is None:
            break
        state = players[seat].state
        if state["status"] != "active" or not state["legal"]:
            break
        ply = state["ply"]
        start = time.perf_counter()
        if starts is not None:
            starts.append(time.time())
        await players[seat].ws.send(
            json.dumps({"type": "move", "move": rng.choice(state["legal"])["text"], "ply": ply})
        )
        for p in players:
            await p.wait(lambda s, ply=ply: s["ply"] > ply)
        times.append(time.perf_counter() - start)
        await asyncio.sleep(0.05)
    return times


async def flood(ws_url: str, token: str, count: int, started, stop, done) -> None:
    """Send up to ``count`` pings as fast as the server takes them (reading its replies)
    until ``stop`` is set; then put the number refused with 429 and the connection's state
    on ``done``."""
    async with connect(ws_url, additional_headers={"Authorization": f"Bearer {token}"}) as ws:
        flooder = Player(ws, 0)  # the flood game's first seat (its token)
        reader = asyncio.create_task(flooder.read())
        await flooder.wait(lambda s: True)

        async def send() -> None:
            for i in range(count):
                await ws.send(json.dumps({"type": "ping", "id": i}))
                if i == 100:
                    started.set()

        sender = asyncio.create_task(send())
        while not stop.is_set() and not sender.done():
            await asyncio.sleep(0.05)
        sender.cancel()
        done.put((flooder.errors, ws.state.name))
        reader.cancel()


def flood_process(*args) -> None:
    """The flooder in its own process: in the measuring client's event loop its send loop
    would delay the measured game's messages there, not in the server."""
    asyncio.run(flood(*args))


def report(label: str, times: list[float]) -> None:
    ms = [t * 1000 for t in times]
    print(
        f"{label}: {len(ms)} moves, round-trip ms p50 {percentile(ms, 0.5):.1f}  p99 {percentile(ms, 0.99):.1f}  "
        f"max {max(ms):.1f}  mean {statistics.mean(ms):.1f}"
    )


async def run(args) -> None:
    db = f"sqlite:///{tempfile.mkdtemp(prefix='qipan-flood-')}/flood.sqlite3"
    limits = "Limits(ws_address_rate=None, http_rate=None)"
    proc, base = start_server(db, limits)
    ws_base = base.replace("http", "ws", 1)
    rng = random.Random(args.seed)
    try:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            _, quiet, quiet_tasks = await new_game(http, ws_base, args.game)
            report("alone", await play(quiet, args.moves, rng))
            flood_game = (
                await http.post(
                    "/api/games",
                    json={
                        "game": args.game,
                        "seats": [{"kind": "human", "join": True}, {"kind": "human", "join": True}],
                    },
                )
            ).json()
            _, players, tasks = await new_game(http, ws_base, args.game)
            started, stop, done = multiprocessing.Event(), multiprocessing.Event(), multiprocessing.Queue()
            url = f"{ws_base}/ws/games/{flood_game['id']}"
            token = flood_game["seats"][0]["token"]
            flooder = multiprocessing.Process(
                target=flood_process, args=(url, token, args.flood, started, stop, done)
            )
            flooder.start()
            await asyncio.get_running_loop().run_in_executor(None, started.wait, 120)
            times = await play(players, args.moves, rng)
            report(f"while one socket (another process) sends up to {args.flood} messages", times)
            stop.set()
            refused, state = done.get(timeout=60)
            flooder.join(10)
            print(
                f"flood: {refused} messages refused with 429 while the game was played (connection kept: {state})"
            )
            for task in quiet_tasks + tasks:
                task.cancel()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--flood", type=int, default=20000)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--game", default="nine-mens-morris")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.flood > 100_000:
        raise SystemExit("at most 100,000 messages")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
