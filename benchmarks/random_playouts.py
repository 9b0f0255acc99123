"""Random playouts of Trax, Tantrix and MOD X: the games' own ``random_move`` against the
base class's (uniform over ``legal_moves()``), in one process, on CPU time.

    .venv/bin/python benchmarks/random_playouts.py [--seconds 2] [PRESET ...]

Each run plays whole random games (chance moves too, as ``qipan bench`` does) for at least
``--seconds`` CPU seconds and counts actions; three runs per path, min/median/max printed,
and the ratio of the medians (fast / base)."""

from __future__ import annotations

import argparse
import random
import statistics
import time

import qipan
from qipan.core.game import State

PRESETS = [
    "trax",
    "trax-8x8",
    "trax-loop",
    "tantrix",
    "tantrix-tournament",
    "tantrix-doubles",
    "modx",
    "modx-4",
]


def base_random_move(state, rng):
    # The path every game had before it overrode random_move: kept callable for the ratio.
    return State.random_move(state, rng)


def fast_random_move(state, rng):
    return state.random_move(rng)


def playout_rate(game, pick, seconds: float, seed: int) -> float:
    """Actions per CPU second over whole random games."""
    rng = random.Random(seed)
    actions = 0
    start = time.process_time()
    while True:
        state = game.new(seed=rng.randrange(1 << 30))
        while state.outcome is None and state.ply < 10_000:
            state.play_unchecked(pick(state, rng))
            actions += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return actions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("presets", nargs="*", default=PRESETS)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    print(f"actions per CPU second, 3 runs of >= {args.seconds} s each (min / median / max)")
    print(f"{'preset':<20} {'base random_move':>28} {'game random_move':>28} {'ratio':>6}")
    for preset in args.presets:
        game = qipan.load(preset)
        # Untimed first: memoised tables (Tantrix's fitting patterns) fill up for both paths.
        playout_rate(game, base_random_move, args.seconds / 2, 99)
        playout_rate(game, fast_random_move, args.seconds / 2, 99)
        rates = {"base": [], "fast": []}
        for run in range(3):  # interleaved, so a change in the machine's load hits both
            rates["base"].append(playout_rate(game, base_random_move, args.seconds, run))
            rates["fast"].append(playout_rate(game, fast_random_move, args.seconds, run))
        cols = []
        for name in ("base", "fast"):
            r = sorted(rates[name])
            cols.append(f"{r[0]:>8,.0f} {r[1]:>9,.0f} {r[2]:>9,.0f}")
        ratio = statistics.median(rates["fast"]) / statistics.median(rates["base"])
        print(f"{preset:<20} {cols[0]:>28} {cols[1]:>28} {ratio:>5.2f}x", flush=True)


if __name__ == "__main__":
    main()
