"""Engine speed: random playouts (plies per second) and perft nodes per second, beside a
plain dict-board implementation of the same rules run in the same process (the peer).

    .venv/bin/python benchmarks/pente_speed.py --seconds 3
"""

from __future__ import annotations

import argparse
import random
import time

import qipan

DIRS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]


def engine_playouts(seconds: float) -> float:
    game = qipan.load("pente")
    rng = random.Random(1)
    plies, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new()
        while state.outcome is None:
            moves = state.legal_moves()
            state._undo_stack.append(state._apply(rng.choice(moves)))
            plies += 1
    return plies / (time.perf_counter() - start)


def naive_playouts(seconds: float) -> float:
    """The peer: a dict board, captures and five-in-a-row checked by plain loops."""
    rng = random.Random(1)
    points = [(x, y) for x in range(19) for y in range(19)]
    plies, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
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
    return plies / (time.perf_counter() - start)


def perft_rate() -> tuple[int, float]:
    state = qipan.load("pente", board_size=7).new()
    start = time.perf_counter()

    def perft(depth: int) -> int:
        moves = state.legal_moves()
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            token = state._apply(move)
            total += perft(depth - 1)
            state._revert(token)
        return total

    nodes = perft(5)
    return nodes, nodes / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    ours = engine_playouts(args.seconds)
    peer = naive_playouts(args.seconds)
    print(
        f"random playouts, 19x19: engine {ours:,.0f} plies/s, dict-board peer {peer:,.0f} plies/s, "
        f"ratio {ours / peer:.1f}x"
    )
    nodes, rate = perft_rate()
    print(f"perft(5) on 7x7 = {nodes:,} leaves at {rate:,.0f} leaves/s (bulk-counted last ply)")


if __name__ == "__main__":
    main()
