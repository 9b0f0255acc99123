"""Exactness of the batched step (``qipan.rl.vector``): 1,000 seeded random games per game
with a batched kernel, stepped side by side with the reference rules, comparing every ply's
masks, observations, rewards and ends (``check_against_reference``; the tests run fewer).

    .venv/bin/python benchmarks/rl_vector_exact.py [--games 1000] [--preset pente]
"""

from __future__ import annotations

import argparse
import time

from qipan.rl.vector import check_against_reference

CASES = [("nine-mens-morris", {}), ("openspiel", {}), ("pente", {}), ("pente", {"board_size": 9})]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--preset", action="append", help="only these presets (repeatable)")
    args = ap.parse_args()
    for preset, options in CASES:
        if args.preset and preset not in args.preset:
            continue
        start, plies = time.process_time(), 0
        for seed in range(0, args.games, args.batch):
            plies += check_against_reference(preset, args.batch, seed, 1000, **options)
        print(
            f"{preset} {options}: {args.games} games, {plies:,} game-plies agree ({time.process_time() - start:.0f} CPU s)"
        )


if __name__ == "__main__":
    main()
