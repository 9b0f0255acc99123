"""Another game's move round-trips while sockets send 1 MiB WebSocket frames.

The server's frame limit is 64 KiB (server/limits.py ``max_frame``): a larger frame closes
its connection when its header is read, before its payload is. Before, the limit was 1 MiB
and each such frame cost ~12 ms of the event loop (40 sockets x 5 frames took another
game's p99 to 508 ms). Here --sockets flooders in another process each send --frames
frames of --size bytes as spectators of a third game, reconnecting after each close
(bounded: sockets x frames frames in all, and the flood's own time), while a Nine Men's
Morris game is played over WebSocket; its move round-trips are printed alone and during
the flood, with the CPU the server and the flooders spent.

The server runs with its default limits (``--limits``). The flooders connect from
127.0.0.2, an address of their own: the players' 127.0.0.1 is also the address the server
trusts as its reverse proxy's, which it neither caps nor paces per address (a proxy
carries many visitors). The flooders stand for another machine, so their process runs
at the lowest priority (``--flooder-nice 9`` over the benchmark's): on a shared machine
their own CPU would otherwise be taken from the server's and players' share, which a
remote attacker's is not. Loopback only.

    nice -n 10 .venv/bin/python benchmarks/frame_flood.py --sockets 40 --frames 5 --moves 100
    (--wrapper benchmarks/loop_stalls.py: where the server's event loop stalled, and why)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flood_ws import new_game, play, report  # noqa: E402
from load_ws import start_server  # noqa: E402

#: The flooders' address: 127.0.0.1, the players', is also the address the server trusts as
#: its reverse proxy's (not capped or paced per address: connections.py, socket_pace.py).
ATTACKER = "127.0.0.2"


async def flood_socket(url: str, frames: int, payload: str, sent: list[int], stop) -> None:
    for _ in range(frames):
        if stop.is_set():
            return
        try:
            # A spectator, from an address of its own (not the players' 127.0.0.1).
            async with connect(url, max_size=None, open_timeout=30, local_addr=(ATTACKER, 0)) as ws:
                await ws.send(payload)
                sent[0] += 1
                async with asyncio.timeout(30):
                    async for _ in ws:  # until the server closes it
                        pass
        except Exception:  # noqa: BLE001 - closed by the server, as expected
            pass


async def flood(url: str, sockets: int, frames: int, size: int, started, stop, done) -> None:
    sent = [0]
    begun = time.perf_counter()
    payload = json.dumps({"type": "ping", "pad": "x" * size})  # one for all (the flooder's CPU)
    tasks = [asyncio.create_task(flood_socket(url, frames, payload, sent, stop)) for _ in range(sockets)]
    started.set()
    await asyncio.gather(*tasks)
    done.put((sent[0], time.perf_counter() - begun, time.process_time()))


def clock(at: float) -> str:
    """A wall-clock time to the millisecond (to find it in loop_stalls.py's report)."""
    return time.strftime("%H:%M:%S", time.localtime(at)) + f".{int(at % 1 * 1000):03d}"


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far, user and system (Linux: /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def flood_process(niceness: int, *args) -> None:
    if niceness:
        os.nice(niceness)
    asyncio.run(flood(*args))


async def run(args) -> None:
    db = f"sqlite:///{tempfile.mkdtemp(prefix='qipan-frames-')}/frames.sqlite3"
    proc, base = start_server(db, args.limits, wrapper=args.wrapper)
    ws_base = base.replace("http", "ws", 1)
    rng = random.Random(args.seed)
    try:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            _, quiet, quiet_tasks = await new_game(http, ws_base, args.game)
            report("alone", await play(quiet, args.moves, rng))
            seats = [{"kind": "human", "join": True}, {"kind": "human", "join": True}]
            target = (await http.post("/api/games", json={"game": args.game, "seats": seats})).json()
            _, players, tasks = await new_game(http, ws_base, args.game)
            started, stop, done = multiprocessing.Event(), multiprocessing.Event(), multiprocessing.Queue()
            flooder = multiprocessing.Process(
                target=flood_process,
                args=(
                    args.flooder_nice,
                    f"{ws_base}/ws/games/{target['id']}",
                    args.sockets,
                    args.frames,
                    args.size,
                    started,
                    stop,
                    done,
                ),
            )
            server_cpu = cpu_seconds(proc.pid)
            flooder.start()
            await asyncio.get_running_loop().run_in_executor(None, started.wait, 120)
            starts: list[float] = []
            times = await play(players, args.moves, rng, starts)
            report(f"during {args.sockets} sockets x {args.frames} frames of {args.size:,} bytes", times)
            slowest = sorted(range(len(times)), key=lambda i: -times[i])[:3]
            print(
                "slowest:",
                ", ".join(f"move {i} at {clock(starts[i])} {times[i] * 1000:.0f} ms" for i in slowest),
            )
            sent, lasted, flooder_cpu = done.get(timeout=120)
            server_cpu = cpu_seconds(proc.pid) - server_cpu
            stop.set()
            print(
                f"flood: {sent} frames sent in {lasted:.1f} s; CPU s: server {server_cpu:.2f} "
                f"(from the flood's start to its end), flooder {flooder_cpu:.2f}"
            )
            flooder.join(30)
            for task in quiet_tasks + tasks:
                task.cancel()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sockets", type=int, default=40)
    parser.add_argument("--frames", type=int, default=5)
    parser.add_argument("--size", type=int, default=1 << 20)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--game", default="nine-mens-morris")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limits", default="Limits()", help="the server's limits, a Limits expression")
    parser.add_argument(
        "--flooder-nice",
        type=int,
        default=9,
        help="niceness added to the flooders' process (0: the players' priority)",
    )
    parser.add_argument(
        "--wrapper", default=None, help="a Python file that runs the server code it is given (loop_stalls.py)"
    )
    args = parser.parse_args()
    if args.sockets > 200 or args.frames > 50 or args.size > 8 << 20 or args.moves > 500:
        raise SystemExit("at most 200 sockets, 50 frames each, 8 MiB frames and 500 moves")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
