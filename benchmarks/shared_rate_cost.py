"""What a per-address rate check costs when several processes count it in Redis
(``qipan.server.limits.SharedCounts``), against a process's own token bucket.

Checks --checks requests spread over --addresses client addresses (all allowed: each
address stays under its burst) at the WebSocket message defaults (200 a second, burst 400),
and prints CPU and wall microseconds per check.

    .venv/bin/python benchmarks/shared_rate_cost.py --redis redis://127.0.0.1:6379
"""

from __future__ import annotations

import argparse
import asyncio
import time
import uuid

from qipan.server.limits import Limits, SharedCounts, TokenBuckets
from qipan.server.pubsub import redis_client


async def measure(url: str, checks: int, addresses: int) -> None:
    limits = Limits()
    client = redis_client(url, timeout=2)
    shared = SharedCounts(
        client, f"qipan:bench-{uuid.uuid4().hex}:ws", limits.ws_address_rate, limits.ws_address_burst
    )
    names = [f"10.0.{i // 256}.{i % 256}" for i in range(addresses)]
    allowed = 0
    cpu, wall = time.process_time(), time.perf_counter()
    for i in range(checks):
        allowed += await shared.wait(names[i % addresses]) == 0
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    own = TokenBuckets(limits.ws_address_rate, limits.ws_address_burst)
    local = time.process_time()
    for i in range(checks):
        own.wait(names[i % addresses])
    local = time.process_time() - local
    await client.aclose()
    print(
        f"{checks} checks over {addresses} addresses, {allowed} allowed, chunk {shared.chunk}: "
        f"shared {1e6 * cpu / checks:.1f} us CPU, {1e6 * wall / checks:.1f} us wall per check; "
        f"own bucket {1e6 * local / checks:.1f} us CPU per check"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis", default="redis://127.0.0.1:6379")
    parser.add_argument("--checks", type=int, default=15_000)
    parser.add_argument("--addresses", type=int, default=50)
    args = parser.parse_args()
    if args.checks > args.addresses * Limits().ws_address_burst:
        parser.error("keep each address under its burst: fewer --checks or more --addresses")
    asyncio.run(measure(args.redis, args.checks, args.addresses))


if __name__ == "__main__":
    main()
