"""A visitor's response time while one address holds many half-sent requests open.

Starts the server in a subprocess under ``ulimit -n`` (soft and hard, so it cannot raise
it), opens --half-open connections from 127.0.0.2 that each send part of a request's
headers and never finish, then times --visits requests of a visitor from 127.0.0.1 (the
lobby's game list) while they are held, and counts how many of the half-sent connections
the server has closed after --hold seconds. Loopback only, bounded in count and time.

    .venv/bin/python benchmarks/slow_clients.py --half-open 1100 --ulimit 1024
"""

from __future__ import annotations

import argparse
import resource
import selectors
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_ws import percentile, start_server  # noqa: E402

ATTACKER = "127.0.0.2"
PARTIAL = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow"


def half_open(port: int, count: int) -> list[socket.socket]:
    socks = []
    for _ in range(count):
        s = socket.socket()
        s.bind((ATTACKER, 0))
        s.settimeout(5)
        try:
            s.connect(("127.0.0.1", port))
            s.sendall(PARTIAL)
        except OSError:
            pass
        socks.append(s)
    return socks


def still_open(socks: list[socket.socket]) -> int:
    """How many of the sockets the server has not closed (a closed one reads as EOF/reset)."""
    selector = selectors.DefaultSelector()
    for s in socks:
        s.setblocking(False)
        selector.register(s, selectors.EVENT_READ)
    closed = set()
    for _ in range(3):  # drain what is ready (a 408 is followed by the close)
        for key, _ in selector.select(timeout=0.2):
            try:
                if key.fileobj.recv(4096):
                    continue
            except ConnectionError:
                pass
            closed.add(key.fileobj)
            selector.unregister(key.fileobj)
    selector.close()
    return len(socks) - len(closed)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--half-open", type=int, default=1100)
    parser.add_argument("--ulimit", type=int, default=1024)
    parser.add_argument("--visits", type=int, default=50)
    parser.add_argument("--hold", type=float, default=20.0, help="seconds before counting the closed ones")
    args = parser.parse_args()
    if args.half_open > 5000 or args.visits > 1000 or args.hold > 120:
        raise SystemExit("at most 5,000 connections, 1,000 visits and 120 s")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < args.half_open + 100 <= hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    db = f"sqlite:///{tempfile.mkdtemp(prefix='qipan-slow-')}/slow.sqlite3"
    proc, base = start_server(db, "Limits()", descriptors=args.ulimit)
    port = int(base.rsplit(":", 1)[1])
    try:
        start = time.monotonic()
        socks = half_open(port, args.half_open)
        print(
            f"{args.half_open} half-sent requests from {ATTACKER} opened in {time.monotonic() - start:.1f} s"
        )
        times, failures = [], 0
        with httpx.Client(base_url=base, timeout=10) as http:
            for _ in range(args.visits):
                began = time.perf_counter()
                try:
                    ok = http.get("/api/games", headers={"Connection": "close"}).status_code == 200
                except httpx.HTTPError:
                    ok = False
                if ok:
                    times.append((time.perf_counter() - began) * 1000)
                else:
                    failures += 1
        if times:
            print(
                f"visitor from 127.0.0.1 under ulimit -n {args.ulimit}: {len(times)}/{args.visits} served, "
                f"response ms median {statistics.median(times):.1f}  p99 {percentile(times, 0.99):.1f}  "
                f"max {max(times):.1f}"
            )
        else:
            print(f"visitor from 127.0.0.1 under ulimit -n {args.ulimit}: 0/{args.visits} served")
        time.sleep(max(0.0, args.hold - (time.monotonic() - start)))
        print(f"after {args.hold:g} s: {still_open(socks)} of {args.half_open} half-sent requests still open")
        for s in socks:
            s.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()
