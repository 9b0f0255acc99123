"""Load test of the qipan server over WebSocket (loopback only, bounded, stops by itself).

Starts a server in a subprocess (or targets one with --url), creates N games with two
human seats each, connects both players of every game by WebSocket and has them play
random legal moves, each after a short "thinking" pause. Reports moves per second and
the move round-trip (send -> the new state arrives back) at p50/p90/p99/max.

    .venv/bin/python benchmarks/load_ws.py --games 200 --moves 30 --think 0.5
    .venv/bin/python benchmarks/load_ws.py --games 50 --think 0     # saturation, no pause

Several processes (``qipan serve --redis``) on one PostgreSQL database: ``--processes 2
--redis redis://127.0.0.1:6379 --db postgresql://...``; game i is created on and played
through process i mod N (``--cross``: its second player on the next process, so every move
also crosses Redis).

A PostgreSQL ``--db`` names the server: each run creates a scratch database there and drops
it afterwards (``--reuse-db`` plays in the named one), so games left unfinished by earlier runs
are not resumed and claimed (a cost that grew run by run) while this one is measured.

The client checks what it receives: every update must be for the version it holds (its
base), the mover's legal list is what it picks from, and at the end every socket asks for
the whole state again (resync), which must equal the one it built from the updates. By
default it applies every SVG patch and expands the legal list as the browser does (about as
much CPU per move as the server spends); ``--lean`` skips the patches (the final check then
leaves the picture out) and keeps the legal moves in their compact form (expanded for the
final check), so that on a small machine the client takes less of the CPU the servers need.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import contextmanager
from urllib.parse import urlparse

import httpx
from websockets.asyncio.client import connect

from qipan.server.updates import apply, expand_legal


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(
    db: str,
    limits: str = "Limits.unlimited_rates()",
    redis: str | None = None,
    kernels: bool = False,
    wrapper: str | None = None,
    descriptors: int | None = None,
    build_tables: bool = False,
) -> tuple[subprocess.Popen, str]:
    """The server in a subprocess; ``limits`` is a Limits expression (default: no rate
    limits, as every client of a load test comes from 127.0.0.1); ``redis``: one of several
    processes on ``db``. The compiled kernels serve only bots, and compiling them at start
    takes about a CPU minute, so they are off unless ``kernels`` (bot games alongside).
    ``wrapper``: a Python file that runs the server code it is given (a profiler).
    ``descriptors``: the server's open-files limit, soft and hard (``ulimit -n``).
    ``build_tables``: build the perfect-play tables a fresh ``qipan serve`` builds once in the
    background (about 30 CPU s, in the server's process: off by default, as it would be
    measured along with the serving where the tables are not built yet)."""
    port = free_port()
    code = (
        "import qipan.server; from qipan.server.limits import Limits; "
        f"qipan.server.run(port={port}, db={db!r}, log_level='warning', limits={limits}, redis={redis!r}, "
        f"build_tables={build_tables!r})"
    )
    env = dict(os.environ) if kernels else {**os.environ, "QIPAN_KERNELS": "0"}
    command = [sys.executable, "-c", code] if wrapper is None else [sys.executable, wrapper, code]
    limit = None
    if descriptors is not None:
        import resource

        def limit():
            resource.setrlimit(resource.RLIMIT_NOFILE, (descriptors, descriptors))

    proc = subprocess.Popen(command, env=env, preexec_fn=limit)
    base = f"http://127.0.0.1:{port}"
    with httpx.Client(timeout=1) as http:  # one client: each new one loads the CA file (20 ms)
        for _ in range(3000):  # a busy machine imports slowly
            try:
                if http.get(base + "/healthz").status_code == 200:
                    return proc, base
            except httpx.HTTPError:
                time.sleep(0.05)
    proc.kill()
    raise SystemExit("the server did not start")


@contextmanager
def scratch_database(url: str, reuse: bool):
    """A fresh database on the PostgreSQL server of ``url``, dropped afterwards (the URL
    itself for SQLite or with ``reuse``)."""
    if reuse or not url.startswith(("postgresql://", "postgres://")):
        yield url
        return
    import sqlalchemy as sa

    from qipan.server.storage import normalise_url

    name = f"qipan_load_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(normalise_url(url), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    try:
        yield url.rsplit("/", 1)[0] + "/" + name
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


#: What the final check compares in lean mode (the picture is not kept up to date there).
NOT_COMPARED = ("type", "text")


class Player:
    """One seat's WebSocket: keeps the latest state and wakes whoever waits for a ply.
    ``lean``: SVG patches are not applied (the held picture goes stale)."""

    def __init__(self, ws, seat: int, lean: bool = False):
        self.ws = ws
        self.seat = seat
        self.lean = lean
        self.state: dict | None = None
        self.changed = asyncio.Event()
        self.errors = 0
        #: Updates that did not fit the state held (a wrong base version, a bad patch).
        self.mismatches = 0
        #: The whole state the server sent on the final resync.
        self.resynced: dict | None = None
        #: Per-change messages received (updates, not the first state) and their bytes.
        self.updates = 0
        self.update_bytes: list[int] = []

    async def read(self) -> None:
        async for raw in self.ws:
            message = json.loads(raw)
            if message["type"] == "state":
                if self.state is None:
                    self.state = message
                else:  # the answer to the final resync
                    self.resynced = message
                self.changed.set()
            elif message["type"] == "update":
                self.update_bytes.append(len(raw.encode() if isinstance(raw, str) else raw))
                if self.lean:  # the compact legal list is kept as it came (see move_texts)
                    message.pop("svg_patch", None)
                    legal, message["legal"] = message["legal"], []
                try:
                    self.state = apply(self.state, message)
                    if self.lean:
                        self.state["legal"] = legal
                except (ValueError, IndexError, TypeError):
                    self.mismatches += 1
                self.changed.set()
            elif message["type"] == "error":
                self.errors += 1
                self.changed.set()

    async def wait(self, predicate) -> None:
        while not (self.state and predicate(self.state)):
            self.changed.clear()
            await self.changed.wait()

    async def check(self) -> bool:
        """Ask for the whole state again; True if it equals the one built from the updates
        (less the picture when lean, and the legal moves the server sends only to a mover)."""
        self.changed.clear()
        await self.ws.send(json.dumps({"type": "resync"}))
        while self.resynced is None:
            await asyncio.wait_for(self.changed.wait(), 30)
            self.changed.clear()
        skip = NOT_COMPARED + (("svg",) if self.lean else ())
        held = {k: v for k, v in self.state.items() if k not in skip}
        if self.lean and self.state["legal"] and not isinstance(self.state["legal"][0], dict):
            held["legal"] = expand_legal(self.state["legal"])
        fresh = {k: v for k, v in self.resynced.items() if k not in skip}
        for state in (held, fresh):  # presence and clocks move on between the two
            state.pop("clock", None)
            if held["to_move"] != self.seat:  # updates bring legal moves to the mover only
                state.pop("legal", None)
            for seat in state.get("seats", ()):
                seat.pop("online", None)
        return held == fresh


async def setup_game(
    http: httpx.AsyncClient, ws_bases: list[str], game: str, lean: bool = False
) -> tuple[list[Player], list[asyncio.Task]]:
    """A game created through the first of ``ws_bases``, seat i's socket on ws_bases[i]."""
    r = await http.post(
        ws_bases[0].replace("ws", "http", 1) + "/api/games",
        json={
            "game": game,
            "seats": [
                {"kind": "human", "name": "A", "join": True},
                {"kind": "human", "name": "B", "join": True},
            ],
        },
    )
    r.raise_for_status()
    created = r.json()
    players, tasks = [], []
    for seat in sorted(created["seats"], key=lambda s: s["seat"]):
        ws = await connect(
            f"{ws_bases[seat['seat']]}/ws/games/{created['id']}",
            additional_headers={"Authorization": f"Bearer {seat['token']}"},
            max_size=1 << 22,
        )
        player = Player(ws, seat["seat"], lean)
        tasks.append(asyncio.create_task(player.read()))
        players.append(player)
    for p in players:
        await p.wait(lambda s: True)
    return players, tasks


async def play(
    players: list[Player],
    rng: random.Random,
    moves: int,
    think: float,
    latencies: list[float],
    stop_at: float,
) -> int:
    played = 0
    await asyncio.sleep(rng.uniform(0, think))  # do not all start in the same millisecond
    while played < moves and time.monotonic() < stop_at:
        seat = players[0].state["to_move"]
        state = players[seat].state if seat is not None else players[0].state
        if state["status"] != "active" or not state["legal"]:  # legal moves go to the mover only
            break
        if think:
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
        move = rng.choice(state["legal"])
        move = move["text"] if isinstance(move, dict) else move if isinstance(move, str) else move[0]
        ply = state["ply"]
        mover = players[seat]
        start = time.perf_counter()
        await mover.ws.send(json.dumps({"type": "move", "move": move, "ply": ply}))
        await mover.wait(lambda s, ply=ply: s["ply"] > ply)
        latencies.append(time.perf_counter() - start)
        for p in players:  # the next mover's legal moves come in its own update
            await p.wait(lambda s, ply=ply: s["ply"] > ply)
        played += 1
    return played


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process (Linux /proc)."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


#: The services a move also costs CPU in (their every process on this machine).
SERVICES = ("postgres", "redis-server")


def service_cpu() -> dict[str, float]:
    """CPU seconds of every process of each of SERVICES so far (Linux /proc; other users
    of the same services on the machine count too)."""
    seconds = dict.fromkeys(SERVICES, 0.0)
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                name = open(f"/proc/{entry}/comm").read().strip()
            except OSError:
                continue
            if name in seconds:
                seconds[name] += cpu_seconds(int(entry)) or 0.0
    return seconds


def total_cpu(procs: list[subprocess.Popen]) -> float | None:
    """CPU seconds of every server process together."""
    seconds = [cpu_seconds(p.pid) for p in procs]
    return sum(s for s in seconds if s is not None) if procs else None


def own_cpu() -> float:
    """User + system CPU seconds of this (load client) process."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(args) -> None:
    base = args.url
    procs: list[subprocess.Popen] = []
    server_cpu = None
    load_before = f"{os.getloadavg()[0]:.1f}"
    bases = [base]
    if base is None:
        if args.processes > 1 and not args.redis:
            raise SystemExit("--processes needs --redis (and a PostgreSQL --db)")
        db = args.database
        started = [
            start_server(db, redis=args.redis, kernels=args.bot_games > 0, wrapper=args.wrapper)
            for _ in range(args.processes)
        ]
        procs = [p for p, _ in started]
        bases = [b for _, b in started]
        base = bases[0]
    for b in bases:
        if urlparse(b).hostname not in ("127.0.0.1", "localhost", "::1"):
            raise SystemExit("load tests run against loopback only")
    ws_all = [b.replace("http", "ws", 1) for b in bases]

    def sockets_of(i: int) -> list[str]:
        first = ws_all[i % len(ws_all)]
        second = ws_all[(i + 1) % len(ws_all)] if args.cross else first
        return [first, second]

    try:
        limits = httpx.Limits(max_connections=50)
        async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as http:
            games = (await http.get("/api/specs")).json()["games"]
            ids = [g["id"] for g in games]
            game = (
                args.game
                if args.game in ids
                else next(
                    (g for g in ("nine-mens-morris", "pente") if g in ids),
                    next(g["id"] for g in games if 2 in g["players"]),
                )
            )
            bot = {"kind": "bot", "agent": "mcts", "limits": {"time": args.bot_time}}
            for _ in range(args.bot_games):  # bots thinking on the server while people play
                (await http.post("/api/games", json={"game": game, "seats": [bot, bot]})).raise_for_status()
            t0 = time.perf_counter()
            setups = []
            for i in range(0, args.games, 20):  # connect in batches
                setups += await asyncio.gather(
                    *(
                        setup_game(http, sockets_of(k), game, args.lean)
                        for k in range(i, min(args.games, i + 20))
                    )
                )
            setup_time = time.perf_counter() - t0
        setup_cpu = total_cpu(procs)
        client_before, services_before = own_cpu(), service_cpu()
        latencies: list[float] = []
        rng = random.Random(args.seed)
        stop_at = time.monotonic() + args.max_seconds
        t0 = time.perf_counter()
        counts = await asyncio.gather(
            *(
                play(players, random.Random(rng.random()), args.moves, args.think, latencies, stop_at)
                for players, _ in setups
            )
        )
        elapsed = time.perf_counter() - t0
        server_cpu, client_cpu = total_cpu(procs), own_cpu() - client_before
        services = {k: v - services_before[k] for k, v in service_cpu().items()}
        errors = sum(p.errors for players, _ in setups for p in players)
        sizes = [b for players, _ in setups for p in players for b in p.update_bytes]
        mismatches = sum(p.mismatches for players, _ in setups for p in players)
        checked = await asyncio.gather(*(p.check() for players, _ in setups for p in players))
        for players, tasks in setups:
            for p in players:
                await p.ws.close()
            for t in tasks:
                t.cancel()
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=10)
    total = sum(counts)
    ms = [x * 1000 for x in latencies]
    print(
        f"game {game}; {args.games} concurrent games, {2 * args.games} WebSockets; think {args.think}s; "
        f"{args.bot_games} bot-vs-bot games (mcts {args.bot_time}s/move) alongside; "
        f"db {urlparse(args.db or 'sqlite:').scheme or 'sqlite'}{', redis' if args.redis else ''}; "
        f"server {f'{len(procs)} subprocess(es)' if procs else base}"
        f"{', cross-process games' if args.cross else ''}; {os.cpu_count()} cores"
    )
    print(f"setup (create + connect): {setup_time:.1f}s")
    cpu = (
        f"CPU: load client {own_cpu():.1f}s, {client_cpu:.1f}s while playing "
        f"(~{1000 * client_cpu / max(1, total):.2f} ms per move)"
    )
    if server_cpu is not None:
        play_cpu = server_cpu - (setup_cpu or 0.0)
        cpu += (
            f"; server {server_cpu:.1f}s, {play_cpu:.1f}s while playing "
            f"(~{1000 * play_cpu / max(1, total):.2f} ms CPU per move)"
        )
    print(cpu + f"; load average before/after: {load_before} / {os.getloadavg()[0]:.1f}")
    print(
        "CPU of the services while playing: "
        + ", ".join(
            f"{k} {v:.1f}s (~{1000 * v / max(1, total):.2f} ms per move)" for k, v in services.items()
        )
    )
    print(f"moves: {total} in {elapsed:.1f}s = {total / elapsed:.0f} moves/s; errors: {errors}")
    print(
        f"client check ({'lean: pictures not patched' if args.lean else 'full: every SVG patch applied'}): "
        f"{mismatches} updates that did not fit; final resync equal to the state built "
        f"on {sum(checked)} of {len(checked)} sockets"
    )
    if sizes:
        per_move = sum(sizes) / max(1, total) / 2  # two sockets per game hear every move
        print(
            f"per-change messages: {len(sizes)}, bytes mean {statistics.mean(sizes):.0f}, "
            f"p99 {percentile(sizes, 0.99)}, max {max(sizes)}; per move and listener {per_move:.0f} bytes"
        )
    if ms:
        print(
            f"round-trip ms: p50 {percentile(ms, 0.5):.1f}  p90 {percentile(ms, 0.9):.1f}  "
            f"p99 {percentile(ms, 0.99):.1f}  max {max(ms):.1f}  mean {statistics.mean(ms):.1f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=30, help="moves per game at most")
    parser.add_argument("--think", type=float, default=0.5, help="mean pause before each move (seconds)")
    parser.add_argument("--game", default=None, help="game id (default: nine-mens-morris)")
    parser.add_argument("--url", default=None, help="target a running server on loopback instead")
    parser.add_argument(
        "--db", default=None, help="database URL for the started server (default: temp SQLite)"
    )
    parser.add_argument("--max-seconds", type=float, default=120.0, help="stop playing after this long")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--bot-games", type=int, default=0, help="bot-vs-bot games thinking on the server meanwhile"
    )
    parser.add_argument("--bot-time", type=float, default=0.5, help="seconds per bot move")
    parser.add_argument("--processes", type=int, default=1, help="server processes to start (needs --redis)")
    parser.add_argument("--redis", default=None, help="redis:// URL for several processes")
    parser.add_argument(
        "--wrapper", default=None, help="a Python file that runs the server code it is given (a profiler)"
    )
    parser.add_argument("--cross", action="store_true", help="each game's second player on the next process")
    parser.add_argument(
        "--lean", action="store_true", help="do not apply SVG patches (versions and moves still checked)"
    )
    parser.add_argument(
        "--reuse-db", action="store_true", help="play in the PostgreSQL database named, not a scratch one"
    )
    args = parser.parse_args()
    default = f"sqlite:///{tempfile.mkdtemp(prefix='qipan-load-')}/load.sqlite3"
    with scratch_database(args.db or default, args.reuse_db or args.url is not None) as args.database:
        try:  # the load client shares the machine with the server: keep it light
            import uvloop

            uvloop.run(run(args))
        except ImportError:
            asyncio.run(run(args))


if __name__ == "__main__":
    main()
