"""Playouts per CPU second of the Tantrix agent's playout paths (``playouts.playout``):
listing every legal placement at each step (``tantrix-classic``) against drawing the
uniform share with ``state.random_move`` (``fast=True``, the ``tantrix`` agent without a
kernel), and the compiled kernel's (``kernel.Playouts.after``, one call per playout, as the
``tantrix`` agent runs them with ``qipan[fast]``). The same policy; the start positions are
seeded random two-player games 20 to 40 plies in. Prints min / median / max of ``--runs``
runs of about ``--seconds`` CPU seconds each.

    .venv/bin/python benchmarks/tantrix_playouts.py --seconds 5 --runs 3
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import qipan  # noqa: E402
from cpu_timing import cpu_rate  # noqa: E402
from qipan.games.tantrix import playouts  # noqa: E402


def starts(count: int = 6) -> list:
    game = qipan.load("tantrix")
    out = []
    for seed in range(count):
        state = game.new(players=2)
        rng = random.Random(seed)
        while state.ply < 20 + 4 * seed:
            state.play(state.random_move(rng))
        out.append(state)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    positions = starts()
    kernel = positions[0].game.kernel()
    paths = [False, True] + (["kernel"] if kernel is not None else [])
    if kernel is not None:
        kernel.warm_up(positions[0].game.new(players=2))  # compiling is not a playout's cost
        runners = []
        for state in positions:
            s = kernel.state(state)
            player = max(state.to_move, 0)
            runners.append((kernel.playouts(s, player, seed=1).after, state.legal_moves()[0]))
    rates = {path: [] for path in paths}
    for _ in range(args.runs):
        for path in paths:  # interleaved, so a busy moment slows all
            rng = random.Random(1)

            def work(path=path, rng=rng):
                if path == "kernel":
                    for after, move in runners:
                        after(move, None)
                    return len(runners)
                for state in positions:
                    playouts.playout(state.copy(), 0, rng, fast=path)
                return len(positions)

            rates[path].append(cpu_rate(work, args.seconds))
    labels = {
        False: "listing (tantrix-classic)",
        True: "fast (tantrix, Python)",
        "kernel": "kernel (tantrix)",
    }
    for path in paths:
        r = sorted(rates[path])
        print(
            f"{labels[path]:26s} playouts per CPU s: min {r[0]:.1f}  median {statistics.median(r):.1f}  max {r[-1]:.1f}"
        )
    ratio = statistics.median(rates[True]) / statistics.median(rates[False])
    print(f"ratio of the medians, fast / listing: {ratio:.2f}")
    if kernel is not None:
        ratio = statistics.median(rates["kernel"]) / statistics.median(rates[True])
        print(f"ratio of the medians, kernel / fast: {ratio:.1f}")


if __name__ == "__main__":
    main()
