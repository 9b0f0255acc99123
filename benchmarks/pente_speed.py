"""Engine speed: random playouts (plies per second) and perft nodes per second, beside a
plain dict-board implementation of the same rules run in the same process (the peer).
CPU time (``time.process_time``); min/median/max of 3 runs.

    .venv/bin/python benchmarks/pente_speed.py --seconds 3
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import qipan
from qipan.core.perft import perft

DIRS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]


def engine_playouts(seconds: float) -> float:
    game = qipan.load("pente")
    rng = random.Random(1)
    plies, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        state = game.new()
        while state.outcome is None:
            state.play_unchecked(state.random_move(rng))
            plies += 1
    return plies / (time.process_time() - start)


def naive_playouts(seconds: float) -> float:
    """The peer: a dict board, captures and five-in-a-row checked by plain loops."""
    rng = random.Random(1)
    points = [(x, y) for x in range(19) for y in range(19)]
    plies, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        board: dict[tuple[int, int], int] = {}
        caps = [0, 0]
        me, ply = 0, 0
        while True:
            empty = [(9, 9)] if ply == 0 else [p for p in points if p not in board]
            if not empty:
                break
            x, y = rng.choice(empty)
            board[(x, y)] = me
            for dx, dy in DIRS:
                a, b, c = (x + dx, y + dy), (x + 2 * dx, y + 2 * dy), (x + 3 * dx, y + 3 * dy)
                if board.get(a) == 1 - me and board.get(b) == 1 - me and board.get(c) == me:
                    del board[a], board[b]
                    caps[me] += 2
            five = False
            for dx, dy in DIRS[:4]:
                n = 1
                for sign in (1, -1):
                    k = 1
                    while board.get((x + sign * k * dx, y + sign * k * dy)) == me:
                        n += 1
                        k += 1
                five = five or n >= 5
            plies += 1
            ply += 1
            if five or caps[me] >= 10:
                break
            me = 1 - me
    return plies / (time.process_time() - start)


def perft_rate() -> tuple[int, float]:
    state = qipan.load("pente", board_size=7).new()
    start = time.process_time()
    nodes = perft(state, 5)
    return nodes, nodes / (time.process_time() - start)


def spread(values: list[float]) -> str:
    return f"min {min(values):,.0f} / median {statistics.median(values):,.0f} / max {max(values):,.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per playout run")
    args = parser.parse_args()
    ours, peer, ratios = [], [], []
    for _ in range(3):
        ours.append(engine_playouts(args.seconds))
        peer.append(naive_playouts(args.seconds))
        ratios.append(ours[-1] / peer[-1])
    print(
        f"random playouts, 19x19, plies per CPU second: engine {spread(ours)}; dict-board peer {spread(peer)}"
    )
    print(
        f"ratio engine/peer: min {min(ratios):.2f} / median {statistics.median(ratios):.2f} / max {max(ratios):.2f}"
    )
    runs = [perft_rate() for _ in range(3)]
    print(f"perft(5) on 7x7 = {runs[0][0]:,} leaves, leaves per CPU second: {spread([r for _, r in runs])}")


if __name__ == "__main__":
    main()
