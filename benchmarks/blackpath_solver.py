"""Black Path solver: time to solve the seed and ww variants from the start, per board size.

    .venv/bin/python benchmarks/blackpath_solver.py [--max-cells 36] [--limit 60]

Every board with both sides from 4 up to the cell bound (seed) and the even/odd ww boards up
to 6x6 is solved exactly; a board that passes ``--limit`` seconds is reported as timed out.
The peer in the same run is a plain search through the engine's own State API (no memo),
run on the boards where it finishes quickly, to show what the memoisation buys."""

from __future__ import annotations

import argparse
import time

from qipan.core.errors import SearchTimeout
from qipan.games.blackpath.rules import BlackPathGame
from qipan.games.blackpath.solver import Solver, mover_wins_by_plain_search


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-cells", type=int, default=49)
    parser.add_argument("--limit", type=float, default=60.0)
    args = parser.parse_args()
    boards = [(r, c) for r in range(4, 8) for c in range(r, 10) if r * c <= args.max_cells]
    print(f"{'board':>6} {'variant':>7} {'winner':>6} {'first move':>10} {'positions':>10} {'seconds':>8}")
    for variant in ("seed", "ww"):
        for rows, cols in boards:
            if variant == "ww" and rows * cols > 36:
                continue
            solver = Solver(rows, cols, variant)
            solver.deadline = time.perf_counter() + args.limit
            start = time.perf_counter()
            try:
                winner, move = solver.solve()
                result = f"P{winner + 1:<5} {move or '-':>10}"
            except SearchTimeout:
                result = f"{'timeout':>6} {'':>10}"
            took = time.perf_counter() - start
            print(f"{rows}x{cols:<4} {variant:>7} {result} {len(solver.memo):>10} {took:8.2f}", flush=True)
    print("\npeer: plain search over the State API without memoisation (seed variant)")
    for rows, cols in [(4, 5), (5, 5), (5, 6)]:
        start = time.perf_counter()
        mover_wins_by_plain_search(BlackPathGame(rows=rows, cols=cols).new())
        plain = time.perf_counter() - start
        start = time.perf_counter()
        Solver(rows, cols).solve()
        fast = time.perf_counter() - start
        print(f"{rows}x{cols}: plain {plain:.3f}s, solver {fast:.4f}s, ratio {plain / max(fast, 1e-9):.0f}x")


if __name__ == "__main__":
    main()
